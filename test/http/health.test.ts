import test from 'ava';
import { sql } from 'slonik';
import { createApp } from '../../api/app.ts';
import { startHttpServer } from '../../api/server.ts';
import { createDatabasePool } from '../../sql/pool.ts';
import { createAppDeps } from '../../api/deps.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { loadConfig } from '../../schema/config.ts';
import { captureLogs } from '../support/logs.ts';
import { createTestDatabase } from '../support/database.ts';
import { body, useTestApp } from '../support/app.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const app = useTestApp(test, { env: { METRICS_TOKEN } });

test('healthz answers while the process is up', async (t) => {
  const response = await app().request('/healthz');
  t.is(response.status, 200);
  const answer = await body(response);
  t.is(answer.status, 'ok');
  t.is(typeof answer.uptimeSeconds, 'number');
});

test('healthz is answered ahead of Koa: its request id, HEAD without a body, counted, logged at debug; with Origin or another method the long way', async (t) => {
  const logged = (requestId: string | null) =>
    app()
      .logs()
      .filter((line) => line.requestId === requestId && line.msg === 'request');
  const answered = await app().request('/healthz?probe=1', { headers: { 'x-request-id': 'probe-42' } });
  t.is(answered.status, 200);
  t.is(answered.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(answered.headers.get('x-request-id'), 'probe-42');
  const text = await answered.text();
  t.is(answered.headers.get('content-length'), String(Buffer.byteLength(text)));
  t.like(JSON.parse(text), { status: 'ok', version: app().deps.version });
  t.deepEqual(
    logged('probe-42').map((line) => [line.level, line.path, line.route]),
    [[20, '/healthz', undefined]],
    'one debug line, and no route: Koa never saw it',
  );

  const head = await app().request('/healthz', { method: 'HEAD', headers: { 'x-request-id': 'bad id' } });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(Buffer.byteLength(text)));
  t.is(await head.text(), '');
  t.regex(head.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, 'an unsafe id is replaced');

  // A browser page's probe goes through the stack (CORS): the route answers, with an info line naming it.
  const fromPage = await app().request('/healthz', { headers: { origin: 'https://panel.example', 'x-request-id': 'page-1' } });
  t.is(fromPage.status, 200);
  t.deepEqual(
    logged('page-1').map((line) => [line.level, line.route]),
    [[30, '/healthz']],
  );
  const deleted = await app().request('/healthz', { method: 'DELETE' });
  t.is(deleted.status, 405);
});

test('readyz is ready with the database reachable and migrations current', async (t) => {
  const response = await app().request('/readyz');
  t.is(response.status, 200);
  t.deepEqual(await body(response), { status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
});

test.serial('readyz says which migration is missing', async (t) => {
  const { pool } = app();
  const last = Number(await pool.oneFirst(sql.unsafe`SELECT max(id) FROM schema_migrations`));
  const name = String(await pool.oneFirst(sql.unsafe`DELETE FROM schema_migrations WHERE id = ${last} RETURNING name`));
  try {
    const response = await app().request('/readyz');
    t.is(response.status, 503);
    const answer = await body(response);
    t.is(answer.statusCode, 503);
    t.is(answer.details[0].field, 'migrations');
  } finally {
    await pool.query(sql.unsafe`INSERT INTO schema_migrations (id, name) VALUES (${last}, ${name})`);
  }
});

test('readyz is 503 naming the database when it is unreachable', async (t) => {
  const database = await createTestDatabase();
  const pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
  const { logger } = captureLogs();
  const config = loadConfig({ DATABASE_URL: database.url, PORT: '0', RATE_LIMIT: 'off' });
  const deps = await createAppDeps({
    config,
    logger,
    pool,
    databaseUrl: database.url,
    secrets: { pasetoKey: generatePasetoKey() },
    version: 'test',
    defaultMetrics: false,
  });
  const server = await startHttpServer(createApp(deps), { port: 0, host: '127.0.0.1' });
  try {
    t.is((await fetch(`http://127.0.0.1:${server.port}/readyz`)).status, 200);
    await database.drop(); // the database goes away under the running app
    const response = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    t.is(response.status, 503);
    const answer = await body(response);
    t.deepEqual(answer.details, [{ field: 'database', message: 'unreachable' }]);
    t.is(answer.error, 'Service Unavailable');
  } finally {
    await server.close(1_000);
    await deps.close();
    await pool.end().catch(() => undefined);
  }
});

test('metrics count requests and time them per route', async (t) => {
  await app().request('/healthz');
  await app().request('/healthz');
  await app().request('/no/such/route');
  const response = await app().request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /text\/plain/);
  const text = await response.text();
  const healthz = /http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)/.exec(text);
  t.truthy(healthz);
  t.true(Number(healthz![1]) >= 2);
  t.regex(text, /http_requests_total\{method="GET",route="\(unmatched\)",status="404"\} \d+/);
  t.regex(text, /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz"\} \d+/);
  t.regex(text, /http_request_duration_seconds_count\{method="GET",route="\/healthz"\} \d+/);
});

test('readyz checks Redis when REDIS_URL is set, and names it when it does not answer', async (t) => {
  const { startTestApp } = await import('../support/app.ts');
  const healthy = await startTestApp({ RATE_LIMIT: 'on', REDIS_URL: 'redis://127.0.0.1:6379' });
  t.teardown(() => healthy.close());
  const ready = await healthy.request('/readyz');
  t.is(ready.status, 200);
  t.deepEqual((await body(ready)).checks, { database: 'ok', migrations: 'ok', redis: 'ok' });

  const down = await startTestApp({ RATE_LIMIT: 'on', REDIS_URL: 'redis://127.0.0.1:1' });
  t.teardown(() => down.close());
  const notReady = await down.request('/readyz');
  t.is(notReady.status, 503);
  t.deepEqual((await body(notReady)).details, [{ field: 'redis', message: 'unreachable' }]);
});
