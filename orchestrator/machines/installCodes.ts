/**
 * Single-use registration codes (`gsm_install_…`) for the install one-liner (docs/agent.md#installing-it). A pasted
 * line sits in shell history and support tickets, so it carries a code that works once, within an hour, instead of the
 * machine's long-lived agent token. Only the code's SHA-256 is stored, beside the token it yields, sealed (AES-256-GCM)
 * under a key derived from the code: the database alone gives neither.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { AppError, notFound } from '../../schema/errors.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';

/** How long a code works (as long as a join token). */
export const INSTALL_CODE_TTL_SECONDS = 3600;

/** Distinct from the lookup hash (the SHA-256 of the code alone), so the stored hash is no key. */
const keyOf = (code: string) => createHash('sha256').update(`gsm install code key\0${code}`).digest();

function seal(code: string, token: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(code), iv);
  const text = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), text]);
}

function unseal(code: string, sealed: Uint8Array): string {
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', keyOf(code), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** How long a used, replaced or expired code's row is kept (the audit log keeps the rest). */
export const INSTALL_CODE_RETENTION_DAYS = 30;

/**
 * Expired codes keep nothing to unseal, and rows older than the retention go. Run on every new code and exchange
 * (cheap: both are rare), so no code outlives its hour with a sealed token for long.
 */
export async function sweepInstallCodes(tx: CommonQueryMethods) {
  await tx.query(sql.unsafe`UPDATE agent_install_codes SET sealed_token = NULL WHERE expires_at <= now() AND sealed_token IS NOT NULL`);
  await tx.query(sql.unsafe`
    DELETE FROM agent_install_codes WHERE created_at < now() - make_interval(days => ${INSTALL_CODE_RETENTION_DAYS})`);
}

/**
 * Locks the machine's row for the rest of `tx`: new codes and token changes of one machine happen one at a time, so
 * two concurrent requests cannot both leave a live code (the partial unique index would refuse the second anyway).
 * Answers whether the machine exists.
 */
export const lockMachine = async (tx: CommonQueryMethods, machineId: string) =>
  (await tx.maybeOneFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM machines WHERE id = ${machineId} FOR UPDATE`)) !== null;

/**
 * A new code for `machineId` that yields `agentToken`; any earlier unused code of the machine stops working (the
 * newest line is the only one that installs). The caller holds the machine's lock (`lockMachine`).
 */
export async function issueInstallCode(tx: DatabaseTransactionConnection, machineId: string, agentToken: string) {
  const code = generateSecret('install');
  await sweepInstallCodes(tx);
  await tx.query(sql.unsafe`
    UPDATE agent_install_codes SET replaced_at = now(), sealed_token = NULL
    WHERE machine_id = ${machineId} AND used_at IS NULL AND replaced_at IS NULL`);
  const expiresAt = await tx.oneFirst(sql.type(z.object({ expiresAt: z.string() }))`
    INSERT INTO agent_install_codes (code_hash, machine_id, sealed_token, token_hash, expires_at)
    VALUES (${sql.binary(hashSecret(code))}, ${machineId}, ${sql.binary(seal(code, agentToken))}, ${sql.binary(hashSecret(agentToken))},
            now() + make_interval(secs => ${INSTALL_CODE_TTL_SECONDS}))
    RETURNING expires_at AS "expiresAt"`);
  return { code, expiresAt };
}

const gone = (message: string) => new AppError(410, message);
const AGAIN = 'ask for a new install line (POST /api/v1/machines/<id>/install-code, or the dashboard)';

/**
 * Uses `code` once: answers its machine and agent token, or refuses it (404 unknown, 410 used, replaced or expired).
 * The row is claimed by one conditional UPDATE, so of two concurrent exchanges exactly one wins; the other finds it used.
 */
export async function redeemInstallCode(tx: CommonQueryMethods, code: string, from: string | null) {
  const codeHash = sql.binary(hashSecret(code));
  const claimed = await tx.maybeOne(sql.type(z.object({ machineId: z.string(), clusterId: z.string(), sealed: z.instanceof(Uint8Array) }))`
    WITH used AS (
      UPDATE agent_install_codes SET used_at = now(), used_from = ${from}
      WHERE code_hash = ${codeHash} AND used_at IS NULL AND replaced_at IS NULL AND expires_at > now()
      RETURNING machine_id, sealed_token
    )
    SELECT used.machine_id AS "machineId", m.cluster_id AS "clusterId", used.sealed_token AS sealed
    FROM used JOIN machines m ON m.id = used.machine_id`);
  // The token is handed out now: nothing is left to unseal later.
  if (claimed) await tx.query(sql.unsafe`UPDATE agent_install_codes SET sealed_token = NULL WHERE code_hash = ${codeHash}`);
  else await sweepInstallCodes(tx);
  if (claimed) return { machineId: claimed.machineId, clusterId: claimed.clusterId, agentToken: unseal(code, claimed.sealed) };

  const row = await tx.maybeOne(sql.type(z.object({ usedAt: z.string().nullable(), replaced: z.boolean(), expiresAt: z.string() }))`
    SELECT used_at AS "usedAt", replaced_at IS NOT NULL AS replaced, expires_at AS "expiresAt"
    FROM agent_install_codes WHERE code_hash = ${codeHash}`);
  if (!row) throw notFound(`This install code is unknown to the service (check the line was copied whole, or ${AGAIN})`);
  if (row.usedAt) throw gone(`This install code was already used (at ${row.usedAt}); a code works once: ${AGAIN}`);
  if (row.replaced) throw gone(`This install code was replaced by a newer one for the same machine: use the newest line, or ${AGAIN}`);
  throw gone(`This install code expired at ${row.expiresAt} (codes work for one hour): ${AGAIN}`);
}
