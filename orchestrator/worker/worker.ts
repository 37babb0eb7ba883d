/**
 * The orchestrator's job runners: graphile-worker over its own pg pool (with an `error` listener, so a Postgres restart
 * does not crash the process), a second one for task runs alone (RUN_CONCURRENCY), and two beats of their own: the
 * sweep of due job deliveries (orchestrator/jobs/deliverySweep.ts) and the fold of player activity
 * (players/activity.ts). Task handlers live in orchestrator/worker/<domain>__<action>.ts and are listed in
 * orchestrator/worker/taskList.ts.
 */
import { run, type Runner } from 'graphile-worker';
import type { Logger } from '../../schema/logger.ts';
import { createWorkerLogger } from '../../sql/workerLogger.ts';
import { createPgPool } from '../../sql/pgPool.ts';
import { createRunTaskList, createTaskList, type TaskDeps } from './taskList.ts';
import { startDeliverySweeper } from '../jobs/deliverySweep.ts';
import { startActivityFolder } from '../players/activity.ts';
import { startSequencer } from '../events/sequencer.ts';
import { startDeliverer, type Deliverer, type DelivererOptions } from '../webhooks/deliverer.ts';
import { startEventRetention } from '../events/retention.ts';
import { startDeliveryRetention } from '../webhooks/retention.ts';
import { startMetricsMaintenance } from '../metricsHistory/store.ts';

export type Worker = { stop: () => Promise<void>; deliverer: Deliverer };

export type WorkerOptions = {
  databaseUrl: string;
  logger: Logger;
  concurrency?: number;
  tasks: TaskDeps;
  eventRetentionDays: number;
  /** Metrics history retention (docs/metrics.md); defaults 14 and 400 days. */
  metricsRetention?: { minuteDays: number; hourDays: number };
  /** The webhook deliverer's settings (docs/webhooks.md); tests shorten its schedule. */
  webhooks: Pick<DelivererOptions, 'allowPrivate' | 'userAgent' | 'retryDelaysMs' | 'timeoutMs'>;
};

/** Jobs run at once per orchestrator process. */
const DEFAULT_CONCURRENCY = 10;
/**
 * Task runs (`tasks__run`) at once per orchestrator process, in a second runner with a small pool of its own: a run
 * holds its job through its step delays (up to an hour each), so runs never take the slots of the jobs above (task
 * triggers, deliveries, ban expiries). A run's own queries go through the service's pool, not this one.
 */
const RUN_CONCURRENCY = 50;
/**
 * The pools hold as many connections as their runner runs jobs at once (graphile-worker warns at start otherwise), and
 * the job runner has two more for its own queries. pg opens connections only on demand, and the task-run runner takes
 * its jobs through a local queue (one fetch for every idle run slot, instead of each of the 50 slots polling on its own
 * connection), so an orchestrator at rest holds the same few connections as before (measured: 18 in all, against 65
 * with the larger pool and no local queue).
 */
const JOB_POOL_SPARE = 2;

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const pgPool = createPgPool(options.databaseUrl, { max: concurrency + JOB_POOL_SPARE, logger: options.logger, name: 'worker' });
  const runPgPool = createPgPool(options.databaseUrl, { max: RUN_CONCURRENCY, logger: options.logger, name: 'worker-task-runs' });
  const common = {
    noHandleSignals: true,
    // Recurring work is scheduled by our own tasks, not by a crontab file.
    parsedCronItems: [],
    logger: createWorkerLogger(options.logger),
  };
  const runners: Runner[] = [];
  try {
    runners.push(await run({ ...common, pgPool, taskList: createTaskList(options.tasks), concurrency }));
    runners.push(
      await run({
        ...common,
        pgPool: runPgPool,
        taskList: createRunTaskList(options.tasks),
        concurrency: RUN_CONCURRENCY,
        preset: { worker: { localQueue: { size: RUN_CONCURRENCY } } },
      }),
    );
  } catch (error) {
    await Promise.all(runners.map((runner) => runner.stop()));
    await Promise.all([pgPool.end(), runPgPool.end()]);
    throw error;
  }
  const sweeper = startDeliverySweeper({ pool: options.tasks.pool, logger: options.logger });
  const folder = startActivityFolder({ pool: options.tasks.pool, logger: options.logger });
  const sequencer = await startSequencer({ pool: options.tasks.pool, databaseUrl: options.databaseUrl, logger: options.logger });
  const retention = startEventRetention({ pool: options.tasks.pool, logger: options.logger, days: options.eventRetentionDays });
  const deliveryRetention = startDeliveryRetention({ pool: options.tasks.pool, logger: options.logger, days: options.eventRetentionDays });
  const metrics = startMetricsMaintenance({
    pool: options.tasks.pool,
    logger: options.logger,
    ...(options.metricsRetention ?? { minuteDays: 14, hourDays: 400 }),
  });
  const deliverer = await startDeliverer({ ...options.webhooks, pool: options.tasks.pool, databaseUrl: options.databaseUrl, logger: options.logger });
  return {
    deliverer,
    async stop() {
      await Promise.all([sweeper.stop(), folder.stop(), sequencer.stop(), retention.stop(), deliveryRetention.stop(), metrics.stop(), deliverer.stop()]);
      // Both at once: a run under way hands itself over at once (tasks/runner.ts).
      await Promise.all(runners.map((runner) => runner.stop()));
      await Promise.all([pgPool.end(), runPgPool.end()]);
    },
  };
}
