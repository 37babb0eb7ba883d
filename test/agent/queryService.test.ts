/**
 * Ports and query end to end: the service, the real agent (`gsm-agent run`) and the fake game answering real A2S on
 * UDP and Server List Ping on TCP. Ports picked from the machine's range reach the game; the record's `query` and the
 * players come from the query (sessions and the metrics history's players, as its console says nothing); a server that stops answering is UNRESPONSIVE (event and statusReason), ONLINE again
 * when it answers, and restarted only with restartWhenUnresponsive; a port held on the host fails a START with
 * PORT_IN_USE naming the process.
 */
import test from 'ava';
import { createServer } from 'node:net';
import { until } from '../support/wait.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { FAKE_SERVER, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

type Server = { id: string; status: string; statusReason: string | null; query: Record<string, unknown> | null; playersOnline: number } & Record<
  string,
  unknown
>;
const getServer = async (serverId: string) => (await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth }))) as Server;
const reaches = (serverId: string, status: string, timeoutMs = 20_000) =>
  until(async () => (await getServer(serverId)).status === status, `server ${status}`, timeoutMs);
const post = (path: string, payload: unknown = {}) => app.request(path, json(payload, { headers: owner.auth }));
const patch = (serverId: string, payload: unknown) => app.request(`/api/v1/servers/${serverId}`, json(payload, { method: 'PATCH', headers: owner.auth }));

/** A machine with a free port range of 30 (found by asking the OS) and the real agent querying every 300 ms. */
async function machineWithAgent() {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  // Below the ephemeral ports (32768 and up on Linux), where outgoing connections would take ports of the range.
  const first = 20_000 + Math.floor(Math.random() * 400) * 30;
  const portRange = { firstPort: first, lastPort: first + 29 };
  const range = await post(`/api/v1/machines/${machineId}/port-ranges`, portRange);
  if (range.status !== 201) throw new Error(JSON.stringify(await body(range)));
  const agent = await startAgent({ url: app.url, machineId, token, keepServers: true, env: { GSM_QUERY_INTERVAL_MS: '300' } });
  agents.push(agent);
  return { clusterId, machineId, agent, portRange };
}

const fakeCustom = (extra: Record<string, unknown>) => ({
  name: 'queried',
  gameType: 'CUSTOM',
  startCommand: `${process.execPath} ${FAKE_SERVER}`,
  consoleMode: 'STDIN',
  ready: { mode: 'LINE', pattern: 'Server ready|Done \\(' },
  stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
  autoInstall: false,
  unresponsiveAfter: 2,
  ...extra,
});

test('A2S: query state and players from the query, UNRESPONSIVE and back, restarted only when asked', async (t) => {
  const { clusterId, machineId, agent, portRange } = await machineWithAgent();
  const created = await post(
    `/api/v1/clusters/${clusterId}/servers`,
    fakeCustom({ machineId, queryProtocol: 'A2S', env: { FAKE_NO_RCON: '1', FAKE_QUERY: 'a2s', FAKE_PLAYERS: '1:Alice,2:Bob', FAKE_MAP: 'de_dust2' } }),
  );
  t.is(created.status, 201);
  const server = (await body(created)) as Server & { ports: { name: string; port: number }[] };
  t.true(
    server.ports.every((entry) => entry.port >= portRange.firstPort && entry.port <= portRange.lastPort),
    'picked from the range',
  );
  const started = await body(await post(`/api/v1/servers/${server.id}/start?wait=30`));
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
  await reaches(server.id, 'ONLINE');
  await until(async () => (await getServer(server.id)).query?.answering === true, 'the query answered');
  const { query } = await getServer(server.id);
  t.like(query, { protocol: 'A2S', answering: true, players: 2, maxPlayers: 32, map: 'de_dust2', version: '2.0.0', failures: 0, error: null });
  t.deepEqual(query!.playerNames, ['Alice', 'Bob']);
  t.regex(String(query!.checkedAt), /^\d{4}-\d\d-\d\dT/);
  // Its console says nothing of players: the query's names open their sessions.
  await until(async () => (await getServer(server.id)).playersOnline === 2, 'two players online from the query');
  const players = await body(await app.request(`/api/v1/clusters/${clusterId}/players?search=Alice`, { headers: owner.auth }));
  t.is(players.data.length, 1);
  // The metrics history's players are the query's count too (the agent's stats carry it; the gateway's minute points).
  await until(async () => {
    await app.gateway.metrics.flush();
    const history = await body(await app.request(`/api/v1/servers/${server.id}/metrics`, { headers: owner.auth }));
    return (history.points as { playersOnline: { max: number } }[]).some((point) => point.playersOnline.max === 2);
  }, 'two players in the metrics history');
  // Bob leaves: he drops out of the query, so his session closes (the console says nothing of it either).
  t.is((await post(`/api/v1/servers/${server.id}/rcon?wait=10`, { command: 'sim.leave 2' })).status, 200);
  await until(async () => (await getServer(server.id)).playersOnline === 1, 'one player online from the query');
  const online = async (name: string) =>
    (await body(await app.request(`/api/v1/clusters/${clusterId}/players?search=${name}&online=true`, { headers: owner.auth }))).data.length;
  await until(async () => (await online('Bob')) === 0, "Bob's session closed");
  t.is(await online('Alice'), 1);

  // The game stops answering (its process lives on): UNRESPONSIVE after 2 failed queries, with why; not restarted.
  await post(`/api/v1/servers/${server.id}/rcon?wait=10`, { command: 'sim.mute' });
  await reaches(server.id, 'UNRESPONSIVE');
  t.regex(String((await getServer(server.id)).statusReason), /^no answer to 2 queries in a row/);
  const statusEvents = async () =>
    (await body(await app.request(`/api/v1/clusters/${clusterId}/events?types=server.status&serverId=${server.id}&limit=100`, { headers: owner.auth })))
      .data as {
      data: { status: string; previous: string; reason: string | null };
    }[];
  // Events are sequenced a moment after their change commits.
  await until(
    async () => (await statusEvents()).some((event) => event.data.status === 'UNRESPONSIVE' && event.data.previous === 'ONLINE'),
    'the UNRESPONSIVE event',
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.is((await getServer(server.id)).status, 'UNRESPONSIVE', 'restartWhenUnresponsive is off');
  t.false((await getServer(server.id)).query!.answering as boolean);
  // A console command still reaches an UNRESPONSIVE game; answering again, it is ONLINE.
  t.is((await post(`/api/v1/servers/${server.id}/rcon?wait=10`, { command: 'sim.unmute' })).status, 200);
  await reaches(server.id, 'ONLINE');
  t.is((await getServer(server.id)).statusReason, 'answering queries again');

  // Asked for: the crash policy restarts it, saying why.
  t.is((await patch(server.id, { restartWhenUnresponsive: true })).status, 200);
  // The PATCH reaches the agent with the next servers:sync, at once.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const launchesBefore = agent.lines.filter((line) => line.includes(server.id) && line.includes('"msg":"server STARTING"')).length;
  await post(`/api/v1/servers/${server.id}/rcon?wait=10`, { command: 'sim.mute' });
  await until(
    async () => agent.lines.filter((line) => line.includes(server.id) && line.includes('"msg":"server STARTING"')).length > launchesBefore,
    'started again',
  );
  await reaches(server.id, 'ONLINE');
  await until(
    async () =>
      (await statusEvents()).some(
        (event) => event.data.status === 'RESTARTING' && /^restarted by the agent: unresponsive, no answer to 2 queries/.test(event.data.reason ?? ''),
      ),
    'the RESTARTING event saying why',
  );
  await until(async () => (await getServer(server.id)).query?.answering === true, 'answering after the restart');
});

test('Minecraft Server List Ping: the query of a stdin-console game; a port held on the host fails a START with PORT_IN_USE', async (t) => {
  const { clusterId, machineId } = await machineWithAgent();
  const created = await post(
    `/api/v1/clusters/${clusterId}/servers`,
    fakeCustom({ machineId, queryProtocol: 'MINECRAFT', env: { FAKE_MODE: 'minecraft', FAKE_QUERY: 'minecraft', FAKE_PLAYERS: 'Steve' } }),
  );
  const server = (await body(created)) as Server & { gamePort: number; ports: { name: string; port: number }[] };
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`)).status, 200);
  await until(async () => (await getServer(server.id)).query?.answering === true, 'the ping answered');
  const answered = (await getServer(server.id)).query!;
  t.like(answered, { protocol: 'MINECRAFT', players: 1, maxPlayers: 32, version: '1.21.4' });
  t.is((await post(`/api/v1/servers/${server.id}/stop?wait=30`)).status, 200);
  // Stopped, it no longer shows the last answer as a game answering with players (what it was stays: version, max).
  await reaches(server.id, 'OFFLINE');
  const stopped = (await getServer(server.id)).query!;
  t.like(stopped, { protocol: 'MINECRAFT', answering: false, players: 0, maxPlayers: 32, version: '1.21.4', error: 'not running (OFFLINE)' });
  t.true(Date.parse(String(stopped.checkedAt)) >= Date.parse(String(answered.checkedAt)));
  t.is((await getServer(server.id)).playersOnline, 0);

  // Another process on the machine holds the server's game port: the START fails, naming it.
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(server.gamePort, '0.0.0.0', () => resolve()));
  t.teardown(() => holder.close());
  await patch(server.id, { autoRestart: false });
  const started = await body(await post(`/api/v1/servers/${server.id}/start?wait=30`));
  t.is(started.status, 'FAILED');
  t.is(started.error.code, 'PORT_IN_USE');
  t.regex(started.error.message, new RegExp(`port ${server.gamePort}/TCP \\(its game port\\) is in use: held by pid ${process.pid} `));
  await reaches(server.id, 'CRASHED');
  t.regex(String((await getServer(server.id)).statusReason), /^PORT_IN_USE: /);
});
