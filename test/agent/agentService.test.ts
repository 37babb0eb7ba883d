/**
 * The real agent process against the real service (gateway) and the fake game server as its child: authentication,
 * start → ONLINE, crash → CRASHED → auto-restart, graceful stop, a hung server killed, the Minecraft console variant,
 * a wrong RCON password reported clearly, and reconnection. Start and stop are asked for through the server's
 * desired status (the power endpoints come with durable jobs).
 */
import test from 'ava';
import { sql } from 'slonik';
import { SourceRconClient } from '../../agent/rcon/sourceRcon.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { until } from '../support/wait.ts';
import { body, json } from '../support/app.ts';
import { createCluster, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, FAKE_SERVER, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000 });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

async function machineWithAgent() {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  return { clusterId, machineId, token, agent };
}

/** What the power jobs will do: set the desired status; the agent reconciles towards it. */
async function desire(serverId: string, machineId: string, status: 'RUNNING' | 'STOPPED') {
  await app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`UPDATE servers SET desired_status = ${status} WHERE id = ${serverId}`);
    await notifyAgent(tx, { type: 'servers_changed', machineId });
  });
}

const statusOf = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));

const reaches = (serverId: string, status: string, timeoutMs?: number) =>
  until(async () => (await statusOf(serverId)) === status, `server ${status}`, timeoutMs);
/**
 * A status the server holds only for a moment (CRASHED before its restart, STOPPING): read from the agent's log of its
 * reports, which polling the service could miss on a loaded machine.
 */
const reported = (agent: AgentProcess, serverId: string, status: string, timeoutMs?: number) =>
  until(
    async () => agent.lines.some((line) => line.includes(`"serverId":"${serverId}"`) && line.includes(`"msg":"server ${status}"`)),
    `server ${status} reported`,
    timeoutMs,
  );

/** The size-capped console log the agent keeps per server. */
const consoleLog = async (agent: AgentProcess, serverId: string) => {
  const { readFile } = await import('node:fs/promises');
  return readFile(`${agent.dataDir}/logs/${serverId}/console.log`, 'utf8');
};
const rcon = (server: { rconPort: number }) =>
  new SourceRconClient({ host: '127.0.0.1', port: server.rconPort, password: 'fake-password', commandTimeoutMs: 2_000 });

test.serial('the agent authenticates; start → ONLINE; crash → CRASHED → auto-restart → ONLINE; graceful stop → OFFLINE', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  // ONLINE once authenticated; the host's facts and metrics come with its first heartbeat, a moment later.
  let machine: Record<string, unknown> = {};
  await until(async () => {
    machine = await body(await app.request(`/api/v1/machines/${machineId}`, { headers: owner.auth }));
    return machine.status === 'ONLINE' && machine.metrics !== null;
  }, 'machine ONLINE with its first heartbeat');
  t.truthy(machine.agentVersion);
  t.truthy(machine.hostname);
  t.truthy(machine.metrics);

  const server = await createFakeServer(app, owner, clusterId, machineId);
  await reaches(server.id, 'OFFLINE');
  await desire(server.id, machineId, 'RUNNING');
  await reaches(server.id, 'ONLINE');
  const client = rcon(server);
  t.is(await client.command('echo hello'), 'hello');
  // Players joining in the game show up through the agent's periodic snapshots.
  await client.command('sim.join 76561198000000001 alice');
  await client.command('sim.join 76561198000000002 bob');
  await until(async () => (await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))).playersOnline === 2, 'two players online');
  await client.command('sim.leave 76561198000000001');
  await until(async () => (await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))).playersOnline === 1, 'one player online');

  // An unasked exit: CRASHED, then (autoRestart) STARTING after 1 s, then ONLINE again.
  await client.command('sim.crash').catch(() => undefined);
  await client.close();
  await reported(agent, server.id, 'CRASHED', 5_000);
  await reaches(server.id, 'ONLINE', 10_000);
  t.regex(await consoleLog(agent, server.id), /Segmentation fault/, "the game's output is kept in its console log");

  await desire(server.id, machineId, 'STOPPED');
  await reaches(server.id, 'OFFLINE');
  t.regex(await consoleLog(agent, server.id), /Shutting down/, "stopped with the game's own stop command");
});

test.serial('an RCON answer holding NUL ends the job SUCCEEDED, stored without the NUL, and leaves the outbox empty', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId);
  await reaches(server.id, 'OFFLINE');
  await desire(server.id, machineId, 'RUNNING');
  await reaches(server.id, 'ONLINE');
  const answer = await app.request(`/api/v1/servers/${server.id}/rcon?wait=30`, json({ command: 'nulreply' }, { headers: owner.auth }));
  t.is(answer.status, 200);
  t.like(await body(answer), { success: true, status: 'SUCCEEDED', output: 'beforeafter' });
  // Acknowledged: nothing left for the agent to send again after a reconnect.
  const { readdir } = await import('node:fs/promises');
  await until(async () => (await readdir(`${agent.dataDir}/jobs/outbox`)).length === 0, 'the result acknowledged');
  await desire(server.id, machineId, 'STOPPED');
  await reaches(server.id, 'OFFLINE');
});

test.serial('a hung server is killed after the stop timeouts', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId);
  await desire(server.id, machineId, 'RUNNING');
  await reaches(server.id, 'ONLINE');
  const client = rcon(server);
  await client.command('sim.hang').catch(() => undefined);
  await client.close();
  const started = Date.now();
  await desire(server.id, machineId, 'STOPPED');
  await reported(agent, server.id, 'STOPPING', 5_000);
  await reaches(server.id, 'OFFLINE', 10_000);
  // stop-timeout 1 s: SIGTERM at 1 s (ignored), SIGKILL at 2 s.
  t.true(Date.now() - started >= 1_500, 'not before the escalation');
});

test.serial('MINECRAFT: console over stdin, ready on the Done line, server.properties written, graceful stop', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, { gameType: 'MINECRAFT', env: { FAKE_MODE: 'minecraft' }, maxPlayers: 7 });
  await desire(server.id, machineId, 'RUNNING');
  await reaches(server.id, 'ONLINE');
  const { readFile } = await import('node:fs/promises');
  const properties = await readFile(`${agent.dataDir}/servers/${server.id}/server.properties`, 'utf8');
  t.regex(properties, /max-players=7/);
  t.regex(await consoleLog(agent, server.id), /Done \(/);
  await desire(server.id, machineId, 'STOPPED');
  await reaches(server.id, 'OFFLINE');
  t.regex(await consoleLog(agent, server.id), /Stopping the server/);
});

test.serial('a wrong RCON password is reported clearly', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  // The game is started with another password than the one the service gave the agent.
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    startCommand: `/usr/bin/env RCON_PASSWORD=not-the-password ${process.execPath} ${FAKE_SERVER}`,
    autoRestart: false,
  });
  await desire(server.id, machineId, 'RUNNING');
  await reaches(server.id, 'CRASHED');
  await until(async () => agent.lines.some((line) => line.includes('RCON refused the password')), 'the reason in the agent log');
  t.true(agent.lines.some((line) => line.includes('wrong RCON password')));
});

test.serial('the agent reconnects after the gateway drops it, and reports its servers again', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId);
  await desire(server.id, machineId, 'RUNNING');
  await reaches(server.id, 'ONLINE');
  // Drop the session from the service side (as a restart of the gateway would): machine OFFLINE, server UNKNOWN…
  app.gateway.session(machineId)!.link.close();
  await reaches(server.id, 'UNKNOWN', 5_000);
  // …then the agent is back within its back-off and reports the truth.
  await reaches(server.id, 'ONLINE', 10_000);
  await until(async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`)) === 'ONLINE', 'machine ONLINE');
  await until(async () => agent.lines.some((line) => line.includes('disconnected from the gateway')), 'the agent logs the disconnect');
  t.is(await statusOf(server.id), 'ONLINE', 'the game kept running through the reconnect');
  await desire(server.id, machineId, 'STOPPED');
  await reaches(server.id, 'OFFLINE');
});

test.serial('the agent reconnects after the service itself restarts', async (t) => {
  const { spawn } = await import('node:child_process');
  const [port] = await freePorts(1);
  const startService = () => {
    const child = spawn(process.execPath, ['main.ts', '--role=all'], {
      env: { ...process.env, DATABASE_URL: app.database.url, PORT: String(port), AGENT_HEARTBEAT_SECONDS: '1', RATE_LIMIT: 'off', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
  };
  let service = startService();
  t.teardown(() => void service.child.kill('SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 'service ready');

  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const agent = await startAgent({ url, machineId: machine.id, token: machine.agentToken });
  agents.push(agent);
  const machineStatus = async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machine.id}`));
  await until(async () => (await machineStatus()) === 'ONLINE', 'machine ONLINE');

  service.child.kill('SIGTERM');
  await service.exited;
  await until(async () => (await machineStatus()) === 'OFFLINE', 'machine OFFLINE while the service is down', 10_000);
  service = startService();
  await until(async () => (await machineStatus()) === 'ONLINE', 'machine ONLINE again after the restart', 30_000);
  t.true(agent.child.exitCode === null, 'the agent kept running');
});
