/**
 * Who is calling. Every authenticated request resolves its bearer token to a principal with one query; nothing is
 * cached, so a revoked token, an ended session or a changed role takes effect on the very next request.
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

type PrincipalUser = { id: string; email: string; displayName: string; tier: Tier };

export type Principal =
  | { kind: 'USER'; user: PrincipalUser; sessionId: string }
  | { kind: 'TOKEN'; user: PrincipalUser; tokenId: string; tokenName: string; clusterIds: ReadonlySet<string> };

/** `lastUsedAt` is written at most this often per token, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

const BEARER = /^Bearer ([\x21-\x7e]{1,1024})$/;

/**
 * The caller's standing in one cluster, read in the same query as the caller's token (one round trip instead of two
 * or three for every cluster route). The cluster is named by the route (a path parameter) or is that of a server or a
 * player the route names (`serverId`, `playerId`: looked up in that query too). `exists` false: no such cluster
 * (or server, or player); `role` null: not a member.
 */
export type Membership = { clusterId: string | null; serverId: string | null; playerId: string | null; exists: boolean; role: Role | null };

/** What a route asks about with the token: a cluster, the cluster of a server or of a player, or nothing. */
export type AccessScope = { clusterId: string | null; serverId: string | null; playerId: string | null };
const NO_SCOPE: AccessScope = { clusterId: null, serverId: null, playerId: null };

const membershipColumns = z.object({ scopeClusterId: z.string().nullable(), clusterExists: z.boolean(), clusterRole: z.enum(ROLES).nullable() });

const sessionRow = z.object({ id: z.string(), email: z.string(), displayName: z.string(), tier: z.enum(TIERS) }).extend(membershipColumns.shape);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The scope's cluster (given, or the server's, or the player's) as `scope`, joined to the caller's user `u`; the ids
 * may all be null, and then the columns come back empty at no cost. One SQL text for every scope, so the statement is
 * prepared once.
 */
const scopeJoin = (scope: AccessScope) => sql.fragment`
  CROSS JOIN LATERAL (SELECT coalesce(${scope.clusterId}::uuid, (SELECT cluster_id FROM servers WHERE id = ${scope.serverId}::uuid),
                                      (SELECT cluster_id FROM players WHERE id = ${scope.playerId}::uuid)) AS cluster_id) scope`;
const MEMBERSHIP_COLUMNS = sql.fragment`
  scope.cluster_id AS "scopeClusterId",
  EXISTS (SELECT 1 FROM clusters WHERE id = scope.cluster_id) AS "clusterExists",
  (SELECT role FROM cluster_members WHERE cluster_id = scope.cluster_id AND user_id = u.id) AS "clusterRole"`;

const tokenRow = sessionRow.extend({
  tokenId: z.string(),
  tokenName: z.string(),
  tokenHash: z.instanceof(Buffer),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  clusterIds: z.array(z.string()),
});

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

const membershipOf = (scope: AccessScope, row: z.infer<typeof membershipColumns>): Membership | null =>
  scope.clusterId || scope.serverId || scope.playerId
    ? {
        clusterId: row.scopeClusterId,
        serverId: scope.serverId,
        playerId: scope.playerId,
        exists: row.scopeClusterId !== null && row.clusterExists,
        role: row.clusterRole,
      }
    : null;

/** A raw id from the request, when it is an id at all (lower case, as validation makes it). */
export const rawId = (value: unknown): string | null => (typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null);

export function createAuthenticator(deps: { pool: DatabasePool; accessTokens: AccessTokens; logger: Logger }): Authenticator {
  const { pool, accessTokens, logger } = deps;

  // Prepared statements (named, planned once per connection): planning these joins cost more than running them.
  async function fromSession(token: string, scope: AccessScope): Promise<Authenticated> {
    const claims = await accessTokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired access token');
    const row = await pool.maybeOne(sql.prepared('gsm_principal_session', sessionRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier, ${MEMBERSHIP_COLUMNS}
        FROM sessions s JOIN users u ON u.id = s.user_id ${scopeJoin(scope)}
       WHERE s.id = ${claims.sessionId} AND s.user_id = ${claims.userId} AND s.revoked_at IS NULL AND s.expires_at > now()`);
    if (!row) throw unauthorized('This session has ended; sign in again');
    const { id, email, displayName, tier } = row;
    return { principal: { kind: 'USER', user: { id, email, displayName, tier }, sessionId: claims.sessionId }, membership: membershipOf(scope, row) };
  }

  async function fromApiToken(token: string, scope: AccessScope): Promise<Authenticated> {
    if (!looksLikeSecret(token, 'live')) throw unauthorized('Invalid API token');
    const row = await pool.maybeOne(sql.prepared('gsm_principal_token', tokenRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier,
             t.id AS "tokenId", t.name AS "tokenName", t.token_hash AS "tokenHash", t.expires_at AS "expiresAt",
             t.last_used_at AS "lastUsedAt",
             ARRAY(SELECT cluster_id::text FROM api_token_clusters WHERE token_id = t.id) AS "clusterIds",
             ${MEMBERSHIP_COLUMNS}
        FROM api_tokens t JOIN users u ON u.id = t.user_id ${scopeJoin(scope)}
       WHERE t.token_hash = ${sql.binary(hashSecret(token))}`);
    if (!row || !secretMatches(token, row.tokenHash)) throw unauthorized('Invalid API token');
    const now = Date.now();
    if (row.expiresAt && Date.parse(row.expiresAt) <= now) throw unauthorized('This API token has expired');
    if (!row.lastUsedAt || now - Date.parse(row.lastUsedAt) >= LAST_USED_RESOLUTION_MS) {
      pool
        .query(sql.unsafe`UPDATE api_tokens SET last_used_at = now() WHERE id = ${row.tokenId}`)
        .catch((error: unknown) => logger.warn({ err: error, tokenId: row.tokenId }, 'could not record token use'));
    }
    const { tokenId, tokenName, clusterIds, id, email, displayName, tier } = row;
    return {
      principal: { kind: 'TOKEN', user: { id, email, displayName, tier }, tokenId, tokenName, clusterIds: new Set(clusterIds) },
      membership: membershipOf(scope, row),
    };
  }

  async function resolve(authorization: string, scope: AccessScope = NO_SCOPE): Promise<Authenticated> {
    if (!authorization) throw unauthorized('Missing Authorization header (Bearer token)');
    const match = BEARER.exec(authorization);
    if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
    const token = match[1]!;
    if (token.startsWith('gsm_agent_')) throw unauthorized('Agent tokens are accepted only by the agent gateway');
    return token.startsWith('gsm_live_') ? fromApiToken(token, scope) : fromSession(token, scope);
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

export function principalOf(ctx: { state: { principal?: Principal } }): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new AppError(500, 'route used without authentication');
  return principal;
}
