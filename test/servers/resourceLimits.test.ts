/**
 * A server's resource limits (docs/servers.md#resource-limits): `memoryLimitMb` and `cpuLimitPercent` on create and
 * PATCH (null clears), their ranges (400, nothing changed), the Server record, the OpenAPI document, the columns'
 * CHECK constraints, and the `servers:sync` the agent receives.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { socketIoAgent, startGatewayApp, type GatewayApp } from '../support/gateway.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp();
});
test.after.always(async () => {
  await app?.close();
});

const SERVER = { name: 'EU', gameType: 'RUST', gamePort: 28015, queryPort: 28016, rconPort: 28017 };
const MEMORY_MESSAGE = 'memoryLimitMb must be a whole number of MiB between 64 and 1048576, or null';
const CPU_MESSAGE = 'cpuLimitPercent must be a whole number between 1 and 102400, or null';

async function setup() {
  const user = await signUp(app);
  const clusterId = await createCluster(app, user);
  const registered = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: user.auth })));
  const create = (payload: object) =>
    app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId: registered.id, ...payload }, { headers: user.auth }));
  const patch = (serverId: string, payload: unknown) => app.request(`/api/v1/servers/${serverId}`, json(payload, { method: 'PATCH', headers: user.auth }));
  const get = async (serverId: string) => body(await app.request(`/api/v1/servers/${serverId}`, { headers: user.auth }));
  return { user, clusterId, machineId: registered.id as string, token: registered.agentToken as string, create, patch, get };
}

const limitsOf = (record: { memoryLimitMb: unknown; cpuLimitPercent: unknown }) => ({
  memoryLimitMb: record.memoryLimitMb,
  cpuLimitPercent: record.cpuLimitPercent,
});

const storedLimits = (serverId: string) =>
  app.pool.one(sql.unsafe`SELECT memory_limit_mb AS "memoryLimitMb", cpu_limit_percent AS "cpuLimitPercent" FROM servers WHERE id = ${serverId}`);

test('limits default to null and are on every Server record (create answer, get, both lists)', async (t) => {
  const { user, clusterId, create, get } = await setup();
  const plain = await create({});
  t.is(plain.status, 201);
  const created = await body(plain);
  t.deepEqual(limitsOf(created), { memoryLimitMb: null, cpuLimitPercent: null });
  t.deepEqual(limitsOf(await get(created.id)), { memoryLimitMb: null, cpuLimitPercent: null });

  const limited = await create({ name: 'limited', gamePort: 29015, queryPort: 29016, rconPort: 29017, memoryLimitMb: 8192, cpuLimitPercent: 150 });
  t.is(limited.status, 201);
  const withLimits = await body(limited);
  t.deepEqual(limitsOf(withLimits), { memoryLimitMb: 8192, cpuLimitPercent: 150 });
  t.deepEqual(limitsOf(await get(withLimits.id)), { memoryLimitMb: 8192, cpuLimitPercent: 150 });
  t.deepEqual(await storedLimits(withLimits.id), { memoryLimitMb: 8192, cpuLimitPercent: 150 });

  const clusterList = await body(await app.request(`/api/v1/clusters/${clusterId}/servers?sort=name`, { headers: user.auth }));
  t.deepEqual(
    clusterList.data.map((row: { name: string; memoryLimitMb: unknown; cpuLimitPercent: unknown }) => [row.name, row.memoryLimitMb, row.cpuLimitPercent]),
    [
      ['EU', null, null],
      ['limited', 8192, 150],
    ],
  );
  const list = await body(await app.request(`/api/v1/servers?clusterId=${clusterId}&sort=name`, { headers: user.auth }));
  t.deepEqual(limitsOf(list.data[1]), { memoryLimitMb: 8192, cpuLimitPercent: 150 });

  // The variant create form takes them too; the bounds themselves are accepted.
  const variant = await app.request(
    '/api/v1/servers',
    json(
      {
        ...SERVER,
        clusterId,
        machineId: created.machineId,
        name: 'bounds',
        gamePort: 30015,
        queryPort: 30016,
        rconPort: 30017,
        memoryLimitMb: 64,
        cpuLimitPercent: 102400,
      },
      { headers: user.auth },
    ),
  );
  t.is(variant.status, 201);
  t.deepEqual(limitsOf(await body(variant)), { memoryLimitMb: 64, cpuLimitPercent: 102400 });
});

test('PATCH changes a limit, leaves the other alone, and null clears it', async (t) => {
  const { create, patch, get } = await setup();
  const server = await body(await create({ memoryLimitMb: 4096, cpuLimitPercent: 200 }));

  const memory = await patch(server.id, { memoryLimitMb: 1048576 });
  t.is(memory.status, 200);
  t.deepEqual(limitsOf(await body(memory)), { memoryLimitMb: 1048576, cpuLimitPercent: 200 });

  const cpu = await patch(server.id, { cpuLimitPercent: 1 });
  t.deepEqual(limitsOf(await body(cpu)), { memoryLimitMb: 1048576, cpuLimitPercent: 1 });

  const other = await patch(server.id, { maxPlayers: 20 });
  t.deepEqual(limitsOf(await body(other)), { memoryLimitMb: 1048576, cpuLimitPercent: 1 }, 'a PATCH without them keeps them');

  const cleared = await patch(server.id, { memoryLimitMb: null });
  t.deepEqual(limitsOf(await body(cleared)), { memoryLimitMb: null, cpuLimitPercent: 1 });
  const both = await patch(server.id, { memoryLimitMb: 512, cpuLimitPercent: null });
  t.deepEqual(limitsOf(await body(both)), { memoryLimitMb: 512, cpuLimitPercent: null });
  t.deepEqual(limitsOf(await get(server.id)), { memoryLimitMb: 512, cpuLimitPercent: null });
  t.deepEqual(await storedLimits(server.id), { memoryLimitMb: 512, cpuLimitPercent: null });
});

const BAD_MEMORY: unknown[] = [0, -1, 63, 1048577, 512.5, '512', true, {}, 1e12];
const BAD_CPU: unknown[] = [0, -150, 102401, 1.5, '150', false, [], 1e12];

test('out-of-range, fractional and non-numeric limits are 400 Validation failed and change nothing', async (t) => {
  const { clusterId, create, patch, get } = await setup();
  const server = await body(await create({ memoryLimitMb: 2048, cpuLimitPercent: 300 }));
  const before = await get(server.id);

  for (const value of BAD_MEMORY) {
    const label = `memoryLimitMb ${JSON.stringify(value)}`;
    const patched = await patch(server.id, { memoryLimitMb: value });
    t.is(patched.status, 400, label);
    t.like(await body(patched), { statusCode: 400, message: 'Validation failed', details: [{ field: 'memoryLimitMb', message: MEMORY_MESSAGE }] }, label);
    // With a valid change beside it, nothing of the request is applied.
    t.is((await patch(server.id, { name: 'renamed', memoryLimitMb: value })).status, 400, label);
    const created = await create({ name: 'bad', gamePort: 31015, queryPort: 31016, rconPort: 31017, memoryLimitMb: value });
    t.is(created.status, 400, label);
    t.deepEqual((await body(created)).details, [{ field: 'memoryLimitMb', message: MEMORY_MESSAGE }], label);
  }
  for (const value of BAD_CPU) {
    const label = `cpuLimitPercent ${JSON.stringify(value)}`;
    const patched = await patch(server.id, { cpuLimitPercent: value });
    t.is(patched.status, 400, label);
    t.like(await body(patched), { statusCode: 400, message: 'Validation failed', details: [{ field: 'cpuLimitPercent', message: CPU_MESSAGE }] }, label);
    t.is((await patch(server.id, { maxPlayers: 5, cpuLimitPercent: value })).status, 400, label);
    const created = await create({ name: 'bad', gamePort: 31015, queryPort: 31016, rconPort: 31017, cpuLimitPercent: value });
    t.is(created.status, 400, label);
    t.deepEqual((await body(created)).details, [{ field: 'cpuLimitPercent', message: CPU_MESSAGE }], label);
  }
  const both = await patch(server.id, { memoryLimitMb: 1, cpuLimitPercent: 0 });
  t.deepEqual(
    (await body(both)).details.map((detail: { field: string }) => detail.field).sort(),
    ['cpuLimitPercent', 'memoryLimitMb'],
    'each bad field is named',
  );

  const after = await get(server.id);
  t.deepEqual(after, before, 'the server is unchanged');
  t.deepEqual(await storedLimits(server.id), { memoryLimitMb: 2048, cpuLimitPercent: 300 });
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM servers WHERE cluster_id = ${clusterId}`)), 1, 'no bad create made a server');
  t.is(
    Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM audit_log WHERE target_id = ${server.id} AND action = 'server.update'`)),
    0,
    'no update was recorded',
  );
});

test('the columns refuse out-of-range values themselves (CHECK constraints)', async (t) => {
  const { create } = await setup();
  const server = await body(await create({}));
  for (const [column, value] of [
    ['memory_limit_mb', 63],
    ['memory_limit_mb', 1048577],
    ['cpu_limit_percent', 0],
    ['cpu_limit_percent', 102401],
  ] as const) {
    await t.throwsAsync(
      app.pool.query(sql.unsafe`UPDATE servers SET ${sql.identifier([column])} = ${value} WHERE id = ${server.id}`),
      undefined,
      `${column} ${value}`,
    );
  }
  await app.pool.query(sql.unsafe`UPDATE servers SET memory_limit_mb = 64, cpu_limit_percent = 102400 WHERE id = ${server.id}`);
  t.deepEqual(await storedLimits(server.id), { memoryLimitMb: 64, cpuLimitPercent: 102400 });
});

test('the OpenAPI document describes both limits on Server and on the create and update bodies', async (t) => {
  const document = await body(await app.request('/api/docs/openapi.json'));
  const serverSchema = document.components.schemas.Server;
  t.true(serverSchema.required.includes('memoryLimitMb'));
  t.true(serverSchema.required.includes('cpuLimitPercent'));
  const bodySchema = (path: string, method: string) => document.paths[path][method].requestBody.content['application/json'].schema;
  for (const [path, method] of [
    ['/api/v1/clusters/{clusterId}/servers', 'post'],
    ['/api/v1/servers', 'post'],
    ['/api/v1/servers/{id}', 'patch'],
  ] as const) {
    const text = JSON.stringify(bodySchema(path, method));
    t.true(text.includes('"memoryLimitMb"') && text.includes('1048576'), `${method} ${path} memoryLimitMb`);
    t.true(text.includes('"cpuLimitPercent"') && text.includes('102400'), `${method} ${path} cpuLimitPercent`);
  }
});

test('servers:sync carries both limits, and a PATCH of a limit syncs the agent at once', async (t) => {
  const { machineId, token, create, patch } = await setup();
  const limited = await body(await create({ memoryLimitMb: 8192, cpuLimitPercent: 150 }));
  const plain = await body(await create({ name: 'plain', gamePort: 29015, queryPort: 29016, rconPort: 29017 }));

  const agent = await socketIoAgent(app);
  t.teardown(() => agent.close());
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  const first = (await agent.next('servers:sync')).servers;
  t.deepEqual(
    first.map((config: { id: string; memoryLimitMb: unknown; cpuLimitPercent: unknown }) => [config.id, config.memoryLimitMb, config.cpuLimitPercent]),
    [
      [limited.id, 8192, 150],
      [plain.id, null, null],
    ],
  );

  const configOf = (sync: { servers: { id: string }[] }, serverId: string) => sync.servers.find((config) => config.id === serverId) as Record<string, unknown>;
  t.is((await patch(plain.id, { memoryLimitMb: 1024 })).status, 200);
  t.like(configOf(await agent.next('servers:sync'), plain.id), { memoryLimitMb: 1024, cpuLimitPercent: null });
  t.is((await patch(plain.id, { cpuLimitPercent: 250 })).status, 200);
  t.like(configOf(await agent.next('servers:sync'), plain.id), { memoryLimitMb: 1024, cpuLimitPercent: 250 });
  t.is((await patch(limited.id, { memoryLimitMb: null, cpuLimitPercent: null })).status, 200);
  const cleared = await agent.next('servers:sync');
  t.like(configOf(cleared, limited.id), { memoryLimitMb: null, cpuLimitPercent: null });
  t.like(configOf(cleared, plain.id), { memoryLimitMb: 1024, cpuLimitPercent: 250 });

  // A refused PATCH sends nothing.
  const syncs = () => agent.received.filter((entry) => entry.event === 'servers:sync').length;
  const count = syncs();
  t.is((await patch(plain.id, { memoryLimitMb: 0 })).status, 400);
  t.is((await patch(plain.id, { maxPlayers: 7 })).status, 200);
  t.like(configOf(await agent.next('servers:sync'), plain.id), { maxPlayers: 7, memoryLimitMb: 1024 });
  t.is(syncs(), count + 1, 'only the accepted PATCH was synced');
});
