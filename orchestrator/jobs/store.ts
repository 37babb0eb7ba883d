/**
 * Jobs in Postgres: the row every state-changing call becomes, created in the caller's transaction together with its
 * delivery (the first check at the end of the ack window, and the announcement: delivery.ts), so an accepted request
 * is never lost, never half-done, and reaches a connected agent as soon as it commits; and read back as the Job
 * record, one or a page of a cluster's.
 *
 * orchestrator/jobs/ is the only code that changes a job's row (test/architecture/jobWrites.test.ts checks it); the
 * life of a job and the function of each step are in docs/architecture.md#the-life-of-a-job.
 */
import { sql, type CommonQueryMethods, type ValueExpression } from 'slonik';
import type { z } from 'zod';
import { job, type Job, type JobType, type jobListQuery } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { uuidV7 } from '../../sql/uuidV7.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { ANNOUNCE_NEW_JOB, firstCheckAt } from './delivery.ts';

export const JOB_COLUMNS = sql.fragment`
  j.id, j.cluster_id AS "clusterId", j.server_id AS "serverId", j.machine_id AS "machineId", j.player_id AS "playerId",
  j.task_id AS "taskId", j.type, j.status, j.params, j.result, j.error, j.progress, j.attempts,
  json_build_object('kind', j.created_by_kind, 'id', j.created_by_id) AS "createdBy",
  j.idempotency_key AS "idempotencyKey", j.created_at AS "createdAt", j.dispatched_at AS "dispatchedAt",
  j.started_at AS "startedAt", j.finished_at AS "finishedAt", j.expires_at AS "expiresAt"`;

/** How long a job may wait for its agent before it EXPIRES (power 10 min, RCON 30 s). */
export const JOB_TTL_MS: Partial<Record<JobType, number>> = {
  RCON: 30_000,
  // A game download or a world archive can take long: they may run (or wait for their agent) up to 6 hours.
  INSTALL: 6 * 3_600_000,
  UPDATE: 6 * 3_600_000,
  BACKUP: 6 * 3_600_000,
  RESTORE: 6 * 3_600_000,
  FILE_COMPRESS: 6 * 3_600_000,
  FILE_EXTRACT: 6 * 3_600_000,
  FILE_PULL: 3_600_000,
};
const DEFAULT_TTL_MS = 10 * 60_000;

/** The graphile-worker task that delivered a job to its agent before the sweep (jobs accepted before sql/migrations/000009). */
export const DISPATCH_TASK = 'jobs__dispatch';

/** A job as the API answers it. Prepared: polled by scripts and read back by every `?wait` (give it `pool.reads`). */
export const getJob = (connection: Pick<CommonQueryMethods, 'one'>, jobId: string): Promise<Job> =>
  connection.one(sql.prepared('gsm_job', job)`SELECT ${JOB_COLUMNS} FROM jobs j WHERE j.id = ${jobId}::uuid`);

export type NewJob = {
  /** The job's id when the caller needs it before the job exists (see uuidV7); default a new one. */
  id?: string;
  clusterId: string;
  serverId: string | null;
  machineId: string | null;
  type: JobType;
  params: Record<string, unknown>;
  playerId?: string | null;
  taskId?: string | null;
  /** Default the origin's (the request's `Idempotency-Key`). */
  idempotencyKey?: string | null;
  /** Who the job is attributed to when not the request's principal (a scheduled task's runs: `{ kind: 'TASK', id }`). */
  createdBy?: JobCreator;
  /**
   * Whether an agent runs it (default true): delivery is scheduled and announced. A TASK_RUN is run by the
   * orchestrator itself (tasks/runner.ts) and passes false.
   */
  dispatch?: boolean;
  /** How long it may take before it expires; default by type (JOB_TTL_MS). */
  ttlMs?: number;
};

export type JobCreator = { kind: 'USER' | 'TOKEN' | 'TASK' | 'SYSTEM'; id: string | null };

/** The job's author: the origin's actor (an anonymous caller's job is the service's). */
const creatorOf = ({ actor }: Origin): JobCreator => (actor.kind === 'ANONYMOUS' ? { kind: 'SYSTEM', id: null } : { kind: actor.kind, id: actor.id });

/** The columns a new job's row is written with, in the order of `newJobValues`. */
export const NEW_JOB_COLUMNS = sql.fragment`
  (id, cluster_id, server_id, machine_id, player_id, task_id, type, params, created_by_kind, created_by_id, idempotency_key, expires_at, next_check_at)`;

/**
 * A new job's values in NEW_JOB_COLUMNS order. `clusterId`, `serverId` and `machineId` may be SQL (columns of a CTE,
 * for an INSERT … SELECT inside a larger statement). A job that is dispatched gets its first delivery check at the
 * end of the ack window; one that is not (a TASK_RUN, run by the orchestrator itself) gets none.
 */
export function newJobValues(
  origin: Origin,
  input: Omit<NewJob, 'clusterId' | 'serverId' | 'machineId'> & { clusterId: ValueExpression; serverId: ValueExpression; machineId: ValueExpression },
) {
  const by = input.createdBy ?? creatorOf(origin);
  const ttlMs = input.ttlMs ?? JOB_TTL_MS[input.type] ?? DEFAULT_TTL_MS;
  return sql.fragment`
    ${input.id ?? uuidV7()}::uuid, ${input.clusterId}::uuid, ${input.serverId}::uuid, ${input.machineId}::uuid, ${input.playerId ?? null}::uuid, ${input.taskId ?? null}::uuid, ${input.type}::text,
    ${sql.jsonb(input.params as never)}, ${by.kind}::text, ${by.id}::uuid, ${input.idempotencyKey ?? origin.idempotencyKey ?? null}::text,
    now() + make_interval(secs => ${ttlMs / 1000}),
    ${firstCheckAt(input.dispatch !== false)}`;
}

/**
 * Accept (a job that is not one server's: a ban, a kick, a task run): writes the job and schedules its delivery, in one statement on `tx` (the caller's transaction, which also holds the
 * audit entry): the row (durable: the delivery sweep finds it even if no orchestrator heard the announcement) and
 * the announcement to the gateway, sent as the transaction commits.
 */
export async function createJob(tx: CommonQueryMethods, origin: Origin, input: NewJob): Promise<Job> {
  return tx.one(sql.type(job)`
    WITH j AS (INSERT INTO jobs ${NEW_JOB_COLUMNS} VALUES (${newJobValues(origin, input)}) RETURNING *)
    SELECT ${JOB_COLUMNS}, ${ANNOUNCE_NEW_JOB} FROM j`);
}

/**
 * `createJob` for several jobs in one statement (the runs of a minute's due tasks: tasks/store.ts), each with its own
 * origin; answers them in the order given.
 */
export async function createJobs(tx: CommonQueryMethods, inputs: readonly { origin: Origin; input: NewJob }[]): Promise<Job[]> {
  if (inputs.length === 0) return [];
  const withIds = inputs.map(({ origin, input }) => ({ origin, input: { ...input, id: input.id ?? uuidV7() } }));
  const rows = await tx.any(sql.type(job)`
    WITH j AS (
      INSERT INTO jobs ${NEW_JOB_COLUMNS}
      VALUES ${sql.join(
        withIds.map(({ origin, input }) => sql.fragment`(${newJobValues(origin, input)})`),
        sql.fragment`, `,
      )}
      RETURNING *)
    SELECT ${JOB_COLUMNS}, ${ANNOUNCE_NEW_JOB} FROM j`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return withIds.map(({ input }) => byId.get(input.id)!);
}

/** A page of the cluster's jobs (GET /api/v1/clusters/<id>/jobs): its filters, newest first unless `sort` says otherwise. */
export function clusterJobPage(connection: CommonQueryMethods, clusterId: string, query: z.output<typeof jobListQuery>) {
  const where = [
    sql.fragment`j.cluster_id = ${clusterId}`,
    ...(query.status ? [sql.fragment`j.status = ${query.status}`] : []),
    ...(query.type ? [sql.fragment`j.type = ${query.type}`] : []),
    ...(query.serverId ? [sql.fragment`j.server_id = ${query.serverId}`] : []),
    ...(query.taskId ? [sql.fragment`j.task_id = ${query.taskId}`] : []),
  ];
  return fetchPage(connection, {
    schema: job,
    columns: JOB_COLUMNS,
    from: sql.fragment`jobs j WHERE ${sql.join(where, sql.fragment` AND `)}`,
    order: orderBy(query.sort, { createdAt: sql.fragment`j.created_at` }, sql.fragment`j.id`),
    page: query,
  });
}
