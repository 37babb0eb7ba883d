/**
 * Who is calling. Every authenticated request resolves its bearer token to a principal with one query; nothing is
 * cached, so a revoked token, an ended session or a changed role takes effect on the very next request.
 */
import type { Middleware } from 'koa';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../database/pool.ts';
import { AppError, unauthorized } from '../api/errors.ts';
import type { Logger } from '../observability/logger.ts';
import type { AccessTokens } from './accessTokens.ts';
import { hashSecret, looksLikeSecret, secretMatches } from './secretTokens.ts';
import { TIERS, type Tier } from '../schema/identity.ts';
import { ROLES, type Role } from './roles.ts';

type PrincipalUser = { id: string; email: string; displayName: string; tier: Tier };

export type Principal =
  | { kind: 'USER'; user: PrincipalUser; sessionId: string }
  | { kind: 'TOKEN'; user: PrincipalUser; tokenId: string; tokenName: string; clusterIds: ReadonlySet<string> };

/** `lastUsedAt` is written at most this often per token, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

const BEARER = /^Bearer ([\x21-\x7e]{1,1024})$/;

/**
 * The caller's standing in one cluster, read in the same query as the caller's token (one round trip instead of two
 * for every cluster route). `exists` false: no such cluster; `role` null: not a member.
 */
export type Membership = { clusterId: string; exists: boolean; role: Role | null };

const membershipColumns = z.object({ clusterExists: z.boolean(), clusterRole: z.enum(ROLES).nullable() });

const sessionRow = z.object({ id: z.string(), email: z.string(), displayName: z.string(), tier: z.enum(TIERS) }).extend(membershipColumns.shape);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `EXISTS`/role columns for `clusterId` (null: no cluster, both come back empty at no cost). */
const membershipSql = (clusterId: string | null) => sql.fragment`
  EXISTS (SELECT 1 FROM clusters WHERE id = ${clusterId}::uuid) AS "clusterExists",
  (SELECT role FROM cluster_members WHERE cluster_id = ${clusterId}::uuid AND user_id = u.id) AS "clusterRole"`;

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
  /** The principal of a request (and its membership of `clusterId` when given), or a 401 AppError. */
  resolve: (authorization: string, clusterId?: string | null) => Promise<Authenticated>;
  /** Middleware setting `ctx.state.principal` (and `ctx.state.membership` for the cluster named by `clusterParam`). */
  middleware: (clusterParam: string | null) => Middleware;
};

const membershipOf = (clusterId: string | null, row: z.infer<typeof membershipColumns>): Membership | null =>
  clusterId ? { clusterId, exists: row.clusterExists, role: row.clusterRole } : null;

export function createAuthenticator(deps: { pool: DatabasePool; accessTokens: AccessTokens; logger: Logger }): Authenticator {
  const { pool, accessTokens, logger } = deps;

  async function fromSession(token: string, clusterId: string | null): Promise<Authenticated> {
    const claims = await accessTokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired access token');
    const row = await pool.maybeOne(sql.type(sessionRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier, ${membershipSql(clusterId)}
        FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = ${claims.sessionId} AND s.user_id = ${claims.userId} AND s.revoked_at IS NULL AND s.expires_at > now()`);
    if (!row) throw unauthorized('This session has ended; sign in again');
    const { id, email, displayName, tier } = row;
    return { principal: { kind: 'USER', user: { id, email, displayName, tier }, sessionId: claims.sessionId }, membership: membershipOf(clusterId, row) };
  }

  async function fromApiToken(token: string, clusterId: string | null): Promise<Authenticated> {
    if (!looksLikeSecret(token, 'live')) throw unauthorized('Invalid API token');
    const row = await pool.maybeOne(sql.type(tokenRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier,
             t.id AS "tokenId", t.name AS "tokenName", t.token_hash AS "tokenHash", t.expires_at AS "expiresAt",
             t.last_used_at AS "lastUsedAt",
             ARRAY(SELECT cluster_id::text FROM api_token_clusters WHERE token_id = t.id) AS "clusterIds",
             ${membershipSql(clusterId)}
        FROM api_tokens t JOIN users u ON u.id = t.user_id
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
      membership: membershipOf(clusterId, row),
    };
  }

  async function resolve(authorization: string, clusterId: string | null = null): Promise<Authenticated> {
    if (!authorization) throw unauthorized('Missing Authorization header (Bearer token)');
    const match = BEARER.exec(authorization);
    if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
    const token = match[1]!;
    if (token.startsWith('gsm_agent_')) throw unauthorized('Agent tokens are accepted only by the agent gateway');
    return token.startsWith('gsm_live_') ? fromApiToken(token, clusterId) : fromSession(token, clusterId);
  }

  return {
    resolve,
    middleware: (clusterParam) =>
      async function authenticate(ctx, next) {
        // The raw path parameter, when it is an id at all; validation (and the 404 for a malformed id) comes later.
        const raw = clusterParam ? ctx.params?.[clusterParam] : undefined;
        const clusterId = typeof raw === 'string' && UUID.test(raw) ? raw.toLowerCase() : null;
        const { principal, membership } = await resolve(ctx.get('Authorization'), clusterId);
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
