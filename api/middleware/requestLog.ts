import type { Middleware } from 'koa';
import type { Logger } from '../../observability/logger.ts';

/** One log line per answered request: method, path (no query string: it may carry secrets), status and duration. */
export function requestLog(logger: Logger): Middleware {
  return async function logRequest(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const status = ctx.status;
      const line = {
        method: ctx.method,
        path: ctx.path,
        route: ctx._matchedRoute ?? null,
        status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ip: ctx.ip,
      };
      if (status >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request');
    }
  };
}
