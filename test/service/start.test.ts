/**
 * The real `npm start` entry point, as a child process on the embedded database: it starts with no set-up, logs the
 * docs URL, answers /readyz and the docs, and exits 0 on SIGTERM. A crash's leftovers do not block the next start.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../support/database.ts';
import { startMain } from '../support/mainProcess.ts';
import { assertBurst, assertRemaining, spendBurst, DOCUMENTED_BUDGETS } from '../support/burst.ts';

const { FREE } = DOCUMENTED_BUDGETS;

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-start-'));
  await chmod(dir, 0o755); // as root, the embedded cluster runs as the postgres user, which must reach it
  return dir;
}

test.serial('npm start runs on the embedded database, serves docs and readiness, and stops cleanly on SIGTERM', async (t) => {
  const dir = await dataDir();
  const service = await startMain({ DATA_DIR: dir });
  const base = service.docsUrl.replace(/\/api\/docs$/, '');
  t.regex(service.docsUrl, /^http:\/\/localhost:\d+\/api\/docs$/);
  t.is(service.lines.filter((line) => line.includes('API reference at')).length, 1, 'one line with the docs URL');

  const ready = await fetch(`${base}/readyz`);
  t.is(ready.status, 200);
  const docs = await fetch(service.docsUrl);
  t.is(docs.status, 200);
  t.regex(await docs.text(), /swagger-ui/);
  t.is((await fetch(`${base}/api/docs/openapi.json`)).status, 200);
  // The dashboard is served at / with its script, built by the service itself.
  const dashboard = await fetch(`${base}/`);
  t.is(dashboard.status, 200);
  const script = /src="(\/dashboard\/main-[0-9a-f]{16}\.js)"/.exec(await dashboard.text())?.[1];
  t.truthy(script, 'the page names its script');
  t.is((await fetch(`${base}${script}`)).status, 200);

  // The operator's own commands work beside the running service, on its embedded database: the password comes on
  // standard input, and the service sees the new user at once.
  const admin = spawnSync(process.execPath, ['api/admin.ts', 'create-user', 'ops@example.test'], {
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
    input: 'a password from stdin\n',
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(admin.status, 0, admin.stderr);
  t.regex(admin.stdout, /created user .* <ops@example\.test>/);
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ops@example.test', password: 'a password from stdin' }),
  });
  t.is(login.status, 200);
  t.is((await fetch(`${base}/readyz`)).status, 200, 'the service still runs on its database');

  service.child.kill('SIGTERM');
  t.is(await service.exited, 0);
  t.true(service.lines.some((line) => line.includes('embedded Postgres stopped')));
  t.regex(await readFile(join(dir, 'secrets', 'paseto-key'), 'utf8'), /^k4\.local\./);

  // A crash leaves a postmaster.pid naming a process that no longer exists: the next start must clear it.
  await writeFile(join(dir, 'postgres', 'postmaster.pid'), '999999\n/nonexistent\n');
  const again = await startMain({ DATA_DIR: dir });
  t.true(again.lines.some((line) => line.includes('removing stale postmaster.pid')));
  t.is((await fetch(`${again.docsUrl.replace(/\/api\/docs$/, '')}/readyz`)).status, 200);
  again.child.kill('SIGINT');
  t.is(await again.exited, 0);
});

test.serial('a SIGKILLed service leaves its database running; the next start takes it over', async (t) => {
  const dir = await dataDir();
  const first = await startMain({ DATA_DIR: dir });
  first.child.kill('SIGKILL');
  await first.exited;
  const second = await startMain({ DATA_DIR: dir });
  t.true(second.lines.some((line) => line.includes('orphaned by an earlier crash')));
  t.is((await fetch(`${second.docsUrl.replace(/\/api\/docs$/, '')}/readyz`)).status, 200);
  second.child.kill('SIGTERM');
  t.is(await second.exited, 0, second.lines.join('\n'));
});

test.serial('the web and orchestrator roles split the work on a shared database', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const web = await startMain({ DATABASE_URL: database.url }, ['--role=web']);
  const orchestrator = await startMain({ DATABASE_URL: database.url, ROLE: 'orchestrator' });
  const webBase = web.docsUrl.replace(/\/api\/docs$/, '');
  const orchestratorBase = `http://127.0.0.1:${new URL(orchestrator.docsUrl).port}`;
  t.is((await fetch(`${webBase}/api/docs/openapi.json`)).status, 200);
  t.is((await fetch(`${orchestratorBase}/readyz`)).status, 200);
  t.is((await fetch(`${orchestratorBase}/api/docs/openapi.json`)).status, 404, 'the orchestrator serves no REST API');
  t.true(orchestrator.lines.some((line) => line.includes('Worker connected')));
  t.false(web.lines.some((line) => line.includes('Worker connected')));
  // Without REDIS_URL the web process cannot forward file requests to the orchestrator: the orchestrator says so.
  t.true(orchestrator.lines.some((line) => line.includes('REDIS_URL is unset on this orchestrator')));
  t.false(web.lines.some((line) => line.includes('REDIS_URL is unset on this orchestrator')));
  web.child.kill('SIGTERM');
  orchestrator.child.kill('SIGTERM');
  t.deepEqual(await Promise.all([web.exited, orchestrator.exited]), [0, 0]);
});

test.serial('two API processes with REDIS_URL share one rate-limit budget', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const { createDatabasePool } = await import('../../sql/pool.ts');
  const { generateSecret, hashSecret } = await import('../../schema/secretTokens.ts');
  const { sql } = await import('slonik');
  const pool = await createDatabasePool(database.url, { maxPoolSize: 1 });
  const token = generateSecret('live');
  await pool.query(sql.unsafe`
    WITH u AS (INSERT INTO users (email, display_name, tier) VALUES ('shared@example.test', 'shared', 'FREE') RETURNING id)
    INSERT INTO api_tokens (user_id, name, token_hash) SELECT id, 'shared', ${sql.binary(hashSecret(token))} FROM u`);
  await pool.end();

  const env = { DATABASE_URL: database.url, REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT: 'on' };
  const nodes = [await startMain(env, ['--role=web']), await startMain(env, ['--role=web'])];
  t.teardown(async () => {
    for (const node of nodes) node.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.exited));
  });
  const bases = nodes.map((node) => node.docsUrl.replace(/\/api\/docs$/, ''));
  const spent = await spendBurst((request) => fetch(`${bases[request % 2]}/api/v1/account`, { headers: { Authorization: `Bearer ${token}` } }), FREE);
  // FREE: a burst of 10 across both processes (two budgets would pass twenty), then refused.
  assertBurst(t, spent, FREE);
  t.true(spent.answers.slice(0, -1).every((answer) => answer.status === 200));
  assertRemaining(
    t,
    spent.answers.map((answer) => answer.headers.get('x-ratelimit-remaining')),
    spent,
    FREE,
  );
});
