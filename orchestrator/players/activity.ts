/**
 * Folding player activity (sql/migrations/000010): the players trigger appends a delta row per change; every orchestrator folds
 * them into the per-day rows every FOLD_INTERVAL_MS (one fold at a time across processes; the others skip that
 * round). Readers add up both tables, so the figures are exact whether or not a fold has run; folding keeps the
 * delta table short.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

/** Short enough that the deltas a reader adds up stay few (at 5,000 reports a second, a few thousand rows). */
export const FOLD_INTERVAL_MS = 2_000;

/** Folds the deltas written so far; answers how many were folded (0 when another process is folding). */
export const foldPlayerActivity = (pool: DatabasePool) =>
  pool.oneFirst(sql.type(z.object({ folded: z.number() }))`SELECT gsm_fold_player_activity()::int AS folded`);

export const startActivityFolder = (options: { pool: DatabasePool; logger: Logger; everyMs?: number }): Repeating =>
  repeatEvery({
    everyMs: options.everyMs ?? FOLD_INTERVAL_MS,
    logger: options.logger,
    what: 'player activity fold',
    round: async () => (await foldPlayerActivity(options.pool), false),
  });
