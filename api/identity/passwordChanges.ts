/**
 * A signed-in user changing their password (POST /api/v1/account/password): the change ends every other session of
 * the account and spends its open reset links, and is made only if nobody changed the password meanwhile.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { recordAudit } from '../../orchestrator/audit.ts';

/**
 * An account without a password (made with Steam or Discord) sets its first one with no current password to prove:
 * only a session this recent (a fresh sign-in with the provider) may, so a session left open somewhere, or a stolen
 * access token, cannot add a password and so a way in that outlives it.
 */
export const FIRST_PASSWORD_SIGN_IN_MINUTES = 10;

/** The account's password hash (null: none yet), its e-mail, and whether `sessionId` is fresh enough to set a first password. */
export const passwordChangeState = (connection: CommonQueryMethods, userId: string, sessionId: string) =>
  connection.one(sql.type(z.object({ hash: z.string().nullable(), email: z.string(), fresh: z.boolean() }))`
    SELECT u.password_hash AS hash, u.email,
           s.created_at > now() - make_interval(mins => ${FIRST_PASSWORD_SIGN_IN_MINUTES}) AS fresh
      FROM users u JOIN sessions s ON s.user_id = u.id AND s.id = ${sessionId}
     WHERE u.id = ${userId}`);

/**
 * Sets the password hash to `newHash` if it is still `stored` (409 otherwise), ends every other session of the user,
 * spends their open reset links and records the change; answers how many sessions ended.
 */
export async function changePassword(
  pool: DatabasePool,
  origin: Origin,
  change: { userId: string; sessionId: string; stored: string | null; newHash: string },
): Promise<number> {
  const { userId, sessionId, stored, newHash } = change;
  return pool.transaction(async (tx) => {
    // The account's open reset links are locked before its row, in the order a reset confirm takes them
    // (completePasswordReset): taken the other way round, a change and a reset racing would deadlock.
    await tx.query(sql.unsafe`SELECT 1 FROM password_resets WHERE user_id = ${userId} AND used_at IS NULL ORDER BY id FOR UPDATE`);
    // Changed only if nobody changed it meanwhile (another tab, a reset): the check before was against that hash.
    const changed = await tx.query(sql.unsafe`
      UPDATE users SET password_hash = ${newHash}, updated_at = now()
       WHERE id = ${userId} AND password_hash IS NOT DISTINCT FROM ${stored}`);
    if (changed.rowCount === 0) throw conflict('Your password was changed meanwhile; sign in again with the new one');
    // Whoever signed in with the old password (another device, someone who learnt it) is signed out.
    const others = await tx.query(sql.unsafe`
      UPDATE sessions SET revoked_at = now(), revoked_reason = 'password changed'
       WHERE user_id = ${userId} AND id <> ${sessionId} AND revoked_at IS NULL`);
    await tx.query(sql.unsafe`UPDATE password_resets SET used_at = now() WHERE user_id = ${userId} AND used_at IS NULL`);
    await recordAudit(tx, origin, { clusterId: null, action: 'user.password_change', target: { type: 'user', id: userId } });
    return others.rowCount;
  });
}
