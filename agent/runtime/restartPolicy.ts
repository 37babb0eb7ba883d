/**
 * Crash back-off for servers with `autoRestart` (docs/servers.md): after an unasked exit the server starts again after 1 s,
 * 2 s, 4 s … at most 5 min; 5 crashes within 10 minutes stop the loop, because a server that cannot stay up (broken
 * config, corrupt world) would otherwise thrash the machine and flood users with status changes. A run that stays up
 * long enough proves the problem is gone and resets the back-off.
 *
 * Pure bookkeeping with an injectable clock: the caller owns the timers and the process.
 */

export interface RestartPolicyOptions {
  /** First delay; default 1 s. */
  baseMs?: number;
  /** Longest delay; default 5 min. */
  maxMs?: number;
  /** This many crashes within windowMs stop the loop; default 5. */
  maxCrashes?: number;
  /** Default 10 min. */
  windowMs?: number;
  /** A run at least this long counts as stable (recordCrash(runMs)); default 10 min. */
  stableAfterMs?: number;
  now?: () => number;
}

export type RestartDecision = { restart: true; delayMs: number } | { restart: false; reason: string };

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
const duration = (ms: number) => (ms % 60_000 === 0 ? plural(ms / 60_000, 'minute') : plural(ms / 1000, 'second'));

export class RestartPolicy {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #maxCrashes: number;
  readonly #windowMs: number;
  readonly #stableAfterMs: number;
  readonly #now: () => number;
  /** Times of the crashes still inside the window. */
  #crashes: number[] = [];
  /** Restarts since the last stable run: the exponent of the next delay. */
  #attempts = 0;
  #stoppedReason: string | undefined;

  constructor(options: RestartPolicyOptions = {}) {
    this.#baseMs = options.baseMs ?? 1_000;
    this.#maxMs = options.maxMs ?? 300_000;
    this.#maxCrashes = options.maxCrashes ?? 5;
    this.#windowMs = options.windowMs ?? 600_000;
    this.#stableAfterMs = options.stableAfterMs ?? 600_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * An unasked exit happened. `runMs`, when known, is how long that run was up: a long run first resets the
   * back-off, so a server that crashes once a day restarts after 1 s every time.
   */
  recordCrash(runMs?: number): RestartDecision {
    if (runMs !== undefined && runMs >= this.#stableAfterMs) this.recordStableRun();
    if (this.#stoppedReason) return { restart: false, reason: this.#stoppedReason };

    const now = this.#now();
    this.#crashes = this.#crashes.filter((at) => now - at < this.#windowMs);
    this.#crashes.push(now);
    if (this.#crashes.length >= this.#maxCrashes) {
      // Sticky until reset(): further exits must not restart a loop that was declared stopped.
      this.#stoppedReason = `crashed ${this.#crashes.length} times within ${duration(this.#windowMs)}; automatic restarts stopped until the server is started again`;
      return { restart: false, reason: this.#stoppedReason };
    }
    // 2 ** attempts overflows to Infinity long before it matters; min() caps it either way.
    const delayMs = Math.min(this.#baseMs * 2 ** this.#attempts, this.#maxMs);
    this.#attempts++;
    return { restart: true, delayMs };
  }

  /** The server stayed up long enough: the next crash waits baseMs again and old crashes no longer count. */
  recordStableRun(): void {
    this.#attempts = 0;
    this.#crashes = [];
  }

  /** A user started the server (START job): forget everything, including a stopped loop. */
  reset(): void {
    this.recordStableRun();
    this.#stoppedReason = undefined;
  }

  /** The loop was stopped before this policy existed (an earlier agent gave up): stays stopped until reset(). */
  giveUp(reason: string): void {
    this.#stoppedReason = reason;
  }

  /** Whether the loop was stopped, and why; undefined while restarts still happen. */
  get stoppedReason(): string | undefined {
    return this.#stoppedReason;
  }

  get stableAfterMs(): number {
    return this.#stableAfterMs;
  }
}
