import { Logger as WorkerLogger } from 'graphile-worker';
import type { Logger } from '../schema/logger.ts';

const LEVELS = { error: 'error', warning: 'warn', info: 'info', debug: 'debug' } as const;

/** graphile-worker's logger writing into our pino logger, so its lines are JSON like every other line. */
export function createWorkerLogger(logger: Logger): WorkerLogger {
  const child = logger.child({ component: 'graphile-worker' });
  return new WorkerLogger((scope) => (level, message, meta) => {
    child[LEVELS[level] ?? 'info']({ ...scope, ...meta }, message);
  });
}
