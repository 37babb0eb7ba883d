import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp } from '../support/identity.ts';
import { until } from '../support/wait.ts';

const app = useTestApp(test);

test('a token is shown once, stored hashed, listed without secret or userId, and works at once', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const response = await app().request('/api/v1/account/tokens', json({ name: 'CI', clusterIds: [clusterId] }, { headers: user.auth }));
  t.is(response.status, 201);
  const created = await body(response);
  t.regex(created.token, /^gsm_live_[0-9A-Za-z]{43}$/);
  t.is(created.userId, user.id);
  t.deepEqual(created.clusterIds, [clusterId]);
  t.is(created.expiresAt, null);
  t.is(created.lastUsedAt, null);

  const stored = await app().pool.one(sql.unsafe`SELECT encode(token_hash, 'hex') AS hash FROM api_tokens WHERE id = ${created.id}`);
  t.is((stored as { hash: string }).hash.length, 64, 'a SHA-256, not the secret');

  const list = await body(await app().request('/api/v1/account/tokens', { headers: user.auth }));
  t.deepEqual(Object.keys(list), ['tokens']);
  t.deepEqual(Object.keys(list.tokens[0]).sort(), ['clusterIds', 'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name']);

  const auth = { Authorization: `Bearer ${created.token}` };
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: auth })).status, 200);
  // Written after the answer (reads do not wait for it): poll briefly.
  let lastUsedAt = null;
  for (let attempt = 0; attempt < 50 && !lastUsedAt; attempt++) {
    lastUsedAt = (await body(await app().request('/api/v1/account/tokens', { headers: user.auth }))).tokens[0].lastUsedAt;
    if (!lastUsedAt) await new Promise((done) => setTimeout(done, 20));
  }
  t.truthy(lastUsedAt, 'lastUsedAt recorded');
});

test('lastUsedAt is written at most once a minute', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);
  await app().request('/api/v1/account', { headers: token.auth });
  const lastUsed = () => app().pool.oneFirst(sql.unsafe`SELECT last_used_at FROM api_tokens WHERE id = ${token.id}`);
  await until(async () => (await lastUsed()) !== null, 'the first use to be written', 10_000); // written after the answer
  const first = await lastUsed();
  for (let index = 0; index < 5; index++) await app().request('/api/v1/account', { headers: token.auth });
  await new Promise((done) => setTimeout(done, 100));
  t.is(await lastUsed(), first);
});

test('revoked and expired tokens are 401 on the very next request', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);
  t.is((await app().request('/api/v1/account', { headers: token.auth })).status, 200);
  const revoke = await app().request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: user.auth });
  t.is(revoke.status, 200);
  t.is((await app().request('/api/v1/account', { headers: token.auth })).status, 401);
  t.is((await app().request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: user.auth })).status, 404);

  const expiring = await createApiToken(app(), user, [clusterId], { expiresAt: new Date(Date.now() + 60_000).toISOString() });
  t.is((await app().request('/api/v1/account', { headers: expiring.auth })).status, 200);
  await app().pool.query(sql.unsafe`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ${expiring.id}`);
  const expired = await app().request('/api/v1/account', { headers: expiring.auth });
  t.is(expired.status, 401);
  t.regex((await body(expired)).message, /expired/);
});

test('tokens can only be scoped to clusters the user belongs to, and must not be already expired', async (t) => {
  const user = await signUp(app());
  const other = await signUp(app());
  const mine = await createCluster(app(), user);
  const theirs = await createCluster(app(), other);
  const foreign = await app().request('/api/v1/account/tokens', json({ name: 'x', clusterIds: [mine, theirs] }, { headers: user.auth }));
  t.is(foreign.status, 400);
  t.deepEqual((await body(foreign)).details, [{ field: 'clusterIds.1', message: 'not a cluster you belong to' }]);
  const none = await app().request('/api/v1/account/tokens', json({ name: 'x', clusterIds: [] }, { headers: user.auth }));
  t.is(none.status, 400);
  const past = await app().request(
    '/api/v1/account/tokens',
    json({ name: 'x', clusterIds: [mine], expiresAt: '2020-01-01T00:00:00Z' }, { headers: user.auth }),
  );
  t.is(past.status, 400);
  t.is((await body(past)).details[0].field, 'expiresAt');
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM api_tokens WHERE user_id = ${user.id}`), 0);
});

test("a token sees only its scope, and cannot delete another user's token", async (t) => {
  const user = await signUp(app());
  const a = await createCluster(app(), user, 'A');
  const b = await createCluster(app(), user, 'B');
  const token = await createApiToken(app(), user, [a]);
  t.is((await app().request(`/api/v1/clusters/${a}`, { headers: token.auth })).status, 200);
  const outside = await app().request(`/api/v1/clusters/${b}`, { headers: token.auth });
  t.is(outside.status, 403);
  t.regex((await body(outside)).message, /not scoped/);
  const list = await body(await app().request('/api/v1/clusters', { headers: token.auth }));
  t.deepEqual(
    list.data.map((cluster: { id: string }) => cluster.id),
    [a],
  );

  const stranger = await signUp(app());
  t.is((await app().request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: stranger.auth })).status, 404);
});

/** Invites `user` into `clusterId` as `role` and accepts, through the API. */
async function inviteAndAccept(owner: { auth: Record<string, string> }, clusterId: string, user: { email: string; auth: Record<string, string> }) {
  const invited = await body(
    await app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: user.email, role: 'ADMIN' }, { headers: owner.auth })),
  );
  const accepted = await app().request('/api/v1/invitations/accept', json({ token: invited.token }, { headers: user.auth }));
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${await accepted.text()}`);
}

const scopeRows = (tokenId: string) => app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM api_token_clusters WHERE token_id = ${tokenId}`);

test("a removed member's token loses that cluster for good: inviting the user again does not bring it back", async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const member = await signUp(app());
  await inviteAndAccept(owner, clusterId, member);
  const token = await createApiToken(app(), member, [clusterId]);
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: token.auth })).status, 200);

  t.is((await app().request(`/api/v1/clusters/${clusterId}/members/${member.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: token.auth })).status, 403);
  t.is(await scopeRows(token.id), 0);

  await inviteAndAccept(owner, clusterId, member);
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: member.auth })).status, 200, 'the member is back');
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: token.auth })).status, 403, 'the old token is not');
});

test('a member who leaves drops that cluster from their tokens, and only that one', async (t) => {
  const owner = await signUp(app());
  const left = await createCluster(app(), owner);
  const kept = await createCluster(app(), owner);
  const member = await signUp(app());
  await inviteAndAccept(owner, left, member);
  await inviteAndAccept(owner, kept, member);
  const token = await createApiToken(app(), member, [left, kept]);
  const others = await createApiToken(app(), owner, [left]);

  t.is((await app().request(`/api/v1/clusters/${left}/members/me`, { method: 'DELETE', headers: member.auth })).status, 200);
  t.deepEqual(await app().pool.anyFirst(sql.unsafe`SELECT cluster_id::text FROM api_token_clusters WHERE token_id = ${token.id}`), [kept]);
  t.is((await app().request(`/api/v1/clusters/${kept}`, { headers: token.auth })).status, 200);
  t.is(await scopeRows(others.id), 1, "another user's token in that cluster is untouched");

  t.is((await app().request(`/api/v1/clusters/${kept}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.is(await scopeRows(token.id), 0, 'a deleted cluster leaves no scope behind');
});

test('a user holds at most 25 active API tokens: the 26th is 409; expired and revoked ones do not count', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const first = await createApiToken(app(), user, [clusterId]);
  // An expired token does not count.
  await app().pool.query(sql.unsafe`
    INSERT INTO api_tokens (user_id, name, token_hash, expires_at) VALUES (${user.id}, 'old', ${sql.binary(Buffer.alloc(32, 7))}, now() - interval '1 day')`);
  for (let index = 1; index < 25; index++) await createApiToken(app(), user, [clusterId]);
  const refused = await app().request('/api/v1/account/tokens', json({ name: 'one too many', clusterIds: [clusterId] }, { headers: user.auth }));
  t.is(refused.status, 409);
  t.regex((await body(refused)).message, /25 active API tokens/);
  t.is(Number(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM api_tokens WHERE user_id = ${user.id}`)), 26, 'nothing was created');

  t.is((await app().request(`/api/v1/account/tokens/${first.id}`, { method: 'DELETE', headers: user.auth })).status, 200);
  t.is((await app().request('/api/v1/account/tokens', json({ name: 'replacement', clusterIds: [clusterId] }, { headers: user.auth }))).status, 201);
});
