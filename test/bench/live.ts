/**
 * `npm run bench -- live`: the live console across nodes, beside bare Socket.IO servers with the Redis adapter
 * carrying the same messages (servers/liveBare.ts), in one run.
 *
 * Ours: an orchestrator process (`node main.ts --role=orchestrator`) holds 10 simulated agents, each printing
 * 1,000 lines/s for its server (a batch of 50 lines every 50 ms, as the agent batches); two API processes
 * (`--role=web`) serve 100 Socket.IO viewers on `/live`, each subscribed to one server's console (10 per server). All
 * on one database and one Redis. Bare: a hub process takes the same batches and broadcasts them through the adapter to
 * two edge processes serving the same viewers.
 *
 * Printed: lines/s delivered to viewers, agent-line → viewer latency p50/p99 (each line carries its send time), CPU
 * of the server processes per 1,000 agent lines, their memory (RSS) after the warm-up and at the end, and the ratio to
 * bare. Rounds alternate between bare and ours (BENCH_ROUNDS, 3) and each figure is the median of its side's.
 * Targets: ≥ 50% of bare throughput, p99 ≤ 100 ms, memory flat (BENCH_LIVE_SECONDS=300 BENCH_ROUNDS=1 for the
 * 5-minute run). In each round each side is also measured at rest (agents and viewers connected, no console output,
 * 10 s), and the CPU the console itself costs (above rest, per 1,000 lines) is printed beside the whole; BENCH_LIVE_LINES=0 measures
 * only at rest.
 * Then: SSE catch-up of 100,000 stored events through `GET /clusters/<id>/events/stream?after=0`, beside reading the
 * same rows straight from Postgres.
 * Diagnostics: BENCH_CPU_PROF (a directory) writes CPU profiles of the service processes.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { io, type Socket } from 'socket.io-client';
import { createClient } from 'redis';
import { sql } from 'slonik';
import { createDatabasePool } from '../../sql/pool.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { createTestDatabase } from '../support/database.ts';
import { baseUrl, startMain, type Started } from '../support/mainProcess.ts';
import { cpuSecondsBetween, cpuTicks, median, ROUNDS, startServer, type ServerProcess } from './support.ts';

const SERVERS = 10;
const LINES_PER_SECOND = Number(process.env.BENCH_LIVE_LINES ?? 1_000);
const VIEWERS = 100;
const BATCH_MS = 50;
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const WARMUP_S = 3;
/** The round at rest (agents and viewers connected, no output) that each side's CPU above rest is counted from. */
const REST_SECONDS = 10;
const SSE_EVENTS = 100_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Diagnostics: a directory for CPU profiles of the service processes (written when they stop). */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const ADMIN = { email: 'bench@example.test', password: 'correct horse battery staple' };

type Target = {
  /** Where each agent connects (Socket.IO, path /ws) and what it sends first. */
  agents: { url: string; auth?: (index: number) => Record<string, unknown> }[];
  serverIds: string[];
  viewerUrls: string[];
  viewerToken?: string;
  pids: number[];
};

type Result = {
  linesPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPer1000: number;
  /** CPU of the server processes per second of the run (ms/s). */
  cpuMsPerSecond: number;
  rssStartMb: number;
  rssEndMb: number;
  expected: number;
  /** Lines the agents printed per second of the measured window. */
  agentLinesPerSecond: number;
  /** Lines a viewer got twice or out of order (must be 0). */
  misordered: number;
  /** CPU of each server process per second of the run (ms/s), in the order of `Target.pids`. */
  perProcess: number[];
};

const rssMb = async (pids: number[]) => {
  let kb = 0;
  for (const pid of pids) kb += Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
};

const connect = (url: string, options: Parameters<typeof io>[1]) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...options });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });

async function measure(target: Target, linesPerSecond = LINES_PER_SECOND, seconds = SECONDS): Promise<Result> {
  // Viewers first: each subscribes to one server's console.
  const latencies = new Uint32Array(10_001); // 1 ms buckets; the last one holds everything slower
  let delivered = 0;
  let misordered = 0;
  // Lines count when they were SENT within the measured window (so a backlog from the warm-up does not inflate it).
  let window = { from: Number.POSITIVE_INFINITY, to: Number.POSITIVE_INFINITY };
  const viewers: Socket[] = [];
  for (let index = 0; index < VIEWERS; index++) {
    const viewer = await connect(`${target.viewerUrls[index % target.viewerUrls.length]}/live`, {
      auth: target.viewerToken ? { token: target.viewerToken } : {},
    });
    let last = -1;
    viewer.on('event', (event: { type: string; data: { lines: { line: string }[]; replay?: boolean } }) => {
      if (event.type !== 'server.console' || event.data.replay) return;
      const now = Date.now();
      for (const { line } of event.data.lines) {
        if (!line.startsWith('[bench] ')) continue; // a [gsm] marker line
        const [, , sequence, sent] = line.split(' ');
        const sentAt = Number(sent);
        if (Number(sequence) <= last) misordered += 1;
        last = Number(sequence);
        if (sentAt < window.from || sentAt >= window.to) continue;
        latencies[Math.min(10_000, Math.max(0, now - sentAt))]! += 1;
        delivered += 1;
      }
    });
    const answer = await viewer.timeout(10_000).emitWithAck('subscribe', { serverId: target.serverIds[index % SERVERS], console: true });
    if (!answer.ok) throw new Error(`subscribe failed: ${JSON.stringify(answer)}`);
    viewers.push(viewer);
  }
  const agents: Socket[] = [];
  // Heartbeats as often as the service asks of its agents (AGENT_HEARTBEAT_SECONDS, `authenticated`), as the real
  // agent does; the bare hub asks nothing and ignores them.
  let heartbeatSeconds = 10;
  for (let index = 0; index < SERVERS; index++) {
    const spec = target.agents[0]!;
    const agent = await connect(spec.url, { path: '/ws' });
    if (spec.auth) {
      agent.once('authenticated', (answer: { heartbeatSeconds: number }) => (heartbeatSeconds = answer.heartbeatSeconds));
      const synced = new Promise((resolve) => agent.once('servers:sync', resolve));
      agent.emit('auth', spec.auth(index));
      await synced;
    }
    agents.push(agent);
  }
  const beat = setInterval(() => {
    for (const agent of agents) agent.emit('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 });
  }, heartbeatSeconds * 1_000);

  // Each agent prints LINES_PER_SECOND, in batches every BATCH_MS; lines due are computed from the clock, so a late
  // timer sends a bigger batch rather than fewer lines.
  const started = Date.now();
  let sent = 0;
  const sequences = agents.map(() => 0);
  let agentLines = 0;
  const printer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * linesPerSecond);
    const count = due - sent;
    if (count <= 0) return;
    sent = due;
    const now = Date.now();
    const at = new Date(now).toISOString();
    if (now >= window.from && now < window.to) agentLines += count * agents.length;
    agents.forEach((agent, index) => {
      const lines = Array.from({ length: count }, () => `[bench] line ${sequences[index]!++} ${now}`);
      for (let from = 0; from < lines.length; from += 500)
        agent.emit('console', { serverId: target.serverIds[index], lines: lines.slice(from, from + 500), at });
    });
  }, BATCH_MS);

  await new Promise((done) => setTimeout(done, WARMUP_S * 1000));
  const cpuBefore = await cpuTicks((pid) => target.pids.includes(pid));
  const rssStart = await rssMb(target.pids);
  window = { from: Date.now(), to: Date.now() + seconds * 1000 };
  await new Promise((done) => setTimeout(done, seconds * 1000));
  const cpuAfter = await cpuTicks((pid) => target.pids.includes(pid));
  const rssEnd = await rssMb(target.pids);
  clearInterval(printer);
  await new Promise((done) => setTimeout(done, 2_000)); // the lines still on their way
  clearInterval(beat);
  const elapsed = seconds;
  for (const socket of [...agents, ...viewers]) socket.close();

  const total = latencies.reduce((sum, count) => sum + count, 0);
  const percentile = (p: number) => {
    let seen = 0;
    for (let ms = 0; ms < latencies.length; ms++) if ((seen += latencies[ms]!) >= total * p) return ms;
    return Number.NaN;
  };
  return {
    linesPerSecond: delivered / elapsed,
    expected: (agentLines / elapsed) * (VIEWERS / SERVERS),
    agentLinesPerSecond: agentLines / elapsed,
    p50: percentile(0.5),
    p99: percentile(0.99),
    misordered,
    cpuMsPer1000: (cpuSecondsBetween(cpuBefore, cpuAfter) * 1000 * 1000) / agentLines,
    cpuMsPerSecond: (cpuSecondsBetween(cpuBefore, cpuAfter) * 1000) / seconds,
    rssStartMb: rssStart,
    rssEndMb: rssEnd,
    perProcess: target.pids.map(
      (pid) => (cpuSecondsBetween(new Map([[pid, cpuBefore.get(pid) ?? 0]]), new Map([[pid, cpuAfter.get(pid) ?? 0]])) * 1000) / seconds,
    ),
  };
}

/** Each figure's median over the rounds (misordered lines: their sum, which must be 0). */
function medianResult(results: Result[]): Result {
  const of = (pick: (result: Result) => number) => median(results.map(pick));
  return {
    linesPerSecond: of((result) => result.linesPerSecond),
    expected: of((result) => result.expected),
    agentLinesPerSecond: of((result) => result.agentLinesPerSecond),
    p50: of((result) => result.p50),
    p99: of((result) => result.p99),
    cpuMsPer1000: of((result) => result.cpuMsPer1000),
    cpuMsPerSecond: of((result) => result.cpuMsPerSecond),
    rssStartMb: of((result) => result.rssStartMb),
    rssEndMb: of((result) => result.rssEndMb),
    misordered: results.reduce((sum, result) => sum + result.misordered, 0),
    perProcess: results[0]!.perProcess.map((_, index) => median(results.map((result) => result.perProcess[index]!))),
  };
}

const database = await createTestDatabase();
const prefix = `gsm:bench:${randomBytes(4).toString('hex')}:`;

/** The bare processes, measured as often as asked; `stop` ends them. */
async function bare(): Promise<{ measure: (linesPerSecond?: number, seconds?: number) => Promise<Result>; stop: () => Promise<void> }> {
  const key = `${prefix}bare`;
  const env = CPU_PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROFILE_DIR}` } : {};
  const processes: ServerProcess[] = [await startServer('liveBare.ts', ['hub', REDIS_URL, key], env)];
  for (let index = 0; index < 2; index++) processes.push(await startServer('liveBare.ts', ['edge', REDIS_URL, key], env));
  return {
    measure: (linesPerSecond, seconds) =>
      measure(
        {
          agents: [{ url: `http://127.0.0.1:${processes[0]!.port}` }],
          serverIds: Array.from({ length: SERVERS }, (_, index) => `server-${index}`),
          viewerUrls: processes.slice(1).map((process) => `http://127.0.0.1:${process.port}`),
          pids: processes.map((process) => process.child.pid!),
        },
        linesPerSecond,
        seconds,
      ),
    stop: async () => void (await Promise.all(processes.map((process) => process.stop()))),
  };
}

async function ours(
  rounds: (measureOurs: (linesPerSecond?: number, seconds?: number) => Promise<Result>) => Promise<Result>,
): Promise<{ result: Result; sse: { ours: number; postgres: number } }> {
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    PASETO_KEY: generatePasetoKey(),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info', // the start-up line (with the docs URL) is at info
    ...(CPU_PROFILE_DIR && { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROFILE_DIR}` }),
  };
  const nodes: Started[] = [];
  try {
    for (const role of ['orchestrator', 'web', 'web']) nodes.push(await startMain(env, [`--role=${role}`]));
    const [orchestrator, ...web] = nodes.map(baseUrl) as [string, string, string];
    const post = async (path: string, payload: unknown, token?: string) => {
      const response = await fetch(`${web[0]}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(payload),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, any>>;
    };
    const { accessToken } = await post('/auth/login', ADMIN);
    const cluster = await post('/api/v1/clusters', { name: 'bench' }, accessToken);
    const machines: { id: string; agentToken: string; serverId: string }[] = [];
    for (let index = 0; index < SERVERS; index++) {
      const machine = await post(`/api/v1/clusters/${cluster.id}/machines`, { name: `host${index}` }, accessToken);
      const port = 40_000 + index * 3;
      const server = await post(
        `/api/v1/clusters/${cluster.id}/servers`,
        { name: `s${index}`, gameType: 'CUSTOM', machineId: machine.id, startCommand: 'true', gamePort: port, queryPort: port + 1, rconPort: port + 2 },
        accessToken,
      );
      machines.push({ id: machine.id, agentToken: machine.agentToken, serverId: server.id });
    }
    const result = await rounds((linesPerSecond, seconds) =>
      measure(
        {
          agents: [{ url: orchestrator, auth: (index) => ({ token: machines[index]!.agentToken, machineId: machines[index]!.id, version: '0.1.0' }) }],
          serverIds: machines.map((machine) => machine.serverId),
          viewerUrls: web,
          viewerToken: accessToken,
          pids: nodes.map((node) => node.child.pid!),
        },
        linesPerSecond,
        seconds,
      ),
    );
    return { result, sse: await sseCatchUp(web[0], cluster.id, accessToken) };
  } finally {
    for (const node of nodes) node.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.exited));
  }
}

/** Stores SSE_EVENTS numbered events in the cluster, then reads them back through the stream and straight from Postgres. */
async function sseCatchUp(web: string, clusterId: string, token: string) {
  const pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
  try {
    await pool.transaction(async (connection) => {
      const base = String(await connection.oneFirst(sql.unsafe`SELECT last_position FROM event_positions FOR UPDATE`));
      await connection.query(sql.unsafe`
        INSERT INTO events (position, cluster_id, type, server_id, data)
        SELECT ${base}::bigint + g, ${clusterId}, 'job.updated', NULL,
               jsonb_build_object('id', gen_random_uuid(), 'type', 'RCON', 'status', 'SUCCEEDED', 'n', g)
          FROM generate_series(1, ${SSE_EVENTS}) AS g`);
      await connection.query(sql.unsafe`UPDATE event_positions SET last_position = last_position + ${SSE_EVENTS}`);
    });
    const total = Number(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM events WHERE cluster_id = ${clusterId} AND position IS NOT NULL`));

    // Three rounds of each, alternating; the median of each is printed (one round of either swings by 2x here).
    const oursRounds: number[] = [];
    const postgresRounds: number[] = [];
    for (let round = 0; round < 3; round++) {
      oursRounds.push(await sseOnce(web, clusterId, token, total));
      postgresRounds.push(await postgresOnce(pool, clusterId));
    }
    return { ours: median(oursRounds), postgres: median(postgresRounds) };
  } finally {
    await pool.end();
  }
}

/** Events/s of one catch-up of the whole log through the stream. */
async function sseOnce(web: string, clusterId: string, token: string, total: number): Promise<number> {
  const started = performance.now();
  const abort = new AbortController();
  const response = await fetch(`${web}/api/v1/clusters/${clusterId}/events/stream?after=0`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  let frames = 0;
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    const text = rest + decoder.decode(chunk as Uint8Array, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line.startsWith('id: ')) frames += 1;
    if (frames >= total) break;
  }
  const oursPerSecond = frames / ((performance.now() - started) / 1000);
  abort.abort();
  return oursPerSecond;
}

/** Rows/s of reading the same rows straight from Postgres, each made JSON. */
async function postgresOnce(pool: Awaited<ReturnType<typeof createDatabasePool>>, clusterId: string): Promise<number> {
  const started = performance.now();
  const rows = await pool.any(sql.unsafe`
    SELECT position, type, cluster_id, server_id, at, data FROM events WHERE cluster_id = ${clusterId} AND position > 0 ORDER BY position`);
  let bytes = 0;
  for (const row of rows) bytes += JSON.stringify(row).length;
  if (bytes === 0) throw new Error('no rows');
  return rows.length / ((performance.now() - started) / 1000);
}

try {
  process.stdout.write(`live console: ${SERVERS} servers × ${LINES_PER_SECOND} lines/s, ${VIEWERS} viewers over two API processes, ${SECONDS} s measured\n`);
  // Rounds alternate between the two (both sets of processes up, each measured on its own pids), and each figure
  // printed is the median of its side's rounds: one round of either swings by a quarter on this machine.
  const bareProcesses = await bare();
  const bareRounds: Result[] = [];
  let bareResult: Result;
  let oursResult: Result;
  let sse: { ours: number; postgres: number };
  let rest: { bare: Result; ours: Result } | null = null;
  try {
    ({ result: oursResult, sse } = await ours(async (measureOurs) => {
      const oursRounds: Result[] = [];
      const restRounds: { bare: Result[]; ours: Result[] } = { bare: [], ours: [] };
      for (let round = 0; round < ROUNDS; round++) {
        if (LINES_PER_SECOND > 0) {
          restRounds.bare.push(await bareProcesses.measure(0, REST_SECONDS));
          restRounds.ours.push(await measureOurs(0, REST_SECONDS));
        }
        bareRounds.push(await bareProcesses.measure());
        oursRounds.push(await measureOurs());
      }
      if (LINES_PER_SECOND > 0) rest = { bare: medianResult(restRounds.bare), ours: medianResult(restRounds.ours) };
      return medianResult(oursRounds);
    }));
    bareResult = medianResult(bareRounds);
  } finally {
    await bareProcesses.stop();
  }
  const row = (name: string, result: Result) =>
    `${name.padEnd(6)} ${Math.round(result.linesPerSecond).toString().padStart(9)} ${Math.round(result.expected).toString().padStart(9)} ${String(result.p50).padStart(7)} ${String(result.p99).padStart(7)} ${result.cpuMsPer1000.toFixed(1).padStart(11)} ${result.cpuMsPerSecond.toFixed(0).padStart(8)} ${result.rssStartMb.toFixed(0).padStart(9)} ${result.rssEndMb.toFixed(0).padStart(7)} ${String(result.misordered).padStart(10)}\n`;
  process.stdout.write(`\ntarget lines/s  expected  p50 ms  p99 ms  CPU ms/1000 CPU ms/s RSS start RSS end (MB, all server processes) misordered\n`);
  process.stdout.write(row('bare', bareResult));
  process.stdout.write(row('ours', oursResult));
  process.stdout.write(
    `CPU ms/s per process: bare hub ${bareResult.perProcess[0]!.toFixed(0)}, edges ${bareResult.perProcess
      .slice(1)
      .map((ms) => ms.toFixed(0))
      .join(' + ')}; ` +
      `ours orchestrator ${oursResult.perProcess[0]!.toFixed(0)}, web ${oursResult.perProcess
        .slice(1)
        .map((ms) => ms.toFixed(0))
        .join(' + ')}\n`,
  );
  if (rest) {
    const atRest: { bare: Result; ours: Result } = rest;
    // What the console itself costs: the CPU above each side's CPU at rest (same agents and viewers, no output).
    const above = (loaded: Result, idle: Result) => ((loaded.cpuMsPerSecond - idle.cpuMsPerSecond) * 1000) / loaded.agentLinesPerSecond;
    process.stdout.write(
      `at rest (agents and viewers connected, no output, ${REST_SECONDS} s): bare ${atRest.bare.cpuMsPerSecond.toFixed(0)} ms/s, ours ${atRest.ours.cpuMsPerSecond.toFixed(0)} ms/s ` +
        `(ours: orchestrator ${atRest.ours.perProcess[0]!.toFixed(0)}, web ${atRest.ours.perProcess
          .slice(1)
          .map((ms) => ms.toFixed(0))
          .join(' + ')}); ` +
        `the console's CPU above rest: bare ${above(bareResult, atRest.bare).toFixed(1)}, ours ${above(oursResult, atRest.ours).toFixed(1)} ms per 1,000 lines ` +
        `(${(above(oursResult, atRest.ours) / above(bareResult, atRest.bare)).toFixed(2)}× bare)\n`,
    );
  }
  process.stdout.write(
    `\nours/bare throughput ${(oursResult.linesPerSecond / bareResult.linesPerSecond).toFixed(2)} (target ≥ 0.50); p99 ${oursResult.p99} ms (target ≤ 100); ` +
      `CPU ${(oursResult.cpuMsPer1000 / bareResult.cpuMsPer1000).toFixed(2)}× bare; RSS ${(oursResult.rssEndMb - oursResult.rssStartMb).toFixed(0)} MB over the run\n`,
  );
  process.stdout.write(
    `\nSSE catch-up of ${SSE_EVENTS.toLocaleString('en')} stored events: ${Math.round(sse.ours)} events/s; the same rows straight from Postgres: ${Math.round(sse.postgres)} rows/s (ratio ${(sse.ours / sse.postgres).toFixed(2)})\n`,
  );
} finally {
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length > 0) await redis.del(keys);
  await redis.close();
  await database.drop();
}
