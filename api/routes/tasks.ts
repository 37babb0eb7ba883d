/**
 * Scheduled tasks (seed 4.5, docs/api.md): CRUD under a cluster, and run-now. Every write re-validates the
 * whole task, recomputes `nextRunAt` in the task's time zone and adds, replaces or removes its pending occurrence
 * (graphile-worker job `task:<id>`) in the same transaction as the row and the audit entry.
 *
 * Decisions: servers of another cluster (or no server at all) are a 400 on `serverIds.<n>`, like a machine of another
 * cluster when creating a server. Run-now works on a disabled task too (an explicit operator action), is 409 while a
 * run of the task is under way, and answers 202 with the TASK_RUN job (`?wait=N` holds the answer as the power
 * routes do).
 */
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { validationFailed } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { job, powerQuery } from '../../schema/jobs.ts';
import { createTaskBody, schedulePreview, schedulePreviewQuery, scheduleProblem, task, taskListQuery, updateTaskBody } from '../../schema/tasks.ts';
import { getJob } from '../../orchestrator/jobs/store.ts';
import { nextRunAfter } from '../../schema/schedule.ts';
import { getTask } from '../../orchestrator/tasks/store.ts';
import { createTask, deleteTask, startManualRun, taskPage, updateTask } from '../../orchestrator/tasks/definitions.ts';
import { originOf } from '../identity/origin.ts';

const taskParams = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });

export function installTaskRoutes(api: Api, deps: AppDeps) {
  const { pool, jobWaiters } = deps;
  const byTask = clusterOfParam(pool.reads, 'tasks');

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/tasks',
    summary: 'List scheduled tasks of a cluster',
    description: 'Filter `enabled`; sort by `name`, `createdAt`, `nextRunAt` or `lastRunAt`.',
    tags: ['Tasks'],
    auth: 'user',
    params: clusterIdParams,
    query: taskListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Tasks', schema: listOf(task) } },
    handler: (_ctx, { params, query }) => taskPage(pool, params.clusterId, query),
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/tasks',
    summary: 'Create a scheduled task',
    description:
      'A 5-field cron `schedule` read in `timezone` (IANA, default UTC), target `serverIds` of this cluster and ordered `steps`. ' +
      'The answer carries `nextRunAt`; a disabled task has none.',
    tags: ['Tasks'],
    auth: 'user',
    params: clusterIdParams,
    body: createTaskBody,
    permission: { action: 'tasks.manage', cluster: 'clusterId' },
    status: 201,
    responses: { 201: { description: 'The task', schema: task, headers: { Location: 'The task' } } },
    handler: async (ctx, { params, body }) => {
      const created = await pool.transaction((tx) => createTask(tx, originOf(ctx), params.clusterId, body));
      ctx.set('Location', `/api/v1/tasks/${created.id}`);
      return created;
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/tasks/schedule-preview',
    summary: 'The next runs of a schedule',
    description:
      'The next `count` (default 5) runs of a 5-field cron `schedule` read in `timezone` (default UTC), computed as the scheduler does (daylight-saving changes included), for forms to show before a task is saved. A bad schedule or time zone is a 400 naming the field.',
    tags: ['Tasks'],
    auth: 'user',
    query: schedulePreviewQuery,
    responses: { 200: { description: 'The next runs', schema: schedulePreview } },
    handler: (_ctx, { query }) => {
      const problem = scheduleProblem(query.schedule, query.timezone);
      if (problem) throw validationFailed([{ field: 'schedule', message: problem }]);
      const runs: string[] = [];
      let after = new Date();
      for (let i = 0; i < query.count; i++) runs.push((after = nextRunAfter(query.schedule, query.timezone, after)).toISOString());
      return { schedule: query.schedule, timezone: query.timezone, runs };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/tasks/:id',
    summary: 'Get a scheduled task',
    description: 'Its runs are the TASK_RUN jobs, and their child jobs, at `GET /api/v1/clusters/<clusterId>/jobs?taskId=<id>`.',
    tags: ['Tasks'],
    auth: 'user',
    params: taskParams,
    permission: { action: 'cluster.read', cluster: byTask },
    responses: { 200: { description: 'The task', schema: task } },
    handler: (_ctx, { params }) => getTask(pool, params.id),
  });

  api.route({
    method: 'patch',
    path: '/api/v1/tasks/:id',
    summary: 'Update a scheduled task',
    description:
      'Any field of the create body; `serverIds` and `steps` replace the lists. A change of `schedule`, `timezone` or `enabled` recomputes `nextRunAt` ' +
      'and replaces the pending occurrence; disabling removes it. A run under way is not affected.',
    tags: ['Tasks'],
    auth: 'user',
    params: taskParams,
    body: updateTaskBody,
    permission: { action: 'tasks.manage', cluster: byTask },
    responses: { 200: { description: 'The task', schema: task } },
    handler: (ctx, { params, body }) => pool.transaction((tx) => updateTask(tx, originOf(ctx), params.id, body)),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/tasks/:id',
    summary: 'Delete a scheduled task',
    description: 'Removes its pending occurrence. A run under way ends CANCELLED before its next step; past runs stay in the jobs list.',
    tags: ['Tasks'],
    auth: 'user',
    params: taskParams,
    permission: { action: 'tasks.manage', cluster: byTask },
    responses: { 200: { description: 'Deleted', schema: success } },
    handler: async (ctx, { params }) => {
      await pool.transaction((tx) => deleteTask(tx, originOf(ctx), params.id));
      return { success: true, message: 'Task deleted' };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/tasks/:id/run',
    summary: 'Run a scheduled task now',
    description:
      'Starts a run at once, also of a disabled task; the schedule is not changed. 202 with the TASK_RUN job and `Location`; with `?wait=N` (0..60) ' +
      'the answer waits until the run ends (200) or N seconds pass (202). 409 while a run of the task is under way.',
    tags: ['Tasks'],
    auth: 'user',
    params: taskParams,
    query: powerQuery,
    permission: { action: 'tasks.manage', cluster: byTask },
    responses: {
      200: { description: 'The finished run', schema: job },
      202: { description: 'The run, started', schema: job, headers: { Location: 'The job' } },
      409: { description: 'A run of the task is under way' },
    },
    handler: async (ctx: Context, { params, query }) => {
      const started = await pool.transaction((tx) => startManualRun(tx, originOf(ctx), params.id));
      const wait = query.wait ?? 0;
      if (wait > 0) await jobWaiters.waitForEnd(started.id, wait * 1000);
      const current = wait > 0 ? await getJob(pool.reads, started.id) : started;
      ctx.set('Location', `/api/v1/jobs/${current.id}`);
      ctx.status = current.finishedAt ? 200 : 202;
      ctx.body = current;
    },
  });
}
