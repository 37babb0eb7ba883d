/**
 * The child jobs of a batch of task steps, accepted together (orchestrator/jobs/serverJobs.ts `acceptStepJobs`), answer
 * what accepting them one by one with `acceptServerJob` answers, on servers in every state an accept looks at: a job,
 * or the same error (a deleted server's 404, a launch refused by its install's state, a server being transferred),
 * and the same servers' desired status afterwards. Both are run on the same rows, each in a transaction rolled back.
 * And a run's lease renewal, which moves the run's resume job only when it would fall due soon.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp, type TestUser } from '../support/identity.ts';
import { writeTransferUnderWay } from '../support/transfers.ts';
import { acceptServerJob, acceptStepJobs, DESIRED_BY_TYPE, type StepJobRequest } from '../../orchestrator/jobs/serverJobs.ts';
import { AppError } from '../../schema/errors.ts';
import type { Job } from '../../schema/jobs.ts';
import { taskOrigin } from '../../schema/origin.ts';
import { renewLeases, startFirstSteps } from '../../orchestrator/tasks/runner.ts';
import { LEASE_MS, RESUME_AHEAD_MS, RESUME_MIN_AHEAD_MS, runKey } from '../../orchestrator/tasks/store.ts';

let owner: TestUser;
const app = useTestApp(test, { setup: async (started) => void (owner = await signUp(started)) });

/** POSTs as the owner (a JSON body, or none). */
const post = async (path: string, payload?: unknown) =>
  body(await app().request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth })));

/** A cluster with two machines (`host`, `target`) and a RUST server on `host` at each of `ports`. */
async function fleet(ports: readonly number[]) {
  const clusterId = await createCluster(app(), owner);
  const machine = await post(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' });
  const target = await post(`/api/v1/clusters/${clusterId}/machines`, { name: 'target' });
  const serverIds: string[] = [];
  for (const port of ports) {
    const server = await post(`/api/v1/clusters/${clusterId}/servers`, {
      name: `s${port}`,
      gameType: 'RUST',
      machineId: machine.id,
      gamePort: port,
      queryPort: port + 1,
      rconPort: port + 2,
    });
    serverIds.push(server.id);
  }
  return { clusterId, machineId: machine.id as string, targetId: target.id as string, serverIds };
}

class RolledBack extends Error {}

/** Runs `work` in a transaction that is then rolled back; answers what it answered. */
async function rolledBack<T>(work: (tx: DatabaseTransactionConnection) => Promise<T>): Promise<T> {
  let answer: T | undefined;
  await app()
    .pool.transaction(async (tx) => {
      answer = await work(tx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return answer!;
}

/** What two answers may be compared on: a job's fields that do not differ by its id or the moment, or the error. */
const comparable = (answer: Job | AppError) =>
  answer instanceof AppError
    ? { error: { status: answer.status, message: answer.message, extra: answer.extra } }
    : {
        job: {
          clusterId: answer.clusterId,
          serverId: answer.serverId,
          machineId: answer.machineId,
          taskId: answer.taskId,
          type: answer.type,
          status: answer.status,
          params: answer.params,
          createdBy: answer.createdBy,
          ttlS: Math.round((Date.parse(answer.expiresAt) - Date.parse(answer.createdAt)) / 1000),
        },
      };

test('accepted together, a batch of step jobs answers what one accept after another answers, on servers in every state', async (t) => {
  const { clusterId, machineId, targetId, serverIds } = await fleet([31000, 31010, 31020, 31030, 31040]);
  const [fresh, online, failed, cancelled, moving] = serverIds as [string, string, string, string, string];
  // fresh: INSTALLING, its install queued (launches wait their turn); online; failed: its install FAILED (launches
  // refused); cancelled: its install CANCELLED (never installed, launches refused); moving: being transferred (every
  // job refused); gone: deleted.
  const gone = randomUUID();
  const { pool } = app();
  await pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE', installed_at = now() WHERE id = ${online}`);
  await pool.query(
    sql.unsafe`UPDATE jobs SET status = 'FAILED', error = '{"code":"E","message":"disk full"}', finished_at = now() WHERE server_id = ${failed} AND type = 'INSTALL'`,
  );
  await pool.query(sql.unsafe`UPDATE jobs SET status = 'CANCELLED', finished_at = now() WHERE server_id = ${cancelled} AND type = 'INSTALL'`);
  const client = new pg.Client({ connectionString: app().database.url });
  await client.connect();
  await writeTransferUnderWay(client, { clusterId, serverId: moving, sourceMachineId: machineId, targetMachineId: targetId });
  await client.end();

  const taskA = randomUUID();
  const taskB = randomUUID();
  const types = ['START', 'STOP', 'RESTART', 'RCON', 'BROADCAST', 'WIPE'] as const;
  const requests: StepJobRequest[] = [fresh, online, failed, cancelled, moving, gone].flatMap((serverId, index) =>
    types.map((type) => ({
      serverId,
      type,
      params: type === 'RCON' ? { command: `say ${index}` } : type === 'BROADCAST' ? { message: `hello ${index}` } : {},
      taskId: index % 2 === 0 ? taskA : taskB,
    })),
  );
  // Two runs' children on one server, the later one's desired status last.
  requests.push({ serverId: online, type: 'STOP', params: {}, taskId: taskB }, { serverId: fresh, type: 'START', params: {}, taskId: taskA });

  const desiredRow = z.object({ id: z.string(), desired: z.string().nullable(), touched: z.boolean() });
  const servers = [fresh, online, failed, cancelled, moving];
  const desiredOf = (tx: DatabaseTransactionConnection) =>
    tx.any(sql.type(desiredRow)`
      SELECT id, desired_status AS desired, updated_at = now() AS touched FROM servers WHERE id = ANY(${sql.array(servers, 'uuid')}) ORDER BY id`);
  const together = await rolledBack(async (tx) => ({ answers: await acceptStepJobs(tx, requests), desired: await desiredOf(tx) }));
  const oneByOne = await rolledBack(async (tx) => {
    const answers: (Job | AppError)[] = [];
    for (const request of requests) {
      answers.push(
        await acceptServerJob(tx, taskOrigin(request.taskId), {
          serverId: request.serverId,
          type: request.type,
          params: request.params,
          desired: DESIRED_BY_TYPE[request.type] ?? null,
          requireRunning: false,
          taskId: request.taskId,
        }).catch((error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        }),
      );
    }
    return { answers, desired: await desiredOf(tx) };
  });

  t.deepEqual(together.answers.map(comparable), oneByOne.answers.map(comparable));
  t.deepEqual(together.desired, oneByOne.desired, "the servers' desired status (and change time) as one by one leaves them");
  // The cases are all there: jobs, and each kind of refusal.
  const kinds = together.answers.map((answer) => (answer instanceof AppError ? `${answer.status} ${String(answer.extra.code ?? '')}` : 'job'));
  t.is(kinds.filter((kind) => kind === 'job').length, 6 + 6 + 4 + 4 + 2, 'every job of the fresh and online servers; the others but launches');
  t.is(kinds.filter((kind) => kind === '404 ').length, 6, "the deleted server's");
  t.is(kinds.filter((kind) => kind === '409 TRANSFER_IN_PROGRESS').length, 6, "the moving server's");
  t.is(kinds.filter((kind) => kind === '409 ').length, 4, 'the launches of the servers never installed');
  t.regex((together.answers[2 * 6] as AppError).message, /its last install failed: disk full/);
  t.regex((together.answers[3 * 6] as AppError).message, /it was never installed \(its install was cancelled\)/);
  // The jobs exist with their deliveries: each one announced and due for its first check.
  const written = await rolledBack(async (tx) => {
    const answers = await acceptStepJobs(tx, requests.slice(0, 6));
    return tx.any(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM jobs WHERE id = ANY(${sql.array(
        answers.map((answer) => (answer as Job).id),
        'uuid',
      )}) AND next_check_at > now() AND status = 'QUEUED'`);
  });
  t.deepEqual(written, [{ n: 6 }]);
});

test("a lease renewal moves the run's resume job only when it would fall due soon, and always leaves it due after the lease", async (t) => {
  const { clusterId, serverIds } = await fleet([31100]);
  const task = await post(`/api/v1/clusters/${clusterId}/tasks`, {
    name: 'never',
    schedule: '0 4 * * *',
    serverIds,
    steps: [{ type: 'BROADCAST', message: 'hi' }],
  });
  // A run held by an executor that is not running (this test renews its lease by hand).
  const run = await post(`/api/v1/tasks/${task.id}/run`);
  const owner_ = randomUUID();
  const { pool } = app();
  const state = () =>
    pool.one(sql.type(z.object({ dueInS: z.number(), recordedInS: z.number().nullable(), leaseInS: z.number() }))`
      SELECT extract(epoch FROM g.run_at - now())::float8 AS "dueInS", extract(epoch FROM r.resume_due_at - now())::float8 AS "recordedInS",
             extract(epoch FROM r.lease_until - now())::float8 AS "leaseInS"
        FROM task_runs r JOIN graphile_worker._private_jobs g ON g.key = ${runKey(run.id)} WHERE r.job_id = ${run.id}`);
  const hold = (resumeInS: number | null) =>
    pool.query(sql.unsafe`
      UPDATE task_runs SET lease_owner = ${owner_}, lease_until = now() + interval '15 seconds',
                           resume_due_at = now() + make_interval(secs => ${resumeInS}) WHERE job_id = ${run.id}`);
  const renew = async () => t.deepEqual([...(await renewLeases(pool, [{ jobId: run.id, owner: owner_ }]))], [run.id]);
  const after = (label: string, { dueInS, leaseInS }: { dueInS: number; leaseInS: number }) =>
    t.true(dueInS >= leaseInS + (RESUME_MIN_AHEAD_MS - LEASE_MS) / 1000 - 1, `${label}: due after the lease, the next renewal's and a margin`);

  // Due in 20 s (less than the lease, a renewal and the margin): moved.
  await hold(20);
  await renew();
  let now = await state();
  t.true(now.dueInS > RESUME_AHEAD_MS / 1000 - 2 && now.dueInS <= RESUME_AHEAD_MS / 1000, `moved to ${RESUME_AHEAD_MS / 1000} s ahead (${now.dueInS})`);
  t.true(Math.abs(now.recordedInS! - now.dueInS) < 0.01, 'and recorded');
  after('moved', now);
  // Renewed again at once: still far enough ahead, not moved (the job's time stays where it was).
  const before = now.dueInS;
  await renew();
  now = await state();
  t.true(Math.abs(now.dueInS - before) < 1, 'not moved');
  after('kept', now);
  // Recorded as unknown (a run from before the column): moved.
  await hold(null);
  await pool.query(
    sql.unsafe`SELECT graphile_worker.add_job('tasks__run', json_build_object('jobId', ${run.id}::text), job_key => ${runKey(run.id)}, run_at => now() + interval '5 seconds')`,
  );
  await renew();
  now = await state();
  t.true(now.dueInS > RESUME_AHEAD_MS / 1000 - 2, `unknown: moved (${now.dueInS})`);
  after('unknown', now);
  // A lease another owner holds is not renewed, and its job not moved.
  await pool.query(sql.unsafe`UPDATE task_runs SET lease_owner = ${randomUUID()}, resume_due_at = now() WHERE job_id = ${run.id}`);
  t.deepEqual([...(await renewLeases(pool, [{ jobId: run.id, owner: owner_ }]))], []);
  t.true(Math.abs((await state()).dueInS - now.dueInS) < 1, 'the other holder’s job left alone');
});

test('a transfer committed while the batch waits for its server is seen once the server is locked: 409 for that server, jobs for the others', async (t) => {
  const { clusterId, machineId, targetId, serverIds } = await fleet([31200, 31210]);
  const [moving, staying] = serverIds as [string, string];
  const locker = new pg.Client({ connectionString: app().database.url });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('SELECT id FROM servers WHERE id = $1 FOR UPDATE', [moving]);
  const taskId = randomUUID();
  const answering = rolledBack((tx) =>
    acceptStepJobs(tx, [
      { serverId: staying, type: 'STOP', params: {}, taskId },
      { serverId: moving, type: 'STOP', params: {}, taskId },
    ]),
  );
  // The batch waiting for this connection's lock (not any lock wait of another test).
  const waiting = async () =>
    Number((await locker.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))`)).rows[0].n) > 0;
  for (let tries = 0; !(await waiting()); tries++) {
    if (tries > 100) throw new Error('the batch never waited for the server');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const transferJob = await writeTransferUnderWay(locker, { clusterId, serverId: moving, sourceMachineId: machineId, targetMachineId: targetId });
  await locker.query('COMMIT');
  await locker.end();
  const [stop, refused] = await answering;
  t.like(stop, { type: 'STOP', serverId: staying, status: 'QUEUED' });
  t.true(refused instanceof AppError);
  t.like(refused, { status: 409, extra: { code: 'TRANSFER_IN_PROGRESS', jobId: transferJob } });
});

test('more step jobs than one statement writes: each answered with its own job, in order', async (t) => {
  const { serverIds } = await fleet([31300, 31310, 31320]);
  const taskId = randomUUID();
  // More rows than one statement could take (about 14 parameters a row; Postgres takes at most 65,535 a statement).
  const requests = Array.from({ length: 5_001 }, (_, index) => ({
    serverId: serverIds[index % 3]!,
    type: 'BROADCAST' as const,
    params: { message: `m${index}` },
    taskId,
  }));
  const answers = await rolledBack((tx) => acceptStepJobs(tx, requests));
  t.is(answers.length, requests.length);
  t.is(new Set(answers.map((answer) => (answer as Job).id)).size, requests.length, 'a job each');
  t.true(
    answers.every((answer, index) => !(answer instanceof AppError) && answer.serverId === requests[index]!.serverId && answer.params.message === `m${index}`),
    "each answer is its own request's job",
  );
});

test("the first steps' lock wait ends with their savepoint: the caller's transaction keeps its own", async (t) => {
  const { serverIds } = await fleet([31400]);
  const setting = await app().pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SET LOCAL lock_timeout = '1500ms'`);
    // A run this process does not hold: its step starts nothing, and the savepoint is released.
    await startFirstSteps(tx, [
      {
        jobId: randomUUID(),
        owner: randomUUID(),
        taskId: randomUUID(),
        steps: [{ type: 'BROADCAST', message: 'hi', delaySeconds: 0, continueOnFailure: false }],
        serverIds,
      },
    ]);
    return tx.oneFirst(sql.type(z.object({ value: z.string() }))`SELECT current_setting('lock_timeout') AS value`);
  });
  t.is(setting, '1500ms');
});
