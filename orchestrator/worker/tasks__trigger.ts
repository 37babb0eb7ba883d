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
    /** This task's outcome, in whichever path handled it (a batch usually does). */
    const report = (outcome: OccurrenceOutcome) => {
      if (outcome.outcome === 'STALE' || outcome.taskId !== taskId) return;
      helpers.logger.info(
        `task ${taskId}: occurrence ${scheduledAt} ${outcome.outcome}${'job' in outcome ? ` as job ${outcome.job.id}` : ''}; next ${outcome.next.toISOString()}`,
      );
    };
    // The occurrences due by now, this one's among them, in batches (one leaves out a task whose occurrence cannot be
    // decided: its own job reports it, below); the runs' first steps, when due at once, start in the batch that
    // creates them. The batches come first: at a minute thousands of tasks share, this task's row is likely locked by
    // another job's batch, and waiting for it (0.6 s on average in the storm benchmark) held this job back from
    // batching. A batch that fails (a lost connection, another task's bad row) does not keep this task from its
    // occurrence: that is handled all the same, then the job fails with the batch's error and is retried.
    let batchFailure: { error: unknown } | null = null;
    const counted = { RAN: 0, MISSED: 0, SKIPPED: 0, STALE: 0 };
    const take = (outcome: OccurrenceOutcome) => {
      adopt(outcome);
      report(outcome);
      counted[outcome.outcome]++;
    };
    try {
      const { handled, batches } = await handleAllDueOccurrences(
        deps.pool,
        now,
        leased,
        (outcomes) => outcomes.forEach(take),
        leased
          ? (tx, runs) =>
              startFirstSteps(tx, runs, (error, count) =>
                helpers.logger.warn(`tasks: the first steps of ${count} run(s) did not start with them (${String(error)}); their executors start them`),
              )
          : undefined,
      );
      if (handled > 1) {
        helpers.logger.info(
          `tasks: ${handled} due occurrences handled in ${batches} batch(es): ${counted.RAN} ran, ${counted.MISSED} missed, ${counted.SKIPPED} skipped`,
        );
      }
    } catch (error) {
      batchFailure = { error };
    }
    // Then this job's own occurrence: STALE when a batch handled it (here or on another orchestrator), else handled
    // here under its row lock (a batch left it out or failed, or it is not due by the database's clock).
    take(await handleTaskOccurrence(deps.pool, taskId, new Date(scheduledAt), now, leased));
    if (batchFailure) throw batchFailure.error;
  };
}
