import pg from 'pg';
import type { Logger } from '../schema/logger.ts';

/**
 * A plain pg pool (for graphile-worker, LISTEN connections and the prepared reads) with `error` listeners on the pool
 * and on every client, so a Postgres restart or a dropped connection is logged instead of crashing the process.
 */
export function createPgPool(databaseUrl: string, options: { max: number; logger?: Logger; name: string; config?: pg.PoolConfig }): pg.Pool {
  const pool = new pg.Pool({ ...options.config, connectionString: databaseUrl, max: options.max });
  const onError = (error: Error) => options.logger?.warn({ err: error, pool: options.name }, 'postgres connection error');
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}
