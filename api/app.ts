/**
 * The Koa application. Reads top to bottom as the request pipeline: the liveness probe's short way, observation (request id, log line, metrics), the single error
 * middleware, the JSON body parser, then the routes of each resource.
 */
import Koa from 'koa';
import { Api, type AccessHooks } from './http/route.ts';
import type { AppDeps } from './context.ts';
import { observeRequest } from './middleware/observeRequest.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { jsonBody } from './middleware/jsonBody.ts';
import { cors } from './middleware/cors.ts';
import { limitFailures, principalTargets, rateLimit } from './middleware/rateLimit.ts';
import { idempotency } from './middleware/idempotency.ts';
import { BUCKETS } from './rateLimit/tiers.ts';
import { installHealthRoutes, livenessProbe } from './routes/health.ts';
import type { RequestShortcut } from './server.ts';
import { installDocsRoutes } from './routes/docs.ts';
import { installMetricsHistoryRoutes } from './routes/metricsHistory.ts';
import { installAgentPackageRoutes } from './routes/agentPackage.ts';
import { installAuthRoutes } from './routes/auth.ts';
import { installOAuthRoutes } from './routes/oauth.ts';
import { installAccountRoutes } from './routes/account.ts';
import { installSshKeyRoutes } from './routes/sshKeys.ts';
import { installClusterRoutes } from './routes/clusters.ts';
import { installMemberRoutes } from './routes/members.ts';
import { installAuditLogRoutes } from './routes/auditLog.ts';
import { installMachineRoutes } from './routes/machines.ts';
import { installAgentUpgradeRoutes } from './routes/agentUpgrades.ts';
import { installAllocationRoutes } from './routes/allocations.ts';
import { installServerRoutes } from './routes/servers.ts';
import { installPowerRoutes } from './routes/power.ts';
import { installBackupRoutes } from './routes/backups.ts';
import { installTransferRoutes } from './routes/transfers.ts';
import { installJobRoutes } from './routes/jobs.ts';
import { installTaskRoutes } from './routes/tasks.ts';
import { installPlayerRoutes } from './routes/players.ts';
import { installEventRoutes } from './routes/events.ts';
import { installOnboardingPageRoutes } from './routes/onboardingPages.ts';
import { installDashboardRoutes } from './routes/dashboard.ts';
import { installConsoleRoutes } from './routes/console.ts';
import { installWebhookRoutes } from './routes/webhooks.ts';
import { installFileRoutes } from './routes/files.ts';
import { installFileJobRoutes } from './routes/fileJobs.ts';
import { installTemplateRoutes } from './routes/templates.ts';
import { installTemplateImportRoutes } from './routes/templateImport.ts';
import { createAuthenticator, principalChanges, principalOf } from './identity/principal.ts';
import { PRINCIPAL_NOTICE } from './identity/principalCache.ts';
import { authorize, authorizeResource } from './identity/access.ts';
import type { Context } from 'koa';

/** `probe`: what the HTTP server answers ahead of Koa (`GET /healthz`); give it to startHttpServer. */
export type App = { koa: Koa; api: Api; probe: RequestShortcut };

export type AppOptions = {
  /** Serve the REST API. A pure orchestrator process serves only health, metrics and (later) the agent gateway. */
  api?: boolean;
};

export function createApp(deps: AppDeps, options: AppOptions = {}): App {
  const koa = new Koa({ proxy: deps.config.TRUST_PROXY });
  // Errors are answered and logged by errorHandler; Koa's default stderr printing would duplicate them.
  koa.silent = true;
  const api = new Api(accessHooks(deps));

  koa.use(observeRequest(deps.logger, deps.metrics));
  if (deps.principals) koa.use(principalChanges(deps.principals, deps.pool.noticesArrive ? () => deps.pool.noticesSeen(PRINCIPAL_NOTICE) : null));
  koa.use(errorHandler(deps.logger));
  koa.use(cors(deps.config.CORS_ORIGINS));
  koa.use(jsonBody());

  installHealthRoutes(api, deps);
  if (options.api ?? true) {
    installDocsRoutes(api, deps);
    installAgentPackageRoutes(api, deps);
    installOnboardingPageRoutes(api, deps);
    installDashboardRoutes(api, deps);
    installAuthRoutes(api, deps);
    installOAuthRoutes(api, deps);
    installAccountRoutes(api, deps);
    installSshKeyRoutes(api, deps);
    installClusterRoutes(api, deps);
    installMemberRoutes(api, deps);
    installAuditLogRoutes(api, deps);
    installMachineRoutes(api, deps);
    installAgentUpgradeRoutes(api, deps);
    installAllocationRoutes(api, deps);
    installServerRoutes(api, deps);
    installConsoleRoutes(api, deps);
    installWebhookRoutes(api, deps);
    installTemplateImportRoutes(api, deps);
    installTemplateRoutes(api, deps);
    installPowerRoutes(api, deps);
    installBackupRoutes(api, deps);
    installTransferRoutes(api, deps);
    installFileRoutes(api, deps);
    installFileJobRoutes(api, deps);
    installJobRoutes(api, deps);
    installTaskRoutes(api, deps);
    installMetricsHistoryRoutes(api, deps);
    installPlayerRoutes(api, deps);
    installEventRoutes(api, deps);
  }

  koa.use(api.router.routes());
  koa.use(api.router.allowedMethods());
  return { koa, api, probe: livenessProbe(deps) };
}

/**
 * Authentication, rate limits and authorization for the route layer. Rate limits (docs/access.md): an API token
 * spends its own bucket at its user's tier and, with the user's other tokens, the user's ceiling (twice the tier);
 * session traffic spends the user's general bucket; sign-in endpoints spend a bucket per client address; a refused
 * credential spends its address's failure budget (only failures do).
 */
function accessHooks(deps: AppDeps): AccessHooks {
  const authenticator = createAuthenticator(deps);
  const limiter = deps.rateLimiter;
  const authFailures = (ctx: Context) => ({ key: `ip:${ctx.ip}`, bucket: BUCKETS.AUTH_FAILURE, what: 'failed authentications per minute from this address' });
  return {
    authenticate: limiter ? (scopeOf) => limitFailures(limiter, authFailures, authenticator.middleware(scopeOf)) : authenticator.middleware,
    rateLimitPrincipal: limiter ? rateLimit(limiter, (ctx) => principalTargets(principalOf(ctx))) : null,
    rateLimitSignIn: limiter ? rateLimit(limiter, (ctx) => ({ key: `ip:${ctx.ip}`, bucket: BUCKETS.SIGN_IN })) : null,
    idempotency: idempotency(deps.pool, deps.accessTokens.deriveSubkey('idempotency request hash')),
    authorize: async (ctx, clusterId, permission) => (await authorize(deps.pool, principalOf(ctx), clusterId, permission, ctx.state.membership)).role,
    authorizeResource: (ctx, resource, permission) => authorizeResource(deps.pool, principalOf(ctx), resource, permission, ctx.state.membership),
  };
}
