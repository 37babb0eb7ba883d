/**
 * The job counters behind /metrics: each connection counts in its own slot, so transactions writing jobs at the same
 * time never wait for each other's count (16 shared slots made a storm's transactions queue), and the slots of closed
 * connections fold into one row without changing any sum (orchestrator/jobs/counters.ts).
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { COUNTER_SLOT_LOCK_CLASS, foldClosedCounters } from '../../orchestrator/jobs/counters.ts';
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

const pidOf = (client: pg.Client) => (client as unknown as { processID: number }).processID;

/** Takes `slot`'s lock for the connection, as a connection that counts there holds it. */
const takeSlot = async (client: pg.Client, slot: number): Promise<boolean> =>
  (await client.query(`SELECT pg_try_advisory_lock($1, $2) AS taken`, [COUNTER_SLOT_LOCK_CLASS, slot])).rows[0].taken as boolean;

/** How many counter-slot locks the connection holds. */
const slotLocks = async (client: pg.Client): Promise<number> =>
  Number(
    (
      await client.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND pid = pg_backend_pid()`, [
        COUNTER_SLOT_LOCK_CLASS,
      ])
    ).rows[0].n,
  );

/** The counter slot a connection holds (after its first count). */
const slotOf = async (client: pg.Client): Promise<number> => Number((await client.query(`SELECT current_setting('gsm.counter_slot') AS slot`)).rows[0].slot);

/** Closes the clients and waits until their backends are gone from pg_stat_activity (a moment after the sockets close). */
async function closeAndWait(pool: DatabasePool, clients: pg.Client[]): Promise<void> {
  const pids = clients.map(pidOf);
  await Promise.all(clients.map((client) => client.end()));
  for (let waited = 0; ; waited += 50) {
    const open = await pool.anyFirst(sql.type(z.object({ pid: z.number() }))`SELECT pid FROM pg_stat_activity WHERE pid = ANY(${sql.array(pids, 'int4')})`);
    if (open.length === 0) return;
    if (waited > 5_000) throw new Error(`backends ${open.join(', ')} still open`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const totals = (pool: DatabasePool) =>
  pool.one(sql.type(z.object({ created: z.number(), ended: z.number(), timed: z.number(), seconds: z.number(), rows: z.number() }))`
    SELECT (SELECT coalesce(sum(n), 0) FROM job_counters WHERE type = 'START' AND status = 'CREATED')::int AS created,
           (SELECT coalesce(sum(n), 0) FROM job_counters WHERE type = 'START' AND status = 'SUCCEEDED')::int AS ended,
           (SELECT coalesce(sum(n), 0) FROM job_latency WHERE type = 'START')::int AS timed,
           (SELECT coalesce(sum(seconds), 0) FROM job_latency WHERE type = 'START')::float8 AS seconds,
           (SELECT count(*) FROM job_counters WHERE type = 'START')::int AS rows`);

/** A database of its own with one cluster, dropped after the test. */
async function withCluster(t: ExecutionContext) {
  const database = await createTestDatabase();
  const pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
  t.teardown(async () => {
    await pool.end();
    await database.drop();
  });
  const clusterId = randomUUID();
  await pool.query(sql.unsafe`INSERT INTO clusters (id, name) VALUES (${clusterId}, 'counted')`);
  return { database, pool, clusterId };
}

test('jobs written at once on many connections never wait for each other’s count; folding closed connections keeps every sum', async (t) => {
  const { database, pool, clusterId } = await withCluster(t);

  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(database.url)));
  // Every transaction open at once, each with a job created and one ended: none waits on another's counter row.
  for (const client of clients) {
    await client.query('BEGIN');
    await addJob(client, clusterId);
    const ended = (await addJob(client, clusterId)).rows[0]!.id;
    await client.query(`UPDATE jobs SET status = 'SUCCEEDED', finished_at = created_at + interval '2 seconds' WHERE id = $1`, [ended]);
  }
  await Promise.all(clients.map((client) => client.query('COMMIT')));
  const counted = await totals(pool);
  t.like(counted, { created: 2 * CONNECTIONS, ended: CONNECTIONS, timed: CONNECTIONS, rows: 2 * CONNECTIONS });
  t.is(Math.round(counted.seconds), 2 * CONNECTIONS);

  // The first eight connections close; the others stay open.
  const closing = clients.slice(0, 8);
  const staying = clients.slice(8);
  const closed = await Promise.all(closing.map(slotOf));
  await closeAndWait(pool, closing);
  // A row some transaction holds (a new connection that took a closed one's slot after the fold read the held slots,
  // counting) is not waited for: that fold leaves it. (Here the holder is an open connection locking the row by hand,
  // so a later fold takes it.) A fold that waited would wait until the holder commits, after the race.
  const holder = staying[0]!;
  await holder.query('BEGIN');
  try {
    await holder.query(`SELECT 1 FROM job_counters WHERE slot = $1 AND status = 'CREATED' FOR UPDATE`, [closed[0]!]);
    const outcome = await Promise.race([foldClosedCounters(pool), new Promise((resolve) => setTimeout(() => resolve('waited'), 10_000))]);
    t.is(outcome, 8 * 3 - 1, 'every row of the closed connections but the one held, without waiting for it');
  } finally {
    await holder.query('COMMIT');
  }
  t.is((await totals(pool)).created, 2 * CONNECTIONS);

  // A second group counts other types and latencies in several buckets, then closes; three folds at once take its
  // rows and the one held before between them, each row once, adding to slot -1's rows in the same order.
  const second = staying.slice(1, 5);
  const durations = [0.05, 0.3, 3, 20];
  for (const [index, client] of second.entries()) {
    await addJob(client, clusterId, 'STOP');
    const restart = (await addJob(client, clusterId, 'RESTART')).rows[0]!.id;
    await client.query(`UPDATE jobs SET status = 'SUCCEEDED', finished_at = created_at + make_interval(secs => $2) WHERE id = $1`, [restart, durations[index]]);
  }
  await closeAndWait(pool, second);
  const folded = await Promise.all([foldClosedCounters(pool), foldClosedCounters(pool), foldClosedCounters(pool)]);
  // Each: START created and ended, STOP created, RESTART created and ended; latency rows of START and RESTART.
  t.is(
    folded.reduce((sum, n) => sum + n, 0),
    second.length * 7 + 1,
  );
  const after = await totals(pool);
  t.like(after, { created: 2 * CONNECTIONS, ended: CONNECTIONS, timed: CONNECTIONS });
  t.is(Math.round(after.seconds), 2 * CONNECTIONS);
  const others = await pool.one(sql.type(
    z.object({ stops: z.number(), restarts: z.number(), restartsEnded: z.number(), timed: z.number(), seconds: z.number() }),
  )`
    SELECT (SELECT sum(n) FROM job_counters WHERE type = 'STOP' AND status = 'CREATED')::int AS stops,
           (SELECT sum(n) FROM job_counters WHERE type = 'RESTART' AND status = 'CREATED')::int AS restarts,
           (SELECT sum(n) FROM job_counters WHERE type = 'RESTART' AND status = 'SUCCEEDED')::int AS "restartsEnded",
           (SELECT sum(n) FROM job_latency WHERE type = 'RESTART' AND slot = -1)::int AS timed,
           (SELECT sum(seconds) FROM job_latency WHERE type = 'RESTART')::float8 AS seconds`);
  t.like(others, { stops: 4, restarts: 4, restartsEnded: 4, timed: 4 });
  t.true(Math.abs(others.seconds - 23.35) < 1e-6);
  t.is(await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(DISTINCT bucket)::int AS n FROM job_latency WHERE type = 'RESTART'`), 4);
  // Slot -1 holds the closed connections' counts; the open connections keep their own rows.
  const folds = await pool.any(sql.type(z.object({ status: z.string(), n: z.number() }))`
    SELECT status, n::int FROM job_counters WHERE type = 'START' AND slot = -1 ORDER BY status`);
  t.deepEqual(folds, [
    { status: 'CREATED', n: 2 * (8 + second.length) },
    { status: 'SUCCEEDED', n: 8 + second.length },
  ]);
  const open = [holder, ...staying.slice(5)];
  t.is(after.rows, 2 + 2 * open.length);

  // An open connection counts on in its own row; a fold leaves it.
  await addJob(holder, clusterId);
  t.is(await foldClosedCounters(pool), 0);
  t.is((await totals(pool)).created, 2 * CONNECTIONS + 1);
  await Promise.all(open.map((client) => client.end()));
});

test('two open connections never count in one slot, even when their pids fall on the same one', async (t) => {
  const { database, pool, clusterId } = await withCluster(t);
  const first = await connect(database.url);
  const second = await connect(database.url);
  // The first connection holds the slot the second one's pid falls on (as a backend whose pid is 32768 apart would),
  // and counts there in a transaction left open.
  const wanted = pidOf(second) % 32768;
  t.true(await takeSlot(first, wanted));
  await first.query('BEGIN');
  await addJob(first, clusterId);
  t.is(await slotOf(first), wanted, 'the first connection counts in the slot it holds');
  // The second counts in another slot, without waiting for the first's row (2 s lock_timeout otherwise).
  await second.query('BEGIN');
  await addJob(second, clusterId);
  await second.query('COMMIT');
  const taken = await slotOf(second);
  t.not(taken, wanted);
  // A new connection whose first counting transaction rolls back loses the remembered slot with it, not the lock:
  // its next count finds the slot it holds, and it holds one.
  const third = await connect(database.url);
  await third.query('BEGIN');
  await addJob(third, clusterId);
  const held = await slotOf(third);
  await third.query('ROLLBACK');
  t.is((await third.query(`SELECT current_setting('gsm.counter_slot', true) AS slot`)).rows[0].slot ?? '', '');
  await addJob(third, clusterId);
  t.is(await slotOf(third), held, 'the slot this connection holds, found again');
  t.is(await slotLocks(third), 1);
  t.false([wanted, taken].includes(held));
  await first.query('COMMIT');
  t.is((await totals(pool)).created, 3);
  // All open: a fold takes none of their rows.
  t.is(await foldClosedCounters(pool), 0);
  const rows = await pool.anyFirst(sql.type(z.object({ slot: z.number() }))`SELECT slot FROM job_counters WHERE type = 'START' ORDER BY slot`);
  t.deepEqual(
    rows,
    [wanted, taken, held].sort((a, b) => a - b),
  );

  // A connection whose slot lock was dropped by hand does not count on in the slot unheld: another connection took it
  // and holds its row in an open transaction; this one counts in a free slot, without waiting (2 s lock_timeout).
  await third.query('SELECT pg_advisory_unlock_all()');
  t.true(await takeSlot(first, held));
  await first.query('BEGIN');
  await first.query(`SELECT 1 FROM job_counters WHERE slot = $1 FOR UPDATE`, [held]);
  try {
    await addJob(third, clusterId);
    t.false([wanted, taken, held].includes(await slotOf(third)));
  } finally {
    await first.query('COMMIT');
  }
  t.is((await totals(pool)).created, 4);
  await Promise.all([first.end(), second.end(), third.end()]);
});

test('a statement that writes many jobs counts each once: created by type, ended by status, latencies in their buckets; a status left as it was, or an ended job changed again, counts nothing', async (t) => {
  const { database, pool, clusterId } = await withCluster(t);
  const client = await connect(database.url);
  t.teardown(() => client.end());
  // 5 STARTs and 3 STOPs in one statement.
  const ids = (
    await client.query<{ id: string; type: string }>(
      `INSERT INTO jobs (cluster_id, type, created_by_kind, expires_at)
       SELECT $1, type, 'SYSTEM', now() + interval '1 hour' FROM unnest(array_fill('START'::text, ARRAY[5]) || array_fill('STOP'::text, ARRAY[3])) AS type
       RETURNING id, type`,
      [clusterId],
    )
  ).rows;
  const starts = ids.filter((row) => row.type === 'START').map((row) => row.id);
  // One statement ends four STARTs (0.05 s, 0.05 s, 2 s and 7200 s after their creation; three succeed, one fails) and
  // dispatches the fifth; another sets every job's status to what it is (nothing ends) and one more ends the ended
  // again (counted once already).
  await client.query(
    `UPDATE jobs j SET status = e.status, finished_at = j.created_at + make_interval(secs => e.seconds)
       FROM unnest($1::uuid[], $2::text[], $3::float8[]) AS e (id, status, seconds) WHERE j.id = e.id`,
    [starts, ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'FAILED', 'DISPATCHED'], [0.05, 0.05, 2, 7200, 0]],
  );
  await client.query(`UPDATE jobs SET status = status WHERE cluster_id = $1`, [clusterId]);
  await client.query(`UPDATE jobs SET status = 'FAILED' WHERE id = ANY($1::uuid[]) AND status = 'SUCCEEDED'`, [starts]);
  const counters = await pool.any(sql.type(z.object({ type: z.string(), status: z.string(), n: z.number() }))`
    SELECT type, status, sum(n)::int AS n FROM job_counters GROUP BY type, status ORDER BY type, status`);
  t.deepEqual(counters, [
    { type: 'START', status: 'CREATED', n: 5 },
    { type: 'START', status: 'FAILED', n: 1 },
    { type: 'START', status: 'SUCCEEDED', n: 3 },
    { type: 'STOP', status: 'CREATED', n: 3 },
  ]);
  const buckets = await pool.any(sql.type(z.object({ bucket: z.number(), n: z.number(), seconds: z.number() }))`
    SELECT bucket, sum(n)::int AS n, sum(seconds)::float8 AS seconds FROM job_latency WHERE type = 'START' GROUP BY bucket ORDER BY bucket`);
  // Bounds 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600 s: 0.05 s is in the first, 2 s in the fifth, 7200 s past the last.
  t.deepEqual(
    buckets.map(({ bucket, n }) => ({ bucket, n })),
    [
      { bucket: 1, n: 2 },
      { bucket: 5, n: 1 },
      { bucket: 13, n: 1 },
    ],
  );
  t.true(Math.abs(buckets.reduce((sum, row) => sum + row.seconds, 0) - 7202.1) < 1e-6, 'the latencies add up');
});
