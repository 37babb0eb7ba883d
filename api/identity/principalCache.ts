/**
 * The per-process principal cache (docs/access.md, "The principal cache"): who a bearer token is (API token or
 * session), a user's role in a cluster and the cluster of a server, kept at most MAX_AGE_MS and MAX_ENTRIES, and only while this process
 * listens for invalidations.
 *
 * Invalidations are notifications on `gsm_principal`, sent by triggers in the transaction of every change that
 * affects a principal (sql/functions/gsm_principal_changed.sql), so no writer can forget one. Each names what changed,
 * and every entry carrying that tag is dropped:
 *   `t:<tokenId>` an API token (revoked, expired, renamed, its scope changed)   `s:<sessionId>` a session
 *   `u:<userId>` a user (tier, e-mail, name, password, deleted)               `m:<clusterId>:<userId>` a membership
 *   `c:<clusterId>` a cluster deleted                                        `r:<serverId>` a server deleted or moved
 *
 * Fail safe: the cache answers nothing (every request reads the database) while the notification connection is
 * down, and it is emptied whenever that connection listens again (what was missed meanwhile is unknown). A read that
 * overlaps an invalidation is not stored (the epoch moved on while it ran).
 *
 * A fence (below) also goes out every second, and the cache answers only while one came back within three seconds, so
 * a connection that goes silent without closing stops it too.
 *
 * The node that made a change sees it on its very next request: after a request that changed a principal (the same
 * triggers raise a notice, `PRINCIPAL_NOTICE`, to the connection that made the change: api/identity/principal.ts
 * `principalChanges`), the cache stops answering until a fence, a notification this process sends on its listening
 * connection after that request's commit, comes back. Postgres delivers notifications in commit order, so by then
 * every invalidation of that request has been applied. Requests that change no principal (a power job) leave it on.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../schema/logger.ts';
import { listen } from '../../sql/listen.ts';
import type { Role } from '../../schema/roles.ts';

export const PRINCIPAL_CHANNEL = 'gsm_principal';
/** The notice the triggers raise to the connection whose statement changed a principal (sql/functions/gsm_principal_changed.sql). */
export const PRINCIPAL_NOTICE = 'gsm: principal changed';
/** An entry is read again from the database once it is this old, whatever happened. */
export const MAX_AGE_MS = 60_000;
/** Entries of each kind (principals, memberships, servers' clusters); the oldest goes first. */
export const MAX_ENTRIES = 10_000;

/** Pause before sending a fence again after it could not be sent. */
const FENCE_RETRY_MS = 100;
/**
 * A fence goes out at least this often, and the cache answers only while one came back within SILENCE_MS: a
 * connection that went silent without closing (a network partition) stops the cache within seconds.
 */
const HEARTBEAT_MS = 1_000;
const SILENCE_MS = 3_000;

type Entry<T> = { value: T; at: number; tags: readonly string[] };

/** A user's standing in an existing cluster: a role, or null when not a member. */
export type CachedMembership = { role: Role | null };

/** A bounded map whose entries expire; insertion order is age order. */
class Bounded<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;
  constructor(maxEntries: number, maxAgeMs: number) {
    this.#maxEntries = maxEntries;
    this.#maxAgeMs = maxAgeMs;
  }
  get(key: string, now: number): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at > this.#maxAgeMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: T, tags: readonly string[], now: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, at: now, tags });
  }
  drop(tag: string): void {
    for (const [key, entry] of this.#entries) if (entry.tags.includes(tag)) this.#entries.delete(key);
  }
  /** Drops the entry stored under `key` if it carries `tag` (the tag names the key: no scan). */
  dropKey(key: string, tag: string): void {
    if (this.#entries.get(key)?.tags.includes(tag)) this.#entries.delete(key);
  }
  clear(): void {
    this.#entries.clear();
  }
  get size(): number {
    return this.#entries.size;
  }
}

export type PrincipalCache<P> = {
  /** Whether the cache answers now (listening, no fence outstanding). */
  readonly active: () => boolean;
  /** Taken before a database read whose result may be stored; `store*` ignores the result if it moved on since. */
  readonly epoch: () => number;
  readonly principal: (key: string) => P | undefined;
  readonly storePrincipal: (key: string, value: P, tags: readonly string[], epoch: number) => void;
  readonly membership: (userId: string, clusterId: string) => CachedMembership | undefined;
  readonly storeMembership: (userId: string, clusterId: string, value: CachedMembership, epoch: number) => void;
  /** The cluster of an existing server (its deletion, or a change of its cluster, drops the entry). */
  readonly serverCluster: (serverId: string) => string | undefined;
  readonly storeServerCluster: (serverId: string, clusterId: string, epoch: number) => void;
  /** Called once a request that may have changed something committed: the cache waits for its invalidations. */
  readonly afterChange: () => void;
  readonly size: () => { principals: number; memberships: number; servers: number };
  /** The Postgres backend of the listening connection (null while there is none): for diagnostics and tests. */
  readonly listenerPid: () => number | null;
  readonly close: () => Promise<void>;
};

export async function startPrincipalCache<P>(options: {
  databaseUrl: string;
  logger: Logger;
  maxEntries?: number;
  maxAgeMs?: number;
}): Promise<PrincipalCache<P>> {
  const principals = new Bounded<P>(options.maxEntries ?? MAX_ENTRIES, options.maxAgeMs ?? MAX_AGE_MS);
  const memberships = new Bounded<CachedMembership>(options.maxEntries ?? MAX_ENTRIES, options.maxAgeMs ?? MAX_AGE_MS);
  const servers = new Bounded<string>(options.maxEntries ?? MAX_ENTRIES, options.maxAgeMs ?? MAX_AGE_MS);
  const fencePrefix = `f:${randomBytes(8).toString('hex')}:`;
  let listening = false;
  let epoch = 0;
  /** Changes made by this process's requests (numbered), and the last one a returned fence covers. */
  let changes = 0;
  let covered = 0;
  let fenceInFlight = false;
  /** When a fence of this process last came back. */
  let heardAt = 0;
  let fenceSentAt = 0;

  const reset = () => {
    epoch++;
    principals.clear();
    memberships.clear();
    servers.clear();
  };
  const active = () => listening && covered === changes && Date.now() - heardAt <= SILENCE_MS;

  /** Sends a fence unless one is on its way; without `always`, only when a change waits for one. */
  const sendFence = (always = false) => {
    if ((fenceInFlight && Date.now() - fenceSentAt < SILENCE_MS) || !listening || (covered === changes && !always)) return;
    fenceInFlight = true;
    fenceSentAt = Date.now();
    const upTo = changes;
    listener.notify(`${fencePrefix}${upTo}`).catch((error: unknown) => {
      // Usually the connection going away (onLost empties the cache and the next listen covers every change); the
      // cache stays silent until a fence returns, so try again shortly.
      fenceInFlight = false;
      options.logger.warn({ err: error }, 'principal cache: could not send a fence');
      setTimeout(() => sendFence(true), FENCE_RETRY_MS).unref();
    });
  };

  const onPayload = (payload: string) => {
    if (payload.startsWith(fencePrefix)) {
      fenceInFlight = false;
      heardAt = Date.now();
      covered = Math.max(covered, Number(payload.slice(fencePrefix.length)));
      sendFence();
      return;
    }
    if (payload.startsWith('f:')) return; // another process's fence
    epoch++;
    // Only the maps that can hold the tag are looked at; a server's and a membership's tags name their keys. A cascade
    // (a deleted cluster or machine) sends one notification per row, so a scan of every map each time would add up.
    const [kind, rest] = [payload.slice(0, 2), payload.slice(2)];
    if (kind === 'r:') servers.dropKey(rest, payload);
    else if (kind === 'm:') memberships.dropKey(rest, payload);
    else if (kind === 't:' || kind === 's:') principals.drop(payload);
    else if (kind === 'c:') {
      memberships.drop(payload);
      servers.drop(payload);
    } else {
      principals.drop(payload);
      memberships.drop(payload);
      servers.drop(payload);
    }
  };

  const listener = await listen({
    databaseUrl: options.databaseUrl,
    channel: PRINCIPAL_CHANNEL,
    logger: options.logger,
    onPayload,
    onListening: () => {
      reset();
      // Whatever this process changed before now is in the database already; nothing to wait for.
      covered = changes;
      fenceInFlight = false;
      heardAt = Date.now();
      listening = true;
    },
    onLost: () => {
      listening = false;
      reset();
      options.logger.warn('principal cache: notification connection lost; every request reads the database until it listens again');
    },
  });

  const heartbeat = setInterval(() => sendFence(true), HEARTBEAT_MS);
  heartbeat.unref();

  return {
    active,
    epoch: () => epoch,
    principal: (key) => (active() ? principals.get(key, Date.now()) : undefined),
    storePrincipal: (key, value, tags, readEpoch) => {
      if (active() && readEpoch === epoch) principals.set(key, value, tags, Date.now());
    },
    membership: (userId, clusterId) => (active() ? memberships.get(`${clusterId}:${userId}`, Date.now()) : undefined),
    storeMembership: (userId, clusterId, value, readEpoch) => {
      if (active() && readEpoch === epoch) {
        memberships.set(`${clusterId}:${userId}`, value, [`m:${clusterId}:${userId}`, `c:${clusterId}`, `u:${userId}`], Date.now());
      }
    },
    serverCluster: (serverId) => (active() ? servers.get(serverId, Date.now()) : undefined),
    storeServerCluster: (serverId, clusterId, readEpoch) => {
      if (active() && readEpoch === epoch) servers.set(serverId, clusterId, [`r:${serverId}`, `c:${clusterId}`], Date.now());
    },
    afterChange: () => {
      if (!listening) return;
      changes++;
      epoch++;
      sendFence();
    },
    size: () => ({ principals: principals.size, memberships: memberships.size, servers: servers.size }),
    listenerPid: () => listener.backendPid(),
    close: async () => {
      clearInterval(heartbeat);
      listening = false;
      reset();
      await listener.close();
    },
  };
}
