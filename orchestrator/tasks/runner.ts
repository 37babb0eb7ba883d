/**
 * Executes a TASK_RUN: its steps in order, each on every target server at once through the normal jobs (START,
 * STOP, RESTART, RCON, BROADCAST, WIPE — child jobs carrying the task's id), waiting for them to end (LISTEN, no
 * polling), honouring each step's `delaySeconds` (a wait before the step) and `continueOnFailure`.
 *
 * A run never stays unfinished, and never runs a step twice:
 * - progress lives in `task_runs` (the step, when it is due, its child jobs once created — created in the same
 *   transaction that records them), so a run can be resumed from where it was;
 * - the executing process holds a lease it renews every few seconds, and keeps the run's graphile-worker job
 *   (`task-run:<jobId>`) scheduled after the lease's end (moved ahead only when it comes near: renewLeases). If the
 *   process dies, that job fires on another (or the restarted) orchestrator, which takes the lapsed lease over and
 *   goes on; on a graceful shutdown the lease is handed over at once;
 * - a child job always ends (an agent that never answers makes it EXPIRE), which fails its step with that reason;
 * - past its own `expiresAt` (every delay plus a generous allowance per step) a run ends EXPIRED.
 *
 * Steps on a server that is not ONLINE: a BROADCAST is skipped (nobody to warn), an RCON fails (it needs a running
 * server, as the RCON API's 409 says), the other types are sent as they are.
 */
import { randomUUID } from 'node:crypto';
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { batched } from '../../sql/batched.ts';
import type { JobWaiters } from '../jobs/waiters.ts';
import { acceptStepJobs } from '../jobs/serverJobs.ts';
import { addSkippedOccurrences, endRun, markRunStarted } from '../jobs/taskRuns.ts';
import { requestBackup } from '../backups/store.ts';
import { AppError } from '../../schema/errors.ts';
import { JOB_STATUSES, FINISHED_STATUSES, type Job, type JobStatus } from '../../schema/jobs.ts';
import { storedStep, type Step } from '../../schema/tasks.ts';
import { transferConflict } from '../../schema/transfers.ts';
import {
  LEASE_MS,
  RESUME_AFTER_LEASE_MS,
  RESUME_AHEAD_MS,
  RESUME_MIN_AHEAD_MS,
  RUN_KEY_PREFIX,
  RUN_TASK,
  runKey,
  type NewRun,
  type RunLease,
} from './store.ts';
import type { Logger } from '../../schema/logger.ts';
import { taskOrigin } from '../../schema/origin.ts';

const RENEW_EVERY_MS = 5_000;
/** After a child job's own expiry, how long its end is still awaited before the step counts it as failed. */
const CHILD_GRACE_MS = 60_000;

export type RunnerDeps = { pool: DatabasePool; jobWaiters: JobWaiters };

type ChildEntry = { serverId: string; jobId: string | null; status: JobStatus | 'SKIPPED'; error: { code: string; message: string } | null };

const childEntry = z.object({
  serverId: z.string(),
  jobId: z.string().nullable(),
  status: z.union([z.enum(JOB_STATUSES), z.literal('SKIPPED')]),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
const runState = z.object({
  taskId: z.string(),
  clusterId: z.string(),
  status: z.enum(JOB_STATUSES),
  expired: z.boolean(),
  taskExists: z.boolean(),
  steps: z.array(storedStep),
  serverIds: z.array(z.string()),
  stepIndex: z.int(),
  dueInMs: z.number(),
  stepJobs: z.array(childEntry).nullable(),
  outcomes: z.array(z.unknown()),
});
type RunState = z.infer<typeof runState>;

/** One `make(pool)` per pool: the batchers of the runs a process drives (one per pool, as the executor is). */
function perPool<T>(make: (pool: DatabasePool) => T): (pool: DatabasePool) => T {
  const made = new WeakMap<DatabasePool, T>();
  return (pool) => {
    let value = made.get(pool);
    if (value === undefined) {
      value = make(pool);
      made.set(pool, value);
    }
    return value;
  };
}

/**
 * The reads of the runs this process drives go together: a minute's storm of runs reads its states and its child
 * jobs at the same moments, and each batch is one statement instead of one per run (sql/batched.ts).
 */
function batchedReads<R>(read: (pool: DatabasePool, ids: string[]) => Promise<Map<string, R>>, what: string) {
  const reader = perPool((pool) =>
    batched(async (ids: string[]) => {
      const found = await read(pool, ids);
      return ids.map((key) => found.get(key));
    }),
  );
  return async (pool: DatabasePool, id: string): Promise<R> => {
    // A row that is gone (its cluster deleted) fails the run that asked, not the batch it was read in.
    const row = await reader(pool).add(id);
    if (row === undefined) throw new Error(`${what} ${id} not found`);
    return row;
  };
}

const readRunState = batchedReads(
  async (pool, jobIds) =>
    new Map(
      (
        await pool.any(sql.type(runState.extend({ jobId: z.string() }))`
          SELECT r.job_id AS "jobId", r.task_id AS "taskId", j.cluster_id AS "clusterId", j.status, j.expires_at <= now() AS expired,
                 EXISTS (SELECT 1 FROM tasks t WHERE t.id = r.task_id) AS "taskExists",
                 r.steps, r.server_ids::text[] AS "serverIds", r.step_index AS "stepIndex",
                 greatest(0, extract(epoch FROM r.step_due_at - now()) * 1000)::float8 AS "dueInMs", r.step_jobs AS "stepJobs", r.outcomes
            FROM task_runs r JOIN jobs j ON j.id = r.job_id WHERE r.job_id = ANY(${sql.array(jobIds, 'uuid')})`)
      ).map(({ jobId, ...state }) => [jobId, state as RunState]),
    ),
  'task run',
);

class LeaseLost extends Error {}

/**
 * Resolves when `signal` aborts, at once if it already has: a wait that began after the abort (the process stopping
 * while a run read its state) would otherwise last until its own end (a child job's expiry: minutes).
 */
const whenAborted = (signal: AbortSignal): Promise<void> =>
  signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

/** Keeps the run's graphile-worker job due after the lease ends: it resumes the run if this process dies. */
const scheduleResume = (connection: CommonQueryMethods, jobId: string, afterMs: number) =>
  connection.query(sql.unsafe`
    WITH due AS (UPDATE task_runs SET resume_due_at = now() + make_interval(secs => ${afterMs / 1000}) WHERE job_id = ${jobId})
    SELECT graphile_worker.add_job(${RUN_TASK}, json_build_object('jobId', ${jobId}::text), job_key => ${runKey(jobId)},
                                   job_key_mode => 'replace', run_at => now() + make_interval(secs => ${afterMs / 1000}), max_attempts => 25)`);

/** Takes the run's lease when no live process holds it (the run's job QUEUED or RUNNING): it is RUNNING from then on. */
async function claimRun(pool: DatabasePool, jobId: string, owner: string): Promise<boolean> {
  const claimed = await pool.transaction(async (tx) => {
    const row = await tx.maybeOneFirst(sql.type(z.object({ jobId: z.string() }))`
      UPDATE task_runs r SET lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${LEASE_MS / 1000})
        FROM jobs j
       WHERE r.job_id = ${jobId} AND j.id = r.job_id AND j.status IN ('QUEUED', 'RUNNING')
         AND (r.lease_until IS NULL OR r.lease_until < now())
      RETURNING r.job_id AS "jobId"`);
    if (!row) return false;
    await markRunStarted(tx, jobId);
    await scheduleResume(tx, jobId, LEASE_MS + RESUME_AFTER_LEASE_MS);
    return true;
  });
  if (!claimed) {
    // Ended without running (cancelled while QUEUED; the cancel says so on the task already): only if it still is
    // the task's current run does the task take its status.
    await pool.query(sql.unsafe`
      UPDATE tasks t SET last_run_status = j.status FROM jobs j
       WHERE j.id = ${jobId} AND t.id = j.task_id AND t.last_run_job_id = j.id AND j.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED')`);
  }
  return claimed;
}

type Lease = RunLease;

/** A run's lease as one key: its job and its owner (a run taken over has another owner). */
const leaseKey = (lease: { jobId: string; owner: string }) => `${lease.jobId} ${lease.owner}`;

/** The leases as rows (job_id, owner) of a FROM clause. */
const leaseRows = (leases: readonly Lease[]) =>
  sql.fragment`unnest(${sql.array(
    leases.map((lease) => lease.jobId),
    'uuid',
  )}, ${sql.array(
    leases.map((lease) => lease.owner),
    'uuid',
  )})`;

/**
 * Renews the leases still held, in one statement however many (a storm of runs renews thousands every few seconds),
 * and moves the resume job of each one whose job would fall due less than RESUME_MIN_AHEAD_MS from now (past the new
 * lease's end, the next renewal's and a margin) to RESUME_AHEAD_MS from now. Answers the runs whose lease was renewed:
 * the others were taken over and their executors stop.
 */
export async function renewLeases(pool: DatabasePool, leases: readonly Lease[]): Promise<Set<string>> {
  if (leases.length === 0) return new Set();
  const renewed = await pool.anyFirst(sql.type(z.object({ jobId: z.string() }))`
    WITH held AS MATERIALIZED (
      -- Locked in id order, as every batch that writes runs' rows locks them (a lock taken in plan order deadlocked
      -- with the step starts and advances of the same runs).
      SELECT r.job_id FROM task_runs r JOIN ${leaseRows(leases)} AS h (job_id, owner) ON r.job_id = h.job_id AND r.lease_owner = h.owner
       ORDER BY r.job_id FOR UPDATE OF r
    ), renewed AS (
      UPDATE task_runs r SET lease_until = now() + make_interval(secs => ${LEASE_MS / 1000}),
                             resume_due_at = CASE WHEN r.resume_due_at IS NULL OR r.resume_due_at < now() + make_interval(secs => ${RESUME_MIN_AHEAD_MS / 1000})
                                                  THEN now() + make_interval(secs => ${RESUME_AHEAD_MS / 1000}) ELSE r.resume_due_at END
        FROM held WHERE r.job_id = held.job_id
      RETURNING r.job_id, r.resume_due_at = now() + make_interval(secs => ${RESUME_AHEAD_MS / 1000}) AS moved
    ), added AS (
      -- One add_jobs for all (set-based; an add_job per run costs a statement each inside).
      SELECT count(*) AS n FROM (SELECT array_agg(ROW(
               ${RUN_TASK}::text, json_build_object('jobId', job_id::text), NULL::text,
               now() + make_interval(secs => ${RESUME_AHEAD_MS / 1000}), 25::smallint, ${RUN_KEY_PREFIX} || job_id::text, NULL::smallint, NULL::text[]
             )::graphile_worker.job_spec) AS specs FROM renewed WHERE moved) s
       CROSS JOIN LATERAL graphile_worker.add_jobs(s.specs) WHERE s.specs IS NOT NULL
    )
    SELECT renewed.job_id AS "jobId" FROM renewed CROSS JOIN added`);
  return new Set(renewed);
}

/**
 * Drives a run whose lease `owner` holds until it ends, the lease is lost (`lost`) or the process stops (`stopping`):
 * then the run is handed over at once (another orchestrator, or this one when it is back, resumes it).
 */
async function runClaimed(deps: RunnerDeps, lease: Lease, lost: AbortSignal, stopping: AbortSignal): Promise<void> {
  const abort = AbortSignal.any([stopping, lost]);
  try {
    await drive(deps, lease.jobId, lease.owner, abort);
  } catch (error) {
    if (!(error instanceof LeaseLost) && !abort.aborted) throw error;
  }
  if (stopping.aborted && !lost.aborted) await handOver(deps.pool, lease, 1_000);
}

/** Gives the lease up; the run's resume job fires after `afterMs` (on whichever orchestrator takes it). */
const handOver = (pool: DatabasePool, { jobId, owner }: Lease, afterMs: number) =>
  pool.transaction(async (tx) => {
    const released = await tx.query(sql.unsafe`
      UPDATE task_runs SET lease_owner = NULL, lease_until = NULL WHERE job_id = ${jobId} AND lease_owner = ${owner}`);
    if (released.rowCount === 1) await scheduleResume(tx, jobId, afterMs);
  });

/** Executes or resumes the run `jobId` until it ends; returns at once when another live process holds it or it has ended. */
export async function executeRun(deps: RunnerDeps, jobId: string, signal: AbortSignal): Promise<void> {
  const lease = { jobId, owner: randomUUID() };
  if (!(await claimRun(deps.pool, jobId, lease.owner))) return;
  // The lease is renewed while the run goes on; losing it (another process took over) stops this executor.
  const lost = new AbortController();
  const renew = async () => {
    if (!(await renewLeases(deps.pool, [lease])).has(jobId)) lost.abort(new LeaseLost());
  };
  const timer = setInterval(() => void renew().catch(() => lost.abort(new LeaseLost())), RENEW_EVERY_MS);
  try {
    await runClaimed(deps, lease, lost.signal, signal);
  } finally {
    clearInterval(timer);
  }
}

/** After an unexpected error, how long before the run is resumed (its resume job), by whichever orchestrator. */
const RETRY_AFTER_MS = 5_000;

export type RunExecutor = {
  /** Claims the run's lease (when no live process holds it) and drives it in the background; resolves once claimed. */
  take: (jobId: string) => Promise<void>;
  /** Drives a run already leased to this process (started leased by the scheduler: tasks/store.ts). */
  adopt: (lease: RunLease) => void;
  stop: () => Promise<void>;
};

/**
 * The process's executor of runs: `take` claims a run's lease and returns, the run going on in the background, so a
 * run waiting out its steps (a 30 s warning, an hour's delay) holds no graphile-worker slot, and a storm of runs due at
 * the same minute all go on at once. The leases held are renewed together, in one statement every few seconds. On
 * `stop` every run is handed over at once. A run that fails unexpectedly is handed over too, resumed a few seconds
 * later (its expiry still bounds it).
 */
export function createRunExecutor(deps: RunnerDeps & { logger: Logger }): RunExecutor {
  /** The runs driven, each with when its lease was last known to be renewed (performance.now(), at or before it). */
  const held = new Map<string, { lease: Lease; lost: AbortController; renewedAt: number }>();
  const drives = new Set<Promise<void>>();
  const stopping = new AbortController();
  const stopDriving = (entries: readonly { lease: Lease; lost: AbortController }[]) => {
    // Only the entry of that lease (a run taken again since has a new one).
    for (const entry of entries) if (held.get(entry.lease.jobId) === entry) entry.lost.abort(new LeaseLost());
  };
  const renew = async () => {
    const entries = [...held.values()];
    const startedAt = performance.now();
    let renewed: Set<string>;
    try {
      renewed = await renewLeases(
        deps.pool,
        entries.map((entry) => entry.lease),
      );
    } catch (error) {
      // The runs go on while their leases surely last (a failed renewal is tried again at the next beat; every write of a
      // run checks that its lease is still this executor's). A run whose lease may lapse before the next try stops: its
      // resume job, due well after the lease's end, takes it over (here or elsewhere).
      const lapsing = entries.filter((entry) => startedAt - entry.renewedAt >= LEASE_MS - RENEW_EVERY_MS);
      deps.logger.warn({ err: error, runs: entries.length, stopped: lapsing.length }, 'task runs: renewing the leases failed; tried again shortly');
      stopDriving(lapsing);
      return;
    }
    for (const entry of entries) if (renewed.has(entry.lease.jobId)) entry.renewedAt = startedAt;
    stopDriving(entries.filter((entry) => !renewed.has(entry.lease.jobId)));
  };
  // One renewal at a time: a beat that finds the previous one still running is skipped (not queued behind it).
  let renewing: Promise<void> | null = null;
  const timer = setInterval(() => {
    renewing ??= renew().finally(() => (renewing = null));
  }, RENEW_EVERY_MS);
  /** Drives the run once `claimed` says its lease is held (tracked from the start, so a stop meanwhile waits for it). */
  const start = (lease: Lease, claimed: Promise<boolean>) => {
    const lost = new AbortController();
    // The lease was taken at or after this moment (the claim, or the batch that started the run, committed since).
    const takenAt = performance.now();
    const driving = (async () => {
      if (!(await claimed.catch(() => false))) return;
      // Renewed from now on (not before the claim committed: the renewal would find it not held).
      held.set(lease.jobId, { lease, lost, renewedAt: takenAt });
      await runClaimed(deps, lease, lost.signal, stopping.signal);
    })()
      .catch(async (error: unknown) => {
        deps.logger.error({ err: error, jobId: lease.jobId }, 'task run failed unexpectedly; it is resumed shortly');
        await handOver(deps.pool, lease, RETRY_AFTER_MS).catch(() => undefined);
      })
      .finally(() => {
        if (held.get(lease.jobId)?.lease === lease) held.delete(lease.jobId);
        drives.delete(driving);
      });
    drives.add(driving);
  };
  return {
    async take(jobId) {
      // Stopping: the run's job fails, so graphile-worker keeps it and it runs again (on another orchestrator, or here
      // once restarted). Answering as if done would delete it, and a run just handed over would then wait for its
      // expiry with nobody to resume it.
      if (stopping.signal.aborted) throw new Error(`run ${jobId} not taken: this orchestrator is stopping`);
      // Driven here already, unless its driver was stopped (its lease lapsing): then the run is taken again.
      const driven = held.get(jobId);
      if (driven && !driven.lost.signal.aborted) return;
      const lease = { jobId, owner: randomUUID() };
      // A failed claim fails the graphile-worker job (retried); only the drive goes on in the background.
      const claimed = claimRun(deps.pool, jobId, lease.owner);
      start(lease, claimed);
      await claimed;
    },
    adopt(lease) {
      // Stopping: handed over at once rather than left to lapse.
      if (stopping.signal.aborted) void handOver(deps.pool, lease, 1_000).catch(() => undefined);
      else start(lease, Promise.resolve(true));
    },
    async stop() {
      stopping.abort();
      clearInterval(timer);
      await Promise.allSettled([...drives, renewing]);
    },
  };
}

/** Runs within the lease: every write is conditional on still holding it. */
async function drive(deps: RunnerDeps, jobId: string, owner: string, signal: AbortSignal): Promise<void> {
  const { pool } = deps;
  for (;;) {
    signal.throwIfAborted();
    const state = await readRunState(pool, jobId);
    if (FINISHED_STATUSES.has(state.status)) return finish(pool, jobId, owner, state, null);
    if (!state.taskExists)
      return finish(pool, jobId, owner, state, { status: 'CANCELLED', code: 'TASK_DELETED', message: 'the task was deleted during the run' });
    if (state.expired)
      return finish(pool, jobId, owner, state, {
        status: 'EXPIRED',
        code: 'EXPIRED',
        message: 'the run did not finish before its expiry (no orchestrator could go on with it)',
      });
    if (state.stepIndex >= state.steps.length) return finish(pool, jobId, owner, state, null);
    if (state.serverIds.length === 0) return finish(pool, jobId, owner, state, null);
    const step = state.steps[state.stepIndex]!;
    let children = state.stepJobs;
    if (!children) {
      if (state.dueInMs > 0) {
        // Waits out the step's delay, then looks again (the task may have been deleted meanwhile); a cancel (the
        // job's end) cuts the wait short, so a cancelled run ends now rather than after the delay.
        await Promise.race([deps.jobWaiters.waitForEnd(jobId, state.dueInMs), whenAborted(signal)]);
        continue;
      }
      children = await startStep(pool, jobId, owner, state, step);
      // The run ended meanwhile (cancelled): no step is started, and the next look finishes it.
      if (!children) continue;
    }
    const ended = await Promise.all(children.map((child) => awaitChild(deps, child, signal)));
    const failed = ended.filter((child) => child.status !== 'SUCCEEDED' && child.status !== 'SKIPPED');
    const outcome = { index: state.stepIndex, type: step.type, jobs: ended };
    const next = state.steps[state.stepIndex + 1];
    let ending: Ending = null;
    if (failed.length > 0 && !step.continueOnFailure) {
      const first = failed[0]!;
      const message =
        `step ${state.stepIndex + 1} (${step.type}) failed on server ${first.serverId}` +
        (first.error ? `: ${first.error.code}: ${first.error.message}` : `: its job ended ${first.status}`) +
        (failed.length > 1 ? ` (and on ${failed.length - 1} more server${failed.length > 2 ? 's' : ''})` : '');
      ending = { status: 'FAILED', code: 'STEP_FAILED', message };
    }
    const advance = { jobId, owner, stepIndex: state.stepIndex, outcome, delaySeconds: next?.delaySeconds ?? 0 };
    if (!ending) {
      if (!(await advancer(pool).add(advance))) throw new LeaseLost();
      continue;
    }
    // The step's outcome and, when it fails the run, the run's end are written together: a run is never left
    // advanced past a failed step without having ended (a crash in between would start the next step).
    await pool.transaction(async (tx) => {
      if (!(await advanceRuns(tx, [advance])).has(leaseKey(advance))) throw new LeaseLost();
      await finishIn(tx, jobId, owner, { ...state, outcomes: [...state.outcomes, outcome] }, ending);
    });
    return;
  }
}

type StepStart = { jobId: string; owner: string; state: Pick<RunState, 'taskId' | 'serverIds'>; step: Step };
/**
 * A step started (its child entries), not started because the run is no longer RUNNING (null), the lease lost, or
 * refused (the error a run started alone would have failed with).
 */
type StepStarted = ChildEntry[] | null | 'LEASE_LOST' | { refused: Error };

/**
 * The steps that start at once in this process (a minute's storm of runs reaches its first step together) are
 * started together: in one transaction, with one statement per kind of row, however many runs (the child jobs
 * accepted together too: acceptStepJobs). Should the batch fail, each run is started again on its own (sql/batched.ts), so one run's
 * failure is never another's.
 */
const stepStarter = perPool((pool) => batched((starts: StepStart[]) => pool.transaction((tx) => startSteps(tx, starts))));

/** Creates the step's child jobs and records them, in one transaction (so a resumed run never creates them twice). */
async function startStep(pool: DatabasePool, jobId: string, owner: string, state: RunState, step: Step): Promise<ChildEntry[] | null> {
  const started = await stepStarter(pool).add({ jobId, owner, state, step });
  if (started === 'LEASE_LOST') throw new LeaseLost();
  if (started !== null && 'refused' in started) throw started.refused;
  return started;
}

/**
 * Starts the first step of runs created leased in the caller's transaction (a minute's batch of due occurrences),
 * when it is due at once: their child jobs (the 4 a.m. warning) are accepted as the runs are, instead of once their
 * executor has read them back. In a savepoint: should it fail, or refuse a run (a server being transferred), those
 * steps are left unstarted and each run's executor starts its step as it would have (and meets the refusal itself).
 */
export async function startFirstSteps(
  tx: DatabaseTransactionConnection,
  runs: readonly NewRun[],
  onLeft?: (error: unknown, runs: number) => void,
): Promise<void> {
  const starts = runs.flatMap((run) => {
    const step = run.steps[0];
    return step && step.delaySeconds === 0 && run.serverIds.length > 0
      ? [{ jobId: run.jobId, owner: run.owner, state: { taskId: run.taskId, serverIds: [...run.serverIds] }, step }]
      : [];
  });
  if (starts.length === 0) return;
  // A refused run records no step (startSteps leaves it out); whatever went wrong is rolled back to the savepoint (not
  // retried: the executors are the fallback). Either way those runs' executors start the steps on their own. A lock
  // held elsewhere (a server's) is waited for FIRST_STEP_LOCK_TIMEOUT at most, so the batch, holding its tasks' rows,
  // never waits long for an optimisation.
  await tx
    .transaction(async (savepoint) => {
      const previous = await savepoint.oneFirst(sql.type(z.object({ value: z.string() }))`SELECT current_setting('lock_timeout') AS value`);
      await savepoint.query(sql.unsafe`SELECT set_config('lock_timeout', ${FIRST_STEP_LOCK_TIMEOUT}, true)`);
      await startSteps(savepoint, starts);
      await savepoint.query(sql.unsafe`SELECT set_config('lock_timeout', ${previous}, true)`);
    }, 0)
    .catch((error: unknown) => onLeft?.(error, starts.length));
}

/** How long the first steps started with their runs wait for a lock (a server's) before they are left to the executors. */
const FIRST_STEP_LOCK_TIMEOUT = '2s';

type Advance = { jobId: string; owner: string; stepIndex: number; outcome: unknown; delaySeconds: number };

/**
 * Steps' outcomes recorded and their runs moved on to their next step (due after its delay), each while its lease is
 * held and it is still at that step (so a batch run again after a commit whose answer was lost moves no run twice), in
 * one statement; answers the runs moved on (by lease).
 */
async function advanceRuns(connection: CommonQueryMethods, advances: readonly Advance[]): Promise<Set<string>> {
  const advanced = await connection.any(sql.type(z.object({ jobId: z.string(), owner: z.string() }))`
    WITH a AS (
      SELECT * FROM jsonb_to_recordset(${sql.jsonb(
        advances.map((advance) => ({
          job_id: advance.jobId,
          owner: advance.owner,
          step_index: advance.stepIndex,
          outcome: advance.outcome,
          delay_seconds: advance.delaySeconds,
        })) as never,
      )}) AS a (job_id uuid, owner uuid, step_index integer, outcome jsonb, delay_seconds double precision)
    ), held AS MATERIALIZED (
      -- Locked in id order (see renewLeases).
      SELECT r.job_id FROM task_runs r JOIN a ON r.job_id = a.job_id AND r.lease_owner = a.owner AND r.step_index = a.step_index
       ORDER BY r.job_id FOR UPDATE OF r
    )
    UPDATE task_runs r SET outcomes = r.outcomes || jsonb_build_array(a.outcome), step_index = r.step_index + 1, step_jobs = NULL,
                           step_due_at = now() + make_interval(secs => a.delay_seconds)
      FROM held JOIN a ON a.job_id = held.job_id
     WHERE r.job_id = held.job_id AND r.lease_owner = a.owner AND r.step_index = a.step_index
    RETURNING r.job_id AS "jobId", r.lease_owner AS owner`);
  return new Set(advanced.map(leaseKey));
}

/** The runs that move on together, not ending, do so in one statement (`advanceRuns`). */
const advancer = perPool((pool) =>
  batched(async (advances: Advance[]) => {
    const advanced = await advanceRuns(pool, advances);
    return advances.map((advance) => advanced.has(leaseKey(advance)));
  }),
);

async function startSteps(tx: DatabaseTransactionConnection, starts: readonly StepStart[]): Promise<StepStarted[]> {
  // Each run's progress row, while its lease is held and its step not yet started; locked in id order.
  const held = new Set(
    (
      await tx.any(sql.type(z.object({ jobId: z.string(), owner: z.string() }))`
        SELECT r.job_id AS "jobId", r.lease_owner AS owner FROM task_runs r
          JOIN ${leaseRows(starts)} AS h (job_id, owner) ON h.job_id = r.job_id AND h.owner = r.lease_owner
         WHERE r.step_jobs IS NULL ORDER BY r.job_id FOR UPDATE OF r`)
    ).map(leaseKey),
  );
  // Shares the lock a cancel takes (jobs/cancel.ts): a run cancelled by now starts no step.
  const runningIds = new Set(
    await tx.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id FROM (SELECT id, status FROM jobs WHERE id = ANY(${sql.array(
        starts.filter((start) => held.has(leaseKey(start))).map((start) => start.jobId),
        'uuid',
      )}) ORDER BY id FOR SHARE) j WHERE status = 'RUNNING'`),
  );
  // The runs whose step starts here (a run given twice, which its executor never does, starts once).
  const seen = new Set<string>();
  const starting = starts.map((start) => {
    const key = leaseKey(start);
    const first = !seen.has(key);
    seen.add(key);
    return first && held.has(key) && runningIds.has(start.jobId);
  });
  const serverIds = [...new Set(starts.flatMap((start, index) => (starting[index] ? start.state.serverIds : [])))];
  // Every target server locked first, in id order (before any child's accept, a backup's included: two batches never
  // wait on each other), and read as locked: a server's status, and (in the next statement, which sees what committed
  // while this one waited) a transfer under way, are as the children's accepts will find them.
  const statuses = new Map(
    (
      await tx.any(sql.type(z.object({ id: z.string(), status: z.string() }))`
        SELECT id, status FROM servers WHERE id = ANY(${sql.array(serverIds.toSorted(), 'uuid')}) ORDER BY id FOR NO KEY UPDATE`)
    ).map((row) => [row.id, row.status]),
  );
  // A server being transferred takes no job (its accept would refuse it, failing the whole batch): the runs with a
  // child there fail on their own, as one started alone would (a START or RESTART records the refusal instead).
  const transferring = new Map(
    (
      await tx.any(sql.type(z.object({ serverId: z.string(), jobId: z.string() }))`
        SELECT server_id AS "serverId", job_id AS "jobId" FROM transfers WHERE server_id = ANY(${sql.array(serverIds, 'uuid')}) AND finished_at IS NULL`)
    ).map((row) => [row.serverId, row.jobId]),
  );
  const refused = new Map<number, Error>();
  const childOf = (step: Step, serverId: string): ChildEntry | 'CREATE' => {
    const status = statuses.get(serverId);
    const entry = (jobStatus: ChildEntry['status'], error: ChildEntry['error'] = null): ChildEntry => ({ serverId, jobId: null, status: jobStatus, error });
    if (!status) return entry('FAILED', { code: 'SERVER_NOT_FOUND', message: 'the server was deleted' });
    if (step.type === 'BROADCAST' && status !== 'ONLINE') return entry('SKIPPED');
    if (step.type === 'RCON' && status !== 'ONLINE') return entry('FAILED', { code: 'NOT_RUNNING', message: `the server is ${status}, not running` });
    return 'CREATE';
  };
  starts.forEach(({ state, step }, index) => {
    if (!starting[index] || step.type === 'START' || step.type === 'RESTART') return;
    const blocked = state.serverIds.find((serverId) => transferring.has(serverId) && childOf(step, serverId) === 'CREATE');
    if (blocked) refused.set(index, transferConflict(transferring.get(blocked)!));
  });
  // The child jobs by step type, then server (the order their jobs are written in); their servers were locked above,
  // all in id order, and the job counters are taken in one slot per transaction, so batches do not deadlock.
  const wanted = starts.flatMap((start, index) =>
    starting[index] && !refused.has(index) ? start.state.serverIds.map((serverId, position) => ({ index, position, serverId, type: start.step.type })) : [],
  );
  wanted.sort((a, b) => (a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.serverId < b.serverId ? -1 : a.serverId > b.serverId ? 1 : a.index - b.index));
  const children = starts.map((start) => new Array<ChildEntry>(start.state.serverIds.length));
  // A backup's job comes with its backup row (one at a time); every other child job of the batch is accepted together.
  const together: { index: number; position: number; serverId: string; step: Step }[] = [];
  for (const { index, position, serverId } of wanted) {
    const { state, step } = starts[index]!;
    const child = childOf(step, serverId);
    if (child !== 'CREATE') children[index]![position] = child;
    else if (step.type === 'BACKUP') children[index]![position] = await createBackupChild(tx, state, serverId);
    else together.push({ index, position, serverId, step });
  }
  const accepted = await acceptStepJobs(
    tx,
    together.map(({ index, serverId, step }) => ({ serverId, type: step.type, params: childParams(step), taskId: starts[index]!.state.taskId })),
  );
  together.forEach(({ index, position, serverId, step }, at) => {
    children[index]![position] = childAccepted(serverId, step, accepted[at]!);
  });
  const recorded = starts.flatMap((start, index) => (starting[index] && !refused.has(index) ? [{ job_id: start.jobId, jobs: children[index]! }] : []));
  if (recorded.length > 0) {
    await tx.query(sql.unsafe`
      UPDATE task_runs r SET step_jobs = s.jobs
        FROM jsonb_to_recordset(${sql.jsonb(recorded as never)}) AS s (job_id uuid, jobs jsonb)
       WHERE r.job_id = s.job_id`);
  }
  return starts.map((start, index) => {
    if (!held.has(leaseKey(start))) return 'LEASE_LOST';
    if (!runningIds.has(start.jobId)) return null;
    if (!starting[index]) return 'LEASE_LOST';
    return refused.has(index) ? { refused: refused.get(index)! } : children[index]!;
  });
}

/** A step's job's params. */
const childParams = (step: Step): Record<string, unknown> =>
  step.type === 'RCON' ? { command: step.command } : step.type === 'BROADCAST' ? { message: step.message } : {};

/** A backup step's child: a backup row with its job (orchestrator/backups/store.ts), named after the task. */
async function createBackupChild(tx: CommonQueryMethods, state: Pick<RunState, 'taskId'>, serverId: string): Promise<ChildEntry> {
  try {
    const { job } = await requestBackup(tx, taskOrigin(state.taskId), { serverId, taskId: state.taskId, name: await backupName(tx, state.taskId) });
    return { serverId, jobId: job.id, status: job.status, error: null };
  } catch (error) {
    if (error instanceof AppError) return childAccepted(serverId, { type: 'BACKUP' }, error);
    throw error;
  }
}

/** A child's entry from its accept's answer: its job, or the server's failure (a refusal that is not the server's fails the run). */
function childAccepted(serverId: string, step: Pick<Step, 'type'>, answer: Job | AppError): ChildEntry {
  if (!(answer instanceof AppError)) return { serverId, jobId: answer.id, status: answer.status, error: null };
  if (answer.status === 404) return { serverId, jobId: null, status: 'FAILED', error: { code: 'SERVER_NOT_FOUND', message: 'the server was deleted' } };
  // A launch refused because the server's install failed or never ran is this server's failure, not the run's.
  if (answer.status === 409 && (step.type === 'START' || step.type === 'RESTART'))
    return { serverId, jobId: null, status: 'FAILED', error: { code: 'NOT_INSTALLED', message: answer.message } };
  throw answer;
}

/** `<task name> 2026-11-24 03:00 UTC`, within the 64 characters of a backup name. */
async function backupName(tx: CommonQueryMethods, taskId: string): Promise<string> {
  const name = (await tx.maybeOneFirst(sql.type(z.object({ name: z.string() }))`SELECT name FROM tasks WHERE id = ${taskId}`)) ?? 'task';
  return `${name.slice(0, 43)} ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const childRow = z.object({ status: z.enum(JOB_STATUSES), error: z.object({ code: z.string(), message: z.string() }).nullable(), waitMs: z.number() });

const readChild = batchedReads(
  async (pool, jobIds) =>
    new Map(
      (
        await pool.any(sql.type(childRow.extend({ id: z.string() }))`
          SELECT id, status, error, greatest(0, extract(epoch FROM expires_at - now()) * 1000)::float8 AS "waitMs" FROM jobs WHERE id = ANY(${sql.array(jobIds, 'uuid')})`)
      ).map(({ id, ...row }) => [id, row]),
    ),
  'job',
);

/** Waits for a child job to end (it always does: its dispatch expires it), answering its final status and error. */
async function awaitChild(deps: RunnerDeps, child: ChildEntry, signal: AbortSignal): Promise<ChildEntry> {
  if (!child.jobId) return child;
  const read = () => readChild(deps.pool, child.jobId!);
  let row = await read();
  if (!FINISHED_STATUSES.has(row.status)) {
    await Promise.race([deps.jobWaiters.waitForEnd(child.jobId, row.waitMs + CHILD_GRACE_MS), whenAborted(signal)]);
    signal.throwIfAborted();
    row = await read();
  }
  if (!FINISHED_STATUSES.has(row.status))
    return { ...child, status: 'FAILED', error: { code: 'TIMEOUT', message: `job ${child.jobId} did not end by its expiry` } };
  return {
    ...child,
    status: row.status,
    error: row.status === 'SUCCEEDED' ? null : (row.error ?? { code: row.status, message: `the job ended ${row.status}` }),
  };
}

type Ending = { status: 'FAILED' | 'CANCELLED' | 'EXPIRED'; code: string; message: string } | null;

/**
 * Ends the run (SUCCEEDED unless `ending` says otherwise; a run already ended elsewhere, say cancelled, keeps its
 * status), records it on the task if it still is the task's current run (with the occurrences skipped meanwhile), and
 * removes the graphile-worker job that would resume it.
 */
const finish = (pool: DatabasePool, jobId: string, owner: string, state: RunState, ending: Ending): Promise<void> =>
  pool.transaction((tx) => finishIn(tx, jobId, owner, state, ending));

/** `finish` within a transaction of the caller. Locks in the order task_runs, jobs, tasks (as the cancel: jobs, tasks). */
async function finishIn(tx: CommonQueryMethods, jobId: string, owner: string, state: RunState, ending: Ending): Promise<void> {
  const status = ending?.status ?? 'SUCCEEDED';
  const failures = (state.outcomes as { jobs?: ChildEntry[] }[])
    .flatMap((outcome) => outcome.jobs ?? [])
    .filter((child) => child.status !== 'SUCCEEDED' && child.status !== 'SKIPPED').length;
  const result = {
    steps: state.outcomes,
    failures,
    message: state.serverIds.length === 0 ? 'no target server (none ONLINE, or none left)' : ending ? ending.message : `${state.steps.length} step(s) done`,
  };
  const mine = await tx.query(sql.unsafe`
    UPDATE task_runs SET lease_owner = NULL, lease_until = now() WHERE job_id = ${jobId} AND lease_owner = ${owner}`);
  if (mine.rowCount !== 1) throw new LeaseLost();
  // A run cancelled meanwhile keeps its status.
  const finalStatus = await endRun(tx, jobId, { status, result, error: ending ? { code: ending.code, message: ending.message } : null });
  const skipped = await tx.maybeOneFirst(sql.type(z.object({ skipped: z.array(z.unknown()) }))`
    WITH previous AS (SELECT skipped_occurrences FROM tasks WHERE id = ${state.taskId} AND last_run_job_id = ${jobId} FOR UPDATE)
    UPDATE tasks t SET last_run_status = ${finalStatus}, skipped_occurrences = '[]' FROM previous
     WHERE t.id = ${state.taskId} AND t.last_run_job_id = ${jobId}
    RETURNING previous.skipped_occurrences AS skipped`);
  if (skipped && skipped.length > 0) await addSkippedOccurrences(tx, jobId, skipped);
  await tx.query(sql.unsafe`SELECT graphile_worker.remove_job(${runKey(jobId)})`);
}
