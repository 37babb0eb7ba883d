import type { Middleware } from 'koa';
import type { HttpMetrics } from '../../observability/metrics.ts';

/** Label for requests no route matched, so unknown paths cannot blow up the label set. */
const UNMATCHED = '(unmatched)';

export function httpMetrics(metrics: HttpMetrics): Middleware {
  return async function recordMetrics(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = ctx._matchedRoute ? String(ctx._matchedRoute) : UNMATCHED;
      metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      metrics.duration.observe({ method: ctx.method, route }, (performance.now() - started) / 1000);
    }
  };
}
