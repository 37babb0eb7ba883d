/**
 * The tasks API without an agent: create, read, list, update and delete with validation, `nextRunAt` in the task's
 * time zone, the pending occurrence (graphile-worker job `task:<id>`) kept in step with the row, occurrences handled
 * once (stale, missed, skipped) with fixed clocks, run-now, and audit entries.
 */
import test from 'ava';
import pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json, useTestApp, type TestApp } from '../support/app.ts';
import { addMember, createCluster, signUp, type TestUser } from '../support/identity.ts';
import { nextRunAfter } from '../../schema/schedule.ts';
import { DUE_BATCH, handleAllDueOccurrences, handleTaskOccurrence, triggerKey, type OccurrenceOutcome } from '../../orchestrator/tasks/store.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { createRunExecutor, executeRun, startFirstSteps } from '../../orchestrator/tasks/runner.ts';
import { createLogger } from '../../schema/logger.ts';
import { until } from '../support/wait.ts';
import { writeTransferUnderWay } from '../support/transfers.ts';
import { triggerTask } from '../../orchestrator/worker/tasks__trigger.ts';

let owner: TestUser;
const app = useTestApp(test, { setup: async (started) => void (owner = await signUp(started)) });

async function setup(target: TestApp = app()) {
  const clusterId = await createCluster(target, owner);
  const machine = await body(await target.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const serverIds: string[] = [];
  for (const port of [30000, 30010]) {
    const server = await body(
      await target.request(
        `/api/v1/clusters/${clusterId}/servers`,
        json({ name: `s${port}`, gameType: 'RUST', machineId: machine.id, gamePort: port, queryPort: port + 1, rconPort: port + 2 }, { headers: owner.auth }),
      ),
    );
    serverIds.push(server.id);
  }
  return { clusterId, serverIds, machineId: machine.id as string };
}

const NIGHTLY = (serverIds: string[]) => ({
  name: 'Nightly restart',
  schedule: '0 4 * * *',
  timezone: 'Europe/Berlin',
  serverIds,
  steps: [
    { type: 'BROADCAST', message: 'Restart in 5 minutes' },
    { type: 'BROADCAST', message: 'Restart in 1 minute', delaySeconds: 240 },
    { type: 'RESTART', delaySeconds: 60 },
  ],
});

/**
 * A yearly schedule: its graphile-worker job stays far ahead (nothing else fires it), and an occurrence is MISSED only
 * when it is over a year late.
 */
const YEARLY = (serverIds: string[]) => ({ ...NIGHTLY(serverIds), schedule: '0 0 1 1 *', timezone: 'UTC' });
/**
 * Makes the tasks `ids` due at the last minute boundary but one (due now, less than a period late); answers that
 * minute.
 */
async function makeDue(ids: readonly string[]): Promise<Date> {
  const dueAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
  await app().pool.query(sql.unsafe`UPDATE tasks SET next_run_at = ${dueAt.toISOString()}::timestamptz WHERE id = ANY(${sql.array([...ids], 'uuid')})`);
  return dueAt;
}

const post = (path: string, payload: unknown, user = owner) => app().request(path, json(payload, { headers: user.auth }));
const patch = (path: string, payload: unknown, user = owner) => app().request(path, json(payload, { method: 'PATCH', headers: user.auth }));
const get = (path: string, user = owner) => app().request(path, { headers: user.auth });

const pendingRow = z.object({ runAt: z.string(), payload: z.record(z.string(), z.unknown()) });
/** The graphile-worker job of the task's pending occurrence, or null. */
const pending = (taskId: string) =>
  app().pool.maybeOne(sql.type(pendingRow)`
    SELECT to_json(run_at)#>>'{}' AS "runAt", payload FROM graphile_worker._private_jobs WHERE key = ${triggerKey(taskId)}`);

test('create answers the task with defaults and nextRunAt in its time zone, and schedules its occurrence', async (t) => {
  const { clusterId, serverIds } = await setup();
  const before = new Date();
  const response = await post(`/api/v1/clusters/${clusterId}/tasks`, NIGHTLY(serverIds));
  t.is(response.status, 201);
  const created = await body(response);
  t.is(response.headers.get('location'), `/api/v1/tasks/${created.id}`);
  t.like(created, {
    clusterId,
    name: 'Nightly restart',
    description: null,
    timezone: 'Europe/Berlin',
    onlyWhenOnline: false,
    enabled: true,
    lastRunAt: null,
    lastRunStatus: null,
  });
  t.deepEqual(created.serverIds, serverIds);
  t.deepEqual(created.steps, [
    { type: 'BROADCAST', message: 'Restart in 5 minutes', delaySeconds: 0, continueOnFailure: false },
    { type: 'BROADCAST', message: 'Restart in 1 minute', delaySeconds: 240, continueOnFailure: false },
    { type: 'RESTART', delaySeconds: 60, continueOnFailure: false },
  ]);
  t.is(created.nextRunAt, nextRunAfter('0 4 * * *', 'Europe/Berlin', before).toISOString());
  const berlinHour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(new Date(created.nextRunAt));
  t.is(berlinHour, '04:00');
  const job = await pending(created.id);
  t.deepEqual(job?.payload, { taskId: created.id, scheduledAt: created.nextRunAt });
  t.is(new Date(job!.runAt).toISOString(), created.nextRunAt);

  t.deepEqual(await body(await get(`/api/v1/tasks/${created.id}`)), created);
  const audit = await body(await get(`/api/v1/clusters/${clusterId}/audit-log?action=task.create`));
  t.is(audit.data[0].target.id, created.id);
});

test('bad input is a 400 naming every bad field, and changes nothing', async (t) => {
  const { clusterId, serverIds } = await setup();
  const other = await setup();
  const response = await post(`/api/v1/clusters/${clusterId}/tasks`, {
    name: '',
    schedule: '0 4 * *',
    timezone: 'Mars/Olympus_Mons',
    serverIds: [],
    steps: [
      { type: 'RCON' },
      { type: 'BROADCAST', message: 'hi', command: 'say hi' },
      { type: 'REBOOT' },
      { type: 'START', delaySeconds: 3601, continueOnFailure: 'yes' },
    ],
    colour: 'red',
  });
  t.is(response.status, 400);
  const error = await body(response);
  t.like(error, { statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
  const fields = error.details.map((detail: { field: string }) => detail.field).sort();
  t.deepEqual(
    fields,
    [
      'colour',
      'name',
      'schedule',
      'serverIds',
      'steps.0.command',
      'steps.1.command',
      'steps.2.type',
      'steps.3.continueOnFailure',
      'steps.3.delaySeconds',
      'timezone',
    ].sort(),
  );

  const cases: [unknown, string][] = [
    [{ ...NIGHTLY(serverIds), schedule: '0 0 30 2 *' }, 'schedule'],
    [{ ...NIGHTLY(serverIds), schedule: '0 0 0 * * *' }, 'schedule'],
    [{ ...NIGHTLY(serverIds), steps: [] }, 'steps'],
    [{ ...NIGHTLY(serverIds), steps: Array.from({ length: 21 }, () => ({ type: 'START' })) }, 'steps'],
    [{ ...NIGHTLY(serverIds), steps: [{ type: 'RCON', command: 'x'.repeat(1025) }] }, 'steps.0.command'],
    [{ ...NIGHTLY(serverIds), serverIds: [serverIds[0], serverIds[0]] }, 'serverIds'],
    [{ ...NIGHTLY(serverIds), serverIds: [serverIds[0], other.serverIds[0]] }, 'serverIds.1'],
    [{ ...NIGHTLY(serverIds), serverIds: ['0190c0de-0000-7000-8000-000000000000'] }, 'serverIds.0'],
    [{ ...NIGHTLY(serverIds), serverIds: ['not-an-id'] }, 'serverIds.0'],
    [{ ...NIGHTLY(serverIds), name: 'x'.repeat(65) }, 'name'],
    [{ ...NIGHTLY(serverIds), description: 'x'.repeat(501) }, 'description'],
  ];
  for (const [payload, field] of cases) {
    const answer = await post(`/api/v1/clusters/${clusterId}/tasks`, payload);
    t.is(answer.status, 400, field);
    t.deepEqual(
      (await body(answer)).details.map((detail: { field: string }) => detail.field),
      [field],
      JSON.stringify(payload).slice(0, 120),
    );
  }
  t.is((await body(await get(`/api/v1/clusters/${clusterId}/tasks`))).meta.total, 0);
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM tasks WHERE cluster_id = ${clusterId}`), 0);
});

test('list: pagination, sort, enabled filter; unknown ids are 404', async (t) => {
  const { clusterId, serverIds } = await setup();
  for (const [name, enabled] of [
    ['b', true],
    ['a', false],
    ['c', true],
  ] as const) {
    t.is((await post(`/api/v1/clusters/${clusterId}/tasks`, { ...NIGHTLY(serverIds), name, enabled })).status, 201);
  }
  const list = await body(await get(`/api/v1/clusters/${clusterId}/tasks?sort=name&limit=2`));
  t.deepEqual(
    list.data.map((item: { name: string }) => item.name),
    ['a', 'b'],
  );
  t.deepEqual(list.meta, { total: 3, page: 1, limit: 2, totalPages: 2 });
  const enabled = await body(await get(`/api/v1/clusters/${clusterId}/tasks?enabled=true&sort=-name`));
  t.deepEqual(
    enabled.data.map((item: { name: string }) => item.name),
    ['c', 'b'],
  );
  const disabled = (await body(await get(`/api/v1/clusters/${clusterId}/tasks?enabled=false`))).data[0];
  t.like(disabled, { name: 'a', enabled: false, nextRunAt: null });
  t.is(await pending(disabled.id), null, 'a disabled task has no pending occurrence');
  t.is((await get(`/api/v1/clusters/${clusterId}/tasks?sort=schedule`)).status, 400);
  t.is((await get(`/api/v1/clusters/${clusterId}/tasks?enabled=maybe`)).status, 400);
  t.is((await get('/api/v1/tasks/0190c0de-0000-7000-8000-000000000000')).status, 404);
  t.is((await get('/api/v1/tasks/nope')).status, 404);
});

test('PATCH re-validates, recomputes nextRunAt and replaces the pending occurrence; disabling removes it', async (t) => {
  const { clusterId, serverIds } = await setup();
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, NIGHTLY(serverIds)));

  const renamed = await body(await patch(`/api/v1/tasks/${created.id}`, { name: 'Renamed', description: 'nightly' }));
  t.like(renamed, { name: 'Renamed', description: 'nightly', nextRunAt: created.nextRunAt });

  const moved = await patch(`/api/v1/tasks/${created.id}`, { schedule: '30 2 * * *', timezone: 'america/new_york', serverIds: [serverIds[1]] });
  t.is(moved.status, 200);
  const updated = await body(moved);
  t.like(updated, { schedule: '30 2 * * *', timezone: 'America/New_York' });
  t.deepEqual(updated.serverIds, [serverIds[1]]);
  t.is(updated.nextRunAt, nextRunAfter('30 2 * * *', 'America/New_York', new Date(Date.parse(updated.updatedAt) - 1000)).toISOString());
  t.deepEqual((await pending(created.id))?.payload, { taskId: created.id, scheduledAt: updated.nextRunAt }, 'the pending occurrence was replaced');
  t.is(
    await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM graphile_worker._private_jobs WHERE payload->>'taskId' = ${created.id}`),
    1,
    'one pending job, not two',
  );

  for (const [payload, field] of [
    [{ schedule: 'every night' }, 'schedule'],
    [{ timezone: 'Nowhere/Special' }, 'timezone'],
    [{ serverIds: [(await setup()).serverIds[0]] }, 'serverIds.0'],
    [{ steps: [{ type: 'WIPE', message: 'bye' }] }, 'steps.0.message'],
    [{}, '(root)'],
    [{ enabled: 'no' }, 'enabled'],
  ] as const) {
    const answer = await patch(`/api/v1/tasks/${created.id}`, payload);
    t.is(answer.status, 400, field);
    t.deepEqual(
      (await body(answer)).details.map((detail: { field: string }) => detail.field),
      [field],
    );
  }
  t.deepEqual(await body(await get(`/api/v1/tasks/${created.id}`)), updated, 'failed updates changed nothing');

  const disabled = await body(await patch(`/api/v1/tasks/${created.id}`, { enabled: false }));
  t.like(disabled, { enabled: false, nextRunAt: null });
  t.is(await pending(created.id), null);
  const enabled = await body(await patch(`/api/v1/tasks/${created.id}`, { enabled: true }));
  t.truthy(enabled.nextRunAt);
  t.is((await pending(created.id))?.payload.scheduledAt, enabled.nextRunAt);
  t.is((await body(await get(`/api/v1/clusters/${clusterId}/audit-log?action=task.update`))).meta.total, 4);
});

test('DELETE removes the task and its pending occurrence; deleting a server drops it from tasks', async (t) => {
  const { clusterId, serverIds } = await setup();
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, NIGHTLY(serverIds)));
  t.is((await app().request(`/api/v1/servers/${serverIds[0]}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.deepEqual((await body(await get(`/api/v1/tasks/${created.id}`))).serverIds, [serverIds[1]]);
  t.truthy(await pending(created.id));
  const deleted = await app().request(`/api/v1/tasks/${created.id}`, { method: 'DELETE', headers: owner.auth });
  t.is(deleted.status, 200);
  t.deepEqual(await body(deleted), { success: true, message: 'Task deleted' });
  t.is(await pending(created.id), null);
  t.is((await get(`/api/v1/tasks/${created.id}`)).status, 404);
  t.is((await app().request(`/api/v1/tasks/${created.id}`, { method: 'DELETE', headers: owner.auth })).status, 404);
  t.is((await body(await get(`/api/v1/clusters/${clusterId}/audit-log?action=task.delete`))).meta.total, 1);
});

test('an occurrence is handled once: stale and repeated payloads do nothing, a late one runs or is MISSED, an overlapping one is SKIPPED', async (t) => {
  const { clusterId, serverIds } = await setup();
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, { ...NIGHTLY(serverIds), schedule: '*/5 * * * *', timezone: 'UTC' }));
  const { pool } = app();
  const scheduledAt = new Date(created.nextRunAt);
  const at = (offsetMs: number) => () => new Date(scheduledAt.getTime() + offsetMs);

  t.like(await handleTaskOccurrence(pool, created.id, new Date(scheduledAt.getTime() - 300_000), at(0)), { outcome: 'STALE' }, 'not the pending occurrence');
  const ran = await handleTaskOccurrence(pool, created.id, scheduledAt, at(1_000));
  t.is(ran.outcome, 'RAN');
  t.like(await handleTaskOccurrence(pool, created.id, scheduledAt, at(1_000)), { outcome: 'STALE' }, 'the same occurrence again');
  const runs = await body(await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${created.id}&type=TASK_RUN`));
  t.is(runs.meta.total, 1);
  t.like(runs.data[0], {
    type: 'TASK_RUN',
    taskId: created.id,
    serverId: null,
    machineId: null,
    createdBy: { kind: 'TASK', id: created.id },
    params: { trigger: 'SCHEDULE', scheduledAt: created.nextRunAt, serverIds },
  });
  t.is(
    await pool.oneFirst(
      sql.unsafe`SELECT count(*)::int FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id WHERE k.identifier = 'jobs__dispatch' AND j.payload->>'jobId' = ${runs.data[0].id}`,
    ),
    0,
    'a TASK_RUN is not sent to an agent',
  );
  const afterRun = await body(await get(`/api/v1/tasks/${created.id}`));
  t.is(afterRun.nextRunAt, new Date(scheduledAt.getTime() + 300_000).toISOString());
  t.is(afterRun.lastRunStatus, 'RUNNING');

  // The next occurrence comes while that run is still under way: SKIPPED (the run keeps saying RUNNING).
  const second = new Date(afterRun.nextRunAt);
  t.like(await handleTaskOccurrence(pool, created.id, second, () => second), { outcome: 'SKIPPED' });
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'RUNNING', lastRunAt: afterRun.lastRunAt });

  // The service was down for twelve minutes over a five-minute period: MISSED, and the next one is in the future.
  await pool.query(sql.unsafe`UPDATE jobs SET status = 'SUCCEEDED', finished_at = now() WHERE id = ${runs.data[0].id}`);
  const third = new Date(second.getTime() + 300_000);
  const missed = await handleTaskOccurrence(pool, created.id, third, () => new Date(third.getTime() + 12 * 60_000));
  t.like(missed, { outcome: 'MISSED' });
  t.is((missed as { next: Date }).next.toISOString(), new Date(third.getTime() + 15 * 60_000).toISOString());
  const task = await body(await get(`/api/v1/tasks/${created.id}`));
  t.like(task, { lastRunStatus: 'MISSED', lastRunAt: third.toISOString(), nextRunAt: new Date(third.getTime() + 15 * 60_000).toISOString() });
  t.is((await pending(created.id))?.payload.scheduledAt, task.nextRunAt);
  t.is(
    (await body(await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${created.id}&type=TASK_RUN`))).meta.total,
    1,
    'no run for the skipped and the missed occurrence',
  );

  // Less than a period late: it runs.
  const fourth = new Date(task.nextRunAt);
  t.like(await handleTaskOccurrence(pool, created.id, fourth, () => new Date(fourth.getTime() + 4 * 60_000)), { outcome: 'RAN' });

  // Disabled: its occurrence does nothing.
  await patch(`/api/v1/tasks/${created.id}`, { enabled: false });
  t.like(await handleTaskOccurrence(pool, created.id, new Date(fourth.getTime() + 300_000), at(0)), { outcome: 'STALE' });
});

// Serial (AVA runs these before the others), as every test that drains all due occurrences: two at once would take each other's.
test.serial(
  'the occurrences of a minute thousands of tasks share: handled in batches by concurrent orchestrators, each once, written as one by one would',
  async (t) => {
    const { clusterId, serverIds } = await setup();
    const { pool } = app();
    const yearly = YEARLY(serverIds);
    const TASKS = DUE_BATCH * 2 + 30;
    const ids: string[] = [];
    for (let first = 0; first < TASKS; first += 25) {
      const created = await Promise.all(
        Array.from({ length: Math.min(25, TASKS - first) }, (_, index) =>
          post(`/api/v1/clusters/${clusterId}/tasks`, { ...yearly, name: `t${first + index}` }),
        ),
      );
      for (const response of created) ids.push((await body(response)).id);
    }
    const [missedId, skippedId, poisonId] = ids as [string, string, string];
    // Due a minute ago; one of them two years ago (MISSED); one with a run still under way (SKIPPED).
    const dueAt = await makeDue(ids);
    await pool.query(sql.unsafe`UPDATE tasks SET next_run_at = next_run_at - interval '2 years' WHERE id = ${missedId}`);
    // One whose occurrence cannot be computed (a time zone unknown here), due first: left as it is, for its own job to
    // report, and passed over by the batches after it.
    await pool.query(sql.unsafe`UPDATE tasks SET timezone = 'Mars/Olympus', next_run_at = next_run_at - interval '1 second' WHERE id = ${poisonId}`);
    const earlierRun = await body(await app().request(`/api/v1/tasks/${skippedId}/run`, { method: 'POST', headers: owner.auth }));

    // Two orchestrators (two pools) take batches at once until nothing is due.
    const second = await createDatabasePool(app().database.url, { maxPoolSize: 2 });
    const now = () => new Date();
    const drain = async (from: DatabasePool) => {
      const outcomes: OccurrenceOutcome[] = [];
      await handleAllDueOccurrences(from, now, true, (batch) => outcomes.push(...batch));
      return outcomes;
    };
    const outcomes = (await Promise.all([drain(pool), drain(second)])).flat();
    await second.end();
    t.is(outcomes.length, TASKS - 1, 'every due occurrence handled once, but the one that cannot be');
    t.is(outcomes.filter((outcome) => outcome.outcome === 'MISSED').length, 1);
    t.is(outcomes.filter((outcome) => outcome.outcome === 'SKIPPED').length, 1);
    const ran = outcomes.filter((outcome) => outcome.outcome === 'RAN');
    t.is(ran.length, TASKS - 3);
    t.is(new Set(ran.map((outcome) => outcome.job.taskId)).size, TASKS - 3, 'one run per task');
    t.false(ran.some((outcome) => [missedId, skippedId, poisonId].includes(outcome.job.taskId!)));
    await t.throwsAsync(handleTaskOccurrence(pool, poisonId, new Date(dueAt.getTime() - 1_000), now), undefined, 'its own job fails with the reason');

    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`;
    for (const outcome of ran) {
      const { job, lease } = outcome;
      t.like(job, {
        type: 'TASK_RUN',
        clusterId,
        status: 'QUEUED',
        createdBy: { kind: 'TASK', id: job.taskId },
        params: { trigger: 'SCHEDULE', scheduledAt: dueAt.toISOString(), serverIds, skippedServerIds: [] },
      });
      t.is(outcome.next.toISOString(), nextYear);
      t.is(lease?.jobId, job.id);
    }
    // What each task, run and scheduler job holds, read back in one query per kind.
    const rows = await pool.any(sql.type(
      z.object({
        id: z.string(),
        nextRunAt: z.string(),
        lastRunStatus: z.string().nullable(),
        lastRunJobId: z.string().nullable(),
        skipped: z.number(),
        pendingAt: z.string().nullable(),
        pendingScheduledAt: z.string().nullable(),
      }),
    )`
    SELECT t.id, to_json(t.next_run_at)#>>'{}' AS "nextRunAt", t.last_run_status AS "lastRunStatus", t.last_run_job_id AS "lastRunJobId",
           jsonb_array_length(t.skipped_occurrences) AS skipped, to_json(g.run_at)#>>'{}' AS "pendingAt", g.payload->>'scheduledAt' AS "pendingScheduledAt"
      FROM tasks t LEFT JOIN graphile_worker._private_jobs g ON g.key = 'task:' || t.id
     WHERE t.id = ANY(${sql.array(ids, 'uuid')})`);
    const byTask = new Map(rows.map((row) => [row.id, row]));
    t.is(new Date(byTask.get(poisonId)!.nextRunAt).getTime(), dueAt.getTime() - 1_000, 'the one left out is still due');
    t.is(byTask.get(poisonId)!.lastRunStatus, null);
    for (const id of ids.filter((id) => id !== poisonId)) {
      const row = byTask.get(id)!;
      t.is(new Date(row.nextRunAt).toISOString(), nextYear, 'the next occurrence');
      t.is(row.pendingScheduledAt, nextYear, 'its scheduler job, with the occurrence it fires for');
      t.is(new Date(row.pendingAt!).toISOString(), nextYear);
    }
    t.like(byTask.get(missedId), { lastRunStatus: 'MISSED', lastRunJobId: null });
    t.like(byTask.get(skippedId), { lastRunStatus: 'RUNNING', lastRunJobId: earlierRun.id, skipped: 1 });
    for (const { job } of ran) t.like(byTask.get(job.taskId!), { lastRunStatus: 'RUNNING', lastRunJobId: job.id, skipped: 0 });

    const runs = await pool.any(sql.type(
      z.object({
        jobId: z.string(),
        status: z.string(),
        owner: z.string().nullable(),
        leased: z.boolean(),
        servers: z.array(z.string()),
        resumeInS: z.number().nullable(),
      }),
    )`
    SELECT r.job_id AS "jobId", j.status, r.lease_owner AS owner, r.lease_until > now() AS leased, r.server_ids::text[] AS servers,
           extract(epoch FROM g.run_at - now())::float8 AS "resumeInS"
      FROM task_runs r JOIN jobs j ON j.id = r.job_id LEFT JOIN graphile_worker._private_jobs g ON g.key = 'task-run:' || r.job_id
     WHERE r.task_id = ANY(${sql.array(ids, 'uuid')}) AND r.job_id <> ${earlierRun.id}`);
    t.is(runs.length, TASKS - 3);
    const runsById = new Map(runs.map((run) => [run.jobId, run]));
    for (const { job, lease } of ran) {
      const run = runsById.get(job.id)!;
      t.like(run, { status: 'RUNNING', owner: lease!.owner, leased: true, servers: serverIds }, 'leased to its orchestrator, RUNNING');
      t.true(run.resumeInS! > 17 && run.resumeInS! <= 45, 'resumed after its lease (and a few renewals) if its orchestrator dies');
    }
  },
);

test.serial(
  "a batch's runs whose first step is due at once start it in the batch's transaction; a refused run and a delayed step are left to their executors",
  async (t) => {
    const { clusterId, serverIds, machineId } = await setup();
    const [online, moving] = serverIds as [string, string];
    const { pool } = app();
    await pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE', installed_at = now() WHERE id = ANY(${sql.array(serverIds, 'uuid')})`);
    const target = await body(await post(`/api/v1/clusters/${clusterId}/machines`, { name: 'target' }));
    const locker = new pg.Client({ connectionString: app().database.url });
    await locker.connect();
    await writeTransferUnderWay(locker, { clusterId, serverId: moving, sourceMachineId: machineId, targetMachineId: target.id });
    await locker.end();
    const yearly = { schedule: '0 0 1 1 *', timezone: 'UTC' };
    const task = async (name: string, ids: string[], steps: unknown[]) =>
      (await body(await post(`/api/v1/clusters/${clusterId}/tasks`, { ...yearly, name, serverIds: ids, steps }))).id as string;
    const warned = await task(
      'warned',
      [online],
      [
        { type: 'BROADCAST', message: 'restart soon' },
        { type: 'RESTART', delaySeconds: 30 },
      ],
    );
    const stopped = await task('stopped', [online], [{ type: 'STOP' }]);
    const refused = await task('refused', [moving, online], [{ type: 'BROADCAST', message: 'moving' }]);
    const delayed = await task('delayed', [online], [{ type: 'BROADCAST', message: 'later', delaySeconds: 60 }]);
    const ids = [warned, stopped, refused, delayed];
    await makeDue(ids);

    const outcomes: OccurrenceOutcome[] = [];
    await handleAllDueOccurrences(
      pool,
      () => new Date(),
      true,
      (batch) => outcomes.push(...batch),
      startFirstSteps,
    );
    t.is(outcomes.filter((outcome) => outcome.outcome === 'RAN').length, 4);
    const rows = await pool.any(sql.type(
      z.object({
        taskId: z.string(),
        stepJobs: z.array(z.object({ serverId: z.string(), jobId: z.string().nullable() })).nullable(),
        sameCommit: z.boolean().nullable(),
        childType: z.string().nullable(),
        childStatus: z.string().nullable(),
      }),
    )`
    SELECT r.task_id AS "taskId", r.step_jobs AS "stepJobs", c.created_at = j.created_at AS "sameCommit", c.type AS "childType", c.status AS "childStatus"
      FROM task_runs r JOIN jobs j ON j.id = r.job_id
      LEFT JOIN jobs c ON c.id = (r.step_jobs->0->>'jobId')::uuid
     WHERE r.task_id = ANY(${sql.array(ids, 'uuid')})`);
    const byTask = new Map(rows.map((row) => [row.taskId, row]));
    t.like(
      byTask.get(warned),
      { stepJobs: [{ serverId: online }], sameCommit: true, childType: 'BROADCAST', childStatus: 'QUEUED' },
      'the warning accepted with its run',
    );
    t.like(byTask.get(stopped), { stepJobs: [{ serverId: online }], sameCommit: true, childType: 'STOP', childStatus: 'QUEUED' });
    t.like(byTask.get(refused), { stepJobs: null }, 'a run with a child on a server being transferred: left to its executor, which meets the refusal');
    t.like(byTask.get(delayed), { stepJobs: null }, 'a first step with a delay: left to its executor');
    t.is(
      await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM jobs WHERE task_id = ${refused} AND type = 'BROADCAST'`),
      0,
      'nothing of the refused run was created',
    );
    t.is(
      await pool.oneFirst(sql.type(z.object({ desired: z.string().nullable() }))`SELECT desired_status AS desired FROM servers WHERE id = ${online}`),
      'STOPPED',
      'the STOP set its server’s desired status',
    );
  },
);

test.serial(
  'a first step that cannot start with its run (its server locked elsewhere past the wait) is left to the executor; the run is created all the same',
  async (t) => {
    const { clusterId, serverIds } = await setup();
    const [online] = serverIds as [string];
    const { pool } = app();
    await pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE', installed_at = now() WHERE id = ${online}`);
    const created = await body(
      await post(`/api/v1/clusters/${clusterId}/tasks`, {
        name: 'held up',
        schedule: '0 0 1 1 *',
        timezone: 'UTC',
        serverIds: [online],
        steps: [{ type: 'BROADCAST', message: 'soon' }],
      }),
    );
    await makeDue([created.id]);
    const locker = new pg.Client({ connectionString: app().database.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM servers WHERE id = $1 FOR UPDATE', [online]);
    const left: number[] = [];
    const outcomes: OccurrenceOutcome[] = [];
    const started = Date.now();
    try {
      await handleAllDueOccurrences(
        pool,
        () => new Date(),
        true,
        (batch) => outcomes.push(...batch),
        (tx, runs) => startFirstSteps(tx, runs, (_error, n) => left.push(n)),
      );
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    t.true(Date.now() - started < 10_000, 'the batch waited for the lock a short while only');
    t.deepEqual(left, [1], 'reported as left to the executor');
    const [ran] = outcomes.filter((outcome) => outcome.outcome === 'RAN');
    t.truthy(ran, 'the run was created');
    const row = await pool.one(sql.type(z.object({ stepJobs: z.unknown(), children: z.number(), lockTimeout: z.string() }))`
    SELECT step_jobs AS "stepJobs", (SELECT count(*)::int FROM jobs WHERE task_id = ${created.id} AND type = 'BROADCAST') AS children,
           current_setting('lock_timeout') AS "lockTimeout"
      FROM task_runs WHERE job_id = ${'job' in ran! ? ran.job.id : ''}`);
    t.like(row, { stepJobs: null, children: 0 }, 'no step, no child job');
    t.is(row.lockTimeout, '0', "the pool's connections keep their lock wait");
  },
);

/** Yearly tasks named `names` on the servers of a new setup, all due a minute ago; answers their ids and that minute. */
async function dueTasks(names: readonly string[]) {
  const { clusterId, serverIds } = await setup();
  const ids: string[] = [];
  for (const name of names) ids.push((await body(await post(`/api/v1/clusters/${clusterId}/tasks`, { ...YEARLY(serverIds), name }))).id);
  return { ids, dueAt: await makeDue(ids) };
}

const runsOf = (taskId: string) =>
  app().pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM task_runs WHERE task_id = ${taskId}`);

/** Fires `taskId`'s trigger job as graphile-worker would, its log lines kept in `messages`; the trigger is not leased. */
function fireTrigger(taskId: string, dueAt: Date) {
  const messages: string[] = [];
  const log = (message: string) => void messages.push(message);
  const helpers = { logger: { info: log, warn: log, error: log } };
  const done = triggerTask({ pool: app().pool })({ taskId, scheduledAt: dueAt.toISOString() }, helpers as never) as Promise<void>;
  return { done, messages };
}

test.serial("a task's own trigger job handles the occurrences due by now, its own among them, and logs its own outcome", async (t) => {
  const { ids, dueAt } = await dueTasks(['one', 'two']);
  const [own, other] = ids as [string, string];
  const { done, messages } = fireTrigger(own, dueAt);
  await done;
  t.is(await runsOf(own), 1);
  t.is(await runsOf(other), 1);
  t.true(
    messages.some((message) => message.startsWith(`task ${own}: occurrence ${dueAt.toISOString()} RAN as job `)),
    messages.join('\n'),
  );
  t.false(
    messages.some((message) => message.startsWith(`task ${other}:`)),
    "another task's outcome is in the summary only",
  );
  t.true(messages.includes('tasks: 1 other due occurrence(s) handled in 1 batch(es): 1 ran, 0 missed, 0 skipped'), messages.join('\n'));
});

test.serial(
  "a task's own trigger job first handles the occurrences due by now: one whose own task is held elsewhere (a batch under way) does not wait for it to start the others",
  async (t) => {
    const { ids, dueAt } = await dueTasks(['held', 'other']);
    const [heldId, otherId] = ids as [string, string];
    // Another transaction holds the trigger's own task, as another orchestrator's batch would.
    const locker = new pg.Client({ connectionString: app().database.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM tasks WHERE id = $1 FOR UPDATE', [heldId]);
    const { done, messages } = fireTrigger(heldId, dueAt);
    const settled = done.catch(() => undefined);
    t.teardown(() => settled);
    try {
      await until(async () => (await runsOf(otherId)) === 1, 'the other task ran while this one is held');
      t.is(await runsOf(heldId), 0, 'the held task waits for its lock');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    await done;
    t.is(await runsOf(heldId), 1, 'then its own occurrence runs, once');
    t.is(await runsOf(otherId), 1);
    t.true(messages.some((message) => message.startsWith(`task ${heldId}: occurrence ${dueAt.toISOString()} RAN`)));
  },
);

test.serial(
  "a batch that fails (another task's row cannot be written) does not keep a trigger job from its own occurrence; it is logged, and the task at fault fails in its own job",
  async (t) => {
    const { ids, dueAt } = await dueTasks(['own', 'bad']);
    const [own, bad] = ids as [string, string];
    const { pool } = app();
    // The bad task's run cannot be written, which fails every batch it is in.
    await pool.query(sql.unsafe`
      CREATE FUNCTION test_refuse_run() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.task_id = ${sql.literalValue(bad)}::uuid THEN RAISE EXCEPTION 'this run cannot be written'; END IF;
        RETURN NEW;
      END $$`);
    await pool.query(sql.unsafe`CREATE TRIGGER test_refuse_run BEFORE INSERT ON task_runs FOR EACH ROW EXECUTE FUNCTION test_refuse_run()`);
    t.teardown(async () => {
      await pool.query(sql.unsafe`DROP FUNCTION test_refuse_run() CASCADE`);
      await pool.query(sql.unsafe`DELETE FROM tasks WHERE id = ${bad}`);
    });
    const first = fireTrigger(own, dueAt);
    await first.done;
    t.is(await runsOf(own), 1, 'its own occurrence ran');
    t.is(await runsOf(bad), 0);
    t.true(first.messages.some((message) => message.startsWith(`task ${own}: occurrence ${dueAt.toISOString()} RAN as job `)));
    t.true(
      first.messages.some((message) => /^tasks: handling the due occurrences in batches failed \(.*this run cannot be written.*\)/.test(message)),
      first.messages.join('\n'),
    );
    // The bad task's own job fails with the reason (and is retried by graphile-worker).
    await t.throwsAsync(fireTrigger(bad, dueAt).done, { message: /this run cannot be written/ });
    t.is(await runsOf(own), 1, 'still once');
  },
);

test('runs whose steps start together: one refused on a server being transferred fails alone, the other starts its step', async (t) => {
  const { clusterId, serverIds, machineId } = await setup();
  const [moving, staying] = serverIds as [string, string];
  const target = await body(await post(`/api/v1/clusters/${clusterId}/machines`, { name: 'target' }));
  const stopTask = async (serverId: string) =>
    (await body(await post(`/api/v1/clusters/${clusterId}/tasks`, { ...NIGHTLY([serverId]), steps: [{ type: 'STOP' }] }))).id as string;
  const runs = [] as string[];
  for (const taskId of [await stopTask(moving), await stopTask(staying)])
    runs.push((await body(await app().request(`/api/v1/tasks/${taskId}/run`, { method: 'POST', headers: owner.auth }))).id);
  const { pool } = app();
  // A third run's step start held up (its server's row locked here): the two runs' step starts queue behind it and
  // go together, in one batch, once it is let go.
  const third = await body(
    await post(`/api/v1/clusters/${clusterId}/servers`, { name: 'third', gameType: 'RUST', machineId, gamePort: 30020, queryPort: 30021, rconPort: 30022 }),
  );
  const thirdRun = await body(await app().request(`/api/v1/tasks/${await stopTask(third.id)}/run`, { method: 'POST', headers: owner.auth }));
  const locker = new pg.Client({ connectionString: app().database.url });
  await locker.connect();
  // A transfer of the first server under way.
  const transferJob = await writeTransferUnderWay(locker, { clusterId, serverId: moving, sourceMachineId: machineId, targetMachineId: target.id });
  await locker.query('BEGIN');
  await locker.query('SELECT id FROM servers WHERE id = $1 FOR UPDATE', [third.id]);
  const stop = new AbortController();
  const deps = { pool, jobWaiters: app().deps.jobWaiters };
  const heldUp = executeRun(deps, thirdRun.id, stop.signal);
  const waitingOnLock = async () =>
    Number((await locker.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n) > 0;
  await until(waitingOnLock, 'the third run waiting for its server', 10_000);
  const [refused, started] = [executeRun(deps, runs[0]!, stop.signal), executeRun(deps, runs[1]!, stop.signal)];
  await until(
    async () =>
      (await pool.oneFirst(
        sql.type(
          z.object({ n: z.number() }),
        )`SELECT count(*)::int AS n FROM task_runs WHERE job_id = ANY(${sql.array(runs, 'uuid')}) AND lease_owner IS NOT NULL`,
      )) === 2,
    'both runs taken',
    10_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  await locker.query('COMMIT');
  await locker.end();
  const error = await t.throwsAsync(refused);
  t.like(error, { status: 409, extra: { code: 'TRANSFER_IN_PROGRESS', jobId: transferJob } });
  const stepJobs = z.array(z.object({ serverId: z.string(), jobId: z.string().nullable() })).nullable();
  const stepOf = (runId: string) => pool.oneFirst(sql.type(z.object({ stepJobs }))`SELECT step_jobs AS "stepJobs" FROM task_runs WHERE job_id = ${runId}`);
  await until(async () => (await stepOf(runs[1]!)) !== null, 'the other run started its step', 10_000);
  await until(async () => (await stepOf(thirdRun.id)) !== null, 'the third run started its step', 10_000);
  stop.abort();
  await Promise.all([started, heldUp]);
  t.is(await stepOf(runs[0]!), null, 'the refused run started nothing');
  const [child] = (await stepOf(runs[1]!))!;
  t.like(child, { serverId: staying });
  t.like(await body(await get(`/api/v1/jobs/${child!.jobId}`)), { type: 'STOP', serverId: staying });
  t.is((await body(await get(`/api/v1/clusters/${clusterId}/jobs?serverId=${moving}&type=STOP`))).meta.total, 0);
});

test('a stopping orchestrator does not take a run: the job that resumes it fails, so it stays for another orchestrator', async (t) => {
  const { clusterId, serverIds } = await setup();
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, NIGHTLY(serverIds)));
  const run = await body(await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth }));
  const runs = createRunExecutor({ pool: app().pool, jobWaiters: app().deps.jobWaiters, logger: createLogger('silent') });
  await runs.stop();
  await t.throwsAsync(runs.take(run.id), { message: /stopping/ });
  t.like(await body(await get(`/api/v1/jobs/${run.id}`)), { status: 'QUEUED' }, 'not claimed');
});

test('run now: 202 with the TASK_RUN job, also for a disabled task; 409 while a run is under way; MODERATOR may not', async (t) => {
  const { clusterId, serverIds } = await setup();
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, { ...NIGHTLY(serverIds), enabled: false }));
  const response = await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth });
  t.is(response.status, 202);
  const run = await body(response);
  t.is(response.headers.get('location'), `/api/v1/jobs/${run.id}`);
  t.like(run, {
    type: 'TASK_RUN',
    taskId: created.id,
    clusterId,
    status: 'QUEUED',
    createdBy: { kind: 'USER', id: owner.id },
    params: { trigger: 'MANUAL', scheduledAt: null },
  });
  t.is((await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth })).status, 409);
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { enabled: false, nextRunAt: null, lastRunStatus: 'RUNNING' });
  t.is((await body(await get(`/api/v1/clusters/${clusterId}/audit-log?action=task.run`))).meta.total, 1);

  const moderator = await signUp(app());
  await addMember(app(), clusterId, moderator, 'MODERATOR');
  t.is((await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: moderator.auth })).status, 403);
  t.is((await get(`/api/v1/tasks/${created.id}`, moderator)).status, 200);
  t.is((await post(`/api/v1/clusters/${clusterId}/tasks`, NIGHTLY(serverIds), moderator)).status, 403);

  // Cancelled while QUEUED (no orchestrator here): the executor then finds it ended and the task says so.
  t.is((await app().request(`/api/v1/jobs/${run.id}/cancel`, { method: 'POST', headers: owner.auth })).status, 200);
  await executeRun({ pool: app().pool, jobWaiters: app().deps.jobWaiters }, run.id, new AbortController().signal);
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'CANCELLED' });
  const second = await body(await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth }));
  t.is(second.status, 'QUEUED', 'a new run may start');

  // Cancelled while RUNNING (between steps): it ends at once; its executor then stops without another step.
  await app().pool.query(sql.unsafe`UPDATE jobs SET status = 'RUNNING', started_at = now() WHERE id = ${second.id}`);
  const cancelled = await app().request(`/api/v1/jobs/${second.id}/cancel`, { method: 'POST', headers: owner.auth });
  t.is(cancelled.status, 200);
  t.like(await body(cancelled), { status: 'CANCELLED', error: { code: 'CANCELLED' } });
  await executeRun({ pool: app().pool, jobWaiters: app().deps.jobWaiters }, second.id, new AbortController().signal);
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'CANCELLED' });
  t.is((await body(await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${created.id}&type=broadcast`))).meta.total, 0, 'no step was started');
  t.is((await app().request(`/api/v1/jobs/${second.id}/cancel`, { method: 'POST', headers: owner.auth })).status, 409);
});

test('an occurrence skipped while a run is under way leaves its RUNNING; the run then records its own outcome and lists the skipped occurrence', async (t) => {
  const { clusterId, serverIds } = await setup();
  // No agent: broadcasts to the servers are skipped, so the run succeeds at once when executed.
  const created = await body(
    await post(`/api/v1/clusters/${clusterId}/tasks`, {
      ...NIGHTLY(serverIds),
      schedule: '*/5 * * * *',
      timezone: 'UTC',
      steps: [{ type: 'BROADCAST', message: 'hi' }],
    }),
  );
  const run = await body(await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth }));
  const started = await body(await get(`/api/v1/tasks/${created.id}`));
  const due = new Date(created.nextRunAt);
  t.like(await handleTaskOccurrence(app().pool, created.id, due, () => due), { outcome: 'SKIPPED' });
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'RUNNING', lastRunAt: started.lastRunAt });

  await executeRun({ pool: app().pool, jobWaiters: app().deps.jobWaiters }, run.id, new AbortController().signal);
  const ended = await body(await get(`/api/v1/jobs/${run.id}`));
  t.is(ended.status, 'SUCCEEDED');
  t.deepEqual(ended.result.skippedOccurrences, [{ scheduledAt: due.toISOString(), status: 'SKIPPED' }]);
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'SUCCEEDED', lastRunAt: started.lastRunAt });
});

test('a cancelled run that ends late (its step still under way) does not write over the next run, whose outcome is recorded', async (t) => {
  const { clusterId, serverIds } = await setup();
  // No agent: the STOP job stays QUEUED, so the first run's executor waits on it after the run is cancelled.
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, { ...NIGHTLY([serverIds[0]!]), steps: [{ type: 'STOP' }] }));
  const deps = { pool: app().pool, jobWaiters: app().deps.jobWaiters };
  const first = await body(await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth }));
  const executing = executeRun(deps, first.id, new AbortController().signal);
  let stop: { id: string } | undefined;
  for (let attempt = 0; attempt < 100 && !stop; attempt++) {
    stop = (await body(await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${created.id}&type=STOP`))).data[0];
    if (!stop) await new Promise((done) => setTimeout(done, 100));
  }
  t.truthy(stop, 'the STOP job');
  t.is((await app().request(`/api/v1/jobs/${first.id}/cancel`, { method: 'POST', headers: owner.auth })).status, 200);
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'CANCELLED' }, 'CANCELLED at once');

  await patch(`/api/v1/tasks/${created.id}`, { steps: [{ type: 'BROADCAST', message: 'hi' }] });
  const second = await body(await app().request(`/api/v1/tasks/${created.id}/run`, { method: 'POST', headers: owner.auth }));
  t.is(second.status, 'QUEUED');
  // The first run's step ends now; its executor finds the run cancelled and ends, after the second run began.
  t.is((await app().request(`/api/v1/jobs/${stop!.id}/cancel`, { method: 'POST', headers: owner.auth })).status, 200);
  await executing;
  t.like(await body(await get(`/api/v1/jobs/${first.id}`)), { status: 'CANCELLED' });
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'RUNNING' }, 'the second run is under way');

  await executeRun(deps, second.id, new AbortController().signal);
  t.is((await body(await get(`/api/v1/jobs/${second.id}`))).status, 'SUCCEEDED');
  t.like(await body(await get(`/api/v1/tasks/${created.id}`)), { lastRunStatus: 'SUCCEEDED' });
});

test('odd input is a 4xx in the error format, never a 500', async (t) => {
  const { clusterId, serverIds } = await setup();
  const created = await body(await post(`/api/v1/clusters/${clusterId}/tasks`, NIGHTLY(serverIds)));
  const base = NIGHTLY(serverIds);
  const bodies: unknown[] = [
    [],
    null,
    'x',
    42,
    {},
    { ...base, steps: 'restart' },
    { ...base, steps: [null] },
    { ...base, steps: [{}] },
    { ...base, steps: [{ type: 7 }] },
    { ...base, steps: [{ type: 'START', delaySeconds: 1.5 }] },
    { ...base, steps: [{ type: 'START', delaySeconds: -1 }] },
    { ...base, schedule: 42 },
    { ...base, schedule: '0 4 * * *\u0000' },
    { ...base, schedule: '*/0 * * * *' },
    { ...base, schedule: '0 0 * * 1#6' },
    { ...base, schedule: 'x'.repeat(10_000) },
    { ...base, timezone: 7 },
    { ...base, timezone: '../../etc/passwd' },
    { ...base, timezone: '+05:00' },
    { ...base, serverIds: 'all' },
    { ...base, serverIds: [null] },
    { ...base, serverIds: Array.from({ length: 101 }, () => serverIds[0]) },
    { ...base, enabled: 'yes' },
    { ...base, onlyWhenOnline: 1 },
    { ...base, description: 5 },
  ];
  for (const payload of bodies) {
    const response = await app().request(`/api/v1/clusters/${clusterId}/tasks`, {
      method: 'POST',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    t.is(response.status, 400, JSON.stringify(payload)?.slice(0, 100));
    t.like(await body(response), { statusCode: 400, error: 'Bad Request' });
    const patched = await app().request(`/api/v1/tasks/${created.id}`, {
      method: 'PATCH',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    t.is(patched.status, 400, `PATCH ${JSON.stringify(payload)?.slice(0, 100)}`);
  }
  for (const query of ['wait=61', 'wait=abc', 'wait=-1', 'now=1']) {
    t.is((await app().request(`/api/v1/tasks/${created.id}/run?${query}`, { method: 'POST', headers: owner.auth })).status, 400, query);
  }
  for (const query of ['page=0', 'limit=101', 'sort=-', 'enabled=', 'colour=red']) {
    t.is((await get(`/api/v1/clusters/${clusterId}/tasks?${query}`)).status, 400, query);
  }
  t.is(
    (await app().request(`/api/v1/clusters/${clusterId}/tasks`, { method: 'POST', headers: { ...owner.auth, 'content-type': 'text/plain' }, body: 'hi' }))
      .status,
    415,
  );
  t.deepEqual(await body(await get(`/api/v1/tasks/${created.id}`)), created, 'nothing changed');
});

test('schedule preview: the next runs in the task’s time zone, as the scheduler computes them; bad input is a 400 naming the field', async (t) => {
  const preview = async (query: string, headers: Record<string, string> = owner.auth) => app().request(`/api/v1/tasks/schedule-preview?${query}`, { headers });
  const answer = await preview(`schedule=${encodeURIComponent('30 4 * * *')}&timezone=asia/tokyo`);
  t.is(answer.status, 200);
  const { runs, timezone } = await body(answer);
  t.is(timezone, 'Asia/Tokyo');
  t.is(runs.length, 5);
  let after = new Date();
  for (const run of runs) {
    after = nextRunAfter('30 4 * * *', 'Asia/Tokyo', after);
    t.is(run, after.toISOString());
    t.is(new Date(run).getUTCHours(), 19); // 04:30 in Tokyo (UTC+9)
  }
  t.is((await body(await preview(`schedule=${encodeURIComponent('0 * * * *')}&count=20`))).runs.length, 20);
  for (const [query, field] of [
    [`schedule=${encodeURIComponent('61 * * * *')}`, 'schedule'],
    [`schedule=${encodeURIComponent('0 0 31 2 *')}`, 'schedule'],
    [`schedule=${encodeURIComponent('0 4 * * *')}&timezone=Mars/Olympus`, 'timezone'],
    [`schedule=${encodeURIComponent('0 4 * * *')}&count=21`, 'count'],
    [`schedule=${encodeURIComponent('0 4 * * *')}&count=x`, 'count'],
    ['', 'schedule'],
    [`schedule=%00`, 'schedule'],
  ] as const) {
    const refused = await preview(query);
    t.is(refused.status, 400, query);
    t.true(
      (await body(refused)).details.some((detail: { field: string }) => detail.field === field),
      query,
    );
  }
  t.is((await preview('schedule=0+4+*+*+*', {})).status, 401);
});
