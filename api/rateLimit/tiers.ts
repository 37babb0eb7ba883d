/**
 * The rate-limit buckets (docs/access.md). A bucket is a token bucket: it holds at most `burst` tokens, refills
 * continuously at `perMinute` tokens a minute, and every request takes one token.
 *
 * - FREE, PRO, ENTERPRISE: per principal (API token, or user), by the user's tier.
 * - SESSION: the "general limit" for session-token traffic.
 * - SIGN_IN: per client IP on the sign-in endpoints, so password guessing is slow whoever is guessed.
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
} as const satisfies Record<string, Bucket>;

export type BucketName = keyof typeof BUCKETS;
