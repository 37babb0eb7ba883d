/**
 * Retention: events older than EVENT_RETENTION_DAYS go (orchestrator/events/retention.ts), and so do finished webhook
 * deliveries (orchestrator/webhooks/retention.ts); a pending delivery stays whatever its age, and newer rows stay.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { deleteOldEvents } from '../../orchestrator/events/retention.ts';
import { deleteOldDeliveries } from '../../orchestrator/webhooks/retention.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let database: TestDatabase;
let pool: DatabasePool;
test.before(async () => {
  database = await createTestDatabase();
  pool = await createDatabasePool(database.url, { maxPoolSize: 2 });
});
test.after.always(async () => {
  await pool?.end();
  await database?.drop();
});

const ids = z.object({ id: z.string() });

test('old events and old finished deliveries are deleted; pending deliveries and newer rows stay', async (t) => {
  const clusterId = await pool.oneFirst(sql.type(ids)`INSERT INTO clusters (name) VALUES ('retention') RETURNING id`);
  // Disabled: the fan-out trigger gives it no deliveries of its own, so only the rows below exist.
  const webhookId = await pool.oneFirst(sql.type(ids)`
    INSERT INTO webhooks (cluster_id, url, events, format, secret, enabled)
    VALUES (${clusterId}, 'https://example.org/hook', ARRAY['*'], 'JSON', 'secret', false) RETURNING id`);
  const event = (daysAgo: number) =>
    pool.oneFirst(sql.type(ids)`
      INSERT INTO events (cluster_id, type, at, data) VALUES (${clusterId}, 'server.status', now() - make_interval(days => ${daysAgo}), '{}') RETURNING id`);
  const oldEvent = await event(10);
  const newEvent = await event(1);
  const delivery = (status: string, daysAgo: number) =>
    pool.oneFirst(sql.type(ids)`
      INSERT INTO webhook_deliveries (webhook_id, event_type, body, status, created_at)
      VALUES (${webhookId}, 'webhook.test', '{}', ${status}, now() - make_interval(days => ${daysAgo})) RETURNING id`);
  const oldSucceeded = await delivery('SUCCEEDED', 10);
  const oldFailed = await delivery('FAILED', 10);
  const oldPending = await delivery('PENDING', 10);
  const newSucceeded = await delivery('SUCCEEDED', 1);

  t.false(await deleteOldDeliveries(pool, 7), 'less than a full batch: nothing more waits');
  const deliveries = await pool.anyFirst(sql.type(ids)`SELECT id FROM webhook_deliveries ORDER BY id`);
  t.deepEqual([...deliveries].sort(), [oldPending, newSucceeded].sort());
  t.false(deliveries.includes(oldSucceeded) || deliveries.includes(oldFailed));

  t.false(await deleteOldEvents(pool, 7));
  t.deepEqual(await pool.anyFirst(sql.type(ids)`SELECT id FROM events WHERE cluster_id = ${clusterId}`), [newEvent]);
  t.not(oldEvent, newEvent);
});
