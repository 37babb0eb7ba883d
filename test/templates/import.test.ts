/**
 * `POST /api/v1/clusters/<id>/templates/import` (docs/templates.md#importing-eggs) through the whole stack: OWNER and
 * ADMIN import eggs (text, JSON or YAML, or a URL served by a local server), audited, the template listed as the
 * cluster's; what could not be mapped is in the answer; bad documents are 400s that change nothing; others may not.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
const egg = (file: string) => readFileSync(new URL(`../fixtures/eggs/${file}`, import.meta.url), 'utf8');

test('an OWNER imports a PTDL_v2 egg: the template is the cluster’s, audited, with what was not mapped', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const response = await app().request(`/api/v1/clusters/${clusterId}/templates/import`, json({ text: egg('ptdl-v2.json') }, { headers: owner.auth }));
  const answer = await body(response);
  t.is(response.status, 201, JSON.stringify(answer));
  t.is(answer.format, 'PTDL_v2');
  t.like(answer.template, { clusterId, builtIn: false, slug: 'harbor-siege', name: 'Harbor Siege', version: 1, gameType: 'CUSTOM' });
  t.is(response.headers.get('location'), `/api/v1/clusters/${clusterId}/templates/${answer.template.id}`);
  t.deepEqual(answer.template.document.stop, { mode: 'SIGNAL', signal: 'SIGINT', graceSeconds: 30 });
  t.deepEqual(answer.tools, ['bash', 'curl', 'tar']);
  t.is(answer.skippedLines.length, 3);
  t.true(answer.unmapped.some((line: string) => line.startsWith('variable QUERY_PORT')));
  const listed = await body(await app().request(`/api/v1/clusters/${clusterId}/templates`, { headers: owner.auth }));
  t.deepEqual(
    listed.data.map((template: { id: string }) => template.id),
    [answer.template.id],
  );
  const audit = await app().pool.anyFirst(
    sql.unsafe`SELECT action FROM audit_log WHERE cluster_id = ${clusterId} AND target_id = ${answer.template.id} ORDER BY action`,
  );
  t.deepEqual(audit, ['template.create', 'template.import']);

  // The same id again is a conflict; another id is another template.
  const again = await app().request(`/api/v1/clusters/${clusterId}/templates/import`, json({ text: egg('ptdl-v2.json') }, { headers: owner.auth }));
  t.is(again.status, 409);
  const renamed = await app().request(
    `/api/v1/clusters/${clusterId}/templates/import`,
    json({ text: egg('ptdl-v2.json'), id: 'harbor-siege-2' }, { headers: owner.auth }),
  );
  t.is(renamed.status, 201);
  t.is((await body(renamed)).template.slug, 'harbor-siege-2');
});

test('YAML eggs and eggs read from a URL are imported; a URL that fails is a 400 saying why', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const yaml = await app().request(`/api/v1/clusters/${clusterId}/templates/import`, json({ text: egg('plcn-v3.yaml') }, { headers: owner.auth }));
  t.is(yaml.status, 201);
  t.is((await body(yaml)).format, 'PLCN_v3');

  const server = createServer((request, response) => {
    if (request.url === '/egg.yaml') return response.end(egg('plcn-v2.yaml'));
    if (request.url === '/moved') return response.writeHead(301, { location: '/egg.yaml' }).end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fromUrl = await app().request(`/api/v1/clusters/${clusterId}/templates/import`, json({ url: `${base}/egg.yaml` }, { headers: owner.auth }));
  const answer = await body(fromUrl);
  t.is(fromUrl.status, 201, JSON.stringify(answer));
  t.like(answer, { format: 'PLCN_v2', template: { slug: 'ember-outpost' } });
  t.is(answer.template.document.sources[0].url, `${base}/egg.yaml`);
  const moved = await app().request(`/api/v1/clusters/${clusterId}/templates/import`, json({ url: `${base}/moved` }, { headers: owner.auth }));
  t.is(moved.status, 400);
  t.like(await body(moved), { details: [{ field: 'url', message: 'the URL answered HTTP 301 (redirects are not followed: /egg.yaml)' }] });
});

test('what is not an egg is a 400 naming each problem, and changes nothing', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const refused = async (payload: unknown) => {
    const response = await app().request(`/api/v1/clusters/${clusterId}/templates/import`, json(payload, { headers: owner.auth }));
    t.is(response.status, 400);
    return body(response);
  };
  t.like(await refused({ text: '{"meta":{"version":"PTDL_v7"},"name":"x","startup":"x"}' }), {
    statusCode: 400,
    details: [{ field: 'meta.version', message: 'must be one of PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2, PLCN_v3 (this document says PTDL_v7)' }],
  });
  const missing = await refused({ text: '{"meta":{"version":"PTDL_v2"}}' });
  t.deepEqual(missing.details.map((detail: { field: string }) => detail.field).sort(), ['name', 'startup']);
  t.truthy((await refused({ text: 'name: [unclosed' })).details);
  t.truthy((await refused({ text: 'x\u0000y' })).details);
  t.truthy((await refused({})).details);
  t.truthy((await refused({ text: egg('ptdl-v1.json'), url: 'https://example.org/egg.json' })).details);
  t.truthy((await refused({ url: 'ftp://example.org/egg.json' })).details);
  t.truthy((await refused({ text: egg('ptdl-v1.json'), id: 'Not A Slug' })).details);
  t.truthy((await refused({ text: egg('ptdl-v1.json'), extra: true })).details);
  const count = await app().pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM cluster_templates WHERE cluster_id = ${clusterId}`);
  t.is(count, 0);
});

test('only OWNER and ADMIN import; another cluster’s members cannot', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const [admin, moderator, viewer, stranger] = [await signUp(app()), await signUp(app()), await signUp(app()), await signUp(app())];
  await addMember(app(), clusterId, admin, 'ADMIN');
  await addMember(app(), clusterId, moderator, 'MODERATOR');
  await addMember(app(), clusterId, viewer, 'VIEWER');
  await createCluster(app(), stranger);
  const post = (user: typeof owner, id: string) =>
    app().request(`/api/v1/clusters/${clusterId}/templates/import`, json({ text: egg('plcn-v1.json'), id }, { headers: user.auth }));
  t.is((await post(admin, 'by-admin')).status, 201);
  t.is((await post(moderator, 'by-moderator')).status, 403);
  t.is((await post(viewer, 'by-viewer')).status, 403);
  t.true([403, 404].includes((await post(stranger, 'by-stranger')).status));
  const slugs = await app().pool.anyFirst(sql.unsafe`SELECT slug FROM cluster_templates WHERE cluster_id = ${clusterId}`);
  t.deepEqual(slugs, ['by-admin']);
});
