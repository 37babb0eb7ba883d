/**
 * The templates API (docs/templates.md#the-api): members read the built-ins and their cluster's own, only OWNER and
 * ADMIN change them (audited); another cluster's templates are neither listed nor readable nor usable by a server;
 * bad documents and variables are 400s that change nothing, never 500s.
 */
import test from 'ava';
import { body, json, useTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const document = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Game ${id}`,
  tags: ['mine'],
  variables: [{ name: 'LEVEL', default: '1', validation: { type: 'integer', min: 1, max: 9 } }],
  start: { command: './game --level {{LEVEL}}' },
  ready: { mode: 'IMMEDIATE' },
  stop: { mode: 'SIGNAL', signal: 'SIGINT' },
  console: { mode: 'NONE' },
  ports: [{ name: 'game', protocol: 'udp' }],
  ...extra,
});

test('members read, OWNER/ADMIN write (audited), other clusters see nothing, and bad input is a 400', async (t) => {
  const owner = await signUp(app());
  const viewer = await signUp(app());
  const admin = await signUp(app());
  const stranger = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  await addMember(app(), clusterId, viewer, 'VIEWER');
  await addMember(app(), clusterId, admin, 'ADMIN');
  const otherCluster = await createCluster(app(), stranger);
  const post = (who: { auth: Record<string, string> }, cluster: string, doc: unknown) =>
    app().request(`/api/v1/clusters/${cluster}/templates`, json(doc, { headers: who.auth }));

  t.is((await post(viewer, clusterId, document('a'))).status, 403);
  t.is((await post(stranger, clusterId, document('a'))).status, 403);
  const created = await post(admin, clusterId, document('a'));
  t.is(created.status, 201);
  const template = (await body(created)) as { id: string; version: number };
  t.is((await post(owner, clusterId, document('a'))).status, 409);

  // Bad documents: each a 400 naming the field; NUL in a key is refused, not a 500.
  const refused = async (doc: unknown, field: RegExp) => {
    const response = await post(owner, clusterId, doc);
    t.is(response.status, 400, JSON.stringify(doc));
    t.regex(JSON.stringify(await body(response)), field);
  };
  await refused(document('b', { ready: { mode: 'LINE', pattern: '(a+)+\\1' } }), /ready\.pattern/);
  await refused(document('b', { start: { command: './game {{NOPE}}' } }), /start\.command.*unknown placeholder/);
  await refused(document('b', { stop: { mode: 'COMMAND', command: 'quit' } }), /needs a console/);
  await refused(document('b', { ports: [{ name: 'query', protocol: 'udp' }] }), /game/);
  await refused(document('b', { start: { command: './game', env: { 'A\u0000': 'x' } } }), /NUL|environment/);
  await refused(document('B!'), /slug/);

  // Members read it (and the built-ins); the other cluster's owner neither lists nor reads it.
  const list = (who: { auth: Record<string, string> }, query = '') => app().request(`/api/v1/templates${query}`, { headers: who.auth });
  const seen = (await body(await list(viewer, '?tag=mine'))) as { data: { id: string }[] };
  t.deepEqual(
    seen.data.map((entry) => entry.id),
    [template.id],
  );
  const builtIns = (await body(await list(stranger))) as { data: { id: string; builtIn: boolean }[]; meta: { total: number } };
  t.true(builtIns.data.every((entry) => entry.builtIn));
  t.true(builtIns.data.some((entry) => entry.id === 'rust'));
  t.is((await app().request(`/api/v1/templates/${template.id}`, { headers: stranger.auth })).status, 404);
  t.is((await app().request(`/api/v1/templates/${template.id}`, { headers: viewer.auth })).status, 200);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/templates/${template.id}`, { headers: stranger.auth })).status, 403);
  t.deepEqual((await app().request(`/api/v1/templates?name=RUST`, { headers: viewer.auth }).then(body)).data.map((found: { id: string }) => found.id).sort(), [
    'rust',
    'rust-oxide',
  ]);

  // A server of the other cluster cannot run it.
  const machine = (await body(await app().request(`/api/v1/clusters/${otherCluster}/machines`, json({ name: 'm' }, { headers: stranger.auth })))) as {
    id: string;
  };
  const server = await app().request(
    `/api/v1/clusters/${otherCluster}/servers`,
    json(
      { name: 's', machineId: machine.id, gameType: 'CUSTOM', templateId: template.id, gamePort: 31001, queryPort: 31002, rconPort: 31003 },
      { headers: stranger.auth },
    ),
  );
  t.is(server.status, 400);
  t.regex(JSON.stringify(await body(server)), /templateId.*no template/);
  // A CUSTOM template on a RUST server: 400.
  const mismatch = await app().request(
    `/api/v1/clusters/${otherCluster}/servers`,
    json(
      { name: 's', machineId: machine.id, gameType: 'RUST', templateId: 'valheim', gamePort: 31001, queryPort: 31002, rconPort: 31003 },
      { headers: stranger.auth },
    ),
  );
  t.is(mismatch.status, 400);
  t.regex(JSON.stringify(await body(mismatch)), /VALHEIM template/);

  // Replace (version + 1) and delete, both audited; VIEWER may do neither.
  const patch = (who: { auth: Record<string, string> }) =>
    app().request(`/api/v1/clusters/${clusterId}/templates/${template.id}`, json(document('a', { name: 'Renamed' }), { method: 'PATCH', headers: who.auth }));
  t.is((await patch(viewer)).status, 403);
  const patched = await patch(owner);
  t.is(patched.status, 200);
  t.like(await body(patched), { version: 2, name: 'Renamed' });
  t.is((await app().request(`/api/v1/clusters/${clusterId}/templates/${template.id}`, { method: 'DELETE', headers: viewer.auth })).status, 403);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/templates/${template.id}`, { method: 'DELETE', headers: admin.auth })).status, 204);
  t.is((await app().request(`/api/v1/templates/${template.id}`, { headers: owner.auth })).status, 404);
  const log = (await body(await app().request(`/api/v1/clusters/${clusterId}/audit-log`, { headers: owner.auth }))) as { data: { action: string }[] };
  const actions = log.data.map((entry) => entry.action);
  for (const action of ['template.create', 'template.update', 'template.delete']) t.true(actions.includes(action), action);
});
