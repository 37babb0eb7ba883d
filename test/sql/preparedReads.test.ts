/**
 * The pool's prepared reads (sql/preparedReads.ts) answer exactly what the slonik pool answers for the same statement:
 * the same values for every type the service's parsers replace (and their arrays), in a UTC session and in another
 * zone; the same row checks; the same errors, so that they are answered the same way (404, 503). And the fast path of
 * timestamps gives what `Date` gives.
 */
import test from 'ava';
import {
  sql,
  BackendTerminatedError,
  ConnectionError,
  DataIntegrityError,
  NotFoundError,
  SchemaValidationError,
  StatementCancelledError,
  StatementTimeoutError,
} from 'slonik';
import { z } from 'zod';
import { createDatabasePool, withSessionOptions } from '../../sql/pool.ts';
import { toIsoTimestamp } from '../../sql/rows.ts';
import { BUILTIN_TYPE_OIDS, createPreparedReads } from '../../sql/preparedReads.ts';
import { fromDatabaseError } from '../../api/middleware/databaseErrors.ts';
import { ADMIN_URL, withAdmin } from '../support/database.ts';
import { until } from '../support/wait.ts';

const everyType = (name: string) =>
  sql.prepared(name, z.record(z.string(), z.unknown()))`
    SELECT 9007199254740000::int8 AS int8, ARRAY[1, 3]::int8[] AS int8s,
           12.5::numeric AS numeric, ARRAY[1.25]::numeric[] AS numerics,
           '2026-02-03'::date AS date, ARRAY['2026-02-03'::date] AS dates,
           '1 day 2 hours'::interval AS interval, ARRAY['90 seconds'::interval] AS intervals,
           '2026-02-03 04:05:06.789123'::timestamp AS timestamp, ARRAY['2026-02-03 04:05:06'::timestamp] AS timestamps,
           '2026-02-03 04:05:06.789123+00'::timestamptz AS timestamptz, '2026-02-03 04:05:06+02'::timestamptz AS other_zone,
           ARRAY['2026-02-03 04:05:06.7+00'::timestamptz, '2026-02-03 04:05:06+01'] AS timestamptzs,
           'infinity'::timestamptz AS forever,
           ARRAY['a', NULL, 'c,d'] AS texts, '{"a":[1,2]}'::json AS json, '\\x00ff'::bytea AS bytea, true AS bool,
           '01a22083-2f55-72b6-ad6f-696db1c01a48'::uuid AS uuid, NULL::text AS nothing, ${'a value'}::text AS bound`;

for (const [zone, options] of [
  ['a UTC session', '-c TimeZone=UTC'],
  ['a session in another zone', '-c TimeZone=Asia/Kolkata'],
] as const) {
  test(`the prepared reads answer what the slonik pool answers, every replaced type and its array, in ${zone}`, async (t) => {
    const pool = await createDatabasePool(withSessionOptions(ADMIN_URL, options), { maxPoolSize: 1 });
    try {
      const name = `gsm_test_types_${zone.length}`;
      const fromSlonik = await pool.one(everyType(name));
      const fromReads = await pool.reads.one(everyType(name));
      t.deepEqual(fromReads, fromSlonik);
      // And the values are the service's, not pg's defaults.
      t.is(fromReads.int8, 9007199254740000);
      t.deepEqual(fromReads.int8s, [1, 3]);
      t.is(fromReads.timestamptz, '2026-02-03T04:05:06.789Z');
      t.is(fromReads.other_zone, '2026-02-03T02:05:06.000Z');
      t.deepEqual(fromReads.timestamptzs, ['2026-02-03T04:05:06.700Z', '2026-02-03T03:05:06.000Z']);
      t.is(fromReads.timestamp, '2026-02-03T04:05:06.789Z');
      t.is(fromReads.forever, null);
      t.is(fromReads.date, '2026-02-03');
      t.deepEqual(fromReads.texts, ['a', null, 'c,d']);
      t.is(fromReads.bound, 'a value');
      // The statement is kept prepared on its connection: a second read runs it again.
      t.deepEqual(await pool.reads.one(everyType(name)), fromSlonik);
      // NULL in an array of a replaced type: slonik's driver gives 0 for an int8 and fails on a timestamptz; the
      // prepared reads keep it NULL. No statement of the service selects one.
      const nulls = await pool.reads.one(sql.prepared(`${name}_nulls`, z.record(z.string(), z.unknown()))`
        SELECT ARRAY[1, NULL]::int8[] AS int8s, ARRAY[NULL, '2026-02-03 04:05:06+00'::timestamptz] AS timestamptzs`);
      t.deepEqual(nulls, { int8s: [1, null], timestamptzs: [null, '2026-02-03T04:05:06.000Z'] });
    } finally {
      await pool.end();
    }
  });
}

test('the built-in type OIDs the prepared reads parse by are those of the catalogue', async (t) => {
  const pool = await createDatabasePool(ADMIN_URL, { maxPoolSize: 1 });
  try {
    const rows = await pool.any(sql.type(z.object({ typname: z.string(), oid: z.number(), typarray: z.number() }))`
      SELECT typname, oid::int, typarray::int FROM pg_type
       WHERE typnamespace = 'pg_catalog'::regnamespace AND typname = ANY(${sql.array(Object.keys(BUILTIN_TYPE_OIDS), 'text')})`);
    t.deepEqual(Object.fromEntries(rows.map((row) => [row.typname, [row.oid, row.typarray]])), BUILTIN_TYPE_OIDS);
  } finally {
    await pool.end();
  }
});

test('the prepared reads fail as the slonik pool does: no row, two rows, a row its schema refuses, a statement time-out', async (t) => {
  // 500 ms: room for the pool's own start-up queries on a loaded machine, well under the slow read's 2 s.
  const pool = await createDatabasePool(ADMIN_URL, { maxPoolSize: 1, statementTimeoutMs: 500 });
  try {
    const none = sql.prepared('gsm_test_none', z.object({ n: z.number() }))`SELECT 1 AS n WHERE false`;
    t.is(await pool.reads.maybeOne(none), null);
    const missing = await t.throwsAsync(pool.reads.one(none), { instanceOf: NotFoundError });
    t.is(fromDatabaseError(missing)?.status, 404);

    const two = sql.prepared('gsm_test_two', z.object({ n: z.number() }))`SELECT generate_series(1, 2) AS n`;
    await t.throwsAsync(pool.reads.maybeOne(two), { instanceOf: DataIntegrityError });
    await t.throwsAsync(pool.reads.one(two), { instanceOf: DataIntegrityError });

    await t.throwsAsync(pool.reads.one(sql.prepared('gsm_test_schema', z.object({ n: z.string() }))`SELECT 1 AS n`), { instanceOf: SchemaValidationError });

    const slow = await t.throwsAsync(pool.reads.one(sql.prepared('gsm_test_slow', z.object({}))`SELECT pg_sleep(2)`), { instanceOf: StatementTimeoutError });
    t.is(fromDatabaseError(slow)?.status, 503);

    await t.throwsAsync(pool.reads.one(sql.type(z.object({ n: z.number() }))`SELECT 1 AS n`), { message: /statement name/ });
    // One name for two texts is refused (pg's own check), not run as the first text with the second's values.
    const first = sql.prepared('gsm_test_name', z.object({ n: z.number() }))`SELECT 1 AS n`;
    const other = sql.prepared('gsm_test_name', z.object({ n: z.number() }))`SELECT 2 AS n`;
    t.deepEqual(await pool.reads.one(first), { n: 1 });
    t.deepEqual(await pool.reads.one(first), { n: 1 });
    await t.throwsAsync(pool.reads.one(other), { message: /unique/ });
    // After failed reads the pool still answers (a connection whose statement failed is replaced).
    t.deepEqual(await pool.reads.one(sql.prepared('gsm_test_after', z.object({ n: z.number() }))`SELECT 1 AS n`), { n: 1 });
  } finally {
    await pool.end();
  }
  // Ending the pool ends its reads (and a second end is harmless).
  await pool.end();
  await t.throwsAsync(pool.reads.one(sql.prepared('gsm_test_ended', z.object({ n: z.number() }))`SELECT 1 AS n`));
});

test('a database that cannot be reached is a ConnectionError (503), whatever the reason, as on the slonik pool', async (t) => {
  const unknownDatabase = new URL(ADMIN_URL);
  unknownDatabase.pathname = '/gsm_no_such_database';
  const closedPort = new URL(ADMIN_URL);
  closedPort.port = '1';
  for (const url of [unknownDatabase, closedPort]) {
    // slonik's pool connects on creation: the reads are made here directly, as createDatabasePool makes them.
    const reads = createPreparedReads(url.toString(), { max: 1, statementTimeoutMs: 1_000 });
    try {
      const error = await t.throwsAsync(reads.one(sql.prepared('gsm_test_unreachable', z.object({ n: z.number() }))`SELECT 1 AS n`), {
        instanceOf: ConnectionError,
      });
      t.is(fromDatabaseError(error)?.status, 503, url.toString());
    } finally {
      await reads.end();
    }
  }
});

const backendPid = sql.prepared('gsm_test_pid', z.object({ pid: z.number() }))`SELECT pg_backend_pid() AS pid`;
const slowRead = sql.prepared('gsm_test_sleep', z.object({}))`SELECT pg_sleep(10)`;

/** Waits until the reads' connection `pid` runs the slow read. */
const whenSleeping = (pid: number) =>
  until(
    () =>
      withAdmin(
        async (admin) =>
          (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%' AND state = 'active'`, [pid])).rowCount === 1,
      ),
    'the slow read running',
  );

/** Runs `signal` (pg_terminate_backend or pg_cancel_backend) on the reads' connection `pid` once it is in pg_sleep. */
async function signalWhenSleeping(pid: number, signal: 'pg_terminate_backend' | 'pg_cancel_backend'): Promise<void> {
  await whenSleeping(pid);
  await withAdmin((admin) => admin.query(`SELECT ${signal}($1)`, [pid]));
}

test('a read whose statement failed does not reuse its connection; a terminated or cancelled read fails as on the slonik pool', async (t) => {
  const reads = createPreparedReads(ADMIN_URL, { max: 1, statementTimeoutMs: 30_000 });
  try {
    const first = (await reads.one(backendPid)).pid;
    t.is((await reads.one(backendPid)).pid, first, 'a connection is reused after a read that succeeded');
    await t.throwsAsync(reads.one(sql.prepared('gsm_test_divide', z.object({ n: z.number() }))`SELECT 1 / 0 AS n`), { message: /division by zero/ });
    const second = (await reads.one(backendPid)).pid;
    t.not(second, first, 'the connection of the failed statement was closed');

    const [terminated] = await Promise.all([t.throwsAsync(reads.one(slowRead)), signalWhenSleeping(second, 'pg_terminate_backend')]);
    t.true(terminated instanceof BackendTerminatedError, String(terminated));
    t.is(fromDatabaseError(terminated)?.status, 503);

    const third = (await reads.one(backendPid)).pid;
    const [cancelled] = await Promise.all([t.throwsAsync(reads.one(slowRead)), signalWhenSleeping(third, 'pg_cancel_backend')]);
    t.true(cancelled instanceof StatementCancelledError, String(cancelled));
  } finally {
    await reads.end();
  }
});

test('ending the reads fails the reads still waiting for a connection at once, not after their time-out', async (t) => {
  const reads = createPreparedReads(ADMIN_URL, { max: 1, statementTimeoutMs: 30_000 });
  const pid = (await reads.one(backendPid)).pid;
  const running = reads.one(slowRead);
  running.catch(() => undefined);
  const waiting = reads.one(backendPid);
  await whenSleeping(pid);
  const started = Date.now();
  const ended = reads.end();
  await t.throwsAsync(waiting, { instanceOf: ConnectionError });
  t.true(Date.now() - started < 2_000, 'failed at once');
  await withAdmin((admin) => admin.query('SELECT pg_terminate_backend($1)', [pid]));
  await ended;
  await t.throwsAsync(reads.one(backendPid), { instanceOf: ConnectionError });
});

test("the timestamps' fast path gives what Date gives, for every fraction length, year and zone Postgres writes", (t) => {
  const values: string[] = [];
  // Date reads a year below 100 as 19xx or 20xx (and 0001 as 2015): not among the years compared with it.
  for (const year of ['0100', '0999', '1970', '2026', '9999']) {
    for (const fraction of ['', '.1', '.12', '.123', '.1234', '.12345', '.999999', '.000001']) {
      for (const zone of ['+00', '+02', '-05', '+05:30']) values.push(`${year}-06-15 23:59:59${fraction}${zone}`);
    }
  }
  for (const value of values) t.is(toIsoTimestamp(value), new Date(Date.parse(value)).toISOString(), value);
  t.is(toIsoTimestamp('0001-06-15 23:59:59.5+00'), '0001-06-15T23:59:59.500Z', 'a UTC year below 100 is kept as written');
  t.is(toIsoTimestamp('infinity'), null);
  t.is(toIsoTimestamp('-infinity'), null);
});
