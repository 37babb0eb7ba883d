/**
 * A fleet upgrade outlives the orchestrator running it: one `--role=orchestrator` process drives a roll of two machines
 * (batchSize 1) and is killed (SIGKILL) while the first machine upgrades; started again, it picks the roll up from its
 * rows: the first machine, back on the new version with its server adopted, SUCCEEDS without being sent the command
 * again, and the second is upgraded after it. The agents are Socket.IO clients playing the upgrade over the real gateway.
 */
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'slonik';
import { io, type Socket } from 'socket.io-client';
import { VERSION } from '../../api/service.ts';
import { body, json, startTestApp, type TestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { createFakeServer, freePorts } from '../support/agentProcess.ts';
import { packageOfVersion } from '../support/agentPackages.ts';
import { until } from '../support/wait.ts';
import { orchestratorReady, startOrchestratorProcess } from '../support/orchestratorProcess.ts';

const [major, minor, patch] = VERSION.split('.').map(Number) as [number, number, number];
const NEW_VERSION = `${major}.${minor}.${patch + 1}`;

let app: TestApp;
test.before(async () => {
  const work = await mkdtemp(join(tmpdir(), 'gsm-rollrestart-'));
  await writeFile(join(work, 'new.tgz'), await packageOfVersion(NEW_VERSION));
  app = await startTestApp({ AGENT_PACKAGE_FILE: join(work, 'new.tgz') });
});
test.after.always(async () => {
  await app?.close();
});

type Command = { upgradeId: string; version: string };

/**
 * An agent that keeps itself connected to `url` (trying again every 200 ms), running one server as pid 4242: it
 * reports it on every connection, and on an upgrade command accepts, drops its connection and comes back on the new
 * version with the server adopted, as the real agent does (once `restarted` settles: its restart takes that long).
 */
function fakeAgent(url: string, machine: { machineId: string; token: string }, serverId: string, restarted: Promise<void> = Promise.resolve()) {
  const commands: Command[] = [];
  let version = VERSION;
  let socket: Socket | undefined;
  let stopped = false;
  let beats: NodeJS.Timeout | undefined;
  const connect = () => {
    if (stopped) return;
    const current = io(url, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
    socket = current;
    current.on('connect', () => current.emit('auth', { token: machine.token, machineId: machine.machineId, version }));
    current.on('authenticated', () => {
      clearInterval(beats);
      beats = setInterval(() => current.emit('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 }), 500);
      current.emit('server:status', {
        serverId,
        status: 'ONLINE',
        at: new Date().toISOString(),
        process: { pid: 4242, startedAt: '2026-01-02T03:04:05.678Z', adopted: version !== VERSION },
      });
    });
    current.on('agent:upgrade', (data: Command, ack: (answer: unknown) => void) => {
      commands.push(data);
      ack({ accepted: true, version: data.version });
      version = data.version;
      setTimeout(() => current.disconnect(), 100);
    });
    const again = () => {
      clearInterval(beats);
      current.removeAllListeners();
      if (socket !== current) return;
      if (version === VERSION) setTimeout(connect, 200);
      else void restarted.then(() => setTimeout(connect, 200));
    };
    current.on('disconnect', again);
    current.on('connect_error', again);
  };
  connect();
  return {
    commands,
    stop: () => {
      stopped = true;
      clearInterval(beats);
      socket?.removeAllListeners();
      socket?.disconnect();
    },
  };
}

test('an orchestrator killed in the middle of a roll goes on with it once started again', async (t) => {
  const [port] = (await freePorts(1)) as [number];
  const startOrchestrator = () => startOrchestratorProcess(t, app.database.url, port);
  const ready = () => orchestratorReady(port);

  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const machines = [];
  for (const name of ['alpha', 'beta']) {
    const created = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name }, { headers: owner.auth })));
    const server = await createFakeServer(app, owner, clusterId, created.id);
    await app.pool.query(sql.unsafe`UPDATE servers SET desired_status = 'RUNNING' WHERE id = ${server.id}`);
    machines.push({ machineId: created.id as string, token: created.agentToken as string, serverId: server.id as string });
  }
  const first = startOrchestrator();
  await ready();
  // The first machine's agent comes back from its upgrade only once its orchestrator has been killed.
  let killed = () => undefined as void;
  const afterKill = new Promise<void>((resolve) => (killed = resolve));
  const agents = machines.map((machine, index) => fakeAgent(`http://127.0.0.1:${port}`, machine, machine.serverId, index === 0 ? afterKill : undefined));
  t.teardown(() => agents.forEach((agent) => agent.stop()));
  const machineIds = machines.map((machine) => machine.machineId);
  await until(
    async () =>
      Number(
        await app.pool.oneFirst(sql.unsafe`
          SELECT count(*) FROM servers WHERE machine_id = ANY(${sql.array(machineIds, 'uuid')}) AND status = 'ONLINE' AND process_pid = 4242`),
      ) === 2,
    'both servers reported running',
  );

  const started = await app.request(`/api/v1/clusters/${clusterId}/machines/upgrade`, json({ batchSize: 1 }, { headers: owner.auth }));
  t.is(started.status, 202);
  const upgradeId = (await body(started)).id as string;
  // The first machine has taken the command: the orchestrator is killed before it sees the agent come back.
  await until(
    async () =>
      (await app.pool.oneFirst(sql.unsafe`
        SELECT accepted_at IS NOT NULL FROM agent_upgrade_machines WHERE upgrade_id = ${upgradeId} AND machine_id = ${machineIds[0]!}`)) === true,
    'the first machine to accept',
  );
  first.child.kill('SIGKILL');
  t.is(await first.exited, 'SIGKILL');
  killed();
  const during = await body(await app.request(`/api/v1/clusters/${clusterId}/machines/upgrades/${upgradeId}`, { headers: owner.auth }));
  t.is(during.state, 'RUNNING');
  t.deepEqual(
    during.machines.map((machine: { state: string }) => machine.state),
    ['UPGRADING', 'PENDING'],
  );

  startOrchestrator();
  await ready();
  const path = `/api/v1/clusters/${clusterId}/machines/upgrades/${upgradeId}`;
  await until(async () => (await body(await app.request(path, { headers: owner.auth }))).state !== 'RUNNING', 'the roll to end', 90_000);
  const done = await body(await app.request(path, { headers: owner.auth }));
  t.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  t.deepEqual(
    done.machines.map((machine: { name: string; state: string; toVersion: string }) => [machine.name, machine.state, machine.toVersion]),
    [
      ['alpha', 'SUCCEEDED', NEW_VERSION],
      ['beta', 'SUCCEEDED', NEW_VERSION],
    ],
  );
  t.true(Date.parse(done.machines[0].finishedAt) <= Date.parse(done.machines[1].startedAt), 'the second machine after the first');
  t.is(agents[0]!.commands.length, 1, 'the first machine was not sent the command again');
  t.is(agents[1]!.commands.length, 1);
});
