/**
 * Numbers committed events (gsm_sequence_events) so readers can see them. Every orchestrator process runs one; the
 * database lets one number at a time. A round starts as soon as a transaction with events commits (the
 * `gsm_events_pending` notification) and at least every FALLBACK_MS (a notification missed while the listening
 * connection was re-opened).
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { Logger } from '../../schema/logger.ts';
import { listen } from '../../sql/listen.ts';
import type { DatabasePool } from '../../sql/pool.ts';

/** Events numbered per statement: a burst is numbered in several short transactions, not one long one. */
export const SEQUENCE_BATCH = 1_000;
const FALLBACK_MS = 1_000;
/** Pause after a failed round (the database away): the next notification or the fallback beat tries again. */
const RETRY_MS = 1_000;

export type Sequencer = { stop: () => Promise<void> /** Numbers what is pending now (tests). */; runOnce: () => Promise<number> };

/** Made once, not per round (zod compiles a schema on its first parse). */
const numbered = z.object({ numbered: z.number() });
export const sequenceEvents = (pool: DatabasePool, limit = SEQUENCE_BATCH): Promise<number> =>
  pool.oneFirst(sql.type(numbered)`SELECT gsm_sequence_events(${limit}) AS numbered`);

export async function startSequencer(options: { pool: DatabasePool; databaseUrl: string; logger: Logger }): Promise<Sequencer> {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const round = async () => {
    try {
      while (!stopped && (await sequenceEvents(options.pool)) === SEQUENCE_BATCH);
    } catch (error) {
      options.logger.warn({ err: error }, 'numbering events failed; retrying');
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  /** Starts a round, or asks the running one to be followed by another (events may have committed meanwhile). */
  const kick = () => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await round();
      } while (again && !stopped);
      running = undefined;
    })();
  };

  const listener = await listen({ databaseUrl: options.databaseUrl, channel: 'gsm_events_pending', logger: options.logger, onPayload: kick });
  const beat = setInterval(kick, FALLBACK_MS);
  kick();
  return {
    runOnce: () => sequenceEvents(options.pool),
    async stop() {
      stopped = true;
      clearInterval(beat);
      await listener.close();
      await running;
    },
  };
}
