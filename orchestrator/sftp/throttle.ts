/**
 * The throttle on SFTP sign-ins (docs/sftp.md), as sign-in's (docs/access.md, "Rate limits"): token buckets per
 * client address (every attempt), per user name (refused key attempts only, so a user signing in often is never
 * refused; but once its budget is spent even the right key is refused until a token refills) and per account (refused
 * passwords). An attempt spends its token before it is decided and gets it back when allowed, so parallel attempts
 * cannot overdraw a budget; and at most SFTP_PASSWORD_CHECKS passwords are checked at once. Held by the
 * orchestrator process that holds the agent's connection: every attempt on a machine's SFTP port reaches the service
 * through that one connection.
 */

export type SftpBucket = { perMinute: number; burst: number };

/** Every key an address offers counts: an SSH client tries each key of its agent in turn, so this is generous. */
export const SFTP_ADDRESS_BUCKET: SftpBucket = { perMinute: 60, burst: 60 };
/** Refused key attempts per user name (a key that is not the user's, a user or server that does not exist). */
export const SFTP_USERNAME_BUCKET: SftpBucket = { perMinute: 10, burst: 10 };

/**
 * Wrong passwords per account (its handle, whichever server the user name names), as the account's budget of wrong
 * passwords on the web (docs/access.md, "Wrong passwords"): 5, one back every 3 minutes. Keys never spend it.
 */
export const SFTP_PASSWORD_BUCKET: SftpBucket = { perMinute: 5 / 15, burst: 5 };

/** Password checks (scrypt) run at once per process; more are refused as busy. */
export const SFTP_PASSWORD_CHECKS = 4;

/** Buckets not touched for this long are full again and forgotten. */
const FORGET_MS = 30 * 60_000;
const MAX_KEYS = 100_000;

export class SftpThrottle {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #level(key: string, bucket: SftpBucket): { tokens: number; at: number } {
    const now = this.#now();
    const state = this.#buckets.get(key);
    if (!state) return { tokens: bucket.burst, at: now };
    return { tokens: Math.min(bucket.burst, state.tokens + ((now - state.at) * bucket.perMinute) / 60_000), at: now };
  }

  /** Seconds until `key` has a token (0: it has one now), spending nothing. */
  wait(key: string, bucket: SftpBucket): number {
    const { tokens } = this.#level(key, bucket);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 60) / bucket.perMinute);
  }

  /** Spends one token of `key` (the level may go below zero: a burst of refusals waits them all off). */
  spend(key: string, bucket: SftpBucket): void {
    const level = this.#level(key, bucket);
    if (this.#buckets.size >= MAX_KEYS) this.#prune();
    this.#buckets.set(key, { tokens: Math.max(level.tokens - 1, -bucket.burst), at: level.at });
  }

  /** Gives back the token an attempt spent before it was decided (it was allowed). */
  refund(key: string, bucket: SftpBucket): void {
    const state = this.#buckets.get(key);
    if (!state) return;
    const level = this.#level(key, bucket);
    this.#buckets.set(key, { tokens: Math.min(level.tokens + 1, bucket.burst), at: level.at });
  }

  #passwordChecks = 0;

  /** Claims one of the SFTP_PASSWORD_CHECKS slots; false when all are taken. */
  startPasswordCheck(): boolean {
    if (this.#passwordChecks >= SFTP_PASSWORD_CHECKS) return false;
    this.#passwordChecks++;
    return true;
  }

  endPasswordCheck(): void {
    this.#passwordChecks = Math.max(this.#passwordChecks - 1, 0);
  }

  #prune(): void {
    const cutoff = this.#now() - FORGET_MS;
    for (const [key, state] of this.#buckets) if (state.at < cutoff) this.#buckets.delete(key);
    // Still full (an address spray): the oldest half goes.
    if (this.#buckets.size >= MAX_KEYS) [...this.#buckets.keys()].slice(0, MAX_KEYS / 2).forEach((key) => this.#buckets.delete(key));
  }
}
