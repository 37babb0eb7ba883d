/**
 * Waiters for a job's status (a request's `?wait=N`, a task run's steps): no polling and no database connection per
 * waiter, but one LISTEN connection per process on `gsm_job` (the trigger of sql/functions/gsm_jobs_notify.sql
 * announces every status change as it commits), fanned out to the waiters in this process. Not to be confused with
 * the event log (orchestrator/events/), which records what happened for the API and webhooks.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import { listen } from '../../sql/listen.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import { FINISHED_STATUSES, JOB_STATUSES, type JobStatus } from '../../schema/jobs.ts';

const CHANNEL = 'gsm_job';

type Waiter = { accept: (status: JobStatus) => boolean; resolve: (status: JobStatus | null) => void };

export type JobWaiters = {
  /** Resolves with the job's status once `accept` takes it (checked against the current status first), or null after `timeoutMs`. */
  waitFor: (jobId: string, accept: (status: JobStatus) => boolean, timeoutMs: number) => Promise<JobStatus | null>;
  /** Resolves true when the job has ended within `timeoutMs`. */
  waitForEnd: (jobId: string, timeoutMs: number) => Promise<boolean>;
  /**
   * Like waitForEnd, for a job about to be created with this id (see uuidV7): registered before the job exists, it
   * cannot miss its end, so there is no current status to read first. `cancel` when the job is not created after all.
   */
  expectEnd: (jobId: string, timeoutMs: number) => { ended: Promise<boolean>; cancel: () => void };
  /**
   * Answers every waiter now (as a time-out would), and every later one at once: a process that shuts down answers its
   * long polls with the job's current state instead of holding them.
   */
  release: () => void;
  close: () => Promise<void>;
};

export async function createJobWaiters(options: { pool: DatabasePool; databaseUrl: string; logger: Logger }): Promise<JobWaiters> {
  const waiters = new Map<string, Set<Waiter>>();
  let released = false;
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

  /** Registers a waiter; answers how to end it early. */
  const register = (jobId: string, accept: Waiter['accept'], timeoutMs: number, resolve: (status: JobStatus | null) => void): Waiter => {
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
    const timer = setTimeout(() => waiter.resolve(null), released ? 0 : timeoutMs);
    if (!waiters.has(jobId)) waiters.set(jobId, new Set());
    waiters.get(jobId)!.add(waiter);
    return waiter;
  };
  const ended = (status: JobStatus) => FINISHED_STATUSES.has(status);

  const waitFor: JobWaiters['waitFor'] = (jobId, accept, timeoutMs) =>
    new Promise((resolve) => {
      const waiter = register(jobId, accept, timeoutMs, resolve);
      // The change may have happened before the waiter was registered: look once.
      options.pool
        .maybeOneFirst(sql.type(z.object({ status: z.enum(JOB_STATUSES) }))`SELECT status FROM jobs WHERE id = ${jobId}`)
        .then((status) => status && accept(status) && waiter.resolve(status))
        .catch(() => undefined);
    });

  return {
    waitFor,
    waitForEnd: async (jobId, timeoutMs) => (timeoutMs > 0 ? (await waitFor(jobId, ended, timeoutMs)) !== null : false),
    expectEnd(jobId, timeoutMs) {
      let waiter: Waiter | undefined;
      const result = new Promise<boolean>((resolve) => {
        waiter = register(jobId, ended, timeoutMs, (status) => resolve(status !== null));
      });
      return { ended: result, cancel: () => waiter!.resolve(null) };
    },
    release() {
      released = true;
      for (const set of [...waiters.values()]) for (const waiter of [...set]) waiter.resolve(null);
    },
    async close() {
      released = true;
      for (const set of [...waiters.values()]) for (const waiter of [...set]) waiter.resolve(null);
      await listener.close();
    },
  };
}
