/**
 * The event loop's delay gauges (`nodejs_eventloop_lag_*_seconds`): sampled every 100 ms (not prom-client's 10 ms,
 * whose timer woke every process a hundred times a second at rest), and given less the sampling interval, so an idle
 * process reads about 0 and a blocked loop reads how long it was blocked.
 */
import test from 'ava';
import { createHttpMetrics } from '../../api/http/prometheusRequests.ts';

const gauge = (exposition: string, name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(exposition)?.[1] ?? Number.NaN);
const delay = (ms: number) => new Promise((done) => setTimeout(done, ms));

test.serial('at rest the delay reads near 0; a loop blocked for 300 ms reads about 300 ms at its maximum', async (t) => {
  const metrics = createHttpMetrics();
  await metrics.registry.metrics(); // starts a fresh interval
  await delay(1_200);
  const idle = await metrics.registry.metrics();
  t.true(gauge(idle, 'nodejs_eventloop_lag_p50_seconds') < 0.03, idle.match(/^nodejs_eventloop_lag_p50_seconds .*$/m)?.[0]);
  t.true(gauge(idle, 'nodejs_eventloop_lag_min_seconds') >= 0);

  await delay(250); // Node's histogram does not count the interval a reset falls in
  const blockedUntil = Date.now() + 300;
  while (Date.now() < blockedUntil); // the loop blocked
  await delay(250);
  const blocked = await metrics.registry.metrics();
  const max = gauge(blocked, 'nodejs_eventloop_lag_max_seconds');
  t.true(max > 0.15 && max < 0.45, `max ${max}`);
  // Each gauge once, with prom-client's names and help.
  for (const suffix of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'])
    t.is(blocked.match(new RegExp(`^# HELP nodejs_eventloop_lag_${suffix}_seconds `, 'gm'))?.length, 1, suffix);
  t.regex(blocked, /^nodejs_eventloop_lag_seconds /m);
});
