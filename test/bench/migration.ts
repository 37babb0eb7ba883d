/**
 * `npm run bench -- migration`: what a long migration on a big table does to traffic. Loads BENCH_SESSIONS player
 * sessions (default 10,000,000) into the real schema's `player_sessions` (bulk, triggers off), then builds one index
 * on it twice, plainly and `CONCURRENTLY`, while a writer inserts one session at a time: it prints how long each
 * build took, how many writes went through meanwhile and how long writes were blocked (the longest write, and the
 * time spent in writes slower than 100 ms). BENCH_KEEP=1 keeps the database.
 */
import pg from 'pg';
import { createTestDatabase } from '../support/database.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000_000);
const PLAYERS = Math.max(1, Math.min(1_000_000, Math.floor(SESSIONS / 10)));
const WRITE_EVERY_MS = 5;

const database = await createTestDatabase();
const client = new pg.Client({ connectionString: database.url });
await client.connect();

const loadStarted = Date.now();
await client.query('SET session_replication_role = replica');
const { rows } = await client.query<{ id: string }>("INSERT INTO clusters (name) VALUES ('bench') RETURNING id");
const clusterId = rows[0]!.id;
await client.query(
  `INSERT INTO players (cluster_id, steam_id, username, first_seen, last_seen, last_joined_at)
   SELECT $1, (76561197960265728 + n)::text, 'player' || n, now(), now(), now() FROM generate_series(1, $2::int) n`,
  [clusterId, PLAYERS],
);
await client.query(
  `WITH ids AS (SELECT array_agg(id) AS a FROM players WHERE cluster_id = $1)
   INSERT INTO player_sessions (player_id, cluster_id, server_id, server_name, joined_at, left_at)
   SELECT ids.a[(n % $3::int) + 1], $1, ('00000000-0000-4000-8000-' || lpad((n % 100)::text, 12, '0'))::uuid, 'server ' || (n % 100),
          now() - (n || ' seconds')::interval, now() - (n || ' seconds')::interval + interval '30 minutes'
   FROM generate_series(1, $2::int) n, ids`,
  [clusterId, SESSIONS, PLAYERS],
);
await client.query('SET session_replication_role = DEFAULT');
await client.query('VACUUM ANALYZE player_sessions');
const playerId = (await client.query<{ id: string }>('SELECT id FROM players LIMIT 1')).rows[0]!.id;
console.log(`loaded ${PLAYERS.toLocaleString()} players and ${SESSIONS.toLocaleString()} sessions in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);

/** Inserts one (closed) session at a time until stopped; each write's duration. */
async function writer(stop: { done: boolean }) {
  const writes = new pg.Client({ connectionString: database.url });
  await writes.connect();
  const latencies: number[] = [];
  try {
    while (!stop.done) {
      const started = performance.now();
      await writes.query(
        `INSERT INTO player_sessions (player_id, cluster_id, server_id, server_name, joined_at, left_at)
         VALUES ($1, $2, '00000000-0000-4000-8000-000000000999', 'bench writer', now() - interval '1 minute', now())`,
        [playerId, clusterId],
      );
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, WRITE_EVERY_MS));
    }
  } finally {
    await writes.end();
  }
  return latencies;
}

const results: { mode: string; buildS: number; writes: number; maxMs: number; blockedS: number; p50Ms: number }[] = [];
for (const mode of ['plain', 'CONCURRENTLY']) {
  const stop = { done: false };
  const writing = writer(stop);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const started = performance.now();
  await client.query(`CREATE INDEX ${mode === 'plain' ? '' : 'CONCURRENTLY '}bench_sessions_server_name_idx ON player_sessions (server_name, joined_at)`);
  const buildS = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 500));
  stop.done = true;
  const latencies = await writing;
  await client.query('DROP INDEX bench_sessions_server_name_idx');
  const sorted = [...latencies].sort((a, b) => a - b);
  results.push({
    mode,
    buildS,
    writes: latencies.length,
    maxMs: sorted.at(-1) ?? 0,
    blockedS: latencies.filter((ms) => ms > 100).reduce((sum, ms) => sum + ms, 0) / 1000,
    p50Ms: sorted[Math.floor(sorted.length / 2)] ?? 0,
  });
}

console.log(
  `\nindex (server_name, joined_at) on player_sessions, ${SESSIONS.toLocaleString()} rows, one writer inserting a session every ${WRITE_EVERY_MS} ms:`,
);
console.log('| build        | build time | writes meanwhile | write p50 | longest write | time in writes > 100 ms |');
console.log('| ------------ | ---------- | ---------------- | --------- | ------------- | ----------------------- |');
for (const result of results) {
  console.log(
    `| ${result.mode.padEnd(12)} | ${result.buildS.toFixed(1).padStart(8)} s | ${String(result.writes).padStart(16)} | ${result.p50Ms.toFixed(1).padStart(6)} ms | ${(result.maxMs / 1000).toFixed(2).padStart(11)} s | ${result.blockedS.toFixed(2).padStart(21)} s |`,
  );
}

await client.end();
if (process.env.BENCH_KEEP) console.log(`database kept: ${database.url}`);
else await database.drop();
