/**
 * Machines as rows (docs/api.md): registered, listed, read, removed, their agent token rotated and their install codes
 * exchanged here; the HTTP routes parse, authorize and call. Every change records an audit entry in the change's
 * transaction, and a change the machine's connection must act on (token rotated, machine removed) tells the gateway
 * (gateway/notifications.ts) in that transaction too.
 */
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { conflict } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import { hashSecret } from '../../schema/secretTokens.ts';
import { machineRow, type machineListQuery } from '../../schema/servers.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { cancelServerJobs } from '../jobs/cancel.ts';
import { issueInstallCode, lockMachine, redeemInstallCode } from './installCodes.ts';

const MACHINE_COLUMNS = sql.fragment`
  m.id, m.cluster_id AS "clusterId", m.name, m.status, m.hostname, m.os, m.agent_version AS "agentVersion",
  m.cpu_count AS "cpuCount", m.memory_bytes AS "memoryBytes", m.metrics,
  m.addresses, m.reported_addresses AS "reportedAddresses", m.tools, m.last_seen_at AS "lastSeenAt",
  CASE WHEN m.sftp_port IS NULL THEN NULL ELSE json_build_object('port', m.sftp_port, 'hostKeyFingerprint', m.sftp_host_key_fingerprint) END AS sftp,
  m.created_at AS "createdAt", m.updated_at AS "updatedAt"`;
const SORT = { name: sql.fragment`lower(m.name)`, createdAt: sql.fragment`m.created_at`, lastSeenAt: sql.fragment`m.last_seen_at` };

export const getMachine = (connection: CommonQueryMethods, machineId: string) =>
  connection.one(sql.type(machineRow)`SELECT ${MACHINE_COLUMNS} FROM machines m WHERE m.id = ${machineId}`);

/** One page of a cluster's machines. */
export const clusterMachinePage = (connection: CommonQueryMethods, clusterId: string, query: z.output<typeof machineListQuery>) =>
  fetchPage(connection, {
    schema: machineRow,
    columns: MACHINE_COLUMNS,
    from: sql.fragment`machines m WHERE m.cluster_id = ${clusterId} ${query.status ? sql.fragment`AND m.status = ${query.status}` : sql.fragment``}`,
    order: orderBy(query.sort, SORT, sql.fragment`m.id`),
    page: query,
  });

/** Registers a machine whose agent authenticates with `agentToken` (only its hash is stored); answers its id. */
export async function createMachine(tx: CommonQueryMethods, origin: Origin, clusterId: string, name: string, agentToken: string): Promise<string> {
  const machineId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO machines (cluster_id, name, agent_token_hash) VALUES (${clusterId}, ${name}, ${sql.binary(hashSecret(agentToken))})
    RETURNING id`);
  await recordAudit(tx, origin, { clusterId, action: 'machine.create', target: { type: 'machine', id: machineId } });
  return machineId;
}

/**
 * A new single-use install code for `machineId` yielding `agentToken`, audited (the code itself is never stored).
 * The caller holds the machine's lock (`lockMachine`) or has just created it.
 */
export async function newInstallCode(tx: DatabaseTransactionConnection, origin: Origin, clusterId: string, machineId: string, agentToken: string) {
  const issued = await issueInstallCode(tx, machineId, agentToken);
  await recordAudit(tx, origin, { clusterId, action: 'machine.install_code_create', target: { type: 'machine', id: machineId } });
  return issued;
}

/**
 * Removes a machine of `clusterId`; refused (409) while it hosts servers unless `force`, which removes them with it,
 * each as a server deleted on its own would be: its open jobs cancelled, and audited. Its connection is closed.
 */
export async function deleteMachine(tx: CommonQueryMethods, origin: Origin, clusterId: string, machineId: string, force: boolean): Promise<void> {
  // Lock, then count: a server create holds the machine FOR SHARE until it commits, so this waits for it and
  // counts its server; a create that comes later waits for this delete and finds no machine. Counting first
  // would let a server committed in between be cascaded away unseen.
  await tx.query(sql.unsafe`SELECT 1 FROM machines WHERE id = ${machineId} FOR UPDATE`);
  // A transfer from or to the machine would lose its other end (and its job be left behind): it ends first.
  const moving = await tx.maybeOneFirst(sql.type(z.object({ jobId: z.string() }))`
    SELECT job_id AS "jobId" FROM transfers
     WHERE (source_machine_id = ${machineId} OR target_machine_id = ${machineId}) AND finished_at IS NULL ORDER BY created_at LIMIT 1`);
  if (moving) throw conflict(`A server is being transferred from or to this machine (job ${moving}): cancel the transfer or wait for it to end first`);
  const hosted = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM servers WHERE machine_id = ${machineId} ORDER BY id`);
  if (hosted.length > 0 && !force) throw conflict(`The machine hosts ${hosted.length} server(s); remove them first or use ?force=true`);
  // Each server removed with the machine goes as a server deleted on its own would: its jobs that have not ended are
  // cancelled (not left to expire once the machine is gone), and it gets its own audit entry.
  await cancelServerJobs(tx, hosted, 'the server was deleted with its machine');
  for (const serverId of hosted) {
    await recordAudit(tx, origin, { clusterId, action: 'server.delete', target: { type: 'server', id: serverId } });
  }
  await tx.query(sql.unsafe`DELETE FROM machines WHERE id = ${machineId}`);
  await notifyAgent(tx, { type: 'machine_removed', machineId });
  await recordAudit(tx, origin, { clusterId, action: 'machine.delete', target: { type: 'machine', id: machineId } });
}

/**
 * Replaces the machine's agent token with `agentToken`: the old one stops working at once and the connection it
 * opened is closed. A token still pending from an install-code exchange goes too. Leaves the machine locked for the
 * rest of `tx`, so the caller may issue an install code for the new token.
 */
export async function rotateAgentToken(tx: CommonQueryMethods, origin: Origin, clusterId: string, machineId: string, agentToken: string): Promise<void> {
  await lockMachine(tx, machineId);
  await tx.query(sql.unsafe`
    UPDATE machines SET agent_token_hash = ${sql.binary(hashSecret(agentToken))}, pending_token_hash = NULL, updated_at = now() WHERE id = ${machineId}`);
  await notifyAgent(tx, { type: 'token_rotated', machineId });
  await recordAudit(tx, origin, { clusterId, action: 'machine.rotate_token', target: { type: 'machine', id: machineId } });
}

/**
 * Uses an install line's registration code once (installCodes.ts: 404 unknown, 410 used, replaced or expired) and
 * answers its machine and agent token, audited.
 */
export async function exchangeInstallCode(tx: CommonQueryMethods, origin: Origin, code: string): Promise<{ machineId: string; agentToken: string }> {
  // The machine first, then the code, as a rotation or a new line does: the same lock order cannot deadlock.
  const owner = await tx.maybeOneFirst(sql.type(z.object({ machineId: z.string() }))`
    SELECT machine_id AS "machineId" FROM agent_install_codes WHERE code_hash = ${sql.binary(hashSecret(code))}`);
  if (owner) await lockMachine(tx, owner);
  const { machineId, clusterId, agentToken } = await redeemInstallCode(tx, code, origin.ip);
  // A code from an install-code request carries a new token. It is pending until it first authenticates at the
  // gateway (gateway/machineStore.ts), which then drops the old one: should this answer be lost or the install
  // fail, the agent running with the old token stays connected. A registration's or rotation's code yields the
  // current token and changes nothing.
  const tokenHash = sql.binary(hashSecret(agentToken));
  await tx.query(sql.unsafe`
    UPDATE machines SET pending_token_hash = ${tokenHash}, updated_at = now() WHERE id = ${machineId} AND agent_token_hash <> ${tokenHash}`);
  await recordAudit(tx, origin, { clusterId, action: 'machine.install_code_use', target: { type: 'machine', id: machineId } });
  return { machineId, agentToken };
}
