/**
 * Who may sign in to a server's files over SFTP (docs/sftp.md). The agent serves SFTP; the service decides, over
 * the agent's connection: the user named `<handle>.<server short id>` must be a member of the server's cluster with
 * `files.sftp`, and the key offered one of the SSH keys on their account. The answer carries what the user may do
 * (read, write). Open sessions are checked again the same way, so a removed member, a lowered role or a deleted key
 * ends them.
 */
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import type { Origin } from '../../schema/origin.ts';
import { z } from 'zod';
import { auditFileChange, HISTORY_MAX_BYTES, readText, recordFileVersion } from '../files/serverFiles.ts';
import type { Logger } from '../../schema/logger.ts';
import {
  SFTP_USERNAME,
  type SftpChangedEvent,
  type SftpAuthAnswer,
  type SftpAuthEvent,
  type SftpCheckAnswer,
  type SftpPermissions,
} from '../../schema/agentEvents.ts';
import { can, ROLES, type Role } from '../../schema/roles.ts';
import { checkSshKeyBlob, SshKeyError, sshFingerprint } from '../../schema/sshKeys.ts';
import { SFTP_ADDRESS_BUCKET, SFTP_USERNAME_BUCKET, type SftpThrottle } from './throttle.ts';

const permissionsOf = (role: Role): SftpPermissions => ({ read: can(role, 'files.read'), write: can(role, 'files.write') });

/** The same words whatever was wrong, so a refusal tells nothing about which users, servers or keys exist. */
const REFUSED = 'permission denied (unknown user or server, a key that is not on the account, or no SFTP access to this server)';

const candidate = z.object({ userId: z.string(), serverId: z.string(), role: z.enum(ROLES), keyId: z.string().nullable() });

export async function authenticateSftp(
  connection: CommonQueryMethods,
  throttle: SftpThrottle,
  machineId: string,
  attempt: SftpAuthEvent,
): Promise<SftpAuthAnswer> {
  const addressKey = `address:${attempt.address}`;
  const usernameKey = `username:${attempt.username.toLowerCase()}`;
  const wait = Math.max(throttle.wait(addressKey, SFTP_ADDRESS_BUCKET), throttle.wait(usernameKey, SFTP_USERNAME_BUCKET));
  if (wait > 0) return { allowed: false, reason: `too many attempts; retry in ${wait} s`, retryAfterSeconds: wait };
  throttle.spend(addressKey, SFTP_ADDRESS_BUCKET);
  const refuse = (reason = REFUSED): SftpAuthAnswer => {
    throttle.spend(usernameKey, SFTP_USERNAME_BUCKET);
    return { allowed: false, reason };
  };

  const name = SFTP_USERNAME.exec(attempt.username.toLowerCase());
  if (!name) return refuse('the user name must be <handle>.<server short id>, as the dashboard shows it');
  const [, handle, serverRef] = name;
  const blob = Buffer.from(attempt.publicKey, 'base64');
  try {
    checkSshKeyBlob(attempt.algorithm, blob);
  } catch (error) {
    if (error instanceof SshKeyError) return refuse(`key refused: ${error.message}`);
    throw error;
  }
  const fingerprint = sshFingerprint(blob);
  const rows = await connection.any(sql.type(candidate)`
    SELECT u.id AS "userId", s.id AS "serverId", cm.role, k.id AS "keyId"
      FROM users u
      JOIN cluster_members cm ON cm.user_id = u.id
      JOIN servers s ON s.cluster_id = cm.cluster_id AND s.machine_id = ${machineId}
      LEFT JOIN ssh_keys k ON k.user_id = u.id AND k.fingerprint = ${fingerprint} AND k.public_key = ${blob.toString('base64')}
     WHERE u.handle = ${handle!}
       AND ${serverRef!.length === 8 ? sql.fragment`right(replace(s.id::text, '-', ''), 8) = ${serverRef!}` : sql.fragment`s.id = ${serverRef!}::uuid`}
     LIMIT 2`);
  if (rows.length > 1) return refuse('two servers on this machine end in those 8 digits: use <handle>.<the whole server id>');
  const row = rows[0];
  if (!row || row.keyId === null || !can(row.role, 'files.sftp')) return refuse();
  if (attempt.signed) {
    // lastUsedAt at most once a minute, as API tokens' (a read must not turn into a write each time).
    await connection.query(sql.unsafe`
      UPDATE ssh_keys SET last_used_at = now() WHERE id = ${row.keyId} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`);
  }
  return { allowed: true, userId: row.userId, serverId: row.serverId, keyId: row.keyId, permissions: permissionsOf(row.role) };
}

/** Each open session: still allowed (member with `files.sftp`, key still on the account, server still here) and how. */
export async function recheckSftpSessions(
  connection: CommonQueryMethods,
  machineId: string,
  sessions: readonly { sessionId: string; userId: string; serverId: string; keyId: string }[],
): Promise<SftpCheckAnswer> {
  if (sessions.length === 0) return { sessions: [] };
  const rows = await connection.any(sql.type(z.object({ sessionId: z.string(), role: z.enum(ROLES) }))`
    SELECT x.session_id AS "sessionId", cm.role
      FROM unnest(${sql.array(
        sessions.map((session) => session.sessionId),
        'text',
      )}, ${sql.array(
        sessions.map((session) => session.userId),
        'uuid',
      )}, ${sql.array(
        sessions.map((session) => session.serverId),
        'uuid',
      )}, ${sql.array(
        sessions.map((session) => session.keyId),
        'uuid',
      )}) AS x (session_id, user_id, server_id, key_id)
      JOIN servers s ON s.id = x.server_id AND s.machine_id = ${machineId}
      JOIN cluster_members cm ON cm.cluster_id = s.cluster_id AND cm.user_id = x.user_id
      JOIN ssh_keys k ON k.id = x.key_id AND k.user_id = x.user_id`);
  const roles = new Map(rows.map((row) => [row.sessionId, row.role]));
  return {
    sessions: sessions.map(({ sessionId }) => {
      const role = roles.get(sessionId);
      return role && can(role, 'files.sftp') ? { sessionId, allowed: true, permissions: permissionsOf(role) } : { sessionId, allowed: false };
    }),
  };
}

/** The machine's SFTP service, as its agent reports it (shown on the machine's record). */
export async function recordSftpListening(connection: CommonQueryMethods, machineId: string, port: number, hostKeyFingerprint: string | null): Promise<void> {
  await connection.query(sql.unsafe`
    UPDATE machines SET sftp_port = ${port}, sftp_host_key_fingerprint = ${hostKeyFingerprint}
     WHERE id = ${machineId} AND (sftp_port IS DISTINCT FROM ${port} OR sftp_host_key_fingerprint IS DISTINCT FROM ${hostKeyFingerprint})`);
}

/** The audit actions of the API's file routes, so one search finds a change whichever way it was made. */
const AUDIT_ACTION = {
  write: 'server.file_write',
  delete: 'server.file_delete',
  rmdir: 'server.file_delete',
  rename: 'server.file_rename',
  chmod: 'server.file_chmod',
  mkdir: 'server.file_mkdir',
} as const;

/**
 * A change made over SFTP: in the audit log of the server's cluster as the user's doing, with the path (and size,
 * target, mode) and `via: "sftp"`, like the API's file changes; a text file written (at most 1 MiB) is read back
 * through the agent and kept in the config history (`via: "sftp"`). False when the server is not on this machine or the
 * user is not a member of its cluster.
 */
export async function recordSftpChange(pool: DatabasePool, machineId: string, change: SftpChangedEvent, logger?: Logger): Promise<boolean> {
  const found = await pool.maybeOne(sql.type(z.object({ clusterId: z.string(), name: z.string() }))`
    SELECT s.cluster_id AS "clusterId", u.display_name AS name
      FROM servers s JOIN cluster_members cm ON cm.cluster_id = s.cluster_id JOIN users u ON u.id = cm.user_id
     WHERE s.id = ${change.serverId} AND s.machine_id = ${machineId} AND u.id = ${change.userId}`);
  if (!found) return false;
  const origin: Origin = { actor: { kind: 'USER', id: change.userId, name: found.name }, userId: change.userId, ip: null, requestId: null };
  const server = { id: change.serverId, clusterId: found.clusterId, machineId };
  await auditFileChange(pool, origin, server, AUDIT_ACTION[change.action], {
    path: change.path,
    ...(change.toPath !== undefined ? { to: change.toPath } : {}),
    ...(change.size !== undefined ? { size: change.size } : {}),
    ...(change.mode !== undefined ? { mode: change.mode.toString(8) } : {}),
    ...(change.action === 'rmdir' ? { type: 'directory' } : {}),
    via: 'sftp',
  });
  if (change.action === 'write' && change.size !== undefined && change.size <= HISTORY_MAX_BYTES) {
    // Read back as it is now (a later write gets its own version); a binary file is not kept.
    try {
      const { text } = await readText(server, change.path.replace(/^\/+/, ''), HISTORY_MAX_BYTES);
      if (text !== undefined) await recordFileVersion(pool, origin, { serverId: change.serverId, path: change.path, content: text, via: 'sftp' });
    } catch (error) {
      logger?.warn({ err: error, serverId: change.serverId, path: change.path }, 'could not keep the version of a file written over SFTP');
    }
  }
  return true;
}
