/**
 * A task's pending occurrence is due (graphile-worker task `tasks__trigger`, payload `{ taskId, scheduledAt }`, job
 * key `task:<taskId>`): start its run, or record it MISSED or SKIPPED, and schedule the next occurrence — in one
 * transaction under a row lock on the task (tasks/store.ts), so each occurrence is handled once however many
 * orchestrator processes run and however stale the payload. Fired late (the service was down), the occurrence still
 * runs when it is less than one period late.
 */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { handleTaskOccurrence } from '../tasks/store.ts';

const payload = z.object({ taskId: z.uuid(), scheduledAt: z.iso.datetime() });

export function triggerTask(deps: { pool: DatabasePool; now?: () => Date }): Task {
  return async (raw, helpers) => {
    const { taskId, scheduledAt } = payload.parse(raw);
    const handled = await handleTaskOccurrence(deps.pool, taskId, new Date(scheduledAt), deps.now ?? (() => new Date()));
    if (handled.outcome !== 'STALE') {
      helpers.logger.info(
        `task ${taskId}: occurrence ${scheduledAt} ${handled.outcome}${'job' in handled ? ` as job ${handled.job.id}` : ''}; next ${handled.next.toISOString()}`,
      );
    }
  };
}
