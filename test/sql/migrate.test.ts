import test from 'ava';
import pg from 'pg';
import { listMigrations, migrate } from '../../sql/migrate.ts';
import { createEmptyDatabase, type TestDatabase } from '../support/database.ts';

const databases: TestDatabase[] = [];
test.after.always(async () => {
  await Promise.all(databases.map((database) => database.drop()));
});

async function emptyDatabase() {
  const database = await createEmptyDatabase();
  databases.push(database);
  return database;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Everything that makes up the schema, as comparable text. */
async function schemaSnapshot(url: string): Promise<string[]> {
  const rows = await query<{ item: string }>(
    url,
    `
    SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable
           || ' default=' || coalesce(column_default, '') AS item
      FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
    UNION ALL
    SELECT 'index ' || schemaname || ' ' || indexdef FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL
    SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) FROM pg_proc p
      WHERE p.pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) AND p.prokind IN ('f', 'p')
    UNION ALL
    SELECT 'trigger ' || tgrelid::regclass || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal`,
  );
  return rows.map((row) => row.item).sort();
}

test('migration files are numbered 1, 2, 3… with no gap', async (t) => {
  const migrations = await listMigrations();
  t.true(migrations.length >= 1);
  migrations.forEach((migration, index) => t.is(migration.id, index + 1));
});

test('several processes migrating at once apply each migration exactly once', async (t) => {
  const database = await emptyDatabase();
  const results = await Promise.all(Array.from({ length: 6 }, () => migrate(database.url)));
  const expected = (await listMigrations()).map((migration) => migration.file);
  // Exactly one of the racers applied everything; the others found nothing to do.
  t.deepEqual(
    results.map((result) => result.applied.length).sort((a, b) => b - a),
    [expected.length, 0, 0, 0, 0, 0],
  );
  const rows = await query<{ id: number; count: string }>(database.url, 'SELECT id, count(*) OVER () AS count FROM schema_migrations ORDER BY id');
  t.deepEqual(
    rows.map((row) => row.id),
    expected.map((_, index) => index + 1),
  );
  const worker = await query<{ present: boolean }>(database.url, "SELECT to_regclass('graphile_worker.jobs') IS NOT NULL AS present");
  t.true(worker[0]!.present, 'graphile-worker schema installed');
  t.deepEqual((await migrate(database.url)).applied, [], 'a second run is a no-op');
});

test('upgrading one migration at a time gives the same schema as a fresh migrate', async (t) => {
  const fresh = await emptyDatabase();
  await migrate(fresh.url, { skipWorkerSchema: true });
  const stepwise = await emptyDatabase();
  for (const migration of await listMigrations()) await migrate(stepwise.url, { upTo: migration.id, skipWorkerSchema: true });
  t.deepEqual(await schemaSnapshot(stepwise.url), await schemaSnapshot(fresh.url));
});

test('a failing migration rolls back entirely and names the file', async (t) => {
  const database = await emptyDatabase();
  // Occupy a name the first migration creates, so it fails part-way.
  await query(database.url, 'CREATE TABLE marker (id int); CREATE FUNCTION gsm_uuid_v7() RETURNS uuid LANGUAGE sql AS $$ SELECT gen_random_uuid() $$');
  const error = await t.throwsAsync(migrate(database.url, { skipWorkerSchema: true }));
  t.regex(error!.message, /000001_foundation\.sql failed/);
  const applied = await query(database.url, 'SELECT id FROM schema_migrations');
  t.deepEqual(applied, []);
});

test('ids are UUID v7 and sort by creation time', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true });
  const rows = await query<{ id: string }>(database.url, 'SELECT gsm_uuid_v7()::text AS id FROM generate_series(1, 50)');
  for (const { id } of rows) t.regex(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const first = rows[0]!.id;
  const millis = Number.parseInt(first.replace(/-/g, '').slice(0, 12), 16);
  t.true(Math.abs(millis - Date.now()) < 60_000, 'the first 48 bits are the current time in ms');
});
