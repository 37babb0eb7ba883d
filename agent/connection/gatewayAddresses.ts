/**
 * The gateway addresses an agent may use (`--url a,b,c`) and when to try the next connection: several orchestrator
 * processes can be reached without a load balancer. A connection attempt that fails (refused, unreachable, or the
 * service answered UNAVAILABLE) moves on to the next address; a connection that worked and dropped is tried again at
 * the same address first. Consecutive attempts wait 1 s, 2 s, 4 s … at most 30 s, each ±50 % (so a fleet does not
 * come back in step); a successful authentication starts the back-off over.
 */

export type BackOff = { baseMs: number; maxMs: number; randomization: number };

export const RECONNECT_BACK_OFF: BackOff = { baseMs: 1_000, maxMs: 30_000, randomization: 0.5 };

export class GatewayAddresses {
  readonly urls: readonly string[];
  readonly #backOff: BackOff;
  readonly #random: () => number;
  #index = 0;
  #failures = 0;

  constructor(urls: readonly string[], backOff: BackOff = RECONNECT_BACK_OFF, random: () => number = Math.random) {
    if (urls.length === 0) throw new Error('at least one gateway address is needed');
    this.urls = urls;
    this.#backOff = backOff;
    this.#random = random;
  }

  get current(): string {
    return this.urls[this.#index]!;
  }

  /** Authenticated: the next drop starts the back-off over. */
  connected(): void {
    this.#failures = 0;
  }

  /** Where and when to try next; `failed` when the last attempt never got a working session. */
  next(failed: boolean): { url: string; delayMs: number } {
    if (failed) this.#index = (this.#index + 1) % this.urls.length;
    const { baseMs, maxMs, randomization } = this.#backOff;
    const delayMs = Math.min(baseMs * 2 ** Math.min(this.#failures, 30), maxMs);
    this.#failures++;
    return { url: this.current, delayMs: Math.round(delayMs * (1 + randomization * (2 * this.#random() - 1))) };
  }
}
