/**
 * Token buckets in this process's memory: the limiter of a single API node (no REDIS_URL).
 *
 * A bucket is stored as the tokens it had at its last allowed request; the refill since then is computed when the
 * next request arrives, so nothing runs per bucket between requests. A bucket that has refilled completely holds no
 * information (a missing bucket counts as full), so a periodic sweep drops those: the map holds at most the keys seen
 * within the longest time-to-full (a minute for the buckets in tiers.ts) plus one sweep interval, however many
 * distinct keys a flood brings. Caps are sets of holders per key, emptied by `release` (a process that ends takes its
 * holders with it).
 */
import { decisionFor, refillMs, refilled, type Decision, type RateLimiter, type Slot } from './limiter.ts';
import type { Bucket } from './tiers.ts';

/** How often buckets that are full again are dropped. */
export const SWEEP_INTERVAL_MS = 10_000;

export type MemoryLimiterOptions = {
  /** Clock in epoch milliseconds (tests pass their own). Default Date.now. */
  now?: () => number;
  /** Default SWEEP_INTERVAL_MS. */
  sweepIntervalMs?: number;
};

type State = {
  /** Tokens left after the last allowed request. */
  tokens: number;
  /** When `tokens` was computed (epoch ms). */
  updatedAt: number;
  /** When the bucket will be full again (epoch ms): after that the state can be forgotten. */
  fullAt: number;
};

export class MemoryLimiter implements RateLimiter {
  readonly #states = new Map<string, State>();
  readonly #holders = new Map<string, Set<string>>();
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: MemoryLimiterOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
    // The sweep only saves memory: it must never keep the process alive.
    this.#sweeper.unref();
  }

  /** Synchronous work in an already-resolved promise: no timer, no I/O on the request path. */
  async takeAll(targets: readonly { key: string; bucket: Bucket }[]): Promise<Decision[]> {
    const decisions: Decision[] = [];
    for (const target of targets) {
      const decision = await this.take(target.key, target.bucket);
      decisions.push(decision);
      if (!decision.allowed) break;
    }
    return decisions;
  }

  take(key: string, bucket: Bucket): Promise<Decision> {
    return Promise.resolve(this.takeNow(key, bucket));
  }

  peek(key: string, bucket: Bucket): Promise<Decision> {
    const now = this.#now();
    const state = this.#states.get(`${bucket.name}:${key}`);
    const tokens = state ? Math.min(bucket.burst, state.tokens + refilled(bucket, Math.max(0, now - state.updatedAt))) : bucket.burst;
    return Promise.resolve(decisionFor(bucket, tokens, now, tokens >= 1));
  }

  takeNow(key: string, bucket: Bucket): Decision {
    const now = this.#now();
    const id = `${bucket.name}:${key}`;
    const state = this.#states.get(id);
    // A clock stepping backwards (NTP) must not drain a bucket: negative elapsed time counts as none.
    let tokens = state ? Math.min(bucket.burst, state.tokens + refilled(bucket, Math.max(0, now - state.updatedAt))) : bucket.burst;
    const allowed = tokens >= 1;
    // A refused request changes nothing: the stored state still computes the same tokens later, so a flood of
    // refused requests costs no writes.
    if (allowed) {
      tokens -= 1;
      const fullAt = now + refillMs(bucket, bucket.burst - tokens);
      if (state) {
        state.tokens = tokens;
        state.updatedAt = now;
        state.fullAt = fullAt;
      } else {
        this.#states.set(id, { tokens, updatedAt: now, fullAt });
      }
    }
    return decisionFor(bucket, tokens, now, allowed);
  }

  hold(holder: string, slots: readonly Slot[]): Promise<Slot | null> {
    const full = slots.find((slot) => {
      const holders = this.#holders.get(`${slot.cap.name}:${slot.key}`);
      return holders !== undefined && !holders.has(holder) && holders.size >= slot.cap.max;
    });
    if (full) return Promise.resolve(full);
    for (const slot of slots) {
      const id = `${slot.cap.name}:${slot.key}`;
      const holders = this.#holders.get(id) ?? new Set<string>();
      holders.add(holder);
      this.#holders.set(id, holders);
    }
    return Promise.resolve(null);
  }

  release(holder: string, slots: readonly Slot[]): void {
    for (const slot of slots) {
      const id = `${slot.cap.name}:${slot.key}`;
      const holders = this.#holders.get(id);
      holders?.delete(holder);
      if (holders?.size === 0) this.#holders.delete(id);
    }
  }

  /** Drops every bucket that is full again; answers how many were dropped. Runs on a timer; public for tests. */
  sweep(): number {
    const now = this.#now();
    let dropped = 0;
    for (const [id, state] of this.#states) {
      if (state.fullAt <= now) {
        this.#states.delete(id);
        dropped += 1;
      }
    }
    return dropped;
  }

  /** Buckets currently held. */
  get size(): number {
    return this.#states.size;
  }

  /** Holders counted against `slot` now (for tests). */
  held(slot: Slot): number {
    return this.#holders.get(`${slot.cap.name}:${slot.key}`)?.size ?? 0;
  }

  /** In-process buckets always answer. */
  check(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#states.clear();
    this.#holders.clear();
    return Promise.resolve();
  }
}
