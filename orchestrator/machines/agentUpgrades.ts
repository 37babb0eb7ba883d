/**
 * Fleet upgrades of agents as rows (docs/upgrades.md#upgrading-the-agents): a roll is started, read, listed and
 * cancelled here; upgradeRoll.ts drives it. The only writer of `agent_upgrades` and `agent_upgrade_machines`.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { agentUpgrade, type AgentUpgrade, type startAgentUpgradeBody } from '../../schema/agentUpgrades.ts';
import { compareVersions } from '../../schema/agentVersions.ts';
import { badRequest, conflict, notFound } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import { recordAudit } from '../audit.ts';

/**
 * How long an agent has to answer an upgrade command (gateway.ts): it answers once it has downloaded and checked the
 * package. The roll does not send the command again over the same connection before this has passed.
 */
export const UPGRADE_ACK_TIMEOUT_MS = 150_000;

/** The service's agent package a roll installs: its version, SHA-256 and where agents fetch it (null: their gateway). */
export type UpgradePackage = { version: string; sha256: string; url: string | null };

const UPGRADE_SELECT = sql.fragment`
  SELECT u.id, u.cluster_id AS "clusterId", u.state, u.version, u.package_sha256 AS "packageSha256", u.batch_size AS "batchSize",
         u.timeout_seconds AS "timeoutSeconds", u.reason, u.created_by_name AS "createdBy",
         coalesce((SELECT json_agg(json_build_object(
                     'machineId', m.machine_id, 'name', m.machine_name, 'state', m.state, 'fromVersion', m.from_version,
                     'toVersion', m.to_version, 'servers', cardinality(m.servers), 'reason', m.reason,
                     'startedAt', to_char(m.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'finishedAt', to_char(m.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY m.position)
                     FROM agent_upgrade_machines m WHERE m.upgrade_id = u.id), '[]') AS machines,
         u.created_at AS "createdAt", u.updated_at AS "updatedAt", u.finished_at AS "finishedAt"
    FROM agent_upgrades u`;

/** Rolls listed at most (the newest first). */
const LIST_LIMIT = 20;

export async function getAgentUpgrade(connection: CommonQueryMethods, clusterId: string, upgradeId: string): Promise<AgentUpgrade> {
  const found = await connection.maybeOne(sql.type(agentUpgrade)`${UPGRADE_SELECT} WHERE u.id = ${upgradeId} AND u.cluster_id = ${clusterId}`);
  if (!found) throw notFound('Agent upgrade not found');
  return found;
}

/** The cluster's latest rolls, the newest first. */
export const listAgentUpgrades = (connection: CommonQueryMethods, clusterId: string) =>
  connection.any(sql.type(agentUpgrade)`${UPGRADE_SELECT} WHERE u.cluster_id = ${clusterId} ORDER BY u.created_at DESC, u.id DESC LIMIT ${LIST_LIMIT}`);

const candidate = z.object({ id: z.string(), name: z.string(), status: z.string(), agentVersion: z.string().nullable() });

/**
 * Starts a roll of `clusterId`'s machines to `pkg`, audited; 409 while another roll of the cluster runs or when there
 * is nothing to upgrade, 400 when a listed machine is not the cluster's.
 */
export async function startAgentUpgrade(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  body: z.output<typeof startAgentUpgradeBody>,
  pkg: UpgradePackage,
): Promise<AgentUpgrade> {
  // One roll per cluster at a time: concurrent starts queue on the cluster's row, and the partial unique index is the backstop.
  await tx.query(sql.unsafe`SELECT 1 FROM clusters WHERE id = ${clusterId} FOR UPDATE`);
  const running = await tx.maybeOneFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM agent_upgrades WHERE cluster_id = ${clusterId} AND state = 'RUNNING'`);
  if (running) throw conflict(`An agent upgrade of this cluster is already running (${running}); cancel it or wait for it to end`);
  const machines = await tx.any(sql.type(candidate)`
    SELECT id, name, status, agent_version AS "agentVersion" FROM machines WHERE cluster_id = ${clusterId} ORDER BY lower(name), id`);
  let chosen: z.infer<typeof candidate>[];
  if (body.machineIds) {
    const byId = new Map(machines.map((machine) => [machine.id, machine]));
    const unknown = body.machineIds.filter((machineId) => !byId.has(machineId));
    if (unknown.length > 0) {
      throw badRequest(
        'Every machine must be one of the cluster',
        unknown.slice(0, 10).map((machineId) => ({ field: 'machineIds', message: `${machineId} is not a machine of this cluster` })),
      );
    }
    chosen = body.machineIds.map((machineId) => byId.get(machineId)!);
  } else {
    chosen = machines.filter(
      (machine) => machine.status === 'ONLINE' && machine.agentVersion !== null && compareVersions(machine.agentVersion, pkg.version) < 0,
    );
    if (chosen.length === 0) throw conflict(`No machine to upgrade: every ONLINE machine of the cluster runs agent ${pkg.version} or newer`);
  }
  const [ids, names] = [chosen.map((machine) => machine.id), chosen.map((machine) => machine.name)];
  const upgradeId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO agent_upgrades (cluster_id, batch_size, timeout_seconds, version, package_url, package_sha256, created_by_name)
    VALUES (${clusterId}, ${body.batchSize}, ${body.timeoutSeconds}, ${pkg.version}, ${pkg.url}, ${pkg.sha256}, ${origin.actor.name})
    RETURNING id`);
  await tx.query(sql.unsafe`
    INSERT INTO agent_upgrade_machines (upgrade_id, machine_id, machine_name, position)
    SELECT ${upgradeId}, machine_id, machine_name, position
      FROM unnest(${sql.array(ids, 'uuid')}, ${sql.array(names, 'text')}) WITH ORDINALITY AS listed (machine_id, machine_name, position)`);
  await recordAudit(tx, origin, {
    clusterId,
    action: 'machine.agent_upgrade_start',
    target: { type: 'agent_upgrade', id: upgradeId },
    details: { version: pkg.version, batchSize: body.batchSize, machineIds: ids },
  });
  return getAgentUpgrade(tx, clusterId, upgradeId);
}

/**
 * Cancels a running roll, audited: no further machine is upgraded. A machine whose agent was already told to upgrade
 * may still finish doing so (it is marked CANCELLED with that said). 409 when the roll has ended.
 */
export async function cancelAgentUpgrade(tx: CommonQueryMethods, origin: Origin, clusterId: string, upgradeId: string): Promise<AgentUpgrade> {
  const state = await tx.maybeOneFirst(sql.type(z.object({ state: z.string() }))`
    SELECT state FROM agent_upgrades WHERE id = ${upgradeId} AND cluster_id = ${clusterId} FOR UPDATE`);
  if (state === null) throw notFound('Agent upgrade not found');
  if (state !== 'RUNNING') throw conflict(`The agent upgrade has ended (${state}); nothing to cancel`);
  await tx.query(sql.unsafe`
    UPDATE agent_upgrade_machines
       SET state = 'CANCELLED', finished_at = now(),
           reason = CASE WHEN state = 'UPGRADING' THEN 'cancelled while its agent was upgrading: it may still come back on the new version'
                         ELSE 'cancelled before its turn' END
     WHERE upgrade_id = ${upgradeId} AND state IN ('PENDING', 'UPGRADING')`);
  await tx.query(sql.unsafe`
    UPDATE agent_upgrades SET state = 'CANCELLED', reason = 'cancelled', finished_at = now(), updated_at = now() WHERE id = ${upgradeId}`);
  await recordAudit(tx, origin, { clusterId, action: 'machine.agent_upgrade_cancel', target: { type: 'agent_upgrade', id: upgradeId } });
  return getAgentUpgrade(tx, clusterId, upgradeId);
}

/** The agent refused an upgrade it was sent (gateway): its machine fails, and the roll stops at the next step. */
export async function recordUpgradeRefused(connection: CommonQueryMethods, upgradeId: string, machineId: string, reason: string): Promise<void> {
  await connection.query(sql.unsafe`
    UPDATE agent_upgrade_machines SET state = 'FAILED', reason = ${`the agent refused the upgrade: ${reason}`}, finished_at = now()
     WHERE upgrade_id = ${upgradeId} AND machine_id = ${machineId} AND state = 'UPGRADING'`);
}

/**
 * The agent accepted an upgrade it was sent (gateway): should it come back on its old version, the new one was rolled
 * back, and the roll does not send it again (upgradeRoll.ts).
 */
export async function recordUpgradeAccepted(connection: CommonQueryMethods, upgradeId: string, machineId: string): Promise<void> {
  // The first accept may come long after the command was sent (the agent downloads the package first): what must run
  // again is what runs now, as the old agent last said, not what ran then (a server restarted meanwhile is not the new agent's doing).
  const first = await connection.maybeOneFirst(sql.type(z.object({ machineId: z.string() }))`
    UPDATE agent_upgrade_machines SET accepted_at = now()
     WHERE upgrade_id = ${upgradeId} AND machine_id = ${machineId} AND state = 'UPGRADING' AND accepted_at IS NULL
    RETURNING machine_id AS "machineId"`);
  if (first) await recordServersBefore(connection, upgradeId, machineId);
}

/** Server statuses that count as running (before an upgrade: what must run again after it, adopted). */
export const RUNNING_STATUSES = ['ONLINE', 'UNRESPONSIVE'];

/**
 * Records what must run again after a machine's upgrade, adopted: its running servers, each with the process it runs
 * as, when the old agent said so over the connection the command was sent over (`generation`). A process reported over
 * an earlier connection (or by an older orchestrator that did not store it) is unknown: it may be stale.
 */
export async function recordServersBefore(connection: CommonQueryMethods, upgradeId: string, machineId: string): Promise<void> {
  await connection.query(sql.unsafe`
    WITH running AS (
      SELECT s.id, s.process_pid AS pid, s.process_started_at AS started_at,
             s.status_generation IS NOT NULL AND s.status_generation = u.generation AS trusted
        FROM agent_upgrade_machines u JOIN servers s ON s.machine_id = u.machine_id
       WHERE u.upgrade_id = ${upgradeId} AND u.machine_id = ${machineId} AND s.status = ANY(${sql.array(RUNNING_STATUSES, 'text')}))
    UPDATE agent_upgrade_machines
       SET servers = ARRAY(SELECT id FROM running),
           processes = coalesce((SELECT jsonb_agg(jsonb_build_object('server_id', id, 'pid', pid, 'started_at', started_at))
                                   FROM running WHERE trusted AND pid IS NOT NULL), '[]')
     WHERE upgrade_id = ${upgradeId} AND machine_id = ${machineId}`);
}
