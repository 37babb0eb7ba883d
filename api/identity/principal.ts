/**
 * Who is calling. A bearer token (API token or session) resolves to a principal, and the cluster a route names (or
 * the cluster of the server or player it names) to the caller's membership there. Both come from the per-process
 * principal cache (principalCache.ts) while it is active, else from the database: a revoked token, an ended session
 * or a changed role takes effect on the very next request of the node that made the change and within a second on
 * the others (docs/access.md).
 */
import type { Context, Middleware } from 'koa';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { AppError, unauthorized } from '../../schema/errors.ts';
import type { Logger } from '../../schema/logger.ts';
import type { AccessTokens } from './accessTokens.ts';
import { hashSecret, looksLikeSecret, secretMatches } from '../../schema/secretTokens.ts';
import { TIERS, type Tier } from '../../schema/identity.ts';
import { ROLES, type Role } from '../../schema/roles.ts';
import type { PrincipalCache } from './principalCache.ts';
type PrincipalUser = { id: string; email: string; displayName: string; tier: Tier };

export type Principal =
  | { kind: 'USER'; user: PrincipalUser; sessionId: string }
  | { kind: 'TOKEN'; user: PrincipalUser; tokenId: string; tokenName: string; clusterIds: ReadonlySet<string> };

/** `lastUsedAt` is written at most this often per token, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

const BEARER = /^Bearer ([\x21-\x7e]{1,1024})$/;

/**
 * The caller's standing in one cluster. The cluster is named by the route (a path parameter) or is that of a server or
 * a player the route names (`serverId`, `playerId`). `exists` false: no such cluster (or server, or player); `role`
 * null: not a member.
 */
export type Membership = { clusterId: string | null; serverId: string | null; playerId: string | null; exists: boolean; role: Role | null };

/** What a route asks about with the token: a cluster, the cluster of a server or of a player, or nothing. */
export type AccessScope = { clusterId: string | null; serverId: string | null; playerId: string | null };
const NO_SCOPE: AccessScope = { clusterId: null, serverId: null, playerId: null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const userColumns = { id: z.string(), email: z.string(), displayName: z.string(), tier: z.enum(TIERS) };
const sessionRow = z.object({ ...userColumns, expiresAt: z.string() });
const tokenRow = z.object({
  ...userColumns,
  tokenId: z.string(),
  tokenName: z.string(),
  tokenHash: z.instanceof(Buffer),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  clusterIds: z.array(z.string()),
});
const clusterRoleRow = z.object({ exists: z.boolean(), role: z.enum(ROLES).nullable() });
const resourceRoleRow = z.object({ clusterId: z.string(), role: z.enum(ROLES).nullable() });

/** A resolved credential as the cache keeps it: the principal and until when it holds (epoch ms). */
type ResolvedToken = { principal: Principal & { kind: 'TOKEN' }; expiresAt: number | null; lastUsedAt: number | null };
export type ResolvedPrincipal = ResolvedToken | { principal: Principal & { kind: 'USER' }; expiresAt: number };

export type Authenticated = { principal: Principal; membership: Membership | null };

export type Authenticator = {
  /** The principal of a request (and its membership of the scope's cluster when given), or a 401 AppError. */
  resolve: (authorization: string, scope?: AccessScope) => Promise<Authenticated>;
  /**
   * Middleware setting `ctx.state.principal` (and `ctx.state.membership` for the scope `scopeOf` reads from the raw
   * request: a path parameter or body field; validation, and the 404 for a malformed id, come later).
   */
  middleware: (scopeOf: ((ctx: Context) => AccessScope) | null) => Middleware;
};

/** A raw id from the request, when it is an id at all (lower case, as validation makes it). */
export const rawId = (value: unknown): string | null => (typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null);

const parseTime = (value: string | null): number | null => (value === null ? null : Date.parse(value));

export function createAuthenticator(deps: {
  pool: DatabasePool;
  accessTokens: AccessTokens;
  logger: Logger;
  /** The process's principal cache; without it every request reads the database. */
  principals?: PrincipalCache<ResolvedPrincipal> | null;
}): Authenticator {
  const { pool, accessTokens, logger } = deps;
  const cache = deps.principals ?? null;

  // Prepared statements (named, planned once per connection), each simple enough that Postgres settles on its generic
  // plan: the earlier single statement (token, membership and the scope's cluster together) was planned again on every
  // execution, because its custom plans, folding the scope's parameters, always looked cheaper than the generic one.
  async function readSession(token: string): Promise<ResolvedPrincipal> {
    const claims = await accessTokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired access token');
    const row = await pool.reads.maybeOne(sql.prepared('gsm_principal_session', sessionRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier, s.expires_at AS "expiresAt"
        FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = ${claims.sessionId} AND s.user_id = ${claims.userId} AND s.revoked_at IS NULL AND s.expires_at > now()`);
    if (!row) throw unauthorized('This session has ended; sign in again');
    const { id, email, displayName, tier } = row;
    return {
      principal: { kind: 'USER', user: { id, email, displayName, tier }, sessionId: claims.sessionId },
      expiresAt: Math.min(claims.expiresAt, Date.parse(row.expiresAt)),
    };
  }

  async function readApiToken(token: string, hash: Buffer): Promise<ResolvedPrincipal> {
    const row = await pool.reads.maybeOne(sql.prepared('gsm_principal_token', tokenRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier,
             t.id AS "tokenId", t.name AS "tokenName", t.token_hash AS "tokenHash", t.expires_at AS "expiresAt",
             t.last_used_at AS "lastUsedAt",
             ARRAY(SELECT cluster_id::text FROM api_token_clusters WHERE token_id = t.id) AS "clusterIds"
        FROM api_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ${sql.binary(hash)}`);
    if (!row || !secretMatches(token, row.tokenHash)) throw unauthorized('Invalid API token');
    const { tokenId, tokenName, clusterIds, id, email, displayName, tier } = row;
    return {
      principal: { kind: 'TOKEN', user: { id, email, displayName, tier }, tokenId, tokenName, clusterIds: new Set(clusterIds) },
      expiresAt: parseTime(row.expiresAt),
      lastUsedAt: parseTime(row.lastUsedAt),
    };
  }

  /** Records an API token's use at most once a minute (per process), so reads do not turn into writes. */
  function recordUse(resolved: ResolvedToken, now: number): void {
    if (resolved.lastUsedAt !== null && now - resolved.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    resolved.lastUsedAt = now;
    const tokenId = resolved.principal.tokenId;
    pool
      .query(sql.prepared('gsm_principal_token_used', z.object({}))`UPDATE api_tokens SET last_used_at = now() WHERE id = ${tokenId}`)
      .catch((error: unknown) => logger.warn({ err: error, tokenId }, 'could not record token use'));
  }

  async function principalFor(token: string): Promise<Principal> {
    const isApiToken = token.startsWith('gsm_live_');
    if (isApiToken && !looksLikeSecret(token, 'live')) throw unauthorized('Invalid API token');
    const hash = hashSecret(token);
    const key = hash.toString('base64');
    const now = Date.now();
    let resolved = cache?.principal(key);
    if (!resolved || (resolved.expiresAt !== null && resolved.expiresAt <= now)) {
      const epoch = cache?.epoch() ?? 0;
      resolved = isApiToken ? await readApiToken(token, hash) : await readSession(token);
      const principal = resolved.principal;
      const tags = principal.kind === 'TOKEN' ? [`t:${principal.tokenId}`, `u:${principal.user.id}`] : [`s:${principal.sessionId}`, `u:${principal.user.id}`];
      cache?.storePrincipal(key, resolved, tags, epoch);
    }
    if (resolved.principal.kind === 'TOKEN' && 'lastUsedAt' in resolved) {
      if (resolved.expiresAt !== null && resolved.expiresAt <= now) throw unauthorized('This API token has expired');
      recordUse(resolved, now);
    } else if (resolved.expiresAt !== null && resolved.expiresAt <= now) {
      throw unauthorized('This session has ended; sign in again');
    }
    return resolved.principal;
  }

  async function membershipFor(user: { id: string }, scope: AccessScope): Promise<Membership | null> {
    if (scope.clusterId) {
      const clusterId = scope.clusterId;
      const cached = cache?.membership(user.id, clusterId);
      if (cached) return { clusterId, serverId: null, playerId: null, exists: true, role: cached.role };
      const epoch = cache?.epoch() ?? 0;
      const row = await pool.reads.one(sql.prepared('gsm_principal_cluster_role', clusterRoleRow)`
        SELECT EXISTS (SELECT 1 FROM clusters WHERE id = ${clusterId}::uuid) AS exists,
               (SELECT role FROM cluster_members WHERE cluster_id = ${clusterId}::uuid AND user_id = ${user.id}::uuid) AS role`);
      if (row.exists) cache?.storeMembership(user.id, clusterId, { role: row.role }, epoch);
      return { clusterId, serverId: null, playerId: null, exists: row.exists, role: row.role };
    }
    if (scope.serverId) {
      const serverId = scope.serverId;
      const clusterId = cache?.serverCluster(serverId);
      const cached = clusterId === undefined ? undefined : cache?.membership(user.id, clusterId);
      if (clusterId !== undefined && cached) return { clusterId, serverId, playerId: scope.playerId, exists: true, role: cached.role };
      const epoch = cache?.epoch() ?? 0;
      const row = await pool.reads.maybeOne(sql.prepared('gsm_principal_server_role', resourceRoleRow)`
        SELECT r.cluster_id AS "clusterId", m.role FROM servers r LEFT JOIN cluster_members m ON m.cluster_id = r.cluster_id AND m.user_id = ${user.id}::uuid
         WHERE r.id = ${serverId}::uuid`);
      if (row) {
        cache?.storeServerCluster(serverId, row.clusterId, epoch);
        cache?.storeMembership(user.id, row.clusterId, { role: row.role }, epoch);
      }
      return { clusterId: row?.clusterId ?? null, serverId, playerId: scope.playerId, exists: row !== null, role: row?.role ?? null };
    }
    if (scope.playerId) {
      const row = await pool.reads.maybeOne(sql.prepared('gsm_principal_player_role', resourceRoleRow)`
        SELECT r.cluster_id AS "clusterId", m.role FROM players r LEFT JOIN cluster_members m ON m.cluster_id = r.cluster_id AND m.user_id = ${user.id}::uuid
         WHERE r.id = ${scope.playerId}::uuid`);
      return { clusterId: row?.clusterId ?? null, serverId: null, playerId: scope.playerId, exists: row !== null, role: row?.role ?? null };
    }
    return null;
  }

  async function resolve(authorization: string, scope: AccessScope = NO_SCOPE): Promise<Authenticated> {
    if (!authorization) throw unauthorized('Missing Authorization header (Bearer token)');
    const match = BEARER.exec(authorization);
    if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
    const token = match[1]!;
    if (token.startsWith('gsm_agent_')) throw unauthorized('Agent tokens are accepted only by the agent gateway');
    const principal = await principalFor(token);
    return { principal, membership: await membershipFor(principal.user, scope) };
  }

  return {
    resolve,
    middleware: (scopeOf) =>
      async function authenticate(ctx, next) {
        const { principal, membership } = await resolve(ctx.get('Authorization'), scopeOf ? scopeOf(ctx) : NO_SCOPE);
        ctx.state.principal = principal;
        ctx.state.membership = membership;
        await next();
      },
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SIGN_IN_PATH = /^(?:\/api\/v1)?\/auth\//;

/**
 * After a request that changed a principal (a trigger's notice, PRINCIPAL_NOTICE, reached one of this process's
 * connections while it ran: whatever its answer, as a replayed refresh token ends its session and answers 401), the
 * principal cache waits for that change's invalidations before it answers again, so this node's very next request sees
 * the change. A request that changed no principal (a power job, a ban) leaves the cache answering. A request that
 * overlapped another's change waits too (the notice names no request).
 *
 * `changesSeen` null: notices do not reach this process (sql/pool.ts `noticesArrive`); then every request that may
 * have changed something waits: any method but GET, HEAD and OPTIONS, and any sign-in step (`/auth/…`, where the OAuth
 * callbacks are GETs that can make a membership of an invitation).
 */
export function principalChanges(cache: PrincipalCache<ResolvedPrincipal>, changesSeen: (() => number) | null): Middleware {
  if (!changesSeen) {
    const afterAny = async (next: () => Promise<unknown>) => {
      try {
        await next();
      } finally {
        cache.afterChange();
      }
    };
    return function principalChanges(ctx, next) {
      return SAFE_METHODS.has(ctx.method) && !SIGN_IN_PATH.test(ctx.path) ? next() : afterAny(next);
    };
  }
  return async function principalChanges(_ctx, next) {
    const before = changesSeen();
    try {
      await next();
    } finally {
      if (changesSeen() !== before) cache.afterChange();
    }
  };
}

export function principalOf(ctx: { state: { principal?: Principal } }): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new AppError(500, 'route used without authentication');
  return principal;
}
