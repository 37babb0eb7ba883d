/**
 * `npm run bench -- metricsHistory`: the metrics history.
 *
 * Ingest: an orchestrator process (`node main.ts --role=orchestrator`) with BENCH_METRICS_SERVERS (10,000) servers on
 * 100 simulated agents, each server reporting `server:stats` every 10 s (and each agent heartbeating), for
 * BENCH_METRICS_SECONDS (120): the service's and Postgres's CPU per sample, beside the baseline of writing each sample
 * with its own INSERT into an unpartitioned table (what a simple implementation would do), in the same run. Then the
 * table size per server-day.
 *
 * Queries: BENCH_METRICS_QUERY_SERVERS (1,000) servers with BENCH_METRICS_DAYS (14) days of minute points (and their
 * hourly roll-up): a 7-day query at step=1h and a 24-hour query at step=1m for one server, through the API, p50/p95,
 * beside reading the same rows straight from Postgres (no bucketing, no HTTP).
 */
import { io, type Socket } from 'socket.io-client';
import { sql } from 'slonik';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { createMetricsRecorder, ensurePartitions, rollUpHours } from '../../orchestrator/metricsHistory/store.ts';
import { createLogger } from '../../schema/logger.ts';
import { createTestDatabase } from '../support/database.ts';
import { baseUrl, startMain, type Started } from '../support/mainProcess.ts';
import { cpuSecondsBetween, cpuTicks, isBackendOf, percentile } from './support.ts';

const SERVERS = Number(process.env.BENCH_METRICS_SERVERS ?? 10_000);
const AGENTS = 100;
const SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? 120);
const QUERY_SERVERS = Number(process.env.BENCH_METRICS_QUERY_SERVERS ?? 1_000);
const DAYS = Number(process.env.BENCH_METRICS_DAYS ?? 14);
const QUERIES = 200;
const ADMIN = { email: 'bench@example.org', password: 'bench password 123' };

const database = await createTestDatabase();
const pool: DatabasePool = await createDatabasePool(database.url, { maxPoolSize: 4 });
const dbName = new URL(database.url).pathname.slice(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(base: string, path: string, payload: unknown, token?: string) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(payload),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, any>>;
}

/** Machines through the API (for their tokens), servers straight into the table (10,000 API calls would dominate). */
async function cluster(base: string, token: string, machines: number, servers: number) {
  const created = await post(base, '/api/v1/clusters', { name: `bench-${machines}-${servers}` }, token);
  const agents: { id: string; token: string; servers: string[] }[] = [];
  for (let index = 0; index < machines; index++) {
    const machine = await post(base, `/api/v1/clusters/${created.id}/machines`, { name: `host${index}` }, token);
    agents.push({ id: machine.id, token: machine.agentToken, servers: [] });
  }
  const ids = await pool.anyFirst(sql.unsafe`
    INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, rcon_password, max_players)
    SELECT ${created.id}, (${sql.array(
      agents.map((agent) => agent.id),
      'uuid',
    )})[1 + (g % ${machines})], 's' || g, 'RUST', 20000 + (g / ${machines})::int * 3, 20001 + (g / ${machines})::int * 3, 20002 + (g / ${machines})::int * 3, 'pw', 50
      FROM generate_series(0, ${servers - 1}) g
    RETURNING id`);
  ids.forEach((id, index) => agents[index % machines]!.servers.push(String(id)));
  return { clusterId: created.id as string, agents };
}

async function ingest(orchestrator: string, token: string) {
  const { agents } = await cluster(orchestrator, token, AGENTS, SERVERS);
  const sockets: Socket[] = [];
  for (const agent of agents) {
    const socket = io(orchestrator, { path: '/ws', transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const synced = new Promise<void>((resolve) => socket.once('servers:sync', () => resolve()));
    socket.emit('auth', { token: agent.token, machineId: agent.id, version: '0.1.0' });
    await synced;
    sockets.push(socket);
  }
  const samples = { count: 0 };
  const report = () => {
    const at = new Date().toISOString();
    sockets.forEach((socket, index) => {
      socket.emit('heartbeat', { metrics: { cpuPercent: 20, memoryUsedBytes: 8e9, diskUsedBytes: 1e11 }, uptime: 1 });
      samples.count += 1;
      for (const serverId of agents[index]!.servers) {
        socket.emit('server:stats', { serverId, cpuPercent: Math.random() * 100, memoryBytes: 2e9, playersOnline: Math.floor(Math.random() * 50), at });
        samples.count += 1;
      }
    });
  };
  return { sockets, samples, report, servers: agents.flatMap((agent) => agent.servers) };
}

/** The baseline: each sample its own INSERT into a plain table, as many as our run took, from 4 connections. */
async function baselineInsert(samples: number) {
  await pool.query(sql.unsafe`CREATE TABLE bench_samples (server_id uuid, at timestamptz, cpu real, memory bigint, players int)`);
  const before = await cpuTicks(isBackendOf(dbName));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < samples) {
        next += 1;
        await pool.query(sql.unsafe`INSERT INTO bench_samples VALUES (gen_random_uuid(), now(), 12.5, 2000000000, 7)`);
      }
    }),
  );
  return (cpuSecondsBetween(before, await cpuTicks(isBackendOf(dbName))) / samples) * 1e6;
}

/**
 * The history's own writes, without the rest of the ingest (the servers' latest stats, heartbeats): the gateway's
 * recorder in this process, fed 6 samples per server per minute (stats every 10 s) for 5 minutes, each minute flushed.
 */
async function historyWritesAlone(servers: string[]) {
  let minute = Date.now() + 3_600_000; // an hour ahead: new rows, as each real minute brings
  const recorder = createMetricsRecorder({ pool, logger: createLogger('silent'), flushMs: 3_600_000, now: () => minute });
  const before = await cpuTicks(isBackendOf(dbName));
  for (let round = 0; round < 5; round++) {
    minute += 60_000;
    for (let sample = 0; sample < 6; sample++)
      for (const serverId of servers) recorder.server(serverId, { cpuPercent: 30, memoryBytes: 2e9, playersOnline: 12 });
    await recorder.flush();
  }
  const us = (cpuSecondsBetween(before, await cpuTicks(isBackendOf(dbName))) / (5 * 6 * servers.length)) * 1e6;
  await recorder.close();
  return us;
}

async function timed(run: () => Promise<unknown>, count: number) {
  const durations: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await run();
    durations.push(performance.now() - started);
  }
  return { p50: percentile(durations, 50), p95: percentile(durations, 95) };
}

let node: Started | undefined;
try {
  const env = {
    DATABASE_URL: database.url,
    PASETO_KEY: generatePasetoKey(),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info', // the start-up line (with the docs URL) is at info
  };
  node = await startMain(env, []);
  const base = baseUrl(node);
  const { accessToken } = await post(base, '/auth/login', ADMIN);

  // Ingest.
  const load = await ingest(base, accessToken);
  const serviceBefore = await cpuTicks((pid) => pid === node!.child.pid);
  const postgresBefore = await cpuTicks(isBackendOf(dbName));
  const startedAt = Date.now();
  while (Date.now() - startedAt < SECONDS * 1000) {
    const round = Date.now();
    load.report();
    await sleep(Math.max(0, 10_000 - (Date.now() - round)));
  }
  await sleep(61_000); // the last flush
  const serviceUs = (cpuSecondsBetween(serviceBefore, await cpuTicks((pid) => pid === node!.child.pid)) / load.samples.count) * 1e6;
  const postgresUs = (cpuSecondsBetween(postgresBefore, await cpuTicks(isBackendOf(dbName))) / load.samples.count) * 1e6;
  for (const socket of load.sockets) socket.close();
  const rows = Number(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM server_metrics_minute`));
  const bytes = Number(
    await pool.oneFirst(sql.unsafe`
    SELECT sum(pg_total_relation_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'server_metrics_minute'::regclass`),
  );
  const baselineUs = await baselineInsert(Math.min(load.samples.count, 50_000));
  const historyUs = await historyWritesAlone(load.servers);

  // Queries: QUERY_SERVERS servers with DAYS days of minute points, rolled up.
  const { clusterId: queryCluster } = await cluster(base, accessToken, 1, QUERY_SERVERS);
  const queryServers = await pool.anyFirst(sql.unsafe`SELECT id FROM servers WHERE cluster_id = ${queryCluster}`);
  const now = new Date();
  for (let day = 0; day <= DAYS + 1; day++) await ensurePartitions(pool, new Date(now.getTime() - day * 86_400_000));
  process.stderr.write(`writing ${QUERY_SERVERS} servers × ${DAYS} days of minute points…\n`);
  for (let day = DAYS; day > 0; day--) {
    await pool.query(sql.unsafe`
      INSERT INTO server_metrics_minute
      SELECT s, t, 6, 6 * (20 + 10 * random()), 40, 6 * 2e9, 2.2e9, 6 * 12, 20
        FROM unnest(${sql.array([...queryServers].map(String), 'uuid')}) s,
             generate_series(date_trunc('minute', now()) - make_interval(days => ${day}), date_trunc('minute', now()) - make_interval(days => ${day - 1}) - interval '1 minute', interval '1 minute') t
      ON CONFLICT DO NOTHING`);
  }
  await pool.query(sql.unsafe`ANALYZE server_metrics_minute`);
  // The service's maintenance marked these past hours rolled (empty) when it started; they are rolled again now.
  await pool.query(sql.unsafe`DELETE FROM metrics_rollups`);
  while (await rollUpHours(pool, now, DAYS + 1));
  await pool.query(sql.unsafe`ANALYZE server_metrics_hour`);
  const serverId = String(queryServers[Math.floor(queryServers.length / 2)]);
  const get = (query: string) =>
    fetch(`${base}/api/v1/servers/${serverId}/metrics?${query}`, { headers: { Authorization: `Bearer ${accessToken}` } }).then(async (response) => {
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      return response.json();
    });
  const weekFrom = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const dayFrom = new Date(now.getTime() - 86_400_000).toISOString();
  const week = await timed(() => get(`from=${weekFrom}&to=${now.toISOString()}&step=1h`), QUERIES);
  const day = await timed(() => get(`from=${dayFrom}&to=${now.toISOString()}&step=1m`), QUERIES);
  const weekRaw = await timed(
    () => pool.any(sql.unsafe`SELECT * FROM server_metrics_minute WHERE server_id = ${serverId} AND at >= ${weekFrom} AND at < ${now.toISOString()}`),
    QUERIES,
  );
  const dayRaw = await timed(
    () => pool.any(sql.unsafe`SELECT * FROM server_metrics_minute WHERE server_id = ${serverId} AND at >= ${dayFrom} AND at < ${now.toISOString()}`),
    QUERIES,
  );
  const points = ((await get(`from=${weekFrom}&to=${now.toISOString()}&step=1h`)) as { points: unknown[] }).points.length;

  const f = (value: number) => value.toFixed(1);
  process.stdout.write(`
ingest: ${SERVERS} servers on ${AGENTS} agents every 10 s for ${SECONDS} s: ${load.samples.count} samples, ${rows} minute rows
  ours (per-minute sums in memory, one upsert per table every minute)   service ${f(serviceUs)} µs/sample   Postgres ${f(postgresUs)} µs/sample
    of which the history's own writes (replayed alone)                Postgres ${f(historyUs)} µs/sample (the rest: the servers' latest stats every 5 s, heartbeats)
  baseline (one INSERT per sample, plain table)                        Postgres ${f(baselineUs)} µs/sample   history ratio ${(historyUs / baselineUs).toFixed(3)}
  storage: ${f(bytes / rows)} bytes per minute point (with its index) = ${f(((bytes / rows) * 1440) / 1024)} KiB per server-day of minute points

queries: 1 server among ${QUERY_SERVERS} with ${DAYS} days of minute points (${points} points in the week), ${QUERIES} each, through the API
  7 days, step=1h     p50 ${f(week.p50)} ms   p95 ${f(week.p95)} ms      (raw minute rows from Postgres: p50 ${f(weekRaw.p50)} ms, p95 ${f(weekRaw.p95)} ms)
  24 hours, step=1m   p50 ${f(day.p50)} ms   p95 ${f(day.p95)} ms      (raw minute rows from Postgres: p50 ${f(dayRaw.p50)} ms, p95 ${f(dayRaw.p95)} ms)
`);
} finally {
  node?.child.kill('SIGTERM');
  await node?.exited;
  await pool.end();
  await database.drop?.();
}
process.exit(0);
