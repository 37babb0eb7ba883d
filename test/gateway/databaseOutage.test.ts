/**
 * The gateway while its database is away (its queries go through a TCP proxy that the tests cut and restore) with raw
 * clients and the real agent: an agent that connects meanwhile is told to come back later (UNAVAILABLE), never that
 * its credential is bad; a result or a status report that could not be stored reaches the database once it is back,
 * without a reconnect; and a result that arrives after the sweep expired its job wins over the expiry.
 */
import test from 'ava';
import { io } from 'socket.io-client';
import { sql } from 'slonik';
import { SourceRconClient } from '../../agent/rcon/sourceRcon.ts';
import { sweepDueJobs } from '../../orchestrator/jobs/deliverySweep.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, socketIoAgent, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 5, authTimeoutMs: 1_500, databaseProxy: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});
// Every test starts with the database reachable, whatever the one before did, and the gateway's pool past the
// connections the outage broke (each fails once, then is replaced).
test.afterEach.always(async () => {
  await app.databaseProxy!.up().catch(() => undefined);
  app.databaseProxy!.resume();
  const answers = () =>
    app.gatewayPool.query(sql.unsafe`SELECT 1`).then(
      () => true,
      () => false,
    );
  await until(async () => (await Promise.all(Array.from({ length: 5 }, answers))).every(Boolean), 'the gateway database back');
});

/**
 * A raw Socket.IO agent of the machine, authenticated (rejects on an error instead). UNAVAILABLE is retryable, as the
 * real agent treats it: a pooled connection the last test's outage broke fails one query before it is replaced, and
 * the checks between tests need not have drawn every one of them.
 */
async function rawAgent(machine: { machineId: string; token: string }) {
  for (let attempt = 1; ; attempt++) {
    const agent = io(app.url, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
    const refusal = await new Promise<{ code?: string } | undefined>((resolve) => {
      agent.on('connect', () => agent.emit('auth', { token: machine.token, machineId: machine.machineId, version: '0.1.0' }));
      agent.on('authenticated', () => resolve(undefined));
      agent.on('error', (error: { code?: string }) => resolve(error));
    });
    if (!refusal) return agent;
    agent.close();
    if (refusal.code !== 'UNAVAILABLE' || attempt === 5) throw new Error(JSON.stringify(refusal));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const machineStatus = async (machineId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`));
const serverStatus = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));
const jobRow = (jobId: string) =>
  app.pool.one(sql.unsafe`SELECT status, result, error FROM jobs WHERE id = ${jobId}`) as Promise<{ status: string; result: any; error: any }>;

/** A machine with the real agent and one fake game server ONLINE. */
async function runningServer() {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE');
  const server = await createFakeServer(app, owner, clusterId, machineId, { autoRestart: false });
  const started = await app.request(`/api/v1/servers/${server.id}/start?wait=20`, { method: 'POST', headers: owner.auth });
  if ((await body(started)).status !== 'SUCCEEDED') throw new Error('the server did not start');
  await until(async () => (await serverStatus(server.id)) === 'ONLINE', 'server ONLINE');
  return { clusterId, machineId, agent, server };
}

test.serial('an agent that authenticates while the database is down gets UNAVAILABLE (retryable), not AUTH_FAILED', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  await app.databaseProxy!.down();
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  const error = await agent.next('error', 5_000);
  t.is(error.code, 'UNAVAILABLE', JSON.stringify(error));
  await agent.closed;
  t.is(await machineStatus(machineId), 'OFFLINE', 'nothing changed');
});

test.serial('an agent whose token lookup hangs (database not answering) gets UNAVAILABLE, not AUTH_FAILED', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  app.databaseProxy!.hang();
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  const error = await agent.next('error', 5_000);
  t.is(error.code, 'UNAVAILABLE', JSON.stringify(error));
  await agent.closed;
  app.databaseProxy!.resume();
  // A refused credential is still final.
  const again = await socketIoAgent(app);
  again.send('auth', { token: `gsm_agent_${'x'.repeat(43)}`, machineId, version: '0.1.0' });
  t.is((await again.next('error', 5_000)).code, 'AUTH_FAILED');
});

test.serial('the real agent keeps retrying through a database outage and comes ONLINE once it is back', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  await app.databaseProxy!.down();
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  await until(async () => agent.lines.filter((line) => line.includes('UNAVAILABLE')).length >= 2, 'two attempts refused as UNAVAILABLE', 20_000);
  t.is(agent.child.exitCode, null, 'the agent is still running');
  await app.databaseProxy!.up();
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE after the outage', 45_000);
  t.is(agent.child.exitCode, null);
});

test.serial('an RCON result the gateway could not store (database blip) is re-sent while connected and ends SUCCEEDED', async (t) => {
  const { server, agent } = await runningServer();
  const seen = agent.lines.length;
  await app.databaseProxy!.down();
  // Accepted by the API (its own pool) and announced; the gateway sends it, but can store neither the ack nor the result.
  const accepted = await body(await app.request(`/api/v1/servers/${server.id}/rcon?wait=0`, json({ command: 'echo survived' }, { headers: owner.auth })));
  await until(async () => agent.lines.some((line) => line.includes(accepted.jobId) && line.includes('job result not stored')), 'the result refused', 10_000);
  await app.databaseProxy!.up();
  await until(async () => (await jobRow(accepted.jobId)).status === 'SUCCEEDED', 'the result stored without a reconnect', 15_000);
  t.deepEqual((await jobRow(accepted.jobId)).result, { output: 'survived' });
  t.false(
    agent.lines.slice(seen).some((line) => line.includes('disconnected from the gateway')),
    'no reconnect was needed',
  );
});

test.serial('a crash reported while the database is down reaches the API once it is back, without a reconnect', async (t) => {
  const { server, agent } = await runningServer();
  const seen = agent.lines.length;
  await app.databaseProxy!.down();
  const rcon = new SourceRconClient({ host: '127.0.0.1', port: server.rconPort, password: 'fake-password', commandTimeoutMs: 2_000 });
  await rcon.command('sim.crash').catch(() => undefined);
  await rcon.close();
  await until(
    async () => agent.lines.some((line) => line.includes(`"serverId":"${server.id}"`) && line.includes('"msg":"server CRASHED"')),
    'the crash reported',
    10_000,
  );
  await app.databaseProxy!.up();
  await until(async () => (await serverStatus(server.id)) === 'CRASHED', 'the server CRASHED in the API', 10_000);
  t.false(agent.lines.slice(seen).some((line) => line.includes('disconnected from the gateway')));
});

test.serial('server:status is acknowledged once stored, and refused for a retry while the database is down', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const created = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 's', gameType: 'RUST', machineId, gamePort: 28015, queryPort: 28016, rconPort: 28017 }, { headers: owner.auth }),
    ),
  );
  const agent = await rawAgent({ machineId, token });
  t.teardown(() => void agent.close());
  const report = (status: string) => agent.timeout(8_000).emitWithAck('server:status', { serverId: created.id, status, at: new Date().toISOString() });
  t.like(await report('OFFLINE'), { accepted: true });
  t.is(await serverStatus(created.id), 'OFFLINE');
  await app.databaseProxy!.down();
  t.like(await report('STARTING'), { accepted: false, retry: true });
  await app.databaseProxy!.up();
  t.like(await report('STARTING'), { accepted: true });
  t.is(await serverStatus(created.id), 'STARTING');
});

test.serial('a result that arrives after the sweep expired its job wins, and the job says so', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const created = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 's', gameType: 'RUST', machineId, gamePort: 28015, queryPort: 28016, rconPort: 28017 }, { headers: owner.auth }),
    ),
  );
  const job = await body(await app.request(`/api/v1/servers/${created.id}/start`, { method: 'POST', headers: owner.auth }));
  // The sweep, deciding without the result: its time is up.
  await app.pool.query(sql.unsafe`UPDATE jobs SET expires_at = now() - interval '1 second', next_check_at = now() WHERE id = ${job.id}`);
  await sweepDueJobs(app.pool);
  t.is((await jobRow(job.id)).status, 'EXPIRED');

  const agent = await rawAgent({ machineId, token });
  t.teardown(() => void agent.close());
  const finishedAt = new Date().toISOString();
  const answer = await agent.timeout(5_000).emitWithAck('job:result', { jobId: job.id, status: 'SUCCEEDED', result: { message: 'online' }, finishedAt });
  t.like(answer, { stored: true });
  const stored = await body(await app.request(`/api/v1/jobs/${job.id}`, { headers: owner.auth }));
  t.is(stored.status, 'SUCCEEDED');
  t.is(stored.result.message, 'online');
  t.regex(stored.result.lateResult.message, /after the job was marked EXPIRED/);
  t.truthy(stored.result.lateResult.expiredAt);
  t.is(stored.error, null);

  // A job that really ended (here: CANCELLED) is not reopened by a result.
  const other = await body(await app.request(`/api/v1/servers/${created.id}/stop`, { method: 'POST', headers: owner.auth }));
  await app.pool.query(sql.unsafe`UPDATE jobs SET status = 'CANCELLED', finished_at = now() WHERE id = ${other.id}`);
  t.like(await agent.timeout(5_000).emitWithAck('job:result', { jobId: other.id, status: 'SUCCEEDED', result: {}, finishedAt }), { stored: true });
  t.is((await jobRow(other.id)).status, 'CANCELLED');
});

test.serial('a machine swept OFFLINE while its agent stayed connected reports its servers again when its heartbeats return', async (t) => {
  const { machineId, server } = await runningServer();
  // What the sweep of an orchestrator does to a machine whose heartbeats it could not see (they were not stored
  // while the database was away), while the agent is in fact still connected.
  await app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`UPDATE machines SET status = 'OFFLINE' WHERE id = ${machineId}`);
    await tx.query(sql.unsafe`UPDATE servers SET status = 'UNKNOWN', last_status_at = now() WHERE machine_id = ${machineId}`);
  });
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'the next heartbeat brings the machine back', 15_000);
  await until(async () => (await serverStatus(server.id)) === 'ONLINE', 'the server ONLINE again, not UNKNOWN', 15_000);
  t.pass();
});
