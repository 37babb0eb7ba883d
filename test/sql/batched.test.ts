/**
 * batched(): calls made together share one statement, and one call's key can never fail another's: a failed batch is
 * run again key by key, so each call gets its own answer or its own error (real Postgres refusing a value).
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { batched } from '../../sql/batched.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
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

test('a key Postgres refuses fails only its own call; the others of its batch get their answers', async (t) => {
  const statements: string[][] = [];
  const years = batched(async (times: string[]) => {
    statements.push(times);
    const rows = await pool.anyFirst(sql.type(z.object({ year: z.number() }))`
      SELECT extract(year FROM at::timestamptz AT TIME ZONE 'UTC')::integer AS year
        FROM unnest(${sql.array(times, 'text')}) WITH ORDINALITY AS t (at, n) ORDER BY n`);
    return [...rows];
  });
  const calls = ['2026-01-01T00:00:00Z', '0000-01-01T00:00:00Z', '2027-06-01T00:00:00Z'].map((at) => years.add(at));
  const [first, refused, third] = await Promise.allSettled(calls);
  t.deepEqual(first, { status: 'fulfilled', value: 2026 });
  t.is(refused.status, 'rejected');
  t.regex(String((refused as PromiseRejectedResult).reason), /out of range/);
  t.deepEqual(third, { status: 'fulfilled', value: 2027 });
  t.is(statements[0]!.length, 3, 'the three calls were one batch');
  t.deepEqual(statements.slice(1), [['2026-01-01T00:00:00Z'], ['0000-01-01T00:00:00Z'], ['2027-06-01T00:00:00Z']], 'then one by one');
  // The batcher still works afterwards.
  t.is(await years.add('2030-01-01T00:00:00Z'), 2030);
});
