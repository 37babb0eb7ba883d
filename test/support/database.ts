/**
 * A fresh database per test file, cloned from a migrated template. The template's name carries a hash of the
 * migrations, the function definitions and graphile-worker's version, so a changed migration or function gets a new template; it is built once, under an
 * advisory lock, by whichever test process needs it first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';
import { DEFINITIONS_DIR, MIGRATIONS_DIR, migrate } from '../../sql/migrate.ts';

/** The server the tests use: TEST_DATABASE_URL (a maintenance database such as `postgres`), default the local one. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const TEMPLATE_LOCK_KEY = 0x67736d2d746d70n; // "gsm-tmp"

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function templateName(): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of [MIGRATIONS_DIR, DEFINITIONS_DIR]) {
    for (const file of (await readdir(dir)).sort()) hash.update(file).update(await readFile(new URL(file, dir)));
  }
  hash.update(await readFile(new URL('../../node_modules/graphile-worker/package.json', import.meta.url)));
  return `gsm_template_${hash.digest('hex').slice(0, 16)}`;
}

async function ensureTemplate(): Promise<string> {
  const name = await templateName();
  await withAdmin(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY.toString()]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) return;
      // Built under another name and renamed when complete, so a crash mid-build never leaves a half template.
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${building}"`);
      await migrate(databaseUrl(building));
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY.toString()]);
    }
  });
  return name;
}

export type TestDatabase = { name: string; url: string; drop: () => Promise<void> };

/** Creates an empty database (no migrations) with a unique name. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `gsm_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
}

/** Creates a migrated database cloned from the template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `gsm_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        // 55006: the template is briefly in use (another clone in flight); try again shortly.
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        await new Promise((done) => setTimeout(done, 100));
      }
    }
  });
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
