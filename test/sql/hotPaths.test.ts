/**
 * What every job pays for in the database, kept cheap (docs/development.md#what-a-job-costs-the-database):
 * - the event record of a job is one expression inlined into the statement that writes it (gsm_iso inlines, so its body
 *   is not parsed and planned again in every statement), and still gives the API's timestamps;
 * - a numbering wakes the webhook deliverers only when a delivery is pending: with no webhook, the events of every job
 *   cost no deliverer a look for work;
 * - the transfer check of an accept is planned once per connection (PL/pgSQL), and still sees a transfer committed
 *   after the statement began (its own snapshot);
 * - an event's numbering, and a run's lease renewal, write the row's next version on the page of the one before
 *   (the tables keep room; none of the columns a renewal changes is indexed), so the WAL carries the changed bytes.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../support/database.ts';
import { until } from '../support/wait.ts';
import { writeTransferUnderWay } from '../support/transfers.ts';

const withClient = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

test('a job event record is one inlined expression, with the API timestamps', async (t) => {
  const database = await createTestDatabase();
  try {
    await withClient(database.url, async (client) => {
      const plan = (await client.query('EXPLAIN (VERBOSE) SELECT gsm_job_record(j) FROM jobs j')).rows.map((row) => row['QUERY PLAN']).join('\n');
      t.regex(plan, /to_char\(/, 'the timestamps are formatted in the statement itself');
      t.notRegex(plan, /gsm_iso\(/, 'gsm_iso is inlined, not called');
      const iso = (await client.query(`SELECT gsm_iso('2026-01-02 03:04:05.678+02') AS iso`)).rows[0].iso;
      t.is(iso, '2026-01-02T01:04:05.678Z');
      await client.query(`SET TIME ZONE 'America/New_York'`);
      t.is(
        (await client.query(`SELECT gsm_iso('2026-01-02 03:04:05.678+00') AS iso`)).rows[0].iso,
        '2026-01-02T03:04:05.678Z',
        'whatever the session time zone',
      );
    });
  } finally {
    await database.drop();
  }
});

test('numbering wakes the webhook deliverers only when a delivery is pending', async (t) => {
  const database = await createTestDatabase();
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (message) => {
    if (message.channel === 'gsm_webhooks') heard.push(message.payload ?? '');
    if (message.channel === 'gsm_events') heard.push(`numbered up to ${message.payload}`);
  });
  try {
    await listener.query('LISTEN gsm_webhooks');
    await listener.query('LISTEN gsm_events');
    await withClient(database.url, async (client) => {
      const clusterId = randomUUID();
      await client.query(`INSERT INTO clusters (id, name) VALUES ($1, 'hot paths')`, [clusterId]);
      // No webhook: the event is numbered (and announced to the API nodes), and no deliverer is woken.
      await client.query(`INSERT INTO events (cluster_id, type, data) VALUES ($1, 'task.run.finished', '{}')`, [clusterId]);
      t.is((await client.query('SELECT gsm_sequence_events(100) AS n')).rows[0].n, 1);
      await until(async () => heard.includes('numbered up to 1'), 'the numbering announced', 5_000);
      // A round trip on the listening connection: anything sent before it has arrived.
      await listener.query('SELECT 1');
      t.deepEqual(heard, ['numbered up to 1']);

      // A webhook of the cluster: its delivery is pending, and the numbering of its event wakes the deliverers.
      await client.query(`INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES ($1, 'http://127.0.0.1:9/', '{*}', 'JSON', 'whsec_x')`, [
        clusterId,
      ]);
      await client.query(`INSERT INTO events (cluster_id, type, data) VALUES ($1, 'task.run.finished', '{}')`, [clusterId]);
      t.is((await client.query('SELECT gsm_sequence_events(100) AS n')).rows[0].n, 1);
      await until(async () => heard.includes('numbered'), 'the deliverers woken by the numbering', 5_000);
      // (the wake is sent by the numbering's own statement, before its announcement)
      t.deepEqual(heard, ['numbered up to 1', 'pending', 'numbered', 'numbered up to 2']);
    });
  } finally {
    await listener.end();
    await database.drop();
  }
});

test('the transfer check of an accept sees a transfer committed after its statement began', async (t) => {
  const database = await createTestDatabase();
  try {
    await withClient(database.url, async (client) => {
      const language = (
        await client.query(`SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'gsm_transfer_under_way'`)
      ).rows[0].lanname;
      t.is(language, 'plpgsql', 'planned once per connection, not in every statement');
      const volatile = (await client.query(`SELECT provolatile FROM pg_proc WHERE proname = 'gsm_transfer_under_way'`)).rows[0].provolatile;
      t.is(volatile, 'v', 'VOLATILE: each call reads with a snapshot of its own');
      // One statement that calls it twice, a transfer committing between the calls (by another connection, while
      // pg_sleep holds the statement): the second call sees it, as a statement-snapshot read would not.
      const ids = { cluster: randomUUID(), machine: randomUUID(), target: randomUUID(), server: randomUUID(), job: randomUUID() };
      await client.query(`INSERT INTO clusters (id, name) VALUES ($1, 'c')`, [ids.cluster]);
      await client.query(`INSERT INTO machines (id, cluster_id, name, agent_token_hash) VALUES ($1, $3, 'a', '\\x00'), ($2, $3, 'b', '\\x01')`, [
        ids.machine,
        ids.target,
        ids.cluster,
      ]);
      await client.query(
        `INSERT INTO servers (id, cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status)
         VALUES ($1, $2, $3, 's', 'CUSTOM', 30000, 30001, 30002, 10, 'pw', 'OFFLINE')`,
        [ids.server, ids.cluster, ids.machine],
      );
      const statement = client.query(`SELECT gsm_transfer_under_way($1) AS before, pg_sleep(0.5) IS NULL AS slept, gsm_transfer_under_way($1) AS after`, [
        ids.server,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await withClient(database.url, async (other) => {
        await other.query('BEGIN');
        await writeTransferUnderWay(
          other,
          { clusterId: ids.cluster, serverId: ids.server, sourceMachineId: ids.machine, targetMachineId: ids.target },
          ids.job,
        );
        await other.query('COMMIT');
      });
      const row = (await statement).rows[0];
      t.is(row.before, null);
      t.is(row.after, ids.job);
    });
  } finally {
    await database.drop();
  }
});

test('events are numbered on the pages they were written on; a run’s lease renewal adds no index entry', async (t) => {
  const database = await createTestDatabase();
  try {
    await withClient(database.url, async (client) => {
      const cluster = (await client.query(`INSERT INTO clusters (name) VALUES ('pages') RETURNING id`)).rows[0].id as string;
      // Enough events of a job's size to fill several pages up to the table's fill factor.
      const data = JSON.stringify({ padding: 'x'.repeat(600) });
      await client.query(`INSERT INTO events (cluster_id, type, data) SELECT $1, 'job.updated', $2::jsonb FROM generate_series(1, 60)`, [cluster, data]);
      const pages = async () =>
        new Map(
          (await client.query(`SELECT id, (ctid::text::point)[0]::int AS page FROM events`)).rows.map((row: { id: string; page: number }) => [
            row.id,
            row.page,
          ]),
        );
      const before = await pages();
      const written = new Set(before.values()).size;
      t.true(written >= 4, 'the events span several pages');
      t.is((await client.query(`SELECT gsm_sequence_events(1000) AS n`)).rows[0].n, 60);
      const after = await pages();
      const moved = [...before].filter(([id, page]) => after.get(id) !== page).length;
      // With tightly packed pages all 60 numbered versions move to new pages, whole in the WAL. With room, nearly all
      // stay (the numbered version is 8 bytes longer: a page filled to the brim may send its last one elsewhere).
      t.true(moved <= written, `${moved} of 60 numbered versions moved to another page`);

      // A renewal-shaped update of a run's row is a HOT update (no index entry): none of its columns is indexed.
      const job = (
        await client.query(
          `INSERT INTO jobs (cluster_id, type, created_by_kind, expires_at) VALUES ($1, 'TASK_RUN', 'SYSTEM', now() + interval '1 hour') RETURNING id`,
          [cluster],
        )
      ).rows[0].id as string;
      await client.query(`INSERT INTO task_runs (job_id, task_id, steps, server_ids, only_when_online) VALUES ($1, gen_random_uuid(), '[]', '{}', false)`, [
        job,
      ]);
      await client.query('BEGIN');
      await client.query(
        `UPDATE task_runs SET lease_owner = gen_random_uuid(), lease_until = now() + interval '15 s', resume_due_at = now() + interval '45 s',
                step_index = step_index + 1, step_due_at = now(), step_jobs = '[]', outcomes = outcomes || '[{}]' WHERE job_id = $1`,
        [job],
      );
      const updates = (await client.query(`SELECT n_tup_upd AS updated, n_tup_hot_upd AS hot FROM pg_stat_xact_user_tables WHERE relname = 'task_runs'`))
        .rows[0];
      await client.query('COMMIT');
      t.deepEqual({ updated: Number(updates.updated), hot: Number(updates.hot) }, { updated: 1, hot: 1 });
      const options = async (table: string) => (await client.query(`SELECT reloptions FROM pg_class WHERE oid = $1::regclass`, [table])).rows[0].reloptions;
      t.deepEqual(await options('events'), ['fillfactor=50']);
      t.deepEqual(await options('task_runs'), ['fillfactor=50']);
    });
  } finally {
    await database.drop();
  }
});
