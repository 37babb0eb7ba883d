import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const patch = (payload: unknown, headers: Record<string, string>) => json(payload, { method: 'PATCH', headers });

test('creating a cluster makes the creator OWNER; list, get, update, delete', async (t) => {
  const owner = await signUp(app());
  const created = await body(await app().request('/api/v1/clusters', json({ name: 'EU Rust', description: 'Main' }, { headers: owner.auth })));
  t.is(created.role, 'OWNER');
  t.deepEqual(created.counts, { machines: 0, servers: 0, members: 1 });
  t.is(created.description, 'Main');
  await createCluster(app(), owner, 'another');

  const list = await body(await app().request('/api/v1/clusters?sort=name&limit=1', { headers: owner.auth }));
  t.deepEqual(list.meta, { total: 2, page: 1, limit: 1, totalPages: 2 });
  t.is(list.data[0].name, 'another');

  const updated = await body(await app().request(`/api/v1/clusters/${created.id}`, patch({ description: null }, owner.auth)));
  t.is(updated.description, null);
  t.is(updated.name, 'EU Rust');
  t.is((await app().request(`/api/v1/clusters/${created.id}`, patch({}, owner.auth))).status, 400);

  t.is((await app().request(`/api/v1/clusters/${created.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.is((await app().request(`/api/v1/clusters/${created.id}`, { headers: owner.auth })).status, 404);
});

test('existence is revealed only to members: 403 for a non-member, 404 for an id that exists nowhere', async (t) => {
  const owner = await signUp(app());
  const stranger = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: stranger.auth })).status, 403);
  t.is((await app().request('/api/v1/clusters/0192f0c4-1a2b-7c3d-8e4f-0123456789ab', { headers: stranger.auth })).status, 404);
  t.is((await app().request('/api/v1/clusters/not-an-id', { headers: stranger.auth })).status, 404);
});

test('the last OWNER can be neither demoted nor removed; with a second owner both work', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const demote = await app().request(`/api/v1/clusters/${clusterId}/members/${owner.id}`, patch({ role: 'ADMIN' }, owner.auth));
  t.is(demote.status, 409);
  t.regex((await body(demote)).message, /at least one OWNER/);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/members/${owner.id}`, { method: 'DELETE', headers: owner.auth })).status, 409);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/members/me`, { method: 'DELETE', headers: owner.auth })).status, 409);

  const second = await signUp(app());
  await addMember(app(), clusterId, second, 'VIEWER');
  t.is((await app().request(`/api/v1/clusters/${clusterId}/members/${second.id}`, patch({ role: 'OWNER' }, owner.auth))).status, 200);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/members/${owner.id}`, patch({ role: 'ADMIN' }, second.auth))).status, 200);
  const members = await body(await app().request(`/api/v1/clusters/${clusterId}/members?sort=role`, { headers: second.auth }));
  t.deepEqual(members.data.map((member: { role: string }) => member.role).sort(), ['ADMIN', 'OWNER']);
});

test('two owners demoting each other at once leave one owner', async (t) => {
  const a = await signUp(app());
  const b = await signUp(app());
  const clusterId = await createCluster(app(), a);
  await addMember(app(), clusterId, b, 'OWNER');
  const answers = await Promise.all([
    app().request(`/api/v1/clusters/${clusterId}/members/${b.id}`, patch({ role: 'VIEWER' }, a.auth)),
    app().request(`/api/v1/clusters/${clusterId}/members/${a.id}`, patch({ role: 'VIEWER' }, b.auth)),
  ]);
  const owners = await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM cluster_members WHERE cluster_id = ${clusterId} AND role = 'OWNER'`);
  t.is(owners, 1);
  t.true(answers.some((answer) => answer.status === 200));
});

test('ADMIN manages MODERATOR and VIEWER only', async (t) => {
  const owner = await signUp(app());
  const admin = await signUp(app());
  const otherAdmin = await signUp(app());
  const viewer = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  await addMember(app(), clusterId, admin, 'ADMIN');
  await addMember(app(), clusterId, otherAdmin, 'ADMIN');
  await addMember(app(), clusterId, viewer, 'VIEWER');
  const url = (userId: string) => `/api/v1/clusters/${clusterId}/members/${userId}`;
  t.is((await app().request(url(viewer.id), patch({ role: 'MODERATOR' }, admin.auth))).status, 200);
  t.is((await app().request(url(viewer.id), patch({ role: 'ADMIN' }, admin.auth))).status, 403);
  t.is((await app().request(url(otherAdmin.id), patch({ role: 'VIEWER' }, admin.auth))).status, 403);
  t.is((await app().request(url(owner.id), { method: 'DELETE', headers: admin.auth })).status, 403);
  t.is((await app().request(url(viewer.id), { method: 'DELETE', headers: admin.auth })).status, 200);
  t.is((await app().request(url(viewer.id), { method: 'DELETE', headers: admin.auth })).status, 404);
  const invite = await app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: 'x@example.test', role: 'ADMIN' }, { headers: admin.auth }));
  t.is(invite.status, 403);
});

test('invitations: create (secret once), list, accept by the invitee only, then no longer pending', async (t) => {
  const owner = await signUp(app());
  const invitee = await signUp(app());
  const intruder = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const response = await app().request(
    `/api/v1/clusters/${clusterId}/invitations`,
    json({ email: invitee.email.toUpperCase(), role: 'MODERATOR' }, { headers: owner.auth }),
  );
  t.is(response.status, 201);
  const created = await body(response);
  t.regex(created.token, /^gsm_invite_[0-9A-Za-z]{43}$/);
  t.is(created.status, 'PENDING');
  t.is(created.email, invitee.email);
  t.true(Date.parse(created.expiresAt) - Date.now() > 6.9 * 24 * 3600 * 1000);

  const duplicate = await app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: invitee.email, role: 'VIEWER' }, { headers: owner.auth }));
  t.is(duplicate.status, 409);
  const listed = await body(await app().request(`/api/v1/clusters/${clusterId}/invitations?status=pending`, { headers: owner.auth }));
  t.is(listed.meta.total, 1);
  t.false('token' in listed.data[0]);

  const wrongPerson = await app().request('/api/v1/invitations/accept', json({ token: created.token }, { headers: intruder.auth }));
  t.is(wrongPerson.status, 403);
  const accepted = await app().request('/api/v1/invitations/accept', json({ token: created.token }, { headers: invitee.auth }));
  t.is(accepted.status, 200);
  t.is((await body(accepted)).role, 'MODERATOR');
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: invitee.auth })).status, 200);
  t.is((await app().request('/api/v1/invitations/accept', json({ token: created.token }, { headers: invitee.auth }))).status, 409);
  t.is((await app().request('/api/v1/invitations/accept', json({ token: 'gsm_invite_nope' }, { headers: invitee.auth }))).status, 404);

  const member = await app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: invitee.email, role: 'VIEWER' }, { headers: owner.auth }));
  t.is(member.status, 409, 'already a member');
});

test('revoked and expired invitations cannot be accepted', async (t) => {
  const owner = await signUp(app());
  const invitee = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const invite = async () =>
    body(await app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: invitee.email, role: 'VIEWER' }, { headers: owner.auth })));
  const first = await invite();
  t.is((await app().request(`/api/v1/clusters/${clusterId}/invitations/${first.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/invitations/${first.id}`, { method: 'DELETE', headers: owner.auth })).status, 409);
  t.is((await app().request('/api/v1/invitations/accept', json({ token: first.token }, { headers: invitee.auth }))).status, 409);

  const second = await invite();
  await app().pool.query(sql.unsafe`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = ${second.id}`);
  const expired = await app().request('/api/v1/invitations/accept', json({ token: second.token }, { headers: invitee.auth }));
  t.is(expired.status, 409);
  t.regex((await body(expired)).message, /expired/);
});

test('every change writes an audit entry; OWNER and ADMIN read the log with filters', async (t) => {
  const owner = await signUp(app());
  const viewer = await signUp(app(), 'audited-viewer');
  const clusterId = await createCluster(app(), owner);
  await addMember(app(), clusterId, viewer, 'VIEWER');
  await app().request(`/api/v1/clusters/${clusterId}`, patch({ name: 'Renamed' }, { ...owner.auth, 'X-Request-Id': 'audit-trace-1' }));
  await app().request(`/api/v1/clusters/${clusterId}/members/${viewer.id}`, patch({ role: 'MODERATOR' }, owner.auth));

  const log = await body(await app().request(`/api/v1/clusters/${clusterId}/audit-log`, { headers: owner.auth }));
  t.deepEqual(
    log.data.map((entry: { action: string }) => entry.action),
    ['member.update', 'cluster.update', 'cluster.create'],
  );
  const update = log.data[1];
  t.deepEqual(update.actor, { kind: 'USER', id: owner.id, name: update.actor.name });
  t.is(update.requestId, 'audit-trace-1');
  t.deepEqual(update.target, { type: 'cluster', id: clusterId, name: 'Renamed' }, 'the target named as it is today');
  t.deepEqual(log.data[0].target, { type: 'user', id: viewer.id, name: 'audited-viewer' });
  t.truthy(update.ip);

  const filtered = await body(
    await app().request(`/api/v1/clusters/${clusterId}/audit-log?action=member.update&targetId=${viewer.id}`, { headers: owner.auth }),
  );
  t.is(filtered.meta.total, 1);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/audit-log`, { headers: viewer.auth })).status, 403);

  // A change that fails writes nothing.
  const before = log.meta.total;
  await app().request(`/api/v1/clusters/${clusterId}/members/${owner.id}`, patch({ role: 'VIEWER' }, owner.auth));
  t.is((await body(await app().request(`/api/v1/clusters/${clusterId}/audit-log`, { headers: owner.auth }))).meta.total, before);
});
