/**
 * Every graphile-worker task of the orchestrator, by identifier `<domain>__<action>`. Each handler parses its payload
 * with zod first, is idempotent, throws to retry and awaits everything.
 */
import type { TaskList } from 'graphile-worker';
import type { DatabasePool } from '../../sql/pool.ts';
import type { JobWaiters } from '../jobs/waiters.ts';
import { DISPATCH_TASK } from '../jobs/store.ts';
import { dispatchTask } from './jobs__dispatch.ts';
import { RUN_TASK, TRIGGER_TASK } from '../tasks/store.ts';
import { triggerTask } from './tasks__trigger.ts';
import { runTask } from './tasks__run.ts';
import { BAN_EXPIRE_TASK } from '../players/bans.ts';
import { expireBanTask } from './bans__expire.ts';

export type TaskDeps = { pool: DatabasePool; jobWaiters: JobWaiters };

/** Every task but `tasks__run`: short jobs, run by the main runner (`orchestrator/worker/worker.ts`). */
export const createTaskList = (deps: TaskDeps): TaskList => ({
  [DISPATCH_TASK]: dispatchTask(deps),
  [TRIGGER_TASK]: triggerTask(deps),
  [BAN_EXPIRE_TASK]: expireBanTask(deps),
});

/**
 * `tasks__run` alone: a task run holds its job for the whole run (step delays up to an hour each), so it has a runner
 * of its own and never takes the slots of the short jobs above.
 */
export const createRunTaskList = (deps: TaskDeps): TaskList => ({
  [RUN_TASK]: runTask(deps),
});
