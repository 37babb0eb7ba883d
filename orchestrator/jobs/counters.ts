/**
 * The job counters of /metrics are counted per connection (sql/functions/gsm_jobs_count.sql: each backend in a slot it
 * holds while open, sql/functions/gsm_counter_slot.sql, so counting transactions do not wait for each other). The slots
 * that no open connection of this database holds are folded into slot -1 on a slow beat in every orchestrator process,
 * so the rows stay about as many as the connections open; a scrape sums every slot, before and after a fold alike. The
 * fold never waits for a counting transaction: a row one holds (a connection that took the slot after the fold read
 * which slots are held) is skipped, and stays until that connection closes; such a connection, counting while a fold
 * holds its slot's row, waits for the fold's commit (milliseconds) and then counts in a new row. Two processes folding
 * at once: each takes the rows the other did not lock, and both add to slot -1 in key order, so they may wait for each
 * other there but never deadlock.
 */
import { sql } from 'slonik';
import type { Logger } from '../../schema/logger.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

const EVERY_MS = 5 * 60_000;
/** The advisory lock class by which a connection holds its counter slot ("gsmc"; sql/functions/gsm_counter_slot.sql). */
export const COUNTER_SLOT_LOCK_CLASS = 1_735_617_891;

/** Folds the counter rows of closed connections into slot -1; answers how many rows went. */
export async function foldClosedCounters(pool: DatabasePool): Promise<number> {
  const folded = await pool.oneFirst(sql.unsafe`
    WITH live AS (
      -- The slots this database's open connections hold (sql/functions/gsm_counter_slot.sql).
      SELECT DISTINCT objid::integer AS slot FROM pg_locks
       WHERE locktype = 'advisory' AND classid = ${COUNTER_SLOT_LOCK_CLASS} AND objsubid = 2 AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    ), counters AS (
      DELETE FROM job_counters WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM job_counters c WHERE slot >= 0 AND NOT EXISTS (SELECT 1 FROM live WHERE live.slot = c.slot) FOR UPDATE SKIP LOCKED))
      RETURNING type, status, n
    ), latency AS (
      DELETE FROM job_latency WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM job_latency l WHERE slot >= 0 AND NOT EXISTS (SELECT 1 FROM live WHERE live.slot = l.slot) FOR UPDATE SKIP LOCKED))
      RETURNING type, bucket, n, seconds
    ), counted AS (
      INSERT INTO job_counters AS c (type, status, slot, n) SELECT type, status, -1, sum(n) FROM counters GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT ON CONSTRAINT job_counters_pkey DO UPDATE SET n = c.n + EXCLUDED.n
    ), timed AS (
      INSERT INTO job_latency AS l (type, bucket, slot, n, seconds) SELECT type, bucket, -1, sum(n), sum(seconds) FROM latency GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT ON CONSTRAINT job_latency_pkey DO UPDATE SET n = l.n + EXCLUDED.n, seconds = l.seconds + EXCLUDED.seconds
    )
    SELECT ((SELECT count(*) FROM counters) + (SELECT count(*) FROM latency))::int`);
  return Number(folded);
}

export const startCounterFolding = (options: { pool: DatabasePool; logger: Logger }): Repeating =>
  repeatEvery({
    everyMs: EVERY_MS,
    logger: options.logger,
    what: 'job counter folding',
    round: async () => {
      await foldClosedCounters(options.pool);
      return false;
    },
  });
