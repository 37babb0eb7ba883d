import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

async function setup() {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const machine = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host-1' }, { headers: user.auth })));
  return { user, clusterId, machineId: machine.id as string };
}

const addRange = (machineId: string, auth: Record<string, string>, firstPort: number, lastPort: number) =>
  app().request(`/api/v1/machines/${machineId}/port-ranges`, json({ firstPort, lastPort }, { headers: auth }));
const createServer = (clusterId: string, auth: Record<string, string>, payload: Record<string, unknown>) =>
  app().request(`/api/v1/clusters/${clusterId}/servers`, json({ name: 'srv', autoInstall: false, ...payload }, { headers: auth }));
const portsOf = (server: { ports: { name: string; port: number }[] }) => Object.fromEntries(server.ports.map((entry) => [entry.name, entry.port]));

test('port ranges: 1024..65535, at most 10,000 ports, overlaps refused naming the range, OWNER/ADMIN only', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const created = await addRange(machineId, user.auth, 27000, 27999);
  t.is(created.status, 201);
  t.like(await body(created), { firstPort: 27000, lastPort: 27999 });
  const overlap = await addRange(machineId, user.auth, 27500, 28500);
  t.is(overlap.status, 409);
  t.regex((await body(overlap)).message, /overlaps this machine's range 27000-27999/);
  const tooBig = await addRange(machineId, user.auth, 30000, 40000);
  t.is(tooBig.status, 400);
  t.is((await body(tooBig)).details[0].message, 'a range holds at most 10000 ports');
  t.is((await addRange(machineId, user.auth, 30000, 39999)).status, 201, 'exactly 10,000 is fine');
  t.is((await addRange(machineId, user.auth, 1000, 2000)).status, 400);
  t.is((await addRange(machineId, user.auth, 3000, 2999)).status, 400);
  const moderator = await signUp(app());
  await addMember(app(), clusterId, moderator, 'MODERATOR');
  t.is((await addRange(machineId, moderator.auth, 50000, 50010)).status, 403);
  const readable = await app().request(`/api/v1/machines/${machineId}/allocations`, { headers: moderator.auth });
  t.is(readable.status, 200, 'every member reads them');
  t.deepEqual(
    (await body(readable)).ranges.map((range: { firstPort: number }) => range.firstPort),
    [27000, 30000],
  );
  // Addresses: the operator's, validated; the agent's are reported beside them.
  const bad = await app().request(`/api/v1/machines/${machineId}/addresses`, json({ addresses: ['not an address!'] }, { method: 'PUT', headers: user.auth }));
  t.is(bad.status, 400);
  const set = await app().request(
    `/api/v1/machines/${machineId}/addresses`,
    json({ addresses: ['203.0.113.10', 'game.example.org'] }, { method: 'PUT', headers: user.auth }),
  );
  t.is(set.status, 200);
  t.deepEqual((await body(set)).addresses, ['203.0.113.10', 'game.example.org']);
  t.deepEqual((await body(await app().request(`/api/v1/machines/${machineId}`, { headers: user.auth }))).addresses, ['203.0.113.10', 'game.example.org']);
  t.is((await app().request(`/api/v1/machines/${machineId}/addresses`, json({ addresses: [] }, { method: 'PUT', headers: moderator.auth }))).status, 403);
});

test('ports are picked from the ranges with the game offsets; explicit ports outside them are 400, taken ones 409 naming the holder', async (t) => {
  const { user, clusterId, machineId } = await setup();
  await addRange(machineId, user.auth, 28000, 28200);
  const rust = await createServer(clusterId, user.auth, { machineId, gameType: 'RUST', name: 'rust-1' });
  t.is(rust.status, 201);
  const first = await body(rust);
  // Rust: game, rcon = game + 1, query = game + 2, app = game + 67.
  t.deepEqual(portsOf(first), { game: 28000, rcon: 28001, query: 28002, app: 28067 });
  t.like(first, { gamePort: 28000, queryPort: 28002, rconPort: 28001 });
  t.deepEqual(
    first.ports.find((entry: { name: string }) => entry.name === 'game'),
    { name: 'game', port: 28000, protocol: 'UDP' },
  );
  const second = await body(await createServer(clusterId, user.auth, { machineId, gameType: 'RUST', name: 'rust-2' }));
  t.deepEqual(portsOf(second), { game: 28003, rcon: 28004, query: 28005, app: 28070 });

  const outside = await createServer(clusterId, user.auth, { machineId, gameType: 'CUSTOM', startCommand: './run', gamePort: 9000 });
  t.is(outside.status, 400);
  t.is((await body(outside)).details[0].field, 'gamePort');
  t.regex(
    (await body(await createServer(clusterId, user.auth, { machineId, gameType: 'CUSTOM', startCommand: './run', gamePort: 9000 }))).details[0].message,
    /outside this machine's port ranges \(28000-28200\)/,
  );

  const taken = await createServer(clusterId, user.auth, { machineId, gameType: 'CUSTOM', startCommand: './run', gamePort: 28070 });
  t.is(taken.status, 409);
  const refusal = await body(taken);
  t.regex(refusal.message, new RegExp(`"rust-2" \\(${second.id}\\) holds it as its app port`));
  t.deepEqual(refusal.holder, { serverId: second.id, serverName: 'rust-2', name: 'app' });

  // A PATCH: the game port moves; the other ports stay; a taken one is refused naming its holder.
  const moved = await app().request(`/api/v1/servers/${second.id}`, json({ gamePort: 28100 }, { method: 'PATCH', headers: user.auth }));
  t.is(moved.status, 200);
  t.deepEqual(portsOf(await body(moved)), { game: 28100, rcon: 28004, query: 28005, app: 28070 });
  const clash = await app().request(`/api/v1/servers/${second.id}`, json({ ports: { app: 28067 } }, { method: 'PATCH', headers: user.auth }));
  t.is(clash.status, 409);
  t.regex((await body(clash)).message, /"rust-1".*as its app port/);

  const allocations = await body(await app().request(`/api/v1/machines/${machineId}/allocations`, { headers: user.auth }));
  t.deepEqual(
    allocations.allocations.map((entry: { port: number; serverName: string; name: string }) => `${entry.port} ${entry.serverName} ${entry.name}`),
    [
      '28000 rust-1 game',
      '28001 rust-1 rcon',
      '28002 rust-1 query',
      '28004 rust-2 rcon',
      '28005 rust-2 query',
      '28067 rust-1 app',
      '28070 rust-2 app',
      '28100 rust-2 game',
    ],
  );
  t.is(allocations.freePorts, 201 - 8);

  // Deleting a server frees its ports: its game port can be taken at once.
  t.is((await app().request(`/api/v1/servers/${first.id}`, { method: 'DELETE', headers: user.auth })).status, 200);
  const reuse = await createServer(clusterId, user.auth, {
    machineId,
    gameType: 'CUSTOM',
    startCommand: './run',
    gamePort: 28000,
    queryPort: 28001,
    rconPort: 28002,
  });
  t.is(reuse.status, 201);
  // Without ranges, the game's default port is where the search starts.
  const bare = await setup();
  const minecraft = await body(await createServer(bare.clusterId, bare.user.auth, { machineId: bare.machineId, gameType: 'MINECRAFT', acceptEula: true }));
  t.deepEqual(portsOf(minecraft), { game: 25565, query: 25566, rcon: 25575 });
  // A machine's removal frees every port it had.
  t.is((await app().request(`/api/v1/machines/${bare.machineId}?force=true`, { method: 'DELETE', headers: bare.user.auth })).status, 200);
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM server_ports WHERE machine_id = ${bare.machineId}`), 0);
});

test('concurrent creates without ports never get the same port; a full range is a clear 409', async (t) => {
  const { user, clusterId, machineId } = await setup();
  await addRange(machineId, user.auth, 40000, 40059);
  const results = await Promise.all(
    Array.from({ length: 24 }, (_, index) =>
      createServer(clusterId, user.auth, { machineId, gameType: 'VALHEIM', name: `v${index}` }).then(async (response) => ({
        status: response.status,
        json: await body(response),
      })),
    ),
  );
  const created = results.filter((result) => result.status === 201);
  const refused = results.filter((result) => result.status !== 201);
  t.is(created.length, 20, '60 ports, 3 a server');
  t.true(refused.every((result) => result.status === 409 && /No free port left on this machine/.test(result.json.message)));
  const ports = created.flatMap((result) => result.json.ports.map((entry: { port: number }) => entry.port));
  t.is(new Set(ports).size, ports.length, 'no port twice');
  t.true(ports.every((port: number) => port >= 40000 && port <= 40059));
  // Concurrent creates with the same explicit port: one wins, the others are 409s naming it.
  const other = await setup();
  const same = await Promise.all(
    Array.from({ length: 5 }, (_, index) =>
      createServer(other.clusterId, other.user.auth, {
        machineId: other.machineId,
        gameType: 'CUSTOM',
        startCommand: './x',
        name: `s${index}`,
        gamePort: 45000,
      }).then(async (response) => ({ status: response.status, json: await body(response) })),
    ),
  );
  t.deepEqual(same.map((result) => result.status).sort(), [201, 409, 409, 409, 409]);
  const winner = same.find((result) => result.status === 201)!.json;
  t.true(same.filter((result) => result.status === 409).every((result) => result.json.holder.serverId === winner.id));
});

test('query settings: protocol, unresponsiveAfter and restartWhenUnresponsive are validated, stored and changed', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const created = await body(
    await createServer(clusterId, user.auth, {
      machineId,
      gameType: 'CUSTOM',
      startCommand: './x',
      queryProtocol: 'A2S',
      unresponsiveAfter: 3,
      restartWhenUnresponsive: true,
    }),
  );
  t.like(created, { queryProtocol: 'A2S', unresponsiveAfter: 3, restartWhenUnresponsive: true, query: null });
  const defaults = await body(await createServer(clusterId, user.auth, { machineId, gameType: 'MINECRAFT', name: 'mc' }));
  t.like(defaults, { queryProtocol: null, unresponsiveAfter: 5, restartWhenUnresponsive: false });
  for (const bad of [
    { unresponsiveAfter: 0 },
    { unresponsiveAfter: 101 },
    { queryProtocol: 'GAMESPY' },
    { restartWhenUnresponsive: 'yes' },
    { ports: { game: 30000 } },
    { ports: { 'Bad Name': 30000 } },
  ]) {
    const response = await app().request(`/api/v1/servers/${created.id}`, json(bad, { method: 'PATCH', headers: user.auth }));
    t.is(response.status, 400, JSON.stringify(bad));
  }
  const changed = await body(
    await app().request(`/api/v1/servers/${created.id}`, json({ queryProtocol: 'NONE', unresponsiveAfter: 10 }, { method: 'PATCH', headers: user.auth })),
  );
  t.like(changed, { queryProtocol: 'NONE', unresponsiveAfter: 10, restartWhenUnresponsive: true });
  // An extra port of its own: explicit, shown, and given up when a PATCH of its ports leaves it out.
  const extra = await body(await app().request(`/api/v1/servers/${created.id}`, json({ ports: { voice: 45678 } }, { method: 'PATCH', headers: user.auth })));
  t.is(portsOf(extra).voice, 45678);
  const without = await body(await app().request(`/api/v1/servers/${created.id}`, json({ ports: {} }, { method: 'PATCH', headers: user.auth })));
  t.false('voice' in portsOf(without));
});

test('a PATCH of gamePort alone keeps a CUSTOM server its own extra ports', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const created = await body(await createServer(clusterId, user.auth, { machineId, gameType: 'CUSTOM', startCommand: './x', ports: { voice: 45678 } }));
  t.is(portsOf(created).voice, 45678);
  const moved = await body(await app().request(`/api/v1/servers/${created.id}`, json({ gamePort: 41000 }, { method: 'PATCH', headers: user.auth })));
  t.like(portsOf(moved), { game: 41000, voice: 45678 });
  const rows = await app().pool.anyFirst(sql.unsafe`SELECT name FROM server_ports WHERE server_id = ${created.id} ORDER BY name`);
  t.true(rows.includes('voice'), 'still held on the machine');
});

test('ports move only while the server is stopped: a running one is a 409 and keeps its ports', async (t) => {
  const { user, clusterId, machineId } = await setup();
  const created = await body(await createServer(clusterId, user.auth, { machineId, gameType: 'CUSTOM', startCommand: './x', ports: { voice: 45679 } }));
  const before = portsOf(created);
  for (const status of ['ONLINE', 'STARTING', 'UNRESPONSIVE', 'RESTARTING', 'STOPPING']) {
    await app().pool.query(sql.unsafe`UPDATE servers SET status = ${status} WHERE id = ${created.id}`);
    for (const patch of [{ gamePort: 42000 }, { queryPort: 42001 }, { rconPort: 42002 }, { ports: { voice: 42003 } }, { ports: {} }]) {
      const refused = await app().request(`/api/v1/servers/${created.id}`, json(patch, { method: 'PATCH', headers: user.auth }));
      t.is(refused.status, 409, `${status} ${JSON.stringify(patch)}`);
      t.regex((await body(refused)).message, /stop it before changing its ports/);
    }
    // The same ports again, or anything else, is fine while it runs.
    const same = await app().request(
      `/api/v1/servers/${created.id}`,
      json({ gamePort: before.game, name: 'renamed' }, { method: 'PATCH', headers: user.auth }),
    );
    t.is(same.status, 200);
  }
  const server = await body(await app().request(`/api/v1/servers/${created.id}`, { headers: user.auth }));
  t.deepEqual(portsOf(server), before);
  for (const status of ['OFFLINE', 'CRASHED', 'INSTALL_FAILED']) {
    await app().pool.query(sql.unsafe`UPDATE servers SET status = ${status} WHERE id = ${created.id}`);
    const port = 43000 + ['OFFLINE', 'CRASHED', 'INSTALL_FAILED'].indexOf(status) * 10;
    const moved = await app().request(`/api/v1/servers/${created.id}`, json({ gamePort: port }, { method: 'PATCH', headers: user.auth }));
    t.is(moved.status, 200, status);
    t.is(portsOf(await body(moved)).game, port);
  }
});
