/**
 * The SSH public keys on a user's account (docs/sftp.md): listed, added (checked and fingerprinted, one key once
 * per account, at most MAX_SSH_KEYS), deleted. Adding and deleting are audited; deleting one ends the SFTP sessions
 * it opened within seconds (sql/functions/gsm_sftp_access_changed.sql tells their agents).
 */
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { conflict, notFound, validationFailed } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import { MAX_SSH_KEYS, parseSshPublicKey, SshKeyError, sshKey, type SshKey } from '../../schema/sshKeys.ts';
import { recordAudit } from '../audit.ts';

const KEY_COLUMNS = sql.fragment`
  k.id, k.name, k.algorithm, k.bits, k.fingerprint, k.algorithm || ' ' || k.public_key AS "publicKey",
  k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt"`;

export function listSshKeys(connection: CommonQueryMethods, userId: string): Promise<readonly SshKey[]> {
  return connection.any(sql.type(sshKey)`SELECT ${KEY_COLUMNS} FROM ssh_keys k WHERE k.user_id = ${userId} ORDER BY k.created_at DESC, k.id DESC`);
}

export async function addSshKey(pool: DatabasePool, origin: Origin, userId: string, input: { name: string; publicKey: string }): Promise<SshKey> {
  let parsed: ReturnType<typeof parseSshPublicKey>;
  try {
    parsed = parseSshPublicKey(input.publicKey);
  } catch (error) {
    if (error instanceof SshKeyError) throw validationFailed([{ field: 'publicKey', message: error.message }]);
    throw error;
  }
  return pool.transaction(async (tx) => {
    // The user's row serialises additions: two at MAX_SSH_KEYS - 1 cannot both pass, the same key twice cannot race.
    await tx.query(sql.unsafe`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    const existing = await tx.maybeOne(sql.type(z.object({ name: z.string() }))`
      SELECT name FROM ssh_keys WHERE user_id = ${userId} AND fingerprint = ${parsed.fingerprint}`);
    if (existing) throw conflict(`This key is already on your account (as ${JSON.stringify(existing.name)})`);
    const count = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM ssh_keys WHERE user_id = ${userId}`);
    if (count >= MAX_SSH_KEYS) throw conflict(`You already have ${MAX_SSH_KEYS} SSH keys, the most an account may hold: delete one first`);
    const id = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
      INSERT INTO ssh_keys (user_id, name, algorithm, bits, public_key, fingerprint)
      VALUES (${userId}, ${input.name}, ${parsed.algorithm}, ${parsed.bits}, ${parsed.publicKey}, ${parsed.fingerprint})
      RETURNING id`);
    await recordAudit(tx, origin, { clusterId: null, action: 'ssh_key.create', target: { type: 'ssh_key', id } });
    return tx.one(sql.type(sshKey)`SELECT ${KEY_COLUMNS} FROM ssh_keys k WHERE k.id = ${id}`);
  });
}

export async function deleteSshKey(pool: DatabasePool, origin: Origin, userId: string, keyId: string): Promise<void> {
  await pool.transaction(async (tx) => {
    const deleted = await tx.query(sql.unsafe`DELETE FROM ssh_keys WHERE id = ${keyId} AND user_id = ${userId}`);
    if (deleted.rowCount === 0) throw notFound('SSH key not found');
    await recordAudit(tx, origin, { clusterId: null, action: 'ssh_key.delete', target: { type: 'ssh_key', id: keyId } });
  });
}
