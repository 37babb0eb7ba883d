/**
 * Drives fleet upgrades of agents (docs/upgrades.md#upgrading-the-agents). Every orchestrator process looks at the
 * running rolls on a short beat and advances each by one step in a transaction that holds the roll's row (`SKIP
 * LOCKED`: one process at a time per roll); everything a step knows is in the rows, so a roll goes on after any process
 * restarts. A step:
 *
 * 1. judges the machines being upgraded: one whose agent came back (a newer connection, ONLINE) on the roll's version
 *    and reported, over that connection, every server it was running as running in the same process (same pid and
 *    start time as the old agent last reported over its own connection, recorded when the batch started and again when
 *    the agent accepted: adopted, not restarted) has SUCCEEDED; one whose server was restarted or lost (reported
 *    anything but running, starting or unknown; a START, RESTART or STOP job made meanwhile is named), that came back on
 *    another version, or that is not all back within the time-out has FAILED. An agent that reconnected still on its
 *    old version without answering (the command was lost with its connection) is sent the command again over its new
 *    connection, over MAX_SENDS connections at most; one quiet over the same connection for RESEND_AFTER_SECONDS (past
 *    the gateway's wait for its answer) is sent it again over that connection (not counted); one that had accepted the
 *    command and came back on its old version was rolled back, and FAILS at once (the roll never sends it again: a new
 *    roll may);
 * 2. stops the roll at the first FAILED machine (the rest SKIPPED), saying which and why;
 * 3. when no machine is being upgraded, starts the next batch: each machine's agent is sent `agent:upgrade` through the
 *    process holding its connection (gateway/notifications.ts); a machine already on the version SUCCEEDS at once, an
 *    OFFLINE one FAILS (it cannot be upgraded now), a removed one is SKIPPED. No batch left: the roll SUCCEEDED.
 */
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { compareVersions } from '../../schema/agentVersions.ts';
import type { Logger } from '../../schema/logger.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { recordServersBefore, RUNNING_STATUSES, UPGRADE_ACK_TIMEOUT_MS } from './agentUpgrades.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

/** How often running rolls are looked at. */
const EVERY_MS = 1_000;
/**
 * A machine whose agent has not answered nor reconnected this long after the command is sent it again over the same
 * connection: the gateway waits UPGRADE_ACK_TIMEOUT_MS for the answer (the agent answers only once it has downloaded and
 * checked the package), so a quiet agent is not told again while it may still be working on the first command.
 */
const RESEND_AFTER_SECONDS = UPGRADE_ACK_TIMEOUT_MS / 1000 + 10;
/**
 * Connections the command is sent over to one machine in a roll at most: the agent came back on its old version without
 * answering (the command was lost with its connection) this many times less one. Sends again over the same connection
 * (no answer in time) do not count.
 */
const MAX_SENDS = 3;
/** Statuses a server passes through while its agent comes back: waited for, until the time-out. */
const SETTLING = ['UNKNOWN', 'STARTING'];

const roll = z.object({
  id: z.string(),
  version: z.string(),
  sha256: z.string(),
  url: z.string().nullable(),
  batchSize: z.number(),
  timeoutSeconds: z.number(),
});
type Roll = z.infer<typeof roll>;

const upgrading = z.object({
  machineId: z.string(),
  generation: z.number().nullable(),
  servers: z.array(z.string()),
  sends: z.number(),
  accepted: z.boolean(),
  elapsedSeconds: z.number(),
  sinceSentSeconds: z.number(),
  status: z.string().nullable(),
  agentVersion: z.string().nullable(),
  currentGeneration: z.number().nullable(),
});

/** A server the machine was running when its upgrade started, as it is now, with its process then (when known). */
const serverState = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  expected: z.boolean(),
  /** Whether its status was reported over the machine's current connection (the new agent), not before. */
  reportedNow: z.boolean(),
  pid: z.number().nullable(),
  startedAt: z.string().nullable(),
  adopted: z.boolean().nullable(),
  pidBefore: z.number().nullable(),
  startedAtBefore: z.string().nullable(),
  sameProcess: z.boolean(),
  /** The latest START, RESTART or STOP job of the server since the machine's upgrade started (`RESTART job <id>`). */
  jobDuring: z.string().nullable(),
});

type Verdict = { state: 'SUCCEEDED' | 'FAILED'; reason: string | null } | { state: 'WAIT'; resend: boolean };

/**
 * Sends the roll's command to `machineId`'s agent (wherever its connection is), and notes when and over which
 * connection; `sends` counts the connections it was sent over (a send again over the same one does not count).
 */
async function sendCommand(tx: CommonQueryMethods, upgrade: Roll, machineId: string, generation: number | null): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE agent_upgrade_machines
       SET sent_at = now(), sends = sends + CASE WHEN sends = 0 OR ${generation}::bigint IS DISTINCT FROM generation THEN 1 ELSE 0 END,
           generation = coalesce(${generation}::bigint, generation)
     WHERE upgrade_id = ${upgrade.id} AND machine_id = ${machineId}`);
  await notifyAgent(tx, {
    type: 'agent_upgrade',
    machineId,
    upgrade: { upgradeId: upgrade.id, version: upgrade.version, sha256: upgrade.sha256, url: upgrade.url },
  });
}

const processOf = (pid: number | null, startedAt: string | null) => `pid ${pid ?? '?'} started ${startedAt ?? 'at an unknown time'}`;

/**
 * Whether the servers the machine was running were adopted by its new agent (reported over its current connection as
 * running in the process they ran in before): `lost` says why not when one was restarted or is not running, `settling`
 * which one is still to be reported or ready.
 */
async function serversVerdict(tx: CommonQueryMethods, upgradeId: string, machineId: string): Promise<{ lost: string | null; settling: string | null }> {
  const servers = await tx.any(sql.type(serverState)`
    SELECT s.id, s.name, s.status,
           -- deleted since, stopped by someone meanwhile or moved away: no longer expected to run here
           s.desired_status = 'RUNNING' AND s.machine_id = u.machine_id AS expected,
           s.status_generation IS NOT DISTINCT FROM m.connection_generation AS "reportedNow",
           s.process_pid AS pid, to_char(s.process_started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",
           s.process_adopted AS adopted, before.pid AS "pidBefore",
           to_char(before.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAtBefore",
           s.process_pid IS NOT DISTINCT FROM before.pid AND s.process_started_at IS NOT DISTINCT FROM before.started_at AS "sameProcess",
           (SELECT j.type || ' job ' || j.id FROM jobs j
             WHERE j.server_id = s.id AND j.type IN ('START', 'RESTART', 'STOP') AND j.created_at >= u.started_at
             ORDER BY j.created_at DESC LIMIT 1) AS "jobDuring"
      FROM agent_upgrade_machines u
      JOIN machines m ON m.id = u.machine_id
      JOIN servers s ON s.id = ANY(u.servers)
      LEFT JOIN jsonb_to_recordset(u.processes) AS before (server_id uuid, pid integer, started_at timestamptz) ON before.server_id = s.id
     WHERE u.upgrade_id = ${upgradeId} AND u.machine_id = ${machineId}
     ORDER BY s.name, s.id`);
  let settling: string | null = null;
  for (const server of servers.filter((each) => each.expected)) {
    const which = `server ${server.name} (${server.id})`;
    const verdict = serverLost(server, which);
    if (verdict.lost) {
      // Someone may have restarted it meanwhile: that is said, so the new agent is not blamed for it.
      const job = server.jobDuring ? ` (its ${server.jobDuring} was created during the upgrade)` : '';
      return { lost: `${verdict.lost}${job}`, settling };
    }
    if (verdict.settling) settling ??= verdict.settling;
  }
  return { lost: null, settling };
}

/** One server's part of serversVerdict. */
function serverLost(server: z.infer<typeof serverState>, which: string): { lost?: string; settling?: string } {
  if (!server.reportedNow) return { settling: `${which} is not reported by the new agent yet` };
  if (server.pid !== null) {
    if (server.pidBefore !== null && !server.sameProcess) {
      const before = processOf(server.pidBefore, server.startedAtBefore);
      return { lost: `${which} was restarted, not adopted: it ran as ${before} before the upgrade, now as ${processOf(server.pid, server.startedAt)}` };
    }
    if (server.adopted === false)
      return { lost: `${which} was restarted by the new agent, not adopted (it runs as ${processOf(server.pid, server.startedAt)})` };
  }
  if (SETTLING.includes(server.status)) return { settling: `${which} is still ${server.status}` };
  if (!RUNNING_STATUSES.includes(server.status)) return { lost: `${which} was running and is ${server.status} after the upgrade` };
  if (server.pid === null) return { lost: `${which} is reported ${server.status} by the new agent without its process: whether it was adopted cannot be told` };
  return {};
}

async function judge(tx: CommonQueryMethods, upgrade: Roll, machine: z.infer<typeof upgrading>): Promise<Verdict> {
  if (machine.status === null) return { state: 'FAILED', reason: 'the machine was removed during its upgrade' };
  const timedOut = machine.elapsedSeconds >= upgrade.timeoutSeconds;
  const reconnected = machine.status === 'ONLINE' && (machine.currentGeneration ?? 0) > (machine.generation ?? 0);
  const comparison = machine.agentVersion === null ? -1 : compareVersions(machine.agentVersion, upgrade.version);
  if (reconnected && comparison > 0) {
    return { state: 'FAILED', reason: `came back on agent ${machine.agentVersion}, not ${upgrade.version}` };
  }
  if (reconnected && comparison === 0) {
    const servers = await serversVerdict(tx, upgrade.id, machine.machineId);
    if (servers.lost) return { state: 'FAILED', reason: servers.lost };
    if (!servers.settling) return { state: 'SUCCEEDED', reason: null };
    if (timedOut) return { state: 'FAILED', reason: `${servers.settling} ${upgrade.timeoutSeconds} s after the upgrade started` };
    return { state: 'WAIT', resend: false };
  }
  if (reconnected && machine.accepted) {
    // It took the command, restarted, and its previous agent is back: the new one was rolled back (on the machine).
    return {
      state: 'FAILED',
      reason: `its agent accepted the upgrade to ${upgrade.version} but came back on ${machine.agentVersion ?? 'an unknown version'}: the new agent was rolled back (see the agent's log); this roll does not try it again`,
    };
  }
  if (timedOut) {
    const where =
      machine.status !== 'ONLINE'
        ? 'its agent is not back ONLINE'
        : reconnected
          ? `its agent is back ONLINE on ${machine.agentVersion ?? 'an unknown version'}, not ${upgrade.version}`
          : 'its agent has not restarted';
    return { state: 'FAILED', reason: `${where} ${upgrade.timeoutSeconds} s after the upgrade started` };
  }
  if (machine.status !== 'ONLINE' || machine.accepted) return { state: 'WAIT', resend: false };
  if (reconnected) {
    // Back on the old version without having answered (the command was lost with its connection): told again over the
    // new connection, a few times.
    if (machine.sends >= MAX_SENDS) {
      return {
        state: 'FAILED',
        reason: `its agent came back on ${machine.agentVersion ?? 'an unknown version'} each of the ${machine.sends} times the upgrade was sent; this roll does not send it again`,
      };
    }
    return { state: 'WAIT', resend: true };
  }
  // Same connection, no answer within the gateway's time-out (the agent may be slow to download): told again over it.
  return { state: 'WAIT', resend: machine.sinceSentSeconds >= RESEND_AFTER_SECONDS };
}

/** Starts the next batch; answers false when none is left. */
async function startBatch(tx: CommonQueryMethods, upgrade: Roll): Promise<boolean> {
  const batch = await tx.any(sql.type(
    z.object({ machineId: z.string(), status: z.string().nullable(), agentVersion: z.string().nullable(), generation: z.number().nullable() }),
  )`
    SELECT u.machine_id AS "machineId", m.status, m.agent_version AS "agentVersion", m.connection_generation AS generation
      FROM agent_upgrade_machines u LEFT JOIN machines m ON m.id = u.machine_id
     WHERE u.upgrade_id = ${upgrade.id} AND u.state = 'PENDING'
     ORDER BY u.position LIMIT ${upgrade.batchSize}`);
  for (const machine of batch) {
    const finish = (state: string, reason: string | null) =>
      tx.query(sql.unsafe`
        UPDATE agent_upgrade_machines SET state = ${state}, reason = ${reason}, from_version = ${machine.agentVersion},
               to_version = ${state === 'SUCCEEDED' ? machine.agentVersion : null}, started_at = now(), finished_at = now()
         WHERE upgrade_id = ${upgrade.id} AND machine_id = ${machine.machineId}`);
    if (machine.status === null) await finish('SKIPPED', 'the machine was removed');
    else if (machine.agentVersion !== null && compareVersions(machine.agentVersion, upgrade.version) >= 0)
      await finish('SUCCEEDED', `already runs agent ${machine.agentVersion}`);
    else if (machine.status !== 'ONLINE') await finish('FAILED', 'its agent is not connected (OFFLINE): it cannot be upgraded now');
    else {
      await tx.query(sql.unsafe`
        UPDATE agent_upgrade_machines
           SET state = 'UPGRADING', from_version = ${machine.agentVersion}, started_at = now(), generation = ${machine.generation}
         WHERE upgrade_id = ${upgrade.id} AND machine_id = ${machine.machineId}`);
      // What must run again, adopted (recorded again when the agent accepts).
      await recordServersBefore(tx, upgrade.id, machine.machineId);
      await sendCommand(tx, upgrade, machine.machineId, machine.generation);
    }
  }
  return batch.length > 0;
}

/** One step of a roll (see the top of the file); answers whether another step could be taken at once. */
async function step(tx: DatabaseTransactionConnection, upgradeId: string): Promise<boolean> {
  const upgrade = await tx.maybeOne(sql.type(roll)`
    SELECT id, version, package_sha256 AS sha256, package_url AS url, batch_size AS "batchSize", timeout_seconds AS "timeoutSeconds"
      FROM agent_upgrades WHERE id = ${upgradeId} AND state = 'RUNNING' FOR UPDATE SKIP LOCKED`);
  if (!upgrade) return false;
  const machines = await tx.any(sql.type(upgrading)`
    SELECT u.machine_id AS "machineId", u.generation, u.servers, u.sends, u.accepted_at IS NOT NULL AS accepted,
           extract(epoch FROM now() - u.started_at)::float8 AS "elapsedSeconds",
           extract(epoch FROM now() - coalesce(u.sent_at, u.started_at))::float8 AS "sinceSentSeconds",
           m.status, m.agent_version AS "agentVersion", m.connection_generation AS "currentGeneration"
      FROM agent_upgrade_machines u LEFT JOIN machines m ON m.id = u.machine_id
     WHERE u.upgrade_id = ${upgrade.id} AND u.state = 'UPGRADING'`);
  let waiting = false;
  for (const machine of machines) {
    const verdict = await judge(tx, upgrade, machine);
    if (verdict.state === 'WAIT') {
      waiting = true;
      if (verdict.resend) await sendCommand(tx, upgrade, machine.machineId, machine.currentGeneration);
      continue;
    }
    await tx.query(sql.unsafe`
      UPDATE agent_upgrade_machines SET state = ${verdict.state}, reason = ${verdict.reason}, to_version = ${machine.agentVersion}, finished_at = now()
       WHERE upgrade_id = ${upgrade.id} AND machine_id = ${machine.machineId}`);
  }
  const failed = await tx.maybeOne(sql.type(z.object({ name: z.string(), reason: z.string().nullable() }))`
    SELECT machine_name AS name, reason FROM agent_upgrade_machines
     WHERE upgrade_id = ${upgrade.id} AND state = 'FAILED' ORDER BY finished_at, position LIMIT 1`);
  if (failed) {
    // The others of a failed batch are judged as they come back; the roll stops when none is left upgrading.
    if (waiting) return false;
    await tx.query(sql.unsafe`
      UPDATE agent_upgrade_machines SET state = 'SKIPPED', reason = ${`not upgraded: the roll stopped at ${failed.name}`}
       WHERE upgrade_id = ${upgrade.id} AND state = 'PENDING'`);
    await finishRoll(tx, upgrade.id, 'FAILED', `machine ${failed.name}: ${failed.reason ?? 'failed'}`);
    return false;
  }
  if (waiting) return false;
  if (await startBatch(tx, upgrade)) return true;
  await finishRoll(tx, upgrade.id, 'SUCCEEDED', null);
  return false;
}

const finishRoll = (tx: CommonQueryMethods, upgradeId: string, state: 'SUCCEEDED' | 'FAILED', reason: string | null) =>
  tx.query(sql.unsafe`
    UPDATE agent_upgrades SET state = ${state}, reason = ${reason}, finished_at = now(), updated_at = now() WHERE id = ${upgradeId}`);

/** Advances every running roll by a step (several while steps are immediate); answers false (the beat sets the pace). */
export async function advanceAgentUpgrades(pool: DatabasePool, logger?: Logger): Promise<boolean> {
  const ids = await pool.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM agent_upgrades WHERE state = 'RUNNING' ORDER BY created_at`);
  for (const upgradeId of ids) {
    try {
      // A batch of machines already done (removed, already upgraded) is followed by the next at once.
      while (await pool.transaction((tx) => step(tx, upgradeId)));
    } catch (error) {
      // One roll's trouble does not hold up the other clusters' rolls; it is tried again at the next beat.
      logger?.error({ err: error, upgradeId }, 'could not advance an agent upgrade roll');
    }
  }
  return false;
}

export const startAgentUpgradeRoller = (options: { pool: DatabasePool; logger: Logger }): Repeating =>
  repeatEvery({ everyMs: EVERY_MS, logger: options.logger, what: 'agent upgrade roll', round: () => advanceAgentUpgrades(options.pool, options.logger) });
