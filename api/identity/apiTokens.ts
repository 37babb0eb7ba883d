/**
 * User API tokens (`gsm_live_…`): created with a name, cluster scopes and an optional expiry, listed and revoked by
 * their owner. Only the secret's hash is stored; the secret is answered once, at creation. Checking a token on a
 * request is principal.ts.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict, notFound, validationFailed } from '../../schema/errors.ts';
import { apiTokenListItem } from '../../schema/identity.ts';
import type { Origin } from '../../schema/origin.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { recordAudit } from '../../orchestrator/audit.ts';

const TOKEN_COLUMNS = sql.fragment`
  t.id, t.name, t.created_at AS "createdAt", t.last_used_at AS "lastUsedAt", t.expires_at AS "expiresAt",
  ARRAY(SELECT cluster_id::text FROM api_token_clusters WHERE token_id = t.id ORDER BY cluster_id) AS "clusterIds"`;

/**
 * Active (unexpired) API tokens a user may hold at once, as Pterodactyl does. Every token has its own rate bucket, so
 * this also bounds how far a user's tokens can spread load (their shared ceiling is in api/rateLimit/tiers.ts).
 */
export const MAX_ACTIVE_TOKENS = 25;

/** The user's tokens, newest first (never their secrets). */
export const listApiTokens = (connection: CommonQueryMethods, userId: string) =>
  connection.any(sql.type(apiTokenListItem)`
    SELECT ${TOKEN_COLUMNS} FROM api_tokens t WHERE t.user_id = ${userId} ORDER BY t.created_at DESC, t.id DESC`);

export type NewApiToken = { name: string; expiresAt?: string | null | undefined; clusterIds: readonly string[] };

/**
 * Creates a token for `userId` scoped to `clusterIds` (each one the user belongs to: a 400 naming the others), at most
 * MAX_ACTIVE_TOKENS active at once (409); answers it with its secret.
 */
export async function createApiToken(pool: DatabasePool, origin: Origin, userId: string, input: NewApiToken) {
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) {
    throw validationFailed([{ field: 'expiresAt', message: 'must be in the future' }]);
  }
  const clusterIds = [...new Set(input.clusterIds)];
  const memberOf = new Set(
    await pool.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT cluster_id::text AS id FROM cluster_members
       WHERE user_id = ${userId} AND cluster_id = ANY(${sql.array(clusterIds, 'uuid')})`),
  );
  const foreign = input.clusterIds.flatMap((clusterId, index) =>
    memberOf.has(clusterId) ? [] : [{ field: `clusterIds.${index}`, message: 'not a cluster you belong to' }],
  );
  if (foreign.length > 0) throw validationFailed(foreign);

  const secret = generateSecret('live');
  return pool.transaction(async (tx) => {
    // The user's row is the lock that serialises token creation: two creates at 24 tokens cannot both pass.
    await tx.query(sql.unsafe`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    const active = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int AS count FROM api_tokens WHERE user_id = ${userId} AND (expires_at IS NULL OR expires_at > now())`);
    if (active >= MAX_ACTIVE_TOKENS) {
      throw conflict(`You already have ${MAX_ACTIVE_TOKENS} active API tokens, the most a user may hold: revoke one first`);
    }
    const tokenId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
      INSERT INTO api_tokens (user_id, name, token_hash, expires_at)
      VALUES (${userId}, ${input.name}, ${sql.binary(hashSecret(secret))}, ${input.expiresAt ?? null})
      RETURNING id`);
    await tx.query(sql.unsafe`
      INSERT INTO api_token_clusters (token_id, cluster_id) SELECT ${tokenId}, unnest(${sql.array(clusterIds, 'uuid')})`);
    await recordAudit(tx, origin, { clusterId: null, action: 'token.create', target: { type: 'token', id: tokenId } });
    const created = await tx.one(sql.type(apiTokenListItem)`SELECT ${TOKEN_COLUMNS} FROM api_tokens t WHERE t.id = ${tokenId}`);
    return { ...created, token: secret, userId };
  });
}

/** Revokes one of the user's tokens (404 for any other): the next request with it is 401. */
export async function revokeApiToken(pool: DatabasePool, origin: Origin, userId: string, tokenId: string): Promise<void> {
  await pool.transaction(async (tx) => {
    const deleted = await tx.query(sql.unsafe`DELETE FROM api_tokens WHERE id = ${tokenId} AND user_id = ${userId}`);
    if (deleted.rowCount === 0) throw notFound('Token not found');
    await recordAudit(tx, origin, { clusterId: null, action: 'token.delete', target: { type: 'token', id: tokenId } });
  });
}
