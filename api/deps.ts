/**
 * Builds what the HTTP layer needs (AppDeps) from the configuration, a pool and the secrets: Prometheus, the access-token
 * codec and the rate limiter (Redis with REDIS_URL, in memory without, none with RATE_LIMIT=off).
 * Used by the service, the tests and the benchmarks alike.
 */
import { registerDomainMetrics } from '../orchestrator/prometheus.ts';
import type { Config } from '../schema/config.ts';
import type { DatabasePool } from '../sql/pool.ts';
import type { Logger } from '../schema/logger.ts';
import { createHttpMetrics } from './http/prometheusRequests.ts';
import { listMigrations } from '../sql/migrate.ts';
import { AccessTokens } from './identity/accessTokens.ts';
import type { Secrets } from './identity/secrets.ts';
import { MemoryLimiter } from './rateLimit/memoryLimiter.ts';
import { createRedisLimiter } from './rateLimit/redisLimiter.ts';
import type { RateLimiter } from './rateLimit/limiter.ts';
import type { AppDeps } from './context.ts';
import { createJobWaiters } from '../orchestrator/jobs/waiters.ts';
import { startEventFeed } from '../orchestrator/events/feed.ts';
import { createMailer } from './mail/mailer.ts';
import { createLive } from '../orchestrator/live/live.ts';
import { AGENT_FILES_ACROSS_LABEL, forwardAgentFileRequests } from '../orchestrator/files/agentRequestsAcross.ts';
import { startPrincipalCache } from './identity/principalCache.ts';
import { agentPackageSource } from './agentPackage.ts';
import type { ResolvedPrincipal } from './identity/principal.ts';

export async function createRateLimiter(config: Config, logger: Logger): Promise<RateLimiter | null> {
  if (config.RATE_LIMIT === 'off') return null;
  if (config.REDIS_URL) return createRedisLimiter({ url: config.REDIS_URL, logger, prefix: `${config.REDIS_KEY_PREFIX}rl:` });
  return new MemoryLimiter();
}

export async function createAppDeps(input: {
  config: Config;
  logger: Logger;
  pool: DatabasePool;
  databaseUrl: string;
  secrets: Secrets;
  version: string;
  /** Process-wide default metrics (off for apps created in tests). */
  defaultMetrics?: boolean;
  /**
   * Whether this process serves the REST API, and so rate-limits (default true). A pure orchestrator limits nothing:
   * its readiness does not depend on Redis (it uses Redis only to relay live events, which survive Redis going away).
   */
  api?: boolean;
  /** Prefix of this installation's live keys in Redis (tests give each their own). */
  redisPrefix?: string;
}): Promise<AppDeps & { close: () => Promise<void> }> {
  // A prebuilt agent package that cannot be read stops the service at startup, not each machines request later.
  const agentPackage = agentPackageSource(input.config.AGENT_PACKAGE_FILE);
  if (input.config.AGENT_PACKAGE_FILE) {
    await agentPackage.get().catch((error: unknown) => {
      throw new Error(`AGENT_PACKAGE_FILE ${input.config.AGENT_PACKAGE_FILE} cannot be served: ${(error as Error).message}`, { cause: error });
    });
  }
  const rateLimiter = (input.api ?? true) ? await createRateLimiter(input.config, input.logger) : null;
  const jobWaiters = await createJobWaiters({ pool: input.pool, databaseUrl: input.databaseUrl, logger: input.logger });
  const eventFeed = await startEventFeed({ pool: input.pool, databaseUrl: input.databaseUrl, logger: input.logger });
  const mailer = createMailer(input.config, input.logger);
  const live = await createLive({
    redisUrl: input.config.REDIS_URL,
    redisPrefix: input.redisPrefix ?? input.config.REDIS_KEY_PREFIX,
    logger: input.logger,
    corsOrigins: input.config.CORS_ORIGINS,
  });
  const accessTokens = new AccessTokens(input.secrets.pasetoKey);
  // With Redis, file requests reach agents held by other processes (a web process holds none), signed with a key
  // derived from the session key every process shares.
  const forwarding = input.config.REDIS_URL
    ? await forwardAgentFileRequests({
        redisUrl: input.config.REDIS_URL,
        prefix: input.redisPrefix ?? input.config.REDIS_KEY_PREFIX,
        key: accessTokens.deriveSubkey(AGENT_FILES_ACROSS_LABEL),
        logger: input.logger,
      })
    : undefined;
  // Only a process serving the API resolves bearer tokens.
  const principals = (input.api ?? true) ? await startPrincipalCache<ResolvedPrincipal>({ databaseUrl: input.databaseUrl, logger: input.logger }) : null;
  if (principals && !input.pool.noticesArrive) {
    input.logger.warn(
      "the database's notices do not reach this process (a pooler dropping the connection's options?): the principal cache pauses after every change request",
    );
  }
  const metrics = createHttpMetrics({ defaults: input.defaultMetrics ?? true });
  const domainMetrics = registerDomainMetrics(metrics.registry, { pool: input.pool, clusterLabels: input.config.METRICS_CLUSTER_LABELS });
  return {
    config: input.config,
    logger: input.logger,
    pool: input.pool,
    version: input.version,
    metrics,
    domainMetrics,
    expectedMigrations: (await listMigrations()).length,
    accessTokens,
    rateLimiter,
    jobWaiters,
    eventFeed,
    mailer,
    live,
    principals,
    agentPackage,
    lifecycle: { draining: false },
    close: async () => {
      await principals?.close();
      mailer?.close();
      await forwarding?.stop();
      await live.close();
      await eventFeed.close();
      await jobWaiters.close();
      await rateLimiter?.close();
    },
  };
}
