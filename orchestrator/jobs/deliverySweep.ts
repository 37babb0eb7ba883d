/**
 * The delivery sweep (re-announce and expire): every orchestrator process sweeps the jobs whose delivery check is due,
 * once a second (`startDeliverySweeper`, started by orchestrator/worker/worker.ts), in one statement that claims them
 * (`FOR UPDATE SKIP LOCKED`, so two processes never handle one job) and:
 * - still QUEUED (agent offline or not answering): announces it again, next check after the ack window (5 s), then
 *   10 s, 20 s … 60 s;
 * - with its agent (DISPATCHED, RUNNING): announces it again 30 s after it was dispatched and every 30 s from then
 *   (the agent drops duplicates by jobId and re-sends a result it could not deliver, so a result lost in a crash is
 *   recovered);
 * - past `expires_at` (or its machine removed): EXPIRED with a clear error.
 * The first check of a job is at the end of the ack window after it was accepted (delivery.ts). The row is the durable
 * state: a job accepted just before an orchestrator is killed is swept by the next one, and an agent that connects
 * gets its pending jobs at once (gateway/agentSession.ts). This replaced a graphile-worker job per accepted job
 * (an insert, a fetch and a completion per job); `jobs__dispatch` (orchestrator/worker/jobs__dispatch.ts) still runs
 * those of jobs accepted before that (sql/migrations/000009).
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import { AGENT_CHANNEL } from '../gateway/notifications.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';
import { ACK_WINDOW_MS, RECHECK_MS } from './delivery.ts';

/** How often each orchestrator process sweeps the jobs whose delivery check is due. */
export const SWEEP_INTERVAL_MS = 1_000;
/** Jobs handled per sweep statement; a longer backlog takes further statements at once. */
const SWEEP_BATCH = 500;
/** Back-off of a job its agent has not acknowledged: the ack window (5 s), doubling, at most 60 s. */
const RETRY_BASE_S = ACK_WINDOW_MS / 1000;
const RETRY_MAX_S = 60;

/**
 * Re-announce and expire, for every due job: one sweep claims up to SWEEP_BATCH due jobs, expires those past their
 * time and announces the others again (the notifications go out as the statement commits). Answers how many jobs it
 * handled.
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

/** The delivery sweep: `sweepDueJobs` every SWEEP_INTERVAL_MS (and at once again while a sweep comes back full) until stopped. */
export const startDeliverySweeper = (options: { pool: DatabasePool; logger: Logger }): Repeating =>
  repeatEvery({
    everyMs: SWEEP_INTERVAL_MS,
    logger: options.logger,
    what: 'job delivery sweep',
    round: async () => (await sweepDueJobs(options.pool)) >= SWEEP_BATCH,
  });
