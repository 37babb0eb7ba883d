/**
 * Where a webhook may point (docs/webhooks.md, "Security"): `http`/`https` URLs without credentials, whose host
 * resolves only to public addresses. Loopback, private, link-local, unique-local, carrier-grade NAT, multicast and
 * reserved ranges are refused, at creation and again at every delivery: the delivery connects to the very address
 * that was checked (the check is the connection's DNS lookup), so a name that resolves to a public address when
 * checked and to a private one a moment later (DNS rebinding) cannot reach inside. An installation whose receivers
 * are on its own network sets WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.
 *
 * Names are resolved by c-ares (no thread of libuv's pool, which a name server that never answers would hold, and with
 * it every file read of the process), within WEBHOOK_DNS_TIMEOUT_MS, at WEBHOOK_DNS_SERVERS or the system's name
 * servers; names listed in /etc/hosts (and `localhost`) are answered from there, as the system's lookup would.
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Resolver } from 'node:dns/promises';
import { readFile, stat } from 'node:fs/promises';
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

/** How long a name may take to resolve (WEBHOOK_DNS_TIMEOUT_MS). */
export const DNS_TIMEOUT_MS = 5_000;

export type DnsSettings = {
  /** Name servers (`address` or `address:port`); default the system's (/etc/resolv.conf). */
  servers?: readonly string[];
  timeoutMs?: number;
  hostsFile?: string;
};
export type Address = { address: string; family: number };
/** Every address of a name; fails with a code (ENOTFOUND, ETIMEOUT, …) and a message naming the host. */
export type HostResolver = (hostname: string) => Promise<Address[]>;

/** /etc/hosts by name (lower case), read again when it changes (looked at once a second at most). */
function hostsReader(path: string): () => Promise<Map<string, Address[]>> {
  let entries = new Map<string, Address[]>();
  let modified = -1;
  let checked = 0;
  return async () => {
    if (Date.now() - checked < 1_000) return entries;
    checked = Date.now();
    const mtime = await stat(path).then(
      (info) => info.mtimeMs,
      () => 0,
    );
    if (mtime === modified) return entries;
    modified = mtime;
    const text = mtime ? await readFile(path, 'utf8').catch(() => '') : '';
    const next = new Map<string, Address[]>();
    for (const line of text.split('\n')) {
      const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
      const family = isIP(address?.replace(/%.*$/, '') ?? '');
      if (!address || !family) continue;
      for (const name of names) {
        const key = name.toLowerCase();
        const list = next.get(key) ?? [];
        if (!list.some((entry) => entry.address === address)) list.push({ address, family });
        next.set(key, list);
      }
    }
    entries = next;
    return entries;
  };
}

const dnsError = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * A resolver of names for webhooks: /etc/hosts first, then A and AAAA queries by c-ares, all within `timeoutMs`
 * (c-ares tries twice, the second try waiting twice as long as the first, so both fit in the bound).
 */
export function hostResolver(settings: DnsSettings = {}): HostResolver {
  const timeoutMs = settings.timeoutMs ?? DNS_TIMEOUT_MS;
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(timeoutMs / 3)), tries: 2 });
  if (settings.servers?.length) resolver.setServers([...settings.servers]);
  const hosts = hostsReader(settings.hostsFile ?? '/etc/hosts');
  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const literal = isIP(name);
    if (literal) return [{ address: name, family: literal }];
    const listed = (await hosts()).get(name);
    if (listed) return listed;
    if (name === 'localhost' || name.endsWith('.localhost'))
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(dnsError('ETIMEOUT', `DNS: no answer for ${hostname} within ${timeoutMs / 1000} s`)), timeoutMs + 250);
    });
    try {
      const [v4, v6] = await Promise.race([Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]), bound]);
      const found = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (found.length > 0) return found;
      const codes = [v4, v6].map((result) => (result.status === 'rejected' ? String((result.reason as NodeJS.ErrnoException).code) : 'ENODATA'));
      if (codes.includes('ETIMEOUT')) throw dnsError('ETIMEOUT', `DNS: no answer for ${hostname} within ${timeoutMs / 1000} s`);
      if (codes.every((code) => code === 'ENODATA' || code === 'ENOTFOUND')) throw dnsError('ENOTFOUND', `DNS: ${hostname} not found`);
      throw dnsError(
        codes.find((code) => code !== 'ENODATA')!,
        `DNS: ${hostname} could not be resolved (${codes.join(', ')})`,
      );
    } finally {
      clearTimeout(timer);
    }
  };
}

const systemResolver = hostResolver();

/** The resolver of the installation's settings (WEBHOOK_DNS_SERVERS, WEBHOOK_DNS_TIMEOUT_MS): webhooks and pulls share them. */
export const configuredResolver = (config: { WEBHOOK_DNS_SERVERS?: readonly string[] | undefined; WEBHOOK_DNS_TIMEOUT_MS: number }): HostResolver =>
  hostResolver({ ...(config.WEBHOOK_DNS_SERVERS ? { servers: config.WEBHOOK_DNS_SERVERS } : {}), timeoutMs: config.WEBHOOK_DNS_TIMEOUT_MS });

/**
 * A DNS lookup for the delivery's connection that answers only public addresses (all of them checked), or fails with
 * WebhookAddressError. With `allowPrivate` it is the plain lookup.
 */
export function checkedLookup(allowPrivate: boolean, resolve: HostResolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = (options as { family?: number | string }).family;
    const family = wanted === 'IPv4' ? 4 : wanted === 'IPv6' ? 6 : Number(wanted ?? 0);
    resolve(hostname).then(
      (addresses) => answer(null, family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses),
      (error: Error) => answer(error, []),
    );
    function answer(error: Error | null, list: Address[]) {
      if (error) return callback(error as NodeJS.ErrnoException, '', 4);
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
    }
  };
}

/**
 * Resolves the URL's host and refuses private targets (at creation and on change); answers the problem or null.
 * `resolver`: the installation's resolver (configuredResolver), bounded in time like every lookup here.
 */
export async function targetProblem(text: string, allowPrivate: boolean, resolver: HostResolver = systemResolver): Promise<string | null> {
  const problem = urlProblem(text);
  if (problem) return problem;
  if (allowPrivate) return null;
  const host = new URL(text).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? null : `points at ${host}, a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)`;
  return new Promise((resolve) => {
    checkedLookup(false, resolver)(host, { all: true }, (error) => {
      if (!error) return resolve(null);
      resolve(
        error instanceof WebhookAddressError
          ? error.message
          : `its host ${host} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? error.message})`,
      );
    });
  });
}
