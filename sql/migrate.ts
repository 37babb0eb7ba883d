/**
 * Forward-only migrations: `sql/migrations/NNNNNN_name.sql`, applied in order and recorded in `schema_migrations`, for
 * tables and data. SQL functions and their triggers are not migrations: each has one current definition,
 * `sql/functions/<name>.sql`, applied after the migrations whenever its text changed (its checksum is recorded in
 * `schema_definitions`), like Flyway's repeatable migrations. The pending migrations and the changed definitions commit
 * in one transaction, so a database is never seen with new tables and old functions. A session-level advisory lock
 * makes several processes that start at once migrate exactly once: the first applies, the others wait and then find
 * nothing to do. graphile-worker's own schema is installed under the same lock. docs/development.md#migrations.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import { sql } from 'slonik';
import { z } from 'zod';
import type { Logger } from '../schema/logger.ts';
import { createWorkerLogger } from './workerLogger.ts';
import type { DatabasePool } from './pool.ts';
import { createPgPool } from './pgPool.ts';

export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
export const DEFINITIONS_DIR = new URL('./functions/', import.meta.url);

/**
 * The last migration that may define a function or trigger. Migrations up to it are history: they created and replaced
 * functions on the way, and a fresh database still replays them, which is what keeps a fresh migrate equal to an
 * upgrade. Every function they leave is also in `sql/functions/`, and that file is its one current definition (applied
 * last, it is what the database runs). Migrations after it hold tables and data only.
 */
export const DEFINITIONS_BASELINE = 25;

/**
 * How long one statement of a migration waits for a table lock (`lock_timeout`) before the attempt gives up, and how
 * many attempts are made, a pause between them. A migration's `ALTER TABLE` that waits behind a long transaction would
 * otherwise queue every later query of that table behind its own lock request (Postgres grants locks in order), for as
 * long as that transaction lasts: with the time-out the traffic waits at most this long, the attempt is rolled back
 * (nothing of it stays) and tried again. docs/upgrades.md#lock-time-outs.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 5_000;
export const MIGRATION_ATTEMPTS = 10;
const MIGRATION_RETRY_PAUSE_MS = 1_000;

/** Postgres's `lock_not_available`: a lock waited for longer than `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * Postgres's `deadlock_detected`: the migration's locks and the traffic's, taken in other orders, waited on each other
 * and Postgres ended the migration's transaction (the rolling upgrade test met it under traffic). Tried again too.
 */
const DEADLOCK_DETECTED = '40P01';

/** Arbitrary constant naming our advisory lock ("gsm-migrate" in ASCII, truncated to fit a bigint). */
const MIGRATION_LOCK_KEY = 0x67736d2d6d6967n;

const FILE_NAME = /^(\d{6})_([a-z0-9_]+)\.sql$/;

const DEFINITION_FILE_NAME = /^([a-z0-9_]+)\.sql$/;

/** Statements that define a function, procedure or trigger (CREATE [OR REPLACE] …). */
const DEFINING = /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?(FUNCTION|PROCEDURE|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z0-9_."]+)/gi;

/**
 * What a migration after the baseline may not do: define or alter a function, procedure or trigger (an ALTER would be
 * undone by the next change of the function's file). Dropping one is allowed: that is how a signature changes.
 */
const REFUSED_IN_MIGRATIONS =
  /\b(CREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?|ALTER\s+)(FUNCTION|PROCEDURE|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z0-9_."]+)/gi;

export type Migration = {
  id: number;
  name: string;
  file: string;
  /**
   * A contract migration's `-- compatible-down-to: NNNNNN` header: after it, only code that knows migration NNNNNN or
   * a later one can run on the database (older code refuses to start, naming the versions). docs/upgrades.md.
   */
  compatibleDownTo?: number;
};

/** The header of a contract migration (docs/upgrades.md#contract-migrations). */
const COMPATIBLE_DOWN_TO = /^--\s*compatible-down-to:\s*(\d{6})\s*$/m;

/** This build's version (package.json), recorded with the compatibility a contract migration sets. */
const BUILD_VERSION: string = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).version;

/** A migration number as the files spell it. */
export const migrationNumber = (id: number) => String(id).padStart(6, '0');

/** A database this build cannot run on: a newer release contracted its schema past what this build knows. */
export class SchemaTooNewError extends Error {
  readonly known: number;
  readonly compatibleDownTo: number;
  constructor(known: number, compat: { compatibleDownTo: number; setByMigration: number; setByVersion: string }, latest: number) {
    super(
      `This build (version ${BUILD_VERSION}) knows migrations up to ${migrationNumber(known)}, but the database is at migration ` +
        `${migrationNumber(latest)} and, since its contract migration ${migrationNumber(compat.setByMigration)} (applied by version ${compat.setByVersion}), ` +
        `runs only code that knows migration ${migrationNumber(compat.compatibleDownTo)} or later: start this process from version ${compat.setByVersion} or newer (docs/upgrades.md)`,
    );
    this.name = 'SchemaTooNewError';
    this.known = known;
    this.compatibleDownTo = compat.compatibleDownTo;
  }
}

export type Definition = { name: string; file: string; text: string; checksum: string };

/** SQL text without its comments, so a comment that names a statement is not taken for one. */
function withoutComments(text: string): string {
  return text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

/**
 * Lists the migration files and checks their numbering (1, 2, 3… with no gap or duplicate) and that none after the
 * baseline defines a function or trigger (those belong in `sql/functions/`).
 */
export async function listMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const migrations = files.map((file) => {
    const match = FILE_NAME.exec(file);
    if (!match) throw new Error(`Migration file name ${file} does not match NNNNNN_name.sql`);
    return { id: Number(match[1]), name: match[2]!, file } as Migration;
  });
  migrations.forEach((migration, index) => {
    if (migration.id !== index + 1) throw new Error(`Migration ${migration.file} is out of sequence: expected number ${index + 1}`);
  });
  for (const migration of migrations) {
    const compat = COMPATIBLE_DOWN_TO.exec(await readFile(new URL(migration.file, dir), 'utf8'));
    if (!compat) continue;
    migration.compatibleDownTo = Number(compat[1]);
    if (migration.compatibleDownTo < 1 || migration.compatibleDownTo > migration.id) {
      throw new Error(`Migration ${migration.file}: compatible-down-to ${compat[1]} must name a migration up to this one`);
    }
  }
  for (const migration of migrations.filter((each) => each.id > DEFINITIONS_BASELINE)) {
    const refused = [...withoutComments(await readFile(new URL(migration.file, dir), 'utf8')).matchAll(REFUSED_IN_MIGRATIONS)][0];
    if (refused) {
      const verb = refused[1]!.toUpperCase().startsWith('ALTER') ? 'alters' : 'defines';
      throw new Error(
        `Migration ${migration.file} ${verb} ${refused[2]!.toLowerCase()} ${refused[3]}: functions and triggers are defined in sql/functions/<function>.sql, migrations hold tables and data`,
      );
    }
  }
  return migrations;
}

/**
 * Lists the definition files in the order they are applied (by name) and checks that each defines the function its
 * file is named after and no other, so every function has exactly one file. Its triggers are in the same file.
 */
export async function listDefinitions(dir: URL = DEFINITIONS_DIR): Promise<Definition[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const match = DEFINITION_FILE_NAME.exec(file);
      if (!match) throw new Error(`Definition file name ${file} does not match <function>.sql`);
      const name = match[1]!;
      const text = await readFile(new URL(file, dir), 'utf8');
      const functions = [...withoutComments(text).matchAll(DEFINING)].filter((found) => found[1]!.toUpperCase() !== 'TRIGGER').map((found) => found[2]);
      if (functions.length !== 1 || functions[0] !== name) {
        throw new Error(`Definition ${file} must define the function ${name} and no other (found: ${functions.join(', ') || 'none'})`);
      }
      return { name, file, text, checksum: createHash('sha256').update(text).digest('hex') };
    }),
  );
}

export type MigrateOptions = {
  logger?: Logger;
  /** Apply migrations up to and including this number only (tests of upgrade paths). */
  upTo?: number;
  /** Skip graphile-worker's schema (tests of our own upgrade paths). */
  skipWorkerSchema?: boolean;
  /** Other folders than `sql/migrations/` and `sql/functions/` (tests of the runner's own checks). */
  migrationsDir?: URL;
  definitionsDir?: URL;
  /** `lock_timeout` of each attempt (default MIGRATION_LOCK_TIMEOUT_MS, or MIGRATION_LOCK_TIMEOUT_MS in the environment). */
  lockTimeoutMs?: number;
  /** Attempts before a migration that keeps waiting for a lock fails (default MIGRATION_ATTEMPTS). */
  attempts?: number;
  /** The pause between attempts (default 1 s). */
  retryPauseMs?: number;
};

/** A whole number of milliseconds from the environment, or the default. */
function fromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number of milliseconds (0: no time-out), not ${JSON.stringify(text)}`);
  return value;
}

export type MigrateResult = {
  /** The migration files applied by this run. */
  applied: string[];
  /** The definition files applied by this run (new or changed since the database last applied them). */
  defined: string[];
};

export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const known = await listMigrations(migrationsDir);
  const migrations = known.filter((migration) => options.upTo === undefined || migration.id <= options.upTo);
  // The definitions are today's: they fit only a database with every migration (an upgrade test stops part-way).
  const complete = migrations.length === known.length;
  const definitions = complete ? await listDefinitions(options.definitionsDir) : [];
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', (error) => options.logger?.warn({ err: error }, 'migration connection error'));
  await client.connect();
  const result: MigrateResult = { applied: [], defined: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        id integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS schema_definitions (
        name text PRIMARY KEY,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS schema_compat (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        compatible_down_to integer NOT NULL,
        set_by_migration integer NOT NULL,
        set_by_version text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ id: number; name: string }>('SELECT id, name FROM schema_migrations');
    // A database a newer release contracted past what this build knows: refuse before touching anything.
    const latestKnown = known.at(-1)?.id ?? 0;
    const compat = await readSchemaCompat(client);
    if (compat && compat.compatibleDownTo > latestKnown) {
      throw new SchemaTooNewError(latestKnown, compat, Math.max(0, ...rows.map((row) => row.id)));
    }
    // A number the database applied under another name (a development branch's migration, renumbered since): this
    // build's migration of that number was never applied, and the database's may not be this build's. Refused.
    for (const row of rows) {
      const migration = known.find((each) => each.id === row.id);
      if (migration && migration.name !== row.name) {
        throw new Error(
          `The database applied migration ${migrationNumber(row.id)} as "${row.name}", but this build's ${migrationNumber(row.id)} is ` +
            `${migration.file}: it was migrated by a build whose migrations are numbered differently (a development branch). Nothing was ` +
            `applied; migrate a copy made before that build ran, or reconcile schema_migrations by hand (docs/upgrades.md)`,
        );
      }
    }
    const done = new Set(rows.map((row) => row.id));
    // A database migrated by a newer build is ahead of these definitions: putting back older ones would undo its.
    const ahead = rows.some((row) => !known.some((migration) => migration.id === row.id));
    if (ahead)
      options.logger?.warn(
        { known: known.length, applied: rows.length, compatibleDownTo: compat?.compatibleDownTo ?? null },
        'database has migrations this build does not know, and this build is compatible with it: definitions left as they are',
      );
    const recorded = new Map(
      (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_definitions')).rows.map((row) => [row.name, row.checksum]),
    );
    const pending = migrations.filter((migration) => !done.has(migration.id));
    // After migrations every definition is applied again, changed or not: a migration may have rebuilt a table (its
    // triggers went with the old one) or dropped a function to change its signature.
    const changed = ahead ? [] : definitions.filter((definition) => pending.length > 0 || recorded.get(definition.name) !== definition.checksum);
    const forgotten = ahead || !complete ? [] : [...recorded.keys()].filter((name) => !definitions.some((definition) => definition.name === name));
    const lockTimeoutMs = options.lockTimeoutMs ?? fromEnv('MIGRATION_LOCK_TIMEOUT_MS', MIGRATION_LOCK_TIMEOUT_MS);
    const attempts = options.attempts ?? MIGRATION_ATTEMPTS;
    for (let attempt = 1; pending.length > 0 || changed.length > 0 || forgotten.length > 0; attempt++) {
      await client.query('BEGIN');
      // Only this transaction's statements: the advisory lock above waits as long as it must.
      await client.query(`SET LOCAL lock_timeout = ${lockTimeoutMs}`);
      let current = '';
      try {
        for (const migration of pending) {
          current = `Migration ${migration.file}`;
          await client.query(await readFile(new URL(migration.file, migrationsDir), 'utf8'));
          await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
          if (migration.compatibleDownTo !== undefined) {
            // Only ever raised: a later migration cannot make the schema fit older code again.
            await client.query(
              `INSERT INTO schema_compat (compatible_down_to, set_by_migration, set_by_version) VALUES ($1, $2, $3)
               ON CONFLICT (id) DO UPDATE SET compatible_down_to = EXCLUDED.compatible_down_to, set_by_migration = EXCLUDED.set_by_migration,
                 set_by_version = EXCLUDED.set_by_version, updated_at = now()
               WHERE schema_compat.compatible_down_to < EXCLUDED.compatible_down_to`,
              [migration.compatibleDownTo, migration.id, BUILD_VERSION],
            );
          }
        }
        for (const definition of changed) {
          current = `Definition ${definition.file}`;
          await client.query(definition.text);
          await client.query(
            `INSERT INTO schema_definitions (name, checksum) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
            [definition.name, definition.checksum],
          );
        }
        // A file that is gone leaves no checksum behind, so the same text added again is applied again.
        if (forgotten.length > 0) await client.query('DELETE FROM schema_definitions WHERE name = ANY($1)', [forgotten]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        const code = (error as { code?: string }).code;
        if ((code === LOCK_NOT_AVAILABLE || code === DEADLOCK_DETECTED) && attempt < attempts) {
          options.logger?.warn(
            { attempt, attempts, lockTimeoutMs, step: current },
            code === DEADLOCK_DETECTED
              ? `${current} deadlocked with the traffic: rolled back, trying again`
              : `${current} waited ${lockTimeoutMs} ms for a lock (a long transaction holds the table): rolled back, trying again`,
          );
          await new Promise((resolve) => setTimeout(resolve, options.retryPauseMs ?? MIGRATION_RETRY_PAUSE_MS));
          continue;
        }
        const waited = (error as { code?: string }).code === LOCK_NOT_AVAILABLE ? ` (${attempts} attempts, each waiting ${lockTimeoutMs} ms for a lock)` : '';
        throw new Error(`${current} failed${waited}: ${(error as Error).message}`, { cause: error });
      }
      result.applied = pending.map((migration) => migration.file);
      result.defined = changed.map((definition) => definition.file);
      for (const file of result.applied) options.logger?.info({ migration: file }, 'migration applied');
      for (const file of result.defined) options.logger?.info({ definition: file }, 'definition applied');
      break;
    }
    if (!options.skipWorkerSchema) await installWorkerSchema(databaseUrl, options.logger);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
  return result;
}

async function readSchemaCompat(client: pg.Client) {
  const { rows } = await client.query<{ compatibleDownTo: number; setByMigration: number; setByVersion: string }>(
    'SELECT compatible_down_to AS "compatibleDownTo", set_by_migration AS "setByMigration", set_by_version AS "setByVersion" FROM schema_compat',
  );
  return rows[0];
}

async function installWorkerSchema(databaseUrl: string, logger?: Logger): Promise<void> {
  const pgPool = createPgPool(databaseUrl, { max: 2, logger, name: 'worker-migrations' });
  try {
    await runWorkerMigrations({ pgPool, logger: logger ? createWorkerLogger(logger) : undefined });
  } finally {
    await pgPool.end();
  }
}

export type MigrationState = { current: boolean; applied: number; expected: number; workerSchema: boolean };

const migrationStateRow = z.object({ applied: z.number(), workerSchema: z.boolean() });

/**
 * Whether the database has every migration this build knows about (used by /readyz). Migrations of a newer release
 * beyond them do not count: this build runs on such a database while it is compatible (it refuses to start otherwise).
 */
export async function migrationState(pool: DatabasePool, expected: number): Promise<MigrationState> {
  const row = await pool.one(sql.type(migrationStateRow)`
    SELECT
      (SELECT count(*) FROM schema_migrations WHERE id <= ${expected})::int AS applied,
      to_regclass('graphile_worker.migrations') IS NOT NULL AS "workerSchema"`);
  return { current: row.applied === expected && row.workerSchema, ...row, expected };
}

/**
 * `npm run migrate`: applies the pending migrations to `DATABASE_URL` under the same advisory lock as a starting
 * process, and exits (0 when applied or nothing to do, 1 with the reason otherwise). docs/upgrades.md.
 */
if (import.meta.main) {
  const { createLogger } = await import('../schema/logger.ts');
  const logger = createLogger(process.env.LOG_LEVEL === undefined ? 'info' : (process.env.LOG_LEVEL as Parameters<typeof createLogger>[0]));
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('npm run migrate needs DATABASE_URL (the embedded database of `npm start` is migrated by the service itself)\n');
    process.exit(1);
  }
  try {
    const result = await migrate(databaseUrl, { logger });
    logger.info({ applied: result.applied.length, defined: result.defined.length }, result.applied.length > 0 ? 'migrated' : 'nothing to migrate');
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
