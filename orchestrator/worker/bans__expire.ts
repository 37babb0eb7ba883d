/**
 * Lifts a ban when it expires (graphile-worker task `bans__expire`, payload `{ banId }`, scheduled at `expiresAt` with
 * the job key `ban:<id>`, so revoking removes it). Idempotent: a revoked or already lifted ban is left alone.
 */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { expireBan } from '../players/bans.ts';

const payload = z.object({ banId: z.uuid() });

export const expireBanTask =
  (deps: { pool: DatabasePool }): Task =>
  async (raw, helpers) => {
    const { banId } = payload.parse(raw);
    const jobIds = await deps.pool.transaction((tx) => expireBan(tx, banId));
    if (jobIds) helpers.logger.info(`ban ${banId} expired; lifted in the games by ${jobIds.length} UNBAN job(s)`);
  };
