import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createHash } from 'node:crypto';
import { PASSWORD, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const withKey = (key: string, headers: Record<string, string>) => ({ ...headers, 'Idempotency-Key': key });

test('the same key and body replay the first answer and create nothing new', async (t) => {
  const user = await signUp(app());
  const first = await app().request('/api/v1/clusters', json({ name: 'once' }, { headers: withKey('create-1', user.auth) }));
  t.is(first.status, 201);
  const created = await body(first);
  const second = await app().request('/api/v1/clusters', json({ name: 'once' }, { headers: withKey('create-1', user.auth) }));
  t.is(second.status, 201);
  t.is(second.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(await body(second), created);
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id WHERE m.user_id = ${user.id}`), 1);
});

test('the same key with another body is 422; another principal has its own keys', async (t) => {
  const user = await signUp(app());
  await app().request('/api/v1/clusters', json({ name: 'a' }, { headers: withKey('k', user.auth) }));
  const other = await app().request('/api/v1/clusters', json({ name: 'b' }, { headers: withKey('k', user.auth) }));
  t.is(other.status, 422);
  t.is((await body(other)).statusCode, 422);
  const stranger = await signUp(app());
  t.is((await app().request('/api/v1/clusters', json({ name: 'b' }, { headers: withKey('k', stranger.auth) }))).status, 201);
});

test('a key over 255 characters is 400; an error answer is replayed too', async (t) => {
  const user = await signUp(app());
  const long = await app().request('/api/v1/clusters', json({ name: 'x' }, { headers: withKey('k'.repeat(256), user.auth) }));
  t.is(long.status, 400);
  t.is((await body(long)).details[0].field, 'Idempotency-Key');
  const missing = () =>
    app().request('/api/v1/invitations/accept', json({ token: `gsm_invite_${'A'.repeat(43)}` }, { headers: withKey('accept-1', user.auth) }));
  const first = await missing();
  t.is(first.status, 404);
  const replay = await missing();
  t.is(replay.status, 404);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(await body(replay), await body(first));
});

test('power jobs: a replayed START answers the same job and queues no second one', async (t) => {
  const user = await signUp(app());
  const cluster = await body(await app().request('/api/v1/clusters', json({ name: 'c' }, { headers: user.auth })));
  const machine = await body(await app().request(`/api/v1/clusters/${cluster.id}/machines`, json({ name: 'm' }, { headers: user.auth })));
  const server = await body(
    await app().request(
      `/api/v1/clusters/${cluster.id}/servers`,
      json(
        { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, autoInstall: false },
        { headers: user.auth },
      ),
    ),
  );
  const start = () => app().request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: withKey('start-1', user.auth) });
  const first = await start();
  const second = await start();
  t.is(first.status, 202);
  t.is(second.status, 202);
  t.is((await body(second)).id, (await body(first)).id);
  t.is(second.headers.get('location'), first.headers.get('location'));
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM jobs WHERE server_id = ${server.id}`), 1);
});

test('two requests racing with one key act once', async (t) => {
  const user = await signUp(app());
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => app().request('/api/v1/clusters', json({ name: 'race' }, { headers: withKey('race-1', user.auth) }))),
  );
  const statuses = answers.map((answer) => answer.status);
  t.true(
    statuses.every((status) => status === 201 || status === 409),
    statuses.join(','),
  );
  t.true(statuses.includes(201));
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id WHERE m.user_id = ${user.id}`), 1);
});

/** A server to start, and a START with `key` as the given user. */
async function startableServer(user: Awaited<ReturnType<typeof signUp>>) {
  const cluster = await body(await app().request('/api/v1/clusters', json({ name: 'c' }, { headers: user.auth })));
  const machine = await body(await app().request(`/api/v1/clusters/${cluster.id}/machines`, json({ name: 'm' }, { headers: user.auth })));
  const server = await body(
    await app().request(
      `/api/v1/clusters/${cluster.id}/servers`,
      json(
        { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, autoInstall: false },
        { headers: user.auth },
      ),
    ),
  );
  return {
    serverId: server.id as string,
    start: (key: string) => app().request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: withKey(key, user.auth) }),
  };
}

test("a job accepted with an Idempotency-Key carries it in the Job's idempotencyKey", async (t) => {
  const user = await signUp(app());
  const { start } = await startableServer(user);
  const answer = await body(await start('keyed-start'));
  t.is(answer.idempotencyKey, 'keyed-start');
  t.is((await body(await app().request(`/api/v1/jobs/${answer.id}`, { headers: user.auth }))).idempotencyKey, 'keyed-start');
});

test('a web node that died between accepting the job and storing the answer: a retry answers that job, and no second job is ever made', async (t) => {
  const user = await signUp(app());
  const { serverId, start } = await startableServer(user);
  const first = await body(await start('crash-1'));
  // What a crash between the accepting statement and the stored answer leaves: the job, and the key still claimed.
  await app().pool.query(sql.unsafe`UPDATE idempotency_keys SET status = NULL, body = NULL, location = NULL WHERE key = 'crash-1'`);

  const retry = await start('crash-1');
  t.is(retry.status, 202);
  t.is(retry.headers.get('idempotent-replayed'), 'true');
  t.is(retry.headers.get('location'), `/api/v1/jobs/${first.id}`);
  t.is((await body(retry)).id, first.id);

  // Long after the claim would count as abandoned, the job still answers for the key.
  await app().pool.query(sql.unsafe`UPDATE idempotency_keys SET created_at = now() - interval '10 minutes' WHERE key = 'crash-1'`);
  const later = await start('crash-1');
  t.is(later.status, 202);
  t.is((await body(later)).id, first.id);
  t.is(Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM jobs WHERE server_id = ${serverId}`)), 1);
});

test('request hashes are keyed with a server secret, and a password change keeps nothing of its body', async (t) => {
  const user = await signUp(app());
  const sha256 = (method: string, path: string, sent: unknown) =>
    createHash('sha256')
      .update(`${method} ${path}\n${JSON.stringify(sent)}`)
      .digest('hex');
  const change = { currentPassword: PASSWORD, newPassword: 'another good passphrase' };
  const changed = await app().request('/api/v1/account/password', json(change, { headers: withKey('pw-1', user.auth) }));
  t.is(changed.status, 200);
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM idempotency_keys WHERE principal = ${`user:${user.id}`}`), 0, 'nothing kept');

  // Ordinary POSTs are still de-duplicated by their key, and what is kept is not the plain SHA-256 of the body.
  const first = await app().request('/api/v1/clusters', json({ name: 'keyed' }, { headers: withKey('c-1', user.auth) }));
  t.is(first.status, 201);
  const again = await app().request('/api/v1/clusters', json({ name: 'keyed' }, { headers: withKey('c-1', user.auth) }));
  t.is(again.headers.get('idempotent-replayed'), 'true');
  const hashes = await app().pool.anyFirst(sql.unsafe`SELECT request_hash FROM idempotency_keys WHERE principal = ${`user:${user.id}`}`);
  t.is(hashes.length, 1);
  t.false(hashes.includes(sha256('POST', '/api/v1/clusters', { name: 'keyed' })));
  t.false(hashes.includes(sha256('POST', '/api/v1/account/password', change)));
});
