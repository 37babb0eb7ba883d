/**
 * The agent gateway with real clients over both framings (docs/agent-protocol.md): authentication and each way it fails,
 * paths, validation, frame size, liveness, replacement, servers:sync and status reports.
 */
import test from 'ava';
import pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json } from '../support/app.ts';
import { createApiToken, createCluster, signUp, type TestUser } from '../support/identity.ts';
import { AGENTS, plainAgent, socketIoAgent, startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { VERSION } from '../../api/service.ts';
import { MAX_FRAME_BYTES } from '../../schema/agentEvents.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp();
});
test.after.always(async () => {
  await app?.close();
});

const SERVER = { name: 'EU', gameType: 'RUST', gamePort: 28015, queryPort: 28016, rconPort: 28017 };

async function machine(owner?: TestUser) {
  const user = owner ?? (await signUp(app));
  const clusterId = await createCluster(app, user);
  const registered = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: user.auth })));
  return { user, clusterId, machineId: registered.id as string, token: registered.agentToken as string };
}

const machineRow = (machineId: string) =>
  app.pool.one(sql.unsafe`SELECT status, agent_version AS "agentVersion", metrics, hostname FROM machines WHERE id = ${machineId}`) as Promise<
    Record<string, any>
  >;

const serverStatus = (serverId: string) => app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`);

const waitFor = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
};

for (const [framing, connect] of Object.entries(AGENTS)) {
  test(`${framing}: auth → authenticated, then servers:sync; the machine is ONLINE`, async (t) => {
    const { user, clusterId, machineId, token } = await machine();
    await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth }));
    const agent = await connect(app);
    agent.send('auth', { token, machineId, version: '0.1.0' });
    const authenticated = await agent.next('authenticated');
    t.like(authenticated, { machineId, clusterId, heartbeatSeconds: 1 });
    t.regex(authenticated.serverTime, /^\d{4}-\d\d-\d\dT/);
    const sync = await agent.next('servers:sync');
    t.is(sync.servers.length, 1);
    t.like(sync.servers[0], { ...SERVER, desiredStatus: 'STOPPED', autoRestart: true });
    t.is(typeof sync.servers[0].rconPassword, 'string', 'the agent gets the RCON password');
    t.like(await machineRow(machineId), { status: 'ONLINE', agentVersion: '0.1.0' });
    agent.close();
    t.true(await waitFor(async () => (await machineRow(machineId)).status === 'OFFLINE'), 'a disconnect marks it OFFLINE');
  });

  test(`${framing}: every authentication failure is error AUTH_FAILED and a closed connection`, async (t) => {
    const { user, clusterId, machineId, token } = await machine();
    const other = await machine(user);
    const apiToken = await createApiToken(app, user, [clusterId]);
    const attempts: [string, (agent: Awaited<ReturnType<typeof connect>>) => void | Promise<void>, RegExp][] = [
      ['wrong token', (agent) => agent.send('auth', { token: `gsm_agent_${'x'.repeat(43)}`, machineId, version: '0.1.0' }), /invalid agent token/],
      ['token of another machine', (agent) => agent.send('auth', { token: other.token, machineId, version: '0.1.0' }), /another machine/],
      ['user API token', (agent) => agent.send('auth', { token: apiToken.token, machineId, version: '0.1.0' }), /user tokens/],
      [
        'another first message',
        (agent) => agent.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 }),
        /first message must be auth/,
      ],
      ['malformed auth', (agent) => agent.send('auth', { token }), /auth needs/],
      ['no auth in time', () => undefined, /no auth message within 3000 ms/],
    ];
    for (const [name, act, message] of attempts) {
      const agent = await connect(app);
      await act(agent);
      const error = await agent.next('error');
      t.is(error.code, 'AUTH_FAILED', name);
      t.regex(error.message, message, name);
      await agent.closed;
      t.true(agent.isClosed(), name);
    }
    // A rotated token stops working.
    await app.request(`/api/v1/machines/${machineId}/token`, { method: 'POST', headers: user.auth });
    const agent = await connect(app);
    agent.send('auth', { token, machineId, version: '0.1.0' });
    t.is((await agent.next('error')).code, 'AUTH_FAILED');
    t.is((await machineRow(machineId)).status, 'OFFLINE');
  });

  test(`${framing}: an invalid event is error INVALID_EVENT and changes nothing`, async (t) => {
    const { user, clusterId, machineId, token } = await machine();
    const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
    const foreign = await machine(user);
    const foreignServer = await body(
      await app.request(`/api/v1/clusters/${foreign.clusterId}/servers`, json({ ...SERVER, machineId: foreign.machineId }, { headers: user.auth })),
    );
    const agent = await connect(app);
    agent.send('auth', { token, machineId, version: '0.1.0' });
    await agent.next('authenticated');
    const at = new Date().toISOString();
    for (const [event, data, message] of [
      ['server:status', { serverId: created.id, status: 'EXPLODED', at }, /status/],
      ['server:status', { serverId: foreignServer.id, status: 'ONLINE', at }, /not on this machine/],
      ['heartbeat', { uptime: 3 }, /metrics/],
      ['teleport', {}, /unknown event/],
      ['auth', { token, machineId, version: '0.1.0' }, /already authenticated/],
      // What Postgres would refuse is refused here, before it can fail a statement shared with other reports.
      ['server:status', { serverId: created.id, status: 'ONLINE', at: '0000-01-01T00:00:00Z' }, /at: must be between/],
      ['server:status', { serverId: created.id, status: 'ONLINE', at: '2026-01-01T00:00:00+23:00' }, /at: time zone offset/],
      ['player:join', { serverId: created.id, steamId: '7656', username: 'Bob', at: '0000-01-01T00:00:00Z' }, /at: must be between/],
      ['player:join', { serverId: created.id, steamId: '7656', username: 'half \ud800', at }, /username: must not contain NUL/],
      [
        'heartbeat',
        {
          metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 },
          uptime: 1,
          host: { hostname: 'a\u0000b', os: 'linux', cpuCount: 1, memoryBytes: 1 },
        },
        /hostname: must not contain NUL/,
      ],
    ] as const) {
      agent.send(event, data);
      const error = await agent.next('error');
      t.is(error.code, 'INVALID_EVENT');
      t.regex(error.message, message);
    }
    const statuses = await app.pool.anyFirst(sql.unsafe`SELECT status FROM servers WHERE id IN (${created.id}, ${foreignServer.id})`);
    t.deepEqual([...statuses], ['INSTALLING', 'INSTALLING']);
    t.false(agent.isClosed(), 'an invalid event does not end the session');
    agent.close();
  });
}

test('the gateway answers on /ws, /agent/ws and /ws/agent in both framings, and nowhere else', async (t) => {
  const { machineId, token } = await machine();
  for (const path of ['/ws', '/agent/ws', '/ws/agent']) {
    for (const connect of [socketIoAgent, plainAgent]) {
      const agent = await connect(app, path);
      agent.send('auth', { token, machineId, version: '0.1.0' });
      t.is((await agent.next('authenticated')).machineId, machineId, path);
      agent.close();
      await agent.closed;
    }
  }
  await t.throwsAsync(plainAgent(app, '/elsewhere'));
});

test('reports update the server and machine: status, heartbeat metrics and host facts, player count', async (t) => {
  const { user, clusterId, machineId, token } = await machine();
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.2.0' });
  await agent.next('authenticated');
  agent.send('heartbeat', {
    metrics: { cpuPercent: 12.5, memoryUsedBytes: 1024, diskUsedBytes: 2048 },
    uptime: 60,
    host: { hostname: 'box', os: 'linux', cpuCount: 8, memoryBytes: 16e9 },
  });
  agent.send('server:status', { serverId: created.id, status: 'ONLINE', at: new Date().toISOString() });
  agent.send('players:snapshot', { serverId: created.id, players: [{ steamId: '7656', username: 'alice', ping: 20 }], at: new Date().toISOString() });
  t.true(await waitFor(async () => (await body(await app.request(`/api/v1/servers/${created.id}`, { headers: user.auth }))).playersOnline === 1));
  const server = await body(await app.request(`/api/v1/servers/${created.id}`, { headers: user.auth }));
  t.is(server.status, 'ONLINE');
  t.truthy(server.lastStatusAt);
  const fetched = await body(await app.request(`/api/v1/machines/${machineId}`, { headers: user.auth }));
  t.like(fetched, { status: 'ONLINE', hostname: 'box', os: 'linux', cpuCount: 8, agentVersion: '0.2.0' });
  t.like(fetched.metrics, { cpuPercent: 12.5, memoryUsedBytes: 1024, diskUsedBytes: 2048 });
  // An older report does not move the server backwards.
  agent.send('server:status', { serverId: created.id, status: 'STARTING', at: new Date(Date.now() - 60_000).toISOString() });
  agent.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 61 });
  await new Promise((done) => setTimeout(done, 200));
  t.is((await body(await app.request(`/api/v1/servers/${created.id}`, { headers: user.auth }))).status, 'ONLINE');
  agent.close();
  t.true(
    await waitFor(async () => (await body(await app.request(`/api/v1/servers/${created.id}`, { headers: user.auth }))).status === 'UNKNOWN'),
    'disconnect: UNKNOWN',
  );
});

test('three missed heartbeats mark the machine OFFLINE and its servers UNKNOWN; heartbeats keep it ONLINE', async (t) => {
  const { user, clusterId, machineId, token } = await machine();
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  const agent = await plainAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  agent.send('server:status', { serverId: created.id, status: 'ONLINE', at: new Date().toISOString() });
  // Beating every 500 ms for 4 s (four heartbeat periods): still ONLINE.
  for (let beat = 0; beat < 8; beat++) {
    agent.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: beat });
    await new Promise((done) => setTimeout(done, 500));
  }
  t.is((await machineRow(machineId)).status, 'ONLINE');
  // Silence: after three periods (3 s) it is OFFLINE and the connection is closed.
  t.true(await waitFor(async () => (await machineRow(machineId)).status === 'OFFLINE'));
  t.is(await serverStatus(created.id), 'UNKNOWN');
  await agent.closed;
});

test('a second connection for the same machine replaces the first', async (t) => {
  const { machineId, token } = await machine();
  const first = await socketIoAgent(app);
  first.send('auth', { token, machineId, version: '0.1.0' });
  await first.next('authenticated');
  const second = await plainAgent(app);
  second.send('auth', { token, machineId, version: '0.1.0' });
  await second.next('authenticated');
  await first.closed;
  t.true(first.isClosed());
  await new Promise((done) => setTimeout(done, 200));
  t.is((await machineRow(machineId)).status, 'ONLINE', 'the replaced session does not mark the machine offline');
  t.is(app.gateway.session(machineId)?.link.framing, 'websocket');
  second.close();
});

test.serial('syncs of one machine never overlap: one asked for while another reads waits for it, and runs even when that one fails', async (t) => {
  const { user, clusterId, machineId, token } = await machine();
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  await agent.next('servers:sync');
  // The agent keeps beating (heartbeats are due every second here) while the syncs wait.
  const beating = setInterval(() => agent.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 }), 500);
  // Hold every read of deleted_servers (a sync reads it beside the servers): the first sync asked for waits there.
  const locking = new pg.Client({ connectionString: app.database.url });
  await locking.connect();
  let createdId: string;
  const waiting = () =>
    app.pool.anyFirst(sql.type(z.object({ pid: z.number() }))`
      SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM deleted_servers WHERE machine_id%'`);
  try {
    await locking.query('BEGIN');
    await locking.query('LOCK TABLE deleted_servers IN ACCESS EXCLUSIVE MODE');
    const changed = sql.unsafe`SELECT pg_notify('gsm_agent', ${JSON.stringify({ type: 'servers_changed', machineId })})`;
    await app.pool.query(changed);
    t.true(await waitFor(async () => (await waiting()).length === 1), 'the first sync waiting for the lock');
    const [first] = await waiting();
    // A server created meanwhile (its creation asks for a sync), and one more asked for, while the first one reads.
    const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
    createdId = created.id;
    await app.pool.query(changed);
    await new Promise((done) => setTimeout(done, 300));
    t.deepEqual(await waiting(), [first], 'the next sync waits for the first instead of reading beside it');
    // The first one fails (its connection ends): the next one still runs, and reads after the server was created.
    await app.pool.query(sql.unsafe`SELECT pg_terminate_backend(${first})`);
    t.true(await waitFor(async () => (await waiting()).some((pid) => pid !== first)), 'the next sync reading');
  } finally {
    await locking.query('ROLLBACK').catch(() => undefined);
    await locking.end();
  }
  const sync = await agent.next('servers:sync');
  clearInterval(beating);
  t.deepEqual(
    sync.servers.map((server: { id: string }) => server.id),
    [createdId],
  );
  t.false(agent.isClosed());
});

test('servers:sync on every change; rotation and removal close the live connection', async (t) => {
  const { user, clusterId, machineId, token } = await machine();
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  t.deepEqual((await agent.next('servers:sync')).servers, []);
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  t.is((await agent.next('servers:sync')).servers[0].id, created.id);
  await app.request(`/api/v1/servers/${created.id}`, json({ maxPlayers: 12 }, { method: 'PATCH', headers: user.auth }));
  t.is((await agent.next('servers:sync')).servers[0].maxPlayers, 12);
  await app.request(`/api/v1/servers/${created.id}`, { method: 'DELETE', headers: user.auth });
  const afterDelete = await agent.next('servers:sync');
  t.deepEqual(afterDelete.servers, []);
  t.deepEqual(afterDelete.deleted, [created.id], 'the agent is told explicitly which server was deleted');

  await app.request(`/api/v1/machines/${machineId}/token`, { method: 'POST', headers: user.auth });
  const error = await agent.next('error');
  t.deepEqual(error, { code: 'AUTH_FAILED', message: 'agent token rotated' });
  await agent.closed;
});

test('an old agent version is UNSUPPORTED_VERSION', async (t) => {
  const { machineId, token } = await machine();
  const agent = await plainAgent(app);
  agent.send('auth', { token, machineId, version: '0.0.9' });
  const error = await agent.next('error');
  t.is(error.code, 'UNSUPPORTED_VERSION');
  t.regex(error.message, /older than the minimum 0\.1\.0/);
  await agent.closed;
});

test('an agent of another major version than the service is UNSUPPORTED_VERSION, even above the minimum', async (t) => {
  const { machineId, token } = await machine();
  const major = Number.parseInt(VERSION, 10);
  const newer = `${major + 1}.0.0`;
  const refused = await plainAgent(app);
  refused.send('auth', { token, machineId, version: newer });
  const error = await refused.next('error');
  t.is(error.code, 'UNSUPPORTED_VERSION');
  t.is(
    error.message,
    `agent ${newer} is of major version ${major + 1}; this service (${VERSION}) accepts agents of major version ${major}; install the service's own agent package`,
  );
  await refused.closed;
  // The service's own version (what its agent package reports) is accepted.
  const agent = await plainAgent(app);
  agent.send('auth', { token, machineId, version: VERSION });
  t.is((await agent.next('authenticated')).machineId, machineId);
  agent.close();
});

test('frames over 1 MiB + 64 KiB close the connection; non-JSON plain frames are INVALID_EVENT once authenticated', async (t) => {
  const { machineId, token } = await machine();
  const plain = await plainAgent(app);
  plain.send('auth', { token, machineId, version: '0.1.0' });
  await plain.next('authenticated');
  plain.ws.send('not json');
  t.is((await plain.next('error')).code, 'INVALID_EVENT');
  plain.send('console', { serverId: machineId, lines: ['x'.repeat(MAX_FRAME_BYTES + 1)], at: new Date().toISOString() });
  t.is(await plain.closeCode, 1009, 'message too big');

  const socket = await socketIoAgent(app);
  socket.send('auth', { token, machineId, version: '0.1.0' });
  await socket.next('authenticated');
  socket.send('console', { serverId: machineId, lines: ['x'.repeat(MAX_FRAME_BYTES + 1)], at: new Date().toISOString() });
  await socket.closed;
  t.true(socket.isClosed());
});

test('a machine left ONLINE by an orchestrator that died is swept OFFLINE once silent for three heartbeats', async (t) => {
  const { user, clusterId, machineId } = await machine();
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  // As a crashed orchestrator leaves it: ONLINE, its server ONLINE, last seen 10 s ago, nobody connected.
  // One transaction: a sweep between two statements would mark the server UNKNOWN before the test sets it ONLINE.
  await app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`UPDATE servers SET status = 'ONLINE' WHERE id = ${created.id}`);
    await tx.query(sql.unsafe`UPDATE machines SET status = 'ONLINE', last_seen_at = now() - interval '10 seconds' WHERE id = ${machineId}`);
  });
  t.true(await waitFor(async () => (await machineRow(machineId)).status === 'OFFLINE'));
  t.is(await serverStatus(created.id), 'UNKNOWN');
});

test('a report dated in the future cannot freeze a status; fractional byte counts are INVALID_EVENT', async (t) => {
  const { user, clusterId, machineId, token } = await machine();
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  const agent = await plainAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  agent.send('server:status', { serverId: created.id, status: 'ONLINE', at: '9999-01-01T00:00:00.000Z' });
  // Stored as "now", so the next report (dated after it was stored) still counts.
  t.true(await waitFor(async () => (await serverStatus(created.id)) === 'ONLINE'));
  await new Promise((done) => setTimeout(done, 20));
  agent.send('server:status', { serverId: created.id, status: 'CRASHED', at: new Date().toISOString() });
  t.true(await waitFor(async () => (await serverStatus(created.id)) === 'CRASHED'));
  agent.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1.5, diskUsedBytes: 1 }, uptime: 1 });
  t.is((await agent.next('error')).code, 'INVALID_EVENT');
  agent.close();
});

test("deleting a cluster closes its agents' connections", async (t) => {
  const { user, clusterId, machineId, token } = await machine();
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  t.is((await app.request(`/api/v1/clusters/${clusterId}`, { method: 'DELETE', headers: user.auth })).status, 200);
  t.deepEqual(await agent.next('error'), { code: 'AUTH_FAILED', message: 'machine removed' });
  await agent.closed;
  t.is(app.gateway.session(machineId), undefined);
});

test('with two orchestrator processes, a newer connection replaces the older one on the other process', async (t) => {
  const { createServer } = await import('node:http');
  const { createGateway } = await import('../../orchestrator/gateway/gateway.ts');
  // A second gateway on the same database, as a second orchestrator process would run it.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const second = await createGateway(server, {
    pool: app.pool,
    databaseUrl: app.database.url,
    logger: app.deps.logger,
    heartbeatSeconds: 1,
    authTimeoutMs: 1_500,
    minVersion: '0.1.0',
    serviceVersion: VERSION,
  });
  t.teardown(async () => {
    await second.close();
    server.close();
  });
  const secondApp = { ...app, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };

  const { user, clusterId, machineId, token } = await machine();
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  const older = await socketIoAgent(app);
  older.send('auth', { token, machineId, version: '0.1.0' });
  await older.next('authenticated');
  const newer = await socketIoAgent(secondApp as GatewayApp);
  newer.send('auth', { token, machineId, version: '0.1.0' });
  await newer.next('authenticated');
  newer.send('server:status', { serverId: created.id, status: 'ONLINE', at: new Date().toISOString() });
  newer.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 });

  await older.closed; // closed by the first process when it heard of the newer connection
  t.true(await waitFor(async () => (await serverStatus(created.id)) === 'ONLINE'), "the newer connection's report is stored");
  await new Promise((done) => setTimeout(done, 300)); // time for the older connection's end to do (wrongly) anything
  t.is((await machineRow(machineId)).status, 'ONLINE', 'the older connection ending does not mark the machine offline');
  t.is(await serverStatus(created.id), 'ONLINE');
  t.is(app.gateway.session(machineId), undefined);
  t.truthy(second.session(machineId));
  newer.close();
});

test('before auth, a plain frame that is not JSON or not { event, data } is AUTH_FAILED and closes at once', async (t) => {
  const { machineId, token } = await machine();
  for (const frame of ['not json', JSON.stringify({ hello: 'world' }), JSON.stringify([1, 2])]) {
    const plain = await plainAgent(app);
    plain.ws.send(frame);
    const error = await plain.next('error', 1_000); // well before the auth time-out (1.5 s)
    t.is(error.code, 'AUTH_FAILED', frame);
    t.regex(error.message, /first message must be auth/, frame);
    t.is(await plain.closeCode, 1008, frame);
  }
  // A malformed frame right behind auth (handled in order) is no reason to refuse the auth.
  const plain = await plainAgent(app);
  plain.send('auth', { token, machineId, version: '0.1.0' });
  plain.ws.send('not json');
  await plain.next('authenticated');
  t.is((await plain.next('error')).code, 'INVALID_EVENT');
  t.false(plain.isClosed());
  plain.close();
  // Socket.IO: an acknowledged event (or any other) before auth is AUTH_FAILED too.
  const socket = await socketIoAgent(app);
  socket.send('job:result', { jobId: machineId });
  t.is((await socket.next('error', 1_000)).code, 'AUTH_FAILED');
  await socket.closed;
  t.true(socket.isClosed());
});
