/**
 * `npm run bench -- http`: requests/s and latency of GET /healthz and GET /api/docs/openapi.json through our full
 * middleware stack, against a bare Koa hello-world, in one run on this machine. Target: ours ≥ 85% of bare Koa.
 *
 * The servers run in child processes; the load generator (autocannon) runs here. Targets are measured in interleaved
 * rounds and each figure is the median of its rounds, because a shared 2-core machine drifts by tens of percent over
 * a minute. The server's CPU time per request is printed too: steadier than requests/s when other work shares the
 * machine.
 */
import { cpus } from 'node:os';
import { createTestDatabase } from '../support/database.ts';
import { CONNECTIONS, DURATION_S, measureRounds, printTable, ROUNDS, startServer } from './support.ts';

const TARGET_RATIO = 0.85;

const database = await createTestDatabase();
const bare = await startServer('bareKoa.ts');
const ours = await startServer('ourApp.ts', [database.url]);
try {
  console.log(`HTTP benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per target, ${cpus().length} cores\n`);
  const [baseline, healthz, stack, docs] = await measureRounds([
    { name: 'bare Koa hello-world', options: { url: `http://127.0.0.1:${bare.port}/` }, cpu: { pid: bare.child.pid } },
    { name: 'ours GET /healthz', options: { url: `http://127.0.0.1:${ours.port}/healthz` }, cpu: { pid: ours.child.pid } },
    {
      name: 'ours GET /healthz, whole stack (Origin)',
      options: { url: `http://127.0.0.1:${ours.port}/healthz`, headers: { origin: 'https://panel.example' } },
      cpu: { pid: ours.child.pid },
    },
    { name: 'ours GET /api/docs/openapi.json', options: { url: `http://127.0.0.1:${ours.port}/api/docs/openapi.json` }, cpu: { pid: ours.child.pid } },
  ]);
  printTable([baseline!, healthz!, stack!, docs!], baseline!);
  const ratio = healthz!.requestsPerSecond / baseline!.requestsPerSecond;
  const stackRatio = stack!.requestsPerSecond / baseline!.requestsPerSecond;
  console.log(
    `\n/healthz (answered ahead of Koa): ${(ratio * 100).toFixed(1)}% of bare Koa's requests/s (target ≥ ${TARGET_RATIO * 100}%): ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
  console.log(
    `/healthz through the whole middleware stack and the route table: ${(stackRatio * 100).toFixed(1)}% of bare Koa (target ≥ ${TARGET_RATIO * 100}%): ${stackRatio >= TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
} finally {
  await Promise.all([bare.stop(), ours.stop()]);
  await database.drop();
}
