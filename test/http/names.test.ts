/**
 * Every name the API accepts (cluster, machine, server, task, token, backup, display name) is one line: a control character or
 * a Unicode line or paragraph separator is refused with a 400 naming the field, and nothing is stored.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const SERVER = { gameType: 'RUST', gamePort: 40000, queryPort: 40001, rconPort: 40002 };
/** Line feed, carriage return, tab, escape, DEL, NEL (C1), line separator, paragraph separator. */
const BREAKERS = ['\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029'];
const bad = (breaker: string) => `Rust EU${breaker}Your account was suspended, sign in at https://evil.example`;

async function refused(t: import('ava').ExecutionContext, response: Response, field: string, what: string) {
  const answer = await body(response);
  t.is(response.status, 400, `${what}: ${JSON.stringify(answer)}`);
  t.is(answer.error, 'Bad Request', what);
  t.true(
    (answer.details ?? []).some((detail: { field: string; message: string }) => detail.field === field && /control characters/.test(detail.message)),
    `${what}: ${JSON.stringify(answer)}`,
  );
}

test('a name with a line break or other control character is a 400 naming the field, and nothing is stored', async (t) => {
  const owner = await signUp(app(), 'owner');
  const clusterId = await createCluster(app(), owner, 'Rust EU');
  const machine = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await body(
    await app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, name: 'main', machineId: machine.id }, { headers: owner.auth })),
  );
  t.truthy(server.id, JSON.stringify(server));
  const counts = () =>
    app().pool.one(sql.unsafe`
      SELECT (SELECT count(*) FROM clusters)::int AS clusters, (SELECT count(*) FROM machines)::int AS machines,
             (SELECT count(*) FROM servers)::int AS servers, (SELECT count(*) FROM tasks)::int AS tasks,
             (SELECT count(*) FROM api_tokens)::int AS tokens, (SELECT count(*) FROM backups)::int AS backups, (SELECT count(*) FROM users)::int AS users,
             (SELECT string_agg(name, ',') FROM clusters) AS "clusterNames", (SELECT string_agg(name, ',') FROM servers) AS "serverNames"`);
  const before = await counts();

  for (const breaker of BREAKERS) {
    const name = bad(breaker);
    const what = `name with U+${breaker.codePointAt(0)!.toString(16).padStart(4, '0')}`;
    const as = (payload: unknown, method = 'POST') => json(payload, { method, headers: owner.auth });
    await refused(t, await app().request('/api/v1/clusters', as({ name })), 'name', `cluster ${what}`);
    await refused(t, await app().request(`/api/v1/clusters/${clusterId}`, as({ name }, 'PATCH')), 'name', `cluster rename ${what}`);
    await refused(t, await app().request(`/api/v1/clusters/${clusterId}/machines`, as({ name })), 'name', `machine ${what}`);
    await refused(t, await app().request(`/api/v1/clusters/${clusterId}/servers`, as({ ...SERVER, name, machineId: machine.id })), 'name', `server ${what}`);
    await refused(t, await app().request(`/api/v1/servers/${server.id}`, as({ name }, 'PATCH')), 'name', `server rename ${what}`);
    const task = { name, schedule: '0 4 * * *', serverIds: [server.id], steps: [{ type: 'RESTART' }] };
    await refused(t, await app().request(`/api/v1/clusters/${clusterId}/tasks`, as(task)), 'name', `task ${what}`);
    await refused(t, await app().request('/api/v1/account/tokens', as({ name, clusterIds: [clusterId] })), 'name', `token ${what}`);
    await refused(t, await app().request(`/api/v1/servers/${server.id}/backups`, as({ name })), 'name', `backup ${what}`);
    const registration = { email: `someone-${breaker.codePointAt(0)}@example.test`, password: 'long enough secret', displayName: name };
    await refused(t, await app().request('/auth/register', json(registration)), 'displayName', `display name ${what}`);
  }
  t.deepEqual(await counts(), before);

  // Spaces inside a name are fine, and the name is trimmed as before.
  const renamed = await app().request(`/api/v1/clusters/${clusterId}`, json({ name: '  Rust EU  main  ' }, { method: 'PATCH', headers: owner.auth }));
  t.is(renamed.status, 200);
  t.is((await body(renamed)).name, 'Rust EU  main');
});
