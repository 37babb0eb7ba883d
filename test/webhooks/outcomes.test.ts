/**
 * How a deliverer records its outcomes (orchestrator/webhooks/deliverer.ts), against real local receivers and the
 * real database: the outcomes of several webhooks are written together in one statement, each on its own delivery;
 * one whose write fails (its tenant's trouble) takes no other tenant's outcome with it; a delivery whose lease went to
 * another claim meanwhile is not recorded over that claim; and a slow write of outcomes does not hold up the sends.
 */
import test from 'ava';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'slonik';
import { useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { until } from '../support/wait.ts';
import { startDeliverer, type DelivererOptions } from '../../orchestrator/webhooks/deliverer.ts';
import { sequenceEvents } from '../../orchestrator/events/sequencer.ts';

const app = useTestApp(test);

/** A receiver that holds every request until told to answer them all, each with `status`. */
async function holdingReceiver(status: number) {
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => held.push(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    held,
    answer: () => {
      for (const response of held.splice(0)) {
        response.statusCode = status;
        response.end(status >= 300 ? 'no' : 'ok');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type HoldingReceiver = Awaited<ReturnType<typeof holdingReceiver>>;

/** A tenant (its own cluster) with a webhook to `receiver` and one event waiting for it. */
async function tenant(receiver: HoldingReceiver) {
  const clusterId = await createCluster(app(), await signUp(app()));
  const webhookId = String(
    await app().pool.oneFirst(sql.unsafe`
      INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES (${clusterId}, ${receiver.url}, '{*}', 'JSON', 'whsec_x') RETURNING id`),
  );
  await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', '{}')`);
  return { clusterId, webhookId };
}

const deliveryOf = async (webhookId: string) =>
  (await app().pool.one(sql.unsafe`
    SELECT id, status, attempts, last_status_code AS "code", lease_token::text AS "token", next_attempt_at > now() + interval '30 seconds' AS "later"
      FROM webhook_deliveries WHERE webhook_id = ${webhookId}`)) as {
    id: string;
    status: string;
    attempts: number;
    code: number | null;
    token: string | null;
    later: boolean;
  };

async function deliverer(t: { teardown: (fn: () => Promise<void>) => void }, options: Partial<DelivererOptions> = {}) {
  const started = await startDeliverer({
    pool: app().pool,
    databaseUrl: app().database.url,
    logger: app().deps.logger,
    allowPrivate: true,
    userAgent: 'test',
    retryDelaysMs: [60_000],
    ...options,
  });
  t.teardown(() => started.stop());
  return started;
}

/** Every UPDATE statement on webhook_deliveries leaves a row: how many deliveries it changed. */
async function countStatements(t: { teardown: (fn: () => Promise<void>) => void }) {
  await app().pool.query(sql.unsafe`
    CREATE TABLE IF NOT EXISTS test_delivery_updates (id serial PRIMARY KEY, recorded int NOT NULL, ids uuid[] NOT NULL)`);
  await app().pool.query(sql.unsafe`TRUNCATE test_delivery_updates`);
  await app().pool.query(sql.unsafe`
    CREATE OR REPLACE FUNCTION test_count_delivery_updates() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- only the statements that record outcomes (a lease given up), not the claims
      INSERT INTO test_delivery_updates (recorded, ids)
      SELECT count(*), array_agg(n.id) FROM changed n JOIN previous o ON o.id = n.id WHERE o.lease_token IS NOT NULL AND n.lease_token IS NULL
      HAVING count(*) > 0;
      RETURN NULL;
    END $$`);
  await app().pool.query(sql.unsafe`
    CREATE OR REPLACE TRIGGER test_count_delivery_updates AFTER UPDATE ON webhook_deliveries
    REFERENCING OLD TABLE AS previous NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION test_count_delivery_updates()`);
  t.teardown(async () => void (await app().pool.query(sql.unsafe`DROP TRIGGER test_count_delivery_updates ON webhook_deliveries`)));
  return async () =>
    (await app().pool.any(sql.unsafe`SELECT recorded, ids::text[] AS ids FROM test_delivery_updates ORDER BY id`)) as { recorded: number; ids: string[] }[];
}

test.serial('the outcomes of several webhooks are written in one statement, each on its own delivery', async (t) => {
  const receivers = [await holdingReceiver(200), await holdingReceiver(500), await holdingReceiver(204)];
  t.teardown(() => Promise.all(receivers.map((receiver) => receiver.close())));
  const [ok, failing, noContent] = [await tenant(receivers[0]!), await tenant(receivers[1]!), await tenant(receivers[2]!)];
  await sequenceEvents(app().pool);
  const statements = await countStatements(t);
  await deliverer(t, { batchMs: 300 });
  await until(async () => receivers.every((receiver) => receiver.held.length === 1), 'the three deliveries at their receivers');
  for (const receiver of receivers) receiver.answer();

  await until(async () => (await deliveryOf(noContent.webhookId)).token === null, 'the outcomes recorded');
  t.like(await deliveryOf(ok.webhookId), { status: 'SUCCEEDED', code: 200, attempts: 1, token: null });
  t.like(await deliveryOf(failing.webhookId), { status: 'PENDING', code: 500, attempts: 1, token: null, later: true }, 'tried again after the delay');
  t.like(await deliveryOf(noContent.webhookId), { status: 'SUCCEEDED', code: 204, attempts: 1, token: null });
  const written = await statements();
  t.is(written.length, 1, 'one statement');
  t.is(written[0]!.recorded, 3);
});

test.serial("a write that fails for one tenant's delivery does not lose the others' outcomes", async (t) => {
  const receivers = [await holdingReceiver(200), await holdingReceiver(200), await holdingReceiver(500)];
  t.teardown(() => Promise.all(receivers.map((receiver) => receiver.close())));
  const [broken, fine, failing] = [await tenant(receivers[0]!), await tenant(receivers[1]!), await tenant(receivers[2]!)];
  await sequenceEvents(app().pool);
  // The broken tenant's delivery cannot be recorded (as if its row could not be written): the statement that tries fails.
  await app().pool.query(sql.unsafe`CREATE TABLE IF NOT EXISTS test_refused (webhook_id uuid PRIMARY KEY)`);
  await app().pool.query(sql.unsafe`INSERT INTO test_refused VALUES (${broken.webhookId})`);
  await app().pool.query(sql.unsafe`
    CREATE OR REPLACE FUNCTION test_refuse_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.lease_token IS NOT NULL AND NEW.lease_token IS NULL AND EXISTS (SELECT 1 FROM test_refused r WHERE r.webhook_id = NEW.webhook_id) THEN
        RAISE EXCEPTION 'this outcome cannot be written';
      END IF;
      RETURN NEW;
    END $$`);
  await app().pool.query(sql.unsafe`
    CREATE OR REPLACE TRIGGER test_refuse_outcome BEFORE UPDATE ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION test_refuse_outcome()`);
  t.teardown(async () => void (await app().pool.query(sql.unsafe`DROP TRIGGER test_refuse_outcome ON webhook_deliveries`)));
  await deliverer(t, { batchMs: 300 });
  await until(async () => receivers.every((receiver) => receiver.held.length === 1), 'the three deliveries at their receivers');
  for (const receiver of receivers) receiver.answer();

  await until(async () => (await deliveryOf(fine.webhookId)).token === null && (await deliveryOf(failing.webhookId)).token === null, 'the others recorded');
  t.like(await deliveryOf(fine.webhookId), { status: 'SUCCEEDED', code: 200 });
  t.like(await deliveryOf(failing.webhookId), { status: 'PENDING', code: 500, later: true });
  // Its claim is kept: the lease runs out and it is sent again (at least once).
  const stuck = await deliveryOf(broken.webhookId);
  t.like(stuck, { status: 'PENDING', code: null });
  t.not(stuck.token, null);
});

test.serial("a delivery whose lease went to another claim meanwhile is not recorded over that claim; the batch's others are", async (t) => {
  const receivers = [await holdingReceiver(200), await holdingReceiver(200)];
  t.teardown(() => Promise.all(receivers.map((receiver) => receiver.close())));
  const [lost, kept] = [await tenant(receivers[0]!), await tenant(receivers[1]!)];
  await sequenceEvents(app().pool);
  await deliverer(t, { batchMs: 300 });
  await until(async () => receivers.every((receiver) => receiver.held.length === 1), 'both deliveries at their receivers');
  // Another process's claim, as after this one's lease ran out: a new token and lease, one more attempt.
  const other = String(
    await app().pool.oneFirst(sql.unsafe`
      UPDATE webhook_deliveries SET lease_token = gen_random_uuid(), lease_until = now() + interval '15 seconds', attempts = attempts + 1
       WHERE webhook_id = ${lost.webhookId} RETURNING lease_token::text`),
  );
  for (const receiver of receivers) receiver.answer();

  await until(async () => (await deliveryOf(kept.webhookId)).status === 'SUCCEEDED', 'the other delivery recorded');
  await new Promise((done) => setTimeout(done, 500));
  t.like(await deliveryOf(lost.webhookId), { status: 'PENDING', code: null, attempts: 2, token: other }, "the other claim's delivery untouched");
  t.like(await deliveryOf(kept.webhookId), { status: 'SUCCEEDED', code: 200, token: null });
});

test.serial("a slow write of outcomes does not hold up the sends: a send's slot is free once its receiver answered", async (t) => {
  const arrived: number[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrived.push(Date.now());
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const clusterId = await createCluster(app(), await signUp(app()));
  const webhookId = String(
    await app().pool.oneFirst(sql.unsafe`
      INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES (${clusterId}, ${url}, '{*}', 'JSON', 'whsec_x') RETURNING id`),
  );
  for (let index = 0; index < 4; index += 1)
    await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', ${sql.jsonb({ index })})`);
  await sequenceEvents(app().pool);
  // Each write of an outcome takes a second.
  await app().pool.query(sql.unsafe`CREATE TABLE IF NOT EXISTS test_slow (webhook_id uuid PRIMARY KEY)`);
  await app().pool.query(sql.unsafe`INSERT INTO test_slow VALUES (${webhookId})`);
  await app().pool.query(sql.unsafe`
    CREATE OR REPLACE FUNCTION test_slow_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.lease_token IS NOT NULL AND NEW.lease_token IS NULL AND EXISTS (SELECT 1 FROM test_slow s WHERE s.webhook_id = NEW.webhook_id) THEN
        PERFORM pg_sleep(1);
      END IF;
      RETURN NEW;
    END $$`);
  await app().pool.query(sql.unsafe`
    CREATE OR REPLACE TRIGGER test_slow_outcome BEFORE UPDATE ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION test_slow_outcome()`);
  t.teardown(async () => void (await app().pool.query(sql.unsafe`DROP TRIGGER test_slow_outcome ON webhook_deliveries`)));
  // One send at a time to this webhook.
  await deliverer(t, { perWebhook: 1 });
  await until(async () => arrived.length === 4, 'the four deliveries at the receiver', 20_000);
  t.true(arrived[3]! - arrived[0]! < 1_500, `all four sent while the first outcomes were still being written (${arrived[3]! - arrived[0]!} ms)`);
  await until(
    async () =>
      Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = 'SUCCEEDED'`)) ===
      4,
    'the four recorded',
    20_000,
  );
  t.pass();
});

test.serial('deliveries claimed ahead for a quick receiver are given back, their attempt uncounted, once it fails', async (t) => {
  const receiver = await holdingReceiver(500);
  t.teardown(() => receiver.close());
  const clusterId = await createCluster(app(), await signUp(app()));
  const webhookId = String(
    await app().pool.oneFirst(sql.unsafe`
      INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES (${clusterId}, ${receiver.url}, '{*}', 'JSON', 'whsec_x') RETURNING id`),
  );
  for (let index = 0; index < 6; index += 1)
    await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', ${sql.jsonb({ index })})`);
  await sequenceEvents(app().pool);
  const leases = async () =>
    (await app().pool.one(sql.unsafe`
      SELECT count(*) FILTER (WHERE lease_token IS NOT NULL)::int AS leased, sum(attempts)::int AS attempts
        FROM webhook_deliveries WHERE webhook_id = ${webhookId}`)) as { leased: number; attempts: number };
  await deliverer(t, { perWebhook: 2, timeoutMs: 1_000 });
  await until(async () => receiver.held.length === 2, 'two sends at once');
  // Two being sent and two claimed ahead.
  await until(async () => (await leases()).leased === 4, 'two deliveries claimed ahead');
  t.deepEqual(await leases(), { leased: 4, attempts: 4 });
  receiver.answer();
  // Failing now: one send at a time, and nothing held ahead; attempts count only what was sent.
  await until(async () => receiver.held.length === 1, 'the next send');
  await new Promise((done) => setTimeout(done, 300));
  t.deepEqual(await leases(), { leased: 1, attempts: 3 });
});
