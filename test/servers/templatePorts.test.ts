/**
 * A server's ports and query from its template (docs/servers.md#ports-and-allocations): a cluster template's extra
 * ports are picked free at their offsets, two servers never clash, the agent receives the allocated port numbers in
 * the resolved start command and the template's query (`queryTarget`); a template without `query` is not queried;
 * the server's own queryProtocol wins; a template change re-plans the ports; a server without template keeps its
 * game's plan.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessRuntime } from '../../agent/runtime/processRuntime.ts';
import { ServerSupervisor } from '../../agent/servers/serverSupervisor.ts';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { createMachineStore } from '../../orchestrator/gateway/machineStore.ts';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const document = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Game ${id}`,
  start: { command: './game --port {{GAME_PORT}} --app {{PORT_APP}}' },
  ready: { mode: 'IMMEDIATE' },
  stop: { mode: 'SIGNAL', signal: 'SIGINT' },
  console: { mode: 'NONE' },
  ports: [
    { name: 'game', protocol: 'tcp+udp' },
    { name: 'query', protocol: 'udp', offset: 1 },
    { name: 'rcon', protocol: 'tcp' },
    { name: 'app', protocol: 'tcp', offset: 67 },
  ],
  query: { protocol: 'A2S', port: 'query' },
  ...extra,
});

type Server = { id: string; gamePort: number; queryPort: number; rconPort: number; ports: { name: string; port: number; protocol: string }[] };
const portsOf = (server: Server) => Object.fromEntries(server.ports.map((entry) => [entry.name, entry.port]));

async function setup() {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const machine = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host-1' }, { headers: user.auth })));
  const machineId = machine.id as string;
  const range = await app().request(`/api/v1/machines/${machineId}/port-ranges`, json({ firstPort: 40000, lastPort: 40200 }, { headers: user.auth }));
  if (range.status !== 201) throw new Error(`range: ${range.status}`);
  const template = async (doc: unknown) => {
    const response = await app().request(`/api/v1/clusters/${clusterId}/templates`, json(doc, { headers: user.auth }));
    if (response.status !== 201) throw new Error(`template: ${response.status} ${JSON.stringify(await body(response))}`);
    return (await body(response)).id as string;
  };
  const create = (payload: Record<string, unknown>) =>
    app().request(`/api/v1/clusters/${clusterId}/servers`, json({ name: 'srv', autoInstall: false, machineId, ...payload }, { headers: user.auth }));
  const patch = (serverId: string, payload: unknown) => app().request(`/api/v1/servers/${serverId}`, json(payload, { method: 'PATCH', headers: user.auth }));
  const synced = async (serverId: string) => (await createMachineStore(app().pool).serverConfigs(machineId)).find((config) => config.id === serverId)!;
  return { user, clusterId, machineId, template, create, patch, synced };
}

test("a cluster template's extra app port (+67) is picked free from the range, and a second server does not clash", async (t) => {
  const { template, create, synced } = await setup();
  const templateId = await template(document('app-game'));
  const first = await create({ name: 'one', gameType: 'CUSTOM', templateId });
  const one = (await body(first)) as Server;
  t.is(first.status, 201, JSON.stringify(one));
  t.deepEqual(portsOf(one), { game: 40000, query: 40001, rcon: 40002, app: 40067 });
  t.like(one, { gamePort: 40000, queryPort: 40001, rconPort: 40002 });
  t.deepEqual(
    one.ports.find((entry) => entry.name === 'app'),
    { name: 'app', port: 40067, protocol: 'TCP' },
  );
  t.is(one.ports.find((entry) => entry.name === 'query')!.protocol, 'UDP', "the template's protocol");

  const second = await create({ name: 'two', gameType: 'CUSTOM', templateId });
  t.is(second.status, 201);
  const two = (await body(second)) as Server;
  const [taken, mine] = [Object.values(portsOf(one)), Object.values(portsOf(two))];
  t.deepEqual(
    mine.filter((port) => taken.includes(port)),
    [],
    'no port of the second server is one of the first',
  );
  t.is(new Set(mine).size, 4);
  t.is(portsOf(two).app, portsOf(two).game! + 67, 'the offset holds where it fits');
  t.true(mine.every((port) => port >= 40000 && port <= 40200));

  // The agent gets the allocated app port in the start command and the template's query.
  const config = await synced(two.id);
  t.is(config.startCommand, `./game --port ${two.gamePort} --app ${portsOf(two).app}`);
  t.deepEqual(config.queryTarget, { protocol: 'A2S', port: 'query' });
});

test("an app port that does not fit at its offset is any free port; a template without query is not queried; the server's own protocol wins", async (t) => {
  const { template, create, synced } = await setup();
  // 40000..40200: a game port at 40150 leaves no room at +67, so app goes to the first free port.
  const templateId = await template(document('unqueried', { query: undefined }));
  const created = await create({ name: 'high', gameType: 'CUSTOM', templateId, gamePort: 40150, queryPort: 40151, rconPort: 40152 });
  const server = (await body(created)) as Server;
  t.is(created.status, 201, JSON.stringify(server));
  t.is(portsOf(server).app, 40000);
  t.is((await synced(server.id)).queryTarget, null, 'no query in the template: never queried');

  const own = (await body(await create({ name: 'own', gameType: 'CUSTOM', templateId, queryProtocol: 'TCP' }))) as Server;
  t.deepEqual((await synced(own.id)).queryTarget, { protocol: 'TCP', port: 'game' });

  // A template's MINECRAFT query on a UDP port: Server List Ping needs TCP, so the game port.
  const minecraft = (await body(await create({ name: 'mc', gameType: 'MINECRAFT' }))) as Server;
  t.deepEqual((await synced(minecraft.id)).queryTarget, { protocol: 'MINECRAFT', port: 'game' });
});

test('changing the template re-plans the ports: the old extras are given up, the new ones picked', async (t) => {
  const { template, create, patch } = await setup();
  const withApp = await template(document('with-app'));
  const without = await template(
    document('without-app', {
      start: { command: './game' },
      query: undefined,
      ports: [
        { name: 'game', protocol: 'udp' },
        { name: 'voice', protocol: 'udp', offset: 5 },
      ],
    }),
  );
  const server = (await body(await create({ name: 's', gameType: 'CUSTOM', templateId: withApp }))) as Server;
  t.deepEqual(portsOf(server), { game: 40000, query: 40001, rcon: 40002, app: 40067 });
  const changed = await patch(server.id, { templateId: without });
  const after = (await body(changed)) as Server;
  t.is(changed.status, 200, JSON.stringify(after));
  t.deepEqual(portsOf(after), { game: 40000, query: 40001, rcon: 40002, voice: 40005 });
  // The app port is free again: another server may take it.
  const other = await create({ name: 'o', gameType: 'CUSTOM', startCommand: './run', ports: { app: 40067 } });
  t.is(other.status, 201, JSON.stringify(await other.text()));
});

test("the agent queries the service's queryTarget (protocol and named port); without one, its game's plan as before", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-query-target-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const base: ServerConfig = {
    id: '00000000-0000-4000-8000-000000000036',
    name: 'target',
    gameType: 'CUSTOM',
    gamePort: 40000,
    queryPort: 40001,
    rconPort: 40002,
    rconPassword: 'unused-password',
    maxPlayers: 16,
    desiredStatus: 'STOPPED',
    autoRestart: false,
    startCommand: './game',
    env: null,
    ports: [
      { name: 'game', port: 40000, protocol: 'BOTH' },
      { name: 'query', port: 40001, protocol: 'UDP' },
      { name: 'rcon', port: 40002, protocol: 'TCP' },
      { name: 'app', port: 40067, protocol: 'TCP' },
    ],
  };
  const targetOf = async (own: Partial<ServerConfig>) => {
    const supervisor = new ServerSupervisor({ ...base, ...own }, { dataDir, runtime: new ProcessRuntime(), report: () => undefined });
    const target = supervisor.queryTarget;
    await supervisor.dispose();
    return target;
  };
  t.deepEqual(await targetOf({ queryTarget: { protocol: 'TCP', port: 'app' } }), { protocol: 'TCP', port: 40067 });
  t.deepEqual(await targetOf({ queryTarget: { protocol: 'A2S', port: 'game' }, queryProtocol: 'A2S' }), { protocol: 'A2S', port: 40000 });
  t.is(await targetOf({ queryTarget: null, queryProtocol: null }), undefined, 'null: not queried');
  t.is(await targetOf({}), undefined, 'CUSTOM without protocol or target: not queried');
  t.deepEqual(await targetOf({ queryProtocol: 'A2S' }), { protocol: 'A2S', port: 40001 }, 'no target: the game plan with its own protocol');
});
