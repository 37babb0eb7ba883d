/**
 * Where webhooks may point: private, loopback, link-local, unique-local and reserved targets are refused when a
 * webhook is created and again when a delivery connects (the connection goes to the address that was checked), unless
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS=true. And the Discord format of every event type within Discord's limits.
 */
import test from 'ava';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { startReceiver } from '../support/receiver.ts';
import { isPublicAddress, targetProblem } from '../../orchestrator/webhooks/addresses.ts';
import { send } from '../../orchestrator/webhooks/send.ts';
import { DISCORD_LIMITS, discordMessage } from '../../orchestrator/webhooks/discord.ts';
import { DURABLE_EVENT_TYPES } from '../../schema/events.ts';
import { sql } from 'slonik';
import { startDeliverer } from '../../orchestrator/webhooks/deliverer.ts';
import { startSequencer } from '../../orchestrator/events/sequencer.ts';
import { until } from '../support/wait.ts';

const app = useTestApp(test);

test('private and reserved addresses are told apart from public ones, IPv4 inside IPv6 included', (t) => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::7f00:1',
    '::a00:1',
    '::ffff:0:7f00:1',
    '64:ff9b:1::7f00:1',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '64:ff9b::a9fe:a9fe',
    'ff02::1',
    'not an address',
  ])
    t.false(isPublicAddress(address), address);
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '100.128.0.1'])
    t.true(isPublicAddress(address), address);
});

test('creating a webhook that points inside is refused with a clear 400, names resolved included', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.5/hook',
    'http://[::1]:9000/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/',
    'https://no-such-host.invalid/hook',
  ]) {
    const refused = await app().request(`/api/v1/clusters/${clusterId}/webhooks`, json({ url, events: ['*'] }, { headers: owner.auth }));
    t.is(refused.status, 400, url);
    const answer = await body(refused);
    t.is(answer.details[0].field, 'url');
    t.regex(answer.details[0].message, /private or reserved address|cannot be resolved/, url);
  }
  t.regex((await targetProblem('http://localhost/', false))!, /resolves to (127\.0\.0\.1|::1)/);
  t.is(await targetProblem('http://localhost/', true), null);
});

test('a delivery connects only to a checked address: loopback by IP or by name is refused at send time', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const port = new URL(receiver.url).port;
  const outgoing = { body: '{}', secret: 'whsec_x', eventType: 'webhook.test', deliveryId: 'd', userAgent: 'test', allowPrivate: false };
  const byIp = await send({ ...outgoing, url: `http://127.0.0.1:${port}/` });
  t.false(byIp.ok);
  t.regex(byIp.error!, /private or reserved/);
  // A name that resolves inside (as a rebinding name does by the time of the delivery) is refused by the lookup.
  const byName = await send({ ...outgoing, url: `http://localhost:${port}/` });
  t.false(byName.ok);
  t.regex(byName.error!, /resolves to .*private or reserved/);
  t.is(receiver.received.length, 0, 'nothing reached the receiver');
  const allowed = await send({ ...outgoing, url: `http://localhost:${port}/`, allowPrivate: true });
  t.true(allowed.ok);
  t.is(receiver.received.length, 1);
});

test('every event type has a Discord message within every Discord limit, however long its text', (t) => {
  const long = 'x'.repeat(10_000);
  for (const type of [...DURABLE_EVENT_TYPES, 'webhook.test']) {
    const data = {
      serverId: long,
      machineId: long,
      status: 'CRASHED',
      previous: long,
      reason: long,
      exitCode: 1,
      type: long,
      id: long,
      error: { code: long, message: long },
      username: long,
      steamId: long,
      playerId: long,
      expiresAt: long,
      taskId: long,
      jobId: long,
      webhookId: long,
    };
    const message = discordMessage({ id: '1', type, clusterId: 'c', at: '2026-11-24T00:00:00.000Z', data }, { server: long, machine: long, cluster: long });
    const [embed] = message.embeds;
    t.true(embed!.title.length <= DISCORD_LIMITS.title, type);
    t.true(embed!.description.length <= DISCORD_LIMITS.description, type);
    t.true(embed!.fields.length <= DISCORD_LIMITS.fields, type);
    t.true(embed!.footer.text.length <= DISCORD_LIMITS.footer, type);
    for (const field of embed!.fields) t.true(field.name.length <= DISCORD_LIMITS.fieldName && field.value.length <= DISCORD_LIMITS.fieldValue, type);
    const total =
      embed!.title.length + embed!.description.length + embed!.footer.text.length + embed!.fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
    t.true(total <= DISCORD_LIMITS.total, `${type}: ${total}`);
    t.deepEqual(message.allowed_mentions, { parse: [] });
  }
});

test('a PATCH to a private URL is refused like a creation', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const created = await app().request(`/api/v1/clusters/${clusterId}/webhooks`, json({ url: 'http://8.8.8.8/hook', events: ['*'] }, { headers: owner.auth }));
  t.is(created.status, 201);
  const hook = await body(created);
  const patched = await app().request(`/api/v1/webhooks/${hook.id}`, json({ url: 'http://127.0.0.1/hook' }, { method: 'PATCH', headers: owner.auth }));
  t.is(patched.status, 400);
  t.is((await body(await app().request(`/api/v1/webhooks/${hook.id}`, { headers: owner.auth }))).url, 'http://8.8.8.8/hook');
});

test('the deliverer refuses a private target at delivery time (a webhook that got in some other way reaches nothing)', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  // As if the name resolved publicly when the webhook was made, and to the loopback now.
  const webhookId = String(
    await app().pool.oneFirst(sql.unsafe`
      INSERT INTO webhooks (cluster_id, url, events, format, secret) VALUES (${clusterId}, ${`http://localhost:${new URL(receiver.url).port}/`}, '{*}', 'JSON', 'whsec_x') RETURNING id`),
  );
  const sequencer = await startSequencer({ pool: app().pool, databaseUrl: app().database.url, logger: app().deps.logger });
  const deliverer = await startDeliverer({
    pool: app().pool,
    databaseUrl: app().database.url,
    logger: app().deps.logger,
    allowPrivate: false,
    userAgent: 'test',
    retryDelaysMs: [],
  });
  t.teardown(async () => {
    await deliverer.stop();
    await sequencer.stop();
  });
  await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', '{}')`);
  await until(
    async () => (await app().pool.maybeOneFirst(sql.unsafe`SELECT status FROM webhook_deliveries WHERE webhook_id = ${webhookId}`)) === 'FAILED',
    'FAILED',
  );
  t.regex(String(await app().pool.oneFirst(sql.unsafe`SELECT last_error FROM webhook_deliveries WHERE webhook_id = ${webhookId}`)), /private or reserved/);
  t.is(receiver.received.length, 0);
});
