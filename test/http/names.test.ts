/**
 * Every name the API accepts (cluster, machine, server, task, token, backup, display name) is one line: a control character,
 * a Unicode line or paragraph separator, a bidi control or a zero-width character is refused with a 400 naming the field,
 * and so is a name with nothing visible in it; nothing is stored.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const SERVER = { gameType: 'RUST', gamePort: 40000, queryPort: 40001, rconPort: 40002 };
/**
 * Line feed, carriage return, tab, escape, DEL, NEL (C1), line separator, paragraph separator; then bidi controls and
 * zero-width characters (Arabic letter mark, zero-width space…right-to-left mark, embeddings and overrides, word joiner and
 * invisible operators, isolates, byte order mark).
 */
const BREAKERS = [
  ...['\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029'],
  ...['\u061c', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e'],
  ...['\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\u2066', '\u2067', '\u2068', '\u2069', '\ufeff'],
];
const bad = (breaker: string) => `Rust EU${breaker}Your account was suspended, sign in at https://evil.example`;

async function refused(t: import('ava').ExecutionContext, response: Response, field: string, what: string, message = /control characters/) {
  const answer = await body(response);
  t.is(response.status, 400, `${what}: ${JSON.stringify(answer)}`);
  t.is(answer.error, 'Bad Request', what);
  t.true(
    (answer.details ?? []).some((detail: { field: string; message: string }) => detail.field === field && message.test(detail.message)),
    `${what}: ${JSON.stringify(answer)}`,
  );
}

type Fixture = { auth: { Authorization: string }; clusterId: string; machineId: string; serverId: string };

async function fixture(): Promise<Fixture> {
  const owner = await signUp(app(), 'owner');
  const clusterId = await createCluster(app(), owner, 'Rust EU');
  const machine = await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await body(
    await app().request(`/api/v1/clusters/${clusterId}/servers`, json({ ...SERVER, name: 'main', machineId: machine.id }, { headers: owner.auth })),
  );
  if (!server.id) throw new Error(JSON.stringify(server));
  return { auth: owner.auth, clusterId, machineId: machine.id, serverId: server.id };
}

const counts = () =>
  app().pool.one(sql.unsafe`
    SELECT (SELECT count(*) FROM clusters)::int AS clusters, (SELECT count(*) FROM machines)::int AS machines,
           (SELECT count(*) FROM servers)::int AS servers, (SELECT count(*) FROM tasks)::int AS tasks,
           (SELECT count(*) FROM api_tokens)::int AS tokens, (SELECT count(*) FROM backups)::int AS backups, (SELECT count(*) FROM users)::int AS users,
           (SELECT string_agg(name, ',' ORDER BY name) FROM clusters) AS "clusterNames", (SELECT string_agg(name, ',' ORDER BY name) FROM servers) AS "serverNames"`);

let registrations = 0;
/** Every place a name is given (each create and rename), each expected to refuse `name` with a 400 matching `message`. */
async function refusedEverywhere(t: import('ava').ExecutionContext, f: Fixture, name: string, what: string, message?: RegExp) {
  const as = (payload: unknown, method = 'POST') => json(payload, { method, headers: f.auth });
  await refused(t, await app().request('/api/v1/clusters', as({ name })), 'name', `cluster ${what}`, message);
  await refused(t, await app().request(`/api/v1/clusters/${f.clusterId}`, as({ name }, 'PATCH')), 'name', `cluster rename ${what}`, message);
  await refused(t, await app().request(`/api/v1/clusters/${f.clusterId}/machines`, as({ name })), 'name', `machine ${what}`, message);
  await refused(
    t,
    await app().request(`/api/v1/clusters/${f.clusterId}/servers`, as({ ...SERVER, name, machineId: f.machineId })),
    'name',
    `server ${what}`,
    message,
  );
  await refused(t, await app().request(`/api/v1/servers/${f.serverId}`, as({ name }, 'PATCH')), 'name', `server rename ${what}`, message);
  const task = { name, schedule: '0 4 * * *', serverIds: [f.serverId], steps: [{ type: 'RESTART' }] };
  await refused(t, await app().request(`/api/v1/clusters/${f.clusterId}/tasks`, as(task)), 'name', `task ${what}`, message);
  await refused(t, await app().request('/api/v1/account/tokens', as({ name, clusterIds: [f.clusterId] })), 'name', `token ${what}`, message);
  await refused(t, await app().request(`/api/v1/servers/${f.serverId}/backups`, as({ name })), 'name', `backup ${what}`, message);
  const registration = { email: `someone-${++registrations}@example.test`, password: 'long enough secret', displayName: name };
  await refused(t, await app().request('/auth/register', json(registration)), 'displayName', `display name ${what}`, message);
}

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).padStart(4, '0')}`;

test.serial(
  'a name with a line break, other control character, bidi control or zero-width character is a 400 naming the field, and nothing is stored',
  async (t) => {
    const f = await fixture();
    const before = await counts();
    for (const breaker of BREAKERS) await refusedEverywhere(t, f, bad(breaker), `name with ${codePoint(breaker)}`);
    t.deepEqual(await counts(), before);

    // Spaces inside a name are fine, and the name is trimmed as before.
    const renamed = await app().request(`/api/v1/clusters/${f.clusterId}`, json({ name: '  Rust EU  main  ' }, { method: 'PATCH', headers: f.auth }));
    t.is(renamed.status, 200);
    t.is((await body(renamed)).name, 'Rust EU  main');
  },
);

test.serial('every name is checked before it is trimmed: a control character at either end is refused, not trimmed away', async (t) => {
  const f = await fixture();
  const before = await counts();
  for (const breaker of ['\n', '\t', '\u2028', '\ufeff', '\u200b']) {
    await refusedEverywhere(t, f, `${breaker}Rust EU`, `name starting with ${codePoint(breaker)}`);
    await refusedEverywhere(t, f, `Rust EU${breaker}`, `name ending with ${codePoint(breaker)}`);
  }
  t.deepEqual(await counts(), before);
});

test.serial('a name with nothing visible in it (only spaces, separators and format characters) is a 400 naming the field', async (t) => {
  const f = await fixture();
  const before = await counts();
  // Soft hyphens, the Mongolian vowel separator and tag characters (format characters trimming keeps) around spaces
  // (an em space, an ideographic space): none is seen. Spaces alone are trimmed to an empty name, refused as such.
  for (const blank of ['\u00ad', '\u180e', '\u{e0041}\u{e0042}', ' \u2003\u00ad ', '\u00ad\u3000\u00a0\u00ad']) {
    await refusedEverywhere(t, f, blank, `name ${[...blank].map(codePoint).join(' ')}`, /visible character/);
  }
  t.deepEqual(await counts(), before);

  // One visible character is enough, whatever the script.
  const renamed = await app().request(`/api/v1/clusters/${f.clusterId}`, json({ name: '\u00a0سيرفر\u00a0' }, { method: 'PATCH', headers: f.auth }));
  t.is(renamed.status, 200);
  t.is((await body(renamed)).name, 'سيرفر');
});
