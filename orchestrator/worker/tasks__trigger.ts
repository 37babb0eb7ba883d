/**
 * A task's pending occurrence is due (graphile-worker task `tasks__trigger`, payload `{ taskId, scheduledAt }`, job
 * key `task:<taskId>`): start its run, or record it MISSED or SKIPPED, and schedule the next occurrence — in one
 * transaction under a row lock on the task (tasks/store.ts), so each occurrence is handled once however many
 * orchestrator processes run and however stale the payload. Fired late (the service was down), the occurrence still
 * runs when it is less than one period late. Then it handles the other occurrences due by now, in batches
 * (tasks/store.ts `handleAllDueOccurrences`): at a minute thousands of tasks share, the first jobs to fire take the
 * others' occurrences in a few transactions, on every orchestrator at once.
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
    const handled = await handleTaskOccurrence(deps.pool, taskId, new Date(scheduledAt), now, leased);
    adopt(handled);
    if (handled.outcome !== 'STALE') {
      helpers.logger.info(
        `task ${taskId}: occurrence ${scheduledAt} ${handled.outcome}${'job' in handled ? ` as job ${handled.job.id}` : ''}; next ${handled.next.toISOString()}`,
      );
    }
    // Then the others due by now, in batches (one leaves out a task whose occurrence cannot be decided: its own job
    // reports it); the runs' first steps, when due at once, start in the batch that creates them.
    const { handled: others, batches } = await handleAllDueOccurrences(
      deps.pool,
      now,
      leased,
      (outcomes) => outcomes.forEach(adopt),
      leased
        ? (tx, runs) =>
            startFirstSteps(tx, runs, (error, count) =>
              helpers.logger.warn(`tasks: the first steps of ${count} run(s) did not start with them (${String(error)}); their executors start them`),
            )
        : undefined,
    );
    if (others > 0) helpers.logger.info(`tasks: ${others} other due occurrence(s) handled in ${batches} batch(es)`);
  };
}
