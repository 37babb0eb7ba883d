/**
 * Sessions: a sign-in yields an access token (24 h) and a refresh token (30 days, single use). Refreshing spends the
 * refresh token and hands out a new pair; presenting a spent refresh token again means it was stolen or replayed, so
 * the whole session is revoked and every token of it stops working.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { unauthorized } from '../../schema/errors.ts';
import type { TokenPair } from '../../schema/identity.ts';
import { ACCESS_TOKEN_SECONDS, type AccessTokens } from './accessTokens.ts';
import { generateSecret, hashSecret, looksLikeSecret } from '../../schema/secretTokens.ts';

/** Lifetime of a refresh token, and so of an idle session. */
export const REFRESH_TOKEN_DAYS = 30;

export type ClientInfo = { ip: string | null; userAgent: string | null };

async function issuePair(connection: CommonQueryMethods, accessTokens: AccessTokens, userId: string, sessionId: string): Promise<TokenPair> {
  const refreshToken = generateSecret('refresh');
  await connection.query(sql.unsafe`
    INSERT INTO refresh_tokens (session_id, token_hash, expires_at)
    VALUES (${sessionId}, ${sql.binary(hashSecret(refreshToken))}, now() + make_interval(days => ${REFRESH_TOKEN_DAYS}))`);
  const accessToken = await accessTokens.issue({ userId, sessionId });
  return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS };
}

/** Opens a session for `userId` and answers its first token pair. */
export async function startSession(
  connection: CommonQueryMethods,
  accessTokens: AccessTokens,
  userId: string,
  client: ClientInfo,
): Promise<TokenPair & { sessionId: string }> {
  const sessionId = await connection.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO sessions (user_id, expires_at, ip, user_agent)
    VALUES (${userId}, now() + make_interval(days => ${REFRESH_TOKEN_DAYS}), ${client.ip}, ${client.userAgent?.slice(0, 500) ?? null})
    RETURNING id`);
  return { ...(await issuePair(connection, accessTokens, userId, sessionId)), sessionId };
}

const refreshRow = z.object({
  tokenId: z.string(),
  usedAt: z.string().nullable(),
  expired: z.boolean(),
  sessionId: z.string(),
  userId: z.string(),
  sessionOpen: z.boolean(),
});

export type RefreshOutcome = { pair: TokenPair; userId: string; sessionId: string };

/**
 * Spends `refreshToken` and answers a new pair. A replayed (already spent) token revokes its session; that revocation
 * commits even though the call answers 401.
 */
export async function refreshSession(pool: DatabasePool, accessTokens: AccessTokens, refreshToken: string): Promise<RefreshOutcome> {
  if (!looksLikeSecret(refreshToken, 'refresh')) throw unauthorized('Invalid refresh token');
  const outcome = await pool.transaction(async (tx) => {
    // FOR UPDATE: two concurrent refreshes with the same token serialise here; the second sees it spent.
    const row = await tx.maybeOne(sql.type(refreshRow)`
      SELECT r.id AS "tokenId", r.used_at AS "usedAt", r.expires_at <= now() AS expired, s.id AS "sessionId",
             s.user_id AS "userId", (s.revoked_at IS NULL AND s.expires_at > now()) AS "sessionOpen"
        FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
       WHERE r.token_hash = ${sql.binary(hashSecret(refreshToken))}
         FOR UPDATE OF r, s`);
    if (!row) return { error: 'Invalid refresh token' } as const;
    if (row.usedAt) {
      await tx.query(sql.unsafe`
        UPDATE sessions SET revoked_at = now(), revoked_reason = 'refresh token reused'
         WHERE id = ${row.sessionId} AND revoked_at IS NULL`);
      return { error: 'Refresh token already used; the session has been revoked', reuse: row } as const;
    }
    if (!row.sessionOpen) return { error: 'This session has ended; sign in again' } as const;
    if (row.expired) return { error: 'Refresh token expired; sign in again' } as const;
    await tx.query(sql.unsafe`UPDATE refresh_tokens SET used_at = now() WHERE id = ${row.tokenId}`);
    await tx.query(sql.unsafe`
      UPDATE sessions SET expires_at = now() + make_interval(days => ${REFRESH_TOKEN_DAYS}) WHERE id = ${row.sessionId}`);
    const pair = await issuePair(tx, accessTokens, row.userId, row.sessionId);
    return { pair, userId: row.userId, sessionId: row.sessionId } as const;
  });
  if ('error' in outcome) throw unauthorized(outcome.error);
  return outcome;
}

/** Ends a session at once: its access and refresh tokens stop working on the next request. */
export async function endSession(connection: CommonQueryMethods, sessionId: string, reason: string): Promise<void> {
  await connection.query(sql.unsafe`UPDATE sessions SET revoked_at = now(), revoked_reason = ${reason} WHERE id = ${sessionId} AND revoked_at IS NULL`);
}

/** Ends every open session of a user (a password reset): their tokens stop working on the next request. */
export async function endAllSessions(connection: CommonQueryMethods, userId: string, reason: string): Promise<number> {
  const result = await connection.query(
    sql.unsafe`UPDATE sessions SET revoked_at = now(), revoked_reason = ${reason} WHERE user_id = ${userId} AND revoked_at IS NULL`,
  );
  return result.rowCount;
}

/**
 * What a password reset does beyond the password (account recovery: whoever had access must lose it): ends every
 * session, deletes every API token and SSH key (the keys' delete trigger ends open SFTP sessions signed in with them),
 * and unlinks Steam and Discord (someone who held the account, for example by registering with an invitation meant for
 * its owner, may have linked their own keys and accounts). Answers what it removed.
 */
export async function recoverAccount(connection: CommonQueryMethods, userId: string, reason: string) {
  const sessions = await endAllSessions(connection, userId, reason);
  const tokens = (await connection.query(sql.unsafe`DELETE FROM api_tokens WHERE user_id = ${userId}`)).rowCount;
  const sshKeys = (await connection.query(sql.unsafe`DELETE FROM ssh_keys WHERE user_id = ${userId}`)).rowCount;
  const unlinked = await connection.oneFirst(sql.type(z.object({ unlinked: z.number() }))`
    WITH before AS (SELECT steam_id, discord_id FROM users WHERE id = ${userId} FOR UPDATE),
         cleared AS (UPDATE users SET steam_id = NULL, discord_id = NULL WHERE id = ${userId} AND (steam_id IS NOT NULL OR discord_id IS NOT NULL))
    SELECT ((steam_id IS NOT NULL)::int + (discord_id IS NOT NULL)::int) AS unlinked FROM before`);
  return { sessions, tokens, sshKeys, unlinked };
}
