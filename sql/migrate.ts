/**
 * Forward-only migrations: `sql/NNNNNN_name.sql`, applied in order, each in its own transaction, recorded in
 * `schema_migrations`. A session-level advisory lock makes several processes that start at once migrate exactly once:
 * the first applies, the others wait and then find nothing to do. graphile-worker's own schema is installed under the
 * same lock.
 */
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

/** Arbitrary constant naming our advisory lock ("gsm-migrate" in ASCII, truncated to fit a bigint). */
const MIGRATION_LOCK_KEY = 0x67736d2d6d6967n;

const FILE_NAME = /^(\d{6})_([a-z0-9_]+)\.sql$/;

export type Migration = { id: number; name: string; file: string };

/** Lists the migration files and checks their numbering (1, 2, 3… with no gap or duplicate). */
export async function listMigrations(): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
  const migrations = files.map((file) => {
    const match = FILE_NAME.exec(file);
    if (!match) throw new Error(`Migration file name ${file} does not match NNNNNN_name.sql`);
    return { id: Number(match[1]), name: match[2], file };
  });
  migrations.forEach((migration, index) => {
    if (migration.id !== index + 1) throw new Error(`Migration ${migration.file} is out of sequence: expected number ${index + 1}`);
  });
  return migrations;
}

export type MigrateOptions = {
  logger?: Logger;
  /** Apply migrations up to and including this number only (tests of upgrade paths). */
  upTo?: number;
  /** Skip graphile-worker's schema (tests of our own upgrade paths). */
  skipWorkerSchema?: boolean;
};

export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const migrations = (await listMigrations()).filter((migration) => options.upTo === undefined || migration.id <= options.upTo);
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', (error) => options.logger?.warn({ err: error }, 'migration connection error'));
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        id integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ id: number }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((row) => row.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      const text = await readFile(new URL(migration.file, MIGRATIONS_DIR), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(text);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${migration.file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.file);
      options.logger?.info({ migration: migration.file }, 'migration applied');
    }
    if (!options.skipWorkerSchema) await installWorkerSchema(databaseUrl, options.logger);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
  return { applied };
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

/** Whether the database has every migration this build knows about (used by /readyz). */
export async function migrationState(pool: DatabasePool, expected: number): Promise<MigrationState> {
  const row = await pool.one(sql.type(migrationStateRow)`
    SELECT
      (SELECT count(*) FROM schema_migrations)::int AS applied,
      to_regclass('graphile_worker.migrations') IS NOT NULL AS "workerSchema"`);
  return { current: row.applied === expected && row.workerSchema, ...row, expected };
}
