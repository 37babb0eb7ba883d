/**
 * Shared pieces of the benchmarks: servers in child processes (so the load generator and the server under test do not
 * share an event loop), autocannon runs, and a table printer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

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
export async function startServer(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [new URL(`./servers/${script}`, import.meta.url).pathname, ...args], {
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

export type Measurement = { name: string; requestsPerSecond: number; p50: number; p99: number; errors: number; non2xx: number };

export async function measure(name: string, options: autocannon.Options, durationS = DURATION_S): Promise<Measurement> {
  const result = await autocannon({ connections: CONNECTIONS, ...options, duration: durationS });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Warms each target up, then measures them in ROUNDS interleaved rounds; answers the median figures per target. */
export async function measureRounds(targets: { name: string; options: autocannon.Options }[]): Promise<Measurement[]> {
  for (const target of targets) await measure(target.name, target.options, Math.max(1, Math.round(DURATION_S / 5)));
  const rounds: Measurement[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) rounds[index]!.push(await measure(target.name, target.options));
  }
  return rounds.map((results, index) => ({
    name: targets[index]!.name,
    requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
  }));
}

export function printTable(rows: Measurement[], baseline: Measurement): void {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs baseline'];
  const lines = rows.map((row) => [
    row.name,
    String(row.requestsPerSecond),
    String(row.p50),
    String(row.p99),
    String(row.errors),
    String(row.non2xx),
    `${((row.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}%`,
  ]);
  const widths = header.map((cell, index) => Math.max(cell.length, ...lines.map((line) => line[index]!.length)));
  const format = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}
