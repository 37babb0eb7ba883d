/**
 * Deletes events older than EVENT_RETENTION_DAYS, a batch at a time, on a slow beat in every orchestrator process
 * (concurrent deletes of the same rows simply find them gone). Webhook deliveries have their own retention
 * (webhooks/retention.ts).
 */
import { sql } from 'slonik';
import type { Logger } from '../../schema/logger.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

const EVERY_MS = 5 * 60_000;
/** Rows per DELETE: short transactions, so retention never holds locks or WAL for long. */
const BATCH = 10_000;

/** Deletes one batch of events older than `days`; answers whether a full batch went (more may be waiting). */
export async function deleteOldEvents(pool: DatabasePool, days: number): Promise<boolean> {
  const result = await pool.query(sql.unsafe`
    DELETE FROM events WHERE id IN (
      SELECT id FROM events WHERE at < now() - make_interval(days => ${days}) ORDER BY at LIMIT ${BATCH})`);
  return result.rowCount === BATCH;
}

export const startEventRetention = (options: { pool: DatabasePool; logger: Logger; days: number }): Repeating =>
  repeatEvery({
    everyMs: EVERY_MS,
    logger: options.logger,
    what: 'event retention',
    round: () => deleteOldEvents(options.pool, options.days),
  });
