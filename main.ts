/**
 * Entry point: `npm start` (every role in one process), `npm run web`, `npm run orchestrator`.
 * `startService` composes the roles: the database every role shares, then the HTTP side from api/service.ts (the API,
 * or health only for a pure orchestrator), then the orchestrator role from orchestrator/service.ts unless this is a web
 * process. Run as the program, it parses the configuration, starts the service, logs where the API reference is, and
 * shuts down cleanly on SIGINT/SIGTERM: (on SIGTERM, first /readyz answers 503 for SHUTDOWN_READY_DELAY_MS) stop the job runners (in-flight jobs finish) and the gateway (agents reconnect
 * to another orchestrator), stop accepting connections, answer long polls at once, tell event streams and `/live`
 * viewers to reconnect elsewhere, drain in-flight requests, close the pool, stop the embedded database; bounded by
 * SHUTDOWN_TIMEOUT_MS (docs/operations.md#shutdown). A second signal exits at once.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, ROLES, type Config, type Role } from './schema/config.ts';
import { createLogger, type Logger } from './schema/logger.ts';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './sql/embedded.ts';
import { migrate } from './sql/migrate.ts';
import { builtInCatalogue } from './orchestrator/templates/catalogue.ts';
import { createDatabasePool } from './sql/pool.ts';
import { startApi, VERSION } from './api/service.ts';
import { startOrchestrator } from './orchestrator/service.ts';
import { tuneGarbageCollector } from './schema/garbageCollection.ts';

/** How long past SHUTDOWN_TIMEOUT_MS a stopping process may take to close its pool and runners before it exits 1. */
const SHUTDOWN_GRACE_MS = 5_000;

export type Service = {
  port: number;
  databaseUrl: string;
  stop: () => Promise<void>;
  /** /readyz answers 503 from now on (the first step of a stop). */
  drain: () => void;
};

/** Starts the parts of the service that `role` runs, in dependency order; `stop` stops them in reverse. */
export async function startService(config: Config, logger: Logger, role: Role = config.ROLE): Promise<Service> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        logger.error({ err: error }, 'error during shutdown');
      }
    }
    stops.length = 0;
  };

  // Bulk bytes (files, transfers, console) pass through as short-lived Buffers: see schema/garbageCollection.ts.
  tuneGarbageCollector();
  try {
    // A built-in template that does not validate stops the start here, naming the file.
    builtInCatalogue();
    let embedded: EmbeddedDatabase | undefined;
    if (!config.DATABASE_URL) {
      embedded = await startEmbeddedDatabase({ dataDir: config.DATA_DIR, port: config.EMBEDDED_POSTGRES_PORT, logger });
      stops.push(embedded.stop);
    }
    const databaseUrl = config.DATABASE_URL ?? embedded!.url;
    await migrate(databaseUrl, { logger });
    const pool = await createDatabasePool(databaseUrl, { maxPoolSize: config.DATABASE_POOL_SIZE, logger });
    stops.push(() => pool.end());

    const api = await startApi({ config, logger, pool, databaseUrl, role });
    stops.push(api.stop);
    if (role !== 'web') {
      const orchestrator = await startOrchestrator({
        config,
        logger,
        pool,
        databaseUrl,
        version: VERSION,
        server: api.server,
        servesLive: role === 'all',
        ...api.shared,
      });
      stops.push(orchestrator.stop);
    }
    return { port: api.port, databaseUrl, stop: stopAll, drain: api.drain };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

if (import.meta.main) {
  const { values: args } = parseArgs({ options: { role: { type: 'string' } }, strict: true });

  let config: Config;
  try {
    config = loadConfig({ ...process.env, ...(args.role ? { ROLE: args.role } : {}) });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n(roles: ${ROLES.join(', ')})\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger(config.LOG_LEVEL);
  const role: Role = config.ROLE;

  let service: Service;
  try {
    service = await startService(config, logger, role);
  } catch (error) {
    logger.fatal({ err: error }, `start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }

  const base = config.PUBLIC_URL ? config.publicUrl : `http://localhost:${service.port}`;
  logger.info({ role, port: service.port, docs: `${base}/api/docs` }, `API reference at ${base}/api/docs`);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    // SIGTERM (a platform replacing the process): /readyz says not ready for SHUTDOWN_READY_DELAY_MS while everything
    // is still served, so the balancer's health check takes the process out before it stops accepting. Ctrl-C stops at once.
    const readyDelayMs = signal === 'SIGTERM' ? config.SHUTDOWN_READY_DELAY_MS : 0;
    service.drain();
    logger.info({ signal, readyDelayMs, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutting down');
    // The whole stop is bounded: in-flight requests get SHUTDOWN_TIMEOUT_MS (then their connections are cut), and
    // whatever still holds the process a few seconds past that (a job runner's batch, the database) is given up on.
    const deadline = setTimeout(
      () => {
        logger.error({ timeoutMs: readyDelayMs + config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_GRACE_MS }, 'shutdown did not finish in time: exiting');
        process.exit(1);
      },
      readyDelayMs + config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_GRACE_MS,
    );
    deadline.unref();
    if (readyDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, readyDelayMs));
    await service.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void shutdown(signal));
  process.on('SIGTERM', (signal) => void shutdown(signal));
}
