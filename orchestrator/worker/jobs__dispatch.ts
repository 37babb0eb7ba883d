/**
 * Makes sure a job reaches the agent of its machine.
 *
 * The connection lives on whichever orchestrator process the agent is connected to, so delivery is announced through
 * Postgres NOTIFY; that process sends the job with an acknowledgement time-out and marks it DISPATCHED on the ack.
 * The first announcement goes out when the job is accepted (jobs/store.ts), which also sets the job's
 * `next_check_at` to the end of the ack window. Every orchestrator process sweeps the jobs whose check is due, once
 * a second (`startDeliverySweeper`), in one statement that claims them (`FOR UPDATE SKIP LOCKED`, so two processes
 * never handle one job) and:
 * - still QUEUED (agent offline or not answering): announces it again, next check after 5 s, 10 s, 20 s … 60 s;
 * - with its agent (DISPATCHED, RUNNING): announces it again 30 s after it was dispatched and every 30 s from then
 *   (the agent drops duplicates by jobId and re-sends a result it could not deliver, so a result lost in a crash is
 *   recovered);
 * - past `expires_at` (or its machine removed): EXPIRED with a clear error.
 * The row is the durable state: a job accepted just before an orchestrator is killed is swept by the next one, and an
 * agent that connects gets its pending jobs at once (agentSession.ts). This replaced a graphile-worker job per accepted
 * job (an insert, a fetch and a completion per job, plus a run of this task); `jobs__dispatch` still runs the
 * graphile-worker jobs of jobs accepted before that (sql/migrations/000009).
 */
import type { Task } from 'graphile-worker';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import type { JobEvents } from '../jobs/events.ts';
import { FINISHED_STATUSES, JOB_STATUSES } from '../../schema/jobs.ts';
import { AGENT_CHANNEL, notifyAgent } from '../gateway/notifications.ts';
import { DISPATCH_TASK } from '../jobs/store.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

/** How long the agent has to acknowledge a job before the delivery is retried. */
export const ACK_TIMEOUT_MS = 5_000;
/** How often a job that is with its agent but not finished is announced again. */
const RECHECK_MS = 30_000;
/** How often each orchestrator process sweeps the jobs whose delivery check is due. */
export const SWEEP_INTERVAL_MS = 1_000;
/** Jobs handled per sweep statement; a longer backlog takes further statements at once. */
const SWEEP_BATCH = 500;
/** Back-off of a job its agent has not acknowledged: 5 s, doubling, at most 60 s. */
const RETRY_BASE_S = 5;
const RETRY_MAX_S = 60;

/**
 * One sweep: claims up to SWEEP_BATCH due jobs, expires those past their time and announces the others again (the
 * notifications go out as the statement commits). Answers how many jobs it handled.
 */
export async function sweepDueJobs(pool: DatabasePool): Promise<number> {
  return pool.oneFirst(sql.type(z.object({ handled: z.number() }))`
    WITH due AS (
      SELECT id FROM jobs
       WHERE next_check_at <= now() AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')
       ORDER BY next_check_at
       LIMIT ${SWEEP_BATCH}
         FOR UPDATE SKIP LOCKED
    ), expired AS (
      UPDATE jobs j SET status = 'EXPIRED', finished_at = now(), next_check_at = NULL,
             error = jsonb_build_object('code', 'EXPIRED', 'message', CASE WHEN j.machine_id IS NULL THEN 'its machine was removed'
               ELSE 'the agent did not complete it before ' || to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END)
        FROM due
       WHERE j.id = due.id AND (j.expires_at <= now() OR j.machine_id IS NULL)
      RETURNING j.id
    ), announced AS (
      UPDATE jobs j SET delivery_checks = j.delivery_checks + 1,
             next_check_at = least(j.expires_at, now() + CASE WHEN j.status = 'QUEUED'
               THEN make_interval(secs => least(${RETRY_BASE_S} * power(2, least(j.delivery_checks, 10)), ${RETRY_MAX_S}))
               ELSE make_interval(secs => ${RECHECK_MS / 1000}) END)
        FROM due
       WHERE j.id = due.id AND j.expires_at > now() AND j.machine_id IS NOT NULL
         AND (j.status = 'QUEUED' OR coalesce(j.dispatched_at, j.created_at) <= now() - make_interval(secs => ${RECHECK_MS / 1000}))
      RETURNING j.id, j.machine_id
    ), deferred AS (
      -- With its agent for less than the reminder period: nothing to say yet (a reminder now would only make a busy
      -- gateway and agent do the delivery again); looked at again a reminder period after it was dispatched.
      UPDATE jobs j SET next_check_at = least(j.expires_at, coalesce(j.dispatched_at, j.created_at) + make_interval(secs => ${RECHECK_MS / 1000}))
        FROM due
       WHERE j.id = due.id AND j.expires_at > now() AND j.machine_id IS NOT NULL
         AND j.status <> 'QUEUED' AND coalesce(j.dispatched_at, j.created_at) > now() - make_interval(secs => ${RECHECK_MS / 1000})
      RETURNING j.id
    ), notified AS (
      SELECT pg_notify(${AGENT_CHANNEL}, json_build_object('type', 'job_dispatch', 'machineId', machine_id, 'jobId', id)::text) FROM announced
    )
    SELECT (SELECT count(*) FROM expired) + (SELECT count(*) FROM notified) + (SELECT count(*) FROM deferred) AS handled`);
}

/** Sweeps every SWEEP_INTERVAL_MS (and at once again while a sweep comes back full) until stopped. */
export const startDeliverySweeper = (options: { pool: DatabasePool; logger: Logger }): Repeating =>
  repeatEvery({
    everyMs: SWEEP_INTERVAL_MS,
    logger: options.logger,
    what: 'job delivery sweep',
    round: async () => (await sweepDueJobs(options.pool)) >= SWEEP_BATCH,
  });

const payload = z.object({ jobId: z.uuid() });
const jobRow = z.object({ status: z.enum(JOB_STATUSES), machineId: z.string().nullable(), expired: z.boolean(), expiresAt: z.string() });

/** The graphile-worker task of jobs accepted before sql/migrations/000009 (one graphile-worker job per job). */
export function dispatchTask(deps: { pool: DatabasePool; jobEvents: JobEvents }): Task {
  return async (raw, helpers) => {
    const { jobId } = payload.parse(raw);
    const job = await deps.pool.maybeOne(sql.type(jobRow)`
      SELECT status, machine_id AS "machineId", expires_at <= now() AS expired, expires_at AS "expiresAt" FROM jobs WHERE id = ${jobId}`);
    if (!job || FINISHED_STATUSES.has(job.status)) return;
    if (job.status !== 'QUEUED' && !job.expired && job.machineId) {
      // With its agent: remind it (it drops the duplicate, or re-sends a result it could not deliver) and look later.
      await notifyAgent(deps.pool, { type: 'job_dispatch', machineId: job.machineId, jobId });
      return scheduleRecheck(helpers, jobId, job.expiresAt);
    }
    if (job.expired || !job.machineId) {
      const message = job.machineId ? `the agent did not complete it before ${job.expiresAt}` : 'its machine was removed';
      await deps.pool.query(sql.unsafe`
        UPDATE jobs SET status = 'EXPIRED', finished_at = now(), error = ${sql.jsonb({ code: 'EXPIRED', message })}
         WHERE id = ${jobId} AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
      return;
    }
    const waiting = deps.jobEvents.waitFor(jobId, (status) => status !== 'QUEUED', ACK_TIMEOUT_MS);
    await notifyAgent(deps.pool, { type: 'job_dispatch', machineId: job.machineId, jobId });
    const status = await waiting;
    if (status === null) throw new Error(`job ${jobId}: the agent of machine ${job.machineId} did not acknowledge it; retrying`);
    if (!FINISHED_STATUSES.has(status)) await scheduleRecheck(helpers, jobId, job.expiresAt);
  };
}

/** A job with its agent does not hold a worker slot: look again later (announce again, or expire it). */
async function scheduleRecheck(helpers: Parameters<Task>[1], jobId: string, expiresAt: string): Promise<void> {
  const runAt = new Date(Math.min(Date.now() + RECHECK_MS, Date.parse(expiresAt) + 1_000));
  await helpers.addJob(DISPATCH_TASK, { jobId }, { runAt, maxAttempts: 100 });
}
