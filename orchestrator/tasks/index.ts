/**
 * Every graphile-worker task of the orchestrator, by identifier `<domain>__<action>`. Each handler parses its payload
 * with zod first, is idempotent, throws to retry and awaits everything.
 */
import type { TaskList } from 'graphile-worker';

export const taskList: TaskList = {};
