/**
 * Every graphile-worker task of the orchestrator, by identifier `<domain>__<action>`. Each handler parses its payload
 * with zod first, is idempotent, throws to retry and awaits everything.
 */
import type { TaskList } from 'graphile-worker';
import type { DatabasePool } from '../../database/pool.ts';
import type { JobEvents } from '../../jobs/events.ts';
import { DISPATCH_TASK } from '../../jobs/store.ts';
import { dispatchTask } from './jobs__dispatch.ts';
import { RUN_TASK, TRIGGER_TASK } from '../../tasks/store.ts';
import { triggerTask } from './tasks__trigger.ts';
import { runTask } from './tasks__run.ts';
import { BAN_EXPIRE_TASK } from '../../players/bans.ts';
import { expireBanTask } from './bans__expire.ts';

export type TaskDeps = { pool: DatabasePool; jobEvents: JobEvents };

export const createTaskList = (deps: TaskDeps): TaskList => ({
  [DISPATCH_TASK]: dispatchTask(deps),
  [TRIGGER_TASK]: triggerTask(deps),
  [RUN_TASK]: runTask(deps),
  [BAN_EXPIRE_TASK]: expireBanTask(deps),
});
