/**
 * A TASK_RUN's job, which the orchestrator runs itself (orchestrator/tasks/runner.ts) instead of an agent: accepted
 * with the run (tasks/store.ts, `createJob` without dispatch), running once an executor first holds its lease, ended
 * with its steps' outcomes. Its child jobs are ordinary server jobs (`acceptServerJob`). Each function takes the
 * runner's transaction, which also holds the run's lease.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';

type RunEnd = { status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED' | 'EXPIRED'; result: Record<string, unknown>; error: { code: string; message: string } | null };

const statusRow = sql.type(z.object({ status: z.string() }));

/** Running: the run's job, QUEUED until an executor first takes its lease, is RUNNING from then on. */
export const markRunStarted = (tx: CommonQueryMethods, jobId: string): Promise<void> => markRunsStarted(tx, [jobId]);

/** `markRunStarted` for several runs in one statement. */
export async function markRunsStarted(tx: CommonQueryMethods, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await tx.query(sql.unsafe`
    UPDATE jobs SET status = 'RUNNING', started_at = coalesce(started_at, now()) WHERE id = ANY(${sql.array([...jobIds], 'uuid')}) AND status = 'QUEUED'`);
}

/**
 * Result: ends the run's job with its outcome, unless it ended meanwhile (cancelled: read afresh, the cancel may have
 * committed while the run waited for the lock). Answers the job's final status.
 */
export async function endRun(tx: CommonQueryMethods, jobId: string, end: RunEnd): Promise<string> {
  const ended = await tx.maybeOneFirst(statusRow`
    UPDATE jobs SET status = ${end.status}, finished_at = now(), result = ${sql.jsonb(end.result as never)},
                    error = ${end.error ? sql.jsonb(end.error) : null}
     WHERE id = ${jobId} AND status IN ('QUEUED', 'RUNNING')
    RETURNING status`);
  return ended ?? tx.oneFirst(statusRow`SELECT status FROM jobs WHERE id = ${jobId}`);
}

/**
 * How far a job the orchestrator runs itself is (a FILE_PULL): answers false when the job is no longer RUNNING (it was
 * cancelled meanwhile: its runner stops).
 */
export async function setServiceJobProgress(
  connection: CommonQueryMethods,
  jobId: string,
  progress: { percent: number | null; message: string },
): Promise<boolean> {
  const updated = await connection.query(sql.unsafe`
    UPDATE jobs SET progress = ${sql.jsonb(progress)} WHERE id = ${jobId} AND status = 'RUNNING'`);
  return updated.rowCount > 0;
}

/** The task's occurrences skipped during the run go into the ended run's result (`skippedOccurrences`). */
export async function addSkippedOccurrences(tx: CommonQueryMethods, jobId: string, skipped: readonly unknown[]): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE jobs SET result = coalesce(result, '{}') || jsonb_build_object('skippedOccurrences', ${sql.jsonb(skipped as never)}::jsonb) WHERE id = ${jobId}`);
}
