/**
 * Who may sign in to a server's files over SFTP (docs/sftp.md). The agent serves SFTP; the service decides, over
 * the agent's connection: the user named `<handle>.<server short id>` must be a member of the server's cluster with
 * `files.sftp`, and the key offered one of the SSH keys on their account. The answer carries what the user may do
 * (read, write). Open sessions are checked again the same way, so a removed member, a lowered role or a deleted key
 * ends them.
 */
import { createHash } from 'node:crypto';
import { activeTransferJob } from '../transfers/store.ts';
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
  type SftpCheckedSession,
  type SftpPermissions,
} from '../../schema/agentEvents.ts';
import { verifyPassword } from '../../schema/passwords.ts';
import { can, ROLES, type Role } from '../../schema/roles.ts';
import { checkSshKeyBlob, SshKeyError, sshFingerprint } from '../../schema/sshKeys.ts';
import { SFTP_ADDRESS_BUCKET, SFTP_PASSWORD_BUCKET, SFTP_USERNAME_BUCKET, type SftpBucket, type SftpThrottle } from './throttle.ts';

const permissionsOf = (role: Role): SftpPermissions => ({ read: can(role, 'files.read'), write: can(role, 'files.write') });

/** The same words whatever was wrong, so a refusal tells nothing about which users, servers or keys exist. */
const REFUSED = 'permission denied (unknown user or server, a key that is not on the account, or no SFTP access to this server)';

const candidate = z.object({ userId: z.string(), serverId: z.string(), role: z.enum(ROLES), keyId: z.string().nullable() });

/** How SFTP sign-ins are decided (the service's settings). */
export type SftpSignInOptions = {
  /** SFTP_PASSWORD_SIGN_IN: whether an account's password signs in too (default false). */
  passwords: boolean;
};

/** A stamp of an account's stored password: the same while the password is, another after a change or reset. */
export const passwordStamp = (passwordHash: string): string => createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

/** A user name's parts, or the refusal. */
function parseUsername(username: string): { handle: string; serverRef: string } | undefined {
  const name = SFTP_USERNAME.exec(username.toLowerCase());
  return name ? { handle: name[1]!, serverRef: name[2]! } : undefined;
}

const serverMatch = (serverRef: string) =>
  serverRef.length === 8 ? sql.fragment`right(replace(s.id::text, '-', ''), 8) = ${serverRef}` : sql.fragment`s.id = ${serverRef}::uuid`;

export async function authenticateSftp(
  connection: CommonQueryMethods,
  throttle: SftpThrottle,
  machineId: string,
  attempt: SftpAuthEvent,
  options: SftpSignInOptions = { passwords: false },
): Promise<SftpAuthAnswer> {
  const addressKey = `address:${attempt.address}`;
  const name = parseUsername(attempt.username);
  // A key's refusals count against the user name; a password's against the account, whichever of its servers they
  // name, and never against the user name: a stranger's wrong passwords do not lock out the member's keys.
  const budget: [string, SftpBucket] | undefined =
    attempt.method === 'password'
      ? name
        ? [`account:${name.handle}`, SFTP_PASSWORD_BUCKET]
        : undefined
      : [`username:${attempt.username.toLowerCase()}`, SFTP_USERNAME_BUCKET];
  const wait = Math.max(throttle.wait(addressKey, SFTP_ADDRESS_BUCKET), budget ? throttle.wait(budget[0], budget[1]) : 0);
  if (wait > 0) return { allowed: false, reason: `too many attempts; retry in ${wait} s`, retryAfterSeconds: wait };
  // Spent before the first await, so parallel attempts cannot all pass the check above; given back when allowed.
  throttle.spend(addressKey, SFTP_ADDRESS_BUCKET);
  if (budget) throttle.spend(budget[0], budget[1]);
  const allowed = (answer: SftpAuthAnswer): SftpAuthAnswer => {
    if (answer.allowed && budget) throttle.refund(budget[0], budget[1]);
    return answer;
  };
  const refuse = (reason = REFUSED): SftpAuthAnswer => ({ allowed: false, reason });

  if (!name) return refuse('the user name must be <handle>.<server short id>, as the dashboard shows it');
  if (attempt.method === 'password') {
    if (!options.passwords) return refuse('password sign-in is off on this service: use an SSH key registered on your account');
    // scrypt is costly: a few at a time per process, the rest refused as busy (a client may retry).
    if (!throttle.startPasswordCheck()) {
      if (budget) throttle.refund(budget[0], budget[1]);
      return { allowed: false, reason: 'too many password sign-ins at once; retry in 1 s', retryAfterSeconds: 1 };
    }
    try {
      return allowed(await authenticatePassword(connection, machineId, name, attempt.password, refuse));
    } finally {
      throttle.endPasswordCheck();
    }
  }
  return allowed(await authenticateKey(connection, machineId, name, attempt, refuse));
}

async function authenticateKey(
  connection: CommonQueryMethods,
  machineId: string,
  name: { handle: string; serverRef: string },
  attempt: Extract<SftpAuthEvent, { method: 'publickey' }>,
  refuse: (reason?: string) => SftpAuthAnswer,
): Promise<SftpAuthAnswer> {
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
     WHERE u.handle = ${name.handle} AND ${serverMatch(name.serverRef)}
     LIMIT 2`);
  if (rows.length > 1) return refuse('two servers on this machine end in those 8 digits: use <handle>.<the whole server id>');
  const row = rows[0];
  if (!row || row.keyId === null || !can(row.role, 'files.sftp')) return refuse();
  const moving = await movingRefusal(connection, row.serverId);
  if (moving) return moving;
  if (attempt.signed) {
    // lastUsedAt at most once a minute, as API tokens' (a read must not turn into a write each time).
    await connection.query(sql.unsafe`
      UPDATE ssh_keys SET last_used_at = now() WHERE id = ${row.keyId} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`);
  }
  return { allowed: true, userId: row.userId, serverId: row.serverId, keyId: row.keyId, permissions: permissionsOf(row.role) };
}

/** Files changed while the server moves would be lost with its old copy (docs/transfers.md#meanwhile). */
async function movingRefusal(connection: CommonQueryMethods, serverId: string): Promise<SftpAuthAnswer | undefined> {
  const moving = await activeTransferJob(connection, serverId);
  return moving ? { allowed: false, reason: `the server is being transferred to another machine (job ${moving}): try again when it is there` } : undefined;
}

const passwordCandidate = z.object({ userId: z.string(), serverId: z.string(), role: z.enum(ROLES), passwordHash: z.string().nullable() });

/**
 * The account's password (docs/sftp.md#password-sign-in): checked as sign-in checks it (scrypt, the same time spent
 * for an unknown user). An account without a password (Steam or Discord only) never signs in so.
 */
async function authenticatePassword(
  connection: CommonQueryMethods,
  machineId: string,
  name: { handle: string; serverRef: string },
  password: string,
  refuse: (reason?: string) => SftpAuthAnswer,
): Promise<SftpAuthAnswer> {
  const rows = await connection.any(sql.type(passwordCandidate)`
    SELECT u.id AS "userId", s.id AS "serverId", cm.role, u.password_hash AS "passwordHash"
      FROM users u
      JOIN cluster_members cm ON cm.user_id = u.id
      JOIN servers s ON s.cluster_id = cm.cluster_id AND s.machine_id = ${machineId}
     WHERE u.handle = ${name.handle} AND ${serverMatch(name.serverRef)}
     LIMIT 2`);
  const row = rows.length === 1 ? rows[0]! : undefined;
  const valid = await verifyPassword(password, row?.passwordHash ?? null);
  if (rows.length > 1) return refuse('two servers on this machine end in those 8 digits: use <handle>.<the whole server id>');
  if (!row || !valid || row.passwordHash === null || !can(row.role, 'files.sftp')) return refuse();
  // The password may have been changed (or reset) while scrypt ran: the sign-in holds only if it is still the same, as
  // /auth/login's (a session signed in with the old one would otherwise outlive the change until its next check).
  const current = await connection.maybeOneFirst(sql.type(z.object({ hash: z.string().nullable() }))`
    SELECT password_hash AS hash FROM users WHERE id = ${row.userId}`);
  if (current !== row.passwordHash) return refuse();
  const moving = await movingRefusal(connection, row.serverId);
  if (moving) return moving;
  return { allowed: true, userId: row.userId, serverId: row.serverId, passwordStamp: passwordStamp(row.passwordHash), permissions: permissionsOf(row.role) };
}

/** Each open session: still allowed (member with `files.sftp`, key still on the account, server still here) and how. */
export async function recheckSftpSessions(
  connection: CommonQueryMethods,
  machineId: string,
  sessions: readonly SftpCheckedSession[],
  options: SftpSignInOptions = { passwords: false },
): Promise<SftpCheckAnswer> {
  if (sessions.length === 0) return { sessions: [] };
  // A password session lasts while password sign-in is on and the password is the one it signed in with.
  const byPassword = sessions.filter((session) => session.passwordStamp !== undefined);
  const passwordOk = new Set<string>();
  if (options.passwords && byPassword.length > 0) {
    const hashes = await connection.any(sql.type(z.object({ id: z.string(), passwordHash: z.string() }))`
      SELECT id, password_hash AS "passwordHash" FROM users
       WHERE id = ANY(${sql.array([...new Set(byPassword.map((session) => session.userId))], 'uuid')}) AND password_hash IS NOT NULL`);
    const stamps = new Map(hashes.map((row) => [row.id, passwordStamp(row.passwordHash)]));
    for (const session of byPassword) if (stamps.get(session.userId) === session.passwordStamp) passwordOk.add(session.sessionId);
  }
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
        sessions.map((session) => session.keyId ?? null),
        'uuid',
      )}, ${sql.array(
        sessions.map((session) => passwordOk.has(session.sessionId)),
        'bool',
      )}) AS x (session_id, user_id, server_id, key_id, password_ok)
      JOIN servers s ON s.id = x.server_id AND s.machine_id = ${machineId}
      JOIN cluster_members cm ON cm.cluster_id = s.cluster_id AND cm.user_id = x.user_id
     WHERE (x.password_ok OR EXISTS (SELECT 1 FROM ssh_keys k WHERE k.id = x.key_id AND k.user_id = x.user_id))
     -- A session open on a server being transferred is closed: what it wrote would be lost with the old copy.
       AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.server_id = s.id AND t.finished_at IS NULL)`);
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
