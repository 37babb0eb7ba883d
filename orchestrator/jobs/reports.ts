/**
 * What an agent's acknowledgement and reports do to a job: the ack makes it DISPATCHED (`markDispatched`),
 * `job:progress` RUNNING and records its progress (`markRunning`), `job:result` stores its end (`storeResult`). The
 * gateway (gateway/machineStore.ts) calls these for the agents connected to its process. Acks and results that
 * arrive together (from any agent) are written with one statement; when it fails, each is written on its own
 * (sql/batched.ts), so one agent's report cannot fail another's. Rows are locked in id order, so two batches can never
 * wait on each other.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { batched } from '../../sql/batched.ts';
import { storableJson } from '../../schema/storable.ts';
import type { jobResultEvent } from '../../schema/agentEvents.ts';

const dispatchedRow = z.object({ id: z.string(), status: z.string() });

export type JobReports = ReturnType<typeof createJobReports>;

export function createJobReports(pool: DatabasePool) {
  // The ack may arrive after the agent already reported RUNNING (or the result): count the delivery, keep the status.
  const dispatched = batched(async (jobIds: string[]) => {
    const rows = await pool.any(sql.type(dispatchedRow)`
      WITH acked AS (SELECT id, count(*) AS n FROM unnest(${sql.array(jobIds, 'uuid')}) AS id GROUP BY id),
           locked AS (SELECT j.id, acked.n FROM jobs j JOIN acked ON acked.id = j.id ORDER BY j.id FOR UPDATE OF j)
      UPDATE jobs SET attempts = attempts + locked.n, dispatched_at = coalesce(dispatched_at, now()),
             status = CASE WHEN status = 'QUEUED' THEN 'DISPATCHED' ELSE status END
        FROM locked WHERE jobs.id = locked.id
      RETURNING jobs.id, jobs.status`);
    const status = new Map(rows.map((row) => [row.id, row.status]));
    return jobIds.map((jobId) => status.get(jobId) ?? null);
  });

  const results = batched(async (items: { machineId: string; report: z.infer<typeof jobResultEvent> }[]) => {
    const records = items.map(({ machineId, report }, index) => ({
      i: index,
      job_id: report.jobId,
      machine_id: machineId,
      status: report.error?.code === 'CANCELLED' ? 'CANCELLED' : report.status,
      // Game output is free text (an RCON answer may hold NUL): made storable rather than refused (storable.ts).
      result: storableJson(report.result ?? null),
      error: storableJson(report.error ?? null),
      finished_at: report.finishedAt,
    }));
    // Whether each job is its machine's, and its result stored unless it already ended; rows locked in id order.
    const mine = await pool.anyFirst(sql.type(z.object({ i: z.number() }))`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${sql.jsonb(records)})
          AS r(i integer, job_id uuid, machine_id uuid, status text, result jsonb, error jsonb, finished_at timestamptz)
      ), mine AS (
        SELECT r.i, j.id FROM r JOIN jobs j ON j.id = r.job_id AND j.machine_id = r.machine_id ORDER BY j.id FOR UPDATE OF j
      ), at AS (
        -- an agent's clock off ours must not date the end in the future or before the job existed
        SELECT r.i, greatest(least(r.finished_at, now()), j.created_at) AS finished_at FROM r JOIN jobs j ON j.id = r.job_id
      ), stored AS (
        -- A job the sweep EXPIRED because its time was up was decided without this result (it was on its way, or the
        -- database could not take it): the result wins, and the job keeps a note of the expiry it replaced.
        UPDATE jobs SET status = r.status, error = r.error, finished_at = at.finished_at,
               result = CASE WHEN jobs.status = 'EXPIRED' THEN coalesce(r.result, '{}'::jsonb) || jsonb_build_object('lateResult', jsonb_build_object(
                   'expiredAt', to_char(jobs.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'message', 'the agent''s result arrived after the job was marked EXPIRED (' || coalesce(jobs.error->>'message', 'no message') || '); it replaces the expiry'))
                 ELSE r.result END,
               started_at = coalesce(started_at, at.finished_at), dispatched_at = coalesce(dispatched_at, at.finished_at)
          FROM r JOIN mine ON mine.i = r.i JOIN at ON at.i = r.i
         WHERE jobs.id = mine.id
           AND (jobs.status IN ('QUEUED', 'DISPATCHED', 'RUNNING') OR (jobs.status = 'EXPIRED' AND jobs.error->>'code' = 'EXPIRED'))
      )
      SELECT i FROM mine`);
    const known = new Set(mine);
    return items.map((_, index) => known.has(index));
  });

  return {
    /**
     * Dispatched: counts an acknowledged delivery; answers the job's status after it (CANCELLED: cancelled meanwhile),
     * or null when there is no such job.
     */
    markDispatched: (jobId: string): Promise<string | null> => dispatched.add(jobId),

    /**
     * Running and progress: marks the job RUNNING unless it is further, and records the progress a report carries
     * (a job.updated event: sql/functions/gsm_jobs_event.sql); false only when it is not this machine's job.
     */
    async markRunning(machineId: string, jobId: string, progress?: { percent?: number | null; message?: string }): Promise<boolean> {
      const reported = progress && (progress.percent !== undefined || progress.message !== undefined);
      const value = reported ? sql.jsonb({ percent: progress.percent ?? null, message: progress.message ?? null }) : null;
      // A query of its own: slonik's exists() would nest it, and a data-modifying WITH must be at the top level.
      const found = await pool.query(sql.unsafe`
        WITH job AS (SELECT id FROM jobs WHERE id = ${jobId} AND machine_id = ${machineId}),
             started AS (
               UPDATE jobs SET status = CASE WHEN jobs.status IN ('QUEUED', 'DISPATCHED') THEN 'RUNNING' ELSE jobs.status END,
                               started_at = coalesce(started_at, now()), dispatched_at = coalesce(dispatched_at, now()),
                               progress = coalesce(${value}::jsonb, progress)
                 FROM job WHERE jobs.id = job.id AND (jobs.status IN ('QUEUED', 'DISPATCHED') OR (jobs.status = 'RUNNING' AND ${value}::jsonb IS NOT NULL)))
        SELECT 1 FROM job`);
      return found.rowCount > 0;
    },

    /**
     * Result: stores an agent's result. A duplicate (the job already ended) changes nothing, except that a result wins
     * over an expiry the sweep decided without it; false only when the job is not this machine's at all.
     */
    storeResult: (machineId: string, report: z.infer<typeof jobResultEvent>): Promise<boolean> => results.add({ machineId, report }),
  };
}
