/**
 * What the HTTP layer is given to work with. Built once per process by api/service.ts (or by a test) and passed to `createApp`.
 */
import type { AgentPackageSource } from './agentPackage.ts';
import type { DomainMetrics } from '../orchestrator/prometheus.ts';
import type { Config } from '../schema/config.ts';
import type { DatabasePool } from '../sql/pool.ts';
import type { Logger } from '../schema/logger.ts';
import type { HttpMetrics } from './http/prometheusRequests.ts';
import type { AccessTokens } from './identity/accessTokens.ts';
import type { RateLimiter } from './rateLimit/limiter.ts';
import type { JobWaiters } from '../orchestrator/jobs/waiters.ts';
import type { EventFeed } from '../orchestrator/events/feed.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Live } from '../orchestrator/live/live.ts';
import type { PrincipalCache } from './identity/principalCache.ts';
import type { ResolvedPrincipal } from './identity/principal.ts';

export type AppDeps = {
  config: Config;
  logger: Logger;
  pool: DatabasePool;
  metrics: HttpMetrics;
  /** The domain's figures on /metrics; the gateway and the worker attach their per-process counts. */
  domainMetrics: DomainMetrics;
  /** Number of migration files this build ships; /readyz compares the database against it. */
  expectedMigrations: number;
  version: string;
  accessTokens: AccessTokens;
  /** Wakes requests waiting for jobs to end (`?wait=`). */
  jobWaiters: JobWaiters;
  /** New events of the event log, for the event stream's readers. */
  eventFeed: EventFeed;
  /** Null when RATE_LIMIT=off. */
  rateLimiter: RateLimiter | null;
  /** Live-only events (console lines, stats) and the console history, across processes with REDIS_URL. */
  live: Live;
  /** Sends invitations and password resets; null without SMTP_URL. */
  mailer: Mailer | null;
  /** Who bearer tokens are and users' roles, kept while invalidations are heard (docs/access.md); null: not cached. */
  principals?: PrincipalCache<ResolvedPrincipal> | null;
  /** The agent package this service serves and upgrades agents to. */
  agentPackage: AgentPackageSource;
  /** Set when a stop begins: /readyz answers 503 from then on, so a balancer stops sending here (docs/operations.md). */
  lifecycle: { draining: boolean };
};
