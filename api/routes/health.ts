/**
 * Liveness, readiness and metrics. No rate limit (docs/api.md); `/metrics` here only with METRICS_TOKEN (docs/operations.md).
 */
import { z } from 'zod';
import { migrationState } from '../../sql/migrate.ts';
import { pingDatabase } from '../../orchestrator/readiness.ts';
import { errorBody } from '../../schema/http.ts';
import type { AppDeps } from '../context.ts';
import { AppError, notFound } from '../../schema/errors.ts';
import { metricsTokenMatches } from '../http/prometheusListener.ts';
import type { Api } from '../http/route.ts';
import type { RequestShortcut } from '../server.ts';
import { requestIdFor } from '../middleware/observeRequest.ts';
import { withTimeout } from '../../schema/timeouts.ts';

/** How long a readiness probe waits for the database before calling it unreachable. */
const READY_TIMEOUT_MS = 2_000;

const healthAnswer = z.object({ status: z.literal('ok'), uptimeSeconds: z.number(), version: z.string() });
const readyAnswer = z.object({
  status: z.literal('ready'),
  checks: z.object({ database: z.literal('ok'), migrations: z.literal('ok'), redis: z.literal('ok').optional() }),
});

/** The liveness answer (the route below and the probe's short way share it). */
const liveness = (deps: AppDeps) => ({ status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()), version: deps.version });

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `GET /healthz` the short way, taken by the HTTP server ahead of Koa: a probe that asks every second should cost the
 * process next to nothing (docs/operations.md). It gets what every answer gets (its request id, its count and latency
 * in the metrics), without Koa's context, the route table, the body parser or an info log line (a debug one: probes
 * would flood the log). A request from a browser page (with `Origin`) goes the long way, for its CORS headers; so does
 * any other method, for the route table's 405.
 */
export function livenessProbe(deps: AppDeps): RequestShortcut {
  return function answerLiveness(request, response) {
    const { method, url } = request;
    if ((method !== 'GET' && method !== 'HEAD') || request.headers.origin !== undefined) return false;
    if (url !== '/healthz' && !url?.startsWith('/healthz?')) return false;
    const started = performance.now();
    const sent = request.headers['x-request-id'];
    const requestId = requestIdFor(typeof sent === 'string' ? sent : undefined);
    const body = JSON.stringify(liveness(deps));
    response.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': requestId });
    response.end(method === 'HEAD' ? undefined : body);
    const seconds = (performance.now() - started) / 1000;
    deps.metrics.observe(method, '/healthz', 200, seconds);
    deps.logger.debug({ requestId, method, path: '/healthz', status: 200, durationMs: Math.round(seconds * 100_000) / 100 }, 'request');
    return true;
  };
}

export function installHealthRoutes(api: Api, deps: AppDeps) {
  api.route({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process is up',
    tags: ['Health'],
    auth: 'none',
    responses: { 200: { description: 'The process is up', schema: healthAnswer } },
    handler: () => liveness(deps),
  });

  api.route({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: database reachable, migrations current, Redis answering when configured and this process serves the API',
    description:
      'Answers 503 with `details` naming each failing dependency, or `shutdown` from the moment the process is told to stop (SIGTERM; for SHUTDOWN_READY_DELAY_MS before it stops accepting connections).',
    tags: ['Health'],
    auth: 'none',
    responses: {
      200: { description: 'Ready to serve', schema: readyAnswer },
      503: { description: 'A dependency is down; `details` says which', schema: errorBody },
    },
    handler: async () => {
      const failures: { field: string; message: string }[] = [];
      // A stopping process says so first, whatever its dependencies: the balancer takes it out before it stops accepting.
      if (deps.lifecycle.draining) throw new AppError(503, 'Not ready', { details: [{ field: 'shutdown', message: 'this process is stopping' }] });
      try {
        await withTimeout(pingDatabase(deps.pool), READY_TIMEOUT_MS, 'database check');
        const state = await withTimeout(migrationState(deps.pool, deps.expectedMigrations), READY_TIMEOUT_MS, 'migration check');
        if (!state.current) {
          failures.push({
            field: 'migrations',
            message: `database has ${state.applied} of ${state.expected} migrations${state.workerSchema ? '' : ' and no job queue schema'}`,
          });
        }
      } catch (error) {
        deps.logger.warn({ err: error }, 'readiness check failed');
        failures.push({ field: 'database', message: 'unreachable' });
      }
      // Redis holds the rate-limit buckets when configured; without it limited requests answer 503. Only a process
      // that serves the API has a limiter: an orchestrator does not use Redis, and is ready without it.
      const usesRedis = Boolean(deps.config.REDIS_URL && deps.rateLimiter);
      if (usesRedis) {
        try {
          await deps.rateLimiter!.check();
        } catch (error) {
          deps.logger.warn({ err: error }, 'readiness check failed: Redis');
          failures.push({ field: 'redis', message: 'unreachable' });
        }
      }
      if (failures.length > 0) throw new AppError(503, 'Not ready', { details: failures });
      return { status: 'ready', checks: { database: 'ok', migrations: 'ok', ...(usesRedis ? { redis: 'ok' } : {}) } } as const;
    },
  });

  api.route({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (with METRICS_TOKEN)',
    description:
      'Request counts and latency histograms per route, process metrics, and the domain (servers by status, players online, machines online, jobs created and ended with their latency, events, console lines, webhook deliveries; docs/operations.md), in the Prometheus text format. Served on the API port only when the installation sets METRICS_TOKEN, to `Authorization: Bearer <METRICS_TOKEN>`; otherwise 404 here, and scraped from the metrics listener (METRICS_LISTEN, default 127.0.0.1:9464).',
    tags: ['Health'],
    auth: 'none',
    responses: {
      200: { description: 'Prometheus text exposition format' },
      401: { description: 'METRICS_TOKEN is set and the request does not carry it', schema: errorBody },
      404: { description: 'METRICS_TOKEN is not set: metrics are served on the metrics listener only', schema: errorBody },
    },
    handler: async (ctx) => {
      const token = deps.config.METRICS_TOKEN;
      if (!token) throw notFound('Metrics are served on the metrics listener (METRICS_LISTEN), not on the API port');
      if (!metricsTokenMatches(ctx.get('Authorization') || undefined, token))
        throw new AppError(401, 'Authorization: Bearer <METRICS_TOKEN> is required', { headers: { 'WWW-Authenticate': 'Bearer' } });
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
    },
  });
}
