/**
 * LISTEN on a Postgres channel over a dedicated connection, re-opened when it drops (a Postgres restart), so that
 * notifications keep arriving. One per process and channel: waiters fan out in memory. `onListening` and `onLost` tell
 * a listener that must know whether it could have missed a notification (the principal cache) when the connection
 * listens and when it is gone; `notify` sends a notification over the same connection (it never waits for the pool).
 */
import type pg from 'pg';
import type { Logger } from '../schema/logger.ts';
import { createPgPool } from './pgPool.ts';

/** Back-off before re-opening a dropped listening connection. */
const RETRY_MS = 1_000;

export async function listen(options: {
  databaseUrl: string;
  channel: string;
  logger: Logger;
  onPayload: (payload: string) => void;
  onListening?: () => void;
  onLost?: () => void;
}): Promise<{ close: () => Promise<void>; notify: (payload: string) => Promise<void>; backendPid: () => number | null }> {
  const pool = createPgPool(options.databaseUrl, { max: 1, logger: options.logger, name: `listen-${options.channel}` });
  let client: pg.PoolClient | undefined;
  let closed = false;
  /**
   * Drops `failed` (once, however many errors it reports) and connects again after a pause. A client that is no longer
   * the current one (already dropped, or released by close) is left alone: the database stopping while it says goodbye
   * still reports an error on it, and releasing it twice would throw out of the event handler.
   */
  const retry = (failed: pg.PoolClient | undefined) => {
    if (failed === undefined || failed !== client) return;
    client = undefined;
    failed.release(true);
    options.onLost?.();
    if (!closed) setTimeout(() => void connect(), RETRY_MS);
  };
  const connect = async (): Promise<void> => {
    if (closed) return;
    let current: pg.PoolClient | undefined;
    try {
      current = await pool.connect();
      if (closed) {
        current.release(true);
        return;
      }
      client = current;
      const mine = current;
      current.on('notification', (message) => {
        if (message.channel === options.channel && message.payload) options.onPayload(message.payload);
      });
      current.on('error', () => retry(mine));
      current.on('end', () => retry(mine));
      await current.query(`LISTEN ${options.channel}`);
      if (client === mine) options.onListening?.();
    } catch (error) {
      options.logger.warn({ err: error, channel: options.channel }, 'could not listen; retrying');
      if (current) retry(current);
      else if (!closed) setTimeout(() => void connect(), RETRY_MS);
    }
  };
  await connect();
  return {
    backendPid: () => (client as (pg.PoolClient & { processID?: number }) | undefined)?.processID ?? null,
    async notify(payload) {
      if (!client) throw new Error(`not listening on ${options.channel}`);
      await client.query('SELECT pg_notify($1, $2)', [options.channel, payload]);
    },
    async close() {
      closed = true;
      const current = client;
      client = undefined;
      current?.release(true);
      await pool.end();
    },
  };
}
