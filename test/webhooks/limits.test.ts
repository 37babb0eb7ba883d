/**
 * Bounds on what one webhook can cost: its pending deliveries are capped (the oldest dropped, with a
 * `webhook.dropped` event), and resolving its host is bounded in time without holding the libuv thread pool
 * (c-ares, /etc/hosts honoured, the SSRF check on every address).
 */
import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'slonik';
import { useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { startReceiver } from '../support/receiver.ts';
import { until } from '../support/wait.ts';
import { silentNameServer } from '../support/nameServer.ts';
import { startDeliverer } from '../../orchestrator/webhooks/deliverer.ts';
import { hostResolver } from '../../orchestrator/webhooks/addresses.ts';
import { send } from '../../orchestrator/webhooks/send.ts';

const app = useTestApp(test);

const insertWebhook = async (clusterId: string, events = '{*}') =>
  String(
    await app().pool.oneFirst(sql.unsafe`
      INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES (${clusterId}, 'http://hooks.example.com/', ${events}, 'JSON', 'whsec_x') RETURNING id`),
  );
const countOf = async (webhookId: string, status: string) =>
  Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = ${status}`));

test.serial('a webhook slower than its events keeps at most maxPending: the oldest are dropped, with one webhook.dropped event', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const otherCluster = await createCluster(app(), await signUp(app()));
  const webhookId = await insertWebhook(clusterId);
  const otherId = await insertWebhook(otherCluster);
  // Without a sequencer the events get no cursor, so nothing is sent: the deliveries only pile up.
  for (let index = 0; index < 20; index += 1)
    await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', ${sql.jsonb({ index })})`);
  for (let index = 0; index < 3; index += 1)
    await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${otherCluster}, 'task.run.finished', '{}')`);
  const deliverer = await startDeliverer({
    pool: app().pool,
    databaseUrl: app().database.url,
    logger: app().deps.logger,
    allowPrivate: false,
    userAgent: 'test',
    maxPending: 5,
    pendingCheckMs: 100,
  });
  t.teardown(() => deliverer.stop());
  const dropped = async () =>
    app().pool.any(sql.unsafe`SELECT data FROM events WHERE cluster_id = ${clusterId} AND type = 'webhook.dropped'`) as Promise<
      { data: Record<string, unknown> }[]
    >;
  await until(async () => (await dropped()).length > 0, 'a webhook.dropped event');
  // 20 events and the notice: the 16 oldest events dropped, the 4 newest and the notice wait.
  t.deepEqual((await dropped())[0]!.data, { webhookId, dropped: 16, maxPending: 5 });
  t.is(await countOf(webhookId, 'PENDING'), 5);
  t.is(await countOf(webhookId, 'FAILED'), 16);
  const kept = (await app().pool.any(sql.unsafe`
    SELECT (e.data->>'index')::int AS index FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
     WHERE d.webhook_id = ${webhookId} AND d.status = 'PENDING' AND e.type = 'task.run.finished' ORDER BY 1`)) as { index: number }[];
  t.deepEqual(
    kept.map((row) => row.index),
    [16, 17, 18, 19],
    'the newest are kept',
  );
  t.regex(
    String(await app().pool.oneFirst(sql.unsafe`SELECT last_error FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = 'FAILED' LIMIT 1`)),
    /dropped: more than 5 deliveries were pending/,
  );
  // Under the cap: nothing more is dropped (the notice does not feed itself), and another tenant is untouched.
  await new Promise((done) => setTimeout(done, 500));
  t.is((await dropped()).length, 1);
  t.is(await countOf(webhookId, 'PENDING'), 5);
  t.is(await countOf(otherId, 'PENDING'), 3);
});

test.serial('a name server that never answers: deliveries fail with a DNS time-out within the bound, and the thread pool stays free', async (t) => {
  const server = await silentNameServer();
  t.teardown(() => server.close());
  const resolve = hostResolver({ servers: [server.address], timeoutMs: 1_000 });
  // More lookups than libuv has pool threads (4): with dns.lookup they would hold every one of them.
  const sends = Array.from({ length: 8 }, (_, index) =>
    send({
      url: `https://hooks-${index}.never-answers.example/`,
      body: '{}',
      secret: 'whsec_x',
      eventType: 'webhook.test',
      deliveryId: 'x',
      allowPrivate: false,
      userAgent: 'test',
      resolve,
    }),
  );
  let sendsEnded = false;
  const ended = Promise.all(sends).finally(() => (sendsEnded = true));
  // File reads use the pool: they complete while every lookup is still waiting.
  for (let round = 0; round < 8; round += 1) await readFile(new URL(import.meta.url));
  t.false(sendsEnded, 'the file reads finished while the lookups were still waiting');
  const attempts = await ended;
  for (const attempt of attempts) {
    t.false(attempt.ok);
    t.regex(attempt.error ?? '', /^ETIMEOUT: DNS: no answer for hooks-\d\.never-answers\.example within 1 s$/);
    t.true(attempt.durationMs < 1_000 + 5_000, `ended after ${attempt.durationMs} ms`);
  }
  t.true(server.queries() > 0, 'the configured name server was asked');
});

test.serial('names in the hosts file are answered from it without the name server, and the SSRF check applies to them', async (t) => {
  const server = await silentNameServer();
  const receiver = await startReceiver();
  const folder = await mkdtemp(join(tmpdir(), 'gsm-hosts-'));
  t.teardown(async () => {
    await server.close();
    await receiver.close();
    await rm(folder, { recursive: true, force: true });
  });
  const hostsFile = join(folder, 'hosts');
  await writeFile(hostsFile, '# comment\n127.0.0.1\tMy-Receiver.test  alias.test # trailing\n::1 six.test\n');
  const resolve = hostResolver({ servers: [server.address], timeoutMs: 1_000, hostsFile });
  t.deepEqual(await resolve('my-receiver.test'), [{ address: '127.0.0.1', family: 4 }]);
  t.deepEqual(await resolve('alias.test.'), [{ address: '127.0.0.1', family: 4 }]);
  const port = new URL(receiver.url).port;
  const outgoing = { body: '{}', secret: 'whsec_x', eventType: 'webhook.test', deliveryId: 'x', userAgent: 'test', resolve };
  const allowed = await send({ ...outgoing, url: `http://my-receiver.test:${port}/`, allowPrivate: true });
  t.like(allowed, { ok: true, statusCode: 200 });
  // (Another name: a kept-alive connection is reused without a lookup, and this test flips the setting.)
  const refused = await send({ ...outgoing, url: `http://alias.test:${port}/`, allowPrivate: false });
  t.false(refused.ok);
  t.regex(refused.error ?? '', /resolves to 127\.0\.0\.1, a private or reserved address/);
  t.like(await send({ ...outgoing, url: `http://localhost:${port}/`, allowPrivate: true }), { ok: true });
  t.is(receiver.received.length, 2);
  t.is(server.queries(), 0, 'the name server was not asked');
});
