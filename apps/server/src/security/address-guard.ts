import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * The one guard on where the server's outbound fetches may connect (the media proxy, the username
 * site checker): private, loopback, link-local, shared, multicast and reserved ranges are refused
 * unless the operator's list allows them (entries as `parseAllowedAddress` reads them: an address or
 * CIDR block with an optional port; without a port only 80 and 443 are opened). The address checked is
 * the one the socket connects to: `lookupFor(port)` is a DNS lookup for `http.request`'s `lookup`
 * option that fails with `ADDRESS_REFUSED` when any answer is refused, so a DNS answer cannot swap in
 * 127.0.0.1 after a check. A literal IP never goes through DNS: callers check it with `allowed`.
 */

/** An address an outbound fetch may reach although it is private: an address or block, and its port. */
export interface AllowedAddress {
  address: string;
  family: 'ipv4' | 'ipv6';
  /** A CIDR block's prefix length; undefined for one address. */
  bits: number | undefined;
  /** The one port allowed; undefined: only 80 and 443 (the web's ports, not a database's). */
  port: number | undefined;
}

/** The ports an allowed address without its own port may be reached on. */
export const DEFAULT_ALLOWED_PORTS: readonly number[] = [80, 443];

/**
 * An IP address or a CIDR block, with an optional port: `127.0.0.1`, `10.0.0.0/8`, `10.0.0.5:8080`,
 * `::1`, `fd00::/8`, `[fd00::1]:443`, `[fd00::/8]:8443`. Undefined when it is none of these.
 */
export function parseAllowedAddress(value: string): AllowedAddress | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  const v4WithPort = /^([\d./]+):(\d{1,5})$/.exec(value);
  const [block, portText] = bracketed
    ? [bracketed[1], bracketed[2]]
    : v4WithPort
      ? [v4WithPort[1], v4WithPort[2]]
      : [value, undefined];
  const [address, bitsText, ...rest] = (block ?? '').split('/');
  if (rest.length > 0 || !address) return undefined;
  const family = isIP(address);
  if (family === 0 || (bracketed && family !== 6)) return undefined;
  let bits: number | undefined;
  if (bitsText !== undefined) {
    if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > (family === 4 ? 32 : 128)) return undefined;
    bits = Number(bitsText);
  }
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  return { address, family: family === 4 ? 'ipv4' : 'ipv6', bits, port };
}

/** An IP address or a CIDR block, with an optional port (parseAllowedAddress): config.ts checks the lists with it. */
export const isAddressOrBlock = (value: string): boolean => parseAllowedAddress(value) !== undefined;

/** The `code` of the error `lookupFor`'s lookup fails with when an answer is a refused address. */
export const ADDRESS_REFUSED = 'EADDRESS_REFUSED';

/** The signature `http.request`'s `lookup` option expects (node's own `dns.lookup`). */
export type GuardedLookup = (
  hostname: string,
  options: object,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface AddressGuard {
  /** A public address on any port; a private one only as the operator's list allows it, port included. */
  allowed(address: string, port: number): boolean;
  /** A DNS lookup that refuses to hand the socket an address `allowed` refuses on `port`. */
  lookupFor(port: number): GuardedLookup;
}

/** Private, loopback, link-local, shared, multicast and reserved ranges: never reached unless allowed. */
function privateRanges(): BlockList {
  const list = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(net, bits, 'ipv4');
  }
  for (const [net, bits] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(net, bits, 'ipv6');
  }
  return list;
}

/** The operator's allowed private addresses, each a one-entry BlockList and the ports it opens. */
function allowedBlocks(entries: readonly string[]): Array<{ list: BlockList; ports: readonly number[] }> {
  return entries.flatMap((entry) => {
    const parsed = parseAllowedAddress(entry);
    if (!parsed) return [];
    const list = new BlockList();
    if (parsed.bits === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.bits, parsed.family);
    return [{ list, ports: parsed.port === undefined ? DEFAULT_ALLOWED_PORTS : [parsed.port] }];
  });
}

/** `::ffff:10.0.0.1` is 10.0.0.1. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function createAddressGuard(allowAddresses: readonly string[]): AddressGuard {
  const blocked = privateRanges();
  const allowedEntries = allowedBlocks(allowAddresses);

  const allowed = (raw: string, port: number): boolean => {
    const { address, family } = unmapped(raw);
    if (!blocked.check(address, family)) return true;
    return allowedEntries.some((entry) => entry.ports.includes(port) && entry.list.check(address, family));
  };

  const lookupFor =
    (port: number): GuardedLookup =>
    (hostname, lookupOptions, callback) => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error, '');
        const list = addresses as LookupAddress[];
        const bad = list.find((entry) => !allowed(entry.address, port));
        if (bad || list.length === 0) {
          const refusal = Object.assign(new Error('private address'), { code: ADDRESS_REFUSED });
          return callback(refusal, '');
        }
        if ((lookupOptions as { all?: boolean }).all) return callback(null, list);
        const first = list[0] as LookupAddress;
        callback(null, first.address, first.family);
      });
    };

  return { allowed, lookupFor };
}
