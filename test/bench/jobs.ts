/**
 * `npm run bench -- jobs`, in one run on this machine:
 * (a) graphile-worker by itself: add_job → task start latency and throughput with a no-op task;
 * (b) ours end to end: HTTP accept of a power job → the (simulated) agent receives it, and the HTTP RCON round trip
 *     through the simulated agent (which acks and answers at once), p50/p99 and jobs/s — with the API and the
 *     orchestrator in one process (`npm start`), and in two (`--role=web` + `--role=orchestrator`, the agent connected
 *     to the orchestrator).
 * Beside the wall-clock figures (noisy on a shared machine), each row gives the CPU time spent per job by our
 * processes, by the Postgres backends of the benchmark's database, and by this (load-generating) process.
 * Targets: accept → agent receives p50 ≤ 10 ms and p99 ≤ 50 ms; ≥ 1,000 power or RCON jobs/s end to end.
 * Each is measured loaded (BENCH_CONCURRENCY requests in flight, default 50: throughput, and latency with queueing)
 * and one request at a time (BENCH_LATENCY_JOBS jobs, default 300: the latency of the path itself).
 * BENCH_JOBS sets the number of loaded jobs per measurement (default 2,000), BENCH_MODES the modes (`all,split`).
 * Diagnostics: BENCH_CPU_PROF (a directory) writes CPU profiles of the service processes, BENCH_SERVICE_LOGS (a
 * directory) keeps their logs, BENCH_LOG_STATEMENTS=1 has Postgres log every statement of the benchmark's database
 * (count them in the server log to get the round trips per job).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { makeWorkerUtils, run } from 'graphile-worker';
import { io, type Socket } from 'socket.io-client';
import { sql } from 'slonik';
import { createPgPool } from '../../sql/pgPool.ts';
import { createLogger } from '../../schema/logger.ts';
import { createWorkerLogger } from '../../sql/workerLogger.ts';
import { createDatabasePool } from '../../sql/pool.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { createTestDatabase } from '../support/database.ts';
import { cpuSecondsBetween, cpuTicks, isBackendOf, percentile, startService, type Service } from './support.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
/** Jobs are spread over this many servers: jobs of one server are serialised by design. */
const SERVERS = 50;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
/** Jobs measured one at a time (BENCH_LATENCY_JOBS): the latency of the path itself, without queueing. */
const LATENCY_JOBS = Number(process.env.BENCH_LATENCY_JOBS ?? 300);
const MODES = (process.env.BENCH_MODES ?? 'all,split').split(',');
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
/** Where the service processes' logs go (BENCH_SERVICE_LOGS, a directory); default nowhere (written, not kept). */
const SERVICE_LOG_DIR = process.env.BENCH_SERVICE_LOGS;

/** Runs `count` operations with `inFlight` at a time; answers the seconds it took. */
async function drive(count: number, inFlight: number, operation: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await operation(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

// ---- CPU and transaction accounting (the machine is shared: CPU per job is steadier than wall-clock figures)

type Meter = { stop: () => Promise<{ service: number; postgres: number; client: number }> };

/** Starts counting the CPU of `servicePids`, of the database's backends and of this process. */
async function meter(databaseUrl: string, servicePids: number[]): Promise<Meter> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const read = async () => ({
    service: await cpuTicks((pid) => servicePids.includes(pid)),
    postgres: await cpuTicks(isBackendOf(database)),
    client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  });
  const before = await read();
  return {
    async stop() {
      const after = await read();
      return {
        service: cpuSecondsBetween(before.service, after.service),
        postgres: cpuSecondsBetween(before.postgres, after.postgres),
        client: after.client - before.client,
      };
    },
  };
}

type Row = { name: string; latencies: number[]; seconds: number; count?: number; cost?: Awaited<ReturnType<Meter['stop']>> };

function printRows(rows: Row[], baseline: Row) {
  const header = ['', 'p50 ms', 'p99 ms', 'jobs/s', 'vs (a)', 'CPU ms/job: ours', 'postgres', 'client'];
  const rate = (row: Row) => row.latencies.length / row.seconds;
  const lines = rows.map((row) => {
    const per = (value: number | undefined) => (value === undefined ? '' : ((value * 1000) / (row.count ?? row.latencies.length)).toFixed(2));
    return [
      row.name,
      percentile(row.latencies, 50).toFixed(1),
      percentile(row.latencies, 99).toFixed(1),
      rate(row).toFixed(0),
      `${(rate(row) / rate(baseline)).toFixed(2)}×`,
      per(row.cost?.service),
      per(row.cost?.postgres),
      per(row.cost?.client),
    ];
  });
  const widths = header.map((cell, index) => Math.max(cell.length, ...lines.map((line) => line[index]!.length)));
  const format = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

// ---- (a) graphile-worker alone
async function graphileAlone(databaseUrl: string): Promise<Row> {
  const pgPool = createPgPool(databaseUrl, { max: 12, name: 'bench' });
  const latencies: number[] = [];
  let done = 0;
  let finished: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  const runner = await run({
    pgPool,
    logger: createWorkerLogger(createLogger('warn')),
    concurrency: 10,
    noHandleSignals: true,
    parsedCronItems: [],
    taskList: {
      noop: async (payload) => {
        latencies.push(Date.now() - (payload as { at: number }).at);
        if (++done === JOBS) finished();
      },
    },
  });
  const utils = await makeWorkerUtils({ pgPool, logger: createWorkerLogger(createLogger('warn')) });
  const metered = await meter(databaseUrl, []);
  const started = performance.now();
  await drive(JOBS, CONCURRENCY, async () => void (await utils.addJob('noop', { at: Date.now() })));
  await allDone;
  const seconds = (performance.now() - started) / 1000;
  const cost = await metered.stop();
  await runner.stop();
  await utils.release();
  await pgPool.end();
  // graphile-worker runs in this process here: its CPU is the "client" column.
  return { name: '(a) graphile-worker add → no-op task start', latencies, seconds, cost };
}

// ---- (b) ours

/** Keep-alive connections for the load: node:http costs the load generator less CPU per request than fetch. */
const agentPool = new HttpAgent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, headers: Record<string, string>, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', agent: agentPool, headers: payload ? { ...headers, 'content-length': Buffer.byteLength(payload) } : headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
type Fixture = { token: string; agentToken: string; machineId: string; servers: string[] };

async function seed(databaseUrl: string): Promise<Fixture> {
  const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 2 });
  if (process.env.BENCH_LOG_STATEMENTS)
    await pool.query(sql.unsafe`ALTER DATABASE ${sql.identifier([new URL(databaseUrl).pathname.slice(1)])} SET log_statement = 'all'`);
  const token = generateSecret('live');
  const agentToken = generateSecret('agent');
  const ids = { cluster: randomUUID(), machine: randomUUID(), user: randomUUID(), apiToken: randomUUID() };
  const servers = Array.from({ length: SERVERS }, () => randomUUID());
  await pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`INSERT INTO users (id, email, display_name, tier) VALUES (${ids.user}, 'bench@example.test', 'bench', 'ENTERPRISE')`);
    await tx.query(sql.unsafe`INSERT INTO clusters (id, name) VALUES (${ids.cluster}, 'bench')`);
    await tx.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${ids.cluster}, ${ids.user}, 'OWNER')`);
    await tx.query(
      sql.unsafe`INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES (${ids.apiToken}, ${ids.user}, 'bench', ${sql.binary(hashSecret(token))})`,
    );
    await tx.query(sql.unsafe`INSERT INTO api_token_clusters (token_id, cluster_id) VALUES (${ids.apiToken}, ${ids.cluster})`);
    await tx.query(
      sql.unsafe`INSERT INTO machines (id, cluster_id, name, agent_token_hash) VALUES (${ids.machine}, ${ids.cluster}, 'bench', ${sql.binary(hashSecret(agentToken))})`,
    );
    for (const [index, serverId] of servers.entries()) {
      const base = 30_000 + index * 3;
      await tx.query(sql.unsafe`
        INSERT INTO servers (id, cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status)
        VALUES (${serverId}, ${ids.cluster}, ${ids.machine}, 'bench', 'CUSTOM', ${base}, ${base + 1}, ${base + 2}, 10, 'pw', 'ONLINE')`);
    }
  });
  await pool.end();
  return { token, agentToken, machineId: ids.machine, servers };
}

/** The simulated agent: acks every job at once and answers it (RCON echoes the command). */
async function connectAgent(gateway: string, fixture: Fixture): Promise<{ agent: Socket; received: Map<string, number>; duplicates: () => number }> {
  const received = new Map<string, number>();
  let duplicates = 0;
  const agent = io(gateway, { path: '/ws', transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve) => {
    agent.on('connect', () => agent.emit('auth', { token: fixture.agentToken, machineId: fixture.machineId, version: '0.1.0' }));
    agent.on('authenticated', () => resolve());
  });
  agent.on('job', (job: { jobId: string; type: string; params: { command?: string } }, ack: (answer: object) => void) => {
    // The first receipt counts (a job still unacknowledged after the ack window is sent again).
    if (!received.has(job.jobId)) received.set(job.jobId, performance.now());
    else duplicates++;
    ack({ accepted: true });
    const result = job.type === 'RCON' ? { output: job.params.command } : { message: 'ok' };
    agent.emit('job:result', { jobId: job.jobId, status: 'SUCCEEDED', result, finishedAt: new Date().toISOString() }, () => undefined);
  });
  return { agent, received, duplicates: () => duplicates };
}

async function ours(mode: 'all' | 'split'): Promise<Row[]> {
  const database = await createTestDatabase();
  const services: Service[] = [];
  try {
    const fixture = await seed(database.url);
    const start = (role: 'all' | 'web' | 'orchestrator') => startService(database.url, role, { cpuProfileDir: CPU_PROFILE_DIR, logDir: SERVICE_LOG_DIR });
    const [api, gateway] = mode === 'all' ? [await start('all')] : [await start('web'), await start('orchestrator')];
    services.push(api!, ...(gateway ? [gateway] : []));
    const pids = services.map((service) => service.child.pid!);
    const { agent, received, duplicates } = await connectAgent((gateway ?? api!).base, fixture);
    const headers = { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' };
    const label = mode === 'all' ? 'one process' : 'web + orchestrator';

    // Warm-up (connections, JIT, prepared statements), not measured.
    await drive(
      CONCURRENCY * 4,
      CONCURRENCY,
      async (index) => void (await post(`${api!.base}/api/v1/servers/${fixture.servers[index % SERVERS]}/restart`, headers)),
    );

    const power = async (count: number, inFlight: number): Promise<Row> => {
      const sent = new Map<string, number>();
      const metered = await meter(database.url, pids);
      await drive(count, inFlight, async (index) => {
        const at = performance.now();
        const answer = (await post(`${api!.base}/api/v1/servers/${fixture.servers[index % SERVERS]}/restart`, headers)) as { id: string };
        sent.set(answer.id, at);
      });
      // Wait for every job to reach the agent.
      for (let attempt = 0; attempt < 600 && [...sent.keys()].some((id) => !received.has(id)); attempt++) await new Promise((done) => setTimeout(done, 20));
      const cost = await metered.stop();
      const latencies = [...sent].filter(([id]) => received.has(id)).map(([id, at]) => received.get(id)! - at);
      if (latencies.length < count) console.log(`${label}: ${count - latencies.length} power jobs not delivered`);
      const seconds = (Math.max(...[...sent.keys()].map((id) => received.get(id) ?? 0)) - Math.min(...sent.values())) / 1000;
      return { name: `(b) power accept → agent receives, ${label}, ${inFlight} in flight`, latencies, seconds, count, cost };
    };
    const rcon = async (count: number, inFlight: number): Promise<Row> => {
      const latencies: number[] = [];
      const metered = await meter(database.url, pids);
      const seconds = await drive(count, inFlight, async (index) => {
        const at = performance.now();
        const answer = (await post(`${api!.base}/api/v1/servers/${fixture.servers[index % SERVERS]}/rcon?wait=10`, headers, { command: `echo ${index}` })) as {
          success: boolean;
        };
        if (answer.success) latencies.push(performance.now() - at);
      });
      const cost = await metered.stop();
      if (latencies.length < count) console.log(`${label}: ${count - latencies.length} RCON calls not answered`);
      return { name: `(b) RCON round trip (?wait), ${label}, ${inFlight} in flight`, latencies, seconds, count, cost };
    };
    // Loaded (throughput, and latency under load), then one at a time (latency of the path itself).
    const rows = [await power(JOBS, CONCURRENCY), await rcon(JOBS, CONCURRENCY), await power(LATENCY_JOBS, 1), await rcon(LATENCY_JOBS, 1)];
    agent.close();
    if (duplicates() > 0) console.log(`${label}: ${duplicates()} jobs sent to the agent again (still unacknowledged after the ack window)`);
    return rows;
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await database.drop();
  }
}

const [load1] = (await readFile('/proc/loadavg', 'utf8')).split(' ');
console.log(`Jobs benchmark: ${JOBS} jobs per measurement, ${CONCURRENCY} in flight, ${cpus().length} cores, load average ${load1} at start\n`);
const baselineDatabase = await createTestDatabase();
let alone: Row;
try {
  alone = await graphileAlone(baselineDatabase.url);
} finally {
  await baselineDatabase.drop();
}
const rows: Row[] = [alone];
for (const mode of MODES) rows.push(...(await ours(mode as 'all' | 'split')));
printRows(rows, alone);
const [loadAfter] = (await readFile('/proc/loadavg', 'utf8')).split(' ');
console.log(`\nload average ${loadAfter} at the end. CPU ms/job: "ours" is the service process(es), "client" this process (load generator,`);
console.log('simulated agent; in (a) graphile-worker itself), "postgres" the backends of the benchmark\'s database.');
for (const row of rows.slice(1)) {
  if (!row.name.includes('power')) continue;
  const p50 = percentile(row.latencies, 50);
  const p99 = percentile(row.latencies, 99);
  console.log(`${row.name}: p50 ≤ 10 ms ${p50 <= 10 ? 'met' : 'NOT met'}; p99 ≤ 50 ms ${p99 <= 50 ? 'met' : 'NOT met'}`);
}
const best = Math.max(...rows.slice(1).map((row) => row.latencies.length / row.seconds));
console.log(`best end-to-end rate ${best.toFixed(0)} jobs/s: ≥ 1000 jobs/s ${best >= 1000 ? 'met' : 'NOT met'}`);
