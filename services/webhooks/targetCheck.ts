/**
 * Where a webhook may be delivered, checked before every attempt: the host is resolved
 * and every address it resolves to must be public. Private (10/8, 172.16/12,
 * 192.168/16, 100.64/10), loopback, link-local, unique-local (fc00::/7), unspecified,
 * multicast and IPv4-mapped forms of them are refused, unless the operator allows
 * private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS): a project owner must not make the
 * service call into the network it runs in. Checking every attempt (not only at
 * registration) keeps a name that later resolves inward from being followed.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether `address` (an IP) is private, loopback, link-local or unique-local. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Null when `url` may be delivered to; else why not. */
export async function targetProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'the URL cannot be read';
  }
  if (allowPrivate) return null;
  const addresses = isIP(host)
    ? [host]
    : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  const inward = addresses.find(isPrivateAddress);
  return inward ? `the host ${host} resolves to a non-public address (${inward})` : null;
}

/** The rules of a URL at registration: http(s), no credentials. */
export function urlProblem(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return 'the URL must be http or https';
    if (parsed.username || parsed.password) return 'the URL may not carry credentials';
    return null;
  } catch {
    return 'the URL cannot be read';
  }
}
