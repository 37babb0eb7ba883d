/**
 * Tasks in Postgres: the row and its target servers, the pending occurrence (one graphile-worker job keyed
 * `task:<id>`, written in the same transaction as the row), and the start of a run (the TASK_RUN job, its progress
 * row and the graphile-worker job that executes it).
 *
 * Exactly once: an occurrence is handled under a row lock on the task and only if it still is the task's
 * `next_run_at`; handling it moves `next_run_at` on in the same transaction. A stale, duplicated or replaced
 * scheduler job therefore finds nothing to do, whichever orchestrator process runs it.
 */
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { createJob } from '../jobs/store.ts';
import { task, type LastRunStatus, type Step, type Task } from '../../schema/tasks.ts';
import type { Job } from '../../schema/jobs.ts';
import { handleOccurrence } from '../../schema/schedule.ts';
import { taskOrigin, type Origin } from '../../schema/origin.ts';

/** graphile-worker task that handles a task's pending occurrence (payload `{ taskId, scheduledAt }`). */
export const TRIGGER_TASK = 'tasks__trigger';
/** graphile-worker task that executes or resumes a run (payload `{ jobId }`). */
export const RUN_TASK = 'tasks__run';
export const triggerKey = (taskId: string) => `task:${taskId}`;
export const runKey = (jobId: string) => `task-run:${jobId}`;

/** Time a step may take beyond its delay: the longest child job (a power job's 10 min) and a margin. */
const STEP_ALLOWANCE_MS = 11 * 60_000;
const RUN_MARGIN_MS = 5 * 60_000;
const MAX_TRIGGER_ATTEMPTS = 25;
/** Occurrences skipped during one run that its result lists (an every-minute task under a day-long run: the first). */
const MAX_SKIPPED_LISTED = 100;

export const TASK_COLUMNS = sql.fragment`
  t.id, t.cluster_id AS "clusterId", t.name, t.description, t.schedule, t.timezone,
  coalesce((SELECT array_agg(ts.server_id::text ORDER BY ts.position) FROM task_servers ts WHERE ts.task_id = t.id), '{}') AS "serverIds",
  t.steps, t.only_when_online AS "onlyWhenOnline", t.enabled, t.next_run_at AS "nextRunAt", t.last_run_at AS "lastRunAt",
  t.last_run_status AS "lastRunStatus", t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

export const getTask = (connection: CommonQueryMethods, taskId: string): Promise<Task> =>
  connection.one(sql.type(task)`SELECT ${TASK_COLUMNS} FROM tasks t WHERE t.id = ${taskId}`);

/** Replaces the task's target servers (in the order given). */
export async function setTaskServers(tx: CommonQueryMethods, taskId: string, serverIds: readonly string[]): Promise<void> {
  await tx.query(sql.unsafe`DELETE FROM task_servers WHERE task_id = ${taskId}`);
  await tx.query(sql.unsafe`
    INSERT INTO task_servers (task_id, server_id, position)
    SELECT ${taskId}, server_id, position::int - 1 FROM unnest(${sql.array([...serverIds], 'uuid')}) WITH ORDINALITY AS s (server_id, position)`);
}

/** Sets the pending occurrence and (re)schedules its graphile-worker job; null removes both (disabled task). */
export async function scheduleOccurrence(tx: CommonQueryMethods, taskId: string, at: Date | null): Promise<void> {
  if (at === null) {
    await tx.query(sql.unsafe`UPDATE tasks SET next_run_at = NULL WHERE id = ${taskId}`);
    await tx.query(sql.unsafe`SELECT graphile_worker.remove_job(${triggerKey(taskId)})`);
    return;
  }
  const iso = at.toISOString();
  await tx.query(sql.unsafe`UPDATE tasks SET next_run_at = ${iso}::timestamptz WHERE id = ${taskId}`);
  await tx.query(sql.unsafe`
    SELECT graphile_worker.add_job(${TRIGGER_TASK}, json_build_object('taskId', ${taskId}::text, 'scheduledAt', ${iso}::text),
                                   run_at => ${iso}::timestamptz, job_key => ${triggerKey(taskId)}, job_key_mode => 'replace',
                                   max_attempts => ${MAX_TRIGGER_ATTEMPTS})`);
}

/**
 * The task's status says CANCELLED when the cancelled TASK_RUN `jobId` is its current run (in the cancel's
 * transaction, which holds the job's row lock; tasks are locked after jobs, as everywhere).
 */
export async function recordRunCancelled(tx: CommonQueryMethods, jobId: string): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE tasks t SET last_run_status = 'CANCELLED' FROM jobs j WHERE j.id = ${jobId} AND t.id = j.task_id AND t.last_run_job_id = j.id`);
}

/** Removes the pending occurrence of a task that is being deleted. */
export async function unscheduleTask(tx: CommonQueryMethods, taskId: string): Promise<void> {
  await tx.query(sql.unsafe`SELECT graphile_worker.remove_job(${triggerKey(taskId)})`);
}

const runUnderwayRow = z.object({ underway: z.boolean() });

/** Whether a run of the task has not ended yet (runs of one task never overlap). */
export const runUnderway = (connection: CommonQueryMethods, taskId: string): Promise<boolean> =>
  connection.oneFirst(sql.type(runUnderwayRow)`
    SELECT EXISTS (SELECT 1 FROM jobs WHERE task_id = ${taskId} AND type = 'TASK_RUN' AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')) AS underway`);

/** The longest a run of these steps may take before it EXPIRES (a bound, not an estimate). */
export const runTtlMs = (steps: readonly Step[]): number => steps.reduce((total, step) => total + step.delaySeconds * 1000 + STEP_ALLOWANCE_MS, RUN_MARGIN_MS);

const runSource = z.object({
  clusterId: z.string(),
  steps: z.array(z.unknown()),
  onlyWhenOnline: z.boolean(),
  targets: z.array(z.object({ id: z.string(), online: z.boolean() })),
});

export type RunTrigger = { trigger: 'SCHEDULE'; scheduledAt: Date } | { trigger: 'MANUAL' };

/**
 * Starts a run of the task (locked by the caller): the TASK_RUN job (run by the orchestrator, not an agent), its
 * progress row with the steps and target servers fixed now (`onlyWhenOnline` leaves out servers not ONLINE at this
 * moment), and the graphile-worker job that executes it.
 */
export async function startRun(tx: DatabaseTransactionConnection, origin: Origin, taskId: string, how: RunTrigger): Promise<Job> {
  const source = await tx.one(sql.type(runSource)`
    SELECT t.cluster_id AS "clusterId", t.steps, t.only_when_online AS "onlyWhenOnline",
           coalesce((SELECT json_agg(json_build_object('id', s.id, 'online', s.status = 'ONLINE') ORDER BY ts.position)
                       FROM task_servers ts JOIN servers s ON s.id = ts.server_id WHERE ts.task_id = t.id), '[]') AS targets
      FROM tasks t WHERE t.id = ${taskId}`);
  const steps = source.steps as Step[];
  const serverIds = source.targets.filter((target) => !source.onlyWhenOnline || target.online).map((target) => target.id);
  const skippedServerIds = source.targets.filter((target) => !serverIds.includes(target.id)).map((target) => target.id);
  const created = await createJob(tx, origin, {
    clusterId: source.clusterId,
    serverId: null,
    machineId: null,
    type: 'TASK_RUN',
    params: {
      trigger: how.trigger,
      scheduledAt: how.trigger === 'SCHEDULE' ? how.scheduledAt.toISOString() : null,
      serverIds,
      skippedServerIds,
    },
    taskId,
    dispatch: false,
    ttlMs: runTtlMs(steps),
  });
  await tx.query(sql.unsafe`
    INSERT INTO task_runs (job_id, task_id, steps, server_ids, only_when_online, step_due_at)
    VALUES (${created.id}, ${taskId}, ${sql.jsonb(steps as never)}, ${sql.array(serverIds, 'uuid')}, ${source.onlyWhenOnline},
            now() + make_interval(secs => ${steps[0]?.delaySeconds ?? 0}))`);
  await tx.query(sql.unsafe`
    UPDATE tasks SET last_run_at = now(), last_run_status = 'RUNNING', last_run_job_id = ${created.id}, skipped_occurrences = '[]'
     WHERE id = ${taskId}`);
  await tx.query(sql.unsafe`
    SELECT graphile_worker.add_job(${RUN_TASK}, json_build_object('jobId', ${created.id}::text), job_key => ${runKey(created.id)},
                                   job_key_mode => 'replace', max_attempts => 25)`);
  return created;
}

const occurrenceRow = z.object({ schedule: z.string(), timezone: z.string(), enabled: z.boolean(), due: z.boolean() });

export type OccurrenceOutcome = { outcome: 'STALE' } | { outcome: 'RAN'; job: Job; next: Date } | { outcome: 'MISSED' | 'SKIPPED'; next: Date };

/**
 * Handles the occurrence `scheduledAt` of a task at `now`: ignored when stale (the task is gone, disabled, or its
 * pending occurrence is another one), run if less than one period late, else recorded as MISSED; SKIPPED when the
 * previous run is still under way. A MISSED or SKIPPED occurrence while a run is under way does not replace that
 * run's RUNNING status: it is listed in the run's result instead. The next occurrence is scheduled in the same
 * transaction.
 */
export async function handleTaskOccurrence(pool: DatabasePool, taskId: string, scheduledAt: Date, now: () => Date): Promise<OccurrenceOutcome> {
  return pool.transaction(async (tx) => {
    const row = await tx.maybeOne(sql.type(occurrenceRow)`
      SELECT schedule, timezone, enabled, coalesce(next_run_at = ${scheduledAt.toISOString()}::timestamptz, false) AS due
        FROM tasks WHERE id = ${taskId} FOR UPDATE`);
    if (!row?.enabled || !row.due) return { outcome: 'STALE' } as const;
    const { decision, next } = handleOccurrence(row.schedule, row.timezone, scheduledAt, now());
    await scheduleOccurrence(tx, taskId, next);
    const underway = await runUnderway(tx, taskId);
    const passed = async (status: LastRunStatus) => {
      const iso = scheduledAt.toISOString();
      if (underway) {
        // The run under way keeps saying RUNNING until it ends with its own outcome; the occurrence goes into that
        // run's result (`skippedOccurrences`, the first 100, moved there when it ends: tasks/runner.ts).
        await tx.query(sql.unsafe`
          UPDATE tasks SET skipped_occurrences = skipped_occurrences || jsonb_build_array(jsonb_build_object('scheduledAt', ${iso}::text, 'status', ${status}::text))
           WHERE id = ${taskId} AND jsonb_array_length(skipped_occurrences) < ${MAX_SKIPPED_LISTED}`);
      } else {
        await tx.query(sql.unsafe`
          UPDATE tasks SET last_run_at = ${iso}::timestamptz, last_run_status = ${status}, last_run_job_id = NULL, skipped_occurrences = '[]'
           WHERE id = ${taskId}`);
      }
      return { outcome: status as 'MISSED' | 'SKIPPED', next };
    };
    if (decision === 'MISSED') return passed('MISSED');
    if (underway) return passed('SKIPPED');
    return { outcome: 'RAN', job: await startRun(tx, taskOrigin(taskId), taskId, { trigger: 'SCHEDULE', scheduledAt }), next } as const;
  });
}
