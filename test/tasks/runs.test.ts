/**
 * Task runs end to end: the scheduler (graphile-worker) fires an occurrence, the run executes its steps as normal
 * jobs through the gateway on the real agent process against the fake game server, and the run ends once with its
 * outcome on the TASK_RUN job and on the task. Also: several orchestrator workers at once, failing and expiring
 * steps, and a run whose executor is gone being resumed elsewhere.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { freePorts, type AgentProcess } from '../support/agentProcess.ts';
import { createWorld } from '../support/world.ts';
import { startWorker, type Worker } from '../../orchestrator/worker/worker.ts';
import { DUE_BATCH, runKey, scheduleOccurrence, TRIGGER_TASK } from '../../orchestrator/tasks/store.ts';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';

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

const post = (path: string, payload?: unknown) =>
  app.request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth }));
const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));

/** A cluster with one fake game server (CUSTOM) on a machine, its agent connected (or not), the server started. */
const setup = (options: { agent?: boolean; online?: boolean } = {}) => createWorld(app, owner, { agent: options.agent, start: options.online ?? true, agents });

async function createTask(clusterId: string, serverIds: string[], steps: unknown[], extra: Record<string, unknown> = {}) {
  const response = await post(`/api/v1/clusters/${clusterId}/tasks`, {
    name: 'task',
    schedule: '0 4 * * *',
    timezone: 'Europe/Berlin',
    serverIds,
    steps,
    ...extra,
  });
  if (response.status !== 201) throw new Error(`task create failed: ${response.status} ${await response.text()}`);
  return body(response);
}

/** Makes the task's pending occurrence due in `ms` (as if its cron said so), the way the API schedules one. */
async function dueIn(taskId: string, ms: number): Promise<Date> {
  const at = new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);
  await app.pool.transaction((tx) => scheduleOccurrence(tx, taskId, at));
  return at;
}

const runsOf = async (clusterId: string, taskId: string) => (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${taskId}&type=TASK_RUN`)).data;

async function finishedRun(clusterId: string, taskId: string) {
  await until(async () => (await runsOf(clusterId, taskId)).length > 0, 'the run to start', 20_000);
  const [run] = await runsOf(clusterId, taskId);
  return get(`/api/v1/jobs/${run.id}?wait=60`);
}

const consoleLog = (agent: AgentProcess, serverId: string) => readFile(join(agent.dataDir, 'logs', serverId, 'console.log'), 'utf8').catch(() => '');
const serverPid = (agent: AgentProcess, serverId: string) =>
  readFile(join(agent.dataDir, 'run', serverId, 'process.json'), 'utf8').then((text) => (JSON.parse(text) as { pid: number }).pid);

test.serial('a task due in a few seconds runs once, on time: warnings broadcast in order with their delays, then the server restarted', async (t) => {
  const { clusterId, serverId, agent } = await setup();
  const pidBefore = await serverPid(agent!, serverId);
  const task = await createTask(
    clusterId,
    [serverId],
    [
      { type: 'BROADCAST', message: 'Restart in 3 seconds' },
      { type: 'BROADCAST', message: 'Restarting now', delaySeconds: 2 },
      { type: 'RESTART', delaySeconds: 1 },
    ],
  );
  const scheduledAt = await dueIn(task.id, 2_000);

  const run = await finishedRun(clusterId, task.id);
  t.is(run.status, 'SUCCEEDED', JSON.stringify(run));
  t.like(run, {
    taskId: task.id,
    serverId: null,
    createdBy: { kind: 'TASK', id: task.id },
    params: { trigger: 'SCHEDULE', scheduledAt: scheduledAt.toISOString() },
  });
  const lateMs = Date.parse(run.startedAt) - scheduledAt.getTime();
  t.true(lateMs >= 0 && lateMs < 5_000, `started ${lateMs} ms after its time`);
  t.is(run.result.failures, 0);

  const children = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&sort=createdAt`)).data.filter(
    (job: { type: string }) => job.type !== 'TASK_RUN',
  );
  t.deepEqual(
    children.map((job: { type: string }) => job.type),
    ['BROADCAST', 'BROADCAST', 'RESTART'],
  );
  for (const child of children) t.like(child, { status: 'SUCCEEDED', serverId, taskId: task.id, createdBy: { kind: 'TASK', id: task.id } });
  t.deepEqual(
    children.map((job: { params: unknown }) => job.params),
    [{ message: 'Restart in 3 seconds' }, { message: 'Restarting now' }, {}],
  );
  t.true(Date.parse(children[1].createdAt) - Date.parse(children[0].finishedAt) >= 1_900, 'the second warning waited its 2 s');
  t.true(Date.parse(children[2].createdAt) - Date.parse(children[1].finishedAt) >= 900, 'the restart waited its 1 s');

  const log = await consoleLog(agent!, serverId);
  t.true(log.indexOf('[Chat] Restart in 3 seconds') >= 0 && log.indexOf('[Chat] Restart in 3 seconds') < log.indexOf('[Chat] Restarting now'), log);
  t.not(await serverPid(agent!, serverId), pidBefore, 'a new game server process');
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`)), 'ONLINE');

  const after = await get(`/api/v1/tasks/${task.id}`);
  t.is(after.lastRunStatus, 'SUCCEEDED');
  t.true(Date.parse(after.lastRunAt) >= scheduledAt.getTime() && Date.parse(after.lastRunAt) <= Date.parse(run.startedAt), 'lastRunAt: when the run started');
  t.true(Date.parse(after.nextRunAt) > Date.now(), 'the next occurrence is scheduled');
  // Nothing ran twice.
  await new Promise((done) => setTimeout(done, 1_500));
  t.is((await runsOf(clusterId, task.id)).length, 1);
  t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}`)).meta.total, 4);
});

test.serial('several orchestrator workers and duplicated scheduler jobs: each occurrence runs once', async (t) => {
  const { clusterId, serverId } = await setup();
  const workers: Worker[] = [];
  for (let index = 0; index < 2; index++) {
    workers.push(
      await startWorker({
        databaseUrl: app.database.url,
        logger: app.deps.logger,
        tasks: { pool: app.pool, jobWaiters: app.deps.jobWaiters },
        eventRetentionDays: app.config.EVENT_RETENTION_DAYS,
        webhooks: { allowPrivate: true, userAgent: 'gsm-test' },
      }),
    );
  }
  t.teardown(() => Promise.all(workers.map((worker) => worker.stop())).then(() => undefined));
  const task = await createTask(
    clusterId,
    [serverId],
    [
      { type: 'BROADCAST', message: 'hello' },
      { type: 'RCON', command: 'echo done' },
    ],
  );
  for (let occurrence = 0; occurrence < 2; occurrence++) {
    const at = await dueIn(task.id, 1_500);
    // Stale copies of the same occurrence (as a replaced or retried job would leave), racing on three workers.
    for (let copy = 0; copy < 4; copy++) {
      await app.pool.query(sql.unsafe`
        SELECT graphile_worker.add_job(${TRIGGER_TASK}, json_build_object('taskId', ${task.id}::text, 'scheduledAt', ${at.toISOString()}::text), run_at => ${at.toISOString()}::timestamptz)`);
    }
    await until(
      async () =>
        (await runsOf(clusterId, task.id)).length === occurrence + 1 &&
        (await runsOf(clusterId, task.id)).every((run: { finishedAt: string | null }) => run.finishedAt),
      `run ${occurrence + 1} to end`,
      30_000,
    );
    await until(
      async () =>
        Number(
          await app.pool.oneFirst(sql.unsafe`
      SELECT count(*) FROM graphile_worker._private_jobs WHERE payload->>'scheduledAt' = ${at.toISOString()}`),
        ) === 0,
      'every copy handled',
      10_000,
    );
  }
  const runs = await runsOf(clusterId, task.id);
  t.is(runs.length, 2);
  t.deepEqual(
    runs.map((run: { status: string }) => run.status),
    ['SUCCEEDED', 'SUCCEEDED'],
  );
  const children = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&limit=100`)).data.filter(
    (job: { type: string }) => job.type !== 'TASK_RUN',
  );
  t.is(children.length, 4, 'two steps, two runs, once each');
  const rcon = children.find((job: { type: string }) => job.type === 'RCON');
  t.is(rcon.result.output, 'done');
});

test.serial('many tasks due at the same minute on two workers: taken in batches, each occurrence runs once, every run ends', async (t) => {
  const { clusterId, serverId } = await setup();
  const workers: Worker[] = [];
  for (let index = 0; index < 2; index++) {
    workers.push(
      await startWorker({
        databaseUrl: app.database.url,
        logger: app.deps.logger,
        tasks: { pool: app.pool, jobWaiters: app.deps.jobWaiters },
        eventRetentionDays: app.config.EVENT_RETENTION_DAYS,
        webhooks: { allowPrivate: true, userAgent: 'gsm-test' },
      }),
    );
  }
  t.teardown(() => Promise.all(workers.map((worker) => worker.stop())).then(() => undefined));
  // More tasks than one batch (DUE_BATCH), copies of one made through the API, all due at the same second.
  const first = await createTask(clusterId, [serverId], [{ type: 'BROADCAST', message: 'restart soon' }]);
  const count = DUE_BATCH + 30;
  const taskIds = [
    first.id,
    ...(await app.pool.anyFirst(sql.unsafe`
      WITH t AS (
        INSERT INTO tasks (cluster_id, name, schedule, timezone, steps)
        SELECT cluster_id, name || ' ' || n, schedule, timezone, steps FROM tasks, generate_series(2, ${count}) n WHERE id = ${first.id}
        RETURNING id)
      INSERT INTO task_servers (task_id, server_id, position) SELECT id, ${serverId}, 0 FROM t RETURNING task_id`)),
  ] as string[];
  const at = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000);
  await app.pool.transaction(async (tx) => {
    for (const taskId of taskIds) await scheduleOccurrence(tx, taskId, at);
  });
  const ended = async () =>
    Number(
      await app.pool.oneFirst(
        sql.unsafe`SELECT count(*) FROM jobs WHERE type = 'TASK_RUN' AND task_id = ANY(${sql.array(taskIds, 'uuid')}) AND finished_at IS NOT NULL`,
      ),
    );
  await until(async () => (await ended()) >= count, 'every run to end', 60_000);
  const runs = (await app.pool.any(sql.unsafe`
    SELECT task_id, count(*)::int AS n, min(status) AS status FROM jobs WHERE type = 'TASK_RUN' AND task_id = ANY(${sql.array(taskIds, 'uuid')}) GROUP BY task_id`)) as readonly {
    n: number;
    status: string;
  }[];
  t.is(runs.length, count, 'every task ran');
  t.true(
    runs.every((run) => run.n === 1 && run.status === 'SUCCEEDED'),
    'once each, SUCCEEDED',
  );
  // Each run's warning is sent at most once (skipped when the server is not ONLINE at that moment).
  const twice = Number(
    await app.pool.oneFirst(sql.unsafe`
      SELECT count(*) FROM (SELECT task_id FROM jobs WHERE type = 'BROADCAST' AND task_id = ANY(${sql.array(taskIds, 'uuid')}) GROUP BY task_id HAVING count(*) > 1) d`),
  );
  t.is(twice, 0, 'no warning sent twice');
  const lastTask = await get(`/api/v1/tasks/${taskIds[count - 1]}`);
  t.like(lastTask, { lastRunStatus: 'SUCCEEDED' }, JSON.stringify(lastTask));
});

test.serial('a failing step fails the run naming the step and server; with continueOnFailure the run goes on', async (t) => {
  const { clusterId, serverId } = await setup({ online: false });
  // The server is OFFLINE: RCON needs a running server.
  const strict = await createTask(
    clusterId,
    [serverId],
    [{ type: 'BROADCAST', message: 'nobody hears this' }, { type: 'RCON', command: 'status' }, { type: 'START' }],
  );
  const failed = await body(await post(`/api/v1/tasks/${strict.id}/run?wait=30`));
  t.is(failed.status, 'FAILED');
  t.is(failed.error.code, 'STEP_FAILED');
  t.regex(failed.error.message, new RegExp(`step 2 \\(RCON\\) failed on server ${serverId}: NOT_RUNNING`));
  t.deepEqual(
    failed.result.steps.map((step: { jobs: { status: string }[] }) => step.jobs.map((job) => job.status)),
    [['SKIPPED'], ['FAILED']],
    'the broadcast to an offline server is skipped; START never ran',
  );
  t.like(await get(`/api/v1/tasks/${strict.id}`), { lastRunStatus: 'FAILED' });

  const lenient = await createTask(clusterId, [serverId], [{ type: 'RCON', command: 'status', continueOnFailure: true }, { type: 'START' }]);
  const succeeded = await body(await post(`/api/v1/tasks/${lenient.id}/run?wait=30`));
  t.is(succeeded.status, 'SUCCEEDED', JSON.stringify(succeeded));
  t.is(succeeded.result.failures, 1);
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`)), 'ONLINE');
  t.is(
    String(await app.pool.oneFirst(sql.unsafe`SELECT desired_status FROM servers WHERE id = ${serverId}`)),
    'RUNNING',
    'a task START sets the desired status as the power route does',
  );

  const onlyOnline = await createTask(clusterId, [serverId], [{ type: 'STOP' }], { onlyWhenOnline: true });
  await post(`/api/v1/servers/${serverId}/stop?wait=30`);
  const skipped = await body(await post(`/api/v1/tasks/${onlyOnline.id}/run?wait=10`));
  t.like(skipped, { status: 'SUCCEEDED', params: { serverIds: [], skippedServerIds: [serverId] } });
  t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${onlyOnline.id}`)).meta.total, 1, 'no child job');
});

test.serial('a START step on a server that was never installed fails for that server (NOT_INSTALLED); the others start and the run ends', async (t) => {
  const { clusterId, serverId } = await setup({ online: false });
  // On a machine without an agent: its install is cancelled before anyone ran it.
  const machine = await body(await post(`/api/v1/clusters/${clusterId}/machines`, { name: 'other' }));
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const created = await post(`/api/v1/clusters/${clusterId}/servers`, { name: 'rust', gameType: 'RUST', machineId: machine.id, gamePort, queryPort, rconPort });
  const never = await body(created);
  await post(`/api/v1/jobs/${created.headers.get('GSM-Install-Job')}/cancel`);
  const task = await createTask(clusterId, [never.id, serverId], [{ type: 'START' }]);
  const run = await body(await post(`/api/v1/tasks/${task.id}/run?wait=40`));
  t.is(run.status, 'FAILED', JSON.stringify(run));
  t.regex(run.error.message, new RegExp(`step 1 \\(START\\) failed on server ${never.id}: NOT_INSTALLED`));
  t.deepEqual(
    run.result.steps[0].jobs.map((job: { status: string }) => job.status),
    ['FAILED', 'SUCCEEDED'],
  );
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`)), 'ONLINE');
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT desired_status FROM servers WHERE id = ${never.id}`)), 'STOPPED');
  await post(`/api/v1/servers/${serverId}/stop?wait=30`);
});

test.serial('a step whose job expires (no agent) fails the run with that reason; the run never stays unfinished', async (t) => {
  const { clusterId, serverId } = await setup({ agent: false });
  const task = await createTask(clusterId, [serverId], [{ type: 'START' }]);
  const run = await body(await post(`/api/v1/tasks/${task.id}/run`));
  let child: { id: string } | undefined;
  await until(async () => Boolean((child = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&type=START`)).data[0])), 'the START job');
  await app.pool.query(sql.unsafe`UPDATE jobs SET expires_at = now() + interval '1 second' WHERE id = ${child!.id}`);
  const ended = await get(`/api/v1/jobs/${run.id}?wait=30`);
  t.is(ended.status, 'FAILED');
  t.regex(ended.error.message, /step 1 \(START\) failed on server .*: EXPIRED: the agent did not complete it before/);
  t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'FAILED' });
});

test.serial('a run whose executor died (lease lapsed, its job locked by a dead worker) is resumed and each step runs once', async (t) => {
  const { clusterId, serverId } = await setup();
  const task = await createTask(
    clusterId,
    [serverId],
    [
      { type: 'RCON', command: 'echo one' },
      { type: 'RCON', command: 'echo two', delaySeconds: 1 },
    ],
  );
  // Created as run-now does, then taken by a "dead" executor before our worker sees it: its graphile-worker job is
  // locked by a worker that no longer exists, and its lease runs out in 2 s, with the resume job due after it.
  const runId = await app.pool.transaction(async (tx) => {
    const { startRun } = await import('../../orchestrator/tasks/store.ts');
    const run = await startRun(tx, SYSTEM_ORIGIN, task.id, { trigger: 'MANUAL' });
    await tx.query(sql.unsafe`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'dead-worker' WHERE key = ${runKey(run.id)}`);
    await tx.query(sql.unsafe`UPDATE task_runs SET lease_owner = gen_random_uuid(), lease_until = now() + interval '2 seconds' WHERE job_id = ${run.id}`);
    await tx.query(sql.unsafe`UPDATE jobs SET status = 'RUNNING', started_at = now() WHERE id = ${run.id}`);
    await tx.query(sql.unsafe`
      SELECT graphile_worker.add_job('tasks__run', json_build_object('jobId', ${run.id}::text), job_key => ${runKey(run.id)}, run_at => now() + interval '3 seconds')`);
    return run.id;
  });
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${runId}`)), 'RUNNING');
  const ended = await get(`/api/v1/jobs/${runId}?wait=30`);
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended));
  const children = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&type=RCON&sort=createdAt`)).data;
  t.deepEqual(
    children.map((job: { result: { output: string } }) => job.result.output),
    ['one', 'two'],
  );
});

test.serial(
  'edit and delete while pending: a replaced occurrence and a deleted task never run; a task deleted mid-run ends CANCELLED before its next step',
  async (t) => {
    const { clusterId, serverId } = await setup();
    const edited = await createTask(clusterId, [serverId], [{ type: 'BROADCAST', message: 'edited' }]);
    const deleted = await createTask(clusterId, [serverId], [{ type: 'BROADCAST', message: 'deleted' }]);
    await dueIn(edited.id, 2_000);
    await dueIn(deleted.id, 2_000);
    const moved = await body(await app.request(`/api/v1/tasks/${edited.id}`, json({ schedule: '0 5 * * *' }, { method: 'PATCH', headers: owner.auth })));
    t.true(Date.parse(moved.nextRunAt) > Date.now() + 60_000);
    t.is((await app.request(`/api/v1/tasks/${deleted.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
    await new Promise((done) => setTimeout(done, 4_000));
    t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${edited.id}`)).meta.total, 0, 'the edit replaced the pending occurrence');
    t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${deleted.id}`)).meta.total, 0, 'the deleted task did not run');
    t.like(await get(`/api/v1/tasks/${edited.id}`), { lastRunStatus: null, nextRunAt: moved.nextRunAt });

    const running = await createTask(
      clusterId,
      [serverId],
      [
        { type: 'BROADCAST', message: 'first' },
        { type: 'BROADCAST', message: 'never', delaySeconds: 3 },
      ],
    );
    const run = await body(await post(`/api/v1/tasks/${running.id}/run`));
    await until(
      async () => (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${running.id}&type=BROADCAST&status=SUCCEEDED`)).meta.total === 1,
      'the first step',
    );
    t.is((await app.request(`/api/v1/tasks/${running.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
    const ended = await get(`/api/v1/jobs/${run.id}?wait=20`);
    t.like(ended, { status: 'CANCELLED', error: { code: 'TASK_DELETED' } });
    t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${running.id}&type=BROADCAST`)).meta.total, 1, 'the second step never ran');
  },
);

test.serial("ten runs waiting out long step delays do not hold up other work: another task's occurrence still runs on time", async (t) => {
  const { clusterId, serverId } = await setup({ agent: false });
  // No agent: broadcasts to the server are skipped, so each run is at once in its ten-minute delay, holding its job.
  const waiting: string[] = [];
  for (let index = 0; index < 10; index++) {
    const task = await createTask(
      clusterId,
      [serverId],
      [
        { type: 'BROADCAST', message: 'soon' },
        { type: 'BROADCAST', message: 'now', delaySeconds: 600 },
      ],
    );
    waiting.push((await body(await post(`/api/v1/tasks/${task.id}/run`))).id);
  }
  await until(
    async () =>
      Number(
        await app.pool.oneFirst(sql.unsafe`
    SELECT count(*) FROM task_runs WHERE job_id = ANY(${sql.array(waiting, 'uuid')}) AND step_index = 1 AND lease_owner IS NOT NULL`),
      ) === 10,
    'ten runs in their delay',
    20_000,
  );

  const other = await createTask(clusterId, [serverId], [{ type: 'BROADCAST', message: 'hello' }]);
  const scheduledAt = await dueIn(other.id, 1_000);
  const run = await finishedRun(clusterId, other.id);
  t.is(run.status, 'SUCCEEDED', JSON.stringify(run));
  const lateMs = Date.parse(run.startedAt) - scheduledAt.getTime();
  t.true(lateMs >= 0 && lateMs < 5_000, `started ${lateMs} ms after its time`);

  // Cancelled, the waiting runs end at once (their executors do not sit out the delay) and their tasks say so.
  for (const id of waiting) t.is((await post(`/api/v1/jobs/${id}/cancel`)).status, 200);
  await until(
    async () =>
      Number(
        await app.pool.oneFirst(sql.unsafe`
    SELECT count(*) FROM task_runs WHERE job_id = ANY(${sql.array(waiting, 'uuid')}) AND lease_owner IS NULL`),
      ) === 10,
    'the cancelled runs released',
    10_000,
  );
  t.is(
    Number(
      await app.pool.oneFirst(sql.unsafe`
    SELECT count(*) FROM tasks t JOIN jobs j ON j.task_id = t.id WHERE j.id = ANY(${sql.array(waiting, 'uuid')}) AND t.last_run_status = 'CANCELLED'`),
    ),
    10,
  );
});

test.serial(
  'a failed step ends the run in the same write: when that write fails once, the resumed run ends FAILED and never starts the next step',
  async (t) => {
    const { clusterId, serverId } = await setup({ agent: false });
    const task = await createTask(clusterId, [serverId], [{ type: 'RCON', command: 'save' }, { type: 'WIPE' }]);
    // One transient failure of the write that ends this task's run FAILED (as a crash or a dropped connection then).
    await app.pool.query(sql.unsafe`CREATE TABLE test_fail_once (task_id uuid PRIMARY KEY)`);
    await app.pool.query(sql.unsafe`CREATE SEQUENCE test_fail_once_seq`);
    await app.pool.query(sql.unsafe`
    CREATE FUNCTION test_fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.type = 'TASK_RUN' AND NEW.status = 'FAILED' AND EXISTS (SELECT 1 FROM test_fail_once f WHERE f.task_id = NEW.task_id)
         AND nextval('test_fail_once_seq') = 1 THEN
        RAISE EXCEPTION 'injected transient failure';
      END IF;
      RETURN NEW;
    END $$`);
    await app.pool.query(sql.unsafe`CREATE TRIGGER test_fail_once BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION test_fail_once()`);
    t.teardown(async () => {
      await app.pool.query(sql.unsafe`DROP TRIGGER test_fail_once ON jobs`);
      await app.pool.query(sql.unsafe`DROP FUNCTION test_fail_once()`);
    });
    await app.pool.query(sql.unsafe`INSERT INTO test_fail_once (task_id) VALUES (${task.id})`);

    // The server is not ONLINE: the RCON step fails. The first attempt to end the run is refused; the run is resumed
    // once its lease lapses.
    const run = await body(await post(`/api/v1/tasks/${task.id}/run`));
    const ended = await get(`/api/v1/jobs/${run.id}?wait=60`);
    t.like(ended, { status: 'FAILED', error: { code: 'STEP_FAILED' } }, JSON.stringify(ended));
    t.true(Boolean(await app.pool.oneFirst(sql.unsafe`SELECT is_called FROM test_fail_once_seq`)), 'the failure was injected');
    t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&type=WIPE`)).meta.total, 0, 'no WIPE after the failed step');
    t.deepEqual(
      ended.result.steps.map((step: { type: string }) => step.type),
      ['RCON'],
      'the step outcome stored once',
    );
    t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'FAILED' });
  },
);

test.serial('lastRunStatus after a cancel: CANCELLED at once; the next run is RUNNING and then its own outcome', async (t) => {
  const { clusterId, serverId } = await setup({ agent: false });
  const task = await createTask(
    clusterId,
    [serverId],
    [
      { type: 'BROADCAST', message: 'a' },
      { type: 'BROADCAST', message: 'b', delaySeconds: 8 },
    ],
  );
  const first = await body(await post(`/api/v1/tasks/${task.id}/run`));
  await until(
    async () => Number(await app.pool.oneFirst(sql.unsafe`SELECT step_index FROM task_runs WHERE job_id = ${first.id}`)) === 1,
    'the first step done',
  );
  t.is((await post(`/api/v1/jobs/${first.id}/cancel`)).status, 200);
  t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'CANCELLED' });

  await app.request(
    `/api/v1/tasks/${task.id}`,
    json(
      {
        steps: [
          { type: 'BROADCAST', message: 'a' },
          { type: 'BROADCAST', message: 'b', delaySeconds: 3 },
        ],
      },
      { method: 'PATCH', headers: owner.auth },
    ),
  );
  const second = await body(await post(`/api/v1/tasks/${task.id}/run`));
  t.is(second.status, 'QUEUED');
  // The cancelled run's executor has noticed by now; it must not write over the run under way.
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT lease_owner IS NULL FROM task_runs WHERE job_id = ${first.id}`)) === true,
    'the cancelled run released',
    10_000,
  );
  await new Promise((done) => setTimeout(done, 1_000));
  t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'RUNNING' });
  const ended = await get(`/api/v1/jobs/${second.id}?wait=30`);
  t.is(ended.status, 'SUCCEEDED');
  t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'SUCCEEDED' });
  t.like(await get(`/api/v1/jobs/${first.id}`), { status: 'CANCELLED' });
});

test.serial("the classic weekly wipe on a RUST server: warnings, stop, the adapter's wipe paths deleted (config kept), start", async (t) => {
  const world = await createWorld(app, owner, {
    server: { name: 'rust', gameType: 'RUST', env: { FAKE_READY_LINE: 'Server startup complete' } },
    agents,
  });
  const { clusterId } = world;
  const agent = world.agent!;
  const server = { id: world.serverId };
  await world.start(server.id);
  const dir = join(agent.dataDir, 'servers', server.id, 'server', 'main');
  const { mkdir, writeFile, readdir } = await import('node:fs/promises');
  await mkdir(join(dir, 'cfg'), { recursive: true });
  for (const file of ['proceduralmap.3500.1.map', 'proceduralmap.3500.1.sav', 'player.blueprints.5.db', 'cfg/server.cfg'])
    await writeFile(join(dir, file), 'x');

  const task = await createTask(
    clusterId,
    [server.id],
    [
      { type: 'BROADCAST', message: 'Wipe in 2 seconds' },
      { type: 'BROADCAST', message: 'Wiping now', delaySeconds: 1 },
      { type: 'STOP', delaySeconds: 1 },
      { type: 'WIPE' },
      { type: 'START' },
    ],
    { name: 'Weekly wipe', schedule: '0 18 * * thu' },
  );
  const run = await body(await post(`/api/v1/tasks/${task.id}/run?wait=60`));
  t.is(run.status, 'SUCCEEDED', JSON.stringify(run));
  const children = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&sort=createdAt`)).data.filter(
    (job: { type: string }) => job.type !== 'TASK_RUN',
  );
  t.deepEqual(
    children.map((job: { type: string; status: string }) => `${job.type} ${job.status}`),
    ['BROADCAST SUCCEEDED', 'BROADCAST SUCCEEDED', 'STOP SUCCEEDED', 'WIPE SUCCEEDED', 'START SUCCEEDED'],
  );
  t.deepEqual([...children[3].result.deleted].sort(), [
    'server/main/player.blueprints.5.db',
    'server/main/proceduralmap.3500.1.map',
    'server/main/proceduralmap.3500.1.sav',
  ]);
  t.deepEqual(await readdir(dir), ['cfg'], 'the config stays');
  const log = await consoleLog(agent, server.id);
  // RUST's say quotes the message.
  t.true(log.includes('[Chat] "Wipe in 2 seconds"') && log.indexOf('[Chat] "Wipe in 2 seconds"') < log.indexOf('[Chat] "Wiping now"'), log);
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${server.id}`)), 'ONLINE');
});
