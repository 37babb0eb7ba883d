/**
 * A TRANSFER's job (docs/transfers.md), which the orchestrator runs itself (orchestrator/transfers/) instead of an
 * agent: accepted with no delivery (it has no machine: it moves the server between two), RUNNING with its phase and
 * bytes as progress, and ended with its result or the reason it failed. The transfer's own state is its row in
 * `transfers`; these are the job row's writes, which only orchestrator/jobs/ makes.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { createJob } from './store.ts';

/** A transfer may run (or wait for its agents) this long: a big server over a slow link takes hours. */
const TRANSFER_TTL_MS = 7 * 24 * 3_600_000;

export type TransferProgress = { phase: string; message: string; bytesDone: number; bytesTotal: number | null };

export const acceptTransferJob = (
  tx: CommonQueryMethods,
  origin: Origin,
  input: { id: string; clusterId: string; serverId: string; params: Record<string, unknown> },
) => createJob(tx, origin, { ...input, machineId: null, type: 'TRANSFER', dispatch: false, ttlMs: TRANSFER_TTL_MS }) as Promise<Job>;

/** RUNNING with its progress (the percent is of the bytes, once they are known). */
export async function recordTransferProgress(connection: CommonQueryMethods, jobId: string, progress: TransferProgress): Promise<void> {
  const percent = progress.bytesTotal ? Math.min(100, Math.floor((progress.bytesDone / progress.bytesTotal) * 100)) : null;
  await connection.query(sql.unsafe`
    UPDATE jobs SET status = 'RUNNING', started_at = coalesce(started_at, now()), dispatched_at = coalesce(dispatched_at, now()),
                    progress = ${sql.jsonb({ percent, ...progress })}
     WHERE id = ${jobId} AND type = 'TRANSFER' AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')
       AND progress IS DISTINCT FROM ${sql.jsonb({ percent, ...progress })}`);
}

/** The end: SUCCEEDED with its result, or FAILED / CANCELLED with why. */
export async function finishTransferJob(
  connection: CommonQueryMethods,
  jobId: string,
  end:
    | { status: 'SUCCEEDED'; result: Record<string, unknown> }
    | { status: 'FAILED' | 'CANCELLED'; error: { code: string; message: string }; result?: Record<string, unknown> },
): Promise<void> {
  await connection.query(sql.unsafe`
    UPDATE jobs SET status = ${end.status}, finished_at = now(), started_at = coalesce(started_at, now()),
                    result = ${sql.jsonb((end.result ?? null) as never)}, error = ${'error' in end ? sql.jsonb(end.error) : null}
     WHERE id = ${jobId} AND type = 'TRANSFER' AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
}
