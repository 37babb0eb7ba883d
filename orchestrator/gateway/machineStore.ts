/**
 * What the gateway reads and writes about machines and their servers. Agent reports land here; statuses older than
 * the one stored are ignored, so a late or replayed report cannot move a server backwards. What an agent's acks and
 * job reports do to a job is orchestrator/jobs/'s (reports.ts, delivery.ts): the store hands them on.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { hashSecret, secretMatches } from '../../schema/secretTokens.ts';
import { type JobWireEvent, type ServerConfig } from '../../schema/agentEvents.ts';

/** An agent process's console frames up to `n` reached the service (docs/agent-protocol.md, "Console output across reconnects"). */
export type ConsoleMark = { run: string; n: number };
import { storableText } from '../../schema/storable.ts';
import type { heartbeatEvent, serverQueryEvent, serverStatusEvent } from '../../schema/agentEvents.ts';
import { createJobReports } from '../jobs/reports.ts';
import { jobForAgent, pendingJobIds, type AgentJobRow, type UndeliverableJob } from '../jobs/delivery.ts';
import { serverSpec, templatedServerRow } from '../templates/spec.ts';
import { latestTemplateVersion } from '../templates/versions.ts';

const machineRow = z.object({ id: z.string(), clusterId: z.string(), tokenHash: z.instanceof(Buffer) });

export type MachineStore = ReturnType<typeof createMachineStore>;

/**
 * The server's `query` once its game no longer runs (or nobody knows): the last answer is kept for its map, version and
 * max players, but it no longer answers and has nobody online, as of `at` (docs/servers.md#query-and-liveness).
 * Unchanged while the status is ONLINE or UNRESPONSIVE (the agent's queries go on) or nothing was ever queried.
 */
const queryAfterStatus = (status: string, at: ReturnType<typeof sql.fragment>, why: string) => sql.fragment`
  CASE WHEN ${status} IN ('ONLINE', 'UNRESPONSIVE') OR query IS NULL OR jsonb_typeof(query) <> 'object' THEN query
       ELSE query || jsonb_build_object(
              'answering', false, 'players', 0,
              'playerNames', CASE WHEN jsonb_typeof(query->'playerNames') = 'array' THEN '[]'::jsonb ELSE 'null'::jsonb END,
              'latencyMs', null, 'failures', 0, 'error', ${why}::text,
              'checkedAt', to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  END`;

/** Nobody knows what the servers of these machines are doing: their agent is not connected. */
const markServersUnknown = (tx: CommonQueryMethods, machineIds: readonly string[]) =>
  tx.query(sql.unsafe`
    UPDATE servers SET status = 'UNKNOWN', status_reason = 'the machine''s agent is not connected', stats = NULL, players_online = 0, last_status_at = now(), updated_at = now(),
           query = ${queryAfterStatus('UNKNOWN', sql.fragment`now()`, "the machine's agent is not connected")}
     WHERE machine_id = ANY(${sql.array([...machineIds], 'uuid')})`);

export type MachineStoreOptions = {
  /** How long a disconnected agent has to come back before its servers become UNKNOWN (0: at once). */
  reconnectGraceSeconds: number;
};

export function createMachineStore(pool: DatabasePool, options: MachineStoreOptions = { reconnectGraceSeconds: 0 }) {
  /** Machines whose reconnect grace is over while still OFFLINE: their servers are UNKNOWN now. Answers how many. */
  const sweepUnknown = (): Promise<number> =>
    pool.transaction(async (tx) => {
      const ids = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`
        UPDATE machines SET servers_unknown_at = NULL
         WHERE servers_unknown_at IS NOT NULL AND servers_unknown_at <= now() AND status = 'OFFLINE'
        RETURNING id`);
      if (ids.length > 0) await markServersUnknown(tx, ids);
      return ids.length;
    });

  const announced = new Map<string, { machineId: string; job: JobWireEvent }>();
  const reports = createJobReports(pool);
  return {
    /**
     * The machine an agent token belongs to, or null. A token pending from an install-code exchange becomes the
     * machine's token here, on its first use, and the old one stops working (docs/agent.md#installing-it); the first
     * connection with a token an install code yields marks that code used (its sealed copy is no longer needed).
     */
    async byToken(token: string): Promise<{ id: string; clusterId: string } | null> {
      const hash = sql.binary(hashSecret(token));
      const row = await pool.transaction(async (tx) => {
        const found = await tx.maybeOne(sql.type(machineRow)`
          UPDATE machines SET agent_token_hash = pending_token_hash, pending_token_hash = NULL, updated_at = now()
           WHERE pending_token_hash = ${hash}
          RETURNING id, cluster_id AS "clusterId", agent_token_hash AS "tokenHash"`);
        const machine =
          found ??
          (await tx.maybeOne(sql.type(machineRow)`
            SELECT id, cluster_id AS "clusterId", agent_token_hash AS "tokenHash" FROM machines WHERE agent_token_hash = ${hash}`));
        if (machine)
          await tx.query(sql.unsafe`
            UPDATE agent_install_codes SET used_at = now(), used_from = 'agent connection', sealed_token = NULL
             WHERE token_hash = ${hash} AND machine_id = ${machine.id} AND used_at IS NULL AND replaced_at IS NULL`);
        return machine;
      });
      return row && secretMatches(token, row.tokenHash) ? { id: row.id, clusterId: row.clusterId } : null;
    },

    /** Marks the machine ONLINE for a new connection; answers that connection's generation. */
    /** Answers the new connection's generation, and the console mark the last connection left (recordConsoleMark). */
    async markOnline(machineId: string, agentVersion: string): Promise<{ generation: number; consoleMark: ConsoleMark | null }> {
      const row = await pool.one(sql.type(z.object({ generation: z.number(), consoleRun: z.string().nullable(), consoleSeen: z.coerce.number().nullable() }))`
        UPDATE machines SET status = 'ONLINE', agent_version = ${agentVersion}, last_seen_at = now(), updated_at = now(),
               connection_generation = connection_generation + 1, servers_unknown_at = NULL
         WHERE id = ${machineId}
        RETURNING connection_generation AS generation, console_run AS "consoleRun", console_seen AS "consoleSeen"`);
      return {
        generation: row.generation,
        consoleMark: row.consoleRun !== null && row.consoleSeen !== null ? { run: row.consoleRun, n: row.consoleSeen } : null,
      };
    },

    /**
     * What of the agent's console output the ending connection delivered (its process's run and last frame number), for
     * the next connection to tell the agent, on whichever orchestrator process it lands. A mark older than the one
     * stored (the same run, a lower number) is not written: a stale mark only makes the agent send some lines again.
     */
    async recordConsoleMark(machineId: string, mark: ConsoleMark): Promise<void> {
      await pool.query(sql.unsafe`
        UPDATE machines SET console_run = ${mark.run}, console_seen = ${mark.n}
         WHERE id = ${machineId} AND NOT (console_run IS NOT DISTINCT FROM ${mark.run} AND console_seen >= ${mark.n})`);
    },

    /**
     * The agent's connection `generation` is gone: the machine is OFFLINE and nobody knows what its servers are
     * doing — unless a newer connection (on any orchestrator process) has replaced it meanwhile. With a reconnect
     * grace, the servers become UNKNOWN only if the agent is not back within it (`sweepUnknown`): an agent restart
     * leaves its game servers running, and their status does not flap.
     */
    async markOffline(machineId: string, generation: number): Promise<void> {
      await pool.transaction(async (tx) => {
        const result = await tx.query(sql.unsafe`
          UPDATE machines SET status = 'OFFLINE', updated_at = now(),
                 servers_unknown_at = CASE WHEN ${options.reconnectGraceSeconds}::int > 0 THEN now() + make_interval(secs => ${options.reconnectGraceSeconds}) END
           WHERE id = ${machineId} AND connection_generation = ${generation}`);
        if (result.rowCount === 0 || options.reconnectGraceSeconds > 0) return;
        await markServersUnknown(tx, [machineId]);
      });
      // On time when this process lives that long; every gateway's sweep catches it otherwise.
      if (options.reconnectGraceSeconds > 0) setTimeout(() => void sweepUnknown().catch(() => undefined), options.reconnectGraceSeconds * 1000 + 100).unref();
    },

    sweepUnknown,

    /**
     * Machines still ONLINE whose last sign of life is older than `silenceSeconds` (their orchestrator died without
     * marking them, or it is being replaced and the agent is on its way to another): OFFLINE, and their servers UNKNOWN
     * once the reconnect grace has passed since that last sign of life, as for an agent that disconnected
     * (`sweepUnknown`; at once without a grace). Answers how many machines.
     */
    async sweepSilent(silenceSeconds: number): Promise<number> {
      return pool.transaction(async (tx) => {
        const swept = await tx.any(sql.type(z.object({ id: z.string(), waits: z.boolean() }))`
          UPDATE machines SET status = 'OFFLINE', updated_at = now(),
                 servers_unknown_at = CASE WHEN ${options.reconnectGraceSeconds}::int > 0
                                           THEN coalesce(last_seen_at, now()) + make_interval(secs => ${options.reconnectGraceSeconds}) END
           WHERE status = 'ONLINE' AND (last_seen_at IS NULL OR last_seen_at < now() - make_interval(secs => ${silenceSeconds}))
          RETURNING id, coalesce(servers_unknown_at > now(), false) AS waits`);
        const now = swept.filter((machine) => !machine.waits).map((machine) => machine.id);
        if (now.length > 0) {
          await markServersUnknown(tx, now);
          await tx.query(sql.unsafe`UPDATE machines SET servers_unknown_at = NULL WHERE id = ANY(${sql.array(now, 'uuid')})`);
        }
        return swept.length;
      });
    },

    /** The agent is alive (a frame arrived), whatever its reports still waiting to be handled say. */
    async touch(machineId: string): Promise<void> {
      await pool.query(sql.unsafe`UPDATE machines SET last_seen_at = now() WHERE id = ${machineId}`);
    },

    /**
     * Stores a heartbeat; answers true when it brings the machine back ONLINE (a sweep marked it OFFLINE and its
     * servers UNKNOWN meanwhile, e.g. while the database was away): the agent must then report its servers again.
     */
    async recordHeartbeat(machineId: string, beat: z.infer<typeof heartbeatEvent>): Promise<boolean> {
      const metrics = { ...beat.metrics, at: new Date().toISOString() };
      const host = beat.host;
      const revived = await pool.maybeOneFirst(sql.type(z.object({ revived: z.boolean() }))`
        UPDATE machines m SET status = 'ONLINE', last_seen_at = now(), metrics = ${sql.jsonb(metrics)}, servers_unknown_at = NULL,
               hostname = ${host?.hostname ?? sql.fragment`m.hostname`}, os = ${host?.os ?? sql.fragment`m.os`},
               cpu_count = ${host?.cpuCount ?? sql.fragment`m.cpu_count`}, memory_bytes = ${host?.memoryBytes ?? sql.fragment`m.memory_bytes`},
               reported_addresses = ${host?.addresses ? sql.array(host.addresses, 'text') : sql.fragment`m.reported_addresses`},
               tools = ${host?.tools ? sql.array([...host.tools].sort(), 'text') : sql.fragment`m.tools`}
          -- the row as it was (locked first, so a concurrent sweep is either before or after this)
          FROM (SELECT id, status FROM machines WHERE id = ${machineId} FOR UPDATE) before
         WHERE m.id = before.id
        RETURNING before.status <> 'ONLINE' AS revived`);
      return revived === true;
    },

    /** Stores a reported status; false when the server is not on this machine. */
    async recordServerStatus(machineId: string, report: z.infer<typeof serverStatusEvent>, generation: number): Promise<boolean> {
      const onMachine = await pool.exists(sql.unsafe`SELECT 1 FROM servers WHERE id = ${report.serverId} AND machine_id = ${machineId}`);
      if (!onMachine) return false;
      // Why it is in this status: the agent's words, or for an exit without them its code. A status that needs no
      // explanation clears the reason; the last exit code stays until the process ends again.
      const reason =
        report.message !== undefined
          ? storableText(report.message)
          : report.exitCode !== undefined && report.exitCode !== null
            ? `exited with code ${report.exitCode}`
            : null;
      await pool.query(sql.unsafe`
        UPDATE servers s SET status = ${report.status}, last_status_at = least(${report.at}::timestamptz, now()), updated_at = now(),
               players_online = CASE WHEN ${report.status} = 'ONLINE' THEN players_online ELSE 0 END,
               status_reason = ${reason},
               query = ${queryAfterStatus(report.status, sql.fragment`least(${report.at}::timestamptz, now())`, `not running (${report.status})`)},
               os_user = coalesce(${report.osUser ?? null}::text, os_user),
               -- the version its running process was started with, as its agent says (docs/templates.md#versions):
               -- only of the template the server has, and no later than that template's latest
               template_version = CASE WHEN template_id IS NOT NULL AND template_id = ${report.templateId ?? null}::text
                                            AND ${report.templateVersion ?? null}::int <= ${latestTemplateVersion()}
                                       THEN ${report.templateVersion ?? null}::int ELSE template_version END,
               -- the process the report names (none from agents before it, or while none runs), and which connection
               -- reported it: a fleet upgrade tells a server the new agent adopted from a status left from the old one
               process_pid = ${report.process?.pid ?? null}::int, process_started_at = ${report.process?.startedAt ?? null}::timestamptz,
               process_adopted = ${report.process?.adopted ?? null}::boolean, status_generation = ${generation},
               last_exit_code = CASE WHEN ${report.exitCode !== undefined} THEN ${report.exitCode ?? null}::int ELSE last_exit_code END
         WHERE id = ${report.serverId} AND machine_id = ${machineId}
           -- an agent's clock ahead of ours must not freeze the status: its reports count as no later than now
           AND (last_status_at IS NULL OR status = 'UNKNOWN' OR last_status_at <= least(${report.at}::timestamptz, now()))`);
      return true;
    },

    /** Stores what a query found (the server record's `query`); false when the server is not on this machine. */
    async recordServerQuery(machineId: string, report: z.infer<typeof serverQueryEvent>): Promise<boolean> {
      const { serverId, at, ...found } = report;
      const query = { ...found, checkedAt: new Date(Math.min(Date.parse(at), Date.now())).toISOString() };
      const updated = await pool.query(sql.unsafe`
        UPDATE servers SET query = ${sql.jsonb(query)} WHERE id = ${serverId} AND machine_id = ${machineId}
           AND query_protocol IS DISTINCT FROM 'NONE'
           -- a query that ends after its game stopped must not show a stopped server answering again
           AND status IN ('ONLINE', 'UNRESPONSIVE')`);
      return updated.rowCount > 0 || (await pool.exists(sql.unsafe`SELECT 1 FROM servers WHERE id = ${serverId} AND machine_id = ${machineId}`));
    },

    /**
     * A job announced with its content (as it was accepted) is sent from the announcement instead of being read back;
     * `announced` keeps it just for the `deliver` call that follows (gateway.ts), which takes it out again.
     */
    announce(machineId: string, job: JobWireEvent): void {
      announced.set(job.jobId, { machineId, job });
    },
    forget(jobId: string): void {
      announced.delete(jobId);
    },

    /**
     * A job as the agent receives it (`job`), if it is this machine's and not ended; a row that cannot make one is
     * ended UNDELIVERABLE (jobs/delivery.ts).
     */
    jobForAgent(machineId: string, jobId: string): Promise<AgentJobRow | UndeliverableJob | null> {
      const fresh = announced.get(jobId);
      if (fresh && fresh.machineId === machineId) {
        announced.delete(jobId);
        // Just accepted: not ended and no cancel yet (a cancel that races with the delivery is sent after it, see
        // AgentSession.deliver).
        return Promise.resolve({ job: fresh.job, cancelRequested: false });
      }
      return jobForAgent(pool, machineId, jobId);
    },

    /** The ids of the machine's jobs that have not ended, oldest first (sent when its agent connects). */
    pendingJobIds: (machineId: string): Promise<readonly string[]> => pendingJobIds(pool, machineId),

    /** The agent acknowledged a job (jobs/reports.ts): answers its status after it. */
    markDispatched: reports.markDispatched,
    /** A `job:progress` (jobs/reports.ts). */
    markRunning: reports.markRunning,
    /** A `job:result` (jobs/reports.ts). */
    storeResult: reports.storeResult,

    /** Every server of the machine as the agent needs it (`servers:sync`). */
    async serverConfigs(machineId: string): Promise<readonly ServerConfig[]> {
      const rows = await pool.any(sql.type(templatedServerRow)`
        SELECT id, name, game_type AS "gameType", game_port AS "gamePort", query_port AS "queryPort", rcon_port AS "rconPort",
               rcon_password AS "rconPassword", max_players AS "maxPlayers", desired_status AS "desiredStatus",
               auto_restart AS "autoRestart", start_command AS "startCommand", env,
               memory_limit_mb AS "memoryLimitMb", cpu_limit_percent AS "cpuLimitPercent",
               version, accept_eula AS "acceptEula", install_command AS "installCommand",
               ready, console_mode AS "consoleMode", stop,
               coalesce((SELECT json_agg(json_build_object('name', p.name, 'port', p.port, 'protocol', p.protocol) ORDER BY p.port)
                           FROM server_ports p WHERE p.server_id = s.id), '[]') AS ports,
               query_protocol AS "queryProtocol", unresponsive_after AS "unresponsiveAfter",
               restart_when_unresponsive AS "restartWhenUnresponsive",
               ARRAY(SELECT b.id::text FROM backups b WHERE b.server_id = s.id ORDER BY b.created_at) AS backups,
               s.template_id AS "templateId", s.variables, s.secret_variables AS "secretVariables",
               (SELECT jsonb_build_object('id', t.id, 'version', t.version, 'document', t.document) FROM cluster_templates t
                 WHERE t.id = (CASE WHEN s.template_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN s.template_id::uuid END) AND t.cluster_id = s.cluster_id) AS "clusterTemplate",
               (SELECT c.file_deny_list FROM clusters c WHERE c.id = s.cluster_id) AS "clusterDenyList"
          FROM servers s WHERE machine_id = ${machineId} ORDER BY created_at, id`);
      // Each server's template resolved into its configuration (a template's change reaches the agent now, and runs
      // from the server's next start).
      return rows.map(serverSpec);
    },

    /** The machine's servers deleted in the last 90 days (`servers:sync`'s `deleted`: the agent removes their files). */
    deletedServerIds(machineId: string): Promise<readonly string[]> {
      return pool.anyFirst(sql.type(z.object({ id: z.string() }))`
        SELECT id::text FROM deleted_servers WHERE machine_id = ${machineId} AND deleted_at > now() - interval '90 days' ORDER BY deleted_at, id`);
    },
  };
}
