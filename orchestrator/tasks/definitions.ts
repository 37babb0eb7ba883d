/**
 * A task's definition as its cluster's managers change it (docs/tasks.md): listed, created, changed, deleted and run
 * by hand. The row, its servers and its pending occurrence change in one transaction (store.ts keeps them together).
 */
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { conflict, validationFailed } from '../../schema/errors.ts';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { nextRunAfter } from '../../schema/schedule.ts';
import { scheduleProblem, task, type createTaskBody, type Step, type Task, type taskListQuery, type updateTaskBody } from '../../schema/tasks.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';
import { getTask, runUnderway, scheduleOccurrence, setTaskServers, startRun, TASK_COLUMNS, unscheduleTask } from './store.ts';

const SORT = {
  name: sql.fragment`lower(t.name)`,
  createdAt: sql.fragment`t.created_at`,
  nextRunAt: sql.fragment`t.next_run_at`,
  lastRunAt: sql.fragment`t.last_run_at`,
};

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

/** One page of a cluster's tasks. */
export const taskPage = (connection: CommonQueryMethods, clusterId: string, query: z.output<typeof taskListQuery>) =>
  fetchPage(connection, {
    schema: task,
    columns: TASK_COLUMNS,
    from: sql.fragment`tasks t WHERE ${sql.join(
      [sql.fragment`t.cluster_id = ${clusterId}`, ...(query.enabled === undefined ? [] : [sql.fragment`t.enabled = ${query.enabled}`])],
      sql.fragment` AND `,
    )}`,
    order: orderBy(query.sort, SORT, sql.fragment`t.id`),
    page: query,
  });

/** Creates a task and schedules its first occurrence (none when disabled). */
export async function createTask(tx: CommonQueryMethods, origin: Origin, clusterId: string, body: z.output<typeof createTaskBody>): Promise<Task> {
  await checkServers(tx, clusterId, body.serverIds);
  const enabled = body.enabled ?? true;
  const taskId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO tasks (cluster_id, name, description, schedule, timezone, steps, only_when_online, enabled)
    VALUES (${clusterId}, ${body.name}, ${body.description ?? null}, ${body.schedule}, ${body.timezone ?? 'UTC'},
            ${sql.jsonb(storable(body.steps) as never)}, ${body.onlyWhenOnline ?? false}, ${enabled})
    RETURNING id`);
  await setTaskServers(tx, taskId, body.serverIds);
  await scheduleOccurrence(tx, taskId, enabled ? nextRunAfter(body.schedule, body.timezone ?? 'UTC', new Date()) : null);
  await recordAudit(tx, origin, { clusterId, action: 'task.create', target: { type: 'task', id: taskId } });
  return getTask(tx, taskId);
}

/**
 * Changes a task; a change of schedule, time zone or `enabled` replaces the pending occurrence (disabling removes it).
 * A run under way is not affected.
 */
export async function updateTask(tx: CommonQueryMethods, origin: Origin, taskId: string, body: z.output<typeof updateTaskBody>): Promise<Task> {
  const current = await tx.one(sql.type(z.object({ clusterId: z.string(), schedule: z.string(), timezone: z.string(), enabled: z.boolean() }))`
    SELECT cluster_id AS "clusterId", schedule, timezone, enabled FROM tasks WHERE id = ${taskId} FOR UPDATE`);
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
     WHERE id = ${taskId}`);
  if (body.serverIds) await setTaskServers(tx, taskId, body.serverIds);
  const rescheduled = schedule !== current.schedule || timezone !== current.timezone || enabled !== current.enabled;
  if (rescheduled) await scheduleOccurrence(tx, taskId, enabled ? nextRunAfter(schedule, timezone, new Date()) : null);
  await recordAudit(tx, origin, { clusterId: current.clusterId, action: 'task.update', target: { type: 'task', id: taskId } });
  return getTask(tx, taskId);
}

export async function deleteTask(tx: CommonQueryMethods, origin: Origin, taskId: string): Promise<void> {
  const clusterId = await tx.oneFirst(sql.type(z.object({ clusterId: z.string() }))`
    DELETE FROM tasks WHERE id = ${taskId} RETURNING cluster_id AS "clusterId"`);
  await unscheduleTask(tx, taskId);
  await recordAudit(tx, origin, { clusterId, action: 'task.delete', target: { type: 'task', id: taskId } });
}

/** Starts a run at once, also of a disabled task; 409 while a run of it is under way. */
export async function startManualRun(tx: DatabaseTransactionConnection, origin: Origin, taskId: string): Promise<Job> {
  const clusterId = await tx.oneFirst(sql.type(z.object({ clusterId: z.string() }))`
    SELECT cluster_id AS "clusterId" FROM tasks WHERE id = ${taskId} FOR UPDATE`);
  if (await runUnderway(tx, taskId)) throw conflict('A run of this task is under way; wait for it to end');
  const run = await startRun(tx, origin, taskId, { trigger: 'MANUAL' });
  await recordAudit(tx, origin, { clusterId, action: 'task.run', target: { type: 'task', id: taskId } });
  return run;
}
