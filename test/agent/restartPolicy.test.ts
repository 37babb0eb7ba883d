import test from 'ava';
import { RestartPolicy } from '../../agent/runtime/restartPolicy.ts';

/** A clock the test moves by hand, so 10-minute windows take no time. */
const fakeClock = () => {
  let now = 1_700_000_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

const delays = (policy: RestartPolicy, count: number, between: () => void) =>
  Array.from({ length: count }, () => {
    between();
    const decision = policy.recordCrash();
    return decision.restart ? decision.delayMs : decision.reason;
  });

test('delays double from 1 s and are capped at 5 minutes', (t) => {
  const clock = fakeClock();
  // Crashes 11 minutes apart never fill the 10-minute window, so only the back-off shows.
  const policy = new RestartPolicy({ now: clock.now, stableAfterMs: Number.POSITIVE_INFINITY });
  t.deepEqual(
    delays(policy, 12, () => clock.advance(11 * 60_000)),
    [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000, 300_000],
  );
});

test('5 crashes within 10 minutes stop the loop, with a reason, until reset()', (t) => {
  const clock = fakeClock();
  const policy = new RestartPolicy({ now: clock.now });
  const answers = delays(policy, 5, () => clock.advance(30_000));
  t.deepEqual(answers.slice(0, 4), [1_000, 2_000, 4_000, 8_000]);
  t.regex(String(answers[4]), /crashed 5 times within 10 minutes; automatic restarts stopped/);
  t.truthy(policy.stoppedReason);

  clock.advance(60 * 60_000);
  t.false(policy.recordCrash().restart, 'stays stopped even when the window has passed');

  policy.reset();
  t.is(policy.stoppedReason, undefined);
  t.deepEqual(policy.recordCrash(), { restart: true, delayMs: 1_000 });
});

test('crashes older than the window no longer count towards the stop', (t) => {
  const clock = fakeClock();
  const policy = new RestartPolicy({ now: clock.now });
  // Four crashes, then a pause past the window: the fifth is only the first in the window.
  delays(policy, 4, () => clock.advance(1_000));
  clock.advance(10 * 60_000);
  const fifth = policy.recordCrash();
  t.true(fifth.restart);
  t.deepEqual(fifth, { restart: true, delayMs: 16_000 }, 'the back-off itself still grows without a stable run');
});

test('the window is exactly windowMs: the fifth crash 1 ms inside it stops the loop', (t) => {
  const clock = fakeClock();
  const policy = new RestartPolicy({ now: clock.now });
  policy.recordCrash();
  delays(policy, 3, () => clock.advance(1_000));
  clock.advance(10 * 60_000 - 3_000 - 1);
  t.false(policy.recordCrash().restart);
});

test('a stable run resets the back-off and forgets old crashes', (t) => {
  const clock = fakeClock();
  const policy = new RestartPolicy({ now: clock.now });
  t.deepEqual(
    delays(policy, 3, () => clock.advance(5_000)),
    [1_000, 2_000, 4_000],
  );
  policy.recordStableRun();
  t.deepEqual(
    delays(policy, 4, () => clock.advance(5_000)),
    [1_000, 2_000, 4_000, 8_000],
    'four more fit again',
  );
});

test('recordCrash(runMs) treats a run of stableAfterMs or more as stable before counting the crash', (t) => {
  const clock = fakeClock();
  const policy = new RestartPolicy({ now: clock.now, stableAfterMs: 60_000 });
  t.deepEqual(
    delays(policy, 3, () => clock.advance(5_000)),
    [1_000, 2_000, 4_000],
  );
  t.deepEqual(policy.recordCrash(59_999), { restart: true, delayMs: 8_000 }, 'just short of stable');
  t.deepEqual(policy.recordCrash(60_000), { restart: true, delayMs: 1_000 });
  t.is(policy.stableAfterMs, 60_000);
});

test('options change the base, cap and crash limit', (t) => {
  const clock = fakeClock();
  const policy = new RestartPolicy({ baseMs: 100, maxMs: 500, maxCrashes: 10, windowMs: 1_000, now: clock.now });
  t.deepEqual(
    delays(policy, 6, () => clock.advance(10)),
    [100, 200, 400, 500, 500, 500],
  );
  const reason = delays(policy, 4, () => clock.advance(10))[3];
  t.regex(String(reason), /crashed 10 times within 1 second;/);
});

test('giveUp() (an earlier agent gave up) stops the loop with that reason until reset()', (t) => {
  const policy = new RestartPolicy();
  policy.giveUp('crashed 5 times within 10 minutes');
  t.deepEqual(policy.recordCrash(), { restart: false, reason: 'crashed 5 times within 10 minutes' });
  policy.reset();
  t.deepEqual(policy.recordCrash(), { restart: true, delayMs: 1_000 });
});
