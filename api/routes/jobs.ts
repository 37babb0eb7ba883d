/**
 * The jobs API: one job (long-polling with `?wait=N`), a cluster's jobs, and cancelling (docs/api.md).
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { job, jobListQuery, powerQuery } from '../../schema/jobs.ts';
import { clusterJobPage, getJob } from '../../orchestrator/jobs/store.ts';
import { cancelJob } from '../../orchestrator/jobs/cancel.ts';
import { originOf } from '../identity/origin.ts';

export function installJobRoutes(api: Api, deps: AppDeps) {
  const { pool, jobWaiters } = deps;
  const byJob = clusterOfParam(pool.reads, 'jobs');

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
      if (query.wait) await jobWaiters.waitForEnd(params.id, query.wait * 1000);
      return getJob(pool.reads, params.id);
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
    handler: (_ctx, { params, query }) => clusterJobPage(pool, params.clusterId, query),
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
      const current = await cancelJob(pool, originOf(ctx), params.id);
      ctx.status = current.status === 'CANCELLED' ? 200 : 202;
      ctx.body = current;
    },
  });
}
