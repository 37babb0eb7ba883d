/**
 * Reports the service must acknowledge (docs/agent-protocol.md): job results (acknowledged once stored) and each
 * server's current status. One item per key, the latest: a newer status of a server replaces the one still waiting.
 * While connected, an item is sent at once, and whatever is still unacknowledged is sent again on a timer with
 * back-off (1 s, doubling, at most 15 s), so a report the service could not store (its database was away for a
 * moment) reaches it without waiting for a reconnect. After a reconnect everything waiting goes out at once.
 */

/** What became of one sending: stored, refused for good (the service will never take it), or to be sent again. */
export type Delivery = 'acked' | 'refused' | 'retry';

export type UntilAckedOptions<T> = {
  /** Sends one item and answers what the service said (a lost connection or a time-out is 'retry'). */
  send: (item: T) => Promise<Delivery>;
  /** The item is stored (or refused for good): it leaves the queue. */
  onSettled?: (key: string, item: T, delivery: 'acked' | 'refused') => void | Promise<void>;
  onError?: (error: unknown) => void;
  minDelayMs?: number;
  maxDelayMs?: number;
};

/** First pause before unacknowledged items are sent again. */
export const RESEND_MIN_MS = 1_000;
/** Longest pause between two rounds of re-sending. */
export const RESEND_MAX_MS = 15_000;

export class UntilAcked<T> {
  readonly #options: UntilAckedOptions<T>;
  readonly #waiting = new Map<string, T>();
  /** Items (by identity) sent and not answered yet: a round of re-sending skips them. */
  readonly #inFlight = new Set<T>();
  #online = false;
  #delayMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: UntilAckedOptions<T>) {
    this.#options = options;
    this.#delayMs = options.minDelayMs ?? RESEND_MIN_MS;
  }

  /** How many items wait for their acknowledgement. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Keeps `item` until acknowledged (replacing an older one of the same key); sends it now when connected. */
  put(key: string, item: T): void {
    this.#waiting.set(key, item);
    if (!this.#online) return;
    this.#send(key, item);
    this.#arm();
  }

  /** Connected (authenticated): sends everything waiting, and re-sends on the timer from now on. */
  online(): void {
    this.#online = true;
    this.#delayMs = this.#options.minDelayMs ?? RESEND_MIN_MS;
    for (const [key, item] of this.#waiting) this.#send(key, item);
    this.#arm();
  }

  /** Disconnected: items wait for the next online(). */
  offline(): void {
    this.#online = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight.clear();
  }

  #arm(): void {
    if (this.#timer || !this.#online || this.#waiting.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#online || this.#waiting.size === 0) return;
      for (const [key, item] of this.#waiting) if (!this.#inFlight.has(item)) this.#send(key, item);
      this.#delayMs = Math.min(this.#delayMs * 2, this.#options.maxDelayMs ?? RESEND_MAX_MS);
      this.#arm();
    }, this.#delayMs);
  }

  #send(key: string, item: T): void {
    this.#inFlight.add(item);
    this.#options
      .send(item)
      .catch((error: unknown) => {
        this.#options.onError?.(error);
        return 'retry' as const;
      })
      .then(async (delivery) => {
        this.#inFlight.delete(item);
        // Only the item that was sent leaves: a newer one of the same key put meanwhile still waits.
        if (delivery === 'retry' || this.#waiting.get(key) !== item) return;
        this.#waiting.delete(key);
        if (this.#waiting.size === 0) this.#delayMs = this.#options.minDelayMs ?? RESEND_MIN_MS;
        await this.#options.onSettled?.(key, item, delivery);
      })
      .catch((error: unknown) => this.#options.onError?.(error));
  }
}
