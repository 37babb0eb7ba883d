/**
 * `npm run bench -- gateway`: N simulated agents (Socket.IO clients that authenticate and heartbeat) held by one
 * gateway process, against a bare Socket.IO server holding the same connections, in one run. Reports memory per
 * connection (heap and RSS growth over the idle server, after GC) and the CPU cost of one heartbeat (which for the
 * gateway includes validating it and writing the machine's metrics to Postgres).
 * Target: 10,000 agents on one process within 1.5× the bare server's memory per connection.
 * BENCH_AGENTS sets N (default 10,000).
 */
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { sql } from 'slonik';
import { createDatabasePool } from '../../sql/pool.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { createTestDatabase } from '../support/database.ts';
import { startServer } from './support.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const TARGET_RATIO = 1.5;
/** Connections opened at once while ramping up. */
const BATCH = 250;
/** Heartbeat rounds measured for the CPU figure. */
const HEARTBEAT_ROUNDS = 3;

type Stats = { memory: NodeJS.MemoryUsage; cpu: NodeJS.CpuUsage };

const database = await createTestDatabase();
const pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
const machines = Array.from({ length: AGENTS }, () => ({ id: randomUUID(), token: generateSecret('agent') }));
const clusterId = String(await pool.oneFirst(sql.unsafe`INSERT INTO clusters (name) VALUES ('bench') RETURNING id`));
for (let start = 0; start < machines.length; start += 5_000) {
  const slice = machines.slice(start, start + 5_000);
  await pool.query(sql.unsafe`
    INSERT INTO machines (id, cluster_id, name, agent_token_hash)
    SELECT id, ${clusterId}, 'bench', decode(hash, 'hex')
      FROM unnest(${sql.array(
        slice.map((machine) => machine.id),
        'uuid',
      )}, ${sql.array(
        slice.map((machine) => hashSecret(machine.token).toString('hex')),
        'text',
      )}) AS m(id, hash)`);
}
await pool.end();

async function stats(port: number): Promise<Stats> {
  return (await fetch(`http://127.0.0.1:${port}/stats`)).json() as Promise<Stats>;
}

async function run(mode: 'bare' | 'gateway') {
  const server = await startServer('gatewayServer.ts', [mode, database.url], { NODE_OPTIONS: '--expose-gc' });
  const url = `http://127.0.0.1:${server.port}`;
  const idle = await stats(server.port);
  const sockets: Socket[] = [];
  const started = performance.now();
  for (let start = 0; start < machines.length; start += BATCH) {
    await Promise.all(
      machines.slice(start, start + BATCH).map(
        (machine) =>
          new Promise<void>((resolve, reject) => {
            const socket = io(url, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
            socket.once('authenticated', () => resolve());
            socket.once('connect_error', reject);
            socket.once('error', (error: unknown) => reject(new Error(JSON.stringify(error))));
            socket.on('connect', () => socket.emit('auth', { token: machine.token, machineId: machine.id, version: '0.1.0' }));
            sockets.push(socket);
          }),
      ),
    );
  }
  const connectSeconds = (performance.now() - started) / 1000;
  await new Promise((done) => setTimeout(done, 2_000));
  const held = await stats(server.port);
  const beat = { metrics: { cpuPercent: 5, memoryUsedBytes: 1e9, diskUsedBytes: 1e10 }, uptime: 100 };
  const before = await stats(server.port);
  for (let round = 0; round < HEARTBEAT_ROUNDS; round++) {
    for (const socket of sockets) socket.emit('heartbeat', beat);
    await new Promise((done) => setTimeout(done, 3_000));
  }
  const after = await stats(server.port);
  for (const socket of sockets) socket.disconnect();
  await server.stop();
  const cpuMicros = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
  return {
    mode,
    connectSeconds,
    heapPerConnection: (held.memory.heapUsed - idle.memory.heapUsed) / AGENTS,
    rssPerConnection: (held.memory.rss - idle.memory.rss) / AGENTS,
    heartbeatMicros: cpuMicros / (AGENTS * HEARTBEAT_ROUNDS),
  };
}

try {
  console.log(`Gateway benchmark: ${AGENTS} Socket.IO agents (auth + heartbeats) held by one process\n`);
  const bare = await run('bare');
  const ours = await run('gateway');
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log('server                     connect s  heap/conn   RSS/conn    CPU/heartbeat');
  for (const row of [bare, ours]) {
    console.log(
      `${(row.mode === 'bare' ? 'bare Socket.IO' : 'our gateway').padEnd(26)} ${row.connectSeconds.toFixed(1).padStart(9)}  ${kib(row.heapPerConnection).padStart(9)}  ${kib(row.rssPerConnection).padStart(9)}  ${row.heartbeatMicros.toFixed(0).padStart(10)} µs`,
    );
  }
  const ratio = ours.rssPerConnection / bare.rssPerConnection;
  console.log(`\nRSS per connection: ${ratio.toFixed(2)}× the bare server's (target ≤ ${TARGET_RATIO}×): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`);
  console.log(`heap per connection: ${(ours.heapPerConnection / bare.heapPerConnection).toFixed(2)}× the bare server's`);
} finally {
  await database.drop();
}
