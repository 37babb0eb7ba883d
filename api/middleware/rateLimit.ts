/**
 * Spends one token of the caller's bucket per request (docs/access.md). Every limited answer carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, error answers included: the headers are set
 * before the rest of the pipeline runs, and the error middleware keeps headers already set. A refused request is a
 * 429 with `Retry-After`; a limiter that cannot answer is a 503, never an unlimited pass.
 */
import type { Middleware } from 'koa';
import { AppError } from '../../schema/errors.ts';
import { RateLimiterUnavailableError, type Decision, type RateLimiter } from '../rateLimit/limiter.ts';
import { BUCKETS, USER_CEILING, type Bucket } from '../rateLimit/tiers.ts';
import type { Principal } from '../identity/principal.ts';

type RequestContext = Parameters<Middleware>[0];

/**
 * Whose budget a request spends, and which bucket; `what` names the budget in a refusal's message (default "").
 */
export type RateLimitTarget = { key: string; bucket: Bucket; what?: string };

/** The budgets a request spends, in order; null when the request is not limited (health, docs). */
export type RateLimitResolver = (ctx: RequestContext) => RateLimitTarget | RateLimitTarget[] | null;

async function take(limiter: RateLimiter, target: RateLimitTarget): Promise<Decision> {
  try {
    return await limiter.take(target.key, target.bucket);
  } catch (error) {
    if (error instanceof RateLimiterUnavailableError) throw new AppError(503, 'Rate limiter unavailable', { cause: error });
    throw error;
  }
}

async function takeAll(limiter: RateLimiter, targets: RateLimitTarget[]): Promise<Decision[]> {
  try {
    return await limiter.takeAll(targets);
  } catch (error) {
    if (error instanceof RateLimiterUnavailableError) throw new AppError(503, 'Rate limiter unavailable', { cause: error });
    throw error;
  }
}

function setHeaders(ctx: RequestContext, decision: Decision) {
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetAt));
}

/**
 * Spends one token of each target in turn; the first that refuses answers 429 with its own headers (the budgets
 * after it are not spent). When all allow, the headers are those of the budget with the fewest requests left: the one
 * a client runs into first.
 */
/**
 * Spends one token of each target; a 429 AppError (with Retry-After) for the first that has none. `onDecision` sees
 * the refusing decision, or else the tightest one (for the X-RateLimit headers).
 */
export async function spendTokens(limiter: RateLimiter, targets: RateLimitTarget[], onDecision: (decision: Decision) => void = () => undefined): Promise<void> {
  let tightest: Decision | undefined;
  // One round trip to the store for all of them (an API token's request spends two budgets).
  const decisions = targets.length === 1 ? [await take(limiter, targets[0]!)] : await takeAll(limiter, targets);
  for (const [index, decision] of decisions.entries()) {
    const target = targets[index]!;
    if (!decision.allowed) {
      onDecision(decision);
      const seconds = decision.retryAfterSeconds;
      throw new AppError(429, `Rate limit exceeded: ${decision.limit} ${target.what ?? 'requests per minute'}; retry in ${seconds} s`, {
        headers: { 'Retry-After': String(seconds) },
        extra: { retryAfter: seconds },
      });
    }
    if (!tightest || decision.remaining < tightest.remaining) tightest = decision;
  }
  if (tightest) onDecision(tightest);
}

export const spend = (limiter: RateLimiter, ctx: RequestContext, targets: RateLimitTarget[]): Promise<void> =>
  spendTokens(limiter, targets, (decision) => setHeaders(ctx, decision));

/** A principal's buckets (docs/access.md, "Rate limits"): an API token's own and its user's ceiling, or a session's. */
export const principalTargets = (principal: Principal): RateLimitTarget[] =>
  principal.kind === 'TOKEN'
    ? [
        { key: `token:${principal.tokenId}`, bucket: BUCKETS[principal.user.tier] },
        { key: `user:${principal.user.id}`, bucket: USER_CEILING[principal.user.tier], what: 'requests per minute across all your API tokens' },
      ]
    : [{ key: `user:${principal.user.id}`, bucket: BUCKETS.SESSION }];

export function rateLimit(limiter: RateLimiter, resolve: RateLimitResolver): Middleware {
  return async function limitRate(ctx, next) {
    const target = resolve(ctx);
    if (!target) return next();
    await spend(limiter, ctx, Array.isArray(target) ? target : [target]);
    await next();
  };
}

/**
 * Wraps authentication so that a request whose credential is refused (401) spends a token of `target`'s budget (the
 * client address's): past it, the answer is 429 instead of 401. A request that authenticates spends nothing of it, so
 * a valid credential from an address that someone else floods with bad ones is still served. A 401 from further down
 * the pipeline (after authentication) is not a failed authentication and spends nothing either.
 */
export function limitFailures(limiter: RateLimiter, target: (ctx: RequestContext) => RateLimitTarget, authenticate: Middleware): Middleware {
  return async function limitAuthenticationFailures(ctx, next) {
    let authenticated = false;
    try {
      await authenticate(ctx, () => {
        authenticated = true;
        return next();
      });
    } catch (error) {
      if (!authenticated && error instanceof AppError && error.status === 401) await spend(limiter, ctx, [target(ctx)]);
      throw error;
    }
  };
}
