/**
 * The real agent as it (re)connects: jobs waiting for it when it connects and a job sent together with a brand-new
 * server run instead of failing SERVER_NOT_FOUND (a job for a server the agent has not set up yet waits for its
 * configuration); several gateway URLs, with failover to the next one when a gateway cannot be reached or goes away.
 */
import test from 'ava';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { sql } from 'slonik';
import { createGateway } from '../../orchestrator/gateway/gateway.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { acceptServerJob } from '../../orchestrator/jobs/serverJobs.ts';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';
import { body } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, FAKE_SERVER, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';
import { VERSION } from '../../api/service.ts';

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

const machineStatus = async (machineId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`));
const ended = async (jobId: string) => body(await app.request(`/api/v1/jobs/${jobId}?wait=30`, { headers: owner.auth }));

test.serial('jobs waiting for an agent run when it connects, for every server (none fails SERVER_NOT_FOUND)', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const servers = [];
  for (let index = 0; index < 4; index++) servers.push(await createFakeServer(app, owner, clusterId, machineId));
  // Accepted while the agent is away: they are sent as soon as it authenticates, together with the servers:sync that
  // sets up their servers (the first server is started by the sync itself, which takes a while).
  const jobs = [];
  for (const server of servers) jobs.push(await body(await app.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: owner.auth })));
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  for (const job of jobs) {
    const done = await ended(job.id);
    t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
  }
});

test.serial('a START sent together with its brand-new server runs on it (the job waits for its configuration)', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE');
  // The server arrives on the machine and its START is accepted in one commit: the gateway reads the new
  // configuration for servers:sync while the job, announced with its content, goes out at once, so the job reaches the
  // agent first.
  const elsewhere = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, elsewhere.clusterId, elsewhere.machineId);
  const job = await app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`UPDATE servers SET machine_id = ${machineId}, cluster_id = ${clusterId} WHERE id = ${server.id}`);
    await notifyAgent(tx, { type: 'servers_changed', machineId });
    return acceptServerJob(tx, SYSTEM_ORIGIN, { serverId: server.id, type: 'START', params: {}, desired: 'RUNNING', requireRunning: false });
  });
  const done = await ended(job.id);
  t.is(done.status, 'SUCCEEDED', JSON.stringify(done));

  // Through the API, created and started one right after the other.
  for (let round = 0; round < 2; round++) {
    const server = await createFakeServer(app, owner, clusterId, machineId);
    const job = await body(await app.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: owner.auth }));
    const done = await ended(job.id);
    t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
  }
});

/**
 * A second gateway (as a second orchestrator process would run: its own sessions and console marks) on its own port,
 * against the same database, sharing the first's console history; closed at the end of the test, or by `close`.
 */
async function secondGateway(t: import('ava').ExecutionContext) {
  const httpServer = createHttpServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const gateway = await createGateway(httpServer, {
    pool: app.pool,
    databaseUrl: app.database.url,
    logger: app.deps.logger,
    heartbeatSeconds: 1,
    authTimeoutMs: 2_000,
    minVersion: '0.1.0',
    serviceVersion: VERSION,
    relay: app.deps.live.relay,
    history: app.deps.live.history,
  });
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await gateway.close();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  t.teardown(close);
  return { gateway, close, url: `http://127.0.0.1:${(httpServer.address() as { port: number }).port}` };
}

/** A fake server printing `tick N` every 20 ms, started; answers how to read its ticks. */
async function tickingServer(t: import('ava').ExecutionContext, clusterId: string, machineId: string): Promise<() => Promise<number[]>> {
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    startCommand: `/usr/bin/env FAKE_TICK_MS=20 ${process.execPath} ${FAKE_SERVER}`,
  });
  t.is((await app.request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST', headers: owner.auth })).status, 200);
  const ticks = () => ticksOf(server.id);
  await until(async () => (await ticks()).length > 5, 'ticks relayed');
  return ticks;
}

/** The ticks missing between the first and the last seen, and those seen more than once. */
function gapsAndRepeats(seen: number[]): { missing: number[]; repeated: number[] } {
  const first = seen[0]!;
  return {
    missing: Array.from({ length: Math.max(...seen) - first + 1 }, (_, i) => first + i).filter((n) => !seen.includes(n)),
    repeated: seen.filter((n, index) => seen.indexOf(n) !== index),
  };
}

/** The numbers of the fake server's `tick N` lines in its recent console, oldest first. */
async function ticksOf(serverId: string): Promise<number[]> {
  const { lines } = await body(await app.request(`/api/v1/servers/${serverId}/console?lines=1000`, { headers: owner.auth }));
  return (lines as { line: string }[]).flatMap(({ line }) => (/^tick (\d+)$/.exec(line) ? [Number(/^tick (\d+)$/.exec(line)![1])] : []));
}

test.serial('several gateway URLs: an unreachable one is skipped, and the agent fails over when its gateway goes away', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  const { gateway: second, close: closeSecond, url: secondUrl } = await secondGateway(t);
  const [unused] = await freePorts(1);

  const agent = await startAgent({ url: `http://127.0.0.1:${unused}, ${secondUrl},${app.url}`, machineId, token });
  agents.push(agent);
  await until(async () => second.session(machineId) !== undefined, 'connected to the second gateway', 20_000);
  // The gateway holds the session a moment before the ONLINE write commits (agentSession: claim, then markOnline).
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE through the second gateway');
  t.is(await machineStatus(machineId), 'ONLINE');
  t.true(
    agent.lines.some((line) => line.includes('could not connect to the gateway')),
    'the first URL was tried',
  );

  await closeSecond();
  await until(async () => app.gateway.session(machineId) !== undefined, 'failed over to the third gateway', 30_000);
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE again');
  t.is(agent.child.exitCode, null, 'the agent kept running');
});

test.serial('console output while the agent is away from the service (its connection dropped) is sent once it is back: no line lost, none twice', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  const ticks = await tickingServer(t, clusterId, machineId);
  // The connection drops (as when an orchestrator hands its agents over); the agent is back after its back-off.
  const before = Math.max(...(await ticks()));
  // What a connection cut without a goodbye loses: the frames on their way when it ended. Here made certain: the
  // session takes its mark (as at its end) and relays nothing more, for 200 ms (about ten ticks), then closes.
  app.gateway.session(machineId)!.takeConsoleMark();
  await new Promise((resolve) => setTimeout(resolve, 200));
  app.gateway.session(machineId)!.link.close();
  await until(async () => agent.lines.some((line) => line.includes('disconnected from the gateway')), 'the agent saw it');
  await until(async () => (await machineStatus(machineId)) === 'ONLINE' && app.gateway.session(machineId) !== undefined, 'back', 20_000);
  await until(async () => Math.max(...(await ticks())) > before + 50, 'ticks after the reconnect', 20_000);
  const { missing, repeated } = gapsAndRepeats(await ticks());
  t.deepEqual(missing, [], 'every tick printed while the agent was away reached the service');
  // Frames in flight when the connection closed are sent again, except those the service's mark says arrived.
  t.deepEqual(repeated, [], 'no tick shown twice');
  // Sent once the service takes the server's console again (after its servers:sync), never refused meanwhile.
  t.false(
    agent.lines.some((line) => line.includes('not on this machine')),
    'no console frame refused',
  );
});

test.serial(
  'console output in flight when an orchestrator process hands its agent over reaches the next one once: the mark goes through the database',
  async (t) => {
    const { clusterId, machineId, token } = await registerMachine(app, owner);
    const { gateway: second, close: closeSecond, url: secondUrl } = await secondGateway(t);
    const agent = await startAgent({ url: `${secondUrl},${app.url}`, machineId, token });
    agents.push(agent);
    await until(async () => second.session(machineId) !== undefined && (await machineStatus(machineId)) === 'ONLINE', 'on the second gateway', 20_000);
    const ticks = await tickingServer(t, clusterId, machineId);
    const before = Math.max(...(await ticks()));
    // The frames on their way when the process stopped are lost to it: made certain (the mark is taken, then 200 ms
    // of frames are not relayed), then the process stops as in an upgrade, writing the mark before it closes.
    const mark = second.session(machineId)!.takeConsoleMark();
    t.truthy(mark, 'the frames are numbered');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await closeSecond();
    const stored = (await app.pool.one(sql.unsafe`SELECT console_run, console_seen FROM machines WHERE id = ${machineId}`)) as {
      console_run: string;
      console_seen: unknown;
    };
    t.deepEqual({ run: stored.console_run, n: Number(stored.console_seen) }, mark);
    await until(async () => app.gateway.session(machineId) !== undefined, 'on the first gateway', 30_000);
    await until(async () => Math.max(...(await ticks())) > before + 50, 'ticks after the handover', 20_000);
    const { missing, repeated } = gapsAndRepeats(await ticks());
    // The agent was told what arrived (the first process's mark, through the database), and sent only what came after.
    await until(
      async () => agent.lines.some((line) => line.includes('held while the connection was away') && line.includes(`"arrived":${mark!.n}`)),
      'the mark used',
    );
    t.deepEqual(missing, [], 'no tick lost');
    t.deepEqual(repeated, [], 'no tick shown twice');
  },
);

/** A gateway that refuses every agent with `error AUTH_FAILED` and this message, as the real one does, then closes. */
async function refusingGateway(t: import('ava').ExecutionContext, message: string) {
  const http = createHttpServer();
  const io = new Server(http, { path: '/ws', transports: ['websocket'] });
  let attempts = 0;
  io.on('connection', (socket) => {
    socket.on('auth', () => {
      attempts++;
      socket.emit('error', { code: 'AUTH_FAILED', message });
      setTimeout(() => socket.disconnect(true), 50);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    await io.close();
    http.closeAllConnections();
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, attempts: () => attempts };
}

test.serial('a gateway that did not read the auth message in time is tried again, not taken for a refused credential', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  const slow = await refusingGateway(t, 'no auth message within 10000 ms');
  const agent = await startAgent({ url: `${slow.url},${app.url}`, machineId, token });
  agents.push(agent);
  await until(async () => app.gateway.session(machineId) !== undefined, 'connected to the next gateway', 30_000);
  t.true(slow.attempts() >= 1, 'the first gateway was tried');
  t.is(agent.child.exitCode, null, 'the agent kept running');
});

test.serial('a refused credential ends the agent with exit status 2', async (t) => {
  const { machineId, token } = await registerMachine(app, owner);
  const refusing = await refusingGateway(t, 'invalid agent token');
  const agent = await startAgent({ url: `${refusing.url},${app.url}`, machineId, token });
  agents.push(agent);
  const code = await new Promise<number | null>((resolve) => {
    if (agent.child.exitCode !== null) resolve(agent.child.exitCode);
    else agent.child.once('exit', (exitCode) => resolve(exitCode));
  });
  t.is(code, 2);
  t.is(app.gateway.session(machineId), undefined, 'it did not go on to the next gateway');
});
