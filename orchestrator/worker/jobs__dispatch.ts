/**
 * `jobs__dispatch`: the graphile-worker task that delivered a job before the delivery sweep (orchestrator/jobs/deliverySweep.ts)
 * replaced it, kept for the graphile-worker jobs of jobs accepted before sql/migrations/000009 (one graphile-worker
 * job per job). Every change to the job goes through orchestrator/jobs/.
 */
import type { Task } from 'graphile-worker';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { JobWaiters } from '../jobs/waiters.ts';
import { FINISHED_STATUSES, JOB_STATUSES } from '../../schema/jobs.ts';
import { ACK_WINDOW_MS, RECHECK_MS, announceJob, expireJob } from '../jobs/delivery.ts';
import { DISPATCH_TASK } from '../jobs/store.ts';

const payload = z.object({ jobId: z.uuid() });
const jobRow = z.object({ status: z.enum(JOB_STATUSES), machineId: z.string().nullable(), expired: z.boolean(), expiresAt: z.string() });

export function dispatchTask(deps: { pool: DatabasePool; jobWaiters: JobWaiters }): Task {
  return async (raw, helpers) => {
    const { jobId } = payload.parse(raw);
    const job = await deps.pool.maybeOne(sql.type(jobRow)`
      SELECT status, machine_id AS "machineId", expires_at <= now() AS expired, expires_at AS "expiresAt" FROM jobs WHERE id = ${jobId}`);
    if (!job || FINISHED_STATUSES.has(job.status)) return;
    if (job.status !== 'QUEUED' && !job.expired && job.machineId) {
      // With its agent: remind it (it drops the duplicate, or re-sends a result it could not deliver) and look later.
      await announceJob(deps.pool, job.machineId, jobId);
      return scheduleRecheck(helpers, jobId, job.expiresAt);
    }
    if (job.expired || !job.machineId) {
      await expireJob(deps.pool, jobId, job.machineId ? `the agent did not complete it before ${job.expiresAt}` : 'its machine was removed');
      return;
    }
    const waiting = deps.jobWaiters.waitFor(jobId, (status) => status !== 'QUEUED', ACK_WINDOW_MS);
    await announceJob(deps.pool, job.machineId, jobId);
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
