/**
 * The HTTP side of a process, which main.ts starts for every role: for `web` and `all` the API (routes, `/live`,
 * event streams, rate limits), for a pure orchestrator only health and readiness. Then Prometheus metrics on their own
 * listener. It builds nothing of the orchestrator role (gateway, job runners): main.ts starts that from
 * orchestrator/service.ts on the server this returns. Stops in reverse order of start.
 */
import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Config, Role } from '../schema/config.ts';
import type { Logger } from '../schema/logger.ts';
import type { DatabasePool } from '../sql/pool.ts';
import { loadSecrets } from './identity/secrets.ts';
import { createApp } from './app.ts';
import { createAppDeps } from './deps.ts';
import type { AppDeps } from './context.ts';
import { bootstrapAdmin } from './identity/users.ts';
import { checkSharedSessionKey } from './identity/sessionKeyCheck.ts';
import { startHttpServer } from './server.ts';
import { attachLiveNamespace } from './live/namespace.ts';
import { startMetricsListener } from './http/prometheusListener.ts';

export const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/**
 * Where a process serves Prometheus metrics when METRICS_LISTEN is unset: loopback, and a port of its own for an
 * orchestrator-only process, so `web` and `orchestrator` from the Procfile can run on one host as they are.
 */
export const defaultMetricsListen = (role: Role) => ({ host: '127.0.0.1', port: role === 'orchestrator' ? 9465 : 9464 });

export type Api = {
  port: number;
  /** The HTTP server, on which the orchestrator role (when this process runs it) attaches the agent gateway. */
  server: Server;
  /** What the orchestrator role shares with this process's API: live relaying, job waiters, Prometheus figures. */
  shared: Pick<AppDeps, 'live' | 'jobWaiters' | 'domainMetrics'>;
  stop: () => Promise<void>;
  /** From now on /readyz answers 503 (the process is about to stop); everything else is served as before. */
  drain: () => void;
};

export async function startApi(input: { config: Config; logger: Logger; pool: DatabasePool; databaseUrl: string; role: Role }): Promise<Api> {
  const { config, logger, pool, databaseUrl, role } = input;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const next of stops.reverse()) {
      try {
        await next();
      } catch (error) {
        logger.error({ err: error }, 'error during shutdown');
      }
    }
    stops.length = 0;
  };

  try {
    const secrets = await loadSecrets({ dataDir: config.DATA_DIR, pasetoKey: config.PASETO_KEY });
    await bootstrapAdmin(pool, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, tier: config.DEFAULT_TIER, logger });

    const servesApi = role !== 'orchestrator';
    const deps = await createAppDeps({ config, logger, pool, databaseUrl, secrets, version: VERSION, api: servesApi });
    stops.push(deps.close);
    // Orchestrators too when they take file requests over Redis: those are signed with a key derived from PASETO_KEY.
    if (servesApi || config.REDIS_URL) await checkSharedSessionKey(pool, deps.accessTokens, logger);
    else if (role === 'orchestrator')
      logger.warn(
        'REDIS_URL is unset on this orchestrator: web processes cannot forward file requests to the agents it holds, and answer them 503 ' +
          '(set the same REDIS_URL on every process, docs/files.md#limits)',
      );
    const http = await startHttpServer(createApp(deps, { api: servesApi }), { port: config.PORT, host: config.HOST });
    // Stopped last of the HTTP side (the stops run in reverse): in-flight requests finish, bounded by SHUTDOWN_TIMEOUT_MS.
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
    // Runs before the HTTP server closes: event streams are told to reconnect elsewhere and end at once instead of
    // holding the shutdown open.
    stops.push(() => deps.eventFeed.close());
    // Runs first: the process stops accepting connections (a balancer sends new ones to another process), answers
    // later requests with `Connection: close`, and answers its long polls (`?wait=`) now with the job's current state.
    stops.push(async () => {
      http.stopAccepting();
      deps.jobWaiters.release();
    });

    return {
      port: http.port,
      server: http.server,
      shared: { live: deps.live, jobWaiters: deps.jobWaiters, domainMetrics: deps.domainMetrics },
      stop,
      drain: () => {
        deps.lifecycle.draining = true;
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
