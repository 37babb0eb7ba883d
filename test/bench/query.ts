/**
 * `npm run bench -- query`: the agent's query loop (agent/query/, scheduled as the supervisor does: one timer per
 * server, every 15 s, the report built and serialised as it is sent) over 200 local fake game servers, half answering
 * Steam A2S on UDP (info and players, each behind a challenge), half Minecraft Server List Ping on TCP, each serving
 * 10 players. The fleet runs in its own process; the querier's CPU time is measured in its own process over the
 * window, beside a baseline: the same process with the same 200 timers doing nothing.
 *
 * BENCH_QUERY_SERVERS (default 200), BENCH_QUERY_INTERVAL_MS (default 15000), BENCH_QUERY_SECONDS (default 60).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVERS = Number(process.env.BENCH_QUERY_SERVERS ?? 200);
const INTERVAL_MS = Number(process.env.BENCH_QUERY_INTERVAL_MS ?? 15_000);
const SECONDS = Number(process.env.BENCH_QUERY_SECONDS ?? 60);
const SELF = fileURLToPath(import.meta.url);
const role = process.env.BENCH_QUERY_ROLE;

type Target = { protocol: 'A2S' | 'MINECRAFT'; port: number };

if (role === 'fleet') {
  const { serveA2s, serveMinecraftPing } = await import('../fixtures/fakeQuery.ts');
  const names = Array.from({ length: 10 }, (_, index) => `player${index}`);
  const state = { name: 'bench', map: 'Procedural Map', version: '1.0', maxPlayers: 50, players: () => names, muted: false };
  const targets: Target[] = [];
  for (let index = 0; index < SERVERS; index++) {
    const protocol = index % 2 === 0 ? 'A2S' : 'MINECRAFT';
    // Port 0: the OS picks; read back.
    if (protocol === 'A2S') {
      const socket = await serveA2s(0, state);
      targets.push({ protocol, port: socket.address().port });
    } else {
      const server = await serveMinecraftPing(0, state);
      targets.push({ protocol, port: (server.address() as { port: number }).port });
    }
  }
  process.stdout.write(`${JSON.stringify(targets)}\n`);
} else if (role === 'querier' || role === 'baseline') {
  const { queryServer } = await import('../../agent/query/index.ts');
  const targets = JSON.parse(process.env.BENCH_QUERY_TARGETS!) as Target[];
  let answered = 0;
  let failed = 0;
  const send = (data: Record<string, unknown>) => JSON.stringify({ event: 'server:query', data });
  const timers: NodeJS.Timeout[] = [];
  targets.forEach((target, index) => {
    // Spread over the interval, as servers that came ONLINE at different moments are.
    const first = setTimeout(
      () => {
        const tick = async () => {
          if (role === 'baseline') return;
          try {
            const answer = await queryServer(target.protocol, '127.0.0.1', target.port, 5_000);
            answered++;
            send({ serverId: String(index), protocol: target.protocol, answering: true, ...answer, failures: 0, error: null, at: new Date().toISOString() });
          } catch (error) {
            failed++;
            send({ serverId: String(index), answering: false, error: (error as Error).message });
          }
        };
        void tick();
        timers.push(setInterval(() => void tick(), INTERVAL_MS));
      },
      (index * INTERVAL_MS) / targets.length,
    );
    timers.push(first);
  });
  // Warm-up: one interval, then the window.
  await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  const before = process.cpuUsage();
  const startedAt = performance.now();
  const answeredBefore = answered;
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const used = process.cpuUsage(before);
  const elapsedMs = performance.now() - startedAt;
  for (const timer of timers) clearInterval(timer);
  process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, elapsedMs, queries: answered - answeredBefore, failed })}\n`);
  process.exit(0);
} else {
  const fleet = spawn(process.execPath, [SELF], { env: { ...process.env, BENCH_QUERY_ROLE: 'fleet' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const targetsLine = await new Promise<string>((resolve) => createInterface({ input: fleet.stdout! }).once('line', resolve));
  const run = (which: 'querier' | 'baseline') =>
    new Promise<{ cpuMs: number; elapsedMs: number; queries: number; failed: number }>((resolve, reject) => {
      const child = spawn(process.execPath, [SELF], {
        env: { ...process.env, BENCH_QUERY_ROLE: which, BENCH_QUERY_TARGETS: targetsLine },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
      child.once('exit', (code) => code !== 0 && reject(new Error(`${which} exited with ${code}`)));
    });
  process.stdout.write(
    `query: ${SERVERS} fake servers (A2S and Server List Ping), every ${INTERVAL_MS / 1000} s, ${SECONDS} s measured after ${INTERVAL_MS / 1000} s of warm-up\n`,
  );
  const baseline = await run('baseline');
  const querier = await run('querier');
  fleet.kill();
  const percent = (figures: { cpuMs: number; elapsedMs: number }) => ((figures.cpuMs / figures.elapsedMs) * 100).toFixed(3);
  const perQuery = querier.queries > 0 ? ((querier.cpuMs - baseline.cpuMs) / querier.queries).toFixed(3) : '—';
  process.stdout.write(
    [
      `baseline (same process, 200 idle timers): CPU ${baseline.cpuMs.toFixed(0)} ms in ${(baseline.elapsedMs / 1000).toFixed(1)} s = ${percent(baseline)} % of a core`,
      `querier:                                  CPU ${querier.cpuMs.toFixed(0)} ms in ${(querier.elapsedMs / 1000).toFixed(1)} s = ${percent(querier)} % of a core`,
      `queries answered ${querier.queries}, failed ${querier.failed}; ${perQuery} ms of CPU per query above the baseline; target ≤ 2 % of a core`,
    ].join('\n') + '\n',
  );
  process.exit(0);
}
