/**
 * Tasks in Postgres: the row and its target servers, the pending occurrence (one graphile-worker job keyed
 * `task:<id>`, written in the same transaction as the row), and the start of a run (the TASK_RUN job, its progress
 * row and the graphile-worker job that executes it).
 *
 * Exactly once: an occurrence is handled under a row lock on the task and only if it still is the task's
 * `next_run_at`; handling it moves `next_run_at` on in the same transaction. A stale, duplicated or replaced
 * scheduler job therefore finds nothing to do, whichever orchestrator process runs it.
 */
import { randomUUID } from 'node:crypto';
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { createJob } from '../jobs/store.ts';
import { task, type LastRunStatus, type Step, type Task } from '../../schema/tasks.ts';
import type { Job } from '../../schema/jobs.ts';
import { markRunStarted } from '../jobs/taskRuns.ts';
import { handleOccurrence } from '../../schema/schedule.ts';
import { taskOrigin, type Origin } from '../../schema/origin.ts';

/** graphile-worker task that handles a task's pending occurrence (payload `{ taskId, scheduledAt }`). */
export const TRIGGER_TASK = 'tasks__trigger';
/** graphile-worker task that executes or resumes a run (payload `{ jobId }`). */
export const RUN_TASK = 'tasks__run';
export const triggerKey = (taskId: string) => `task:${taskId}`;
/** The job key of a run's graphile-worker job is this and the run's job id. */
export const RUN_KEY_PREFIX = 'task-run:';
export const runKey = (jobId: string) => `${RUN_KEY_PREFIX}${jobId}`;

/** How long a run's lease lasts without renewal; a dead executor's run is resumed this long after its last renewal. */
export const LEASE_MS = 15_000;
/** A run's graphile-worker job (that resumes it) is due this long after its lease ends. */
export const RESUME_AFTER_LEASE_MS = 2_000;

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
 * moment), and the graphile-worker job that executes it. With `leaseOwner` the run is leased to the caller's process
 * at once (RUNNING, its executor is the caller's: tasks/runner.ts), and that job only resumes it if the lease lapses.
 */
export async function startRun(tx: DatabaseTransactionConnection, origin: Origin, taskId: string, how: RunTrigger, leaseOwner?: string): Promise<Job> {
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
  const leaseUntil = leaseOwner ? sql.fragment`now() + make_interval(secs => ${LEASE_MS / 1000})` : null;
  await tx.query(sql.unsafe`
    INSERT INTO task_runs (job_id, task_id, steps, server_ids, only_when_online, step_due_at, lease_owner, lease_until)
    VALUES (${created.id}, ${taskId}, ${sql.jsonb(steps as never)}, ${sql.array(serverIds, 'uuid')}, ${source.onlyWhenOnline},
            now() + make_interval(secs => ${steps[0]?.delaySeconds ?? 0}), ${leaseOwner ?? null}, ${leaseUntil})`);
  if (leaseOwner) await markRunStarted(tx, created.id);
  await tx.query(sql.unsafe`
    UPDATE tasks SET last_run_at = now(), last_run_status = 'RUNNING', last_run_job_id = ${created.id}, skipped_occurrences = '[]'
     WHERE id = ${taskId}`);
  const runAt = leaseOwner ? sql.fragment`now() + make_interval(secs => ${(LEASE_MS + RESUME_AFTER_LEASE_MS) / 1000})` : sql.fragment`now()`;
  await tx.query(sql.unsafe`
    SELECT graphile_worker.add_job(${RUN_TASK}, json_build_object('jobId', ${created.id}::text), job_key => ${runKey(created.id)},
                                   job_key_mode => 'replace', run_at => ${runAt}, max_attempts => 25)`);
  return created;
}

const occurrenceRow = z.object({ schedule: z.string(), timezone: z.string(), enabled: z.boolean(), due: z.boolean() });

/** A run started leased to the caller's process (`leased`): its lease, for the process's executor to drive. */
export type RunLease = { jobId: string; owner: string };

export type OccurrenceOutcome =
  { outcome: 'STALE' } | { outcome: 'RAN'; job: Job; next: Date; lease: RunLease | null } | { outcome: 'MISSED' | 'SKIPPED'; next: Date };

/**
 * Handles the occurrence `scheduledAt` of a task at `now`: ignored when stale (the task is gone, disabled, or its
 * pending occurrence is another one), run if less than one period late, else recorded as MISSED; SKIPPED when the
 * previous run is still under way. A MISSED or SKIPPED occurrence while a run is under way does not replace that
 * run's RUNNING status: it is listed in the run's result instead. The next occurrence is scheduled in the same
 * transaction.
 */
export async function handleTaskOccurrence(pool: DatabasePool, taskId: string, scheduledAt: Date, now: () => Date, leased = false): Promise<OccurrenceOutcome> {
  return pool.transaction(async (tx) => {
    const row = await tx.maybeOne(sql.type(occurrenceRow)`
      SELECT schedule, timezone, enabled, coalesce(next_run_at = ${scheduledAt.toISOString()}::timestamptz, false) AS due
        FROM tasks WHERE id = ${taskId} FOR UPDATE`);
    if (!row?.enabled || !row.due) return { outcome: 'STALE' } as const;
    return handleLockedOccurrence(tx, taskId, row, scheduledAt, now(), leased);
  });
}

/** Occurrences handled per transaction by `handleDueOccurrences`. */
export const DUE_BATCH = 100;

const dueRow = z.object({ id: z.string(), schedule: z.string(), timezone: z.string(), scheduledAt: z.string() });

/**
 * Handles, in one transaction, up to `limit` occurrences that are due (`next_run_at` passed) of tasks no other
 * transaction holds (SKIP LOCKED): at the minute thousands of tasks share, every orchestrator takes its own batches
 * instead of each occurrence waiting for its own graphile-worker job. Each is handled as by `handleTaskOccurrence`,
 * under its task's row lock and moving `next_run_at` on, so its own job finds it STALE (exactly once either way).
 */
export async function handleDueOccurrences(pool: DatabasePool, now: () => Date, leased = false, limit = DUE_BATCH): Promise<OccurrenceOutcome[]> {
  return pool.transaction(async (tx) => {
    const due = await tx.any(sql.type(dueRow)`
      SELECT id, schedule, timezone, to_char(next_run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "scheduledAt"
        FROM tasks WHERE enabled AND next_run_at <= now()
       ORDER BY next_run_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
    const outcomes: OccurrenceOutcome[] = [];
    for (const task of due) outcomes.push(await handleLockedOccurrence(tx, task.id, task, new Date(task.scheduledAt), now(), leased));
    return outcomes;
  });
}

/**
 * The occurrence `scheduledAt` of the task `taskId`, locked and due (its `next_run_at`), at `now`; a run it starts is
 * leased to the caller's process when `leased` (answered in the outcome).
 */
async function handleLockedOccurrence(
  tx: DatabaseTransactionConnection,
  taskId: string,
  row: { schedule: string; timezone: string },
  scheduledAt: Date,
  now: Date,
  leased: boolean,
): Promise<OccurrenceOutcome> {
  const { decision, next } = handleOccurrence(row.schedule, row.timezone, scheduledAt, now);
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
  const owner = leased ? randomUUID() : undefined;
  const job = await startRun(tx, taskOrigin(taskId), taskId, { trigger: 'SCHEDULE', scheduledAt }, owner);
  return { outcome: 'RAN', job, next, lease: owner ? { jobId: job.id, owner } : null } as const;
}
