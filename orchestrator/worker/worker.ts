/**
 * The orchestrator's job runners: graphile-worker over its own pg pool (with an `error` listener, so a Postgres restart
 * does not crash the process), a second one for task runs alone (RUN_CONCURRENCY), and beats of their own: the
 * sweep of due job deliveries (orchestrator/jobs/deliverySweep.ts), the fold of player activity (players/activity.ts)
 * and the fleet upgrades of agents (machines/upgradeRoll.ts). Task handlers live in
 * orchestrator/worker/<domain>__<action>.ts and are listed in orchestrator/worker/taskList.ts.
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
import { startCounterFolding } from '../jobs/counters.ts';
import { startDeliveryRetention } from '../webhooks/retention.ts';
import { startMetricsMaintenance } from '../metricsHistory/store.ts';
import { startAgentUpgradeRoller } from '../machines/upgradeRoll.ts';
import { startTransferRunner } from '../transfers/runner.ts';
import { createRunExecutor } from '../tasks/runner.ts';

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
  webhooks: Pick<DelivererOptions, 'allowPrivate' | 'userAgent' | 'retryDelaysMs' | 'timeoutMs' | 'maxPending' | 'dns'>;
};

/** Jobs run at once per orchestrator process. */
const DEFAULT_CONCURRENCY = 10;
/**
 * Task runs (`tasks__run`) taken at once per orchestrator process, in a second runner with a small pool of its own.
 * Taking a run is short (its lease, then the process's run executor drives it in the background: tasks/runner.ts), so
 * this bounds how fast runs are taken, not how many go on at once (10 is plenty: runs the scheduler starts are leased
 * to it directly and need no take; and each slot may hold a connection). A run's own queries go through the service's pool.
 */
const RUN_CONCURRENCY = 10;
/**
 * The pools hold as many connections as their runner runs jobs at once (graphile-worker warns at start otherwise), and
 * the job runner has two more for its own queries. pg opens connections only on demand, and the task-run runner takes
 * its jobs through a local queue (one fetch for every idle run slot, instead of each slot polling on its own
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
  const runs = createRunExecutor({ ...options.tasks, logger: options.logger });
  const runners: Runner[] = [];
  try {
    runners.push(await run({ ...common, pgPool, taskList: createTaskList({ ...options.tasks, runs }), concurrency }));
    runners.push(
      await run({
        ...common,
        pgPool: runPgPool,
        taskList: createRunTaskList(runs),
        concurrency: RUN_CONCURRENCY,
        preset: { worker: { localQueue: { size: RUN_CONCURRENCY } } },
      }),
    );
  } catch (error) {
    await Promise.all(runners.map((runner) => runner.stop()));
    await runs.stop();
    await Promise.all([pgPool.end(), runPgPool.end()]);
    throw error;
  }
  const sweeper = startDeliverySweeper({ pool: options.tasks.pool, logger: options.logger });
  const roller = startAgentUpgradeRoller({ pool: options.tasks.pool, logger: options.logger });
  const folder = startActivityFolder({ pool: options.tasks.pool, logger: options.logger });
  const sequencer = await startSequencer({ pool: options.tasks.pool, databaseUrl: options.databaseUrl, logger: options.logger });
  const retention = startEventRetention({ pool: options.tasks.pool, logger: options.logger, days: options.eventRetentionDays });
  const counters = startCounterFolding({ pool: options.tasks.pool, logger: options.logger });
  const deliveryRetention = startDeliveryRetention({ pool: options.tasks.pool, logger: options.logger, days: options.eventRetentionDays });
  const metrics = startMetricsMaintenance({
    pool: options.tasks.pool,
    logger: options.logger,
    ...(options.metricsRetention ?? { minuteDays: 14, hourDays: 400 }),
  });
  const transfers = startTransferRunner({ pool: options.tasks.pool, logger: options.logger });
  const deliverer = await startDeliverer({ ...options.webhooks, pool: options.tasks.pool, databaseUrl: options.databaseUrl, logger: options.logger });
  return {
    deliverer,
    async stop() {
      await Promise.all([
        sweeper.stop(),
        roller.stop(),
        folder.stop(),
        sequencer.stop(),
        retention.stop(),
        counters.stop(),
        deliveryRetention.stop(),
        metrics.stop(),
        deliverer.stop(),
        transfers.stop(),
      ]);
      // Runs under way are handed over at once (tasks/runner.ts), while the runners stop taking jobs.
      await Promise.all([...runners.map((runner) => runner.stop()), runs.stop()]);
      await Promise.all([pgPool.end(), runPgPool.end()]);
    },
  };
}
