/**
 * Live events when the Redis of REDIS_URL is down: the service starts, console lines still reach this process's
 * viewers, the recent console answers 503 (not 500), and nothing ends the process.
 */
import test from 'ava';
import { createLive } from '../../orchestrator/live/live.ts';
import { captureLogs } from '../support/logs.ts';
import { CLOSED_REDIS_URL } from '../support/redis.ts';
import { AppError } from '../../schema/errors.ts';
import type { LiveEvent } from '../../orchestrator/live/relay.ts';

test('with Redis down, publishing reaches local listeners, history appends are skipped and reads are a clear 503', async (t) => {
  const { logger } = captureLogs();
  const live = await createLive({ redisUrl: CLOSED_REDIS_URL, redisPrefix: 'gsm:test:down:', logger });
  t.teardown(() => live.close());
  const received: LiveEvent[] = [];
  live.relay.subscribe(
    (event) => received.push(event),
    () => true,
  );
  const event: LiveEvent & { type: 'server.console' } = {
    type: 'server.console',
    clusterId: '00000000-0000-4000-8000-000000000001',
    at: new Date().toISOString(),
    data: { serverId: '00000000-0000-4000-8000-000000000002', lines: [{ at: new Date().toISOString(), line: 'hello' }], seq: 1 },
  };
  t.notThrows(() => live.relay.publish(event));
  t.deepEqual(received, [event]);
  t.notThrows(() => live.history.append(event.data));
  const error = await t.throwsAsync(live.history.recent(event.data.serverId, 10));
  t.true(error instanceof AppError);
  t.is((error as AppError).status, 503);
  await new Promise((done) => setTimeout(done, 200)); // an unhandled rejection from the adapter would fail the test here
});
