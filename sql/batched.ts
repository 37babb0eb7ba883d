/**
 * Coalesces calls that arrive close together into one statement: calls made in the same event-loop turn, or while
 * the previous batch's statement runs, go into the next batch (at most MAX_BATCH keys). Under light load a call costs
 * one turn of latency; under heavy load N calls cost one round trip instead of N. Each call gets its own answer.
 *
 * The keys of a batch come from different callers (for the gateway: agents of different tenants), so one key must never
 * fail another's: when a batch's statement fails, its keys are run again one by one, and each call gets its own answer
 * or its own error. A failure that is nobody's key (the database is away) then fails each of them, as it would have.
 */

/** Keys per statement at most. */
const MAX_BATCH = 1_000;

type Waiting<K, R> = { key: K; resolve: (result: R) => void; reject: (error: unknown) => void };

export type Batched<K, R> = { add: (key: K) => Promise<R> };

/** `run` answers one result per key, in the order of `keys`. */
export function batched<K, R>(run: (keys: K[]) => Promise<R[]>): Batched<K, R> {
  let waiting: Waiting<K, R>[] = [];
  let running = false;
  let scheduled = false;

  const flush = async (): Promise<void> => {
    scheduled = false;
    if (running || waiting.length === 0) return;
    running = true;
    const batch = waiting.slice(0, MAX_BATCH);
    waiting = waiting.slice(MAX_BATCH);
    try {
      const results = await run(batch.map((item) => item.key));
      batch.forEach((item, index) => item.resolve(results[index]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      // One at a time: the rare path, and it must not take more of the pool than the batch did.
      else for (const item of batch) await run([item.key]).then(([result]) => item.resolve(result!), item.reject);
    } finally {
      running = false;
      if (waiting.length > 0) void flush();
    }
  };

  return {
    add: (key) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ key, resolve, reject });
        if (!running && !scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      }),
  };
}
