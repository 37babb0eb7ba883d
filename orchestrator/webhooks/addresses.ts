/**
 * Where a webhook may point (docs/webhooks.md, "Security"): `http`/`https` URLs without credentials, whose host
 * resolves only to public addresses. Loopback, private, link-local, unique-local, carrier-grade NAT, multicast and
 * reserved ranges are refused, at creation and again at every delivery: the delivery connects to the very address
 * that was checked (the check is the connection's DNS lookup), so a name that resolves to a public address when
 * checked and to a private one a moment later (DNS rebinding) cannot reach inside. An installation whose receivers
 * are on its own network sets WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { urlProblem } from '../../schema/webhooks.ts';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::a.b.c.d, written ::7f00:1 by URL parsers)
  ['::ffff:0:0:0', 96], // SIIT IPv4-translated
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2002::', 16], // 6to4 (an IPv4 address inside)
  ['2001::', 32], // Teredo (an IPv4 address inside)
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is one a webhook may reach without WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner) return isPublicAddress(inner);
  return !blocked.check(address, 'ipv6');
}

export class WebhookAddressError extends Error {
  override name = 'WebhookAddressError';
}

/**
 * A DNS lookup for the delivery's connection that answers only public addresses (all of them checked), or fails with
 * WebhookAddressError. With `allowPrivate` it is the plain lookup.
 */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as { address: string; family: number }[];
      if (list.length === 0) return callback(new WebhookAddressError(`${hostname} has no address`), '', 4);
      if (!allowPrivate) {
        const inside = list.find((entry) => !isPublicAddress(entry.address));
        if (inside)
          return callback(
            new WebhookAddressError(`${hostname} resolves to ${inside.address}, a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)`),
            '',
            4,
          );
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Resolves the URL's host and refuses private targets (at creation and on change); answers the problem or null. */
export async function targetProblem(text: string, allowPrivate: boolean): Promise<string | null> {
  const problem = urlProblem(text);
  if (problem) return problem;
  if (allowPrivate) return null;
  const host = new URL(text).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? null : `points at ${host}, a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)`;
  return new Promise((resolve) => {
    checkedLookup(false)(host, { all: true }, (error) => {
      if (!error) return resolve(null);
      resolve(
        error instanceof WebhookAddressError
          ? error.message
          : `its host ${host} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? error.message})`,
      );
    });
  });
}
