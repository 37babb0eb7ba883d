/**
 * The rate-limit buckets (docs/access.md). A bucket is a token bucket: it holds at most `burst` tokens, refills
 * continuously at `perMinute` tokens a minute, and every request takes one token.
 *
 * - FREE, PRO, ENTERPRISE: per principal (API token, or user), by the user's tier.
 * - SESSION: the "general limit" for session-token traffic.
 * - SIGN_IN: per client IP on the sign-in endpoints, so password guessing is slow whoever is guessed.
 * - AUTH_FAILURE: per client IP, spent only by requests whose credential is refused (401), so guessing tokens is slow
 *   and a flood of bad tokens is cut off early, while a valid credential from the same address is never refused by it.
 * - ACCOUNT_GUESS: per account (its e-mail address), spent only by a wrong password (a failed sign-in, a refused password
 *   change), 5 per 15 minutes: guessing one account's password from many addresses stays slow.
 * - USER_<tier>: per user, spent by every request of any of the user's API tokens on top of the token's own bucket,
 *   at twice the tier's rate and burst: creating more tokens does not multiply a user's budget.
 */

export type Bucket = {
  /** Part of the storage key, so two buckets never share tokens even for the same key. */
  name: string;
  /** Refill rate, and the `X-RateLimit-Limit` a client sees. */
  perMinute: number;
  /** Capacity: how many requests may arrive at once after a quiet spell. */
  burst: number;
};

export const BUCKETS = {
  FREE: { name: 'FREE', perMinute: 60, burst: 10 },
  PRO: { name: 'PRO', perMinute: 300, burst: 50 },
  ENTERPRISE: { name: 'ENTERPRISE', perMinute: 1000, burst: 100 },
  SESSION: { name: 'SESSION', perMinute: 100, burst: 20 },
  SIGN_IN: { name: 'SIGN_IN', perMinute: 10, burst: 10 },
  AUTH_FAILURE: { name: 'AUTH_FAILURE', perMinute: 30, burst: 30 },
  ACCOUNT_GUESS: { name: 'ACCOUNT_GUESS', perMinute: 5 / 15, burst: 5 },
  USER_FREE: { name: 'USER_FREE', perMinute: 120, burst: 20 },
  USER_PRO: { name: 'USER_PRO', perMinute: 600, burst: 100 },
  USER_ENTERPRISE: { name: 'USER_ENTERPRISE', perMinute: 2000, burst: 200 },
} as const satisfies Record<string, Bucket>;

/** A bound on how many things one key holds at once; `name` is part of the storage key, as a bucket's. */
export type Cap = { name: string; max: number };

/**
 * Open `/live` sockets (docs/events.md): per credential (one API token, or one sign-in's session) and per user across
 * all of them. The dashboard opens one socket per tab, all on the browser's one session: a user with a dozen tabs in
 * two browsers is far inside both; a socket that dropped without a goodbye is counted until the service notices (at
 * most 30 s), so a reconnecting tab briefly counts twice.
 */
export const CAPS = {
  LIVE_SOCKETS_PER_CREDENTIAL: { name: 'LIVE_CREDENTIAL', max: 20 },
  LIVE_SOCKETS_PER_USER: { name: 'LIVE_USER', max: 40 },
} as const satisfies Record<string, Cap>;

/** The ceiling of all of a user's API tokens together, by the user's tier. */
export const USER_CEILING = { FREE: BUCKETS.USER_FREE, PRO: BUCKETS.USER_PRO, ENTERPRISE: BUCKETS.USER_ENTERPRISE } as const;

export type BucketName = keyof typeof BUCKETS;
