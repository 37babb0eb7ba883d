/**
 * The job counters behind /metrics: each connection counts in its own slot, so transactions writing jobs at the same
 * time never wait for each other's count (16 shared slots made a storm's transactions queue), and the slots of closed
 * connections fold into one row without changing any sum (orchestrator/jobs/counters.ts).
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { foldClosedCounters } from '../../orchestrator/jobs/counters.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { createTestDatabase } from '../support/database.ts';

const CONNECTIONS = 17; // one more than the 16 shared slots there were: two of them would have shared one

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  // A count that waited for another transaction's fails the test instead of hanging it.
  await client.query(`SET lock_timeout = '2s'`);
  return client;
}

const addJob = (client: pg.Client, clusterId: string, type = 'START') =>
  client.query<{ id: string }>(
    `INSERT INTO jobs (cluster_id, type, created_by_kind, expires_at) VALUES ($1, $2, 'SYSTEM', now() + interval '1 hour') RETURNING id`,
    [clusterId, type],
  );

const totals = (pool: DatabasePool) =>
  pool.one(sql.type(z.object({ created: z.number(), ended: z.number(), timed: z.number(), seconds: z.number(), rows: z.number() }))`
    SELECT (SELECT coalesce(sum(n), 0) FROM job_counters WHERE type = 'START' AND status = 'CREATED')::int AS created,
           (SELECT coalesce(sum(n), 0) FROM job_counters WHERE type = 'START' AND status = 'SUCCEEDED')::int AS ended,
           (SELECT coalesce(sum(n), 0) FROM job_latency WHERE type = 'START')::int AS timed,
           (SELECT coalesce(sum(seconds), 0) FROM job_latency WHERE type = 'START')::float8 AS seconds,
           (SELECT count(*) FROM job_counters WHERE type = 'START')::int AS rows`);

test('jobs written at once on many connections never wait for each other’s count; folding closed connections keeps every sum', async (t) => {
  const database = await createTestDatabase();
  const pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
  t.teardown(async () => {
    await pool.end();
    await database.drop();
  });
  const clusterId = randomUUID();
  await pool.query(sql.unsafe`INSERT INTO clusters (id, name) VALUES (${clusterId}, 'counted')`);

  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(database.url)));
  // Every transaction open at once, each with a job created and one ended: none waits on another's counter row.
  const jobs: string[] = [];
  for (const client of clients) {
    await client.query('BEGIN');
    jobs.push((await addJob(client, clusterId)).rows[0]!.id);
    const ended = (await addJob(client, clusterId)).rows[0]!.id;
    await client.query(`UPDATE jobs SET status = 'SUCCEEDED', finished_at = created_at + interval '2 seconds' WHERE id = $1`, [ended]);
  }
  await Promise.all(clients.map((client) => client.query('COMMIT')));
  t.like(await totals(pool), { created: 2 * CONNECTIONS, ended: CONNECTIONS, timed: CONNECTIONS, rows: 2 * CONNECTIONS });
  t.is(Math.round((await totals(pool)).seconds), 2 * CONNECTIONS);

  // The first half of the connections close; the others stay, and one of them ends another job after the fold.
  const closing = clients.slice(0, 8);
  const staying = clients.slice(8);
  const closed = closing.map((client) => (client as unknown as { processID: number }).processID);
  await Promise.all(closing.map((client) => client.end()));
  await t.notThrowsAsync(async () => {
    // Their backends are gone from pg_stat_activity a moment after the sockets close.
    for (let waited = 0; ; waited += 50) {
      const open = await pool.anyFirst(sql.type(z.object({ pid: z.number() }))`
        SELECT pid FROM pg_stat_activity WHERE pid = ANY(${sql.array(closed, 'int4')})`);
      if (open.length === 0) return;
      if (waited > 5_000) throw new Error(`backends ${open.join(', ')} still open`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  // A row some transaction holds (a new connection with a closed one's pid, counting) is not waited for: that fold
  // leaves it, and a later one takes it.
  const holder = staying[0]!;
  await holder.query('BEGIN');
  await holder.query(`SELECT 1 FROM job_counters WHERE slot = $1 AND status = 'CREATED' FOR UPDATE`, [closed[0]! % 32768]);
  const started = Date.now();
  t.is(await foldClosedCounters(pool), 8 * 3 - 1, 'every row of the closed connections but the one held');
  t.true(Date.now() - started < 1_000, 'the fold did not wait for the held row');
  await holder.query('COMMIT');
  t.is((await totals(pool)).created, 2 * CONNECTIONS);
  // Two folds at once: each takes what the other did not, and nothing is counted twice.
  const folded = await Promise.all([foldClosedCounters(pool), foldClosedCounters(pool)]);
  t.is(folded[0] + folded[1], 1, 'the row held before');
  const after = await totals(pool);
  t.like(after, { created: 2 * CONNECTIONS, ended: CONNECTIONS, timed: CONNECTIONS });
  t.is(Math.round(after.seconds), 2 * CONNECTIONS);
  // Slot -1 holds the closed connections' counts; the open connections keep their own rows.
  const folds = await pool.any(sql.type(z.object({ status: z.string(), n: z.number() }))`
    SELECT status, n::int FROM job_counters WHERE type = 'START' AND slot = -1 ORDER BY status`);
  t.deepEqual(folds, [
    { status: 'CREATED', n: 16 },
    { status: 'SUCCEEDED', n: 8 },
  ]);
  t.is(after.rows, 2 + 2 * staying.length);

  // An open connection counts on in its own row; a fold leaves it.
  await addJob(staying[0]!, clusterId);
  t.is(await foldClosedCounters(pool), 0);
  t.is((await totals(pool)).created, 2 * CONNECTIONS + 1);
  await Promise.all(staying.map((client) => client.end()));
});
