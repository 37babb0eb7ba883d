/**
 * `npm run bench -- jobs`, in one run on this machine:
 * (a) graphile-worker by itself: add_job → task start latency and throughput with a no-op task;
 * (b) ours end to end, one all-in-one service process: HTTP accept of a power job → the (simulated) agent receives it,
 *     and the HTTP RCON round trip through the simulated agent (which acks and answers at once), p50/p99 and jobs/s.
 * Targets: accept → agent receives p50 ≤ 10 ms and p99 ≤ 50 ms; ≥ 1,000 power or RCON jobs/s end to end.
 * BENCH_JOBS sets the number of jobs per measurement (default 2,000), BENCH_CONCURRENCY the requests in flight (50).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { makeWorkerUtils, run } from 'graphile-worker';
import { io } from 'socket.io-client';
import { sql } from 'slonik';
import { createPgPool } from '../database/pgPool.ts';
import { createLogger } from '../observability/logger.ts';
import { createWorkerLogger } from '../observability/workerLogger.ts';
import { createDatabasePool } from '../database/pool.ts';
import { generateSecret, hashSecret } from '../identity/secretTokens.ts';
import { createTestDatabase } from '../test/support/database.ts';
import { freePorts } from '../test/support/agentProcess.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
/** Jobs are spread over this many servers: jobs of one server are serialised by design. */
const SERVERS = 50;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const figures = (name: string, latencies: number[], seconds: number) =>
  `${name.padEnd(44)} p50 ${percentile(latencies, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(latencies, 99).toFixed(1).padStart(7)} ms  ${(latencies.length / seconds).toFixed(0).padStart(6)} jobs/s`;

/** Runs `count` operations with `CONCURRENCY` in flight; answers the seconds it took. */
async function drive(count: number, operation: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await operation(next++);
  }));
  return (performance.now() - started) / 1000;
}

// ---- (a) graphile-worker alone
async function graphileAlone(databaseUrl: string) {
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
  const started = performance.now();
  await drive(JOBS, async () => void (await utils.addJob('noop', { at: Date.now() })));
  await allDone;
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  await utils.release();
  await pgPool.end();
  return { latencies, seconds };
}

// ---- (b) ours
async function ours(databaseUrl: string) {
  const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 2 });
  const token = generateSecret('live');
  const agentToken = generateSecret('agent');
  const ids = { cluster: randomUUID(), machine: randomUUID(), user: randomUUID(), apiToken: randomUUID() };
  const servers = Array.from({ length: SERVERS }, () => randomUUID());
  await pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`INSERT INTO users (id, email, display_name, tier) VALUES (${ids.user}, 'bench@example.test', 'bench', 'ENTERPRISE')`);
    await tx.query(sql.unsafe`INSERT INTO clusters (id, name) VALUES (${ids.cluster}, 'bench')`);
    await tx.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${ids.cluster}, ${ids.user}, 'OWNER')`);
    await tx.query(sql.unsafe`INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES (${ids.apiToken}, ${ids.user}, 'bench', ${sql.binary(hashSecret(token))})`);
    await tx.query(sql.unsafe`INSERT INTO api_token_clusters (token_id, cluster_id) VALUES (${ids.apiToken}, ${ids.cluster})`);
    await tx.query(sql.unsafe`INSERT INTO machines (id, cluster_id, name, agent_token_hash) VALUES (${ids.machine}, ${ids.cluster}, 'bench', ${sql.binary(hashSecret(agentToken))})`);
    for (const [index, serverId] of servers.entries()) {
      const base = 30_000 + index * 3;
      await tx.query(sql.unsafe`
        INSERT INTO servers (id, cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status)
        VALUES (${serverId}, ${ids.cluster}, ${ids.machine}, 'bench', 'CUSTOM', ${base}, ${base + 1}, ${base + 2}, 10, 'pw', 'ONLINE')`);
    }
  });
  await pool.end();

  const [port] = await freePorts(1);
  const service = spawn(process.execPath, ['main.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), RATE_LIMIT: 'off', LOG_LEVEL: 'warn', AGENT_HEARTBEAT_SECONDS: '60' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await fetch(`${base}/readyz`).catch(() => null))?.status === 200) break;
    await new Promise((done) => setTimeout(done, 100));
  }

  // The simulated agent: acks every job at once and answers it (RCON echoes the command).
  const received = new Map<string, number>();
  const agent = io(base, { path: '/ws', transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve) => {
    agent.on('connect', () => agent.emit('auth', { token: agentToken, machineId: ids.machine, version: '0.1.0' }));
    agent.on('authenticated', () => resolve());
  });
  agent.on('job', (job: { jobId: string; type: string; params: { command?: string } }, ack: (answer: object) => void) => {
    received.set(job.jobId, performance.now());
    ack({ accepted: true });
    const result = job.type === 'RCON' ? { output: job.params.command } : { message: 'ok' };
    agent.emit('job:result', { jobId: job.jobId, status: 'SUCCEEDED', result, finishedAt: new Date().toISOString() }, () => undefined);
  });

  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sent = new Map<string, number>();
  const acceptSeconds = await drive(JOBS, async (index) => {
    const at = performance.now();
    const response = await fetch(`${base}/api/v1/servers/${servers[index % SERVERS]}/restart`, { method: 'POST', headers });
    sent.set(((await response.json()) as { id: string }).id, at);
  });
  // Wait for every job to reach the agent.
  for (let attempt = 0; attempt < 600 && [...sent.keys()].some((id) => !received.has(id)); attempt++) await new Promise((done) => setTimeout(done, 100));
  const deliveries = [...sent].filter(([id]) => received.has(id)).map(([id, at]) => received.get(id)! - at);
  const deliveredSeconds = (Math.max(...[...sent.keys()].map((id) => received.get(id) ?? 0)) - Math.min(...sent.values())) / 1000;

  const rconLatencies: number[] = [];
  const rconSeconds = await drive(JOBS, async (index) => {
    const at = performance.now();
    const response = await fetch(`${base}/api/v1/servers/${servers[index % SERVERS]}/rcon?wait=10`, { method: 'POST', headers, body: JSON.stringify({ command: `echo ${index}` }) });
    const answer = (await response.json()) as { success: boolean };
    if (answer.success) rconLatencies.push(performance.now() - at);
  });
  agent.close();
  service.kill('SIGTERM');
  return { deliveries, deliveredSeconds, acceptSeconds, lost: JOBS - deliveries.length, rconLatencies, rconSeconds };
}

const database = await createTestDatabase();
try {
  console.log(`Jobs benchmark: ${JOBS} jobs per measurement, ${CONCURRENCY} in flight\n`);
  const alone = await graphileAlone(database.url);
  const measured = await ours(database.url);
  console.log(figures('(a) graphile-worker add → task start', alone.latencies, alone.seconds));
  console.log(figures('(b) HTTP power accept → agent receives', measured.deliveries, measured.deliveredSeconds));
  console.log(figures('(b) HTTP RCON round trip (?wait)', measured.rconLatencies, measured.rconSeconds));
  console.log(`\naccepting alone: ${(JOBS / measured.acceptSeconds).toFixed(0)} req/s; jobs not delivered: ${measured.lost}; RCON not answered: ${JOBS - measured.rconLatencies.length}`);
  const p50 = percentile(measured.deliveries, 50);
  const p99 = percentile(measured.deliveries, 99);
  const rate = Math.min(measured.deliveries.length / measured.deliveredSeconds, measured.rconLatencies.length / measured.rconSeconds);
  console.log(`ratio to graphile-worker alone: delivery p50 ${(p50 / percentile(alone.latencies, 50)).toFixed(1)}×, throughput ${(rate / (alone.latencies.length / alone.seconds)).toFixed(2)}×`);
  console.log(`targets: p50 ≤ 10 ms ${p50 <= 10 ? 'met' : 'NOT met'}; p99 ≤ 50 ms ${p99 <= 50 ? 'met' : 'NOT met'}; ≥ 1000 jobs/s ${rate >= 1000 ? 'met' : 'NOT met'}`);
} finally {
  await database.drop();
}
