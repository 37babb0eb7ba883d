/**
 * The jobs API: one job (long-polling with `?wait=N`), a cluster's jobs, and cancelling (docs/api.md).
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { conflict } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { job, jobListQuery, powerQuery } from '../../schema/jobs.ts';
import { JOB_COLUMNS, getJob } from '../../orchestrator/jobs/store.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { recordRunCancelled } from '../../orchestrator/tasks/store.ts';
import { originOf } from '../identity/origin.ts';

const POWER_TYPES: ReadonlySet<string> = new Set(['START', 'STOP', 'RESTART', 'KILL']);

export function installJobRoutes(api: Api, deps: AppDeps) {
  const { pool, jobEvents } = deps;
  const byJob = clusterOfParam(pool, 'jobs');

  api.route({
    method: 'get',
    path: '/api/v1/jobs/:id',
    summary: 'Get a job',
    description: 'With `?wait=N` (0..60) the answer waits until the job ends or N seconds pass (long polling).',
    tags: ['Jobs'],
    auth: 'user',
    params: z.object({ id }),
    query: powerQuery,
    permission: { action: 'cluster.read', cluster: byJob },
    responses: { 200: { description: 'The job', schema: job } },
    handler: async (_ctx, { params, query }) => {
      if (query.wait) await jobEvents.waitForEnd(params.id, query.wait * 1000);
      return getJob(pool, params.id);
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/jobs',
    summary: "A cluster's jobs",
    description: 'Filters: `status`, `type` (any case), `serverId`, `taskId`. Newest first by default.',
    tags: ['Jobs'],
    auth: 'user',
    params: clusterIdParams,
    query: jobListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Jobs', schema: listOf(job) } },
    handler: (_ctx, { params, query }) => {
      const filters = [
        sql.fragment`j.cluster_id = ${params.clusterId}`,
        ...(query.status ? [sql.fragment`j.status = ${query.status}`] : []),
        ...(query.type ? [sql.fragment`j.type = ${query.type}`] : []),
        ...(query.serverId ? [sql.fragment`j.server_id = ${query.serverId}`] : []),
        ...(query.taskId ? [sql.fragment`j.task_id = ${query.taskId}`] : []),
      ];
      return fetchPage(pool, {
        schema: job,
        columns: JOB_COLUMNS,
        from: sql.fragment`jobs j WHERE ${sql.join(filters, sql.fragment` AND `)}`,
        order: orderBy(query.sort, { createdAt: sql.fragment`j.created_at` }, sql.fragment`j.id`),
        page: query,
      });
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/jobs/:id/cancel',
    summary: 'Cancel a job',
    description:
      "QUEUED: cancelled at once (200), and a power job's desired status goes back to what the server is doing. DISPATCHED or RUNNING: the cancel is sent to the agent, also after it reconnects (202; the job ends when the agent answers); a running TASK_RUN is cancelled at once (200) and starts no further step. Ended: 409.",
    tags: ['Jobs'],
    auth: 'user',
    params: z.object({ id }),
    permission: { action: 'servers.manage', cluster: byJob },
    responses: {
      200: { description: 'Cancelled', schema: job },
      202: { description: 'Cancel sent to the agent', schema: job },
      409: { description: 'The job has ended' },
    },
    handler: async (ctx, { params }) => {
      const current = await pool.transaction(async (tx) => {
        const row = await tx.one(sql.type(
          z.object({ status: z.string(), type: z.string(), serverId: z.string().nullable(), machineId: z.string().nullable(), clusterId: z.string() }),
        )`
          SELECT status, type, server_id AS "serverId", machine_id AS "machineId", cluster_id AS "clusterId" FROM jobs WHERE id = ${params.id} FOR UPDATE`);
        if (row.status === 'QUEUED') {
          await tx.query(sql.unsafe`
            UPDATE jobs SET status = 'CANCELLED', finished_at = now(), error = ${sql.jsonb({ code: 'CANCELLED', message: 'cancelled before it reached the agent' })}
             WHERE id = ${params.id}`);
          // A cancelled power job must not happen anyway through the desired state it set: the server's desired
          // status goes back to what the server is doing now.
          if (POWER_TYPES.has(row.type) && row.serverId) {
            await tx.query(sql.unsafe`
              UPDATE servers SET desired_status = CASE WHEN status IN ('ONLINE', 'UNRESPONSIVE', 'STARTING', 'RESTARTING') THEN 'RUNNING' ELSE 'STOPPED' END
               WHERE id = ${row.serverId}`);
          }
          // The agent may be receiving it right now: tell it too (it drops a job it does not have).
          if (row.machineId) await notifyAgent(tx, { type: 'job_cancel', machineId: row.machineId, jobId: params.id });
          if (row.type === 'TASK_RUN') await recordRunCancelled(tx, params.id);
        } else if (row.type === 'TASK_RUN' && (row.status === 'DISPATCHED' || row.status === 'RUNNING')) {
          // A task run is the orchestrator's own: it ends now, and its executor stops before the next step (a step
          // already under way on the servers finishes as its own jobs).
          await tx.query(sql.unsafe`
            UPDATE jobs SET status = 'CANCELLED', finished_at = now(),
                   error = ${sql.jsonb({ code: 'CANCELLED', message: 'cancelled during the run; no further step is started' })}
             WHERE id = ${params.id}`);
          await recordRunCancelled(tx, params.id);
        } else if ((row.status === 'DISPATCHED' || row.status === 'RUNNING') && row.machineId) {
          // Remembered, so an agent that is away gets the cancel when it is back (and not the job again).
          await tx.query(sql.unsafe`UPDATE jobs SET cancel_requested_at = coalesce(cancel_requested_at, now()) WHERE id = ${params.id}`);
          await notifyAgent(tx, { type: 'job_cancel', machineId: row.machineId, jobId: params.id });
        } else {
          throw conflict(`The job has ended (${row.status}); there is nothing to cancel`);
        }
        await recordAudit(tx, originOf(ctx), { clusterId: row.clusterId, action: 'job.cancel', target: { type: 'job', id: params.id } });
        return getJob(tx, params.id);
      });
      ctx.status = current.status === 'CANCELLED' ? 200 : 202;
      ctx.body = current;
    },
  });
}
