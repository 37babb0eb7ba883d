/**
 * Tasks across orchestrator processes (`node main.ts --role=orchestrator`, real processes beside the API): occurrences
 * that fell due while none ran are handled at start-up (run once if less than a period late, else MISSED), and a run
 * whose orchestrator is SIGKILLed between two steps is finished by a new one, each step once.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { sql } from 'slonik';
import { until } from '../support/wait.ts';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { FAKE_SERVER, freePorts, startAgent } from '../support/agentProcess.ts';
import { scheduleOccurrence } from '../../orchestrator/tasks/store.ts';

const app = useTestApp(test);

/** An orchestrator process on `port`, killed when the test ends; resolves once it is ready. */
async function startOrchestrator(t: ExecutionContext, port: number) {
  const child = spawn(process.execPath, ['main.ts', '--role=orchestrator'], {
    env: { ...process.env, DATABASE_URL: app().database.url, PORT: String(port), AGENT_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  t.teardown(() => void child.kill('SIGKILL'));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, 'orchestrator ready', 60_000);
  return { child, exited };
}

test.serial('occurrences that fell due while no orchestrator ran: at start-up one less than a period late runs once, one later is MISSED', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const request = (path: string, payload: unknown) => app().request(path, json(payload, { headers: owner.auth }));
  const get = async (path: string) => body(await app().request(path, { headers: owner.auth }));
  const machine = await body(await request(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' }));
  const server = await body(
    await request(`/api/v1/clusters/${clusterId}/servers`, {
      name: 'offline',
      gameType: 'RUST',
      machineId: machine.id,
      gamePort: 31000,
      queryPort: 31001,
      rconPort: 31002,
    }),
  );
  // No agent: with onlyWhenOnline the run has no server to act on and succeeds doing nothing.
  const yearly = { schedule: '0 0 1 1 *', timezone: 'UTC', serverIds: [server.id], steps: [{ type: 'RESTART' }], onlyWhenOnline: true };
  const late = await body(await request(`/api/v1/clusters/${clusterId}/tasks`, { ...yearly, name: 'late' }));
  const missed = await body(await request(`/api/v1/clusters/${clusterId}/tasks`, { ...yearly, name: 'missed' }));
  // As the database holds them after an outage: the pending occurrences lie in the past.
  const lateAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  await app().pool.transaction(async (tx) => {
    await scheduleOccurrence(tx, late.id, lateAt);
    await scheduleOccurrence(tx, missed.id, new Date(lateAt.getTime() - 400 * 86_400_000));
  });

  await startOrchestrator(t, (await freePorts(1))[0]!);
  await until(
    async () => (await get(`/api/v1/tasks/${missed.id}`)).lastRunStatus === 'MISSED' && (await get(`/api/v1/tasks/${late.id}`)).lastRunStatus === 'SUCCEEDED',
    'both handled',
    20_000,
  );
  const runs = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${late.id}`)).data;
  t.is(runs.length, 1);
  t.like(runs[0], { type: 'TASK_RUN', status: 'SUCCEEDED', params: { scheduledAt: lateAt.toISOString(), serverIds: [], skippedServerIds: [server.id] } });
  t.is((await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${missed.id}`)).meta.total, 0);
  const nextNewYear = `${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`;
  t.is((await get(`/api/v1/tasks/${late.id}`)).nextRunAt, nextNewYear);
  t.like(await get(`/api/v1/tasks/${missed.id}`), { nextRunAt: nextNewYear, lastRunStatus: 'MISSED' });
});

test.serial('an orchestrator killed mid-run: another one resumes the run after the lease lapses, and each step runs once', async (t) => {
  const [port, gamePort, queryPort, rconPort] = await freePorts(4);
  const orchestrator = await startOrchestrator(t, port!);
  const url = `http://127.0.0.1:${port}`;

  const owner = await signUp(app());
  const request = (path: string, payload?: unknown) =>
    app().request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth }));
  const get = async (path: string) => body(await app().request(path, { headers: owner.auth }));
  const clusterId = await createCluster(app(), owner);
  const machine = await body(await request(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' }));
  const server = await body(
    await request(`/api/v1/clusters/${clusterId}/servers`, {
      name: 'fake',
      gameType: 'CUSTOM',
      machineId: machine.id,
      gamePort,
      queryPort,
      rconPort,
      rconPassword: 'fake-password',
      startCommand: `${process.execPath} ${FAKE_SERVER}`,
    }),
  );
  const agent = await startAgent({ url, machineId: machine.id, token: machine.agentToken });
  t.teardown(() => void agent.stop());
  t.is((await body(await request(`/api/v1/servers/${server.id}/start?wait=30`))).status, 'SUCCEEDED');

  const task = await body(
    await request(`/api/v1/clusters/${clusterId}/tasks`, {
      name: 'two steps',
      schedule: '0 4 * * *',
      serverIds: [server.id],
      steps: [
        { type: 'RCON', command: 'echo one' },
        { type: 'RCON', command: 'echo two', delaySeconds: 4 },
      ],
    }),
  );
  const run = await body(await request(`/api/v1/tasks/${task.id}/run`));
  const rconJobs = async () => (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&type=RCON&sort=createdAt`)).data;
  await until(async () => (await rconJobs())[0]?.status === 'SUCCEEDED', 'the first step done');
  t.is(String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${run.id}`)), 'RUNNING');

  orchestrator.child.kill('SIGKILL');
  await orchestrator.exited;
  await startOrchestrator(t, port!);

  const ended = await get(`/api/v1/jobs/${run.id}?wait=60`);
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended));
  const outputs = (await rconJobs()).map((job: { result: { output: string } | null }) => job.result?.output);
  t.deepEqual(outputs, ['one', 'two'], 'each step once, in order');
  t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'SUCCEEDED' });
  await agent.stop();
});

test.serial('an orchestrator stopped gracefully mid-run (SIGTERM) exits promptly and hands the run over to another one', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const request = (path: string, payload?: unknown) =>
    app().request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth }));
  const get = async (path: string) => body(await app().request(path, { headers: owner.auth }));
  const machine = await body(await request(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' }));
  const server = await body(
    await request(`/api/v1/clusters/${clusterId}/servers`, {
      name: 'offline',
      gameType: 'RUST',
      machineId: machine.id,
      gamePort: 32000,
      queryPort: 32001,
      rconPort: 32002,
    }),
  );
  // No agent: broadcasts to a server that is not ONLINE are skipped, so the run is all orchestrator work.
  const task = await body(
    await request(`/api/v1/clusters/${clusterId}/tasks`, {
      name: 'handover',
      schedule: '0 4 * * *',
      serverIds: [server.id],
      steps: [
        { type: 'BROADCAST', message: 'one' },
        // Long enough for the second orchestrator to start on a loaded machine (it took over 8 s in a CI run, and the
        // run had ended before the SIGTERM): the run must still be waiting here when the first one stops.
        { type: 'BROADCAST', message: 'two', delaySeconds: 20 },
      ],
    }),
  );
  const [first, second] = await freePorts(2);
  const leaving = await startOrchestrator(t, first!);
  const run = await body(await request(`/api/v1/tasks/${task.id}/run`));
  const stepIndex = async () => Number(await app().pool.oneFirst(sql.unsafe`SELECT step_index FROM task_runs WHERE job_id = ${run.id}`));
  await until(async () => (await stepIndex()) === 1, 'the first step done');
  await startOrchestrator(t, second!);
  // The second orchestrator must be up while the run waits out its second step's delay (else there is nothing to hand over).
  t.is(await stepIndex(), 1, 'the second orchestrator started after the run had gone on (over 20 s): nothing left to hand over');

  const leaseOwner = async () =>
    (await app().pool.oneFirst(sql.unsafe`SELECT coalesce(lease_owner::text, 'none') FROM task_runs WHERE job_id = ${run.id}`)) as string;
  // Read once the run is leased again (between its steps, on a loaded machine, the lease may be a moment away).
  await until(async () => (await leaseOwner()) !== 'none', 'the run leased');
  const before = await leaseOwner();
  const stoppedAt = Date.now();
  leaving.child.kill('SIGTERM');
  t.is(await leaving.exited, 0);
  t.true(Date.now() - stoppedAt < 15_000, `exited after ${Date.now() - stoppedAt} ms`);
  t.not(await leaseOwner(), before, 'the lease was handed over, not left to lapse');
  const ended = await get(`/api/v1/jobs/${run.id}?wait=40`);
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended));
  t.deepEqual(
    ended.result.steps.map((step: { type: string; jobs: { status: string }[] }) => `${step.type} ${step.jobs.map((job) => job.status)}`),
    ['BROADCAST SKIPPED', 'BROADCAST SKIPPED'],
  );
});

test.serial('two orchestrator processes at once, with duplicated scheduler jobs: each occurrence runs once', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const request = (path: string, payload: unknown) => app().request(path, json(payload, { headers: owner.auth }));
  const get = async (path: string) => body(await app().request(path, { headers: owner.auth }));
  const machine = await body(await request(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' }));
  const server = await body(
    await request(`/api/v1/clusters/${clusterId}/servers`, {
      name: 'offline',
      gameType: 'RUST',
      machineId: machine.id,
      gamePort: 33000,
      queryPort: 33001,
      rconPort: 33002,
    }),
  );
  // No agent: the runs have no ONLINE server to act on and end at once, so only the scheduling is under test.
  const task = await body(
    await request(`/api/v1/clusters/${clusterId}/tasks`, {
      name: 'twice?',
      schedule: '0 4 * * *',
      serverIds: [server.id],
      steps: [{ type: 'RESTART' }],
      onlyWhenOnline: true,
    }),
  );
  const [first, second] = await freePorts(2);
  await startOrchestrator(t, first!);
  await startOrchestrator(t, second!);

  const occurrences: string[] = [];
  for (let index = 0; index < 3; index++) {
    const at = new Date(Math.ceil((Date.now() + 1_500) / 1000) * 1000);
    occurrences.push(at.toISOString());
    await app().pool.transaction(async (tx) => {
      await scheduleOccurrence(tx, task.id, at);
      // Stale copies of the occurrence (as a replaced or retried job would leave), racing on both processes.
      for (let copy = 0; copy < 4; copy++) {
        await tx.query(sql.unsafe`
          SELECT graphile_worker.add_job('tasks__trigger', json_build_object('taskId', ${task.id}::text, 'scheduledAt', ${at.toISOString()}::text), run_at => ${at.toISOString()}::timestamptz)`);
      }
    });
    await until(
      async () =>
        Number(
          await app().pool.oneFirst(sql.unsafe`
      SELECT count(*) FROM graphile_worker._private_jobs WHERE payload->>'scheduledAt' = ${at.toISOString()}`),
        ) === 0,
      `occurrence ${index + 1} handled everywhere`,
      20_000,
    );
    // Its run ends before the next occurrence (which would otherwise be SKIPPED as overlapping).
    await until(
      async () =>
        Number(
          await app().pool.oneFirst(sql.unsafe`
      SELECT count(*) FROM jobs WHERE task_id = ${task.id} AND status = 'SUCCEEDED'`),
        ) >=
        index + 1,
      `run ${index + 1} ended`,
    );
  }
  await until(async () => (await get(`/api/v1/tasks/${task.id}`)).lastRunStatus === 'SUCCEEDED', 'the last run ended');
  const runs = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&sort=createdAt`)).data;
  t.deepEqual(
    runs.map((run: { params: { scheduledAt: string } }) => run.params.scheduledAt),
    occurrences,
    'one run per occurrence',
  );
  t.true(runs.every((run: { status: string }) => run.status === 'SUCCEEDED'));
});
