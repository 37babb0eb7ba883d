/**
 * A budget of wrong current passwords per account (docs/access.md, "Rate limits") on the password change:
 * the per-address sign-in limit alone lets many addresses guess one account's password. Keyed by the e-mail address
 * as typed (lower-cased), so an address without an account is limited the same way and a 429 says nothing about
 * whether an account exists.
 *
 * Only a wrong password spends it, so its owner signing in often is never refused; but an attempt is checked before
 * the password is, so past the budget even the right password is refused until a token refills.
 */
import { AppError } from '../../schema/errors.ts';
import { RateLimiterUnavailableError, type Decision, type RateLimiter } from '../rateLimit/limiter.ts';
import { BUCKETS } from '../rateLimit/tiers.ts';

const keyOf = (email: string) => `email:${email.toLowerCase()}`;

async function ask(work: () => Promise<Decision>): Promise<Decision> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RateLimiterUnavailableError) throw new AppError(503, 'Rate limiter unavailable', { cause: error });
    throw error;
  }
}

const refused = (decision: Decision) =>
  new AppError(429, `Too many wrong passwords for this account; retry in ${decision.retryAfterSeconds} s`, {
    headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    extra: { retryAfter: decision.retryAfterSeconds },
  });

/** Throws 429 when the account has no wrong guess left. A null limiter (RATE_LIMIT=off) limits nothing. */
export async function checkPasswordGuesses(limiter: RateLimiter | null, email: string): Promise<void> {
  if (!limiter) return;
  const decision = await ask(() => limiter.peek(keyOf(email), BUCKETS.ACCOUNT_GUESS));
  if (!decision.allowed) throw refused(decision);
}

/** Spends one wrong guess of the account's budget (a 429 when two attempts raced for its last one). */
export async function spendPasswordGuess(limiter: RateLimiter | null, email: string): Promise<void> {
  if (!limiter) return;
  const decision = await ask(() => limiter.take(keyOf(email), BUCKETS.ACCOUNT_GUESS));
  if (!decision.allowed) throw refused(decision);
}
