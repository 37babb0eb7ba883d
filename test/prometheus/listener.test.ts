/**
 * Where Prometheus metrics are served: on the metrics listener (METRICS_LISTEN, loopback by default), and on the API
 * port only with METRICS_TOKEN, to that bearer token; an unauthenticated caller of the API port gets nothing.
 */
import { createServer } from 'node:http';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { defaultMetricsListen } from '../../api/service.ts';
import { startService } from '../../main.ts';
import { startMetricsListener } from '../../api/http/prometheusListener.ts';
import { ConfigError, loadConfig } from '../../schema/config.ts';
import { body, startTestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/database.ts';
import { captureLogs } from '../support/logs.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

test('the API port answers /metrics 404 without METRICS_TOKEN, in the error format', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.close());
  const response = await app.request('/metrics');
  t.is(response.status, 404);
  t.like(await body(response), { statusCode: 404, error: 'Not Found' });
});

test('with METRICS_TOKEN the API port serves /metrics to that bearer token only', async (t) => {
  const app = await startTestApp({ METRICS_TOKEN });
  t.teardown(() => app.close());
  for (const init of [{}, bearer('not-the-metrics-token-at-all'), bearer(`${METRICS_TOKEN}x`), { headers: { authorization: METRICS_TOKEN } }]) {
    const refused = await app.request('/metrics', init);
    t.is(refused.status, 401, JSON.stringify(init));
    t.is(refused.headers.get('www-authenticate'), 'Bearer');
    t.like(await body(refused), { statusCode: 401, error: 'Unauthorized' });
  }
  const served = await app.request('/metrics', bearer(METRICS_TOKEN));
  t.is(served.status, 200);
  t.regex(await served.text(), /^# TYPE gsm_servers gauge$/m);
});

test('the listener serves /metrics (with the token when one is set) and nothing else', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.close());
  const { logger } = captureLogs();
  const open = await startMetricsListener({ registry: app.deps.metrics.registry, host: '127.0.0.1', port: 0, logger });
  t.teardown(() => open.close());
  const served = await fetch(`http://127.0.0.1:${open.port}/metrics`);
  t.is(served.status, 200);
  t.regex(served.headers.get('content-type') ?? '', /text\/plain/);
  t.regex(await served.text(), /^# TYPE gsm_players_online gauge$/m);
  const elsewhere = await fetch(`http://127.0.0.1:${open.port}/api/v1/clusters`);
  t.is(elsewhere.status, 404);
  t.like(await body(elsewhere), { statusCode: 404, error: 'Not Found' });
  t.is((await fetch(`http://127.0.0.1:${open.port}/metrics`, { method: 'POST' })).status, 405);

  const guarded = await startMetricsListener({ registry: app.deps.metrics.registry, host: '127.0.0.1', port: 0, token: METRICS_TOKEN, logger });
  t.teardown(() => guarded.close());
  const refused = await fetch(`http://127.0.0.1:${guarded.port}/metrics`);
  t.is(refused.status, 401);
  t.like(await body(refused), { statusCode: 401, error: 'Unauthorized' });
  t.is((await fetch(`http://127.0.0.1:${guarded.port}/metrics`, bearer(METRICS_TOKEN))).status, 200);
});

test('the service starts the listener of METRICS_LISTEN and logs it; an address in use stops the start naming the setting', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const dir = await mkdtemp(join(tmpdir(), 'gsm-metrics-'));
  await chmod(dir, 0o755);
  const env = { DATABASE_URL: database.url, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  const { logger, lines } = captureLogs();
  const service = await startService(loadConfig({ ...env, METRICS_LISTEN: '127.0.0.1:0' }), logger, 'web');
  t.teardown(() => service.stop());
  const logged = lines().find((line) => typeof line.metrics === 'string');
  t.truthy(logged, 'the listener is logged');
  const scraped = await fetch(String(logged!.metrics));
  t.is(scraped.status, 200);
  t.regex(await scraped.text(), /^process_cpu_user_seconds_total/m);
  t.is((await fetch(`http://127.0.0.1:${service.port}/metrics`)).status, 404);

  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = (taken.address() as { port: number }).port;
  const error = await t.throwsAsync(startService(loadConfig({ ...env, METRICS_LISTEN: `127.0.0.1:${port}` }), captureLogs().logger, 'web'));
  t.regex(error!.message, new RegExp(`METRICS_LISTEN 127\\.0\\.0\\.1:${port}: the address is in use`));
});

test('METRICS_LISTEN: loopback 9464 by default (9465 for an orchestrator, so the Procfile roles share a host), host:port, [IPv6]:port or off; anything else names the setting', (t) => {
  const base = { DATABASE_URL: 'postgres://x@localhost/x' };
  t.is(loadConfig(base).METRICS_LISTEN, undefined);
  t.deepEqual(defaultMetricsListen('all'), { host: '127.0.0.1', port: 9464 });
  t.deepEqual(defaultMetricsListen('web'), { host: '127.0.0.1', port: 9464 });
  t.deepEqual(defaultMetricsListen('orchestrator'), { host: '127.0.0.1', port: 9465 });
  t.deepEqual(loadConfig({ ...base, METRICS_LISTEN: '0.0.0.0:9100' }).METRICS_LISTEN, { host: '0.0.0.0', port: 9100 });
  t.deepEqual(loadConfig({ ...base, METRICS_LISTEN: '[::1]:9464' }).METRICS_LISTEN, { host: '::1', port: 9464 });
  t.is(loadConfig({ ...base, METRICS_LISTEN: 'off' }).METRICS_LISTEN, null);
  t.false(loadConfig(base).METRICS_CLUSTER_LABELS);
  for (const bad of ['9464', 'localhost', 'localhost:99999', '::1:9464', 'host:port']) {
    const error = t.throws(() => loadConfig({ ...base, METRICS_LISTEN: bad }), { instanceOf: ConfigError }, bad);
    t.regex(error!.message, /METRICS_LISTEN: expected host:port/);
  }
  t.throws(() => loadConfig({ ...base, METRICS_TOKEN: 'short' }), { message: /METRICS_TOKEN: expected at least 16/ });
});
