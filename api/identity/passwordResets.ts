/**
 * Self-service password reset, offered when the installation can send e-mail (SMTP_URL). Asking never says whether an
 * account has the address (the same answer either way), sends at most one e-mail per account a minute, and the
 * e-mailed secret works once, within an hour. Using it sets the password and ends every session of the user.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { badRequest } from '../../schema/errors.ts';
import { generateSecret, hashSecret, looksLikeSecret } from '../../schema/secretTokens.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Mailer } from '../mail/mailer.ts';
import { quoteName } from '../mail/quoteName.ts';
import { hashPassword } from '../../schema/passwords.ts';
import { recoverAccount } from './sessions.ts';

export const RESET_MINUTES = 60;
/** At most one reset e-mail per account in this many seconds (a form submitted again, or someone mail-bombing). */
const RESET_INTERVAL_SECONDS = 60;

export const resetLink = (publicUrl: string, token: string) => `${publicUrl}/reset-password#token=${token}`;

/** Creates a reset for the account of `email`, if there is one, and starts e-mailing its link (not waited for). */
export async function requestPasswordReset(pool: DatabasePool, mailer: Mailer, input: { email: string; publicUrl: string }): Promise<void> {
  const token = generateSecret('reset');
  const user = await pool.transaction(async (tx) => {
    const found = await tx.maybeOne(sql.type(z.object({ id: z.string(), email: z.string(), displayName: z.string() }))`
      SELECT id, email, display_name AS "displayName" FROM users WHERE lower(email) = ${input.email.toLowerCase()} FOR UPDATE`);
    if (!found) return null;
    const recent = await tx.exists(sql.unsafe`
      SELECT 1 FROM password_resets WHERE user_id = ${found.id} AND created_at > now() - make_interval(secs => ${RESET_INTERVAL_SECONDS})`);
    if (recent) return null;
    await tx.query(sql.unsafe`
      INSERT INTO password_resets (user_id, token_hash, expires_at)
      VALUES (${found.id}, ${sql.binary(hashSecret(token))}, now() + make_interval(mins => ${RESET_MINUTES}))`);
    return found;
  });
  if (!user) return;
  // Not awaited: the answer must take as long whether or not an account has the address (an awaited SMTP
  // conversation would tell them apart). The mailer logs a failure.
  void mailer.send({
    to: user.email,
    subject: 'Reset your password',
    text: [
      `Hello ${quoteName(user.displayName)},`,
      '',
      'Someone (we hope you) asked to reset the password of your account. Open this link to choose a new one:',
      resetLink(input.publicUrl, token),
      '',
      `The link works once, within ${RESET_MINUTES} minutes. Setting a new password signs you out everywhere.`,
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  });
}

/** Spends a reset: sets the password, spends the user's other resets, recovers the account (recoverAccount). Answers the user's id. */
export async function completePasswordReset(tx: CommonQueryMethods, token: string, password: string): Promise<string> {
  const invalid = () =>
    badRequest('This reset link is invalid, expired or already used; ask for a new one', [{ field: 'token', message: 'invalid, expired or used' }]);
  if (!looksLikeSecret(token, 'reset')) throw invalid();
  const tokenHash = sql.binary(hashSecret(token));
  const userId = await tx.maybeOneFirst(sql.type(z.object({ userId: z.string() }))`
    SELECT user_id AS "userId" FROM password_resets WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()`);
  if (userId === null) throw invalid();
  // Every open link of the user, in id order, and only then the user's row: the order a password change takes them
  // too, so the two cannot deadlock. A link spent meanwhile (another confirm, a change) drops out of the locked rows.
  const open = await tx.anyFirst(sql.type(z.object({ mine: z.boolean() }))`
    SELECT (token_hash = ${tokenHash} AND expires_at > now()) AS mine FROM password_resets
     WHERE user_id = ${userId} AND used_at IS NULL ORDER BY id FOR UPDATE`);
  if (!open.includes(true)) throw invalid();
  await tx.query(sql.unsafe`UPDATE users SET password_hash = ${await hashPassword(password)}, updated_at = now() WHERE id = ${userId}`);
  await tx.query(sql.unsafe`UPDATE password_resets SET used_at = now() WHERE user_id = ${userId} AND used_at IS NULL`);
  await recoverAccount(tx, userId, 'password reset');
  return userId;
}
