/**
 * Cancel: a job asked to stop (POST /api/v1/jobs/<id>/cancel), and the jobs of servers being deleted (on their own or
 * with their machine).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { conflict } from '../../schema/errors.ts';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { recordAudit } from '../audit.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { recordRunCancelled } from '../tasks/store.ts';
import { requestTransferCancel } from '../transfers/cancel.ts';
import { getJob } from './store.ts';

const POWER_TYPES: ReadonlySet<string> = new Set(['START', 'STOP', 'RESTART', 'KILL']);

const cancelled = (message: string) => sql.jsonb({ code: 'CANCELLED', message });

const jobToCancel = z.object({
  status: z.string(),
  type: z.string(),
  serverId: z.string().nullable(),
  machineId: z.string().nullable(),
  clusterId: z.string(),
});

/**
 * Cancels the job, with its audit entry, in one transaction; answers the job after it (CANCELLED when it ended now,
 * else still with its agent, which was sent `job:cancel`). A QUEUED job is cancelled at once, and a power job's
 * server gets its desired status back to what it is doing; a DISPATCHED or RUNNING one is remembered as to cancel
 * (so an agent that is away gets the cancel when it is back, and not the job again) and its agent told; a TASK_RUN
 * under way ends now and starts no further step. An ended job is a 409.
 */
export function cancelJob(pool: DatabasePool, origin: Origin, jobId: string): Promise<Job> {
  return pool.transaction(async (tx) => {
    const row = await tx.one(sql.type(jobToCancel)`
      SELECT status, type, server_id AS "serverId", machine_id AS "machineId", cluster_id AS "clusterId" FROM jobs WHERE id = ${jobId} FOR UPDATE`);
    if (row.type === 'TRANSFER' && ['QUEUED', 'DISPATCHED', 'RUNNING'].includes(row.status)) {
      // The orchestrator's own: remembered on the transfer, whose runner rolls it back (the server back on its source,
      // as it was) and then ends the job CANCELLED; past the switch a 409 (docs/transfers.md#cancel).
      await requestTransferCancel(tx, jobId);
    } else if (row.status === 'QUEUED') {
      await tx.query(sql.unsafe`
        UPDATE jobs SET status = 'CANCELLED', finished_at = now(), error = ${cancelled('cancelled before it reached the agent')} WHERE id = ${jobId}`);
      // A cancelled power job must not happen anyway through the desired state it set: the server's desired
      // status goes back to what the server is doing now.
      if (POWER_TYPES.has(row.type) && row.serverId) {
        await tx.query(sql.unsafe`
          UPDATE servers SET desired_status = CASE WHEN status IN ('ONLINE', 'UNRESPONSIVE', 'STARTING', 'RESTARTING') THEN 'RUNNING' ELSE 'STOPPED' END
           WHERE id = ${row.serverId}`);
      }
      // The agent may be receiving it right now: tell it too (a job it does not have yet it answers CANCELLED, and
      // never runs should it arrive; the service keeps the job as it ended here).
      if (row.machineId) await notifyAgent(tx, { type: 'job_cancel', machineId: row.machineId, jobId });
      if (row.type === 'TASK_RUN') await recordRunCancelled(tx, jobId);
    } else if (row.type === 'TASK_RUN' && (row.status === 'DISPATCHED' || row.status === 'RUNNING')) {
      // A task run is the orchestrator's own: it ends now, and its executor stops before the next step (a step
      // already under way on the servers finishes as its own jobs).
      await tx.query(sql.unsafe`
        UPDATE jobs SET status = 'CANCELLED', finished_at = now(), error = ${cancelled('cancelled during the run; no further step is started')}
         WHERE id = ${jobId}`);
      await recordRunCancelled(tx, jobId);
    } else if ((row.status === 'DISPATCHED' || row.status === 'RUNNING') && row.machineId) {
      // Remembered, so an agent that is away gets the cancel when it is back (and not the job again).
      await tx.query(sql.unsafe`UPDATE jobs SET cancel_requested_at = coalesce(cancel_requested_at, now()) WHERE id = ${jobId}`);
      await notifyAgent(tx, { type: 'job_cancel', machineId: row.machineId, jobId });
    } else {
      throw conflict(`The job has ended (${row.status}); there is nothing to cancel`);
    }
    await recordAudit(tx, origin, { clusterId: row.clusterId, action: 'job.cancel', target: { type: 'job', id: jobId } });
    return getJob(tx, jobId);
  });
}

/**
 * Cancels the jobs that have not ended of servers being deleted (on their own, or with their machine), in the
 * transaction that deletes them: they can no longer be run.
 */
export async function cancelServerJobs(tx: CommonQueryMethods, serverIds: readonly string[], message = 'the server was deleted'): Promise<void> {
  if (serverIds.length === 0) return;
  await tx.query(sql.unsafe`
    UPDATE jobs SET status = 'CANCELLED', finished_at = now(), error = ${cancelled(message)}
     WHERE server_id = ANY(${sql.array(serverIds, 'uuid')}) AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
}
