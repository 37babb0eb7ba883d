/**
 * `/live` socket caps with the limiter in Redis: they hold across API nodes, and a Redis that is down refuses the
 * handshake (503) rather than letting sockets in uncounted.
 */
import test from 'ava';
import { sql } from 'slonik';
import { createApp } from '../../api/app.ts';
import { createAppDeps } from '../../api/deps.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { attachLiveNamespace } from '../../api/live/namespace.ts';
import { startHttpServer } from '../../api/server.ts';
import { VERSION } from '../../api/service.ts';
import { CAPS } from '../../api/rateLimit/tiers.ts';
import { loadConfig } from '../../schema/config.ts';
import { createDatabasePool } from '../../sql/pool.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp } from '../support/identity.ts';
import { connectViewer, type LiveViewer } from '../support/liveClient.ts';
import { captureLogs } from '../support/logs.ts';
import { CLOSED_REDIS_URL, REDIS_URL, useTestRedis } from '../support/redis.ts';

const redis = useTestRedis(test);

/** A second API node on `app`'s database and Redis (its own pool, limiter connection and HTTP server). */
async function secondNode(t: import('ava').ExecutionContext, app: TestApp, redisUrl = REDIS_URL): Promise<string> {
  const config = loadConfig({ DATABASE_URL: app.database.url, PORT: '0', RATE_LIMIT: 'on', REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redis.prefix });
  const pool = await createDatabasePool(app.database.url, { maxPoolSize: 3 });
  const deps = await createAppDeps({
    config,
    logger: captureLogs().logger,
    pool,
    databaseUrl: app.database.url,
    secrets: { pasetoKey: generatePasetoKey() },
    version: VERSION,
    defaultMetrics: false,
  });
  const server = await startHttpServer(createApp(deps), { port: 0, host: '127.0.0.1' });
  const live = attachLiveNamespace(server.server, deps);
  t.teardown(async () => {
    live.close();
    await server.close(1_000);
    await deps.close();
    await pool.end();
  });
  return `http://127.0.0.1:${server.port}`;
}

const refusal = (url: string, token: string) =>
  connectViewer(url, token).then(
    (viewer) => {
      viewer.close();
      return { connected: true } as Record<string, unknown>;
    },
    (error: { data?: Record<string, unknown> }) => error.data ?? { noData: true },
  );

test('the per-token cap holds across two API nodes sharing Redis', async (t) => {
  const app = await startTestApp({ RATE_LIMIT: 'on', REDIS_URL, REDIS_KEY_PREFIX: redis.prefix });
  t.teardown(() => app.close());
  const other = await secondNode(t, app);
  const owner = await signUp(app);
  await app.pool.query(sql.unsafe`UPDATE users SET tier = 'ENTERPRISE' WHERE id = ${owner.id}`);
  const token = await createApiToken(app, owner, [await createCluster(app, owner)]);

  const viewers: LiveViewer[] = [];
  t.teardown(() => viewers.forEach((viewer) => viewer.close()));
  const cap = CAPS.LIVE_SOCKETS_PER_CREDENTIAL.max;
  for (let index = 0; index < cap; index += 1) viewers.push(await connectViewer(index % 2 ? other : app.url, token.token));
  for (const url of [app.url, other]) t.like(await refusal(url, token.token), { statusCode: 429, error: 'Too Many Requests' }, url);
  t.is(await redis.client().zCard(`${redis.prefix}rl:${CAPS.LIVE_SOCKETS_PER_CREDENTIAL.name}:token:${token.id}`), cap);
});

test('a Redis that is down refuses the handshake with 503 in the error format', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.close());
  const down = await secondNode(t, app, CLOSED_REDIS_URL);
  const owner = await signUp(app);
  const token = await createApiToken(app, owner, [await createCluster(app, owner)]);
  t.like(await refusal(down, token.token), { statusCode: 503, error: 'Service Unavailable' });
});
