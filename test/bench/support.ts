/**
 * Shared pieces of the benchmarks: servers in child processes (so the load generator and the server under test do not
 * share an event loop), autocannon runs, and a table printer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { freePorts } from '../support/agentProcess.ts';

/** Seconds each measured run lasts (BENCH_DURATION), after a warm-up of a fifth of that. */
export const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
/** Interleaved rounds per target (BENCH_ROUNDS); each figure is the median of its rounds. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Concurrent connections of the load generator (BENCH_CONNECTIONS). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

export type ServerProcess = { port: number; child: ChildProcess; stop: () => Promise<void> };

/**
 * Starts `bench/servers/<script>` in a child process; it prints `PORT <n>` on standard error once it listens.
 * Its standard output (where the service writes its logs) goes to /dev/null: written, not kept.
 */
export async function startServer(
  script: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  options: { cpuProfileDir?: string | undefined } = {},
): Promise<ServerProcess> {
  const profile = options.cpuProfileDir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${options.cpuProfileDir}`,
        `--cpu-prof-name=${script.replace(/\W/g, '-')}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.cpuprofile`,
      ]
    : [];
  const child = spawn(process.execPath, [...profile, new URL(`./servers/${script}`, import.meta.url).pathname, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
      else process.stderr.write(`${line}\n`);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { port, child, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

export type Service = { child: ChildProcess; base: string; stop: () => Promise<void> };

export type ServiceOptions = {
  /** Writes a CPU profile of the process there (a directory). */
  cpuProfileDir?: string | undefined;
  /** Keeps the process's log there (a directory; the file is named after `name`); default nowhere. */
  logDir?: string | undefined;
  /** The log file's name (default the role). */
  name?: string;
  /** More environment (settings of the service). */
  env?: NodeJS.ProcessEnv;
};

/** Starts `node main.ts --role=<role>` with production settings (info logs to /dev/null, rate limiter off). */
export async function startService(databaseUrl: string, role: 'all' | 'web' | 'orchestrator', options: ServiceOptions = {}): Promise<Service> {
  const [port] = await freePorts(1);
  const name = options.name ?? role;
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profile, 'main.ts', `--role=${role}`], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      METRICS_LISTEN: '127.0.0.1:0',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'info',
      AGENT_HEARTBEAT_SECONDS: '60',
      ...(process.env.BENCH_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE } : {}),
      ...options.env,
    },
    stdio: options.logDir ? ['ignore', openSync(`${options.logDir}/${name}.log`, 'w'), 'inherit'] : 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    if ((await fetch(`${base}/readyz`).catch(() => null))?.status === 200) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return { child, base, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

/**
 * CPU time (user + system) per request of the server process and of the Postgres backends of its database: steadier
 * than requests/s on a shared machine, and it says where the time goes. NaN when not measured.
 */
export type Measurement = {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  serverCpuUs: number;
  postgresCpuUs: number;
  /** The Redis server's CPU per request (NaN unless measured: a limiter in Redis). */
  redisCpuUs: number;
};

/** What a target's CPU is measured on: the server's pid and the name of its database. */
/** `redis`: the local Redis server's CPU is counted too (it shares the machine's cores with the service). */
export type CpuTarget = { pid?: number; database?: string; redis?: boolean };

/** Clock ticks per second of /proc/<pid>/stat CPU times. */
const TICKS_PER_S = 100;

/** CPU ticks so far of each process whose pid and command line pass `match`. */
export async function cpuTicks(match: (pid: number, commandLine: string) => boolean): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!match(Number(entry), (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' '))) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}

/** The `p`th percentile (0..100) of `values` (NaN for none). */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** CPU seconds used between two cpuTicks snapshots (a process that ended meanwhile is not counted). */
export const cpuSecondsBetween = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((sum, [pid, ticks]) => sum + ticks - (before.get(pid) ?? 0), 0) / TICKS_PER_S;

export const isBackendOf = (database: string) => (_pid: number, commandLine: string) =>
  commandLine.startsWith('postgres: ') && commandLine.includes(` ${database} `);

const cpuOf = (target: CpuTarget) =>
  Promise.all([
    target.pid ? cpuTicks((pid) => pid === target.pid) : null,
    target.database ? cpuTicks(isBackendOf(target.database)) : null,
    // The local Redis server, however it was started (`redis-server …` or its full path); a Redis elsewhere is not
    // seen: then NaN, not 0.
    target.redis
      ? cpuTicks((_pid, commandLine) => /(^|\/)redis-server$/.test(commandLine.split(' ')[0] ?? '')).then((ticks) => (ticks.size > 0 ? ticks : null))
      : null,
  ]);

export async function measure(name: string, options: autocannon.Options, durationS = DURATION_S, cpu: CpuTarget = {}): Promise<Measurement> {
  const [serverBefore, postgresBefore, redisBefore] = await cpuOf(cpu);
  const result = await autocannon({ connections: CONNECTIONS, ...options, duration: durationS });
  const [serverAfter, postgresAfter, redisAfter] = await cpuOf(cpu);
  const perRequestUs = (before: Map<number, number> | null, after: Map<number, number> | null) =>
    before && after ? Math.round((cpuSecondsBetween(before, after) * 1e6) / Math.max(1, result.requests.total)) : NaN;
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    serverCpuUs: perRequestUs(serverBefore, serverAfter),
    postgresCpuUs: perRequestUs(postgresBefore, postgresAfter),
    redisCpuUs: perRequestUs(redisBefore, redisAfter),
  };
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Warms each target up, then measures them in ROUNDS interleaved rounds; answers the median figures per target. */
export async function measureRounds(targets: { name: string; options: autocannon.Options; cpu?: CpuTarget }[]): Promise<Measurement[]> {
  for (const target of targets) await measure(target.name, target.options, Math.max(1, Math.round(DURATION_S / 5)));
  const rounds: Measurement[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) rounds[index]!.push(await measure(target.name, target.options, DURATION_S, target.cpu));
  }
  return rounds.map((results, index) => ({
    name: targets[index]!.name,
    requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    serverCpuUs: median(results.map((result) => result.serverCpuUs)),
    postgresCpuUs: median(results.map((result) => result.postgresCpuUs)),
    redisCpuUs: median(results.map((result) => result.redisCpuUs)),
  }));
}

export function printTable(rows: Measurement[], baseline: Measurement): void {
  const cpu = rows.some((row) => !Number.isNaN(row.serverCpuUs));
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs baseline', ...(cpu ? ['server CPU µs/req', 'postgres CPU µs/req'] : [])];
  const us = (value: number) => (Number.isNaN(value) ? '' : String(value));
  const lines = rows.map((row) => [
    row.name,
    String(row.requestsPerSecond),
    String(row.p50),
    String(row.p99),
    String(row.errors),
    String(row.non2xx),
    `${((row.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}%`,
    ...(cpu ? [us(row.serverCpuUs), us(row.postgresCpuUs)] : []),
  ]);
  const widths = header.map((cell, index) => Math.max(cell.length, ...lines.map((line) => line[index]!.length)));
  const format = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}
