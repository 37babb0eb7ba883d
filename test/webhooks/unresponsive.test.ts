/**
 * A server that turns UNRESPONSIVE with the real agent and a fake game that stops answering its A2S query: the
 * `server.status` webhook (JSON) carries the new status and why, and the Discord message tells it apart from a crash.
 */
import test from 'ava';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { FAKE_SERVER, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
const receivers: Receiver[] = [];
test.before(async () => {
  app = await startGatewayApp({
    heartbeatSeconds: 1,
    authTimeoutMs: 2_000,
    worker: true,
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    webhookRetryDelaysMs: [300, 300],
  });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await app?.close();
});

const post = (path: string, payload: unknown = {}) => app.request(path, json(payload, { headers: owner.auth }));
const statusOf = async (serverId: string) => (await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth }))).status as string;

test('UNRESPONSIVE reaches a JSON webhook with its reason and a Discord webhook as its own message, not a crash', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const first = 20_000 + Math.floor(Math.random() * 400) * 30;
  t.is((await post(`/api/v1/machines/${machineId}/port-ranges`, { firstPort: first, lastPort: first + 29 })).status, 201);
  agents.push(await startAgent({ url: app.url, machineId, token, keepServers: true, env: { GSM_QUERY_INTERVAL_MS: '300' } }));

  const [plain, discord] = await Promise.all([startReceiver(), startReceiver()]);
  receivers.push(plain, discord);
  t.is((await post(`/api/v1/clusters/${clusterId}/webhooks`, { url: `${plain.url}/json`, events: ['server.status'] })).status, 201);
  t.is((await post(`/api/v1/clusters/${clusterId}/webhooks`, { url: `${discord.url}/discord`, events: ['server.status'], format: 'DISCORD' })).status, 201);

  const created = await post(`/api/v1/clusters/${clusterId}/servers`, {
    name: 'EU #1',
    machineId,
    gameType: 'CUSTOM',
    startCommand: `${process.execPath} ${FAKE_SERVER}`,
    consoleMode: 'STDIN',
    ready: { mode: 'LINE', pattern: 'Server ready' },
    stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
    autoInstall: false,
    queryProtocol: 'A2S',
    unresponsiveAfter: 2,
    env: { FAKE_NO_RCON: '1', FAKE_QUERY: 'a2s' },
  });
  t.is(created.status, 201);
  const serverId = (await body(created)).id as string;
  t.is((await body(await post(`/api/v1/servers/${serverId}/start?wait=30`))).status, 'SUCCEEDED');
  await until(async () => (await statusOf(serverId)) === 'ONLINE', 'ONLINE', 20_000);
  // The game stops answering its query; its process lives on.
  await post(`/api/v1/servers/${serverId}/rcon?wait=10`, { command: 'sim.mute' });
  await until(async () => (await statusOf(serverId)) === 'UNRESPONSIVE', 'UNRESPONSIVE', 20_000);

  const unresponsive = (received: Receiver['received']) =>
    received.find((request) => request.body?.data?.status === 'UNRESPONSIVE' || /is UNRESPONSIVE$/.test(request.body?.embeds?.[0]?.title ?? ''));
  await until(async () => unresponsive(plain.received) !== undefined && unresponsive(discord.received) !== undefined, 'both webhooks told', 20_000);

  const event = unresponsive(plain.received)!.body;
  t.is(event.type, 'server.status');
  t.like(event.data, { serverId, status: 'UNRESPONSIVE', previous: 'ONLINE' });
  t.regex(event.data.reason, /^no answer to 2 queries in a row/);

  const [embed] = unresponsive(discord.received)!.body.embeds;
  t.is(embed.title, 'EU #1 is UNRESPONSIVE');
  t.is(embed.color, 0xf0a020, 'orange, not the red of a crash');
  t.regex(embed.description, /^Its process runs, but the game does not answer queries: no answer to 2 queries in a row/);
  t.deepEqual(
    embed.fields.filter((field: { name: string }) => field.name === 'Status' || field.name === 'Previous').map((field: { value: string }) => field.value),
    ['UNRESPONSIVE', 'ONLINE'],
  );
  t.false(discord.received.some((request) => /is CRASHED$/.test(request.body?.embeds?.[0]?.title ?? '')));
});
