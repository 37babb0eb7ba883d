/**
 * Observes every request in one place (one async layer, one clock read at each end):
 * - gives it an id: the client's `X-Request-Id` when sane, a new UUID otherwise, set on the answer;
 * - opens the log context, so every log line written while handling it carries that id;
 * - writes one log line when it is answered: method, path (no query string: it may carry secrets), route, status,
 *   duration, client address;
 * - records it in the per-route metrics.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { logContext, type Logger } from '../../schema/logger.ts';
import type { HttpMetrics } from '../http/prometheusRequests.ts';

/** A client-supplied id is echoed only when it is a sane token, so it cannot inject text into logs. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Route label for requests no route matched, so unknown paths cannot blow up the metric series. */
const UNMATCHED = '(unmatched)';

/** A request's id: the client's `X-Request-Id` when sane, a new UUID otherwise. */
export const requestIdFor = (sent: string | undefined): string => (sent && CLIENT_ID.test(sent) ? sent : randomUUID());

/** The request's id (the client's `X-Request-Id` when sane, a new UUID otherwise), kept in its state and set on the answer. */
export function identifyRequest(ctx: Context): string {
  const requestId = requestIdFor(ctx.get('X-Request-Id'));
  ctx.state.requestId = requestId;
  ctx.set('X-Request-Id', requestId);
  return requestId;
}

export function observeRequest(logger: Logger, metrics: HttpMetrics): Middleware {
  return async function observe(ctx, next) {
    const started = performance.now();
    const requestId = identifyRequest(ctx);
    await logContext.run({ requestId }, async () => {
      try {
        await next();
      } finally {
        const durationMs = performance.now() - started;
        const route = ctx._matchedRoute ? String(ctx._matchedRoute) : UNMATCHED;
        const status = ctx.status;
        metrics.observe(ctx.method, route, status, durationMs / 1000);
        const line = { method: ctx.method, path: ctx.path, route, status, durationMs: Math.round(durationMs * 100) / 100, ip: ctx.ip };
        if (status >= 500) logger.error(line, 'request failed');
        else logger.info(line, 'request');
      }
    });
  };
}
