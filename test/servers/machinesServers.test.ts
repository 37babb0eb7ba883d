import test from 'ava';
import pg from 'pg';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp, type TestUser } from '../support/identity.ts';
import { until } from '../support/wait.ts';

const app = useTestApp(test);

const SERVER = { name: 'EU #1', gameType: 'RUST', gamePort: 28015, queryPort: 28016, rconPort: 28017 };

async function setup(owner?: TestUser) {
  const user = owner ?? (await signUp(app()));
  const clusterId = await createCluster(app(), user);
  const registered = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host-1' }, { headers: user.auth })));
  return { user, clusterId, machineId: registered.id as string, registered };
}

test('registering a machine answers its agent token once and where to connect', async (t) => {
  const { user, clusterId, machineId, registered } = await setup();
  t.regex(registered.agentToken, /^gsm_agent_[0-9A-Za-z]{43}$/);
  t.deepEqual(registered.connect, { url: app().config.publicUrl, path: '/ws' });
  t.is(registered.status, 'OFFLINE');
  t.is(registered.lastSeenAt, null);
  const fetched = await body(await app().request(`/api/v1/machines/${machineId}`, { headers: user.auth }));
  t.false('agentToken' in fetched);
  const list = await body(await app().request(`/api/v1/clusters/${clusterId}/machines?status=offline`, { headers: user.auth }));
  t.is(list.meta.total, 1);
  const stored = await app().pool.oneFirst(sql.unsafe`SELECT encode(agent_token_hash, 'hex') FROM machines WHERE id = ${machineId}`);
  t.is(String(stored).length, 64, 'only a SHA-256 is kept');
});

test('rotating the agent token replaces its hash', async (t) => {
  const { user, machineId, registered } = await setup();
  const before = await app().pool.oneFirst(sql.unsafe`SELECT encode(agent_token_hash, 'hex') FROM machines WHERE id = ${machineId}`);
  const rotated = await body(await app().request(`/api/v1/machines/${machineId}/token`, { method: 'POST', headers: user.auth }));
  t.regex(rotated.agentToken, /^gsm_agent_/);
  t.not(rotated.agentToken, registered.agentToken);
  t.not(await app().pool.oneFirst(sql.unsafe`SELECT encode(agent_token_hash, 'hex') FROM machines WHERE id = ${machineId}`), before);
});

test('servers: both create forms, defaults, write-only RCON password, get, update, delete', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const created = await app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId, gameType: 'rust' }, { headers: user.auth }));
  t.is(created.status, 201);
  const one = await body(created);
  t.like(one, {
    clusterId,
    machineId,
    gameType: 'RUST',
    maxPlayers: 100,
    status: 'INSTALLING',
    desiredStatus: 'STOPPED',
    playersOnline: 0,
    autoRestart: true,
    startCommand: null,
  });
  t.false('rconPassword' in one);
  const password = await app().pool.oneFirst(sql.unsafe`SELECT rcon_password FROM servers WHERE id = ${one.id}`);
  t.regex(String(password), /^[A-Za-z0-9_-]{24}$/, 'generated when absent');

  const variant = await app().request(
    '/api/v1/servers',
    json(
      { ...SERVER, clusterId, machineId, name: 'EU #2', gamePort: 29015, queryPort: 29016, rconPort: 29017, rconPassword: 'secret-pass' },
      { headers: user.auth },
    ),
  );
  t.is(variant.status, 201);
  const two = await body(variant);

  // A `"` would end the value in a Source game's config file: refused at create and PATCH, nothing changed.
  const quoted = await app().request(
    '/api/v1/servers',
    json(
      { ...SERVER, clusterId, machineId, name: 'EU #4', gamePort: 29115, queryPort: 29116, rconPort: 29117, rconPassword: 'pass"word;quit' },
      { headers: user.auth },
    ),
  );
  t.is(quoted.status, 400);
  t.like((await body(quoted)).details[0], { field: 'rconPassword', message: 'must not hold " (a game config file could not quote it)' });
  const before = await app().pool.oneFirst(sql.unsafe`SELECT rcon_password FROM servers WHERE id = ${two.id}`);
  const patchQuoted = await app().request(`/api/v1/servers/${two.id}`, json({ rconPassword: 'x"; quit; "yyy' }, { method: 'PATCH', headers: user.auth }));
  t.is(patchQuoted.status, 400);
  t.is((await body(patchQuoted)).details[0].field, 'rconPassword');
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT rcon_password FROM servers WHERE id = ${two.id}`), before);

  const patched = await body(
    await app().request(`/api/v1/servers/${two.id}`, json({ name: 'EU #2b', maxPlayers: 50, env: { SEED: '42' } }, { method: 'PATCH', headers: user.auth })),
  );
  t.like(patched, { name: 'EU #2b', maxPlayers: 50, env: { SEED: '42' } });
  t.is((await body(await app().request(`/api/v1/clusters/${clusterId}`, { headers: user.auth }))).counts.servers, 2);

  t.is((await app().request(`/api/v1/servers/${two.id}`, { method: 'DELETE', headers: user.auth })).status, 200);
  t.is((await app().request(`/api/v1/servers/${two.id}`, { headers: user.auth })).status, 404);
  // Its ports are free again.
  t.is(
    (
      await app().request(
        '/api/v1/servers',
        json({ ...SERVER, clusterId, machineId, name: 'EU #3', gamePort: 29015, queryPort: 29016, rconPort: 29017 }, { headers: user.auth }),
      )
    ).status,
    201,
  );
});

test('port rules: range, distinct within a server, unique per machine (409), free on another machine', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const create = (payload: object) =>
    app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId, ...payload }, { headers: user.auth }));
  const range = await create({ gamePort: 80, rconPort: 70000 });
  t.is(range.status, 400);
  t.deepEqual((await body(range)).details.map((detail: { field: string; message: string }) => [detail.field, detail.message]).sort(), [
    ['gamePort', 'port must be between 1024 and 65535'],
    ['rconPort', 'port must be between 1024 and 65535'],
  ]);
  const same = await create({ queryPort: 28015 });
  t.is(same.status, 400);
  t.is((await body(same)).details[0].field, 'queryPort');
  t.is((await create({})).status, 201);
  const clash = await create({ name: 'other', gamePort: 30000, queryPort: 30001, rconPort: 28017 });
  t.is(clash.status, 409);
  t.regex((await body(clash)).message, /already used by another server on the same machine/);
  const other = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host-2' }, { headers: user.auth })));
  t.is((await create({ machineId: other.id })).status, 201, 'the same ports on another machine');
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM servers WHERE cluster_id = ${clusterId}`), 2, 'failed attempts created nothing');
});

test('gameType must be known; CUSTOM needs startCommand; the machine must be in the cluster', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const create = (payload: object) =>
    app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId, ...payload }, { headers: user.auth }));
  const unknown = await create({ gameType: 'TETRIS' });
  t.is(unknown.status, 400);
  t.regex((await body(unknown)).details[0].message, /MINECRAFT, RUST/);
  const custom = await create({ gameType: 'CUSTOM' });
  t.deepEqual((await body(custom)).details, [{ field: 'startCommand', message: 'required for CUSTOM servers' }]);
  t.is((await create({ gameType: 'CUSTOM', startCommand: './run.sh --port {{GAME_PORT}}' })).status, 201);
  const elsewhere = await setup(user);
  const foreign = await create({ machineId: elsewhere.machineId, gamePort: 31000, queryPort: 31001, rconPort: 31002 });
  t.deepEqual((await body(foreign)).details, [{ field: 'machineId', message: 'no such machine in this cluster' }]);
});

test('server lists filter by status and gameType (alias game) in any case, and sort', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const make = (name: string, gameType: string, base: number) =>
    app().request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name, gameType, machineId, gamePort: base, queryPort: base + 1, rconPort: base + 2 }, { headers: user.auth }),
    );
  await make('b-rust', 'RUST', 40000);
  await make('a-mc', 'MINECRAFT', 40010);
  await make('c-mc', 'minecraft', 40020);
  await app().pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE' WHERE name = 'c-mc'`);
  const names = async (query: string, path = `/api/v1/clusters/${clusterId}/servers`) =>
    (await body(await app().request(`${path}?${query}`, { headers: user.auth }))).data.map((row: { name: string }) => row.name);
  t.deepEqual(await names('gameType=minecraft&sort=name'), ['a-mc', 'c-mc']);
  t.deepEqual(await names('game=MINECRAFT&sort=-name'), ['c-mc', 'a-mc']);
  t.deepEqual(await names('status=online'), ['c-mc']);
  t.deepEqual(await names(`clusterId=${clusterId}&status=ONLINE`, '/api/v1/servers'), ['c-mc']);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/servers?status=asleep`, { headers: user.auth })).status, 400);
  const stranger = await signUp(app());
  t.deepEqual((await names('sort=name', '/api/v1/servers')).sort(), ['a-mc', 'b-rust', 'c-mc']);
  t.is((await body(await app().request('/api/v1/servers', { headers: stranger.auth }))).meta.total, 0, 'only visible clusters');
});

test('a machine hosting servers is removed only with ?force=true, which removes its servers', async (t) => {
  const { user, clusterId, machineId } = await setup();
  await app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth }));
  const refused = await app().request(`/api/v1/machines/${machineId}`, { method: 'DELETE', headers: user.auth });
  t.is(refused.status, 409);
  t.regex((await body(refused)).message, /hosts 1 server/);
  t.is((await app().request(`/api/v1/machines/${machineId}?force=true`, { method: 'DELETE', headers: user.auth })).status, 200);
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM servers WHERE machine_id = ${machineId}`), 0);
  const audit = await body(await app().request(`/api/v1/clusters/${clusterId}/audit-log?action=machine.delete`, { headers: user.auth }));
  t.is(audit.meta.total, 1);
});

test("the seed's example with servers: ADMIN in A creates (201), VIEWER in B cannot (403) but reads (200)", async (t) => {
  const owner = await signUp(app());
  const a = await setup(owner);
  const b = await setup(owner);
  const user = await signUp(app());
  await app().pool.query(
    sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${a.clusterId}, ${user.id}, 'ADMIN'), (${b.clusterId}, ${user.id}, 'VIEWER')`,
  );
  const token = await body(await app().request('/api/v1/account/tokens', json({ name: 'ci', clusterIds: [a.clusterId, b.clusterId] }, { headers: user.auth })));
  const auth = { Authorization: `Bearer ${token.token}` };
  t.is((await app().request(`/api/v1/clusters/${a.clusterId}/servers`, json({ ...SERVER, machineId: a.machineId }, { headers: auth }))).status, 201);
  t.is((await app().request(`/api/v1/clusters/${b.clusterId}/servers`, json({ ...SERVER, machineId: b.machineId }, { headers: auth }))).status, 403);
  t.is((await app().request(`/api/v1/clusters/${b.clusterId}/servers`, { headers: auth })).status, 200);
  const stranger = await signUp(app());
  t.is((await app().request(`/api/v1/clusters/${b.clusterId}/servers`, { headers: stranger.auth })).status, 403);
});

test('a machine delete that meets a server being created in the same moment is refused (409), not a silent cascade', async (t) => {
  const { user, clusterId, machineId } = await setup();
  // The server create's transaction, held open at the point where its server row is written but not yet committed.
  const creating = new pg.Client({ connectionString: app().database.url });
  await creating.connect();
  t.teardown(() => creating.end());
  await creating.query('BEGIN');
  await creating.query('SELECT 1 FROM machines WHERE id = $1 FOR SHARE', [machineId]);
  const { rows } = await creating.query(
    `INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password)
     VALUES ($1, $2, 'racing', 'RUST', 28015, 28016, 28017, 100, 'pw') RETURNING id`,
    [clusterId, machineId],
  );
  const serverId = rows[0].id as string;

  const deleting = app().request(`/api/v1/machines/${machineId}`, { method: 'DELETE', headers: user.auth });
  // The delete is now waiting on the create's lock; the create then commits (its 201).
  await until(
    async () =>
      Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) > 0,
    'the machine delete to wait on the server create',
  );
  await creating.query('COMMIT');

  const answer = await deleting;
  t.is(answer.status, 409);
  t.regex((await body(answer)).message, /hosts 1 server/);
  t.is(Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM servers WHERE id = ${serverId}`)), 1, 'the server created is still there');
  t.is(Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM machines WHERE id = ${machineId}`)), 1);
});

test('?force=true records the removal of each server it takes with the machine', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const server = await body(await app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  t.is((await app().request(`/api/v1/machines/${machineId}?force=true`, { method: 'DELETE', headers: user.auth })).status, 200);
  const audit = await body(await app().request(`/api/v1/clusters/${clusterId}/audit-log?action=server.delete`, { headers: user.auth }));
  t.is(audit.meta.total, 1);
  t.is(audit.data[0].target.id, server.id);
});

test('?force=true cancels the open jobs of the servers it removes, as deleting each server would', async (t) => {
  const { user, machineId, clusterId } = await setup();
  const server = await body(await app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, machineId }, { headers: user.auth })));
  // The agent never connected: the job waits QUEUED for it.
  const job = await body(await app().request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: user.auth }));
  t.is(job.status, 'QUEUED');
  t.is((await app().request(`/api/v1/machines/${machineId}?force=true`, { method: 'DELETE', headers: user.auth })).status, 200);
  const after = await body(await app().request(`/api/v1/jobs/${job.id}`, { headers: user.auth }));
  t.is(after.status, 'CANCELLED');
  t.deepEqual(after.error, { code: 'CANCELLED', message: 'the server was deleted with its machine' });
  t.truthy(after.finishedAt);
});
