/**
 * Webhooks end to end with real local HTTP receivers: CRUD and permissions, signed deliveries from the event log,
 * retries with one delivery id, time-outs, a dead receiver not holding up another, redirects not followed, the
 * delivery log and manual retry, auto-disable, and the Discord format within Discord's limits.
 */
import test from 'ava';
import { createHmac } from 'node:crypto';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createCluster, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { until } from '../support/wait.ts';
import { DISCORD_LIMITS } from '../../orchestrator/webhooks/discord.ts';

let app: GatewayApp;
let owner: TestUser;
const receivers: Receiver[] = [];
let port = 33_000;

test.before(async () => {
  app = await startGatewayApp({
    worker: true,
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    webhookRetryDelaysMs: [300, 300],
    webhookTimeoutMs: 1_000,
  });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await app?.close();
});

const receiver = async () => {
  const started = await startReceiver();
  receivers.push(started);
  return started;
};

async function cluster() {
  const clusterId = await createCluster(app, owner);
  const machineId = (await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })))).id as string;
  const base = (port += 3);
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: 'EU #1', machineId, gameType: 'CUSTOM', startCommand: 'true', gamePort: base, queryPort: base + 1, rconPort: base + 2 },
        { headers: owner.auth },
      ),
    ),
  );
  return { clusterId, serverId: server.id as string };
}

const createWebhook = async (clusterId: string, payload: Record<string, unknown>, user = owner) =>
  app.request(`/api/v1/clusters/${clusterId}/webhooks`, json(payload, { headers: user.auth }));

/** A server status change, as the gateway makes one: the trigger writes its event in the same transaction. */
const setStatus = (serverId: string, status: string, reason: string | null = null) =>
  app.pool.query(sql.unsafe`UPDATE servers SET status = ${status}, status_reason = ${reason} WHERE id = ${serverId}`);

const deliveries = async (webhookId: string, query = '') =>
  body(await app.request(`/api/v1/webhooks/${webhookId}/deliveries${query}`, { headers: owner.auth }));

const verify = (secret: string, header: string, raw: string) => {
  const [t, v1] = header.split(',').map((part) => part.split('=')[1]!);
  return createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex') === v1 && Math.abs(Date.now() / 1000 - Number(t)) < 300;
};

test.serial('create, read, change and delete a webhook; the secret is shown once; OWNER and ADMIN only; bad input is 400', async (t) => {
  const { clusterId } = await cluster();
  const target = await receiver();
  const created = await createWebhook(clusterId, { url: `${target.url}/hook`, events: ['server.status', 'JOB.UPDATED'], description: 'ops' });
  t.is(created.status, 201);
  const hook = await body(created);
  t.regex(hook.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  t.like(hook, {
    clusterId,
    url: `${target.url}/hook`,
    events: ['server.status', 'job.updated'],
    format: 'JSON',
    enabled: true,
    disabledReason: null,
    description: 'ops',
  });
  t.is(created.headers.get('location'), `/api/v1/webhooks/${hook.id}`);

  const read = await body(await app.request(`/api/v1/webhooks/${hook.id}`, { headers: owner.auth }));
  t.false('secret' in read, 'the secret is shown once');
  const list = await body(await app.request(`/api/v1/clusters/${clusterId}/webhooks`, { headers: owner.auth }));
  t.is(list.meta.total, 1);
  t.false('secret' in list.data[0]);

  const all = await body(await createWebhook(clusterId, { url: target.url, events: ['*', 'server.status'], format: 'discord' }));
  t.deepEqual(all.events, ['*']);
  t.is(all.format, 'DISCORD');

  const patched = await app.request(`/api/v1/webhooks/${hook.id}`, json({ events: ['ban.created'], enabled: false }, { method: 'PATCH', headers: owner.auth }));
  t.is(patched.status, 200);
  t.like(await body(patched), { events: ['ban.created'], enabled: false });

  const admin = await signUp(app);
  const moderator = await signUp(app);
  await addMember(app, clusterId, admin, 'ADMIN');
  await addMember(app, clusterId, moderator, 'MODERATOR');
  t.is((await createWebhook(clusterId, { url: target.url, events: ['*'] }, admin)).status, 201);
  t.is((await createWebhook(clusterId, { url: target.url, events: ['*'] }, moderator)).status, 403);
  t.is((await app.request(`/api/v1/webhooks/${hook.id}`, { headers: moderator.auth })).status, 403, 'the URL may be a secret');
  const stranger = await signUp(app);
  t.is((await app.request(`/api/v1/webhooks/${hook.id}`, { headers: stranger.auth })).status, 403);
  t.is((await app.request('/api/v1/webhooks/00000000-0000-4000-8000-000000000000', { headers: owner.auth })).status, 404);

  for (const bad of [
    { url: 'ftp://example.com/x', events: ['*'] },
    { url: 'https://user:pass@example.com/x', events: ['*'] },
    { url: 'not a url', events: ['*'] },
    { url: target.url, events: [] },
    { url: target.url, events: ['server.exploded'] },
    { url: target.url, events: ['*'], format: 'XML' },
    { url: target.url, events: ['*'], extra: true },
    { url: `${target.url}/${'x'.repeat(3000)}`, events: ['*'] },
    { url: target.url, events: '*' },
  ]) {
    const refused = await createWebhook(clusterId, bad);
    t.is(refused.status, 400, JSON.stringify(bad).slice(0, 80));
    t.truthy((await body(refused)).message);
  }
  t.is((await app.request(`/api/v1/webhooks/${hook.id}`, json({}, { method: 'PATCH', headers: owner.auth }))).status, 400);

  const deleted = await app.request(`/api/v1/webhooks/${hook.id}`, { method: 'DELETE', headers: owner.auth });
  t.is(deleted.status, 204);
  t.is((await app.request(`/api/v1/webhooks/${hook.id}`, { headers: owner.auth })).status, 404);
  const audit = await app.pool.anyFirst(sql.unsafe`SELECT action FROM audit_log WHERE cluster_id = ${clusterId} AND action LIKE 'webhook.%' ORDER BY at`);
  t.deepEqual(audit.slice(0, 3), ['webhook.create', 'webhook.create', 'webhook.update']);
});

test.serial('an event is delivered signed, with its type and a delivery id; the log shows it delivered', async (t) => {
  const { clusterId, serverId } = await cluster();
  const target = await receiver();
  const hook = await body(await createWebhook(clusterId, { url: `${target.url}/in`, events: ['server.status'] }));
  const sentAt = Date.now();
  await setStatus(serverId, 'ONLINE');
  const [request] = await target.waitFor(1);
  t.true(request!.at - sentAt < 5_000);
  t.is(request!.path, '/in');
  t.is(request!.headers['gsm-event'], 'server.status');
  t.is(request!.headers['content-type'], 'application/json');
  t.regex(String(request!.headers['user-agent']), /gsm/);
  t.true(verify(hook.secret, String(request!.headers['gsm-signature']), request!.raw), 'the signature verifies with the secret');
  t.false(verify('whsec_other', String(request!.headers['gsm-signature']), request!.raw));
  t.like(request!.body, { type: 'server.status', clusterId, data: { serverId, status: 'ONLINE' } });
  t.regex(request!.body.id, /^\d{16}$/, 'the envelope carries the event cursor');

  await until(async () => (await deliveries(hook.id)).data[0]?.status === 'SUCCEEDED', 'the delivery recorded');
  const [logged] = (await deliveries(hook.id)).data;
  t.like(logged, {
    id: request!.headers['gsm-delivery'],
    webhookId: hook.id,
    eventId: request!.body.id,
    eventType: 'server.status',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    nextAttemptAt: null,
  });
  t.truthy(logged.deliveredAt);
  t.is(typeof logged.durationMs, 'number');
  // Other types are not sent to it.
  await app.pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', '{}')`);
  await setStatus(serverId, 'OFFLINE');
  await target.waitFor(2);
  t.is(target.received[1]!.body.data.status, 'OFFLINE');
  t.is((await deliveries(hook.id)).meta.total, 2);
  t.is((await deliveries(hook.id, '?status=failed')).meta.total, 0);
  t.is((await app.request(`/api/v1/webhooks/${hook.id}/deliveries?status=LOST`, { headers: owner.auth })).status, 400);
});

test.serial('a receiver answering 500 twice then 200 gets three attempts with the same delivery id', async (t) => {
  const { clusterId, serverId } = await cluster();
  const target = await receiver();
  target.answers.push(500, 500);
  const hook = await body(await createWebhook(clusterId, { url: target.url, events: ['server.status'] }));
  await setStatus(serverId, 'CRASHED', 'exited with code 1');
  const attempts = await target.waitFor(3);
  t.is(new Set(attempts.map((request) => request.headers['gsm-delivery'])).size, 1);
  t.is(new Set(attempts.map((request) => request.raw)).size, 1, 'the same body each time');
  await until(async () => (await deliveries(hook.id)).data[0]?.status === 'SUCCEEDED', 'SUCCEEDED');
  t.like((await deliveries(hook.id)).data[0], { attempts: 3, lastStatusCode: 200 });
});

test.serial('a receiver that hangs times out and is tried again; it does not hold up another webhook', async (t) => {
  const { clusterId, serverId } = await cluster();
  const hanging = await receiver();
  hanging.answers.push(...Array.from({ length: 12 }, () => 'hang' as const));
  const fast = await receiver();
  const slow = await body(await createWebhook(clusterId, { url: hanging.url, events: ['server.status'] }));
  await body(await createWebhook(clusterId, { url: fast.url, events: ['server.status'] }));
  for (const status of ['STARTING', 'ONLINE', 'STOPPING', 'OFFLINE']) await setStatus(serverId, status);
  const started = Date.now();
  await fast.waitFor(4);
  t.true(Date.now() - started < 2_500, `the other receiver got its four in ${Date.now() - started} ms`);
  await until(
    async () => (await deliveries(slow.id)).data.some((delivery: { lastError: string | null }) => /no answer within 1 s/.test(delivery.lastError ?? '')),
    'a time-out recorded',
  );
  await until(async () => (await deliveries(slow.id, '?status=FAILED')).meta.total === 4, 'the hanging deliveries end FAILED after their attempts', 20_000);
  t.like((await deliveries(slow.id, '?status=FAILED')).data[0], { attempts: 3, lastStatusCode: null });
});

test.serial('redirects are not followed; a failed delivery can be sent again; a test delivery; 50 failures disable the webhook', async (t) => {
  const { clusterId, serverId } = await cluster();
  const target = await receiver();
  target.answers.push(302, 302, 302);
  const hook = await body(await createWebhook(clusterId, { url: target.url, events: ['server.status'] }));
  await app.pool.query(sql.unsafe`UPDATE webhooks SET consecutive_failures = ${49} WHERE id = ${hook.id}`);
  await setStatus(serverId, 'ONLINE');
  await until(async () => (await deliveries(hook.id, '?status=FAILED')).meta.total === 1, 'FAILED', 20_000);
  t.is(target.received.length, 3);
  t.false(
    target.received.some((request) => request.path === '/elsewhere'),
    'the redirect was not followed',
  );
  const [failed] = (await deliveries(hook.id)).data;
  t.like(failed, { status: 'FAILED', attempts: 3, lastStatusCode: 302 });
  t.regex(failed.lastError, /redirects are not followed/);

  // The fiftieth failure in a row disabled it, and says so in the event log.
  const disabled = await body(await app.request(`/api/v1/webhooks/${hook.id}`, { headers: owner.auth }));
  t.false(disabled.enabled);
  t.regex(disabled.disabledReason, /50 deliveries in a row failed/);
  const events = await body(await app.request(`/api/v1/clusters/${clusterId}/events?type=webhook.disabled`, { headers: owner.auth }));
  t.like(events.data[0], { type: 'webhook.disabled', data: { webhookId: hook.id, reason: '50 deliveries in a row failed' } });
  // While disabled, events are not queued for it.
  await setStatus(serverId, 'OFFLINE');
  await new Promise((done) => setTimeout(done, 500));
  t.is((await deliveries(hook.id)).meta.total, 1);

  // A test goes out even while disabled; enabling clears the reason; a retry sends the same delivery again.
  const test1 = await app.request(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST', headers: owner.auth });
  t.is(test1.status, 202);
  const testDelivery = await body(test1);
  t.like(testDelivery, { eventType: 'webhook.test', status: 'PENDING' });
  const testRequest = (await target.waitFor(4))[3]!;
  // The delivery log shows the id the receiver saw.
  t.is(testDelivery.eventId, testRequest.body.id);
  t.is((await body(await app.request(`/api/v1/webhooks/${hook.id}/deliveries/${testDelivery.id}`, { headers: owner.auth }))).eventId, testRequest.body.id);
  t.is((await deliveries(hook.id)).data.find((delivery: { id: string }) => delivery.id === testDelivery.id).eventId, testRequest.body.id);
  t.is(testRequest.headers['gsm-event'], 'webhook.test');
  t.like(testRequest.body, { type: 'webhook.test', clusterId, data: { webhookId: hook.id } });
  // A test event has an id of its own, never null (receivers de-duplicate on it) and never an event log's id (digits).
  t.regex(testRequest.body.id, /^test_[0-9a-f-]{36}$/);
  t.false((await body(await app.request(`/api/v1/webhooks/${hook.id}`, { headers: owner.auth }))).enabled, 'sent while still disabled');
  const enabled = await body(await app.request(`/api/v1/webhooks/${hook.id}`, json({ enabled: true }, { method: 'PATCH', headers: owner.auth })));
  t.like(enabled, { enabled: true, disabledReason: null });

  const retried = await app.request(`/api/v1/webhooks/${hook.id}/deliveries/${failed.id}/retry`, { method: 'POST', headers: owner.auth });
  t.is(retried.status, 202);
  t.like(await body(retried), { status: 'PENDING' });
  const again = (await target.waitFor(5))[4]!;
  t.is(again.headers['gsm-delivery'], failed.id, 'the same delivery id');
  await until(async () => (await deliveries(hook.id, '?status=SUCCEEDED')).data.some((delivery: { id: string }) => delivery.id === failed.id), 'retried');
  t.is(
    (await app.request(`/api/v1/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`, { method: 'POST', headers: owner.auth })).status,
    404,
  );
});

test.serial('the Discord format is a Discord webhook message within every Discord limit', async (t) => {
  const { clusterId, serverId } = await cluster();
  const target = await receiver();
  await body(await createWebhook(clusterId, { url: target.url, events: ['server.status'], format: 'DISCORD' }));
  await setStatus(serverId, 'CRASHED', `fatal: ${'map file is corrupt @everyone '.repeat(400)}`);
  const [request] = await target.waitFor(1);
  const message = request!.body;
  t.is(message.embeds.length, 1);
  const [embed] = message.embeds;
  t.is(embed.title, 'EU #1 is CRASHED');
  t.is(embed.color, 0xd83c3e);
  t.true(embed.description.length <= DISCORD_LIMITS.description);
  t.true(embed.fields.length <= DISCORD_LIMITS.fields);
  for (const field of embed.fields) t.true(field.name.length <= DISCORD_LIMITS.fieldName && field.value.length <= DISCORD_LIMITS.fieldValue);
  const total =
    embed.title.length +
    embed.description.length +
    embed.footer.text.length +
    embed.fields.reduce((sum: number, f: { name: string; value: string }) => sum + f.name.length + f.value.length, 0);
  t.true(total <= DISCORD_LIMITS.total, `total ${total}`);
  t.regex(embed.timestamp, /^\d{4}-\d\d-\d\dT/);
  t.deepEqual(message.allowed_mentions, { parse: [] }, 'game text never pings');
});

test.serial("the Discord ban message names the player, its Steam id and the server, not the player's id", async (t) => {
  const { clusterId, serverId } = await cluster();
  const target = await receiver();
  await body(await createWebhook(clusterId, { url: target.url, events: ['ban.created'], format: 'DISCORD' }));
  await app.pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, 'join', '76561198000000077', 'Griefer', now(), NULL)`);
  const playerId = String(await app.pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE cluster_id = ${clusterId} AND steam_id = '76561198000000077'`));
  const banned = await app.request(`/api/v1/players/${playerId}/ban`, json({ serverId, reason: 'Griefing' }, { headers: owner.auth }));
  t.is(banned.status, 201);
  const [request] = await target.waitFor(1);
  const [embed] = request!.body.embeds;
  t.is(embed.title, 'Player banned: Griefer');
  t.deepEqual(
    embed.fields.map((field: { name: string; value: string }) => [field.name, field.value]),
    [
      ['Player', 'Griefer'],
      ['Steam ID', '76561198000000077'],
      ['Where', 'EU #1'],
      ['Expires', 'never'],
    ],
  );
  t.false(JSON.stringify(embed).includes(playerId), "the player's id is nowhere in the message");
});

test.serial('many dead receivers in one cluster do not hold up the webhook of another cluster for longer than one time-out', async (t) => {
  const dead = await receiver();
  dead.answers.push(...Array.from({ length: 200 }, () => 'hang' as const));
  const a = await cluster();
  for (let index = 0; index < 20; index++) t.is((await createWebhook(a.clusterId, { url: `${dead.url}/${index}`, events: ['*'] })).status, 201);
  t.is((await createWebhook(a.clusterId, { url: dead.url, events: ['*'] })).status, 409, 'at most 20 webhooks per cluster');
  for (const status of ['STARTING', 'ONLINE', 'STOPPING', 'OFFLINE']) await setStatus(a.serverId, status);
  await dead.waitFor(20);
  const b = await cluster();
  const healthy = await receiver();
  await body(await createWebhook(b.clusterId, { url: healthy.url, events: ['server.status'] }));
  const started = Date.now();
  await setStatus(b.serverId, 'ONLINE');
  await healthy.waitFor(1, 10_000);
  t.true(Date.now() - started < 3_000, `the healthy receiver waited ${Date.now() - started} ms behind 80 deliveries to dead ones`);
});

test.serial('the idempotent replay of a webhook creation does not show the secret again', async (t) => {
  const { clusterId } = await cluster();
  const target = await receiver();
  const request = () =>
    app.request(
      `/api/v1/clusters/${clusterId}/webhooks`,
      json({ url: target.url, events: ['*'] }, { headers: { ...owner.auth, 'Idempotency-Key': `hook-${clusterId}` } }),
    );
  const first = await body(await request());
  t.regex(first.secret, /^whsec_/);
  const replay = await body(await request());
  t.is(replay.id, first.id);
  t.false('secret' in replay);
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM idempotency_keys WHERE body::text LIKE '%whsec_%'`)), 0);
});
