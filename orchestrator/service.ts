/**
 * The orchestrator role: the agent gateway on the process's HTTP server and the job runners (graphile-worker with its
 * tasks, the delivery sweep, webhook deliveries, retention). main.ts starts it in `all` and `orchestrator` processes and
 * never in `web` ones; nothing under api/ imports this file, the gateway or the worker (test/service/roles.test.ts).
 */
import { pullSettings } from './files/filePull.ts';
import type { Server as HttpServer } from 'node:http';
import type { Config } from '../schema/config.ts';
import type { Logger } from '../schema/logger.ts';
import type { DatabasePool } from '../sql/pool.ts';
import { createGateway } from './gateway/gateway.ts';
import type { JobWaiters } from './jobs/waiters.ts';
import type { Live } from './live/live.ts';
import type { DomainMetrics } from './prometheus.ts';
import { startWorker } from './worker/worker.ts';
import { minimumAgentVersion } from '../schema/agentVersions.ts';

export type OrchestratorRole = { stop: () => Promise<void> };

export async function startOrchestrator(input: {
  config: Config;
  logger: Logger;
  pool: DatabasePool;
  databaseUrl: string;
  /** The service's version: agents of another major version are refused, webhooks name it in their User-Agent. */
  version: string;
  /** The HTTP server whose upgrades to the gateway's paths become agent connections. */
  server: HttpServer;
  /** Whether this process also serves the API's `/live` Socket.IO (the gateway then leaves `/socket.io` to it). */
  servesLive: boolean;
  /** Shared with the API in an `all` process: console lines and stats reach the `/live` viewers through them. */
  live: Pick<Live, 'relay' | 'history'>;
  /** Task runs wait on jobs through the same waiters as the API's `?wait`. */
  jobWaiters: JobWaiters;
  /** The Prometheus figures that only the orchestrator counts (console relaying, webhook outcomes) join these. */
  domainMetrics: DomainMetrics;
}): Promise<OrchestratorRole> {
  const { config, logger, pool, databaseUrl } = input;
  const gateway = await createGateway(input.server, {
    pool,
    databaseUrl,
    logger,
    heartbeatSeconds: config.AGENT_HEARTBEAT_SECONDS,
    reconnectGraceSeconds: config.AGENT_RECONNECT_GRACE_SECONDS,
    authTimeoutMs: config.AGENT_AUTH_TIMEOUT_MS,
    minVersion: minimumAgentVersion(input.version, config.MIN_AGENT_VERSION),
    serviceVersion: input.version,
    relay: input.live.relay,
    history: input.live.history,
    servesLive: input.servesLive,
    sftpPasswords: config.SFTP_PASSWORD_SIGN_IN,
  });
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker({
      databaseUrl,
      logger,
      tasks: {
        pool,
        jobWaiters: input.jobWaiters,
        filePull: pullSettings(config, input.version),
      },
      eventRetentionDays: config.EVENT_RETENTION_DAYS,
      metricsRetention: { minuteDays: config.METRICS_MINUTE_RETENTION_DAYS, hourDays: config.METRICS_HOUR_RETENTION_DAYS },
      webhooks: {
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
        userAgent: `GameServerManager-Webhooks/${input.version}`,
        maxPending: config.WEBHOOK_MAX_PENDING,
        dns: { servers: config.WEBHOOK_DNS_SERVERS, timeoutMs: config.WEBHOOK_DNS_TIMEOUT_MS },
      },
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  input.domainMetrics.attach({ console: gateway.live.counters, webhooks: worker.deliverer.outcomes });
  return {
    // The runners stop before the gateway, as they were started after it.
    stop: async () => {
      try {
        await worker.stop();
      } finally {
        await gateway.close();
      }
    },
  };
}
