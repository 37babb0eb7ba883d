import test from 'ava';
import { MemoryLimiter } from '../../api/rateLimit/memoryLimiter.ts';
import { BUCKETS, type Bucket } from '../../api/rateLimit/tiers.ts';

/** A whole second, so reset times are easy to read: START_S + seconds until full. */
const START_MS = 1_700_000_000_000;
const START_S = START_MS / 1000;

function clocked() {
  let now = START_MS;
  const limiter = new MemoryLimiter({ now: () => now });
  return { limiter, advance: (ms: number) => (now += ms) };
}

test('FREE: a burst of 10 passes, with the remaining count and reset time of each answer, then the 11th is refused', async (t) => {
  const { limiter } = clocked();
  for (let taken = 1; taken <= 10; taken += 1) {
    t.deepEqual(limiter.takeNow('alice', BUCKETS.FREE), {
      allowed: true,
      limit: 60,
      remaining: 10 - taken,
      // One token a second: full again `taken` seconds from now.
      resetAt: START_S + taken,
      retryAfterSeconds: 0,
    });
  }
  t.deepEqual(limiter.takeNow('alice', BUCKETS.FREE), { allowed: false, limit: 60, remaining: 0, resetAt: START_S + 10, retryAfterSeconds: 1 });
  await limiter.close();
});

test('one token comes back after 1/rate: refused at 999 ms, allowed at 1000 ms', async (t) => {
  const { limiter, advance } = clocked();
  for (let i = 0; i < 10; i += 1) limiter.takeNow('bob', BUCKETS.FREE);
  advance(999);
  t.like(limiter.takeNow('bob', BUCKETS.FREE), { allowed: false, remaining: 0, retryAfterSeconds: 1 });
  advance(1);
  t.deepEqual(limiter.takeNow('bob', BUCKETS.FREE), { allowed: true, limit: 60, remaining: 0, resetAt: START_S + 11, retryAfterSeconds: 0 });
  t.like(limiter.takeNow('bob', BUCKETS.FREE), { allowed: false, retryAfterSeconds: 1 });
  await limiter.close();
});

test('refused requests spend nothing', async (t) => {
  const { limiter, advance } = clocked();
  for (let i = 0; i < 10; i += 1) limiter.takeNow('carol', BUCKETS.FREE);
  for (let i = 0; i < 100; i += 1) {
    advance(9);
    t.false(limiter.takeNow('carol', BUCKETS.FREE).allowed);
  }
  advance(100);
  t.true(limiter.takeNow('carol', BUCKETS.FREE).allowed);
  await limiter.close();
});

test('refill is continuous and stops at the burst', async (t) => {
  const { limiter, advance } = clocked();
  for (let i = 0; i < 10; i += 1) limiter.takeNow('dave', BUCKETS.FREE);
  advance(5_500);
  // 5.5 tokens, one taken: 4.5 left, 4 whole; full again in 5.5 s.
  t.like(limiter.takeNow('dave', BUCKETS.FREE), { allowed: true, remaining: 4, resetAt: START_S + 11 });
  advance(3_600_000);
  t.like(limiter.takeNow('dave', BUCKETS.FREE), { allowed: true, remaining: 9 });
  await limiter.close();
});

test('fractional rates: SESSION (100/min, burst 20) refills a token every 600 ms', async (t) => {
  const { limiter, advance } = clocked();
  for (let i = 0; i < 20; i += 1) t.true(limiter.takeNow('session', BUCKETS.SESSION).allowed);
  t.like(limiter.takeNow('session', BUCKETS.SESSION), { allowed: false, limit: 100, retryAfterSeconds: 1, resetAt: START_S + 12 });
  advance(599);
  t.false(limiter.takeNow('session', BUCKETS.SESSION).allowed);
  advance(1);
  t.like(limiter.takeNow('session', BUCKETS.SESSION), { allowed: true, remaining: 0 });
  await limiter.close();
});

test('SIGN_IN (10/min): after the burst the next attempt is 6 s away', async (t) => {
  const { limiter } = clocked();
  for (let i = 0; i < 10; i += 1) t.true(limiter.takeNow('ip:10.0.0.1', BUCKETS.SIGN_IN).allowed);
  t.like(limiter.takeNow('ip:10.0.0.1', BUCKETS.SIGN_IN), { allowed: false, limit: 10, retryAfterSeconds: 6, resetAt: START_S + 60 });
  await limiter.close();
});

test('keys and buckets are independent', async (t) => {
  const { limiter } = clocked();
  for (let i = 0; i < 10; i += 1) limiter.takeNow('erin', BUCKETS.FREE);
  t.false(limiter.takeNow('erin', BUCKETS.FREE).allowed);
  t.like(limiter.takeNow('frank', BUCKETS.FREE), { allowed: true, remaining: 9 });
  t.like(limiter.takeNow('erin', BUCKETS.SIGN_IN), { allowed: true, remaining: 9 });
  await limiter.close();
});

test('a clock stepping backwards neither drains nor refills a bucket', async (t) => {
  const { limiter, advance } = clocked();
  limiter.takeNow('gina', BUCKETS.FREE);
  advance(-60_000);
  t.like(limiter.takeNow('gina', BUCKETS.FREE), { allowed: true, remaining: 8 });
  await limiter.close();
});

test('take answers the same decision in a promise', async (t) => {
  const { limiter } = clocked();
  const answer = limiter.take('hank', BUCKETS.PRO);
  t.true(answer instanceof Promise);
  t.deepEqual(await answer, { allowed: true, limit: 300, remaining: 49, resetAt: START_S + 1, retryAfterSeconds: 0 });
  await limiter.close();
});

test('the sweep drops exactly the buckets that are full again, so distinct keys cannot pile up', async (t) => {
  const { limiter, advance } = clocked();
  for (let i = 0; i < 1_000; i += 1) limiter.takeNow(`flood-${i}`, BUCKETS.FREE);
  for (let i = 0; i < 10; i += 1) limiter.takeNow('busy', BUCKETS.FREE);
  t.is(limiter.size, 1_001);
  advance(999);
  t.is(limiter.sweep(), 0);
  advance(1);
  // One token short for a second: the flood's buckets are full again; `busy` needs 10 s.
  t.is(limiter.sweep(), 1_000);
  t.is(limiter.size, 1);
  advance(9_000);
  t.is(limiter.sweep(), 1);
  t.is(limiter.size, 0);
  // A dropped bucket answers as a full one.
  t.like(limiter.takeNow('busy', BUCKETS.FREE), { allowed: true, remaining: 9 });
  await limiter.close();
});

test('the sweep also runs on its own timer, and close() stops it', async (t) => {
  const fast: Bucket = { name: 'FAST', perMinute: 600_000, burst: 1 };
  const limiter = new MemoryLimiter({ sweepIntervalMs: 10 });
  for (let i = 0; i < 100; i += 1) limiter.takeNow(`k${i}`, fast);
  t.is(limiter.size, 100);
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.is(limiter.size, 0);
  await limiter.close();
  limiter.takeNow('after-close', fast);
  await new Promise((resolve) => setTimeout(resolve, 40));
  t.is(limiter.size, 1);
});

test('caps: a holder is counted in every slot or none; holding again is allowed; a release frees the place', async (t) => {
  const { limiter } = clocked();
  t.teardown(() => limiter.close());
  const pair = { name: 'PAIR', max: 2 };
  const x = { key: 'x', cap: pair, what: 'holders' };
  const y = { key: 'y', cap: pair, what: 'holders' };
  t.is(await limiter.hold('h1', [x, y]), null);
  t.is(await limiter.hold('h2', [x]), null);
  t.is(await limiter.hold('h1', [x, y]), null);
  t.is(await limiter.hold('h3', [y, x]), x);
  t.is(limiter.held(x), 2);
  t.is(limiter.held(y), 1, 'the refused holder is not counted in the slot that had room');
  limiter.release('h1', [x, y]);
  limiter.release('h1', [x, y]);
  t.is(limiter.held(x), 1);
  t.is(limiter.held(y), 0);
  t.is(await limiter.hold('h3', [y, x]), null);
});

test('peek answers whether a token is left and spends none; tokens refill for it as for take', async (t) => {
  const { limiter, advance } = clocked();
  const bucket: Bucket = { name: 'PEEK', perMinute: 60, burst: 1 };
  t.like(await limiter.peek('p', bucket), { allowed: true, remaining: 1 });
  t.like(limiter.takeNow('p', bucket), { allowed: true, remaining: 0 });
  t.like(await limiter.peek('p', bucket), { allowed: false, retryAfterSeconds: 1 });
  advance(1_000);
  t.like(await limiter.peek('p', bucket), { allowed: true });
  t.like(await limiter.peek('p', bucket), { allowed: true }, 'a peek spent nothing');
});
