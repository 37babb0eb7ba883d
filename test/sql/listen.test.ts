/**
 * The LISTEN connection comes back after its backend is killed (as in a Postgres restart), however many errors the
 * dropped connection reports, and notifications keep arriving. An error arriving after close (the database stopping
 * while the connection says goodbye) is ignored rather than crashing the process.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { listen } from '../../sql/listen.ts';
import { createLogger } from '../../schema/logger.ts';
import { createTestDatabase } from '../support/database.ts';
import { until } from '../support/wait.ts';

test('notifications keep arriving after the listening backend is terminated, twice in a row', async (t) => {
  const database = await createTestDatabase();
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const received: string[] = [];
  const listener = await listen({
    databaseUrl: database.url,
    channel: 'gsm_listen_test',
    logger: createLogger('silent'),
    onPayload: (payload) => received.push(payload),
  });
  try {
    await admin.query(`NOTIFY gsm_listen_test, 'one'`);
    await until(async () => received.includes('one'), 'the first notification', 5_000);
    const kill = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`;
    await admin.query(kill);
    await until(
      async () =>
        (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`)).rows[0].n === 1,
      'a new listening connection',
      10_000,
    );
    await admin.query(kill);
    await until(
      async () => {
        await admin.query(`NOTIFY gsm_listen_test, 'two'`);
        return received.includes('two');
      },
      'a notification after two terminations',
      10_000,
    );
    t.pass();
  } finally {
    await listener.close();
    await admin.end();
    await database.drop();
  }
});

test('the database ending the connection just after close is ignored (it used to crash the process on shutdown)', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const listener = await listen({ databaseUrl: database.url, channel: 'gsm_listen_close', logger: createLogger('silent'), onPayload: () => undefined });
  // The backend is terminated by another process while this one's event loop is blocked, and close() runs before the
  // loop turns: the server's "terminating connection" error then reaches a client that has already been released.
  const terminate = `
    const pg = require('pg');
    const client = new pg.Client({ connectionString: process.argv[1] });
    client.connect()
      .then(() => client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"))
      .then(() => client.end());`;
  execFileSync(process.execPath, ['--eval', terminate, database.url], { cwd: new URL('../..', import.meta.url) });
  await listener.close(); // before the fix, the late error released the client a second time: an uncaught exception
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // past the reconnect pause: nothing comes back
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`);
  await admin.end();
  t.is(rows[0].n, 0, 'a closed listener does not connect again');
});
