/**
 * What every rate limiter answers, whatever holds its buckets (memory for one node, Redis for several).
 *
 * Glossary: a *key* names whose budget is spent (`token:<id>`, `user:<id>`, `ip:<address>`); a *bucket* (tiers.ts)
 * says how large that budget is and how fast it refills; a *decision* is the answer for one request. A *cap* (tiers.ts)
 * bounds how many things a key holds at once (open `/live` sockets) rather than how often it asks; a *holder* is one
 * such thing (a socket's id, unique across nodes).
 */
import type { Bucket, Cap } from './tiers.ts';

export type Decision = {
  allowed: boolean;
  /** The bucket's rate per minute (`X-RateLimit-Limit`). */
  limit: number;
  /** Whole tokens available now, after this request (`X-RateLimit-Remaining`). */
  remaining: number;
  /** Epoch seconds when the bucket will be full again (`X-RateLimit-Reset`). */
  resetAt: number;
  /** Whole seconds until one token is available (`Retry-After`); 0 when allowed. */
  retryAfterSeconds: number;
};

export interface RateLimiter {
  /** Spends one token of `key`'s `bucket`. Rejects with RateLimiterUnavailableError when the store cannot answer. */
  take(key: string, bucket: Bucket): Promise<Decision>;
  /**
   * Whether `key`'s `bucket` has a token now (`allowed`), spending nothing: for budgets spent only by failures, which
   * must refuse an attempt before it is known to fail. Rejects as `take` does.
   */
  peek(key: string, bucket: Bucket): Promise<Decision>;
  /**
   * Spends one token of each `{ key, bucket }` in turn, in one round trip to the store, stopping at the first that
   * refuses: answers the decisions up to and including that one (the buckets after it are not spent). Rejects as
   * `take` does.
   */
  takeAll(targets: readonly { key: string; bucket: Bucket }[]): Promise<Decision[]>;
  /**
   * Counts `holder` against every slot's cap, all or none: answers the first slot that is already full (nothing is
   * held then), or null once the holder is counted in all of them. Holding again what is already held is allowed.
   * Rejects with RateLimiterUnavailableError when the store cannot answer (nothing is held then either).
   */
  hold(holder: string, slots: readonly Slot[]): Promise<Slot | null>;
  /** Ends what `hold` counted; never rejects (a store that cannot answer forgets it by itself, see the Redis limiter). */
  release(holder: string, slots: readonly Slot[]): void;
  /** Whether the store answers now (for /readyz); rejects with RateLimiterUnavailableError when it does not. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** One cap to count a holder against: whose (`key`) and how many at most (`cap`); `what` names it in a refusal. */
export type Slot = { key: string; cap: Cap; what: string };

/** The store of the buckets cannot answer. Callers fail closed (503): no answer is never taken as "allowed". */
export class RateLimiterUnavailableError extends Error {
  override name = 'RateLimiterUnavailableError';
}

const MS_PER_MINUTE = 60_000;

/** Milliseconds for `bucket` to refill `tokens` tokens. Multiplying before dividing keeps whole rates exact. */
export const refillMs = (bucket: Bucket, tokens: number): number => (tokens * MS_PER_MINUTE) / bucket.perMinute;

/** Tokens `bucket` gains in `elapsedMs`. */
export const refilled = (bucket: Bucket, elapsedMs: number): number => (elapsedMs * bucket.perMinute) / MS_PER_MINUTE;

/**
 * The decision for a bucket left with `tokens` (after this request's token, when allowed) at `nowMs`. Shared by every
 * limiter so they answer the same numbers for the same state.
 */
export function decisionFor(bucket: Bucket, tokens: number, nowMs: number, allowed: boolean): Decision {
  return {
    allowed,
    limit: bucket.perMinute,
    remaining: Math.floor(tokens),
    resetAt: Math.ceil((nowMs + refillMs(bucket, bucket.burst - tokens)) / 1000),
    retryAfterSeconds: allowed ? 0 : Math.ceil(refillMs(bucket, 1 - tokens) / 1000),
  };
}
