/**
 * Work an orchestrator process does on a fixed beat (the job delivery sweep, folding player activity, the metrics
 * history's maintenance, event and webhook delivery retention): each round
 * runs after the previous one ends (never two at once), a failed round is logged and the next one comes on time,
 * and `stop` waits for a round under way.
 */
import type { Logger } from '../schema/logger.ts';

export type Repeating = { stop: () => Promise<void> };

/** Runs `round` every `everyMs`; a round answering true (more is waiting) is followed by another at once. */
export function repeatEvery(options: { everyMs: number; logger: Logger; what: string; round: () => Promise<boolean> }): Repeating {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      while (!stopped && (await options.round()));
    } catch (error) {
      options.logger.warn({ err: error }, `${options.what} failed; retrying`);
    }
    if (!stopped) timer = setTimeout(() => void (running = tick()), options.everyMs);
  };
  timer = setTimeout(() => void (running = tick()), options.everyMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
