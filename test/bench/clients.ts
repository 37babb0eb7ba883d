/**
 * `npm run bench -- clients`: requests/s of `GET /api/v1/servers/<id>` through each client beside its language's raw
 * HTTP call doing the same request, in the same run, against the real service in a child process (its own database):
 * the TypeScript client beside `fetch`, the Python client beside `urllib` (test/bench/clients/python_bench.py), the Go
 * client's GetServer beside `net/http` (test/bench/clients/go). Each pair runs the same number of concurrent loops
 * (BENCH_CONNECTIONS, default 20) in interleaved rounds (BENCH_ROUNDS of BENCH_DURATION seconds); each figure is the
 * median of its rounds. Target: each client within 10 % of its raw baseline.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GsmClient } from '../../api/clients/typescript/src/client.ts';
import { createTestDatabase } from '../support/database.ts';
import { DURATION_S, ROUNDS, startServer } from './support.ts';

const LOOPS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TARGET = 0.9;

const database = await createTestDatabase();
const service = await startServer('ourApp.ts', [database.url]);
/** Runs one language's half of the benchmark; answers the requests/s per round it prints as JSON. */
function child(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<{ raw: number[]; client: number[] }>((resolve, reject) => {
    const process_ = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    process_.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    process_.on('error', reject);
    process_.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').at(-1)!) as { raw: number[]; client: number[] })
        : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

try {
  const base = `http://127.0.0.1:${service.port}`;
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  };
  const { accessToken } = await post('/api/v1/auth/register', { email: 'bench@example.org', password: 'correct horse battery', displayName: 'Bench' });
  const cluster = await post('/api/v1/clusters', { name: 'bench' }, accessToken);
  const machine = await post(`/api/v1/clusters/${cluster.id}/machines`, { name: 'host' }, accessToken);
  const server = await post(
    `/api/v1/clusters/${cluster.id}/servers`,
    { name: 'bench', gameType: 'CUSTOM', machineId: machine.id, gamePort: 30000, queryPort: 30001, rconPort: 30002, startCommand: 'true' },
    accessToken,
  );
  const path = `/api/v1/servers/${server.id}`;
  const client = new GsmClient({ baseUrl: base, token: accessToken });

  const targets: { name: string; call: () => Promise<unknown> }[] = [
    {
      name: 'raw fetch',
      call: async () => {
        const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      },
    },
    { name: 'TypeScript client getServer', call: () => client.get(path) },
  ];

  /** Requests per second of `LOOPS` concurrent loops calling `call` for `seconds`. */
  const run = async (call: () => Promise<unknown>, seconds: number) => {
    const end = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: LOOPS }, async () => {
        while (Date.now() < end) {
          await call();
          done += 1;
        }
      }),
    );
    return done / seconds;
  };

  console.log(`Clients benchmark: GET ${path.replace(server.id!, '<id>')}, ${LOOPS} concurrent loops, ${ROUNDS} rounds of ${DURATION_S} s\n`);
  for (const target of targets) await run(target.call, 1); // warm-up
  const results = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const target of round % 2 ? [...targets].reverse() : targets) results.get(target.name)!.push(await run(target.call, DURATION_S));
  const args = [base, accessToken, path, String(LOOPS), String(ROUNDS), String(DURATION_S)];
  const python = await child('python3', [
    fileURLToPath(new URL('clients/python_bench.py', import.meta.url)),
    ...args,
    fileURLToPath(new URL('../../api/clients/python', import.meta.url)),
  ]);
  const go = await child('go', ['run', '.', base, accessToken, server.id!, ...args.slice(3)], {
    cwd: fileURLToPath(new URL('clients/go', import.meta.url)),
    env: { GOCACHE: fileURLToPath(new URL('../../.tmp/go-cache', import.meta.url)), GOPROXY: 'off', GOFLAGS: '-mod=mod' },
  });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const pairs = [
    {
      language: 'TypeScript',
      raw: ['raw fetch', results.get('raw fetch')!],
      client: ['TypeScript client getServer', results.get('TypeScript client getServer')!],
    },
    { language: 'Python', raw: ['raw urllib', python.raw], client: ['Python client get', python.client] },
    { language: 'Go', raw: ['raw net/http', go.raw], client: ['Go client GetServer', go.client] },
  ] as const;
  const verdicts: string[] = [];
  for (const { language, raw, client } of pairs) {
    const baseline = median(raw[1]);
    for (const [name, values] of [raw, client])
      console.log(`${name.padEnd(30)} ${median(values).toFixed(0).padStart(8)} requests/s  ${((median(values) / baseline) * 100).toFixed(1)} %`);
    const ratio = median(client[1]) / baseline;
    verdicts.push(`${language} client: ${(ratio * 100).toFixed(1)} % of ${raw[0]} (target ≥ ${TARGET * 100} %): ${ratio >= TARGET ? 'met' : 'NOT met'}`);
  }
  console.log(`\n${verdicts.join('\n')}`);
} finally {
  await service.stop();
  await database.drop();
}
