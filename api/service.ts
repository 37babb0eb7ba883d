/**
 * Starts the parts of the service that this process's role runs, in dependency order, and stops them in reverse:
 * database (embedded when DATABASE_URL is unset) → migrations → secrets → pool → first admin → HTTP (API, or health only for a
 * pure orchestrator) → job runner.
 */
import { readFileSync } from 'node:fs';
import type { Config, Role } from '../schema/config.ts';
import type { Logger } from '../schema/logger.ts';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';
import { createDatabasePool, type DatabasePool } from '../sql/pool.ts';
import { loadSecrets } from './identity/secrets.ts';
import { createApp } from './app.ts';
import { createAppDeps } from './deps.ts';
import { bootstrapAdmin } from './identity/users.ts';
import { checkSharedSessionKey } from './identity/sessionKeyCheck.ts';
import { startHttpServer, type HttpServer } from './server.ts';
import { startWorker, type Worker } from '../orchestrator/worker/worker.ts';
import { createGateway } from '../orchestrator/gateway/gateway.ts';
import { attachLiveNamespace } from './live/namespace.ts';
import { startMetricsListener } from './http/metricsListener.ts';

export const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/**
 * Where a process serves Prometheus metrics when METRICS_LISTEN is unset: loopback, and a port of its own for an
 * orchestrator-only process, so `web` and `orchestrator` from the Procfile can run on one host as they are.
 */
export const defaultMetricsListen = (role: Role) => ({ host: '127.0.0.1', port: role === 'orchestrator' ? 9465 : 9464 });

export type Service = { port: number; databaseUrl: string; stop: () => Promise<void> };

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

  try {
    let embedded: EmbeddedDatabase | undefined;
    if (!config.DATABASE_URL) {
      embedded = await startEmbeddedDatabase({ dataDir: config.DATA_DIR, port: config.EMBEDDED_POSTGRES_PORT, logger });
      stops.push(embedded.stop);
    }
    const databaseUrl = config.DATABASE_URL ?? embedded!.url;

    await migrate(databaseUrl, { logger });
    const secrets = await loadSecrets({ dataDir: config.DATA_DIR, pasetoKey: config.PASETO_KEY });

    const pool: DatabasePool = await createDatabasePool(databaseUrl, { maxPoolSize: config.DATABASE_POOL_SIZE });
    stops.push(() => pool.end());
    await bootstrapAdmin(pool, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, tier: config.DEFAULT_TIER, logger });

    const servesApi = role !== 'orchestrator';
    const deps = await createAppDeps({ config, logger, pool, databaseUrl, secrets, version: VERSION, api: servesApi });
    stops.push(deps.close);
    if (servesApi) await checkSharedSessionKey(pool, deps.accessTokens, logger);
    const { koa } = createApp(deps, { api: servesApi });
    const http: HttpServer = await startHttpServer(koa, { port: config.PORT, host: config.HOST });
    stops.push(() => http.close(config.SHUTDOWN_TIMEOUT_MS));
    const metricsListen = config.METRICS_LISTEN === undefined ? defaultMetricsListen(role) : config.METRICS_LISTEN;
    if (metricsListen) {
      const metrics = await startMetricsListener({ registry: deps.metrics.registry, ...metricsListen, token: config.METRICS_TOKEN, logger });
      stops.push(metrics.close);
      logger.info(
        { metrics: `http://${metrics.host.includes(':') ? `[${metrics.host}]` : metrics.host}:${metrics.port}/metrics` },
        'Prometheus metrics listener',
      );
    }
    if (servesApi) {
      const liveNamespace = attachLiveNamespace(http.server, deps);
      // Before the HTTP server closes: viewers are told to go (and reconnect elsewhere) instead of holding it open.
      stops.push(async () => liveNamespace.close());
    }
    // Runs before the HTTP server closes: event streams end at once instead of holding the shutdown open.
    stops.push(() => deps.eventFeed.close());

    if (role !== 'web') {
      const gateway = await createGateway(http.server, {
        pool,
        databaseUrl,
        logger,
        heartbeatSeconds: config.AGENT_HEARTBEAT_SECONDS,
        reconnectGraceSeconds: config.AGENT_RECONNECT_GRACE_SECONDS,
        authTimeoutMs: config.AGENT_AUTH_TIMEOUT_MS,
        minVersion: config.MIN_AGENT_VERSION,
        relay: deps.live.relay,
        history: deps.live.history,
        servesLive: servesApi,
      });
      stops.push(gateway.close);
      const worker: Worker = await startWorker({
        databaseUrl,
        logger,
        tasks: { pool, jobEvents: deps.jobEvents },
        eventRetentionDays: config.EVENT_RETENTION_DAYS,
        metricsRetention: { minuteDays: config.METRICS_MINUTE_RETENTION_DAYS, hourDays: config.METRICS_HOUR_RETENTION_DAYS },
        webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS, userAgent: `GameServerManager-Webhooks/${VERSION}` },
      });
      stops.push(worker.stop);
      deps.domainMetrics.attach({ console: gateway.live.counters, webhooks: worker.deliverer.outcomes });
    }

    return { port: http.port, databaseUrl, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
