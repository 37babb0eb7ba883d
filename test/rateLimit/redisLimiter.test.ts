import test from 'ava';
import { RateLimiterUnavailableError } from '../../api/rateLimit/limiter.ts';
import { createClient } from 'redis';
import { COMMAND_TIMEOUT_MS, createRedisLimiter, RedisLimiter } from '../../api/rateLimit/redisLimiter.ts';
import { BUCKETS, type Bucket, type Cap } from '../../api/rateLimit/tiers.ts';
import type { Slot } from '../../api/rateLimit/limiter.ts';
import { captureLogs } from '../support/logs.ts';
import { CLOSED_REDIS_URL, REDIS_ADDRESS, REDIS_URL, redisNowMs, useTestRedis } from '../support/redis.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';

const redis = useTestRedis(test);

/** Full again 100 ms after one request: expiry takes a fraction of a second of real time. */
const TINY: Bucket = { name: 'TINY', perMinute: 600, burst: 1 };

/**
 * These tests are about the algorithm, not the deadline (the last tests are): a generous deadline keeps them
 * independent of how loaded the machine is.
 */
const RELAXED_TIMEOUT_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let limiter: RedisLimiter;
test.before(async () => {
  limiter = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS });
});
test.after.always(async () => {
  await limiter?.close();
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) return false;
    await sleep(20);
  }
  return true;
}

test('FREE: a burst of 10 passes, with the remaining count and reset time of each answer, then the 11th is refused', async (t) => {
  const startS = (await redisNowMs(redis.client())) / 1000;
  for (let taken = 1; taken <= 10; taken += 1) {
    const decision = await limiter.take('burst', BUCKETS.FREE);
    t.like(decision, { allowed: true, limit: 60, remaining: 10 - taken, retryAfterSeconds: 0 });
    // One token a second: full again `taken` seconds from now (Redis's now, rounded up to a second).
    t.true(decision.resetAt >= Math.ceil(startS + taken) && decision.resetAt <= Math.ceil(startS + taken) + 1, `resetAt ${decision.resetAt}`);
  }
  const refused = await limiter.take('burst', BUCKETS.FREE);
  t.like(refused, { allowed: false, limit: 60, remaining: 0, retryAfterSeconds: 1 });
  t.true(refused.resetAt >= Math.ceil(startS + 10) && refused.resetAt <= Math.ceil(startS + 10) + 1);
});

test('a token comes back after 1/rate of real time', async (t) => {
  for (let i = 0; i < 10; i += 1) await limiter.take('refill', BUCKETS.FREE);
  t.like(await limiter.take('refill', BUCKETS.FREE), { allowed: false, retryAfterSeconds: 1 });
  await sleep(1_000);
  t.like(await limiter.take('refill', BUCKETS.FREE), { allowed: true, remaining: 0 });
  t.like(await limiter.take('refill', BUCKETS.FREE), { allowed: false });
});

const DRIFT_MS = 25;

test('each bucket is a prefixed hash that expires exactly when it would be full again', async (t) => {
  const key = `${redis.prefix}FREE:ttl`;
  /**
   * Expiry and state read in one transaction, against Redis's clock, so the test's own delays do not count. Redis's
   * clock still moves between TIME and PEXPIRE inside the script, and between TIME and PTTL here (a few ms on a loaded
   * machine: 4 ms was seen), so a small tolerance remains; a wrong expiry is off by hundreds of ms (one token's time).
   */
  const inspect = async () => {
    const [time, pttl, state] = (await redis.client().multi().time().pTTL(key).hGetAll(key).exec()) as unknown as [
      [string, string],
      number,
      Record<string, string>,
    ];
    const expiresAt = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000) + pttl;
    // Full again after (burst - tokens) tokens at one a second.
    const fullAt = Number(state.at) + Math.ceil((10 - Number(state.tokens)) * 1000);
    return { tokens: Number(state.tokens), drift: Math.abs(expiresAt - fullAt) };
  };
  await limiter.take('ttl', BUCKETS.FREE);
  const one = await inspect();
  t.is(one.tokens, 9);
  t.true(one.drift <= DRIFT_MS, `expiry off by ${one.drift} ms`);
  for (let i = 0; i < 9; i += 1) await limiter.take('ttl', BUCKETS.FREE);
  const empty = await inspect();
  t.true(empty.tokens < 1);
  t.true(empty.drift <= DRIFT_MS, `expiry off by ${empty.drift} ms`);
});

test('an idle bucket disappears from Redis once it is full again', async (t) => {
  await limiter.take('idle', TINY);
  await sleep(300);
  t.is(await redis.client().exists(`${redis.prefix}TINY:idle`), 0);
});

test('two limiters (two connections) spend from one budget', async (t) => {
  const other = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS });
  t.teardown(() => other.close());
  const answers = [];
  for (let i = 0; i < 12; i += 1) answers.push(await (i % 2 === 0 ? limiter : other).take('shared', BUCKETS.FREE));
  t.deepEqual(
    answers.map((answer) => answer.allowed),
    [...Array(10).fill(true), false, false],
  );
  t.deepEqual(
    answers.slice(0, 10).map((answer) => answer.remaining),
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
  );
});

test('a script cache flushed by Redis is reloaded on the fly (NOSCRIPT falls back to EVAL)', async (t) => {
  await limiter.take('noscript', BUCKETS.FREE);
  // Global to the server, but harmless: every other limiter recovers the same way.
  await redis.client().scriptFlush();
  t.like(await limiter.take('noscript', BUCKETS.FREE), { allowed: true, remaining: 8 });
});

test('a Redis that is down from the start: the limiter is still created, and take fails closed at once', async (t) => {
  const { logger, lines } = captureLogs();
  const down = await createRedisLimiter({ url: CLOSED_REDIS_URL, prefix: redis.prefix, logger });
  t.teardown(() => down.close());
  t.false(down.isReady);
  const started = performance.now();
  const error = await t.throwsAsync(down.take('anyone', BUCKETS.FREE), { instanceOf: RateLimiterUnavailableError });
  // Well before the command deadline: refused at once, not queued until a reconnect.
  t.true(performance.now() - started < COMMAND_TIMEOUT_MS / 2, 'refused without waiting');
  t.truthy(error?.cause);
  t.true(lines().some((line) => /unreachable/.test(String(line.msg))));
});

test('a Redis that stops answering mid-way, goes away and comes back: refused while it is gone, limiting again after', async (t) => {
  const proxy = await startTcpProxy(REDIS_ADDRESS);
  t.teardown(() => proxy.close());
  const { logger, lines } = captureLogs();
  const TIMEOUT_MS = 500; // also the deadline of the healthy takes through the proxy: room for a loaded machine
  const flaky = await createRedisLimiter({ url: `redis://127.0.0.1:${proxy.port}`, prefix: redis.prefix, logger, timeoutMs: TIMEOUT_MS });
  t.teardown(() => flaky.close());
  t.like(await flaky.take('flaky', BUCKETS.FREE), { allowed: true, remaining: 9 });

  // Connected, but nothing comes back: the request waits for the deadline, then is refused.
  proxy.hang();
  const started = performance.now();
  await t.throwsAsync(flaky.take('flaky', BUCKETS.FREE), { instanceOf: RateLimiterUnavailableError, message: /did not answer/ });
  const waited = performance.now() - started;
  t.true(waited >= TIMEOUT_MS - 5 && waited < TIMEOUT_MS + 1_000, `waited ${waited} ms`);

  // Gone: refused at once while the client reconnects in the background.
  await proxy.down();
  t.true(await waitUntil(() => !flaky.isReady, 5_000));
  await t.throwsAsync(flaky.take('flaky', BUCKETS.FREE), { instanceOf: RateLimiterUnavailableError });
  t.true(lines().some((line) => line.level === 50 && /unreachable/.test(String(line.msg))));

  await proxy.up();
  t.true(await waitUntil(() => flaky.isReady, 5_000), 'reconnected');
  const again = await flaky.take('flaky', BUCKETS.FREE);
  t.true(again.allowed);
  t.true(lines().some((line) => /reachable again/.test(String(line.msg))));
});

test('takes refused while Redis was stalled spend nothing when it answers again (the script checks the deadline)', async (t) => {
  const proxy = await startTcpProxy(REDIS_ADDRESS);
  t.teardown(() => proxy.close());
  const TIMEOUT_MS = 500;
  const stalled = await createRedisLimiter({ url: `redis://127.0.0.1:${proxy.port}`, prefix: redis.prefix, timeoutMs: TIMEOUT_MS });
  t.teardown(() => stalled.close());
  const SLOW: Bucket = { name: 'SLOW', perMinute: 0.001, burst: 100 };
  // No take before the stall: Redis's clock is learnt when the connection is ready.
  await sleep(300);
  proxy.hang();
  // Sent while Redis does not answer: every one refused at the deadline, as 503s.
  const refused = await Promise.allSettled(
    Array.from({ length: 40 }, (_, index) => (index % 2 ? stalled.take('ghost', SLOW) : stalled.takeAll([{ key: 'ghost', bucket: SLOW }]))),
  );
  t.true(refused.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof RateLimiterUnavailableError));
  // Redis reads them now, past their deadline: they must not spend the budget of requests already refused.
  proxy.resume();
  await sleep(300);
  const healthy = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS });
  t.teardown(() => healthy.close());
  t.like(await healthy.peek('ghost', SLOW), { allowed: true, remaining: 100 });
  // And the stalled limiter goes on taking.
  t.like(await stalled.take('ghost', SLOW), { allowed: true, remaining: 99 });
});

// Serial: it blocks the event loop, which the other tests of this file would feel.
test.serial('an answer read late (the event loop blocked) neither refuses it nor makes the next takes expire', async (t) => {
  const limiter = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: 500 });
  t.teardown(() => limiter.close());
  const LATE: Bucket = { name: 'LATE', perMinute: 60, burst: 50 };
  t.like(await limiter.take('late', LATE), { allowed: true });
  const taking = limiter.take('late', LATE);
  const blockedUntil = Date.now() + 900; // past the deadline: the answer waits unread
  while (Date.now() < blockedUntil);
  t.like(await taking, { allowed: true }, 'an answer that arrived in time is read, not refused');
  for (let round = 0; round < 3; round++) t.like(await limiter.take('late', LATE), { allowed: true }, `take ${round + 1} after the block`);
});

test('after close, take is refused rather than allowed', async (t) => {
  const closing = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix });
  await closing.close();
  await t.throwsAsync(closing.take('closed', BUCKETS.FREE), { instanceOf: RateLimiterUnavailableError });
});

const PAIR: Cap = { name: 'PAIR', max: 2 };
const slot = (key: string): Slot => ({ key, cap: PAIR, what: 'holders' });
const holders = (key: string) => redis.client().zRange(`${redis.prefix}PAIR:${key}`, 0, -1);

test('caps: two limiters (two nodes) count holders against one cap, all or none; a release frees a place', async (t) => {
  const other = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS });
  t.teardown(() => other.close());
  t.is(await limiter.hold('h1', [slot('x'), slot('y')]), null);
  t.is(await other.hold('h2', [slot('x')]), null);
  t.is(await limiter.hold('h1', [slot('x'), slot('y')]), null, 'holding again what is held is allowed');
  // y has room, x does not: h3 is counted in neither.
  t.deepEqual(await other.hold('h3', [slot('y'), slot('x')]), slot('x'));
  t.deepEqual((await holders('x')).sort(), ['h1', 'h2']);
  t.deepEqual(await holders('y'), ['h1']);

  limiter.release('h1', [slot('x'), slot('y')]);
  let held: Slot | null = slot('x');
  for (let attempt = 0; attempt < 50 && held; attempt += 1) {
    held = await other.hold('h3', [slot('y'), slot('x')]);
    if (held) await sleep(20);
  }
  t.is(held, null, 'the released place is taken');
  t.deepEqual((await holders('x')).sort(), ['h2', 'h3']);
});

test('caps: the holders of a node that ended without releasing drop out after their lease; a live node renews its own', async (t) => {
  const LEASE_MS = 1_000;
  const dead = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS, leaseMs: LEASE_MS });
  const alive = await createRedisLimiter({ url: REDIS_URL, prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS, leaseMs: LEASE_MS });
  t.teardown(() => alive.close());
  t.is(await dead.hold('gone', [slot('lease')]), null);
  t.is(await alive.hold('here', [slot('lease')]), null);
  await dead.close(); // no release: as if the process had died
  const until = Date.now() + 10_000;
  let held: Slot | null = slot('lease');
  while (held && Date.now() < until) {
    await sleep(50);
    held = await limiter.hold('next', [slot('lease')]);
  }
  t.is(held, null, 'the holder of the dead node no longer counts');
  // Several leases later, the live node's holder is still counted: its renewals keep it.
  await sleep(LEASE_MS * 3);
  t.true((await holders('lease')).includes('here'));
});

test('caps: a Redis that is down refuses to hold (fails closed)', async (t) => {
  const down = await createRedisLimiter({ url: CLOSED_REDIS_URL, prefix: redis.prefix });
  t.teardown(() => down.close());
  await t.throwsAsync(down.hold('anyone', [slot('down')]), { instanceOf: RateLimiterUnavailableError });
});

test('peek answers whether a token is left and spends none', async (t) => {
  // One token a minute: none comes back between these calls, however slow the machine.
  const ONE: Bucket = { name: 'ONE', perMinute: 1, burst: 1 };
  t.like(await limiter.peek('peeked', ONE), { allowed: true, remaining: 1 });
  t.like(await limiter.peek('peeked', ONE), { allowed: true, remaining: 1 }, 'a peek spent nothing');
  t.like(await limiter.take('peeked', ONE), { allowed: true, remaining: 0 });
  t.like(await limiter.peek('peeked', ONE), { allowed: false, remaining: 0 });
});

test('takeAll spends several buckets in one round trip, in order, and stops at the first that refuses', async (t) => {
  const WIDE: Bucket = { name: 'WIDE', perMinute: 60, burst: 5 };
  const NARROW: Bucket = { name: 'NARROW', perMinute: 1, burst: 1 };
  const targets = [
    { key: 'all-a', bucket: WIDE },
    { key: 'all-b', bucket: NARROW },
    { key: 'all-c', bucket: NARROW },
  ];
  const first = await limiter.takeAll(targets);
  t.deepEqual(
    first.map((decision) => [decision.allowed, decision.remaining]),
    [
      [true, 4],
      [true, 0],
      [true, 0],
    ],
  );
  // all-b is empty now: all-a is spent, all-b refuses, all-c is not looked at.
  const second = await limiter.takeAll([targets[0]!, targets[1]!, { key: 'all-d', bucket: NARROW }]);
  t.deepEqual(
    second.map((decision) => [decision.allowed, decision.remaining]),
    [
      [true, 3],
      [false, 0],
    ],
  );
  t.true(second[1]!.retryAfterSeconds > 0);
  t.like(await limiter.take('all-d', NARROW), { allowed: true, remaining: 0 });
  t.like(await limiter.take('all-a', WIDE), { allowed: true, remaining: 2 });
});

test('takes asked for in one turn go to Redis in one script call, each answered on its own and in order', async (t) => {
  // A real client whose script calls are counted.
  const client = createClient({ url: REDIS_URL });
  let calls = 0;
  // The limiter sends each call through a view of the client carrying the call's abort signal.
  const withAbortSignal = client.withAbortSignal.bind(client);
  (client as { withAbortSignal: unknown }).withAbortSignal = (signal: AbortSignal) => {
    const view = withAbortSignal(signal);
    const evalSha = view.evalSha.bind(view);
    (view as { evalSha: unknown }).evalSha = (...args: Parameters<typeof evalSha>) => (calls++, evalSha(...args));
    return view;
  };
  const batching = new RedisLimiter(client as never, { prefix: redis.prefix, timeoutMs: RELAXED_TIMEOUT_MS });
  t.teardown(() => batching.close());
  await client.connect();
  await client.scriptLoad('return 1'); // connected and ready
  const WIDE: Bucket = { name: 'WIDE', perMinute: 60, burst: 5 };
  const NARROW: Bucket = { name: 'NARROW', perMinute: 1, burst: 1 };
  calls = 0;
  const [burst, peeked, both, narrowAgain] = await Promise.all([
    Promise.all(Array.from({ length: 12 }, () => batching.take('batch-burst', BUCKETS.FREE))),
    batching.peek('batch-burst', BUCKETS.FREE),
    batching.takeAll([
      { key: 'batch-a', bucket: WIDE },
      { key: 'batch-b', bucket: NARROW },
    ]),
    batching.takeAll([
      { key: 'batch-a', bucket: WIDE },
      { key: 'batch-b', bucket: NARROW },
      { key: 'batch-c', bucket: NARROW },
    ]),
  ]);
  t.is(calls, 1, 'one script call for 15 takes');
  // The same key's takes spend in the order they were asked.
  t.deepEqual(
    burst.map((decision) => [decision.allowed, decision.remaining]),
    [...Array.from({ length: 10 }, (_, i) => [true, 9 - i]), [false, 0], [false, 0]],
  );
  t.like(peeked, { allowed: false, remaining: 0 });
  t.deepEqual(
    both.map((decision) => [decision.allowed, decision.remaining]),
    [
      [true, 4],
      [true, 0],
    ],
  );
  // batch-b is empty after the take before it: batch-a spent, batch-b refuses, batch-c not looked at.
  t.deepEqual(
    narrowAgain.map((decision) => [decision.allowed, decision.remaining]),
    [
      [true, 3],
      [false, 0],
    ],
  );
  t.like(await batching.take('batch-c', NARROW), { allowed: true, remaining: 0 });
});
