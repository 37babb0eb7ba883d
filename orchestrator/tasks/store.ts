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
import { createJobs } from '../jobs/store.ts';
import { task, type Step, type Task } from '../../schema/tasks.ts';
import type { Job } from '../../schema/jobs.ts';
import { markRunsStarted } from '../jobs/taskRuns.ts';
import { handleOccurrence } from '../../schema/schedule.ts';
import { taskOrigin, type Origin } from '../../schema/origin.ts';

/** graphile-worker task that handles a task's pending occurrence (payload `{ taskId, scheduledAt }`). */
export const TRIGGER_TASK = 'tasks__trigger';
/** graphile-worker task that executes or resumes a run (payload `{ jobId }`). */
export const RUN_TASK = 'tasks__run';
/** The job key of a task's pending occurrence is this and the task's id. */
const TRIGGER_KEY_PREFIX = 'task:';
export const triggerKey = (taskId: string) => `${TRIGGER_KEY_PREFIX}${taskId}`;
/** The job key of a run's graphile-worker job is this and the run's job id. */
export const RUN_KEY_PREFIX = 'task-run:';
export const runKey = (jobId: string) => `${RUN_KEY_PREFIX}${jobId}`;

/** How long a run's lease lasts without renewal; a dead executor's run is resumed this long after its last renewal. */
export const LEASE_MS = 15_000;
/** A run's graphile-worker job (that resumes it) is due this long after its lease ends, at least. */
export const RESUME_AFTER_LEASE_MS = 2_000;
/**
 * How far ahead a leased run's resume job is put when it is (re)scheduled: a renewal (every 5 s) moves it only once it
 * would fall due within RESUME_MIN_AHEAD_MS, about every 20 s per run instead of at every renewal (a storm's 10,000
 * runs rescheduled 2,000 graphile-worker jobs a second). The price: a run whose orchestrator dies is resumed within
 * about 45 s rather than 17 s.
 */
export const RESUME_AHEAD_MS = 45_000;
/** The least a held run's resume job is due after a renewal: the lease's end, the margin, and one more renewal (and slack). */
export const RESUME_MIN_AHEAD_MS = LEASE_MS + RESUME_AFTER_LEASE_MS + 10_000;

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
export const scheduleOccurrence = (tx: CommonQueryMethods, taskId: string, at: Date | null): Promise<void> => scheduleOccurrences(tx, [{ taskId, at }]);

/** `scheduleOccurrence` for several tasks, in one statement per kind of change whatever their number. */
export async function scheduleOccurrences(tx: CommonQueryMethods, occurrences: readonly { taskId: string; at: Date | null }[]): Promise<void> {
  if (occurrences.length === 0) return;
  const ids = occurrences.map((occurrence) => occurrence.taskId);
  const isos = occurrences.map((occurrence) => occurrence.at?.toISOString() ?? null);
  await tx.query(sql.unsafe`
    UPDATE tasks t SET next_run_at = o.at::timestamptz
      FROM unnest(${sql.array(ids, 'uuid')}, ${sql.array(isos, 'text')}) AS o (id, at) WHERE t.id = o.id`);
  const pending = occurrences.filter((occurrence) => occurrence.at !== null);
  if (pending.length > 0) {
    // One add_jobs for all (an add_job per task costs a statement each); a key's job is replaced, as add_job's
    // job_key_mode 'replace' does (a running one keeps running and a new one is made).
    await tx.query(sql.unsafe`
      SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
        SELECT ROW(${TRIGGER_TASK}::text, json_build_object('taskId', o.id::text, 'scheduledAt', o.at), NULL::text, o.at::timestamptz,
                   ${MAX_TRIGGER_ATTEMPTS}::smallint, ${TRIGGER_KEY_PREFIX} || o.id::text, NULL::smallint, NULL::text[])::graphile_worker.job_spec
          FROM unnest(${sql.array(
            pending.map((occurrence) => occurrence.taskId),
            'uuid',
          )}, ${sql.array(
            pending.map((occurrence) => occurrence.at!.toISOString()),
            'text',
          )}) AS o (id, at)))`);
  }
  const removed = occurrences.filter((occurrence) => occurrence.at === null).map((occurrence) => triggerKey(occurrence.taskId));
  if (removed.length > 0) await tx.query(sql.unsafe`SELECT count(graphile_worker.remove_job(key)) FROM unnest(${sql.array(removed, 'text')}) AS key`);
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

/** Whether a run of the task has not ended yet (runs of one task never overlap). */
export const runUnderway = async (connection: CommonQueryMethods, taskId: string): Promise<boolean> => (await runsUnderway(connection, [taskId])).has(taskId);

/** The tasks among `taskIds` with a run that has not ended yet. */
async function runsUnderway(connection: CommonQueryMethods, taskIds: readonly string[]): Promise<Set<string>> {
  const underway = await connection.anyFirst(sql.type(z.object({ taskId: z.string() }))`
    SELECT DISTINCT task_id AS "taskId" FROM jobs
     WHERE task_id = ANY(${sql.array([...taskIds], 'uuid')}) AND type = 'TASK_RUN' AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
  return new Set(underway);
}

/** The longest a run of these steps may take before it EXPIRES (a bound, not an estimate). */
export const runTtlMs = (steps: readonly Step[]): number => steps.reduce((total, step) => total + step.delaySeconds * 1000 + STEP_ALLOWANCE_MS, RUN_MARGIN_MS);

const runSource = z.object({
  id: z.string(),
  clusterId: z.string(),
  steps: z.array(z.unknown()),
  onlyWhenOnline: z.boolean(),
  targets: z.array(z.object({ id: z.string(), online: z.boolean() })),
});

export type RunTrigger = { trigger: 'SCHEDULE'; scheduledAt: Date } | { trigger: 'MANUAL' };

/** A run just started leased to the caller's process, with what it does (for its first step: tasks/runner.ts `startFirstSteps`). */
export type NewRun = { jobId: string; owner: string; taskId: string; steps: readonly Step[]; serverIds: readonly string[] };

/** Starts, in the transaction that created them, the first steps of runs that are due at once (tasks/runner.ts). */
export type FirstStepStarter = (tx: DatabaseTransactionConnection, runs: readonly NewRun[]) => Promise<void>;

/** A run to start: of the task `taskId` (locked by the caller), leased to the caller's process with `leaseOwner`. */
type RunStart = { origin: Origin; taskId: string; how: RunTrigger; leaseOwner?: string };

/**
 * Starts a run of the task (locked by the caller): the TASK_RUN job (run by the orchestrator, not an agent), its
 * progress row with the steps and target servers fixed now (`onlyWhenOnline` leaves out servers not ONLINE at this
 * moment), and the graphile-worker job that executes it. With `leaseOwner` the run is leased to the caller's process
 * at once (RUNNING, its executor is the caller's: tasks/runner.ts), and that job only resumes it if the lease lapses.
 */
export async function startRun(tx: DatabaseTransactionConnection, origin: Origin, taskId: string, how: RunTrigger, leaseOwner?: string): Promise<Job> {
  const [created] = await startRuns(tx, [{ origin, taskId, how, leaseOwner }]);
  return created!.job;
}

/**
 * `startRun` for several tasks (the due occurrences of a minute that thousands of tasks share), in one statement per
 * kind of row whatever their number; answers the runs' jobs in the order given.
 */
async function startRuns(tx: DatabaseTransactionConnection, starts: readonly RunStart[]): Promise<{ job: Job; steps: Step[]; serverIds: string[] }[]> {
  if (starts.length === 0) return [];
  const sources = new Map(
    (
      await tx.any(sql.type(runSource)`
        SELECT t.id, t.cluster_id AS "clusterId", t.steps, t.only_when_online AS "onlyWhenOnline",
               coalesce((SELECT json_agg(json_build_object('id', s.id, 'online', s.status = 'ONLINE') ORDER BY ts.position)
                           FROM task_servers ts JOIN servers s ON s.id = ts.server_id WHERE ts.task_id = t.id), '[]') AS targets
          FROM tasks t WHERE t.id = ANY(${sql.array(
            starts.map((start) => start.taskId),
            'uuid',
          )})`)
    ).map((source) => [source.id, source]),
  );
  const runs = starts.map((start) => {
    const source = sources.get(start.taskId);
    if (!source) throw new Error(`task ${start.taskId} not found`);
    const steps = source.steps as Step[];
    const serverIds = source.targets.filter((target) => !source.onlyWhenOnline || target.online).map((target) => target.id);
    const skippedServerIds = source.targets.filter((target) => !serverIds.includes(target.id)).map((target) => target.id);
    return { start, source, steps, serverIds, skippedServerIds };
  });
  const created = await createJobs(
    tx,
    runs.map(({ start, source, steps, serverIds, skippedServerIds }) => ({
      origin: start.origin,
      input: {
        clusterId: source.clusterId,
        serverId: null,
        machineId: null,
        type: 'TASK_RUN',
        params: {
          trigger: start.how.trigger,
          scheduledAt: start.how.trigger === 'SCHEDULE' ? start.how.scheduledAt.toISOString() : null,
          serverIds,
          skippedServerIds,
        },
        taskId: start.taskId,
        dispatch: false,
        ttlMs: runTtlMs(steps),
      },
    })),
  );
  await tx.query(sql.unsafe`
    INSERT INTO task_runs (job_id, task_id, steps, server_ids, only_when_online, step_due_at, lease_owner, lease_until, resume_due_at)
    VALUES ${sql.join(
      runs.map(({ start, source, steps, serverIds }, index) => {
        const leaseUntil = start.leaseOwner ? sql.fragment`now() + make_interval(secs => ${LEASE_MS / 1000})` : null;
        return sql.fragment`(${created[index]!.id}, ${start.taskId}, ${sql.jsonb(steps as never)}, ${sql.array(serverIds, 'uuid')}, ${source.onlyWhenOnline},
                             now() + make_interval(secs => ${steps[0]?.delaySeconds ?? 0}), ${start.leaseOwner ?? null}::uuid, ${leaseUntil},
                             now() + make_interval(secs => ${start.leaseOwner ? RESUME_AHEAD_MS / 1000 : 0}))`;
      }),
      sql.fragment`, `,
    )}`);
  await markRunsStarted(
    tx,
    created.filter((_, index) => runs[index]!.start.leaseOwner).map((job) => job.id),
  );
  const jobIds = created.map((job) => job.id);
  await tx.query(sql.unsafe`
    UPDATE tasks t SET last_run_at = now(), last_run_status = 'RUNNING', last_run_job_id = r.job_id, skipped_occurrences = '[]'
      FROM unnest(${sql.array(
        starts.map((start) => start.taskId),
        'uuid',
      )}, ${sql.array(jobIds, 'uuid')}) AS r (task_id, job_id)
     WHERE t.id = r.task_id`);
  // The job that executes the run: at once, or (leased) well after the lease's end, to resume it if this process dies.
  await tx.query(sql.unsafe`
    SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
      SELECT ROW(${RUN_TASK}::text, json_build_object('jobId', r.job_id::text), NULL::text,
                 CASE WHEN r.leased THEN now() + make_interval(secs => ${RESUME_AHEAD_MS / 1000}) ELSE now() END,
                 25::smallint, ${RUN_KEY_PREFIX} || r.job_id::text, NULL::smallint, NULL::text[])::graphile_worker.job_spec
        FROM unnest(${sql.array(jobIds, 'uuid')}, ${sql.array(
          starts.map((start) => start.leaseOwner !== undefined),
          'bool',
        )}) AS r (job_id, leased)))`);
  return created.map((job, index) => ({ job, steps: runs[index]!.steps, serverIds: runs[index]!.serverIds }));
}

const occurrenceRow = z.object({ schedule: z.string(), timezone: z.string(), enabled: z.boolean(), due: z.boolean() });

/** A run started leased to the caller's process (`leased`): its lease, for the process's executor to drive. */
export type RunLease = { jobId: string; owner: string };

export type OccurrenceOutcome =
  | { outcome: 'STALE' }
  | { outcome: 'RAN'; taskId: string; scheduledAt: Date; job: Job; next: Date; lease: RunLease | null }
  | { outcome: 'MISSED' | 'SKIPPED'; taskId: string; scheduledAt: Date; next: Date };

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
    const [outcome] = await handleLockedOccurrences(tx, [{ id: taskId, schedule: row.schedule, timezone: row.timezone, scheduledAt }], now(), leased, {
      leaveFailing: false,
    });
    return outcome!;
  });
}

/** Occurrences handled per transaction by `handleDueOccurrences`. */
export const DUE_BATCH = 100;

const dueRow = z.object({ id: z.string(), schedule: z.string(), timezone: z.string(), scheduledAt: z.string() });

/**
 * Handles, in one transaction, up to `limit` occurrences that are due (`next_run_at` passed), after `after` in
 * (next_run_at, id) order, of tasks no other transaction holds (SKIP LOCKED); `next` is where the next batch starts
 * (null: this one was the last): at the minute thousands of tasks share, every orchestrator takes its own batches
 * instead of each occurrence waiting for its own graphile-worker job. Each is handled as by `handleTaskOccurrence`,
 * under its task's row lock and moving `next_run_at` on, so its own job finds it STALE (exactly once either way); the
 * batch is written set-based, in about ten statements whatever its size.
 */
async function handleDueOccurrences(
  pool: DatabasePool,
  now: () => Date,
  leased = false,
  { limit = DUE_BATCH, after = null, firstSteps }: { limit?: number; after?: DueCursor | null; firstSteps?: FirstStepStarter } = {},
): Promise<{ outcomes: OccurrenceOutcome[]; next: DueCursor | null }> {
  return pool.transaction(async (tx) => {
    const due = await tx.any(sql.type(dueRow)`
      SELECT id, schedule, timezone, to_char(next_run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "scheduledAt"
        FROM tasks WHERE enabled AND next_run_at <= now()
         AND (${after?.at ?? null}::timestamptz IS NULL OR (next_run_at, id) > (${after?.at ?? null}::timestamptz, ${after?.id ?? null}::uuid))
       ORDER BY next_run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
    const outcomes = await handleLockedOccurrences(
      tx,
      due.map((task) => ({ ...task, scheduledAt: new Date(task.scheduledAt) })),
      now(),
      leased,
      { leaveFailing: true, firstSteps },
    );
    const last = due.at(-1);
    return { outcomes, next: due.length < limit || !last ? null : { at: last.scheduledAt, id: last.id } };
  });
}

/**
 * All the occurrences due by now, batch after batch (`handleDueOccurrences`) until none is left after the last;
 * `onBatch` has each batch's outcomes as soon as it commits (the runs it started, for the executor to drive at once).
 */
export async function handleAllDueOccurrences(
  pool: DatabasePool,
  now: () => Date,
  leased: boolean,
  onBatch: (outcomes: OccurrenceOutcome[]) => void,
  firstSteps?: FirstStepStarter,
): Promise<{ handled: number; batches: number }> {
  let handled = 0;
  let batches = 0;
  let after: DueCursor | null = null;
  do {
    const batch: { outcomes: OccurrenceOutcome[]; next: DueCursor | null } = await handleDueOccurrences(pool, now, leased, { after, firstSteps });
    onBatch(batch.outcomes);
    handled += batch.outcomes.length;
    batches++;
    after = batch.next;
  } while (after);
  return { handled, batches };
}

/**
 * Where the next batch of due occurrences starts (after this task's): a caller going through them in batches passes
 * over the ones left out (their occurrence cannot be computed), which would otherwise head every batch.
 */
type DueCursor = { at: string; id: string };

type DueOccurrence = { id: string; schedule: string; timezone: string; scheduledAt: Date };

/**
 * The occurrences `scheduledAt` of the tasks `due`, each locked and due (its `next_run_at`), at `now`; the runs they
 * start are leased to the caller's process when `leased` (answered in the outcomes, in the order of `due`). With
 * `leaveFailing`, a task whose occurrence cannot be decided is left out (no outcome) rather than failing them all.
 */
async function handleLockedOccurrences(
  tx: DatabaseTransactionConnection,
  due: readonly DueOccurrence[],
  now: Date,
  leased: boolean,
  { leaveFailing, firstSteps }: { leaveFailing: boolean; firstSteps?: FirstStepStarter },
): Promise<OccurrenceOutcome[]> {
  const decided: ({ task: DueOccurrence } & ReturnType<typeof handleOccurrence>)[] = [];
  for (const task of due) {
    try {
      decided.push({ task, ...handleOccurrence(task.schedule, task.timezone, task.scheduledAt, now) });
    } catch (error) {
      // A task whose occurrence cannot be computed (a time zone this Node no longer knows) must not hold up the others
      // of its batch: it is left as it is, for its own job, which fails with the reason (and is retried).
      if (!leaveFailing) throw error;
    }
  }
  await scheduleOccurrences(
    tx,
    decided.map(({ task, next }) => ({ taskId: task.id, at: next })),
  );
  const underway = await runsUnderway(
    tx,
    decided.map(({ task }) => task.id),
  );
  const outcomes: OccurrenceOutcome[] = [];
  const starts: { index: number; start: RunStart }[] = [];
  for (const [index, { task, decision, next }] of decided.entries()) {
    if (decision === 'MISSED') outcomes[index] = await passOccurrence(tx, task, 'MISSED', underway.has(task.id), next);
    else if (underway.has(task.id)) outcomes[index] = await passOccurrence(tx, task, 'SKIPPED', true, next);
    else {
      const how = { trigger: 'SCHEDULE', scheduledAt: task.scheduledAt } as const;
      starts.push({ index, start: { origin: taskOrigin(task.id), taskId: task.id, how, leaseOwner: leased ? randomUUID() : undefined } });
    }
  }
  const runs = await startRuns(
    tx,
    starts.map(({ start }) => start),
  );
  starts.forEach(({ index, start }, position) => {
    const { job } = runs[position]!;
    const { task, next } = decided[index]!;
    const lease = start.leaseOwner ? { jobId: job.id, owner: start.leaseOwner } : null;
    outcomes[index] = { outcome: 'RAN', taskId: task.id, scheduledAt: task.scheduledAt, job, next, lease };
  });
  if (firstSteps) {
    await firstSteps(
      tx,
      starts.flatMap(({ start }, position) => {
        const { job, steps, serverIds } = runs[position]!;
        return start.leaseOwner ? [{ jobId: job.id, owner: start.leaseOwner, taskId: start.taskId, steps, serverIds }] : [];
      }),
    );
  }
  return outcomes;
}

/** An occurrence not run (MISSED, or SKIPPED because a run is `underway`): recorded on the task. */
async function passOccurrence(
  tx: DatabaseTransactionConnection,
  task: DueOccurrence,
  status: 'MISSED' | 'SKIPPED',
  underway: boolean,
  next: Date,
): Promise<OccurrenceOutcome> {
  const iso = task.scheduledAt.toISOString();
  if (underway) {
    // The run under way keeps saying RUNNING until it ends with its own outcome; the occurrence goes into that
    // run's result (`skippedOccurrences`, the first 100, moved there when it ends: tasks/runner.ts).
    await tx.query(sql.unsafe`
      UPDATE tasks SET skipped_occurrences = skipped_occurrences || jsonb_build_array(jsonb_build_object('scheduledAt', ${iso}::text, 'status', ${status}::text))
       WHERE id = ${task.id} AND jsonb_array_length(skipped_occurrences) < ${MAX_SKIPPED_LISTED}`);
  } else {
    await tx.query(sql.unsafe`
      UPDATE tasks SET last_run_at = ${iso}::timestamptz, last_run_status = ${status}, last_run_job_id = NULL, skipped_occurrences = '[]'
       WHERE id = ${task.id}`);
  }
  return { outcome: status, taskId: task.id, scheduledAt: task.scheduledAt, next };
}
