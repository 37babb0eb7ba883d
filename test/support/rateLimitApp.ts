/**
 * A small Koa app around the real error middleware and the real rate-limit middleware, for the rate-limit tests and
 * the two-process server. A request names its key in `X-Client` and its bucket in `X-Bucket` (a name from BUCKETS,
 * default FREE); without `X-Client` it is not limited. `GET /ok` answers 200, `GET /conflict` throws a 409, and any
 * other path is left unanswered, so the error middleware turns it into its 404.
 */
import Koa from 'koa';
import { conflict } from '../../schema/errors.ts';
import { errorHandler } from '../../api/middleware/errorHandler.ts';
import { rateLimit } from '../../api/middleware/rateLimit.ts';
import type { RateLimiter } from '../../api/rateLimit/limiter.ts';
import { BUCKETS, type BucketName } from '../../api/rateLimit/tiers.ts';
import type { Logger } from '../../schema/logger.ts';

const isBucketName = (name: string): name is BucketName => Object.hasOwn(BUCKETS, name);

export function createRateLimitApp(limiter: RateLimiter, logger: Logger): Koa {
  const koa = new Koa();
  koa.silent = true;
  koa.use(errorHandler(logger));
  koa.use(
    rateLimit(limiter, (ctx) => {
      const client = ctx.get('X-Client');
      if (!client) return null;
      const name = ctx.get('X-Bucket') || 'FREE';
      return { key: `client:${client}`, bucket: isBucketName(name) ? BUCKETS[name] : BUCKETS.FREE };
    }),
  );
  koa.use(async function answer(ctx) {
    if (ctx.path === '/ok') ctx.body = { ok: true };
    else if (ctx.path === '/conflict') throw conflict('Already there');
  });
  return koa;
}
