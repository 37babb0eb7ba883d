/**
 * CORS for browser apps on other origins (docs/configuration.md, `CORS_ORIGINS`). An allowed origin gets
 * `Access-Control-Allow-Origin` on every answer (errors included) with the headers clients need to read
 * (`Location`, `Retry-After`, rate-limit headers …), and its preflight `OPTIONS` is answered 204 before authentication
 * or rate limiting. Credentials are bearer tokens, never cookies, so `Allow-Credentials` is not needed. Any other
 * origin gets no CORS header at all: the browser then keeps the answer from the page.
 */
import type { Middleware } from 'koa';

const METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID';
const EXPOSED_HEADERS = [
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
  'ETag',
  'GSM-Install-Job',
  'Idempotent-Replayed',
].join(', ');
/** How long a browser may keep a preflight's answer. */
const MAX_AGE_S = 600;

export function cors(origins: readonly string[]): Middleware {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  // Not async: most requests pass straight through, and compose wraps what a layer returns anyway.
  return function corsHeaders(ctx, next) {
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    if (!origin || !(any || allowed.has(origin))) return next();
    ctx.set('Access-Control-Allow-Origin', any ? '*' : origin);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', METHODS);
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', String(MAX_AGE_S));
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return next();
  };
}
