/**
 * The service side of job delivery with a raw Socket.IO agent: the job arrives as soon as it is accepted, the ack
 * marks it DISPATCHED, progress RUNNING, the result is stored once and acknowledged (a duplicate too, so the agent can
 * empty its outbox), and a result for another machine's job is refused. Every path that sends the job message (the
 * announcement carrying it, the read-back of long params, a re-announcement, the pending jobs of an agent that
 * connects) sends exactly jobEvent's fields; a type this build does not know still reaches the agent, which decides.
 */
import test from 'ava';
import { io, type Socket } from 'socket.io-client';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { until } from '../support/wait.ts';
import { jobEvent, readJobEvent } from '../../schema/agentEvents.ts';
import type { JobType } from '../../schema/jobs.ts';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';
import { ANNOUNCE_NEW_JOB, announceJob, jobForAgent } from '../../orchestrator/jobs/delivery.ts';
import { NEW_JOB_COLUMNS, newJobValues } from '../../orchestrator/jobs/store.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 5 });
});
test.after.always(async () => {
  await app?.close();
});

/** A raw Socket.IO agent of `machine`, authenticated; `setUp` runs before it authenticates (to catch what comes at once). */
async function authenticatedAgent(machine: { id: string; agentToken: string }, setUp: (agent: Socket) => void = () => undefined): Promise<Socket> {
  const agent = io(app.url, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
  setUp(agent);
  await new Promise<void>((resolve) => {
    agent.on('connect', () => agent.emit('auth', { token: machine.agentToken, machineId: machine.id, version: '0.1.0' }));
    agent.on('authenticated', () => resolve());
  });
  return agent;
}

const jobStatus = async (jobId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${jobId}`));

test('a job is delivered at once, its result stored once and acknowledged, duplicates included', async (t) => {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, autoInstall: false },
        { headers: owner.auth },
      ),
    ),
  );

  const agent = await authenticatedAgent(machine);
  t.teardown(() => void agent.close());
  const jobs: { jobId: string; type: string; serverId: string }[] = [];
  agent.on('job', (job: { jobId: string; type: string; serverId: string }, ack: (answer: object) => void) => {
    jobs.push(job);
    ack({ accepted: true });
  });

  const accepted = await body(await app.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: owner.auth }));
  await until(async () => (await jobStatus(accepted.id)) === 'DISPATCHED', 'the acknowledged job to be DISPATCHED', 10_000);
  t.like(jobs[0], { jobId: accepted.id, type: 'START', serverId: server.id });
  // Exactly the job message of schema/agentEvents.ts, as the agent checks it; its deadline is the job's expiresAt.
  t.deepEqual(jobEvent.parse(jobs[0]), jobs[0]);
  t.deepEqual(Object.keys(jobs[0]).sort(), ['deadline', 'jobId', 'params', 'serverId', 'type']);
  t.is((jobs[0] as unknown as { deadline: string }).deadline, accepted.expiresAt);

  agent.emit('job:progress', { jobId: accepted.id, status: 'RUNNING' });
  const result = { jobId: accepted.id, status: 'SUCCEEDED', result: { message: 'online' }, finishedAt: new Date().toISOString() };
  const first = await agent.timeout(3_000).emitWithAck('job:result', result);
  t.like(first, { stored: true });
  const stored = await body(await app.request(`/api/v1/jobs/${accepted.id}`, { headers: owner.auth }));
  t.like(stored, { status: 'SUCCEEDED', result: { message: 'online' } });

  // The same result again (the agent did not see the first ack): acknowledged, nothing changes.
  const duplicate = await agent
    .timeout(3_000)
    .emitWithAck('job:result', { ...result, result: { message: 'again' }, finishedAt: new Date(Date.now() + 5_000).toISOString() });
  t.like(duplicate, { stored: true });
  const after = await body(await app.request(`/api/v1/jobs/${accepted.id}`, { headers: owner.auth }));
  t.deepEqual(after.result, { message: 'online' });
  t.is(after.finishedAt, stored.finishedAt);

  // A result for a job that is not this machine's is refused.
  const errors: { code: string }[] = [];
  agent.on('error', (error: { code: string }) => errors.push(error));
  const foreign = await agent.timeout(3_000).emitWithAck('job:result', { ...result, jobId: '0192f0c4-1a2b-7c3d-8e4f-0123456789ab' });
  t.like(foreign, { accepted: false });
  t.is(errors[0]?.code, 'INVALID_EVENT');
});

test('a cancel asked for while the agent is away reaches it when it is back, instead of the job', async (t) => {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, autoInstall: false },
        { headers: owner.auth },
      ),
    ),
  );
  const connect = async () => {
    const received: { event: string; data: { jobId?: string } }[] = [];
    const agent = await authenticatedAgent(machine, (agent) =>
      agent.onAny((event: string, data: { jobId?: string }, ack?: (answer: object) => void) => {
        received.push({ event, data });
        if (event === 'job') ack?.({ accepted: true });
      }),
    );
    return { agent, received };
  };
  const first = await connect();
  const job = await body(await app.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: owner.auth }));
  // Acknowledged and recorded as DISPATCHED before the agent goes away, so the cancel below is one for the agent.
  await until(async () => (await jobStatus(job.id)) === 'DISPATCHED', 'the job to reach the agent', 10_000);
  first.agent.close();
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machine.id}`)) === 'OFFLINE',
    'the machine OFFLINE',
    10_000,
  );
  t.is((await app.request(`/api/v1/jobs/${job.id}/cancel`, { method: 'POST', headers: owner.auth })).status, 202);

  const second = await connect();
  t.teardown(() => void second.agent.close());
  await until(async () => second.received.some((entry) => entry.event === 'job:cancel' && entry.data.jobId === job.id), 'the cancel', 10_000);
  t.false(
    second.received.some((entry) => entry.event === 'job'),
    'not the job again',
  );
});

test('a delivery the database cannot answer leaves the job for the sweep instead of rejecting (deliveries run unawaited)', async (t) => {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const agent = await authenticatedAgent(machine);
  t.teardown(() => void agent.close());
  const session = app.gateway.session(machine.id);
  t.truthy(session);
  // Postgres refuses this id outright: the same failure as a database that drops the connection mid-delivery. Before,
  // the rejection escaped the unawaited delivery after authentication and ended the process.
  await t.notThrowsAsync(session!.deliver('not-a-job-id'));
  t.true(agent.connected, 'the session goes on');
});

/** A cluster of its own with a machine, a server and `count` START jobs delivered to a connected raw agent. */
async function clusterWithJobs(count: number) {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, autoInstall: false },
        { headers: owner.auth },
      ),
    ),
  );
  const errors: { code: string; message: string }[] = [];
  const agent = await authenticatedAgent(machine, (agent) => {
    agent.on('job', (_job: unknown, ack: (answer: object) => void) => ack({ accepted: true }));
    agent.on('error', (error: { code: string; message: string }) => errors.push(error));
  });
  const jobIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const job = await body(await app.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: owner.auth }));
    await until(async () => (await jobStatus(job.id)) === 'DISPATCHED', 'the job delivered', 10_000);
    jobIds.push(job.id);
  }
  return { owner, clusterId, machineId: machine.id as string, agent, errors, jobIds, serverId: server.id as string };
}

test("one tenant's result Postgres would refuse never fails another tenant's result stored in the same batch", async (t) => {
  const poisoner = await clusterWithJobs(4);
  const honest = await clusterWithJobs(1);
  t.teardown(() => void (poisoner.agent.close(), honest.agent.close()));
  const [blocker, withNul, withSurrogate, yearZero] = poisoner.jobIds as [string, string, string, string];
  const finishedAt = new Date().toISOString();

  // Results are stored by a batcher: those arriving while a batch's statement runs go together into the next one.
  // The first result waits on a row lock held here, so the next three are deterministically stored in one statement.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const lock = app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SELECT 1 FROM jobs WHERE id = ${blocker} FOR UPDATE`);
    locked();
    await held;
  });
  await isLocked;
  const result = (agent: Socket, report: object) => agent.timeout(10_000).emitWithAck('job:result', { status: 'SUCCEEDED', result: {}, finishedAt, ...report });
  const blocked = result(poisoner.agent, { jobId: blocker });
  await until(
    async () =>
      Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) > 0,
    'the first batch to wait on the lock',
    10_000,
  );
  const acks = [
    result(poisoner.agent, { jobId: withNul, status: 'FAILED', result: { 'key\u0000': 'a\u0000b' }, error: { code: 'X', message: 'c\u0000d' } }),
    result(poisoner.agent, { jobId: withSurrogate, result: { output: 'half \ud800 pair' } }),
    result(poisoner.agent, { jobId: yearZero, finishedAt: '0000-01-01T00:00:00Z' }),
    result(honest.agent, { jobId: honest.jobIds[0], result: { message: 'online' } }),
  ];
  // Each session handles its frames in order and hands a result to the batcher as it handles it: once a later frame is
  // answered, the results before it wait in the batcher for the blocked statement.
  const later = (tenant: typeof honest) =>
    tenant.agent.timeout(10_000).emitWithAck('console', { serverId: tenant.serverId, lines: ['-'], at: new Date().toISOString() });
  await Promise.all([later(poisoner), later(honest)]);
  release();
  await lock;
  const [nul, surrogate, zero, good] = await Promise.all(acks);
  t.like(await blocked, { stored: true });

  t.like(good, { accepted: true, stored: true }, "the other tenant's result is stored and acknowledged");
  const stored = await body(await app.request(`/api/v1/jobs/${honest.jobIds[0]}`, { headers: honest.owner.auth }));
  t.like(stored, { status: 'SUCCEEDED', result: { message: 'online' } });

  // NUL and lone surrogates are game output the agent could not help: stored made storable (NUL removed, U+FFFD).
  t.like(nul, { stored: true });
  t.like(await body(await app.request(`/api/v1/jobs/${withNul}`, { headers: poisoner.owner.auth })), {
    status: 'FAILED',
    result: { key: 'ab' },
    error: { code: 'X', message: 'cd' },
  });
  t.like(surrogate, { stored: true });
  t.like(await body(await app.request(`/api/v1/jobs/${withSurrogate}`, { headers: poisoner.owner.auth })), {
    status: 'SUCCEEDED',
    result: { output: 'half \ufffd pair' },
  });
  // A date Postgres cannot store is refused, and changes nothing.
  t.like(zero, { accepted: false });
  t.regex(String((zero as { reason: string }).reason), /finishedAt/);
  t.is(await jobStatus(yearZero), 'DISPATCHED');
  t.true(poisoner.errors.some((error) => error.code === 'INVALID_EVENT' && /finishedAt/.test(error.message)));
  t.deepEqual(honest.errors, []);
});

test("console, server:stats and job:progress about another machine's server or job are INVALID_EVENT", async (t) => {
  const mine = await clusterWithJobs(1);
  const other = await clusterWithJobs(1);
  t.teardown(() => void (mine.agent.close(), other.agent.close()));
  const at = new Date().toISOString();
  const send = (event: string, data: object) => mine.agent.timeout(10_000).emitWithAck(event, data);
  for (const [event, data] of [
    ['console', { serverId: other.serverId, lines: ['hello from another cluster'], at }],
    ['server:stats', { serverId: other.serverId, cpuPercent: 1, memoryBytes: 1, at }],
    ['job:progress', { jobId: other.jobIds[0], status: 'RUNNING' }],
  ] as const) {
    const answer = await send(event, data);
    t.like(answer, { accepted: false }, event);
    t.regex(String(answer.reason), /not on this machine|not this machine's/, event);
  }
  t.is(mine.errors.filter((error) => error.code === 'INVALID_EVENT').length, 3);
  t.is(await jobStatus(other.jobIds[0]!), 'DISPATCHED', "the other machine's job is untouched");
  // The machine's own reports are still accepted, also for a server added to it later (its cache follows servers:sync).
  t.like(await send('console', { serverId: mine.serverId, lines: ['ok'], at }), { accepted: true });
  t.like(await send('server:stats', { serverId: mine.serverId, cpuPercent: 1, memoryBytes: 1, at }), { accepted: true });
  t.like(await send('job:progress', { jobId: mine.jobIds[0], status: 'RUNNING' }), { accepted: true });
  t.is(await jobStatus(mine.jobIds[0]!), 'RUNNING');
  t.like(await send('job:progress', { jobId: mine.jobIds[0], status: 'RUNNING' }), { accepted: true }, 'a repeated progress report is fine');
  const synced = new Promise<{ servers: { id: string }[] }>((resolve) => mine.agent.once('servers:sync', resolve));
  const added = await body(
    await app.request(
      `/api/v1/clusters/${mine.clusterId}/servers`,
      json(
        { name: 'later', gameType: 'RUST', machineId: mine.machineId, gamePort: 29015, queryPort: 29016, rconPort: 29017, autoInstall: false },
        { headers: mine.owner.auth },
      ),
    ),
  );
  t.true((await synced).servers.some((server) => server.id === added.id));
  t.like(await send('console', { serverId: added.id, lines: ['ok'], at }), { accepted: true });
});

/** A cluster with a machine and a server, and the machine's agent connected: it answers each job as the reference agent would. */
async function machineWithAgent() {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, autoInstall: false },
        { headers: owner.auth },
      ),
    ),
  );
  const received: Record<string, unknown>[] = [];
  const answers: { accepted: boolean; reason?: string }[] = [];
  const connect = () =>
    authenticatedAgent(machine, (agent) =>
      agent.on('job', (job: Record<string, unknown>, ack: (answer: object) => void) => {
        received.push(job);
        const { refusal } = readJobEvent(job);
        const answer = refusal === undefined ? { accepted: true } : { accepted: false, reason: refusal };
        answers.push(answer);
        ack(answer);
      }),
    );
  const agent = await connect();
  return { owner, clusterId, machine: machine as { id: string; agentToken: string }, serverId: server.id as string, agent, connect, received, answers };
}

/**
 * Accepts a job the way the service does (the row and its announcement in one statement, orchestrator/jobs/store.ts),
 * also of a type or with params this build's API would not write.
 */
async function acceptRaw(world: { clusterId: string; machine: { id: string }; serverId: string }, type: string, params: unknown): Promise<string> {
  const row = await app.pool.one(sql.unsafe`
      WITH j AS (INSERT INTO jobs ${NEW_JOB_COLUMNS} VALUES (${newJobValues(SYSTEM_ORIGIN, {
        clusterId: world.clusterId,
        serverId: world.serverId,
        machineId: world.machine.id,
        type: type as JobType,
        params: params as Record<string, unknown>,
      })}) RETURNING *)
      SELECT j.id, ${ANNOUNCE_NEW_JOB} FROM j`);
  return String((row as { id: string }).id);
}

const warnings = (message: string, jobId: string) => app.logs().filter((line) => line.level === 40 && line.msg === message && line.jobId === jobId);

test('rolling upgrade: a job of a type this build does not know reaches the agent, whose refusal is logged at warn', async (t) => {
  const world = await machineWithAgent();
  t.teardown(() => void world.agent.close());
  // A newer API (a version ahead of this orchestrator) has a job type more: its migration widened the check.
  await app.pool.query(sql.unsafe`ALTER TABLE jobs DROP CONSTRAINT IF EXISTS jobs_type_check`);
  const jobId = await acceptRaw(world, 'TELEPORT', { to: 'spawn' });

  // Sent from the announcement that carries it, as accepted (also as one of the agent's pending jobs, when the
  // accept meets the end of its authentication: deliveries are at least once).
  await until(async () => world.received.length > 0, 'the job announced with its content to reach the agent', 10_000);
  t.like(world.received[0], { jobId, type: 'TELEPORT', serverId: world.serverId, params: { to: 'spawn' } });
  t.deepEqual(world.answers[0], { accepted: false, reason: 'unsupported job type TELEPORT' });
  await until(async () => warnings('agent refused a job', jobId).length === world.received.length, 'the refusal logged at warn', 10_000);
  t.like(warnings('agent refused a job', jobId)[0], { machineId: world.machine.id, reason: 'unsupported job type TELEPORT' });

  // Announced again (the delivery sweep's announcement, without content): read back, and sent again.
  const before = world.received.length;
  await announceJob(app.pool, world.machine.id, jobId);
  await until(async () => world.received.length > before, 'the job read back to reach the agent', 10_000);
  t.deepEqual(world.received[before], world.received[0]);
  await until(async () => warnings('agent refused a job', jobId).length > before, 'the second refusal logged at warn', 10_000);
  // The agent may be upgraded before the deadline: the job waits for it (and ends EXPIRED if it is not).
  t.is(await jobStatus(jobId), 'QUEUED');
});

test('a job whose row cannot make a job message ends FAILED (UNDELIVERABLE) at once, logged at warn with its id, and is not sent', async (t) => {
  const world = await machineWithAgent();
  t.teardown(() => void world.agent.close());
  // params that are not an object (no API writes that): the announcement's content is not a valid message, and the
  // row read back is not one either.
  const jobId = await acceptRaw(world, 'RCON', ['not', 'an', 'object']);
  await until(async () => (await jobStatus(jobId)) === 'FAILED', 'the job to end FAILED', 10_000);
  const ended = (await app.pool.one(sql.unsafe`SELECT error FROM jobs WHERE id = ${jobId}`)) as { error: { code: string; message: string } };
  t.is(ended.error.code, 'UNDELIVERABLE');
  t.regex(ended.error.message, /cannot send this job to its agent \(params: /);
  await until(async () => warnings('job cannot be sent to its agent; it ended FAILED (UNDELIVERABLE)', jobId).length > 0, 'the warning', 10_000);
  t.like(warnings('job cannot be sent to its agent; it ended FAILED (UNDELIVERABLE)', jobId)[0], { machineId: world.machine.id });
  // Nothing to announce any more, and nothing was sent (the warning comes where the job would have been).
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT next_check_at FROM jobs WHERE id = ${jobId}`), null);
  t.deepEqual(world.received, []);
});

test('the job message read back (params over the announcement size, re-announced, pending at connect) is exactly jobEvent, its deadline expiresAt', async (t) => {
  const world = await machineWithAgent();
  // Longer than an announcement carries: the gateway reads the job back (jobForAgent).
  const params = { message: `hello ${'x'.repeat(7_000)}` };
  const jobId = await acceptRaw(world, 'BROADCAST', params);
  const { expiresAt } = await body(await app.request(`/api/v1/jobs/${jobId}`, { headers: world.owner.auth }));
  const isTheMessage = (message: Record<string, unknown> | undefined, how: string) => {
    t.deepEqual(jobEvent.parse(message), message, how);
    // Once an agent accepted the job, how long ago it did (sent again, e.g. to the agent's next process).
    const { acceptedAgoMs, ...rest } = message!;
    t.true(acceptedAgoMs === undefined || (Number.isInteger(acceptedAgoMs) && (acceptedAgoMs as number) >= 0), how);
    t.deepEqual(
      Object.keys(message!).sort(),
      Object.keys(jobEvent.shape)
        .sort()
        .filter((key) => key !== 'acceptedAgoMs' || acceptedAgoMs !== undefined),
      how,
    );
    t.deepEqual(rest, { jobId, type: 'BROADCAST', serverId: world.serverId, params, deadline: expiresAt }, how);
  };

  const direct = await jobForAgent(app.pool, world.machine.id, jobId);
  t.true(direct !== null && 'job' in direct);
  isTheMessage((direct as { job: Record<string, unknown> }).job, 'jobForAgent');

  await until(async () => world.received.length > 0, 'the job read back after its announcement', 10_000);
  isTheMessage(world.received[0], 'read back after the announcement');
  await until(async () => (await jobStatus(jobId)) === 'DISPATCHED', 'the job DISPATCHED', 10_000);

  let before = world.received.length;
  await announceJob(app.pool, world.machine.id, jobId);
  await until(async () => world.received.length > before, 'the job re-announced', 10_000);
  isTheMessage(world.received[before], 're-announced');
  // Sent again after an agent accepted it: how long ago that was, for an agent process that does not have it.
  const { acceptedAgoMs } = world.received[before] as { acceptedAgoMs?: number };
  t.true(Number.isInteger(acceptedAgoMs) && acceptedAgoMs! >= 0 && acceptedAgoMs! < 60_000, `acceptedAgoMs ${acceptedAgoMs}`);

  // The agent goes away and comes back: its pending jobs are sent as it connects.
  world.agent.close();
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${world.machine.id}`)) === 'OFFLINE',
    'the machine OFFLINE',
    10_000,
  );
  before = world.received.length;
  const again = await world.connect();
  t.teardown(() => void again.close());
  await until(async () => world.received.length > before, 'the pending job sent at connect', 10_000);
  isTheMessage(world.received[before], 'pending at connect');
});
