import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Fetching a URL a user typed (an avatar address) must not let them reach the
 * server's own network. Every connection — the first and each redirect — goes
 * through a DNS lookup that refuses loopback, private, link-local and other
 * special addresses, and the socket connects to the address that was checked
 * (no DNS rebinding between check and use).
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible (::a.b.c.d, ::7f00:1): deprecated, and a way to spell 127.0.0.1 in IPv6.
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/**
 * An address may be reached only if it is plain public unicast. ipaddr.js
 * parses every spelling (hex IPv4-mapped `::ffff:7f00:1`, zone ids, IPv4 in
 * IPv6) and names its range; anything but 'unicast' (loopback, private,
 * 6to4, Teredo, NAT64 and the rest) is refused, and the list above catches
 * the special-purpose blocks it counts as unicast.
 */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  // IPv4-mapped (::ffff:127.0.0.1, ::ffff:7f00:1) is judged by the IPv4 address inside it.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== 'unicast') return true;
  const normal = parsed.toNormalizedString();
  return parsed.kind() === 'ipv4' ? blocked.check(normal, 'ipv4') : blocked.check(parsed.toString(), 'ipv6');
}

export class UnsafeUrlError extends Error {}

export interface SafeFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  /** Tests may allow their own local server; production never sets this. */
  isBlocked?: (address: string) => boolean;
}

export interface FetchedBody {
  body: Buffer;
  contentType: string | null;
}

export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<FetchedBody> {
  const isBlocked = options.isBlocked ?? isBlockedAddress;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let url = parseHttpUrl(rawUrl);
  for (let redirects = 0; ; redirects += 1) {
    const response = await request(url, isBlocked, deadline, options.maxBytes);
    if ('location' in response) {
      if (redirects >= (options.maxRedirects ?? 3)) throw new UnsafeUrlError('Too many redirects.');
      url = parseHttpUrl(new URL(response.location, url).toString());
      continue;
    }
    return response;
  }
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('The address is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrlError('Only http and https addresses can be used.');
  if (url.username || url.password) throw new UnsafeUrlError('Addresses with credentials cannot be used.');
  return url;
}

function checkedLookup(isBlocked: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isBlocked(a.address));
      if (bad || list.length === 0) {
        return callback(new UnsafeUrlError('This address points to a private network.'), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * A lookup that answers only the addresses already checked, whatever name it
 * is asked for: the socket goes where the check looked, and a name that
 * resolves elsewhere a moment later (DNS rebinding) is never asked again. The
 * request keeps its hostname, so TLS still sends it (SNI, certificate check)
 * and Host still names it.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const list = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  return (_hostname, options, callback) => {
    if (!list.length) return callback(new UnsafeUrlError('The address could not be reached.'), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  };
}

function request(url: URL, isBlocked: (address: string) => boolean, signal: AbortSignal, maxBytes: number): Promise<FetchedBody | { location: string }> {
  // A literal IP skips DNS, so check it here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && isBlocked(host)) return Promise.reject(new UnsafeUrlError('This address points to a private network.'));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { lookup: checkedLookup(isBlocked), signal, headers: { 'user-agent': 'DriveAvatarFetcher/1.0' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ location: res.headers.location });
      }
      if (status !== 200) {
        res.resume();
        return reject(new UnsafeUrlError('The address did not answer with a file.'));
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        res.destroy();
        return reject(new UnsafeUrlError('The file at this address is too large.'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          reject(new UnsafeUrlError('The file at this address is too large.'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ body: Buffer.concat(chunks), contentType: res.headers['content-type'] ?? null }));
      res.on('error', reject);
    });
    req.on('error', (error) =>
      reject(
        error instanceof UnsafeUrlError
          ? error
          : new UnsafeUrlError(signal.aborted ? 'The address took too long to answer.' : 'The address could not be reached.'),
      ),
    );
  });
}
