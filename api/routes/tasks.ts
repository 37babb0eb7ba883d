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
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { conflict, validationFailed } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { job, powerQuery } from '../../schema/jobs.ts';
import { createTaskBody, schedulePreview, schedulePreviewQuery, scheduleProblem, task, taskListQuery, updateTaskBody, type Step } from '../../schema/tasks.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { getJob } from '../../orchestrator/jobs/store.ts';
import { nextRunAfter } from '../../schema/schedule.ts';
import { getTask, runUnderway, scheduleOccurrence, setTaskServers, startRun, TASK_COLUMNS, unscheduleTask } from '../../orchestrator/tasks/store.ts';
import { originOf } from '../identity/origin.ts';

const SORT = {
  name: sql.fragment`lower(t.name)`,
  createdAt: sql.fragment`t.created_at`,
  nextRunAt: sql.fragment`t.next_run_at`,
  lastRunAt: sql.fragment`t.last_run_at`,
};

const taskParams = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });

/** Checks that every server is in the cluster (locking them against deletion until the transaction ends). */
async function checkServers(tx: CommonQueryMethods, clusterId: string, serverIds: readonly string[]): Promise<void> {
  const found = new Set(
    await tx.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id FROM servers WHERE id = ANY(${sql.array([...serverIds], 'uuid')}) AND cluster_id = ${clusterId} FOR SHARE`),
  );
  const missing = serverIds.flatMap((serverId, index) =>
    found.has(serverId) ? [] : [{ field: `serverIds.${index}`, message: 'no such server in this cluster' }],
  );
  if (missing.length > 0) throw validationFailed(missing);
}

/** Steps as stored: only the fields each type uses, defaults filled. */
const storable = (steps: readonly Step[]) =>
  steps.map((step) => ({
    type: step.type,
    ...(step.command !== undefined ? { command: step.command } : {}),
    ...(step.message !== undefined ? { message: step.message } : {}),
    delaySeconds: step.delaySeconds,
    continueOnFailure: step.continueOnFailure,
  }));

export function installTaskRoutes(api: Api, deps: AppDeps) {
  const { pool, jobEvents } = deps;
  const byTask = clusterOfParam(pool, 'tasks');

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
    handler: (_ctx, { params, query }) =>
      fetchPage(pool, {
        schema: task,
        columns: TASK_COLUMNS,
        from: sql.fragment`tasks t WHERE ${sql.join(
          [sql.fragment`t.cluster_id = ${params.clusterId}`, ...(query.enabled === undefined ? [] : [sql.fragment`t.enabled = ${query.enabled}`])],
          sql.fragment` AND `,
        )}`,
        order: orderBy(query.sort, SORT, sql.fragment`t.id`),
        page: query,
      }),
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
      const created = await pool.transaction(async (tx) => {
        await checkServers(tx, params.clusterId, body.serverIds);
        const enabled = body.enabled ?? true;
        const taskId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO tasks (cluster_id, name, description, schedule, timezone, steps, only_when_online, enabled)
          VALUES (${params.clusterId}, ${body.name}, ${body.description ?? null}, ${body.schedule}, ${body.timezone ?? 'UTC'},
                  ${sql.jsonb(storable(body.steps) as never)}, ${body.onlyWhenOnline ?? false}, ${enabled})
          RETURNING id`);
        await setTaskServers(tx, taskId, body.serverIds);
        await scheduleOccurrence(tx, taskId, enabled ? nextRunAfter(body.schedule, body.timezone ?? 'UTC', new Date()) : null);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'task.create', target: { type: 'task', id: taskId } });
        return getTask(tx, taskId);
      });
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
    handler: (ctx, { params, body }) =>
      pool.transaction(async (tx) => {
        const current = await tx.one(sql.type(z.object({ clusterId: z.string(), schedule: z.string(), timezone: z.string(), enabled: z.boolean() }))`
          SELECT cluster_id AS "clusterId", schedule, timezone, enabled FROM tasks WHERE id = ${params.id} FOR UPDATE`);
        const schedule = body.schedule ?? current.schedule;
        const timezone = body.timezone ?? current.timezone;
        const enabled = body.enabled ?? current.enabled;
        const problem = scheduleProblem(schedule, timezone);
        if (problem) throw validationFailed([{ field: body.schedule !== undefined ? 'schedule' : 'timezone', message: problem }]);
        if (body.serverIds) await checkServers(tx, current.clusterId, body.serverIds);
        await tx.query(sql.unsafe`
          UPDATE tasks SET
            name = ${body.name ?? sql.fragment`name`},
            description = ${body.description === undefined ? sql.fragment`description` : body.description},
            schedule = ${schedule}, timezone = ${timezone}, enabled = ${enabled},
            next_run_at = CASE WHEN ${enabled} THEN next_run_at END,
            steps = ${body.steps ? sql.jsonb(storable(body.steps) as never) : sql.fragment`steps`},
            only_when_online = ${body.onlyWhenOnline ?? sql.fragment`only_when_online`},
            updated_at = now()
           WHERE id = ${params.id}`);
        if (body.serverIds) await setTaskServers(tx, params.id, body.serverIds);
        const rescheduled = schedule !== current.schedule || timezone !== current.timezone || enabled !== current.enabled;
        if (rescheduled) await scheduleOccurrence(tx, params.id, enabled ? nextRunAfter(schedule, timezone, new Date()) : null);
        await recordAudit(tx, originOf(ctx), { clusterId: current.clusterId, action: 'task.update', target: { type: 'task', id: params.id } });
        return getTask(tx, params.id);
      }),
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
      await pool.transaction(async (tx) => {
        const clusterId = await tx.oneFirst(sql.type(z.object({ clusterId: z.string() }))`
          DELETE FROM tasks WHERE id = ${params.id} RETURNING cluster_id AS "clusterId"`);
        await unscheduleTask(tx, params.id);
        await recordAudit(tx, originOf(ctx), { clusterId, action: 'task.delete', target: { type: 'task', id: params.id } });
      });
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
      const started = await pool.transaction(async (tx) => {
        const clusterId = await tx.oneFirst(sql.type(z.object({ clusterId: z.string() }))`
          SELECT cluster_id AS "clusterId" FROM tasks WHERE id = ${params.id} FOR UPDATE`);
        if (await runUnderway(tx, params.id)) throw conflict('A run of this task is under way; wait for it to end');
        const run = await startRun(tx, originOf(ctx), params.id, { trigger: 'MANUAL' });
        await recordAudit(tx, originOf(ctx), { clusterId, action: 'task.run', target: { type: 'task', id: params.id } });
        return run;
      });
      const wait = query.wait ?? 0;
      if (wait > 0) await jobEvents.waitForEnd(started.id, wait * 1000);
      const current = wait > 0 ? await getJob(pool, started.id) : started;
      ctx.set('Location', `/api/v1/jobs/${current.id}`);
      ctx.status = current.finishedAt ? 200 : 202;
      ctx.body = current;
    },
  });
}
