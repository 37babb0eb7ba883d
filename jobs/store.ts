/**
 * Jobs in Postgres: the row every state-changing call becomes, created in the caller's transaction together with
 * graphile-worker's `add_job` and the delivery notification (so an accepted request is never lost, never half-done,
 * and reaches a connected agent as soon as it commits), and read back as the Job record.
 */
import type { Context } from 'koa';
import { sql, type CommonQueryMethods } from 'slonik';
import { job, type Job, type JobType } from '../schema/jobs.ts';
import type { Principal } from '../identity/principal.ts';
import { AGENT_CHANNEL } from '../orchestrator/gateway/notifications.ts';

export const JOB_COLUMNS = sql.fragment`
  j.id, j.cluster_id AS "clusterId", j.server_id AS "serverId", j.machine_id AS "machineId", j.player_id AS "playerId",
  j.task_id AS "taskId", j.type, j.status, j.params, j.result, j.error, j.attempts,
  json_build_object('kind', j.created_by_kind, 'id', j.created_by_id) AS "createdBy",
  j.idempotency_key AS "idempotencyKey", j.created_at AS "createdAt", j.dispatched_at AS "dispatchedAt",
  j.started_at AS "startedAt", j.finished_at AS "finishedAt", j.expires_at AS "expiresAt"`;

/** How long a job may wait for its agent before it EXPIRES (SPEC: power 10 min, RCON 30 s). */
export const JOB_TTL_MS: Partial<Record<JobType, number>> = { RCON: 30_000 };
const DEFAULT_TTL_MS = 10 * 60_000;

/** The graphile-worker task that delivers a job to its agent. */
export const DISPATCH_TASK = 'jobs__dispatch';
/** When the dispatch task first checks that a job reached its agent (the agent's ack window). */
const FIRST_CHECK_MS = 5_000;
/** Delivery attempts before graphile-worker gives up; expiry normally ends a job first. */
const MAX_DISPATCH_ATTEMPTS = 100;

export const getJob = (connection: CommonQueryMethods, jobId: string): Promise<Job> =>
  connection.one(sql.type(job)`SELECT ${JOB_COLUMNS} FROM jobs j WHERE j.id = ${jobId}`);

export type NewJob = {
  clusterId: string;
  serverId: string | null;
  machineId: string | null;
  type: JobType;
  params: Record<string, unknown>;
  playerId?: string | null;
  taskId?: string | null;
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

const creator = (principal: Principal | undefined): JobCreator =>
  !principal ? { kind: 'SYSTEM', id: null } : principal.kind === 'TOKEN' ? { kind: 'TOKEN', id: principal.tokenId } : { kind: 'USER', id: principal.user.id };

/** Writes the job and schedules its delivery, in `tx` (the caller's transaction, which also holds the audit entry). */
export async function createJob(tx: CommonQueryMethods, ctx: Context | null, input: NewJob): Promise<Job> {
  const by = input.createdBy ?? creator(ctx?.state.principal as Principal | undefined);
  const ttlMs = input.ttlMs ?? JOB_TTL_MS[input.type] ?? DEFAULT_TTL_MS;
  const created = await tx.one(sql.type(job)`
    INSERT INTO jobs AS j (cluster_id, server_id, machine_id, player_id, task_id, type, params, created_by_kind, created_by_id, idempotency_key, expires_at)
    VALUES (${input.clusterId}, ${input.serverId}, ${input.machineId}, ${input.playerId ?? null}, ${input.taskId ?? null}, ${input.type},
            ${sql.jsonb(input.params as never)}, ${by.kind}, ${by.id}, ${input.idempotencyKey ?? null},
            now() + make_interval(secs => ${ttlMs / 1000}))
    RETURNING ${JOB_COLUMNS}`);
  if (input.dispatch === false) return created;
  // The first delivery goes out as the transaction commits (the gateway hears the notification at once); the
  // graphile-worker task runs after the ack window as the safety net that retries, re-announces or expires it.
  // One statement for both, to keep the accept path short.
  const notification = input.machineId ? JSON.stringify({ type: 'job_dispatch', machineId: input.machineId, jobId: created.id }) : null;
  await tx.query(sql.unsafe`
    SELECT graphile_worker.add_job(${DISPATCH_TASK}, json_build_object('jobId', ${created.id}::text),
                                   run_at => now() + make_interval(secs => ${FIRST_CHECK_MS / 1000}), max_attempts => ${MAX_DISPATCH_ATTEMPTS}),
           CASE WHEN ${notification}::text IS NOT NULL THEN pg_notify(${AGENT_CHANNEL}, ${notification}) END`);
  return created;
}
