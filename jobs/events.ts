/**
 * Waiting for jobs without polling and without a database connection per waiter: one LISTEN connection per process
 * on `gsm_job` (a trigger announces every status change, sql/000004_jobs.sql), fanned out to in-process waiters.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import { listen } from '../database/listen.ts';
import type { DatabasePool } from '../database/pool.ts';
import type { Logger } from '../observability/logger.ts';
import { FINISHED_STATUSES, JOB_STATUSES, type JobStatus } from '../schema/jobs.ts';

const CHANNEL = 'gsm_job';

type Waiter = { accept: (status: JobStatus) => boolean; resolve: (status: JobStatus | null) => void };

export type JobEvents = {
  /** Resolves with the job's status once `accept` takes it (checked against the current status first), or null after `timeoutMs`. */
  waitFor: (jobId: string, accept: (status: JobStatus) => boolean, timeoutMs: number) => Promise<JobStatus | null>;
  /** Resolves true when the job has ended within `timeoutMs`. */
  waitForEnd: (jobId: string, timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

export async function createJobEvents(options: { pool: DatabasePool; databaseUrl: string; logger: Logger }): Promise<JobEvents> {
  const waiters = new Map<string, Set<Waiter>>();
  const deliver = (jobId: string, status: JobStatus) => {
    for (const waiter of waiters.get(jobId) ?? []) if (waiter.accept(status)) waiter.resolve(status);
  };
  const listener = await listen({
    databaseUrl: options.databaseUrl,
    channel: CHANNEL,
    logger: options.logger,
    onPayload: (payload) => {
      const [jobId, status] = payload.split(' ');
      if (jobId && (JOB_STATUSES as readonly string[]).includes(status ?? '')) deliver(jobId, status as JobStatus);
    },
  });

  const waitFor: JobEvents['waitFor'] = (jobId, accept, timeoutMs) =>
    new Promise((resolve) => {
      let settled = false;
      const waiter: Waiter = {
        accept,
        resolve: (status) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const set = waiters.get(jobId);
          set?.delete(waiter);
          if (set?.size === 0) waiters.delete(jobId);
          resolve(status);
        },
      };
      const timer = setTimeout(() => waiter.resolve(null), timeoutMs);
      if (!waiters.has(jobId)) waiters.set(jobId, new Set());
      waiters.get(jobId)!.add(waiter);
      // The change may have happened before the waiter was registered: look once.
      options.pool
        .maybeOneFirst(sql.type(z.object({ status: z.enum(JOB_STATUSES) }))`SELECT status FROM jobs WHERE id = ${jobId}`)
        .then((status) => status && accept(status) && waiter.resolve(status))
        .catch(() => undefined);
    });

  return {
    waitFor,
    waitForEnd: async (jobId, timeoutMs) => (timeoutMs > 0 ? (await waitFor(jobId, (status) => FINISHED_STATUSES.has(status), timeoutMs)) !== null : false),
    async close() {
      for (const set of waiters.values()) for (const waiter of set) waiter.resolve(null);
      await listener.close();
    },
  };
}
