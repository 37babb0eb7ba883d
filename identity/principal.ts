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

type PrincipalUser = { id: string; email: string; displayName: string; tier: Tier };

export type Principal =
  | { kind: 'USER'; user: PrincipalUser; sessionId: string }
  | { kind: 'TOKEN'; user: PrincipalUser; tokenId: string; tokenName: string; clusterIds: ReadonlySet<string> };

/** `lastUsedAt` is written at most this often per token, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

const BEARER = /^Bearer ([\x21-\x7e]{1,1024})$/;

const sessionRow = z.object({ id: z.string(), email: z.string(), displayName: z.string(), tier: z.enum(TIERS) });
const tokenRow = sessionRow.extend({
  tokenId: z.string(),
  tokenName: z.string(),
  tokenHash: z.instanceof(Buffer),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  clusterIds: z.array(z.string()),
});

export type Authenticator = {
  /** The principal of a request, or a 401 AppError. */
  resolve: (authorization: string) => Promise<Principal>;
  middleware: Middleware;
};

export function createAuthenticator(deps: { pool: DatabasePool; accessTokens: AccessTokens; logger: Logger }): Authenticator {
  const { pool, accessTokens, logger } = deps;

  async function fromSession(token: string): Promise<Principal> {
    const claims = await accessTokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired access token');
    const row = await pool.maybeOne(sql.type(sessionRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier
        FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = ${claims.sessionId} AND s.user_id = ${claims.userId} AND s.revoked_at IS NULL AND s.expires_at > now()`);
    if (!row) throw unauthorized('This session has ended; sign in again');
    return { kind: 'USER', user: row, sessionId: claims.sessionId };
  }

  async function fromApiToken(token: string): Promise<Principal> {
    if (!looksLikeSecret(token, 'live')) throw unauthorized('Invalid API token');
    const row = await pool.maybeOne(sql.type(tokenRow)`
      SELECT u.id, u.email, u.display_name AS "displayName", u.tier,
             t.id AS "tokenId", t.name AS "tokenName", t.token_hash AS "tokenHash", t.expires_at AS "expiresAt",
             t.last_used_at AS "lastUsedAt",
             ARRAY(SELECT cluster_id::text FROM api_token_clusters WHERE token_id = t.id) AS "clusterIds"
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
    return { kind: 'TOKEN', user: { id, email, displayName, tier }, tokenId, tokenName, clusterIds: new Set(clusterIds) };
  }

  async function resolve(authorization: string): Promise<Principal> {
    if (!authorization) throw unauthorized('Missing Authorization header (Bearer token)');
    const match = BEARER.exec(authorization);
    if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
    const token = match[1]!;
    if (token.startsWith('gsm_agent_')) throw unauthorized('Agent tokens are accepted only by the agent gateway');
    return token.startsWith('gsm_live_') ? fromApiToken(token) : fromSession(token);
  }

  return {
    resolve,
    middleware: async function authenticate(ctx, next) {
      ctx.state.principal = await resolve(ctx.get('Authorization'));
      await next();
    },
  };
}

export function principalOf(ctx: { state: { principal?: Principal } }): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new AppError(500, 'route used without authentication');
  return principal;
}
