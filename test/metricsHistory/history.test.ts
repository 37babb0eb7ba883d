/**
 * Metrics history: minute points written from real agent reports through the gateway; the three queries with their
 * bounds and steps; hourly roll-up and retention by dropping partitions, with a controlled clock; a deleted server
 * takes its points with it.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { registerMachine } from '../support/agentProcess.ts';
import { socketIoAgent, startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { ensurePartitions, expirePartitions, rollUpHours } from '../../orchestrator/metricsHistory/store.ts';

let app: GatewayApp;
let owner: TestUser;
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1 });
  owner = await signUp(app);
});
test.after.always(() => app?.close());

const get = async (path: string, user: TestUser = owner) => {
  const response = await app.request(path, { headers: user.auth });
  return { status: response.status, body: await body(response) };
};

async function serverOnMachine(name = 'EU') {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name, gameType: 'RUST', machineId, gamePort: 28015, queryPort: 28016, rconPort: 28017 }, { headers: owner.auth }),
    ),
  );
  return { clusterId, machineId, token, serverId: server.id as string };
}

test.serial('reports become minute points: averages and maxima of servers, machines and a cluster’s players', async (t) => {
  const { clusterId, machineId, token, serverId } = await serverOnMachine();
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  await agent.next('servers:sync');
  const at = () => new Date().toISOString();
  for (const [cpu, memory, players] of [
    [10, 1_000, 2],
    [30, 3_000, 4],
  ] as const) {
    agent.send('server:stats', { serverId, cpuPercent: cpu, memoryBytes: memory, playersOnline: players, at: at() });
    agent.send('heartbeat', { metrics: { cpuPercent: cpu * 2, memoryUsedBytes: memory * 10, diskUsedBytes: 5_000 }, uptime: 1 });
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  await app.gateway.metrics.flush();
  agent.close();

  const from = new Date(Date.now() - 5 * 60_000).toISOString();
  const server = await get(`/api/v1/servers/${serverId}/metrics?from=${from}&step=1m`);
  t.is(server.status, 200);
  t.is(server.body.step, '1m');
  // Both samples fall in the same minute unless the test straddles a minute boundary.
  const points = server.body.points as {
    cpuPercent: { avg: number; max: number };
    memoryBytes: { avg: number; max: number };
    playersOnline: { avg: number; max: number };
  }[];
  t.true(points.length === 1 || points.length === 2);
  if (points.length === 1) {
    t.deepEqual(points[0]!.cpuPercent, { avg: 20, max: 30 });
    t.deepEqual(points[0]!.memoryBytes, { avg: 2_000, max: 3_000 });
    t.deepEqual(points[0]!.playersOnline, { avg: 3, max: 4 });
  }
  const machine = await get(`/api/v1/machines/${machineId}/metrics?from=${from}`);
  t.is(machine.status, 200);
  t.is(machine.body.step, '1m', 'the finest step within 1,500 points');
  t.true(machine.body.points.length >= 1);
  t.is(machine.body.points.at(-1).diskUsedBytes.max, 5_000);
  const players = await get(`/api/v1/clusters/${clusterId}/players/online?from=${from}&step=5m`);
  t.is(players.status, 200);
  t.true(players.body.points.length >= 1);
  t.true(players.body.points.every((point: { playersOnline: { max: number } }) => point.playersOnline.max <= 4));

  // Another cluster's member sees nothing of it.
  const stranger = await signUp(app);
  t.is((await get(`/api/v1/servers/${serverId}/metrics`, stranger)).status, 403);
  t.is((await get(`/api/v1/clusters/${clusterId}/players/online`, stranger)).status, 403);
});

test.serial('bounds and steps: bad ranges, unknown steps and too many points are 400; gaps are absent points', async (t) => {
  const { serverId } = await serverOnMachine();
  for (const query of [
    'from=2026-11-24T10:00:00Z&to=2026-11-24T09:00:00Z',
    'step=2m',
    'from=0001-01-01T00:00:00Z',
    'from=yesterday',
    'from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z&step=1m',
    'limit=5',
  ]) {
    const answer = await get(`/api/v1/servers/${serverId}/metrics?${query}`);
    t.is(answer.status, 400, query);
    t.is(answer.body.message, 'Validation failed', `${query}: ${JSON.stringify(answer.body)}`);
  }
  const year = await get(`/api/v1/servers/${serverId}/metrics?from=2025-11-24T00:00:00Z&to=2026-11-24T00:00:00Z`);
  t.is(year.status, 200);
  t.is(year.body.step, '6h', 'a year at the finest step within 1,500 points');
  t.deepEqual(year.body.points, [], 'no samples: no points, not zeros');
  t.is((await get(`/api/v1/servers/00000000-0000-4000-8000-000000000000/metrics`)).status, 404);
});

/** Minute points written directly, at past instants (the clock is the test's). */
async function writeMinutes(serverId: string, machineId: string, start: Date, minutes: number, players: (minute: number) => number) {
  await ensurePartitions(app.pool, start);
  await ensurePartitions(app.pool, new Date(start.getTime() + minutes * 60_000));
  for (let minute = 0; minute < minutes; minute++) {
    const at = new Date(start.getTime() + minute * 60_000).toISOString();
    await app.pool.query(sql.unsafe`
      INSERT INTO server_metrics_minute VALUES (${serverId}, ${at}, 2, ${minute * 2}, ${minute}, 2000, 1000, ${players(minute) * 2}, ${players(minute)})`);
    await app.pool.query(sql.unsafe`INSERT INTO machine_metrics_minute VALUES (${machineId}, ${at}, 1, 50, 50, 100, 100, 7, 7)`);
  }
}

test.serial('completed hours roll up once into hourly points; retention drops whole partitions; hourly queries read both', async (t) => {
  const { machineId, serverId } = await serverOnMachine();
  const start = new Date('2026-10-01T10:00:00Z');
  await writeMinutes(serverId, machineId, start, 120, (minute) => (minute < 60 ? 4 : 10));

  // At 11:30 only 10:00 is complete; the hour after it is served from minute points.
  await app.pool.query(sql.unsafe`DELETE FROM metrics_rollups`);
  while (await rollUpHours(app.pool, new Date('2026-10-01T11:30:00Z'), 14)); // a fresh install marks 14 days of hours
  const hours = await app.pool.any(
    sql.unsafe`SELECT at, samples, players_sum, players_max, cpu_max FROM server_metrics_hour WHERE server_id = ${serverId} ORDER BY at`,
  );
  t.is(hours.length, 1);
  t.like(hours[0], { samples: 120, players_sum: 480, players_max: 4, cpu_max: 59 });
  t.false(await rollUpHours(app.pool, new Date('2026-10-01T11:30:00Z'), 14), 'nothing more, and nothing twice');
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM server_metrics_hour WHERE server_id = ${serverId}`)), 1);

  const hourly = await get(`/api/v1/servers/${serverId}/metrics?from=2026-10-01T09:00:00Z&to=2026-10-01T13:00:00Z&step=1h`);
  t.is(hourly.status, 200);
  t.deepEqual(
    hourly.body.points.map((point: { at: string; playersOnline: unknown }) => [point.at, point.playersOnline]),
    [
      ['2026-10-01T10:00:00.000Z', { avg: 4, max: 4 }],
      ['2026-10-01T11:00:00.000Z', { avg: 10, max: 10 }],
    ],
  );
  const machine = await get(`/api/v1/machines/${machineId}/metrics?from=2026-10-01T09:00:00Z&to=2026-10-01T13:00:00Z&step=1d`);
  t.like(machine.body.points[0], { at: '2026-10-01T00:00:00.000Z', cpuPercent: { avg: 50, max: 50 }, diskUsedBytes: { avg: 7, max: 7 } });

  // 15 days later the minute partitions of that day are dropped whole; the hourly point stays.
  const dropped = await expirePartitions(app.pool, new Date('2026-10-17T00:00:00Z'), 14, 400);
  t.true(dropped >= 2);
  t.false(Boolean(await app.pool.maybeOneFirst(sql.unsafe`SELECT 1 FROM pg_class WHERE relname = 'server_metrics_minute_p20261001'`)));
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM server_metrics_hour WHERE server_id = ${serverId}`)), 1);
  t.truthy(await app.pool.maybeOneFirst(sql.unsafe`SELECT 1 FROM pg_class WHERE relname = 'server_metrics_hour_p202610'`));
  t.is((await get(`/api/v1/servers/${serverId}/metrics?from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&step=1m`)).body.points.length, 0);
});

test.serial('a deleted server takes its points with it', async (t) => {
  const { machineId, serverId } = await serverOnMachine();
  await writeMinutes(serverId, machineId, new Date(Date.now() - 10 * 60_000), 3, () => 1);
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM server_metrics_minute WHERE server_id = ${serverId}`)), 3);
  t.is((await app.request(`/api/v1/servers/${serverId}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM server_metrics_minute WHERE server_id = ${serverId}`)), 0);
});
