/**
 * Real Redis for tests: TEST_REDIS_URL, by default the local server. Every test file uses its own random key prefix
 * (test files run concurrently against the one server) and deletes its keys when it is done.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The test Redis's address, for a TCP proxy in front of it (test/support/tcpProxy.ts: a Redis that stalls or goes). */
export const REDIS_ADDRESS = { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) };

/** A port nothing listens on: a Redis that is configured but down. */
export const CLOSED_REDIS_URL = 'redis://127.0.0.1:1';

type Hooks = { before: (fn: () => Promise<void>) => void; after: { always: (fn: () => Promise<void>) => void } };

export type TestRedis = { prefix: string; client: () => RedisClientType };

/** A key prefix for this test file and a client to inspect the keys; the prefix's keys are deleted afterwards. */
export function useTestRedis(test: Hooks): TestRedis {
  const prefix = `gsm:test:${randomBytes(6).toString('hex')}:`;
  let client: RedisClientType | undefined;
  test.before(async () => {
    client = createClient({ url: REDIS_URL });
    client.on('error', () => undefined);
    await client.connect();
  });
  test.after.always(async () => {
    if (!client) return;
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  });
  return { prefix, client: () => client! };
}

/** Redis's clock in epoch milliseconds: the clock the Redis limiter uses. */
export async function redisNowMs(client: RedisClientType): Promise<number> {
  const [seconds, microseconds] = await client.time();
  return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
}
