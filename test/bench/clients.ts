/**
 * `npm run bench -- clients`: requests/s of `GET /api/v1/servers/<id>` through the TypeScript client beside a raw
 * `fetch` loop doing the same request, in the same run, against the real service in a child process (its own
 * database). Both run the same number of concurrent loops (BENCH_CONNECTIONS, default 20) in interleaved rounds
 * (BENCH_ROUNDS of BENCH_DURATION seconds); each figure is the median of its rounds. Target: the client within 10 % of
 * raw fetch. (The Python and Go clients do not exist yet.)
 */
import { GsmClient } from '../../api/clients/typescript/src/client.ts';
import { createTestDatabase } from '../support/database.ts';
import { DURATION_S, ROUNDS, startServer } from './support.ts';

const LOOPS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TARGET = 0.9;

const database = await createTestDatabase();
const service = await startServer('ourApp.ts', [database.url]);
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
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const baseline = median(results.get('raw fetch')!);
  for (const [name, values] of results)
    console.log(`${name.padEnd(30)} ${median(values).toFixed(0).padStart(8)} requests/s  ${((median(values) / baseline) * 100).toFixed(1)} %`);
  const ratio = median(results.get('TypeScript client getServer')!) / baseline;
  console.log(`\nTypeScript client: ${(ratio * 100).toFixed(1)} % of raw fetch (target ≥ ${TARGET * 100} %): ${ratio >= TARGET ? 'met' : 'NOT met'}`);
} finally {
  await service.stop();
  await database.drop();
}
