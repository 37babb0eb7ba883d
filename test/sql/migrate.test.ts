import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { DEFINITIONS_BASELINE, DEFINITIONS_DIR, MIGRATIONS_DIR, listDefinitions, listMigrations, migrate } from '../../sql/migrate.ts';
import { createEmptyDatabase, type TestDatabase } from '../support/database.ts';
import { captureLogs } from '../support/logs.ts';

const databases: TestDatabase[] = [];
const scratchDirs: string[] = [];
test.after.always(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A copy of sql/migrations/ and sql/functions/ to break on purpose; `extra` adds files (path relative to it: text). */
async function scratchTree(extra: Record<string, string>): Promise<{ migrationsDir: URL; definitionsDir: URL }> {
  const root = await mkdtemp(join(tmpdir(), 'gsm-sql-'));
  scratchDirs.push(root);
  await cp(MIGRATIONS_DIR, join(root, 'migrations'), { recursive: true });
  await cp(DEFINITIONS_DIR, join(root, 'functions'), { recursive: true });
  for (const [path, text] of Object.entries(extra)) await writeFile(join(root, path), text);
  return { migrationsDir: pathToFileURL(join(root, 'migrations/')), definitionsDir: pathToFileURL(join(root, 'functions/')) };
}

function nextMigrationFile(count: number, name: string): string {
  return `migrations/${String(count + 1).padStart(6, '0')}_${name}.sql`;
}

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
    SELECT 'trigger ' || tgrelid::regclass || ' ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal`,
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
  const definitions = await listDefinitions();
  // Exactly one of the racers applied everything; the others found nothing to do.
  t.deepEqual(
    results.map((result) => result.applied.length).sort((a, b) => b - a),
    [expected.length, 0, 0, 0, 0, 0],
  );
  t.deepEqual(
    results.map((result) => result.defined.length).sort((a, b) => b - a),
    [definitions.length, 0, 0, 0, 0, 0],
  );
  const rows = await query<{ id: number; count: string }>(database.url, 'SELECT id, count(*) OVER () AS count FROM schema_migrations ORDER BY id');
  t.deepEqual(
    rows.map((row) => row.id),
    expected.map((_, index) => index + 1),
  );
  const worker = await query<{ present: boolean }>(database.url, "SELECT to_regclass('graphile_worker.jobs') IS NOT NULL AS present");
  t.true(worker[0]!.present, 'graphile-worker schema installed');
  t.deepEqual(await migrate(database.url), { applied: [], defined: [] }, 'a second run is a no-op');
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

test('a database that applied a number under another name (a development branch’s migration) is refused, naming both, and nothing is applied', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true, upTo: 40 });
  await query(database.url, "UPDATE schema_migrations SET name = 'branch_only' WHERE id = 40");
  const error = await t.throwsAsync(migrate(database.url, { skipWorkerSchema: true }));
  t.regex(error!.message, /applied migration 000040 as "branch_only", but this build's 000040 is 000040_agent_upgrades\.sql.*Nothing was applied/);
  t.deepEqual(await query(database.url, 'SELECT max(id) AS id FROM schema_migrations'), [{ id: 40 }]);
  // Its own names: migrated on as usual.
  await query(database.url, "UPDATE schema_migrations SET name = 'agent_upgrades' WHERE id = 40");
  t.true((await migrate(database.url, { skipWorkerSchema: true })).applied.includes('000041_upgrade_adoption.sql'));
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

test('every function and trigger of a migrated database is defined in exactly one file of sql/functions/, its own', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true });
  // Functions of extensions (pg_trgm's) are theirs, not ours.
  const functions = await query<{ name: string }>(
    database.url,
    `SELECT p.proname AS name FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`,
  );
  const definitions = await listDefinitions();
  t.deepEqual(functions.map((row) => row.name).sort(), definitions.map((definition) => definition.name).sort());
  const triggers = await query<{ name: string; function: string }>(
    database.url,
    'SELECT tgname AS name, tgfoid::regproc::text AS function FROM pg_trigger WHERE NOT tgisinternal',
  );
  t.true(triggers.length > 0);
  for (const trigger of triggers) {
    const owners = definitions.filter((definition) => new RegExp(`CREATE OR REPLACE TRIGGER ${trigger.name}\\b`).test(definition.text));
    t.deepEqual(
      owners.map((definition) => definition.name),
      [trigger.function],
      `trigger ${trigger.name} is defined once, beside ${trigger.function}`,
    );
  }
  const recorded = await query<{ name: string; checksum: string }>(database.url, 'SELECT name, checksum FROM schema_definitions ORDER BY name');
  t.deepEqual(
    recorded,
    definitions.map(({ name, checksum }) => ({ name, checksum })).sort((a, b) => a.name.localeCompare(b.name)),
  );
});

test('a definition whose text changed is applied again on the next run, and only it', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true });
  // What an older build left: another body for gsm_iso, recorded with that body's checksum.
  await query(
    database.url,
    `CREATE OR REPLACE FUNCTION gsm_iso(p timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'old' $$;
     UPDATE schema_definitions SET checksum = 'older' WHERE name = 'gsm_iso'`,
  );
  t.deepEqual(await migrate(database.url, { skipWorkerSchema: true }), { applied: [], defined: ['gsm_iso.sql'] });
  const [row] = await query<{ iso: string }>(database.url, "SELECT gsm_iso('2026-01-02 03:04:05.678+00') AS iso");
  t.is(row!.iso, '2026-01-02T03:04:05.678Z');
  t.deepEqual(await migrate(database.url, { skipWorkerSchema: true }), { applied: [], defined: [] });
});

test('a database migrated by a newer build keeps its definitions', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true });
  await query(
    database.url,
    `CREATE OR REPLACE FUNCTION gsm_iso(p timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'newer' $$;
     UPDATE schema_definitions SET checksum = 'newer' WHERE name = 'gsm_iso';
     INSERT INTO schema_migrations (id, name) VALUES (999999, 'from_a_newer_build')`,
  );
  t.deepEqual(await migrate(database.url, { skipWorkerSchema: true }), { applied: [], defined: [] });
  const [row] = await query<{ iso: string }>(database.url, 'SELECT gsm_iso(now()) AS iso');
  t.is(row!.iso, 'newer');
});

test('a migration after the baseline that defines a function or trigger is refused, naming the file', async (t) => {
  const count = (await listMigrations()).length;
  t.true(count > DEFINITIONS_BASELINE);
  for (const statement of [
    'CREATE FUNCTION gsm_more() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;',
    'CREATE OR REPLACE TRIGGER jobs_more AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION gsm_jobs_event();',
    'ALTER FUNCTION gsm_more() SET plan_cache_mode = force_generic_plan;',
  ]) {
    const file = nextMigrationFile(count, 'more');
    const dirs = await scratchTree({ [file]: `-- CREATE FUNCTION in a comment is not one.\nALTER TABLE jobs ADD COLUMN more integer;\n${statement}\n` });
    const database = await emptyDatabase();
    const error = await t.throwsAsync(migrate(database.url, { skipWorkerSchema: true, ...dirs }));
    t.regex(
      error!.message,
      new RegExp(`${file.slice('migrations/'.length)} (defines function gsm_more|defines trigger jobs_more|alters function gsm_more).*sql/functions/`),
    );
    t.deepEqual(await query(database.url, "SELECT to_regclass('schema_migrations') AS present"), [{ present: null }], 'nothing was applied');
  }
  // A comment that names a statement is not one.
  const dirs = await scratchTree({
    [nextMigrationFile(count, 'more')]: '-- CREATE FUNCTION in a comment is not one.\nALTER TABLE jobs ADD COLUMN more integer;\n',
  });
  const database = await emptyDatabase();
  t.is((await migrate(database.url, { skipWorkerSchema: true, ...dirs })).applied.length, count + 1);
});

test('a definition file defines the function it is named after and no other', async (t) => {
  const dirs = await scratchTree({
    'functions/gsm_other.sql': 'CREATE OR REPLACE FUNCTION gsm_iso(p timestamptz) RETURNS text LANGUAGE sql AS $$ SELECT 1::text $$;\n',
  });
  const error = await t.throwsAsync(listDefinitions(dirs.definitionsDir));
  t.regex(error!.message, /gsm_other\.sql must define the function gsm_other and no other \(found: gsm_iso\)/);
});

test('a failing definition rolls back the migrations of its run with it and names the file', async (t) => {
  const dirs = await scratchTree({
    'functions/gsm_broken.sql': 'CREATE OR REPLACE FUNCTION gsm_broken() RETURNS integer LANGUAGE sql AS $$ SELECT missing FROM nowhere $$;\n',
  });
  const database = await emptyDatabase();
  const error = await t.throwsAsync(migrate(database.url, { skipWorkerSchema: true, ...dirs }));
  t.regex(error!.message, /Definition gsm_broken\.sql failed: relation "nowhere" does not exist/);
  t.deepEqual(await query(database.url, 'SELECT id FROM schema_migrations'), []);
  t.deepEqual(await query(database.url, 'SELECT name FROM schema_definitions'), []);
  t.deepEqual(await query(database.url, "SELECT to_regclass('jobs') AS present"), [{ present: null }]);
});

test('after a migration every definition is applied again: a rebuilt table gets its triggers back', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true });
  const count = (await listMigrations()).length;
  const dirs = await scratchTree({
    [nextMigrationFile(count, 'rebuild_event_positions')]: `
      ALTER TABLE event_positions RENAME TO event_positions_old;
      CREATE TABLE event_positions (LIKE event_positions_old INCLUDING ALL);
      INSERT INTO event_positions SELECT * FROM event_positions_old;
      DROP TABLE event_positions_old;`,
  });
  const result = await migrate(database.url, { skipWorkerSchema: true, ...dirs });
  t.is(result.applied.length, 1);
  t.deepEqual(
    result.defined,
    (await listDefinitions()).map((definition) => definition.file),
  );
  const triggers = await query<{ name: string }>(database.url, "SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'event_positions'::regclass");
  t.deepEqual(triggers, [{ name: 'event_positions_webhook_wake' }]);
});

test('a definition file removed leaves no checksum behind, so the same text added again is applied again', async (t) => {
  const database = await emptyDatabase();
  const without = await scratchTree({});
  await rm(new URL('gsm_iso.sql', without.definitionsDir));
  await migrate(database.url, { skipWorkerSchema: true });
  t.deepEqual(await query(database.url, "SELECT name FROM schema_definitions WHERE name = 'gsm_iso'"), [{ name: 'gsm_iso' }]);
  t.deepEqual(await migrate(database.url, { skipWorkerSchema: true, ...without }), { applied: [], defined: [] });
  t.deepEqual(await query(database.url, "SELECT name FROM schema_definitions WHERE name = 'gsm_iso'"), []);
  await query(database.url, "CREATE OR REPLACE FUNCTION gsm_iso(p timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'dropped' $$");
  t.deepEqual(await migrate(database.url, { skipWorkerSchema: true }), { applied: [], defined: ['gsm_iso.sql'] });
  const [row] = await query<{ iso: string }>(database.url, "SELECT gsm_iso('2026-01-02 03:04:05.678+00') AS iso");
  t.is(row!.iso, '2026-01-02T03:04:05.678Z');
});

test('a database migrated before definitions had files gets them all once, and its schema stays the same', async (t) => {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true });
  // What the runner before sql/functions/ left: every migration, no record of definitions.
  await query(database.url, 'DROP TABLE schema_definitions');
  const before = await schemaSnapshot(database.url);
  const result = await migrate(database.url, { skipWorkerSchema: true });
  t.deepEqual(result, { applied: [], defined: (await listDefinitions()).map((definition) => definition.file) });
  const after = await schemaSnapshot(database.url);
  t.deepEqual(
    after.filter((item) => !item.includes('schema_definitions')),
    before,
  );
});

/**
 * A database migrated up to 000041 and a long transaction that has read `servers` (ACCESS SHARE), still open:
 * 000042's ALTER TABLE servers waits for it.
 */
async function blockedAt41(t: ExecutionContext) {
  const database = await emptyDatabase();
  await migrate(database.url, { skipWorkerSchema: true, upTo: 41 });
  const blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
  t.teardown(() => blocker.end());
  await blocker.query('BEGIN');
  await blocker.query('SELECT count(*) FROM servers');
  return { database, blocker };
}

test('a migration waiting for a lock behind a long transaction gives up after lock_timeout and tries again, so the traffic is not queued behind it', async (t) => {
  const { database, blocker } = await blockedAt41(t);
  const { logger, lines } = captureLogs();
  const migrating = migrate(database.url, { skipWorkerSchema: true, lockTimeoutMs: 300, retryPauseMs: 300, attempts: 100, logger });
  const retried = () => lines().filter((line) => String(line.msg).includes('waited 300 ms for a lock'));
  while (retried().length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  // Traffic on the table goes on while the blocker still holds it: a migration without lock_timeout would keep its
  // ACCESS EXCLUSIVE request queued, and every query of `servers` behind it, until the blocker ends.
  const reader = new pg.Client({ connectionString: database.url });
  await reader.connect();
  t.teardown(() => reader.end());
  for (let read = 0; read < 5; read++) t.deepEqual((await reader.query('SELECT count(*)::int AS n FROM servers')).rows, [{ n: 0 }]);
  t.deepEqual(await query(database.url, 'SELECT max(id) AS id FROM schema_migrations'), [{ id: 41 }], 'nothing of the attempts stayed');
  await blocker.query('COMMIT');
  const result = await migrating;
  t.true(result.applied.includes('000042_server_disk_measured.sql'));
  t.true(retried().length >= 1);
  t.like(retried()[0], { attempt: 1, lockTimeoutMs: 300, step: 'Migration 000042_server_disk_measured.sql' });
});

test('a migration that waits for a lock on every attempt fails, saying so, and applies nothing', async (t) => {
  const { database, blocker } = await blockedAt41(t);
  const error = await t.throwsAsync(migrate(database.url, { skipWorkerSchema: true, lockTimeoutMs: 100, retryPauseMs: 50, attempts: 2 }));
  t.regex(
    error!.message,
    /^Migration 000042_server_disk_measured\.sql failed \(2 attempts, each waiting 100 ms for a lock\): canceling statement due to lock timeout/,
  );
  t.deepEqual(await query(database.url, 'SELECT max(id) AS id FROM schema_migrations'), [{ id: 41 }]);
  await blocker.query('ROLLBACK');
});
