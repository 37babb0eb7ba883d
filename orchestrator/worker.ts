/**
 * The orchestrator's job runner: graphile-worker over its own pg pool (with an `error` listener, so a Postgres restart
 * does not crash the process), and the sweep of due job deliveries (orchestrator/tasks/jobs__dispatch.ts). Task
 * handlers live in orchestrator/tasks/<domain>__<action>.ts and are listed in orchestrator/tasks/index.ts.
 */
import { run, type Runner } from 'graphile-worker';
import type { Logger } from '../observability/logger.ts';
import { createWorkerLogger } from '../observability/workerLogger.ts';
import { createPgPool } from '../database/pgPool.ts';
import { createTaskList, type TaskDeps } from './tasks/index.ts';
import { startDeliverySweeper } from './tasks/jobs__dispatch.ts';

export type Worker = { stop: () => Promise<void> };

export type WorkerOptions = { databaseUrl: string; logger: Logger; concurrency?: number; tasks: TaskDeps };

/** Jobs run at once per orchestrator process. */
const DEFAULT_CONCURRENCY = 10;

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const pgPool = createPgPool(options.databaseUrl, { max: concurrency + 2, logger: options.logger, name: 'worker' });
  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      taskList: createTaskList(options.tasks),
      concurrency,
      noHandleSignals: true,
      // Recurring work is scheduled by our own tasks, not by a crontab file.
      parsedCronItems: [],
      logger: createWorkerLogger(options.logger),
    });
  } catch (error) {
    await pgPool.end();
    throw error;
  }
  const sweeper = startDeliverySweeper({ pool: options.tasks.pool, logger: options.logger });
  return {
    async stop() {
      await sweeper.stop();
      await runner.stop();
      await pgPool.end();
    },
  };
}
