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
import type { RunExecutor } from '../tasks/runner.ts';
import { BAN_EXPIRE_TASK } from '../players/bans.ts';
import { expireBanTask } from './bans__expire.ts';
import { PULL_TASK, pullTask, type PullSettings } from '../files/filePull.ts';

export type TaskDeps = { pool: DatabasePool; jobWaiters: JobWaiters; filePull?: PullSettings };

/** The task list's dependencies: with the process's run executor, which drives the runs the scheduler starts. */
export type TaskListDeps = TaskDeps & { runs?: RunExecutor };

/** Every task but `tasks__run`: short jobs, run by the main runner (`orchestrator/worker/worker.ts`). */
export const createTaskList = (deps: TaskListDeps): TaskList => ({
  [DISPATCH_TASK]: dispatchTask(deps),
  [TRIGGER_TASK]: triggerTask(deps),
  [BAN_EXPIRE_TASK]: expireBanTask(deps),
  [PULL_TASK]: pullTask(deps),
});

/**
 * `tasks__run` alone: it takes a run's lease and hands the run to the process's executor (`runs`); it has a runner of
 * its own, so a storm of runs due at once never delays the short jobs above.
 */
export const createRunTaskList = (runs: RunExecutor): TaskList => ({
  [RUN_TASK]: runTask(runs),
});
