/**
 * Regressions found in review: API tokens cannot manage tokens or widen their own scope, one-time secrets are never
 * kept for idempotent replay, NUL characters are a 400, and an expired invitation does not block a new one.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

test('API tokens cannot list, mint or revoke tokens', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);
  t.is((await app().request('/api/v1/account/tokens', { headers: token.auth })).status, 403);
  t.is((await app().request('/api/v1/account/tokens', json({ name: 'child', clusterIds: [clusterId] }, { headers: token.auth }))).status, 403);
  t.is((await app().request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: token.auth })).status, 403);
  t.is((await app().request('/api/v1/account/tokens', { headers: user.auth })).status, 200, 'a session can');
});

test("an API token's scope never grows: not by creating a cluster, not by accepting an invitation", async (t) => {
  const user = await signUp(app());
  const mine = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [mine]);
  const created = await body(await app().request('/api/v1/clusters', json({ name: 'new' }, { headers: token.auth })));
  t.is((await app().request(`/api/v1/clusters/${created.id}`, { headers: token.auth })).status, 403);
  t.is((await app().request(`/api/v1/clusters/${created.id}`, { headers: user.auth })).status, 200);

  const other = await signUp(app());
  const theirs = await createCluster(app(), other);
  const invitation = await body(
    await app().request(`/api/v1/clusters/${theirs}/invitations`, json({ email: user.email, role: 'VIEWER' }, { headers: other.auth })),
  );
  t.is((await app().request('/api/v1/invitations/accept', json({ token: invitation.token }, { headers: token.auth }))).status, 200);
  t.is((await app().request(`/api/v1/clusters/${theirs}`, { headers: token.auth })).status, 403);
  t.is((await app().request(`/api/v1/clusters/${theirs}`, { headers: user.auth })).status, 200);
});

test('one-time secrets are not kept for idempotent replay', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const headers = { ...user.auth, 'Idempotency-Key': 'token-once' };
  const first = await body(await app().request('/api/v1/account/tokens', json({ name: 'ci', clusterIds: [clusterId] }, { headers })));
  t.regex(first.token, /^gsm_live_/);
  const stored = JSON.stringify(await app().pool.oneFirst(sql.unsafe`SELECT body FROM idempotency_keys WHERE key = 'token-once'`));
  t.false(stored.includes(first.token));
  const replay = await app().request('/api/v1/account/tokens', json({ name: 'ci', clusterIds: [clusterId] }, { headers }));
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  const replayed = await body(replay);
  t.is(replayed.id, first.id);
  t.false('token' in replayed);

  const machineKey = { ...user.auth, 'Idempotency-Key': 'machine-once' };
  const machine = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'm' }, { headers: machineKey })));
  const machineStored = JSON.stringify(await app().pool.oneFirst(sql.unsafe`SELECT body FROM idempotency_keys WHERE key = 'machine-once'`));
  t.false(machineStored.includes(machine.agentToken));
});

test('NUL characters are a 400, never a 500', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const created = await app().request('/api/v1/clusters', json({ name: 'a\u0000b' }, { headers: user.auth }));
  t.is(created.status, 400);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/audit-log?action=%00`, { headers: user.auth })).status, 400);
  const machine = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'm' }, { headers: user.auth })));
  const env = await app().request(
    `/api/v1/clusters/${clusterId}/servers`,
    json(
      { name: 's', gameType: 'RUST', machineId: machine.id, gamePort: 28015, queryPort: 28016, rconPort: 28017, env: { A: 'x\u0000y' } },
      { headers: user.auth },
    ),
  );
  t.is(env.status, 400);
});

test('an expired invitation does not block a new one to the same address', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const invite = () =>
    app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: 'late@example.test', role: 'VIEWER' }, { headers: owner.auth }));
  const first = await body(await invite());
  await app().pool.query(sql.unsafe`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = ${first.id}`);
  const second = await invite();
  t.is(second.status, 201);
  const list = await body(await app().request(`/api/v1/clusters/${clusterId}/invitations?sort=createdAt`, { headers: owner.auth }));
  t.deepEqual(
    list.data.map((row: { status: string }) => row.status),
    ['EXPIRED', 'PENDING'],
  );
});
