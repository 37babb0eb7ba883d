/**
 * A real app for tests: its own migrated database, the real middleware stack and a real HTTP server on port 0.
 */
import type { ExecutionContext } from 'ava';
import type { Server } from 'node:http';
import { createApp, type App } from '../../api/app.ts';
import type { AppDeps } from '../../api/context.ts';
import { startHttpServer } from '../../api/server.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { createAppDeps } from '../../api/deps.ts';
import { tuneGarbageCollector } from '../../schema/garbageCollection.ts';
import { attachLiveNamespace } from '../../api/live/namespace.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { loadConfig, type Config } from '../../schema/config.ts';
import { VERSION } from '../../api/service.ts';
import { captureLogs } from './logs.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export type TestApp = App & {
  deps: AppDeps;
  /** The Node HTTP server (the gateway attaches to it). */
  httpServer: Server;
  url: string;
  config: Config;
  pool: DatabasePool;
  database: TestDatabase;
  /** The session key: a second node (`startTestApp(env, { node: app })`) shares it, as nodes of one installation do. */
  pasetoKey: string;
  logs: () => Record<string, unknown>[];
  /** fetch against the app, relative path. */
  request: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
};

/**
 * `node`: start another API process of the same installation (its database and session key; closing the second one
 * leaves the database to the first).
 */
export async function startTestApp(env: Record<string, string> = {}, options: { node?: TestApp } = {}): Promise<TestApp> {
  const database = options.node ? { ...options.node.database, drop: async () => undefined } : await createTestDatabase();
  tuneGarbageCollector(); // as main.ts's startService does: tests and benches run the service as production does
  const pasetoKey = options.node?.pasetoKey ?? generatePasetoKey();
  // Rate limits are off unless a test turns them on: most tests make many requests as few users from one address.
  const config = loadConfig({ DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'debug', RATE_LIMIT: 'off', ...env });
  const pool = await createDatabasePool(database.url, { maxPoolSize: 5 });
  const { logger, lines } = captureLogs();
  const deps = await createAppDeps({
    config,
    logger,
    pool,
    databaseUrl: database.url,
    secrets: { pasetoKey },
    version: VERSION,
    defaultMetrics: false,
  });
  const app = createApp(deps);
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${server.port}`;
  const live = attachLiveNamespace(server.server, deps);
  return {
    ...app,
    deps,
    httpServer: server.server,
    url,
    config,
    pool,
    database,
    pasetoKey,
    logs: lines,
    request: (path, init) => fetch(`${url}${path}`, init),
    close: async () => {
      live.close();
      await server.close(1_000);
      await deps.close();
      await pool.end();
      await database.drop();
    },
  };
}

type Hooks = { before: (fn: (t: ExecutionContext) => Promise<void>) => void; after: { always: (fn: () => Promise<void>) => void } };

/**
 * Starts an app for the test file and closes it when the file's tests are done. `setup` runs once the app is up
 * (ava runs `before` hooks concurrently, so work that needs the app goes here).
 */
export function useTestApp(test: Hooks, options: { env?: Record<string, string>; setup?: (app: TestApp) => void | Promise<void> } = {}) {
  let app: TestApp | undefined;
  test.before(async () => {
    app = await startTestApp(options.env);
    await options.setup?.(app);
  });
  test.after.always(async () => {
    await app?.close();
  });
  return () => app!;
}

export const json = (body: unknown, init: RequestInit = {}): RequestInit => ({
  method: 'POST',
  ...init,
  headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  body: JSON.stringify(body),
});

/** The parsed JSON body of an answer, untyped: tests assert on its shape. */
export const body = async (response: Response): Promise<any> => response.json();

/**
 * `fetch` that waits out a 429 (for its `Retry-After`) and asks again: for tests against processes whose rate limit is
 * on, where polling would otherwise spend the token bucket and turn the next assertion into a 429.
 */
export async function fetchWithinLimit(url: string, init?: RequestInit): Promise<Response> {
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    await response.body?.cancel();
    const seconds = Number(response.headers.get('retry-after')) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
  }
}
