import test from 'ava';
import { NotFoundError, sql, SchemaValidationError } from 'slonik';
import { z } from 'zod';
import { createDatabasePool, withSessionOptions, type DatabasePool } from '../../sql/pool.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let database: TestDatabase;
let pool: DatabasePool;
test.before(async () => {
  database = await createTestDatabase();
  pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
});
test.after.always(async () => {
  await pool?.end();
  await database?.drop();
});

test('timestamps come back as ISO 8601 UTC strings with milliseconds, whatever the session zone', async (t) => {
  const row = await pool.one(sql.unsafe`
    SELECT '2026-11-22 10:04:05.123456+00'::timestamptz AS utc,
           '2026-03-29 01:30:00-07'::timestamptz AS offset,
           '2026-11-22 10:04:05'::timestamp AS plain`);
  t.deepEqual(row, { utc: '2026-11-22T10:04:05.123Z', offset: '2026-03-29T08:30:00.000Z', plain: '2026-11-22T10:04:05.000Z' });
  const zoned = await pool.transaction(async (connection) => {
    await connection.query(sql.unsafe`SET LOCAL TIME ZONE 'Asia/Kolkata'`);
    return connection.oneFirst(sql.unsafe`SELECT '2026-11-22 10:04:05.5+00'::timestamptz`);
  });
  t.is(zoned, '2026-11-22T10:04:05.500Z');
});

test('sql.type really validates rows', async (t) => {
  const schema = z.object({ id: z.number(), name: z.string() });
  const good = await pool.one(sql.type(schema)`SELECT 1 AS id, 'a' AS name`);
  t.deepEqual(good, { id: 1, name: 'a' });
  await t.throwsAsync(pool.one(sql.type(schema)`SELECT 'one' AS id, 'a' AS name`), { instanceOf: SchemaValidationError });
});

test('counts are numbers', async (t) => {
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM generate_series(1, 3)`), 3);
});

test("our notices are counted, whatever client_min_messages the URL asks for and whatever became of their statement; others' are not", async (t) => {
  const quiet = await createDatabasePool(withSessionOptions(database.url, '-c client_min_messages=warning'), { maxPoolSize: 1 });
  try {
    const message = 'gsm: test notice';
    t.is(quiet.noticesSeen(message), 0);
    await quiet.query(sql.unsafe`DO $$ BEGIN RAISE NOTICE 'gsm: test notice'; END $$`);
    await quiet.transaction(async (tx) => {
      await tx.query(sql.unsafe`DO $$ BEGIN RAISE NOTICE 'gsm: test notice'; RAISE NOTICE 'gsm: test notice'; END $$`);
    });
    t.is(quiet.noticesSeen(message), 3);
    // Counted whatever became of the statement: one that failed slonik's row check (here no row for `one`) may have
    // committed its change, and so may one whose connection was lost; one Postgres refused is counted too (a wait too many).
    await t.throwsAsync(quiet.one(sql.unsafe`DO $$ BEGIN RAISE NOTICE 'gsm: test notice'; END $$`), { instanceOf: NotFoundError });
    t.is(quiet.noticesSeen(message), 4);
    await t.throwsAsync(quiet.query(sql.unsafe`DO $$ BEGIN RAISE NOTICE 'gsm: test notice'; RAISE EXCEPTION 'no'; END $$`));
    t.is(quiet.noticesSeen(message), 5);
    // A notice not of ours is not counted.
    await quiet.query(sql.unsafe`DO $$ BEGIN RAISE NOTICE 'something else'; END $$`);
    t.is(quiet.noticesSeen('something else'), 0);
    t.true(quiet.noticesArrive);
  } finally {
    await quiet.end();
  }
});
