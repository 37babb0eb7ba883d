/**
 * LISTEN on a Postgres channel over a dedicated connection, re-opened when it drops (a Postgres restart), so that
 * notifications keep arriving. One per process and channel: waiters fan out in memory.
 */
import type pg from 'pg';
import type { Logger } from '../observability/logger.ts';
import { createPgPool } from './pgPool.ts';

/** Back-off before re-opening a dropped listening connection. */
const RETRY_MS = 1_000;

export async function listen(options: { databaseUrl: string; channel: string; logger: Logger; onPayload: (payload: string) => void }): Promise<{ close: () => Promise<void> }> {
  const pool = createPgPool(options.databaseUrl, { max: 1, logger: options.logger, name: `listen-${options.channel}` });
  let client: pg.PoolClient | undefined;
  let closed = false;
  const retry = () => {
    client?.release(true);
    client = undefined;
    if (!closed) setTimeout(() => void connect(), RETRY_MS);
  };
  const connect = async (): Promise<void> => {
    try {
      client = await pool.connect();
      client.on('notification', (message) => {
        if (message.channel === options.channel && message.payload) options.onPayload(message.payload);
      });
      client.on('error', retry);
      await client.query(`LISTEN ${options.channel}`);
    } catch (error) {
      options.logger.warn({ err: error, channel: options.channel }, 'could not listen; retrying');
      retry();
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      client?.release(true);
      await pool.end();
    },
  };
}
