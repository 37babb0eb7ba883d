/**
 * Deletes finished webhook deliveries older than EVENT_RETENTION_DAYS (their events are gone too by then), a batch at
 * a time, on a slow beat in every orchestrator process (concurrent deletes of the same rows simply find them gone).
 * A pending delivery stays until it ends (docs/webhooks.md).
 */
import { sql } from 'slonik';
import type { Logger } from '../../schema/logger.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

const EVERY_MS = 5 * 60_000;
/** Rows per DELETE: short transactions, so retention never holds locks or WAL for long. */
const BATCH = 10_000;

/** Deletes one batch of finished webhook deliveries older than `days`; answers whether a full batch went (more may be waiting). */
export async function deleteOldDeliveries(pool: DatabasePool, days: number): Promise<boolean> {
  const deleted = await pool.query(sql.unsafe`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries WHERE status <> 'PENDING' AND created_at < now() - make_interval(days => ${days}) ORDER BY created_at LIMIT ${BATCH})`);
  return deleted.rowCount === BATCH;
}

export const startDeliveryRetention = (options: { pool: DatabasePool; logger: Logger; days: number }): Repeating =>
  repeatEvery({
    everyMs: EVERY_MS,
    logger: options.logger,
    what: 'webhook delivery retention',
    round: () => deleteOldDeliveries(options.pool, options.days),
  });
