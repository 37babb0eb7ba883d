/**
 * Accept, for a job on one game server: the accept path shared by the power and RCON routes and by scheduled task runs:
 * lock the server (its jobs are accepted in order), set its desired status where the job changes it, write the job
 * with its delivery and, when asked, the audit entry — in ONE statement, so it is atomic by itself (the power routes
 * run it without a transaction: one round trip instead of six) and also fits in a caller's transaction.
 */
import { sql, type CommonQueryMethods, type ValueExpression } from 'slonik';
import { z } from 'zod';
import { conflict, notFound, type AppError } from '../../schema/errors.ts';
import { job, type Job, type JobType } from '../../schema/jobs.ts';
import { transferConflict } from '../../schema/transfers.ts';
import { uuidV7 } from '../../sql/uuidV7.ts';
import { taskOrigin, type Origin } from '../../schema/origin.ts';
import { createJobs, JOB_COLUMNS, NEW_JOB_COLUMNS, newJobValues, type JobCreator } from './store.ts';
import { ANNOUNCE_NEW_JOB } from './delivery.ts';

export type DesiredStatus = 'RUNNING' | 'STOPPED';

/**
 * Statuses in which a server's process runs: INSTALL and RESTORE are refused (409). INSTALLING is not one: a new server
 * is INSTALLING until its agent first reports it, and an install under way only makes the next job wait its turn.
 */
export const BUSY_STATUSES = ['ONLINE', 'UNRESPONSIVE', 'STARTING', 'STOPPING', 'RESTARTING'] as const;

/** The desired status each power job asks for (RCON, BROADCAST, WIPE and the rest change nothing). */
export const DESIRED_BY_TYPE: Partial<Record<JobType, DesiredStatus>> = { START: 'RUNNING', STOP: 'STOPPED', RESTART: 'RUNNING', KILL: 'STOPPED' };

export type ServerJobRequest = {
  /** The job's id when the caller needs it first (to wait for its end); default a new one. */
  id?: string;
  serverId: string;
  type: JobType;
  params: Record<string, unknown>;
  desired: DesiredStatus | null;
  /** RCON needs a running server: anything but ONLINE is a 409. */
  requireRunning: boolean;
  /** INSTALL and RESTORE need a stopped server: a running, starting or stopping one is a 409. */
  requireStopped?: boolean;
  taskId?: string | null;
  createdBy?: JobCreator;
  /** The cluster the caller was authorized in: a server of another cluster is then not found. */
  clusterId?: string;
  /** Whether an agent runs it (default true); false: the orchestrator runs it itself (a FILE_PULL). */
  dispatch?: boolean;
  /** Writes the audit entry (the origin's actor, address and request id; target the server) in the same statement. */
  audit?: { action: string };
};

const accepted = z.discriminatedUnion('accepted', [
  job.extend({ accepted: z.literal(true), serverStatus: z.string() }),
  z.object({
    accepted: z.literal(false),
    serverStatus: z.string(),
    notInstalled: z.string().nullable(),
    uninstallable: z.boolean(),
    noConsole: z.boolean(),
    transferJobId: z.string().nullable(),
  }),
]);

/** Job types that launch the game: refused (409) while its install failed or never ran (docs/installs-and-backups.md). */
const LAUNCHES: ReadonlySet<JobType> = new Set(['START', 'RESTART']);

export async function acceptServerJob(connection: CommonQueryMethods, origin: Origin, request: ServerJobRequest): Promise<Job> {
  const { serverId, desired } = request;
  const { actor } = origin;
  // A prepared statement: one text whatever the request (every difference is a value), planned once per connection.
  const launches = LAUNCHES.has(request.type);
  const installs = request.type === 'INSTALL' || request.type === 'UPDATE';
  const row = await connection.maybeOne(sql.prepared('gsm_accept_server_job', accepted)`
    WITH blocked AS (
      SELECT ${launchBlocked(sql.fragment`${launches}::boolean`)} AS reason,
             -- A CUSTOM server installs by its installCommand: without one an INSTALL could only fail (and block Start).
             -- (One with a template installs by its template's steps.)
             ${installs}::boolean AND s.game_type = 'CUSTOM' AND s.install_command IS NULL AND s.template_id IS NULL AS uninstallable
        FROM servers s
        ${lastInstall(sql.fragment`${launches}::boolean`)}
       WHERE s.id = ${serverId} AND (${launches}::boolean OR ${installs}::boolean)
    ), server AS (
      UPDATE servers SET desired_status = coalesce(${desired}, desired_status), updated_at = CASE WHEN ${desired}::text IS NULL THEN updated_at ELSE now() END
       WHERE id = ${serverId} AND (${request.clusterId ?? null}::uuid IS NULL OR cluster_id = ${request.clusterId ?? null}::uuid)
         AND NOT EXISTS (SELECT 1 FROM blocked WHERE reason IS NOT NULL OR uninstallable)
         -- A server being transferred takes no job (docs/transfers.md): 409 naming the transfer. A transfer accepted
         -- meanwhile locked and updated this row: this UPDATE waited for it, and re-checks on the row as it left it;
         -- the function reads with a snapshot of its own, so it sees that transfer (a subquery here would not).
         AND gsm_transfer_under_way(servers.id) IS NULL
      RETURNING id, cluster_id, machine_id, status, console_mode
    ), current AS (
      -- The server as it is when nothing was changed (a refused launch), for the answer.
      SELECT id, cluster_id, machine_id, status, console_mode FROM server
      UNION ALL
      SELECT id, cluster_id, machine_id, status, console_mode FROM servers
       WHERE id = ${serverId} AND (${request.clusterId ?? null}::uuid IS NULL OR cluster_id = ${request.clusterId ?? null}::uuid)
         AND NOT EXISTS (SELECT 1 FROM server)
    ), j AS (
      INSERT INTO jobs ${NEW_JOB_COLUMNS}
      SELECT ${newJobValues(origin, {
        id: request.id,
        clusterId: sql.fragment`server.cluster_id`,
        serverId: sql.fragment`server.id`,
        machineId: sql.fragment`server.machine_id`,
        type: request.type,
        params: request.params,
        taskId: request.taskId ?? null,
        createdBy: request.createdBy,
        dispatch: request.dispatch,
      })}
        FROM server WHERE (NOT ${request.requireRunning}::boolean OR (server.status IN ('ONLINE', 'UNRESPONSIVE') AND server.console_mode IS DISTINCT FROM 'NONE'))
                      AND (NOT ${request.requireStopped ?? false}::boolean OR server.status NOT IN (${sql.join(
                        BUSY_STATUSES.map((status) => sql.fragment`${status}`),
                        sql.fragment`, `,
                      )}))
      RETURNING *
    ), audit AS (
      INSERT INTO audit_log (id, cluster_id, actor_kind, actor_id, actor_name, action, target_type, target_id, ip, request_id)
      SELECT ${uuidV7()}::uuid, j.cluster_id, ${actor.kind}, ${actor.id}, ${actor.name}, ${request.audit?.action ?? null}, 'server', j.server_id,
             ${origin.ip}, ${origin.requestId}
        FROM j WHERE ${request.audit !== undefined}::boolean
    )
    SELECT j.id IS NOT NULL AS accepted, current.status AS "serverStatus", ${JOB_COLUMNS}, ${ANNOUNCE_NEW_JOB},
           (SELECT reason FROM blocked) AS "notInstalled", coalesce((SELECT uninstallable FROM blocked), false) AS "uninstallable", current.console_mode IS NOT DISTINCT FROM 'NONE' AS "noConsole",
           gsm_transfer_under_way(current.id) AS "transferJobId"
      FROM current LEFT JOIN j ON true`);
  if (!row) throw notFound('Server not found');
  if (!row.accepted) throw refusal(request, row);
  const { accepted: _accepted, serverStatus: _serverStatus, ...created } = row;
  return created;
}

/** Why the game of server `s` cannot be launched (null: it can, or `launches` is false); needs `lastInstall`. */
const launchBlocked = (launches: ValueExpression) => sql.fragment`
  CASE
    -- No install ever succeeded, and the one asked for failed or never ran. A running server is not blocked (START
    -- answers "already online"); a failed UPDATE leaves the previous installation working.
    WHEN NOT ${launches} OR s.installed_at IS NOT NULL OR s.status IN ('ONLINE', 'UNRESPONSIVE', 'STARTING', 'STOPPING', 'RESTARTING') THEN NULL
    -- (INSTALL_FAILED is reported a moment before its job's outcome is stored.)
    WHEN last_install.status = 'FAILED' OR s.status = 'INSTALL_FAILED'
      THEN 'its last ' || lower(coalesce(last_install.type, 'INSTALL')) || ' failed: '
           || coalesce(last_install.error->>'message', s.status_reason, 'no reason given')
    -- Asked for and never done. A server created with autoInstall false has no install job: its files are the operator's.
    WHEN last_install.status IN ('CANCELLED', 'EXPIRED')
      THEN 'it was never installed (its ' || lower(last_install.type) || ' was ' || lower(last_install.status) || ')'
  END`;

/** The last INSTALL or UPDATE of server `s`, read only when it is needed (`launches`, and never installed). */
const lastInstall = (launches: ValueExpression) => sql.fragment`
  LEFT JOIN LATERAL (
    SELECT type, status, error FROM jobs
     WHERE server_id = s.id AND type IN ('INSTALL', 'UPDATE') AND ${launches} AND s.installed_at IS NULL
     ORDER BY created_at DESC, id DESC LIMIT 1
  ) last_install ON true`;

type Refused = { serverStatus: string; notInstalled: string | null; uninstallable: boolean; noConsole: boolean; transferJobId: string | null };

/** The error an accept refused for `row`'s reason answers (a 409). */
function refusal(request: Pick<ServerJobRequest, 'serverId' | 'type' | 'requireRunning' | 'requireStopped'>, row: Refused): AppError {
  const { serverId } = request;
  if (row.transferJobId) return transferConflict(row.transferJobId);
  if (row.uninstallable)
    return conflict(`The server has no installCommand: a CUSTOM server is installed by its installCommand (set one with PATCH /api/v1/servers/${serverId})`);
  if (row.notInstalled) return conflict(`The server cannot be started: ${row.notInstalled}. Install it first (POST /api/v1/servers/${serverId}/install)`);
  if (request.requireRunning && row.noConsole) return conflict('The server has no console (consoleMode NONE): it takes no console commands');
  return conflict(
    request.requireStopped
      ? `The server is ${row.serverStatus}: stop it first (${request.type} needs a stopped server)`
      : `The server is ${row.serverStatus}, not running: RCON needs a running server`,
  );
}

/** A job of a task's step on one server (tasks/runner.ts): accepted as `acceptServerJob` accepts it for a task. */
export type StepJobRequest = { serverId: string; type: Exclude<JobType, 'INSTALL' | 'UPDATE'>; params: Record<string, unknown>; taskId: string };

/** Jobs written per statement (a row's values are a dozen parameters; Postgres takes at most 65,535). */
const STEP_JOBS_PER_INSERT = 1_000;

const stepServerRow = z.object({
  id: z.string(),
  clusterId: z.string(),
  machineId: z.string().nullable(),
  status: z.string(),
  notInstalled: z.string().nullable(),
  transferJobId: z.string().nullable(),
});

/**
 * The jobs of a task step's children, a whole batch of runs' (a minute's storm of them) in a few statements instead of
 * one accept each: each answered as `acceptServerJob(tx, taskOrigin(taskId), { serverId, type, params, desired:
 * DESIRED_BY_TYPE[type], requireRunning: false, taskId })` in the order given would answer it, its job or the error it
 * would throw (a deleted server's 404, a launch refused by its install's state or a transfer: 409), without throwing.
 * In the caller's transaction: the servers are locked in id order, then read as they are once locked (a transfer
 * accepted meanwhile is seen: gsm_transfer_under_way reads with its own snapshot), their desired status set, and the
 * jobs written with their deliveries.
 */
export async function acceptStepJobs(tx: CommonQueryMethods, requests: readonly StepJobRequest[]): Promise<(Job | AppError)[]> {
  if (requests.length === 0) return [];
  const serverIds = [...new Set(requests.map((request) => request.serverId))].sort();
  const launching = [...new Set(requests.filter((request) => LAUNCHES.has(request.type)).map((request) => request.serverId))];
  await tx.query(sql.unsafe`SELECT id FROM servers WHERE id = ANY(${sql.array(serverIds, 'uuid')}) ORDER BY id FOR NO KEY UPDATE`);
  const servers = new Map(
    (
      await tx.any(sql.type(stepServerRow)`
        SELECT s.id, s.cluster_id AS "clusterId", s.machine_id AS "machineId", s.status,
               ${launchBlocked(sql.fragment`s.id = ANY(${sql.array(launching, 'uuid')})`)} AS "notInstalled", gsm_transfer_under_way(s.id) AS "transferJobId"
          FROM servers s ${lastInstall(sql.fragment`s.id = ANY(${sql.array(launching, 'uuid')})`)}
         WHERE s.id = ANY(${sql.array(serverIds, 'uuid')})`)
    ).map((row) => [row.id, row]),
  );
  const answers: (Job | AppError | null)[] = requests.map((request) => {
    const server = servers.get(request.serverId);
    if (!server) return notFound('Server not found');
    // A launch is refused by its install's state, any job by a transfer (which `refusal` names first).
    const notInstalled = LAUNCHES.has(request.type) ? server.notInstalled : null;
    if (!server.transferJobId && !notInstalled) return null;
    return refusal({ ...request, requireRunning: false }, { ...server, notInstalled, serverStatus: server.status, uninstallable: false, noConsole: false });
  });
  const accepted = requests.flatMap((request, index) => (answers[index] === null ? [{ index, request, server: servers.get(request.serverId)! }] : []));
  // Each server's desired status as the accepts in order would leave it: the last one that sets it.
  const desired = new Map<string, DesiredStatus>();
  for (const { request } of accepted) {
    const status = DESIRED_BY_TYPE[request.type];
    if (status) desired.set(request.serverId, status);
  }
  if (desired.size > 0) {
    await tx.query(sql.unsafe`
      UPDATE servers s SET desired_status = d.desired, updated_at = now()
        FROM unnest(${sql.array([...desired.keys()], 'uuid')}, ${sql.array([...desired.values()], 'text')}) AS d (id, desired) WHERE s.id = d.id`);
  }
  for (let start = 0; start < accepted.length; start += STEP_JOBS_PER_INSERT) {
    const slice = accepted.slice(start, start + STEP_JOBS_PER_INSERT);
    const jobs = await createJobs(
      tx,
      slice.map(({ request, server }) => ({
        origin: taskOrigin(request.taskId),
        input: {
          clusterId: server.clusterId,
          serverId: server.id,
          machineId: server.machineId,
          type: request.type,
          params: request.params,
          taskId: request.taskId,
        },
      })),
    );
    slice.forEach(({ index }, position) => (answers[index] = jobs[position]!));
  }
  return answers as (Job | AppError)[];
}
