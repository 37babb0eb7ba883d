/**
 * orchestrator/jobs/ is the only code that changes a job's row (docs/architecture.md#the-life-of-a-job): no
 * `UPDATE jobs`, `INSERT INTO jobs` or `DELETE FROM jobs` anywhere else in the tree but the SQL definitions
 * (sql/functions/). Tests may reach into the table to set up a state (test/ is not looked at). The check runs on the
 * real tree, and on a scratch tree shaped like ours, where a write put elsewhere fails it, named by file and line.
 */
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import test from 'ava';

/** Where a job's row may be written. */
const ALLOWED = ['orchestrator/jobs/', 'sql/functions/'];
/** Not looked at, at the top of the tree only: tests, the embedded database's and the test run's data, git. */
const SKIPPED_AT_ROOT = new Set(['test', 'data', '.tmp', '.git']);
/** Not looked at, at any depth: installed dependencies. */
const SKIPPED_ANYWHERE = new Set(['node_modules']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs|sql)$/;

/** The jobs table's name as SQL may spell it: `jobs`, `"jobs"`, `public.jobs`, `"public"."jobs"`, any case. */
const JOBS = String.raw`(?:"?public"?\s*\.\s*)?(?:"jobs"|jobs\b)`;
/**
 * A statement writing the jobs table, in any case, across lines: `UPDATE jobs [alias] SET`, `INSERT INTO jobs`,
 * `DELETE FROM jobs`, `TRUNCATE [TABLE] jobs`, `MERGE INTO jobs`, `COPY jobs … FROM`. (`UPDATE jobs` alone is prose:
 * "INSTALL and UPDATE jobs".)
 */
const JOB_WRITE = new RegExp(
  [
    String.raw`\bUPDATE\s+(?:ONLY\s+)?${JOBS}(?:\s+(?:AS\s+)?(?!SET\b)[a-z_]\w*)?\s+SET\b`,
    String.raw`\bINSERT\s+INTO\s+${JOBS}`,
    String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?${JOBS}`,
    String.raw`\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?(?:[\w".]+\s*,\s*)*${JOBS}`,
    String.raw`\bMERGE\s+INTO\s+(?:ONLY\s+)?${JOBS}`,
    String.raw`\bCOPY\s+${JOBS}(?:\s*\([^)]*\))?\s+FROM\b`,
  ].join('|'),
  'gi',
);

/** Every write of a job's row outside the allowed folders under `root`, as `path:line: statement`. */
async function jobWritesOutsideJobs(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(root, path).split(sep).join('/');
      if (entry.isDirectory()) {
        const skipped = SKIPPED_ANYWHERE.has(entry.name) || (dir === root && SKIPPED_AT_ROOT.has(entry.name));
        if (!skipped && !ALLOWED.includes(`${name}/`)) await visit(path);
      } else if (entry.isFile() && SOURCE.test(entry.name)) {
        const text = await readFile(path, 'utf8');
        for (const match of text.matchAll(JOB_WRITE)) {
          const line = text.slice(0, match.index).split('\n').length;
          found.push(`${name}:${line}: ${match[0].replace(/\s+/g, ' ')}`);
        }
      }
    }
  };
  await visit(root);
  return found.sort();
}

test('no code outside orchestrator/jobs/ and sql/functions/ writes a job row', async (t) => {
  const offenders = await jobWritesOutsideJobs(resolve('.'));
  t.deepEqual(offenders, [], `job rows are written only by orchestrator/jobs/ (docs/architecture.md#the-life-of-a-job):\n${offenders.join('\n')}`);
});

async function scratch(files: Record<string, string>): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'gsm-job-writes-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    return await jobWritesOutsideJobs(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const allowed = {
  'orchestrator/jobs/store.ts': 'const create = sql`WITH j AS (INSERT INTO jobs (id) VALUES (1) RETURNING *) SELECT 1`;\n',
  'orchestrator/jobs/cancel.ts': "const cancel = sql`\n  UPDATE jobs\n     SET status = 'CANCELLED'`;\n",
  'sql/functions/gsm_example.sql': 'CREATE OR REPLACE FUNCTION gsm_example() RETURNS void LANGUAGE sql AS $$ UPDATE jobs SET attempts = 0 $$;\n',
  'agent/installs/installer.ts': '/** INSTALL and UPDATE jobs (docs/installs-and-backups.md). */\nexport const x = 1;\n',
  'orchestrator/gateway/machineStore.ts': 'const read = sql`SELECT id FROM jobs WHERE machine_id = $1`;\n',
  'test/jobs/power.test.ts': 'await pool.query(sql`UPDATE jobs SET expires_at = now() WHERE id = ${id}`);\n',
};

test('writes in orchestrator/jobs/ and sql/functions/, reads and prose elsewhere pass the check', async (t) => {
  t.deepEqual(await scratch(allowed), []);
});

const offences: [string, string, string][] = [
  ['api/routes/jobs.ts', "export const r = sql`\n  UPDATE jobs SET status = 'CANCELLED' WHERE id = ${id}`;\n", 'api/routes/jobs.ts:2: UPDATE jobs SET'],
  ['orchestrator/worker/sweep.ts', 'const s = sql`update jobs j set next_check_at = now() FROM due`;\n', 'orchestrator/worker/sweep.ts:1: update jobs j set'],
  [
    'orchestrator/tasks/runner.ts',
    'const c = sql`WITH j AS (INSERT INTO jobs (id) VALUES (1) RETURNING *) SELECT 1`;\n',
    'orchestrator/tasks/runner.ts:1: INSERT INTO jobs',
  ],
  ['sql/migrations/000099_backfill.sql', 'DELETE FROM jobs WHERE created_at < now();\n', 'sql/migrations/000099_backfill.sql:1: DELETE FROM jobs'],
  ['orchestrator/servers/store.ts', 'const u = sql`UPDATE "public"."jobs" SET status = 1`;\n', 'orchestrator/servers/store.ts:1: UPDATE "public"."jobs" SET'],
  ['orchestrator/servers/purge.ts', 'const d = sql`DELETE FROM public . "jobs" WHERE true`;\n', 'orchestrator/servers/purge.ts:1: DELETE FROM public . "jobs"'],
  ['orchestrator/machines/reset.ts', 'const t = sql`TRUNCATE TABLE events, jobs`;\n', 'orchestrator/machines/reset.ts:1: TRUNCATE TABLE events, jobs'],
  ['orchestrator/tasks/merge.ts', 'const m = sql`MERGE INTO jobs j USING due d ON j.id = d.id`;\n', 'orchestrator/tasks/merge.ts:1: MERGE INTO jobs'],
  ['sql/migrations/000098_load.sql', 'COPY jobs (id, status) FROM STDIN;\n', 'sql/migrations/000098_load.sql:1: COPY jobs (id, status) FROM'],
  // A folder named like a skipped top-level one is still looked at below the top.
  ['agent/test/helper.ts', "const u = sql`UPDATE jobs SET status = 'x'`;\n", 'agent/test/helper.ts:1: UPDATE jobs SET'],
  ['orchestrator/data/seed.ts', 'const i = sql`INSERT INTO jobs (id) VALUES (1)`;\n', 'orchestrator/data/seed.ts:1: INSERT INTO jobs'],
];

for (const [path, text, named] of offences) {
  test(`a job write in ${path} fails the check and names the file and line`, async (t) => {
    t.deepEqual(await scratch({ ...allowed, [path]: text }), [named]);
  });
}
