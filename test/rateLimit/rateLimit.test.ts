import test from 'ava';
import { startHttpServer, type HttpServer } from '../../api/server.ts';
import type { RateLimiter } from '../../api/rateLimit/limiter.ts';
import { MemoryLimiter } from '../../api/rateLimit/memoryLimiter.ts';
import { createRedisLimiter } from '../../api/rateLimit/redisLimiter.ts';
import { body as read } from '../support/app.ts';
import { captureLogs } from '../support/logs.ts';
import { createRateLimitApp } from '../support/rateLimitApp.ts';
import { CLOSED_REDIS_URL } from '../support/redis.ts';

const START_MS = 1_700_000_000_000;
const START_S = START_MS / 1000;

type Served = { request: (path: string, client?: string) => Promise<Response>; logs: () => Record<string, unknown>[] };

const servers: { server: HttpServer; limiter: RateLimiter }[] = [];
test.after.always(async () => {
  for (const { server, limiter } of servers) {
    await server.close(1_000);
    await limiter.close();
  }
});

async function serve(limiter: RateLimiter): Promise<Served> {
  const { logger, lines } = captureLogs();
  const server = await startHttpServer({ koa: createRateLimitApp(limiter, logger) }, { port: 0, host: '127.0.0.1' });
  servers.push({ server, limiter });
  return {
    request: (path, client) => fetch(`http://127.0.0.1:${server.port}${path}`, { headers: client ? { 'X-Client': client } : {} }),
    logs: lines,
  };
}

/** The time stands still, so every header is exact. */
const app = serve(new MemoryLimiter({ now: () => START_MS }));

const rateHeaders = (response: Response) => ({
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
  reset: response.headers.get('x-ratelimit-reset'),
});

test('a 200 answer carries the limit, the remaining requests and the reset time', async (t) => {
  const response = await (await app).request('/ok', 'ok-client');
  t.is(response.status, 200);
  t.deepEqual(rateHeaders(response), { limit: '60', remaining: '9', reset: String(START_S + 1) });
  t.is(response.headers.get('retry-after'), null);
});

test('past the burst: 429 with Retry-After, the rate headers and the error body', async (t) => {
  const { request } = await app;
  for (let i = 0; i < 10; i += 1) t.is((await request('/ok', 'greedy')).status, 200);
  const response = await request('/ok', 'greedy');
  t.is(response.status, 429);
  t.is(response.headers.get('retry-after'), '1');
  t.deepEqual(rateHeaders(response), { limit: '60', remaining: '0', reset: String(START_S + 10) });
  t.deepEqual(await read(response), {
    statusCode: 429,
    message: 'Rate limit exceeded: 60 requests per minute; retry in 1 s',
    error: 'Too Many Requests',
    retryAfter: 1,
  });
});

test('error answers from further down keep the rate headers: 404 from an unanswered path, a thrown 409', async (t) => {
  const { request } = await app;
  const missing = await request('/nothing-here', 'errors');
  t.is(missing.status, 404);
  t.like(await read(missing), { statusCode: 404, error: 'Not Found' });
  t.deepEqual(rateHeaders(missing), { limit: '60', remaining: '9', reset: String(START_S + 1) });
  const conflict = await request('/conflict', 'errors');
  t.is(conflict.status, 409);
  t.deepEqual(await read(conflict), { statusCode: 409, message: 'Already there', error: 'Conflict' });
  t.deepEqual(rateHeaders(conflict), { limit: '60', remaining: '8', reset: String(START_S + 2) });
});

test('a request the resolver does not limit carries no rate headers', async (t) => {
  const response = await (await app).request('/ok');
  t.is(response.status, 200);
  t.deepEqual(rateHeaders(response), { limit: null, remaining: null, reset: null });
});

test('Redis configured but down: 503 in the error format, never an unlimited pass', async (t) => {
  const { request, logs } = await serve(await createRedisLimiter({ url: CLOSED_REDIS_URL, logger: captureLogs().logger }));
  for (const path of ['/ok', '/nothing-here']) {
    const response = await request(path, 'anyone');
    t.is(response.status, 503);
    t.deepEqual(await read(response), { statusCode: 503, message: 'Service Unavailable', error: 'Service Unavailable' });
    t.is(response.headers.get('x-ratelimit-limit'), null);
  }
  // The reason is in the log, not in the answer.
  const line = logs().find((entry) => entry.msg === 'request error');
  t.like(line, { status: 503, err: { type: 'RateLimiterUnavailableError' } });
});
