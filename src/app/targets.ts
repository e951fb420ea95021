/**
 * Where a webhook may POST: http(s) to a public address. Loopback, private, link-local,
 * shared (CGNAT), multicast and reserved addresses are refused (the service must not be a
 * way into its own network) unless WEBHOOK_ALLOW_PRIVATE=true, also when written as IPv6
 * that carries them (::ffff:10.0.0.1, ::7f00:1, ::ffff:0:7f00:1, 2002:7f00:1::). Checked when the webhook is
 * created, and again on every attempt on the address the name resolves to then (the name
 * may have changed: DNS rebinding); redirects are never followed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from './errors.ts';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
// NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and Teredo (2001::/32, inside 2001::/23) reach IPv4
// hosts through a relay whose view of "private" is not ours: refused whole.
for (const [net, bits] of [['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/**
 * The IPv4 address an IPv6 one carries in a form that reaches it: IPv4-compatible (::/96),
 * IPv4-mapped (::ffff:0:0/96), SIIT (::ffff:0:0:0/96) and 6to4 (2002::/16).
 */
function embeddedIPv4(address: string): string | null {
  const [a, b, c, d, e, f, g, h] = ipaddr.IPv6.parse(address).parts as [number, number, number, number, number, number, number, number];
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (a === 0 && b === 0 && c === 0 && d === 0) {
    if (e === 0 && (f === 0 || f === 0xffff)) return v4(g, h); // ::a.b.c.d (:: itself is 0.0.0.0), ::ffff:a.b.c.d
    if (e === 0xffff && f === 0) return v4(g, h); // ::ffff:0:a.b.c.d
  }
  if (a === 0x2002) return v4(b, c);
  return null;
}

/** True for an address a webhook may not reach (an IPv6 address carrying an IPv4 one is judged as that IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const v4 = embeddedIPv4(address.replace(/%.*$/, ''));
    if (v4) return isPrivateAddress(v4);
  }
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL, checked for its form: http(s), a host, at most 2000 characters. */
export function parseTarget(url: unknown): URL {
  if (typeof url !== 'string' || url.length > 2000) throw new AppError('BAD_REQUEST', 'A webhook url is an http:// or https:// URL of at most 2000 characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('BAD_REQUEST', `"${url.slice(0, 80)}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AppError('BAD_REQUEST', 'A webhook url starts with http:// or https://');
  if (!parsed.hostname) throw new AppError('BAD_REQUEST', 'A webhook url names a host');
  return parsed;
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Refuses a target that is, or resolves to, a private address (unless allowed). */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (e, a) => (e ? reject(e) : resolve(a))))).map((a) => a.address);
    } catch (error) {
      throw new AppError('BAD_REQUEST', `The webhook's host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad) {
    throw new AppError(
      'BAD_REQUEST',
      `The webhook's host ${host} is a loopback or private address (${bad}): webhooks go to public addresses only (for local development, the service's operator may start it with WEBHOOK_ALLOW_PRIVATE=true)`,
    );
  }
}

/**
 * A `lookup` for http.request that refuses private addresses: the check happens on the very
 * address the connection is made to.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(Object.assign(new Error(`${hostname} resolves to a private address (${bad.address}): not delivered`), { code: 'EPRIVATE' }), []);
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
