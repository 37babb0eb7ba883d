/**
 * What a fleet upgrade's roll judges, with agents that play each part over the real gateway (Socket.IO clients speaking
 * the protocol): a machine is back only once its new agent has reported every server it was running as running in the
 * same process (pid and start time: adopted); a status left from before the upgrade is never taken for the new agent's,
 * and a restarted server fails the roll, saying why. An agent that accepted the command and came back on its old
 * version (rolled back) fails at once and is not sent the command again in that roll; a new roll sends it. A quiet
 * agent (downloading) is not told again over the same connection before the gateway's wait for its answer has passed,
 * and only reconnections on the old version count toward the sends; what must be adopted is taken again at the accept.
 */
import test from 'ava';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'slonik';
import { z } from 'zod';
import { io } from 'socket.io-client';
import { VERSION } from '../../api/service.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine } from '../support/agentProcess.ts';
import { packageOfVersion } from '../support/agentPackages.ts';
import { until } from '../support/wait.ts';
import { advanceAgentUpgrades } from '../../orchestrator/machines/upgradeRoll.ts';

const [major, minor, patch] = VERSION.split('.').map(Number) as [number, number, number];
const NEW_VERSION = `${major}.${minor}.${patch + 1}`;

let app: GatewayApp;
let owner: TestUser;

test.before(async () => {
  const work = await mkdtemp(join(tmpdir(), 'gsm-rollchecks-'));
  await writeFile(join(work, 'new.tgz'), await packageOfVersion(NEW_VERSION));
  // The production reconnect grace: a restarting agent's servers keep their last status meanwhile (the stale one).
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true, reconnectGraceSeconds: 15, env: { AGENT_PACKAGE_FILE: join(work, 'new.tgz') } });
  owner = await signUp(app);
});
test.after.always(async () => {
  await app?.close();
});

type Command = { upgradeId: string; version: string };

/** One connection of an agent of `version`: it answers upgrade commands as `answer` says and beats while open. */
async function connect(machine: { machineId: string; token: string }, version: string, answer: 'accept' | 'silent') {
  const socket = io(app.url, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
  const commands: Command[] = [];
  /** The answers a silent agent has not given yet. */
  const acks: ((answer: unknown) => void)[] = [];
  socket.on('agent:upgrade', (data: Command, ack: (answer: unknown) => void) => {
    commands.push(data);
    if (answer === 'accept') ack({ accepted: true, version: data.version });
    else acks.push(ack);
  });
  const authenticated = new Promise<{ features?: string[] }>((resolve) => socket.once('authenticated', resolve));
  socket.emit('auth', { token: machine.token, machineId: machine.machineId, version });
  const hello = await authenticated;
  const beats = setInterval(() => socket.emit('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 }), 500);
  return {
    hello,
    commands,
    acks,
    /** Reports a server's status (with the process it runs as), answered once stored. */
    report: (serverId: string, status: string, process?: { pid: number; startedAt: string; adopted: boolean }) =>
      socket.emitWithAck('server:status', { serverId, status, at: new Date().toISOString(), ...(process ? { process } : {}) }) as Promise<{
        accepted: boolean;
      }>,
    close: () => {
      clearInterval(beats);
      socket.close();
    },
  };
}
type Connection = Awaited<ReturnType<typeof connect>>;

/** A machine of its own cluster with one server its agent runs as pid 4242 (ONLINE), and that agent's connection. */
async function runningMachine(t: { teardown: (f: () => void) => void }, answer: 'accept' | 'silent' = 'accept') {
  const machine = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, machine.clusterId, machine.machineId);
  await app.pool.query(sql.unsafe`UPDATE servers SET desired_status = 'RUNNING' WHERE id = ${server.id}`);
  const connections: Connection[] = [];
  const open = async (version: string, answer: 'accept' | 'silent' = 'accept') => {
    const connection = await connect(machine, version, answer);
    connections.push(connection);
    return connection;
  };
  t.teardown(() => connections.forEach((connection) => connection.close()));
  const first = await open(VERSION, answer);
  const before = { pid: 4242, startedAt: '2026-01-02T03:04:05.678Z', adopted: false };
  if (!(await first.report(server.id, 'ONLINE', before)).accepted) throw new Error('the status was not stored');
  return { ...machine, serverId: server.id, before, first, open };
}

const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));

async function startRoll(clusterId: string, extra: Record<string, unknown> = {}) {
  const response = await app.request(`/api/v1/clusters/${clusterId}/machines/upgrade`, json({ batchSize: 1, ...extra }, { headers: owner.auth }));
  if (response.status !== 202) throw new Error(`the roll did not start: ${response.status} ${await response.text()}`);
  return (await body(response)).id as string;
}

async function rollEnd(clusterId: string, upgradeId: string) {
  const path = `/api/v1/clusters/${clusterId}/machines/upgrades/${upgradeId}`;
  await until(async () => (await get(path)).state !== 'RUNNING', 'the roll to end', 60_000);
  return get(path);
}

type RunningMachine = Awaited<ReturnType<typeof runningMachine>>;
type ReportedProcess = { pid: number; startedAt: string; adopted: boolean };

/** The old agent goes; one of `version` connects and reports the server (with `process`, if given); answers the roll's end. */
async function backOn(machine: RunningMachine, upgradeId: string, version: string, process?: ReportedProcess) {
  machine.first.close();
  const agent = await machine.open(version);
  await agent.report(machine.serverId, 'ONLINE', process);
  return rollEnd(machine.clusterId, upgradeId);
}

test('the service announces that it takes the process of a status', async (t) => {
  const machine = await runningMachine(t);
  t.deepEqual(machine.first.hello.features, ['serverProcess', 'templateVersion', 'diskFree', 'consoleSeen']);
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT process_pid FROM servers WHERE id = ${machine.serverId}`)), '4242');
});

test('a server the new agent reports in the same process (adopted) lets the machine succeed', async (t) => {
  const machine = await runningMachine(t);
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  machine.first.close();
  const upgraded = await machine.open(NEW_VERSION);
  t.true((await upgraded.report(machine.serverId, 'ONLINE', { ...machine.before, adopted: true })).accepted);
  const done = await rollEnd(machine.clusterId, upgradeId);
  t.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  t.like(done.machines[0], { state: 'SUCCEEDED', fromVersion: VERSION, toVersion: NEW_VERSION, servers: 1 });
});

test('a status left from before the upgrade is not taken for the new agent’s: the machine fails when its server is never reported', async (t) => {
  const machine = await runningMachine(t);
  const upgradeId = await startRoll(machine.clusterId, { timeoutSeconds: 10 });
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  machine.first.close();
  // Back on the new version, but the server is not reported: its ONLINE is the old agent's (kept by the grace).
  await machine.open(NEW_VERSION);
  const done = await rollEnd(machine.clusterId, upgradeId);
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${machine.serverId}`)), 'ONLINE');
  t.is(done.state, 'FAILED');
  t.is(done.reason, `machine host: server fake (${machine.serverId}) is not reported by the new agent yet 10 s after the upgrade started`);
});

test('a server the new agent restarted instead of adopting fails the roll, naming both processes', async (t) => {
  const machine = await runningMachine(t);
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  const done = await backOn(machine, upgradeId, NEW_VERSION, { pid: 5151, startedAt: '2026-01-02T03:09:00.000Z', adopted: false });
  t.is(done.state, 'FAILED');
  t.is(
    done.reason,
    `machine host: server fake (${machine.serverId}) was restarted, not adopted: it ran as pid 4242 started 2026-01-02T03:04:05.678Z before the upgrade, now as pid 5151 started 2026-01-02T03:09:00.000Z`,
  );
});

test('an agent that accepted and came back on its old version (rolled back) fails at once, is not sent the command again, and a new roll may retry', async (t) => {
  const machine = await runningMachine(t);
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  // The accept is recorded before the agent goes (it answers, then restarts).
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT accepted_at IS NOT NULL FROM agent_upgrade_machines WHERE upgrade_id = ${upgradeId}`)) === true,
    'the accept recorded',
  );
  machine.first.close();
  const back = await machine.open(VERSION);
  await back.report(machine.serverId, 'ONLINE', { ...machine.before, adopted: true });
  const done = await rollEnd(machine.clusterId, upgradeId);
  t.is(done.state, 'FAILED');
  t.is(
    done.reason,
    `machine host: its agent accepted the upgrade to ${NEW_VERSION} but came back on ${VERSION}: the new agent was rolled back (see the agent's log); this roll does not try it again`,
  );
  t.is(machine.first.commands.length, 1);
  t.deepEqual(back.commands, [], 'not sent again in the same roll');

  const retry = await startRoll(machine.clusterId, { machineIds: [machine.machineId] });
  t.not(retry, upgradeId);
  await until(async () => back.commands.length > 0, 'the new roll’s command');
  t.is(back.commands[0]!.upgradeId, retry);
});

test('an agent that keeps coming back on its old version without answering is sent the command three times, then fails the roll', async (t) => {
  const machine = await runningMachine(t, 'silent');
  const upgradeId = await startRoll(machine.clusterId);
  let connection = machine.first;
  let sent = 0;
  const path = `/api/v1/clusters/${machine.clusterId}/machines/upgrades/${upgradeId}`;
  while ((await get(path)).state === 'RUNNING') {
    const current = connection;
    await until(async () => current.commands.length > 0 || (await get(path)).state !== 'RUNNING', 'a command or the roll’s end');
    sent += current.commands.length;
    if ((await get(path)).state !== 'RUNNING') break;
    // The command is lost with the connection: the agent comes back on its old version, having answered nothing.
    current.close();
    connection = await machine.open(VERSION, 'silent');
  }
  const done = await get(path);
  t.is(done.state, 'FAILED');
  t.is(done.reason, `machine host: its agent came back on ${VERSION} each of the 3 times the upgrade was sent; this roll does not send it again`);
  t.is(sent, 3);
});

/** The machine's row in the roll. */
const rollMachine = (upgradeId: string) =>
  app.pool.one(
    sql.type(
      z.object({ state: z.string(), sends: z.number(), accepted: z.boolean() }),
    )`SELECT state, sends, accepted_at IS NOT NULL AS accepted FROM agent_upgrade_machines WHERE upgrade_id = ${upgradeId}`,
  );

test('a quiet agent (still downloading) is not told again over the same connection, and one reconnect does not fail it', async (t) => {
  const machine = await runningMachine(t, 'silent');
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  // A minute of silence at each of several steps: well within the gateway's wait for the answer.
  for (let poll = 0; poll < 4; poll++) {
    await app.pool.query(sql.unsafe`UPDATE agent_upgrade_machines SET sent_at = now() - interval '60 seconds' WHERE upgrade_id = ${upgradeId}`);
    await advanceAgentUpgrades(app.pool);
  }
  t.like(await rollMachine(upgradeId), { state: 'UPGRADING', sends: 1 });
  // Its connection drops once: it comes back on its old version and is told again over the new connection.
  machine.first.close();
  const back = await machine.open(VERSION, 'silent');
  await until(async () => back.commands.length > 0, 'the command over the new connection');
  t.like(await rollMachine(upgradeId), { state: 'UPGRADING', sends: 2 });
  t.is(machine.first.commands.length, 1, 'not sent again over the quiet connection');
  back.close();
  const upgraded = await machine.open(NEW_VERSION);
  await upgraded.report(machine.serverId, 'ONLINE', { ...machine.before, adopted: true });
  const done = await rollEnd(machine.clusterId, upgradeId);
  t.is(done.state, 'SUCCEEDED', JSON.stringify(done));
});

test('a quiet agent is told again over the same connection once the gateway stopped waiting for its answer, which does not count as a send', async (t) => {
  const machine = await runningMachine(t, 'silent');
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  await app.pool.query(sql.unsafe`UPDATE agent_upgrade_machines SET sent_at = now() - interval '200 seconds' WHERE upgrade_id = ${upgradeId}`);
  await advanceAgentUpgrades(app.pool);
  await until(async () => machine.first.commands.length > 1, 'the command again');
  t.like(await rollMachine(upgradeId), { state: 'UPGRADING', sends: 1 });
});

test('a server restarted between the command and its accept (a crash) is what the new agent must adopt: the machine succeeds', async (t) => {
  const machine = await runningMachine(t, 'silent');
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  // While the agent downloads, the server crashes and its old agent starts it again: a new process.
  const restarted = { pid: 6262, startedAt: '2026-01-02T03:07:00.000Z', adopted: false };
  await machine.first.report(machine.serverId, 'ONLINE', restarted);
  machine.first.acks[0]!({ accepted: true, version: NEW_VERSION });
  await until(async () => (await rollMachine(upgradeId)).accepted === true, 'the accept recorded');
  const done = await backOn(machine, upgradeId, NEW_VERSION, { ...restarted, adopted: true });
  t.is(done.state, 'SUCCEEDED', JSON.stringify(done));
});

test('a server restarted by a job during the upgrade fails the machine, naming the job', async (t) => {
  const machine = await runningMachine(t);
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  const jobId = await app.pool.oneFirst(sql.unsafe`
    INSERT INTO jobs (cluster_id, server_id, machine_id, type, status, created_by_kind, expires_at)
    VALUES (${machine.clusterId}, ${machine.serverId}, ${machine.machineId}, 'RESTART', 'SUCCEEDED', 'SYSTEM', now() + interval '1 hour') RETURNING id`);
  const done = await backOn(machine, upgradeId, NEW_VERSION, { pid: 5151, startedAt: '2026-01-02T03:09:00.000Z', adopted: false });
  t.is(done.state, 'FAILED');
  t.true(String(done.reason).endsWith(` (its RESTART job ${String(jobId)} was created during the upgrade)`), String(done.reason));
});

test('a server whose process was not known before the upgrade and that the new agent started anew (not adopted) fails the machine', async (t) => {
  const machine = await runningMachine(t);
  // Its last status came without its process: which one it ran as is unknown.
  await machine.first.report(machine.serverId, 'ONLINE');
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  const done = await backOn(machine, upgradeId, NEW_VERSION, { pid: 5151, startedAt: '2026-01-02T03:09:00.000Z', adopted: false });
  t.is(done.state, 'FAILED');
  t.is(
    done.reason,
    `machine host: server fake (${machine.serverId}) was restarted by the new agent, not adopted (it runs as pid 5151 started 2026-01-02T03:09:00.000Z)`,
  );
});

test('a server the new agent reports running without its process fails the machine: its adoption cannot be told', async (t) => {
  const machine = await runningMachine(t);
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => machine.first.commands.length > 0, 'the upgrade command');
  const done = await backOn(machine, upgradeId, NEW_VERSION);
  t.is(done.state, 'FAILED');
  t.is(
    done.reason,
    `machine host: server fake (${machine.serverId}) is reported ONLINE by the new agent without its process: whether it was adopted cannot be told`,
  );
});

test('a process reported over an earlier connection is not trusted as the one to adopt', async (t) => {
  const machine = await runningMachine(t);
  // The agent reconnected since it named the process (an older orchestrator may have stored statuses without one).
  machine.first.close();
  const again = await machine.open(VERSION);
  const upgradeId = await startRoll(machine.clusterId);
  await until(async () => again.commands.length > 0, 'the upgrade command');
  t.deepEqual(await app.pool.oneFirst(sql.unsafe`SELECT processes FROM agent_upgrade_machines WHERE upgrade_id = ${upgradeId}`), []);
});
