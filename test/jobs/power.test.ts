/**
 * Durable jobs end to end: the API accepts power and RCON calls as jobs, graphile-worker dispatches them through the
 * gateway to the real agent process, which runs them against the fake game server and reports the result.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import type { AgentProcess } from '../support/agentProcess.ts';
import { createWorld } from '../support/world.ts';

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

const setup = (options: { agent?: boolean; env?: Record<string, string> } = {}) =>
  createWorld(app, owner, { agent: options.agent, server: { env: options.env ?? null }, agents });

const post = (path: string, payload?: unknown) =>
  app.request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth }));
const serverStatus = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));

test.serial('start, RCON (both forms) and stop through durable jobs; answers with ?wait and 202 + Location', async (t) => {
  const { clusterId, serverId } = await setup();
  const started = await post(`/api/v1/servers/${serverId}/start?wait=30`);
  t.is(started.status, 200);
  const startJob = await body(started);
  t.like(startJob, { type: 'START', status: 'SUCCEEDED', serverId, createdBy: { kind: 'USER', id: owner.id } });
  t.is(started.headers.get('location'), `/api/v1/jobs/${startJob.id}`);
  t.truthy(startJob.dispatchedAt && startJob.startedAt && startJob.finishedAt);
  t.is(await serverStatus(serverId), 'ONLINE');
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT desired_status FROM servers WHERE id = ${serverId}`)), 'RUNNING');

  const again = await body(await post(`/api/v1/servers/${serverId}/start?wait=10`));
  t.deepEqual(again.result, { message: 'already online' });

  const rcon = await post(`/api/v1/servers/${serverId}/rcon`, { command: 'echo hello world' });
  t.is(rcon.status, 200);
  const answer = await body(rcon);
  t.like(answer, { success: true, output: 'hello world', status: 'SUCCEEDED' });
  const big = await body(await post('/api/v1/rcon/execute', { serverId, command: 'bigreply 20000' }));
  t.is(big.output.length, 20000, 'a multi-packet reply comes back whole');

  const stopped = await post(`/api/v1/servers/${serverId}/stop`);
  t.is(stopped.status, 202);
  const stopJob = await body(stopped);
  t.true(['QUEUED', 'DISPATCHED', 'RUNNING'].includes(stopJob.status));
  const finished = await body(await app.request(`/api/v1/jobs/${stopJob.id}?wait=30`, { headers: owner.auth }));
  t.is(finished.status, 'SUCCEEDED');
  t.is(await serverStatus(serverId), 'OFFLINE');

  const list = await body(await app.request(`/api/v1/clusters/${clusterId}/jobs?serverId=${serverId}&type=rcon`, { headers: owner.auth }));
  t.is(list.meta.total, 2);
  const audit = await body(await app.request(`/api/v1/clusters/${clusterId}/audit-log?action=server.start`, { headers: owner.auth }));
  t.is(audit.meta.total, 2);
});

test.serial('RCON on a server that is not running is 409 and creates no job', async (t) => {
  const { clusterId, serverId } = await setup({ agent: false });
  const response = await post(`/api/v1/servers/${serverId}/rcon`, { command: 'status' });
  t.is(response.status, 409);
  t.regex((await body(response)).message, /not running/);
  t.is((await body(await app.request(`/api/v1/clusters/${clusterId}/jobs`, { headers: owner.auth }))).meta.total, 0);
  t.is((await post(`/api/v1/servers/${serverId}/rcon`, { command: '' })).status, 400);
  t.is((await post(`/api/v1/servers/${serverId}/rcon`, { command: 'x'.repeat(1025) })).status, 400);
  for (const command of ['say a\u0000b', 'say hi\nstop', 'say hi\rstop', 'say \u001b[2J']) {
    const refused = await post(`/api/v1/servers/${serverId}/rcon`, { command });
    t.is(refused.status, 400, JSON.stringify(command));
    t.regex(JSON.stringify((await body(refused)).details), /one line without control characters|NUL characters/);
  }
});

test.serial('a START accepted while the agent is offline happens once the agent connects', async (t) => {
  const { serverId, connect } = await setup({ agent: false });
  const accepted = await post(`/api/v1/servers/${serverId}/start?wait=2`);
  t.is(accepted.status, 202);
  const job = await body(accepted);
  t.is(job.status, 'QUEUED');
  await connect();
  const finished = await body(await app.request(`/api/v1/jobs/${job.id}?wait=30`, { headers: owner.auth }));
  t.is(finished.status, 'SUCCEEDED', JSON.stringify(finished.error));
  t.is(await serverStatus(serverId), 'ONLINE');
  t.true(finished.attempts >= 1);
  await body(await post(`/api/v1/servers/${serverId}/stop?wait=30`));
});

test.serial('cancel: QUEUED is cancelled at once and its desired status undone; an ended job is 409', async (t) => {
  const { serverId } = await setup({ agent: false });
  const job = await body(await post(`/api/v1/servers/${serverId}/start`));
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT desired_status FROM servers WHERE id = ${serverId}`)), 'RUNNING');
  const cancelled = await post(`/api/v1/jobs/${job.id}/cancel`);
  t.is(cancelled.status, 200);
  t.like(await body(cancelled), { status: 'CANCELLED', error: { code: 'CANCELLED' } });
  t.is(
    String(await app.pool.oneFirst(sql.unsafe`SELECT desired_status FROM servers WHERE id = ${serverId}`)),
    'STOPPED',
    'the cancelled START will not happen through the desired state',
  );
  t.is((await post(`/api/v1/jobs/${job.id}/cancel`)).status, 409);
});

test.serial('a job its agent never receives EXPIRES with a clear error', async (t) => {
  const { serverId } = await setup({ agent: false });
  const job = await body(await post(`/api/v1/servers/${serverId}/restart`));
  await app.pool.query(sql.unsafe`UPDATE jobs SET expires_at = now() + interval '1 second' WHERE id = ${job.id}`);
  const ended = await body(await app.request(`/api/v1/jobs/${job.id}?wait=30`, { headers: owner.auth }));
  t.is(ended.status, 'EXPIRED');
  t.is(ended.error.code, 'EXPIRED');
  t.regex(ended.error.message, /did not complete it before/);
});

test.serial('MODERATOR and VIEWER may not run power or RCON jobs; everyone reads jobs', async (t) => {
  const { clusterId, serverId } = await setup({ agent: false });
  const viewer = await signUp(app);
  await app.pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${viewer.id}, 'MODERATOR')`);
  t.is((await app.request(`/api/v1/servers/${serverId}/start`, { method: 'POST', headers: viewer.auth })).status, 403);
  t.is((await app.request(`/api/v1/rcon/execute`, json({ serverId, command: 'status' }, { headers: viewer.auth }))).status, 403);
  const job = await body(await post(`/api/v1/servers/${serverId}/kill`));
  t.is((await app.request(`/api/v1/jobs/${job.id}`, { headers: viewer.auth })).status, 200);
  t.is((await app.request(`/api/v1/jobs/${job.id}/cancel`, { method: 'POST', headers: viewer.auth })).status, 403);
});

test.serial('cancelling a RUNNING job reaches the agent, which ends it CANCELLED', async (t) => {
  // A server that takes 20 s to be ready keeps the START job running.
  const { serverId } = await setup({ env: { FAKE_READY_DELAY_MS: '20000' } });
  const job = await body(await post(`/api/v1/servers/${serverId}/start`));
  const jobStatus = async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${job.id}`));
  await until(async () => (await jobStatus()) === 'RUNNING', 'the job RUNNING on the agent');
  const cancel = await post(`/api/v1/jobs/${job.id}/cancel`);
  t.is(cancel.status, 202);
  const ended = await body(await app.request(`/api/v1/jobs/${job.id}?wait=20`, { headers: owner.auth }));
  t.like(ended, { status: 'CANCELLED', error: { code: 'CANCELLED' } });
  await post(`/api/v1/servers/${serverId}/kill?wait=20`);
});

test.serial('an agent SIGKILLed mid-job: the new agent adopts the game server it was starting, and the job ends once', async (t) => {
  const { serverId, connect } = await setup({ agent: false, env: { FAKE_READY_DELAY_MS: '2500' } });
  const first = await connect();
  const job = await body(await post(`/api/v1/servers/${serverId}/start`));
  // Killed once the game server process runs (its identity file is written), before it is ready.
  const { readFile } = await import('node:fs/promises');
  const identityFile = `${first.dataDir}/run/${serverId}/process.json`;
  await until(
    async () =>
      readFile(identityFile, 'utf8').then(
        () => true,
        () => false,
      ),
    'the game server running',
  );
  const pid = (JSON.parse(await readFile(identityFile, 'utf8')) as { pid: number }).pid;
  first.child.kill('SIGKILL');
  await first.exited;
  const second = await connect(first.dataDir);
  const ended = await body(await app.request(`/api/v1/jobs/${job.id}?wait=30`, { headers: owner.auth }));
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended.error));
  t.is(await serverStatus(serverId), 'ONLINE');
  // The same game server, adopted while STARTING and ONLINE on its ready line: not killed, not doubled.
  t.is((JSON.parse(await readFile(identityFile, 'utf8')) as { pid: number }).pid, pid);
  const answer = await body(await post(`/api/v1/servers/${serverId}/rcon`, { command: 'echo still here' }));
  t.like(answer, { success: true, output: 'still here' });
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM jobs WHERE server_id = ${serverId} AND type = 'START'`), 1);
  t.truthy(second);
  await post(`/api/v1/servers/${serverId}/stop?wait=30`);
});
