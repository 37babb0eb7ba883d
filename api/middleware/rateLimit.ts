/**
 * Spends one token of the caller's bucket per request (docs/access.md). Every limited answer carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, error answers included: the headers are set
 * before the rest of the pipeline runs, and the error middleware keeps headers already set. A refused request is a
 * 429 with `Retry-After`; a limiter that cannot answer is a 503, never an unlimited pass.
 */
import type { Middleware } from 'koa';
import { AppError } from '../../schema/errors.ts';
import { RateLimiterUnavailableError, type Decision, type RateLimiter } from '../rateLimit/limiter.ts';
import type { Bucket } from '../rateLimit/tiers.ts';

type RequestContext = Parameters<Middleware>[0];

/** Whose budget a request spends, and which bucket; null when the request is not limited (health, docs). */
export type RateLimitTarget = { key: string; bucket: Bucket };

export type RateLimitResolver = (ctx: RequestContext) => RateLimitTarget | null;

export function rateLimit(limiter: RateLimiter, resolve: RateLimitResolver): Middleware {
  return async function limitRate(ctx, next) {
    const target = resolve(ctx);
    if (!target) return next();
    let decision: Decision;
    try {
      decision = await limiter.take(target.key, target.bucket);
    } catch (error) {
      if (error instanceof RateLimiterUnavailableError) throw new AppError(503, 'Rate limiter unavailable', { cause: error });
      throw error;
    }
    ctx.set('X-RateLimit-Limit', String(decision.limit));
    ctx.set('X-RateLimit-Remaining', String(decision.remaining));
    ctx.set('X-RateLimit-Reset', String(decision.resetAt));
    if (!decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      throw new AppError(429, `Rate limit exceeded: ${decision.limit} requests per minute; retry in ${seconds} s`, {
        headers: { 'Retry-After': String(seconds) },
        extra: { retryAfter: seconds },
      });
    }
    await next();
  };
}
