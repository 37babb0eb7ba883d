/**
 * `npm run bench -- webhooks`: webhook deliveries to a local receiver, beside a bare loop of fetch POSTs of the same
 * bodies, in one run.
 *
 * Ours: an orchestrator process (`node main.ts --role=orchestrator`: the sequencer and the webhook deliverer) and one
 * webhook subscribed to every event of a cluster; events are inserted straight into the event log (as the triggers of
 * real changes insert them). Printed: deliveries/s for a burst of BENCH_WEBHOOK_EVENTS events (default 5,000), and
 * event-commit → receiver p50/p99 at a steady 200 events/s for 20 s. Bare: the same bodies POSTed by a loop of
 * `fetch`, one at a time, and by two such loops. Targets: ≥ 80% of the bare loop, p99 ≤ 250 ms. Also printed: the CPU
 * each delivery of the burst cost the orchestrator, Postgres (the bench's event inserts included) and the receiver.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'slonik';
import { createDatabasePool } from '../../sql/pool.ts';
import { createTestDatabase } from '../support/database.ts';
import { startMain, type Started } from '../support/mainProcess.ts';
import { migrate } from '../../sql/migrate.ts';
import { percentile } from './support.ts';
import { createLogger } from '../../schema/logger.ts';

const BURST = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
const STEADY_RATE = 200;
const STEADY_SECONDS = 20;

// The receiver, in this process: counts arrivals and the delay since each event's commit (carried in its data).
let arrived = 0;
const delays: number[] = [];
let waiter: (() => void) | null = null;
let target = Number.POSITIVE_INFINITY;
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const committedAt = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { committedAt?: number } }).data?.committedAt;
    if (committedAt) delays.push(Date.now() - committedAt);
    arrived += 1;
    response.end('ok');
    if (arrived >= target) waiter?.();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const waitFor = (count: number) =>
  new Promise<void>((resolve) => {
    target = count;
    waiter = resolve;
    if (arrived >= count) resolve();
  });

const database = await createTestDatabase();
await migrate(database.url, { logger: createLogger('silent') });
const pool = await createDatabasePool(database.url, { maxPoolSize: 4 });
const clusterId = String(await pool.oneFirst(sql.unsafe`INSERT INTO clusters (name) VALUES ('bench') RETURNING id`));
/** A body of the size and shape ours sends (the envelope of a job.updated event). */
const body = (n: number) => ({
  id: String(n).padStart(16, '0'),
  type: 'job.updated',
  clusterId,
  at: new Date().toISOString(),
  data: { id: crypto.randomUUID(), type: 'RCON', status: 'SUCCEEDED', n },
});

/** CPU milliseconds a process has used so far (user and system), from /proc; 0 once it is gone. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return 0;
  }
}
/** The CPU used by the Postgres backends serving the bench's database (its own connections and the orchestrator's). */
async function postgresCpu(): Promise<Map<number, number>> {
  const pids = await pool.anyFirst(sql.unsafe`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  return new Map(pids.map((pid) => [Number(pid), cpuMsOf(Number(pid))]));
}
const cpuSince = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

async function bare(loops: number): Promise<number> {
  const bodies = Array.from({ length: BURST }, (_, n) => JSON.stringify(body(n)));
  arrived = 0;
  let next = 0;
  const started = performance.now();
  const loop = async () => {
    while (next < bodies.length) {
      const payload = bodies[next++]!;
      const response = await fetch(receiverUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload });
      await response.text();
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  return BURST / ((performance.now() - started) / 1000);
}

type Ours = { perSecond: number; p50: number; p99: number; steadyDelivered: number; cpu: { orchestrator: number; postgres: number; receiver: number } };
async function ours(): Promise<Ours> {
  const orchestrator: Started = await startMain({ DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'info' }, [
    '--role=orchestrator',
  ]);
  try {
    await pool.query(sql.unsafe`
      INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES (${clusterId}, ${receiverUrl}, '{*}', 'JSON', 'whsec_bench')`);
    arrived = 0;
    const started = performance.now();
    const cpuBefore = { orchestrator: cpuMsOf(orchestrator.child.pid!), postgres: await postgresCpu(), receiver: process.cpuUsage() };
    for (let from = 0; from < BURST; from += 500) {
      await pool.query(sql.unsafe`
        INSERT INTO events (cluster_id, type, data)
        SELECT ${clusterId}, 'job.updated', jsonb_build_object('id', gen_random_uuid(), 'type', 'RCON', 'status', 'SUCCEEDED', 'n', g)
          FROM generate_series(${from}::int, ${Math.min(BURST, from + 500) - 1}::int) AS g`);
    }
    await waitFor(BURST);
    const perSecond = BURST / ((performance.now() - started) / 1000);
    const receiverCpu = process.cpuUsage(cpuBefore.receiver);
    const cpu = {
      orchestrator: cpuMsOf(orchestrator.child.pid!) - cpuBefore.orchestrator,
      postgres: cpuSince(cpuBefore.postgres, await postgresCpu()),
      receiver: (receiverCpu.user + receiverCpu.system) / 1000,
    };

    // Steady: one event per transaction at STEADY_RATE, each carrying its commit time.
    arrived = 0;
    delays.length = 0;
    const total = STEADY_RATE * STEADY_SECONDS;
    const begun = Date.now();
    for (let n = 0; n < total; n++) {
      const due = begun + (n * 1000) / STEADY_RATE;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      // Autocommit: the insert's own clock is the commit time, within a millisecond.
      await pool.query(sql.unsafe`
        INSERT INTO events (cluster_id, type, data)
        VALUES (${clusterId}, 'job.updated', jsonb_build_object('n', ${n}::int, 'committedAt', (extract(epoch FROM clock_timestamp()) * 1000)::bigint))`);
    }
    await Promise.race([waitFor(total), new Promise((resolve) => setTimeout(resolve, 30_000))]);
    return { perSecond, p50: percentile(delays, 50), p99: percentile(delays, 99), steadyDelivered: arrived, cpu };
  } finally {
    orchestrator.child.kill('SIGTERM');
    await orchestrator.exited;
  }
}

try {
  const bareRate = await bare(1);
  const bareTwo = await bare(2);
  const result = await ours();
  const perDelivery = (ms: number) => Math.round((ms * 1000) / BURST);
  process.stdout.write(
    `webhooks: burst of ${BURST} events to one local receiver\n` +
      `bare fetch loop: ${Math.round(bareRate)} POSTs/s one at a time, ${Math.round(bareTwo)} two at a time (ours sends up to 16 at a time to one webhook)\n` +
      `ours (event log → orchestrator → receiver): ${Math.round(result.perSecond)} deliveries/s (ratio ${(result.perSecond / bareRate).toFixed(2)} to the loop, ${(result.perSecond / bareTwo).toFixed(2)} to two loops; target ≥ 0.80)\n` +
      `CPU per delivery in the burst: orchestrator ${perDelivery(result.cpu.orchestrator)} µs, Postgres ${perDelivery(result.cpu.postgres)} µs (its inserts of the events included), receiver and bench ${perDelivery(result.cpu.receiver)} µs\n` +
      `steady ${STEADY_RATE} events/s for ${STEADY_SECONDS} s: ${result.steadyDelivered} delivered, commit → receiver p50 ${result.p50} ms, p99 ${result.p99} ms (target ≤ 250)\n`,
  );
} finally {
  await pool.end();
  receiver.close();
  await database.drop();
}
