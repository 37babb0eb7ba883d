/**
 * Who sees and changes a server's template variables (docs/templates.md#variables): members below OWNER/ADMIN do not
 * see variables the template does not mark userViewable, and change (PATCH) only those it marks userEditable (403
 * otherwise, nothing changed); secret values and secret defaults are never returned; a template switch keeps a secret
 * value secret.
 */
import test from 'ava';
import { body, json, useTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const document = (id: string, secretPlain = false) => ({
  id,
  name: `Game ${id}`,
  variables: [
    { name: 'MOTD', default: 'hi', userViewable: true, userEditable: true },
    { name: 'LEVEL', default: '1', userViewable: true, userEditable: false },
    { name: 'HIDDEN', default: 'h', userViewable: false, userEditable: false },
    { name: 'TOKEN', default: 'default-secret-value', secret: !secretPlain },
  ],
  // A secret goes to the game in its environment, never on its command line (readable by every account).
  start: { command: './game {{MOTD}} {{LEVEL}} {{HIDDEN}}', env: { GAME_TOKEN: '{{TOKEN}}' } },
  ready: { mode: 'IMMEDIATE' },
  stop: { mode: 'SIGNAL', signal: 'SIGINT' },
  console: { mode: 'NONE' },
  ports: [{ name: 'game', protocol: 'udp' }],
});

test('members see only viewable variables, change only editable ones; secrets and secret defaults are never returned', async (t) => {
  const owner = await signUp(app());
  const moderator = await signUp(app());
  const viewer = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  await addMember(app(), clusterId, moderator, 'MODERATOR');
  await addMember(app(), clusterId, viewer, 'VIEWER');
  const made = await app().request(`/api/v1/clusters/${clusterId}/templates`, json(document('vars'), { headers: owner.auth }));
  t.is(made.status, 201);
  const template = (await body(made)) as { id: string; document: { variables: Record<string, unknown>[] }; secretDefaults: string[] };
  // The secret default is not in the answer, only that there is one.
  t.false(JSON.stringify(template).includes('default-secret-value'));
  t.deepEqual(template.secretDefaults, ['TOKEN']);
  const read = (await body(await app().request(`/api/v1/templates/${template.id}`, { headers: viewer.auth }))) as Record<string, unknown>;
  t.false(JSON.stringify(read).includes('default-secret-value'));
  // A PATCH of the document as read back keeps the secret default (it is used, not shown).
  const replaced = await app().request(`/api/v1/clusters/${clusterId}/templates/${template.id}`, json(read.document, { method: 'PATCH', headers: owner.auth }));
  t.is(replaced.status, 200, JSON.stringify(await body(replaced.clone())));
  t.deepEqual(((await body(replaced)) as { secretDefaults: string[] }).secretDefaults, ['TOKEN']);

  const machine = (await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'm' }, { headers: owner.auth })))) as { id: string };
  const created = await app().request(
    `/api/v1/clusters/${clusterId}/servers`,
    json(
      {
        name: 's',
        machineId: machine.id,
        gameType: 'CUSTOM',
        templateId: template.id,
        gamePort: 32001,
        queryPort: 32002,
        rconPort: 32003,
        variables: { MOTD: 'welcome', LEVEL: '3', HIDDEN: 'shh', TOKEN: 'server-secret-1' },
      },
      { headers: owner.auth },
    ),
  );
  t.is(created.status, 201, JSON.stringify(await body(created.clone())));
  const server = (await body(created)) as { id: string; variables: Record<string, string>; secretVariables: Record<string, boolean> };
  t.deepEqual(server.variables, { MOTD: 'welcome', LEVEL: '3', HIDDEN: 'shh' });
  t.deepEqual(server.secretVariables, { TOKEN: true });

  // Below OWNER/ADMIN: the non-viewable variable is not shown, in the record and the lists.
  for (const who of [moderator, viewer]) {
    const one = (await body(await app().request(`/api/v1/servers/${server.id}`, { headers: who.auth }))) as typeof server;
    t.deepEqual(one.variables, { MOTD: 'welcome', LEVEL: '3' });
    t.deepEqual(one.secretVariables, { TOKEN: true });
    const listed = (await body(await app().request(`/api/v1/clusters/${clusterId}/servers`, { headers: who.auth }))) as { data: (typeof server)[] };
    t.deepEqual(listed.data[0]!.variables, { MOTD: 'welcome', LEVEL: '3' });
    const across = (await body(await app().request(`/api/v1/servers`, { headers: who.auth }))) as { data: (typeof server)[] };
    t.deepEqual(across.data[0]!.variables, { MOTD: 'welcome', LEVEL: '3' });
  }
  const asOwner = (await body(await app().request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))) as typeof server;
  t.deepEqual(asOwner.variables, { MOTD: 'welcome', LEVEL: '3', HIDDEN: 'shh' });

  // A MODERATOR changes an editable variable; not a non-editable one, a hidden one or any other setting; a VIEWER nothing.
  const patch = (who: { auth: Record<string, string> }, change: unknown) =>
    app().request(`/api/v1/servers/${server.id}`, json(change, { method: 'PATCH', headers: who.auth }));
  const changed = await patch(moderator, { variables: { MOTD: 'hello there' } });
  t.is(changed.status, 200, JSON.stringify(await body(changed.clone())));
  t.deepEqual(((await body(changed)) as typeof server).variables, { MOTD: 'hello there', LEVEL: '3' });
  for (const change of [{ variables: { LEVEL: '4' } }, { variables: { HIDDEN: 'x' } }, { variables: { TOKEN: 'x' } }, { name: 'renamed' }]) {
    const refused = await patch(moderator, change);
    t.is(refused.status, 403, JSON.stringify(change));
    t.regex(((await body(refused)) as { message: string }).message, /Only OWNER and ADMIN may change/);
  }
  t.is((await patch(viewer, { variables: { MOTD: 'x' } })).status, 403);
  const after = (await body(await app().request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))) as typeof server & { name: string };
  t.deepEqual(after.variables, { MOTD: 'hello there', LEVEL: '3', HIDDEN: 'shh' });
  t.is(after.name, 's');

  // A template switch to one whose TOKEN is plain: the stored secret stays a secret, never shown.
  const plain = (await body(await app().request(`/api/v1/clusters/${clusterId}/templates`, json(document('vars-plain', true), { headers: owner.auth })))) as {
    id: string;
  };
  const switched = await patch(owner, { templateId: plain.id });
  t.is(switched.status, 200, JSON.stringify(await body(switched.clone())));
  const record = (await body(switched)) as typeof server;
  t.false(JSON.stringify(record).includes('server-secret-1'));
  t.deepEqual(record.secretVariables, { TOKEN: true });
});
