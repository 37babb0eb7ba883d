/**
 * Two versions on one database: a build runs on a database that a newer release migrated further, unless a contract
 * migration of that release (`-- compatible-down-to: NNNNNN`, recorded in `schema_compat`) says the schema no longer
 * fits code that knows fewer migrations; then the build refuses to start, naming the versions. Proven both ways on
 * scratch copies of sql/migrations/ with a "newer release" added, in the runner and with the real entry point; and
 * `npm run migrate`'s command run twice at once migrates once.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import pg from 'pg';
import { DEFINITIONS_DIR, MIGRATIONS_DIR, listMigrations, migrate, migrationState, SchemaTooNewError } from '../../sql/migrate.ts';
import { createDatabasePool } from '../../sql/pool.ts';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startMain } from '../support/mainProcess.ts';

const databases: TestDatabase[] = [];
const scratchDirs: string[] = [];
test.after.always(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The migrations this build knows (numbered 1…N without a gap, which listMigrations checks). */
const known = readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith('.sql')).length;
const number = (id: number) => String(id).padStart(6, '0');

/** A copy of sql/migrations/ and sql/functions/ with a newer release's migrations added (name: text). */
async function newerRelease(extra: Record<string, string>): Promise<{ migrationsDir: URL; definitionsDir: URL }> {
  const root = await mkdtemp(join(tmpdir(), 'gsm-compat-'));
  scratchDirs.push(root);
  await cp(MIGRATIONS_DIR, join(root, 'migrations'), { recursive: true });
  await cp(DEFINITIONS_DIR, join(root, 'functions'), { recursive: true });
  for (const [name, text] of Object.entries(extra)) await writeFile(join(root, 'migrations', name), text);
  return { migrationsDir: pathToFileURL(join(root, 'migrations/')), definitionsDir: pathToFileURL(join(root, 'functions/')) };
}

async function database() {
  const created = await createTestDatabase();
  databases.push(created);
  return created;
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

// The newer release: an expand migration (a column with a default, which this build ignores), then a contract one
// that drops a column this build reads, so only code that knows the expand (and stopped reading the column) runs.
const expand = { [`${number(known + 1)}_expand.sql`]: "ALTER TABLE clusters ADD COLUMN colour text NOT NULL DEFAULT 'blue';\n" };
const contract = {
  ...expand,
  [`${number(known + 2)}_contract.sql`]: `-- compatible-down-to: ${number(known + 1)}\nALTER TABLE clusters DROP COLUMN description;\n`,
};

test('a build starts on a database a newer release expanded, and is ready: migrations it does not know do not count', async (t) => {
  const db = await database();
  await migrate(db.url, { skipWorkerSchema: true, ...(await newerRelease(expand)) });
  t.deepEqual(await migrate(db.url, { skipWorkerSchema: true }), { applied: [], defined: [] });
  const pool = await createDatabasePool(db.url);
  t.teardown(() => pool.end());
  const state = await migrationState(pool, known);
  t.true(state.workerSchema);
  t.deepEqual({ current: state.current, applied: state.applied }, { current: true, applied: known });
  t.deepEqual(await query(db.url, 'SELECT * FROM schema_compat'), [], 'an expand migration sets no compatibility');
});

test('a build refuses a database a newer release contracted past what it knows, naming the versions, and changes nothing', async (t) => {
  const db = await database();
  const newer = await newerRelease(contract);
  await migrate(db.url, { skipWorkerSchema: true, ...newer });
  const [compat] = await query<{ compatible_down_to: number; set_by_migration: number; set_by_version: string }>(db.url, 'SELECT * FROM schema_compat');
  t.like(compat, { compatible_down_to: known + 1, set_by_migration: known + 2, set_by_version: '0.1.0' });

  const error = await t.throwsAsync(migrate(db.url, { skipWorkerSchema: true }), { instanceOf: SchemaTooNewError });
  t.is(
    error!.message,
    `This build (version 0.1.0) knows migrations up to ${number(known)}, but the database is at migration ${number(known + 2)} and, since its ` +
      `contract migration ${number(known + 2)} (applied by version 0.1.0), runs only code that knows migration ${number(known + 1)} or later: ` +
      'start this process from version 0.1.0 or newer (docs/upgrades.md)',
  );
  // The newer release itself, and a build that knows the expand migration, run on it.
  t.deepEqual(await migrate(db.url, { skipWorkerSchema: true, ...newer }), { applied: [], defined: [] });
  t.deepEqual(await migrate(db.url, { skipWorkerSchema: true, ...(await newerRelease(expand)) }), { applied: [], defined: [] });
  // The advisory lock was let go: a later run is not blocked. Only this test's database counts (other tests, here and
  // in other files, migrate their own databases on the same server at the same time).
  t.deepEqual(
    await query(
      db.url,
      "SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    ),
    [{ held: 0 }],
  );
});

test('the compatibility is only ever raised: a later contract migration naming an older one leaves it', async (t) => {
  const db = await database();
  await migrate(db.url, {
    skipWorkerSchema: true,
    ...(await newerRelease({ ...contract, [`${number(known + 3)}_later.sql`]: `-- compatible-down-to: ${number(known)}\nSELECT 1;\n` })),
  });
  t.like((await query(db.url, 'SELECT * FROM schema_compat'))[0], { compatible_down_to: known + 1, set_by_migration: known + 2 });
});

test('a compatible-down-to header must name a migration up to its own', async (t) => {
  const newer = await newerRelease({ [`${number(known + 1)}_wrong.sql`]: `-- compatible-down-to: ${number(known + 5)}\nSELECT 1;\n` });
  const error = await t.throwsAsync(listMigrations(newer.migrationsDir));
  t.regex(error!.message, new RegExp(`${number(known + 1)}_wrong.sql: compatible-down-to ${number(known + 5)} must name a migration up to this one`));
});

test('the real entry point on a database contracted past it: exits 1 with the message naming the versions', async (t) => {
  const db = await database();
  await migrate(db.url, { skipWorkerSchema: true, ...(await newerRelease(contract)) });
  const dir = await mkdtemp(join(tmpdir(), 'gsm-compat-main-'));
  scratchDirs.push(dir);
  await chmod(dir, 0o755);
  const error = await t.throwsAsync(startMain({ DATABASE_URL: db.url, DATA_DIR: dir, HOST: '127.0.0.1' }, ['--role=web']));
  t.regex(error!.message, /exited with 1 before start-up/);
  t.regex(error!.message, new RegExp(`knows migrations up to ${number(known)}, but the database is at migration ${number(known + 2)}`));
  t.regex(error!.message, new RegExp(`runs only code that knows migration ${number(known + 1)} or later`));

  // On a database a newer release only expanded, the same entry point starts and is ready.
  const expanded = await database();
  await migrate(expanded.url, { skipWorkerSchema: true, ...(await newerRelease(expand)) });
  const started = await startMain({ DATABASE_URL: expanded.url, DATA_DIR: dir, HOST: '127.0.0.1' }, ['--role=web']);
  t.teardown(() => void started.child.kill('SIGKILL'));
  const ready = await fetch(started.docsUrl.replace(/\/api\/docs$/, '/readyz'));
  t.is(ready.status, 200);
  started.child.kill('SIGTERM');
  t.is(await started.exited, 0);
});

test('npm run migrate: its command run twice at once applies every migration once, and exits 0', async (t) => {
  const empty = await createEmptyDatabase();
  databases.push(empty);
  t.is((await listMigrations()).length, known);
  const script = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).scripts.migrate as string;
  t.is(script, 'node sql/migrate.ts');
  const run = () =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['sql/migrate.ts'], { env: { ...process.env, DATABASE_URL: empty.url }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });
  const [first, second] = await Promise.all([run(), run()]);
  t.is(first.code, 0, first.output);
  t.is(second.code, 0, second.output);
  const applied = [first, second].map((each) => (each.output.match(/"migration applied"/g) ?? []).length).sort((a, b) => a - b);
  t.deepEqual(applied, [0, known], 'one run applied every migration, the other found nothing to do');
  t.deepEqual(await query(empty.url, 'SELECT count(*)::int AS count FROM schema_migrations'), [{ count: known }]);

  // Without DATABASE_URL it says what it needs.
  const refused = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['sql/migrate.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
  t.is(refused.code, 1);
  t.regex(refused.output, /npm run migrate needs DATABASE_URL/);
});
