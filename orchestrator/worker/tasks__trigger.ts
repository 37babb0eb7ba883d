/**
 * A task's pending occurrence is due (graphile-worker task `tasks__trigger`, payload `{ taskId, scheduledAt }`, job
 * key `task:<taskId>`): start its run, or record it MISSED or SKIPPED, and schedule the next occurrence — in one
 * transaction under a row lock on the task (tasks/store.ts), so each occurrence is handled once however many
 * orchestrator processes run and however stale the payload. Fired late (the service was down), the occurrence still
 * runs when it is less than one period late. It first handles the occurrences due by now, in batches (tasks/store.ts
 * `handleAllDueOccurrences`): at a minute thousands of tasks share, the first jobs to fire take the others'
 * occurrences in a few transactions, on every orchestrator at once; then its own, when no batch took it.
 */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { handleAllDueOccurrences, handleTaskOccurrence, type OccurrenceOutcome } from '../tasks/store.ts';
import { startFirstSteps, type RunExecutor } from '../tasks/runner.ts';

const payload = z.object({ taskId: z.uuid(), scheduledAt: z.iso.datetime() });

/** With `runs`, the runs started are leased to this process and driven by its executor at once (no claim of their own). */
export function triggerTask(deps: { pool: DatabasePool; now?: () => Date; runs?: RunExecutor }): Task {
  return async (raw, helpers) => {
    const { taskId, scheduledAt } = payload.parse(raw);
    const now = deps.now ?? (() => new Date());
    const leased = deps.runs !== undefined;
    const adopt = (outcome: OccurrenceOutcome) => {
      if (outcome.outcome === 'RAN' && outcome.lease) deps.runs?.adopt(outcome.lease);
    };
    /** This task's outcome is logged in whichever path handled it (its own batch, usually); the others' are counted. */
    const counted = { RAN: 0, MISSED: 0, SKIPPED: 0, batches: 0 };
    const take = (outcome: OccurrenceOutcome) => {
      adopt(outcome);
      if (outcome.outcome === 'STALE') return;
      if (outcome.taskId === taskId) {
        helpers.logger.info(
          `task ${taskId}: occurrence ${outcome.scheduledAt.toISOString()} ${outcome.outcome}${'job' in outcome ? ` as job ${outcome.job.id}` : ''}; next ${outcome.next.toISOString()}`,
        );
      } else counted[outcome.outcome]++;
    };
    // The occurrences due by now, this one's among them, in batches (one leaves out a task whose occurrence cannot be
    // decided: its own job reports it, below); the runs' first steps, when due at once, start in the batch that
    // creates them. The batches come first: at a minute thousands of tasks share, this task's row is likely locked by
    // another job's batch, and waiting for it (0.6 s on average in the storm benchmark) held this job back from
    // batching. A batch that fails (a lost connection, another task's row that cannot be written) is logged and does
    // not fail this job: its tasks are each handled by their own jobs, and the one at fault fails there, with its reason.
    let failed = false;
    try {
      await handleAllDueOccurrences(
        deps.pool,
        now,
        leased,
        (outcomes) => {
          counted.batches++;
          outcomes.forEach(take);
        },
        leased
          ? (tx, runs) =>
              startFirstSteps(tx, runs, (error, count) =>
                helpers.logger.warn(`tasks: the first steps of ${count} run(s) did not start with them (${String(error)}); their executors start them`),
              )
          : undefined,
      );
    } catch (error) {
      failed = true;
      helpers.logger.error(`tasks: handling the due occurrences in batches failed (${String(error)}); each is left to its own job`);
    }
    const others = counted.RAN + counted.MISSED + counted.SKIPPED;
    if (others > 0) {
      helpers.logger.info(
        `tasks: ${others} other due occurrence(s) handled in ${counted.batches} batch(es): ${counted.RAN} ran, ${counted.MISSED} missed, ${counted.SKIPPED} skipped${failed ? ', then a batch failed' : ''}`,
      );
    }
    // Then this job's own occurrence: STALE when a batch handled it (here or on another orchestrator), else handled
    // here under its row lock (a batch left it out or failed, or it is not due by the database's clock). An error
    // here fails the job, which is retried.
    take(await handleTaskOccurrence(deps.pool, taskId, new Date(scheduledAt), now, leased));
  };
}
