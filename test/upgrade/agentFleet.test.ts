/**
 * Agent versions and the fleet upgrade, end to end with real agents run from installed packages (as the install line
 * lays them out): the service serves a "new" package (the same agent with a bumped version, AGENT_PACKAGE_FILE);
 * machines show their agent's version and that an upgrade is available; a roll of two machines with batchSize 1
 * upgrades them one after the other, each back ONLINE on the new version with its game server still running under the
 * same pid; an agent that cannot upgrade stops the roll and says why; a too-old agent is refused with a clear error and
 * waits before asking again; a roll can be cancelled.
 */
import test from 'ava';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'slonik';
import { buildAgentPackage } from '../../api/agentPackage.ts';
import { packageOfVersion, sha256Of } from '../support/agentPackages.ts';
import { VERSION } from '../../api/service.ts';
import { readPackageArchive } from '../../schema/packageArchive.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { io } from 'socket.io-client';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';

const [major, minor, patch] = VERSION.split('.').map(Number) as [number, number, number];
const NEW_VERSION = `${major}.${minor}.${patch + 1}`;
/** Below the gateway's minimum (test/support/gateway.ts: 0.1.0). */
const OLD_VERSION = '0.0.1';

let app: GatewayApp;
let owner: TestUser;
let work: string;
let newSha256: string;
const agents: AgentProcess[] = [];

/** The package unpacked as the install script leaves it (`<prefix>/gsm-agent.mjs`); answers the script's path. */
async function installPackage(tgz: Buffer, prefix: string): Promise<string> {
  for (const entry of readPackageArchive(tgz)) {
    const path = join(prefix, entry.name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, entry.content);
    await chmod(path, entry.mode);
  }
  return join(prefix, 'gsm-agent.mjs');
}

test.before(async () => {
  work = await mkdtemp(join(tmpdir(), 'gsm-fleet-'));
  const newPackage = await packageOfVersion(NEW_VERSION);
  newSha256 = sha256Of(newPackage);
  await writeFile(join(work, 'new.tgz'), newPackage);
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true, env: { AGENT_PACKAGE_FILE: join(work, 'new.tgz') } });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));

/** A machine of `clusterId` (a new cluster when absent) running an installed agent of the service's own version, with a running fake server. */
async function installedMachine(clusterId?: string, name = 'host') {
  const registered = clusterId
    ? await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name }, { headers: owner.auth })))
    : await registerMachine(app, owner);
  const cluster = clusterId ?? (registered as { clusterId: string }).clusterId;
  const machineId = (registered.machineId ?? registered.id) as string;
  const token = (registered.token ?? registered.agentToken) as string;
  const prefix = join(work, machineId, 'gsm-agent');
  const program = await installPackage((await buildAgentPackage()).tgz, prefix);
  const agent = await startAgent({ url: app.url, machineId, token, program });
  agents.push(agent);
  const server = await createFakeServer(app, owner, cluster, machineId);
  const started = await body(await app.request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST', headers: owner.auth }));
  if (started.status !== 'SUCCEEDED') throw new Error(`start failed: ${JSON.stringify(started)}`);
  return { clusterId: cluster, machineId, prefix, agent, serverId: server.id };
}

/** The pid the agent recorded for a server's game process. */
const gamePid = async (agent: AgentProcess, serverId: string) =>
  (JSON.parse(await readFile(join(agent.dataDir, 'run', serverId, 'process.json'), 'utf8')) as { pid: number }).pid;

const serverStatus = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));

test('two machines upgraded one at a time: each back ONLINE on the new version, its game server still running under the same pid', async (t) => {
  const first = await installedMachine();
  const second = await installedMachine(first.clusterId, 'zeta');
  const before = { first: await gamePid(first.agent, first.serverId), second: await gamePid(second.agent, second.serverId) };
  const agentPids = { first: first.agent.child.pid, second: second.agent.child.pid };

  const listed = await get(`/api/v1/clusters/${first.clusterId}/machines`);
  t.deepEqual(
    listed.data.map((machine: { name: string; agentVersion: string; upgradeAvailable: boolean }) => [
      machine.name,
      machine.agentVersion,
      machine.upgradeAvailable,
    ]),
    [
      ['host', VERSION, true],
      ['zeta', VERSION, true],
    ],
  );

  // Bad input changes nothing.
  const badBatch = await app.request(`/api/v1/clusters/${first.clusterId}/machines/upgrade`, json({ batchSize: 0 }, { headers: owner.auth }));
  t.is(badBatch.status, 400);
  const stranger = await app.request(
    `/api/v1/clusters/${first.clusterId}/machines/upgrade`,
    json({ batchSize: 1, machineIds: ['01890000-0000-7000-8000-000000000000'] }, { headers: owner.auth }),
  );
  t.is(stranger.status, 400);

  const started = await app.request(`/api/v1/clusters/${first.clusterId}/machines/upgrade`, json({ batchSize: 1 }, { headers: owner.auth }));
  t.is(started.status, 202);
  const roll = await body(started);
  t.is(roll.state, 'RUNNING');
  t.is(roll.version, NEW_VERSION);
  t.is(roll.packageSha256, newSha256);
  t.deepEqual(
    roll.machines.map((machine: { name: string; state: string }) => [machine.name, machine.state]),
    [
      ['host', 'PENDING'],
      ['zeta', 'PENDING'],
    ],
  );
  const again = await app.request(`/api/v1/clusters/${first.clusterId}/machines/upgrade`, json({ batchSize: 1 }, { headers: owner.auth }));
  t.is(again.status, 409, 'one roll at a time');

  const path = `/api/v1/clusters/${first.clusterId}/machines/upgrades/${roll.id}`;
  let seenOneAtATime = false;
  await until(
    async () => {
      const current = await get(path);
      const upgrading = current.machines.filter((machine: { state: string }) => machine.state === 'UPGRADING').length;
      t.true(upgrading <= 1, 'batchSize 1: never two machines at once');
      if (upgrading === 1) seenOneAtATime = true;
      return current.state !== 'RUNNING';
    },
    'the roll to end',
    120_000,
  );
  const done = await get(path);
  t.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  t.true(seenOneAtATime);
  const [host, zeta] = done.machines;
  t.like(host, { name: 'host', state: 'SUCCEEDED', fromVersion: VERSION, toVersion: NEW_VERSION, servers: 1 });
  t.like(zeta, { name: 'zeta', state: 'SUCCEEDED', fromVersion: VERSION, toVersion: NEW_VERSION, servers: 1 });
  t.true(Date.parse(host.finishedAt) <= Date.parse(zeta.startedAt), 'the second batch started after the first was back');

  for (const [machine, key] of [
    [first, 'first'],
    [second, 'second'],
  ] as const) {
    const record = await get(`/api/v1/machines/${machine.machineId}`);
    t.like(record, { status: 'ONLINE', agentVersion: NEW_VERSION, upgradeAvailable: false });
    t.is(await serverStatus(machine.serverId), 'ONLINE');
    t.is(await gamePid(machine.agent, machine.serverId), before[key], 'the game server was adopted, not restarted');
    t.true(existsSync(`/proc/${before[key]}`));
    // What the roll judged: the new agent reported the server in that process, adopted.
    t.deepEqual(
      { ...((await app.pool.one(sql.unsafe`SELECT process_pid AS pid, process_adopted AS adopted FROM servers WHERE id = ${machine.serverId}`)) as object) },
      { pid: before[key], adopted: true },
    );
    // Without systemd the agent executed itself again in its own process.
    t.is(machine.agent.child.exitCode, null);
    t.is(machine.agent.child.pid, agentPids[key]);
    t.is(JSON.parse(await readFile(join(machine.prefix, 'package.json'), 'utf8')).version, NEW_VERSION);
    t.true(machine.agent.lines.some((line) => line.includes('installed the new agent; restarting')));
  }
  const audited = await app.pool.anyFirst(sql.unsafe`
    SELECT action FROM audit_log WHERE cluster_id = ${first.clusterId} AND action LIKE 'machine.agent_upgrade%'`);
  t.deepEqual(audited, ['machine.agent_upgrade_start']);
  t.is((await get(`/api/v1/clusters/${first.clusterId}/machines/upgrades`)).data[0].id, roll.id);

  const nothingLeft = await app.request(`/api/v1/clusters/${first.clusterId}/machines/upgrade`, json({ batchSize: 1 }, { headers: owner.auth }));
  t.is(nothingLeft.status, 409);
});

test('a machine whose agent cannot upgrade stops the roll, saying which and why; the next is not touched', async (t) => {
  // An agent run from its sources, not from an installed package, refuses: it has nothing to replace.
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  agents.push(await startAgent({ url: app.url, machineId, token }));
  await until(async () => (await get(`/api/v1/machines/${machineId}`)).status === 'ONLINE', 'the source agent online');
  const installed = await installedMachine(clusterId, 'zulu');
  const pid = await gamePid(installed.agent, installed.serverId);

  const roll = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/machines/upgrade`,
      json({ batchSize: 1, machineIds: [machineId, installed.machineId] }, { headers: owner.auth }),
    ),
  );
  const path = `/api/v1/clusters/${clusterId}/machines/upgrades/${roll.id}`;
  await until(async () => (await get(path)).state !== 'RUNNING', 'the roll to stop', 60_000);
  const stopped = await get(path);
  t.is(stopped.state, 'FAILED');
  t.regex(stopped.reason, /^machine host: the agent refused the upgrade: this agent does not run from an installed package/);
  t.like(stopped.machines[0], { machineId, state: 'FAILED' });
  t.like(stopped.machines[1], { machineId: installed.machineId, state: 'SKIPPED', reason: 'not upgraded: the roll stopped at host' });
  t.like(await get(`/api/v1/machines/${installed.machineId}`), { agentVersion: VERSION, upgradeAvailable: true });
  t.is(await gamePid(installed.agent, installed.serverId), pid);
});

test('a roll is cancelled: no further machine is upgraded, and the one told to upgrade says so', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  // An agent that accepts the upgrade command and then never restarts.
  const agent = io(app.url, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
  t.teardown(() => agent.close());
  const commands: unknown[] = [];
  agent.on('agent:upgrade', (data: { version: string }, ack: (answer: unknown) => void) => {
    commands.push(data);
    ack({ accepted: true, version: data.version });
  });
  const authenticated = new Promise((resolve) => agent.once('authenticated', resolve));
  agent.emit('auth', { token, machineId, version: VERSION });
  await authenticated;
  // It beats (three missed beats would mark the machine OFFLINE, which a roll does not try to upgrade).
  const beats = setInterval(() => agent.emit('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 }), 500);
  t.teardown(() => clearInterval(beats));
  const roll = await body(await app.request(`/api/v1/clusters/${clusterId}/machines/upgrade`, json({ batchSize: 1 }, { headers: owner.auth })));
  await until(async () => commands.length > 0, 'the upgrade command');
  t.deepEqual(commands[0], { upgradeId: roll.id, version: NEW_VERSION, sha256: newSha256, url: null });
  t.like((await get(`/api/v1/clusters/${clusterId}/machines/upgrades/${roll.id}`)).machines[0], { state: 'UPGRADING', fromVersion: VERSION });

  const cancelled = await app.request(`/api/v1/clusters/${clusterId}/machines/upgrades/${roll.id}/cancel`, { method: 'POST', headers: owner.auth });
  t.is(cancelled.status, 200);
  const answer = await body(cancelled);
  t.is(answer.state, 'CANCELLED');
  t.like(answer.machines[0], { state: 'CANCELLED', reason: 'cancelled while its agent was upgrading: it may still come back on the new version' });
  t.is((await app.request(`/api/v1/clusters/${clusterId}/machines/upgrades/${roll.id}/cancel`, { method: 'POST', headers: owner.auth })).status, 409);
  const audited = await app.pool.anyFirst(sql.unsafe`
    SELECT action FROM audit_log WHERE cluster_id = ${clusterId} AND action LIKE 'machine.agent_upgrade%' ORDER BY at`);
  t.deepEqual(audited, ['machine.agent_upgrade_start', 'machine.agent_upgrade_cancel']);
});

test('a too-old agent is refused with a clear error, keeps running and does not retry for minutes', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  const program = await installPackage(await packageOfVersion(OLD_VERSION), join(work, machineId, 'gsm-agent'));
  const agent = await startAgent({ url: app.url, machineId, token, program });
  agents.push(agent);
  await until(async () => agent.lines.some((line) => line.includes('"delayMs":600000')), 'the agent to wait before trying again');
  const refusal = agent.lines.find((line) => line.includes('UNSUPPORTED_VERSION'));
  t.truthy(refusal);
  t.regex(refusal!, /agent 0\.0\.1 is older than the minimum 0\.1\.0; upgrade the agent/);
  t.true(agent.lines.some((line) => line.includes("the service does not accept this agent's version (0.0.1)")));
  t.is(agent.child.exitCode, null, 'it keeps running (its servers stay looked after)');
  t.is(agent.lines.filter((line) => line.includes('"msg":"reconnecting"')).length, 1);
  t.like(await get(`/api/v1/machines/${machineId}`), { status: 'OFFLINE', agentVersion: null });
});
