/**
 * Makes sure a job reaches the agent of its machine (graphile-worker task `jobs__dispatch`, payload `{ jobId }`).
 *
 * The connection lives on whichever orchestrator process the agent is connected to, so delivery is announced through
 * Postgres NOTIFY; that process sends the job with an acknowledgement time-out and marks it DISPATCHED on the ack.
 * The first announcement goes out when the job is accepted (jobs/store.ts); this task runs after the ack window and
 * only acts on jobs that have not moved on: it announces again and waits (without polling). Still QUEUED after the ack window — agent offline or
 * not answering — it throws, and graphile-worker retries with back-off; past `expiresAt` the job ends EXPIRED. A job
 * with its agent does not hold a worker slot: a follow-up run is scheduled to announce it again (the agent drops
 * duplicates by jobId and re-sends its result, so a result lost in a crash is recovered) or to expire it.
 */
import type { Task } from 'graphile-worker';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../database/pool.ts';
import type { JobEvents } from '../../jobs/events.ts';
import { FINISHED_STATUSES, JOB_STATUSES } from '../../schema/jobs.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { DISPATCH_TASK } from '../../jobs/store.ts';

/** How long the agent has to acknowledge a job before the delivery is retried. */
export const ACK_TIMEOUT_MS = 5_000;
/** How often a job that is with its agent but not finished is announced again. */
const RECHECK_MS = 30_000;

const payload = z.object({ jobId: z.uuid() });
const jobRow = z.object({ status: z.enum(JOB_STATUSES), machineId: z.string().nullable(), expired: z.boolean(), expiresAt: z.string() });

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
