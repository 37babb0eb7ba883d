/**
 * Reading the event log over HTTP: the list endpoint (filters, cursor, permissions, bad input) and the Server-Sent
 * Events stream (live events, resume after Last-Event-ID with no gap and no duplicate, filters, the end of the stream
 * when the caller loses access).
 */
import test from 'ava';
import { sql } from 'slonik';
import { startSequencer, type Sequencer } from '../../orchestrator/events/sequencer.ts';
import { body, json, useTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp, type TestUser } from '../support/identity.ts';
import { openSse } from '../support/sse.ts';

let owner: TestUser;
let sequencer: Sequencer;
let port = 31_000;

const app = useTestApp(test, {
  setup: async (started) => {
    owner = await signUp(started);
    sequencer = await startSequencer({ pool: started.pool, databaseUrl: started.database.url, logger: started.deps.logger });
  },
});
test.after.always(async () => {
  await sequencer?.stop();
});

async function cluster() {
  const clusterId = await createCluster(app(), owner);
  const machineId = (await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })))).id;
  const server = async () => {
    const base = (port += 3);
    const created = await app().request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: `s${base}`, machineId, gameType: 'CUSTOM', startCommand: 'true', gamePort: base, queryPort: base + 1, rconPort: base + 2 },
        { headers: owner.auth },
      ),
    );
    return (await body(created)).id as string;
  };
  return { clusterId, machineId, server };
}

const setStatus = (serverId: string, status: string) => app().pool.query(sql.unsafe`UPDATE servers SET status = ${status} WHERE id = ${serverId}`);
const streamUrl = (clusterId: string, query = '') => `${app().url}/api/v1/clusters/${clusterId}/events/stream${query}`;

test('the stream sends events live; a reader resuming with Last-Event-ID gets exactly what it missed, then live ones', async (t) => {
  const { clusterId, server } = await cluster();
  const serverId = await server();
  const first = await openSse(streamUrl(clusterId, '?types=server.status'), owner.auth);
  t.is(first.status, 200);
  await setStatus(serverId, 'STARTING');
  await setStatus(serverId, 'ONLINE');
  const live = await first.take(2);
  t.deepEqual(
    live.map((frame) => [frame.event, frame.data.data.status]),
    [
      ['server.status', 'STARTING'],
      ['server.status', 'ONLINE'],
    ],
  );
  t.is(live[0]!.id, live[0]!.data.id);
  t.true(live[0]!.id! < live[1]!.id!, 'ids sort as strings in order');
  first.close();

  // While nobody reads: two more changes.
  await setStatus(serverId, 'STOPPING');
  await setStatus(serverId, 'OFFLINE');
  const resumed = await openSse(streamUrl(clusterId, '?types=server.status'), { ...owner.auth, 'Last-Event-ID': live[1]!.id! });
  await setStatus(serverId, 'STARTING');
  const frames = await resumed.take(3);
  t.deepEqual(
    frames.map((frame) => frame.data.data.status),
    ['STOPPING', 'OFFLINE', 'STARTING'],
  );
  t.is(new Set(frames.map((frame) => frame.id)).size, 3);
  resumed.close();

  // ?after= does the same as the header; from the very start, everything the cluster has.
  const replay = await openSse(streamUrl(clusterId, `?types=server.status&after=0`), owner.auth);
  t.deepEqual(
    (await replay.take(5)).map((frame) => frame.data.data.status),
    ['STARTING', 'ONLINE', 'STOPPING', 'OFFLINE', 'STARTING'],
  );
  replay.close();
});

test('filters: serverId and types; another cluster never shows', async (t) => {
  const mine = await cluster();
  const theirs = await cluster();
  const [a, b, other] = [await mine.server(), await mine.server(), await theirs.server()];
  const reader = await openSse(streamUrl(mine.clusterId, `?serverId=${b}`), owner.auth);
  await setStatus(other, 'STARTING');
  await setStatus(a, 'STARTING');
  await setStatus(b, 'STARTING');
  await app().request(`/api/v1/servers/${b}/start?wait=0`, { method: 'POST', headers: owner.auth });
  const frames = await reader.take(2);
  t.deepEqual(
    frames.map((frame) => frame.event),
    ['server.status', 'job.updated'],
  );
  t.true(frames.every((frame) => frame.data.clusterId === mine.clusterId && (frame.data.data.serverId ?? frame.data.data.serverId) === b));
  reader.close();
});

test('one name for the event-type filter: `types` on the list and the stream, `type` accepted on both; both at once is a 400', async (t) => {
  const { clusterId, server } = await cluster();
  const serverId = await server();
  await setStatus(serverId, 'STARTING');
  const list = async (query: string) => app().request(`/api/v1/clusters/${clusterId}/events${query}`, { headers: owner.auth });
  let byTypes: any;
  for (let attempt = 0; attempt < 100; attempt++) {
    byTypes = await body(await list('?types=server.status'));
    if (byTypes.data.length === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.like(byTypes, { meta: { total: 1 }, data: [{ type: 'server.status' }] });
  t.deepEqual(await body(await list('?type=server.status')), byTypes);
  t.is((await body(await list('?types=job.updated'))).meta.total, 0);

  const both = await list('?type=server.status&types=server.status');
  t.is(both.status, 400);
  t.like(await body(both), { message: 'Validation failed', details: [{ field: 'type' }] });
  const bothOnStream = await app().request(`/api/v1/clusters/${clusterId}/events/stream?type=server.status&types=job.updated`, { headers: owner.auth });
  t.is(bothOnStream.status, 400);

  // The stream, filtered by `type`: a status change is left out, the job's event comes through.
  const reader = await openSse(streamUrl(clusterId, '?type=job.updated'), owner.auth);
  t.is(reader.status, 200);
  await setStatus(serverId, 'ONLINE');
  await app().request(`/api/v1/servers/${serverId}/stop?wait=0`, { method: 'POST', headers: owner.auth });
  const [frame] = await reader.take(1);
  t.is(frame!.event, 'job.updated');
  reader.close();

  // The document offers one name: `type` is there only as deprecated.
  const document = await body(await app().request('/api/docs/openapi.json'));
  for (const path of ['/api/v1/clusters/{clusterId}/events', '/api/v1/clusters/{clusterId}/events/stream']) {
    const parameters = document.paths[path].get.parameters as { name: string; deprecated?: boolean }[];
    t.falsy(parameters.find((parameter) => parameter.name === 'types')?.deprecated, path);
    t.true(parameters.find((parameter) => parameter.name === 'type')?.deprecated, path);
  }
});

test('a member removed from the cluster stops receiving: the stream ends', async (t) => {
  const { clusterId, server } = await cluster();
  const serverId = await server();
  const viewer = await signUp(app());
  await addMember(app(), clusterId, viewer, 'VIEWER');
  const reader = await openSse(streamUrl(clusterId), viewer.auth);
  t.is(reader.status, 200);
  await setStatus(serverId, 'STARTING');
  await reader.take(1);
  const removed = await app().request(`/api/v1/clusters/${clusterId}/members/${viewer.id}`, { method: 'DELETE', headers: owner.auth });
  t.is(removed.status, 200);
  await reader.ended;
  await setStatus(serverId, 'ONLINE');
  t.is(reader.frames.length, 1);
});

test('the list: oldest first, filters, cursor, pages; bad input is 400; outsiders 403', async (t) => {
  const { clusterId, server } = await cluster();
  const [a, b] = [await server(), await server()];
  for (const status of ['STARTING', 'ONLINE']) {
    await setStatus(a, status);
    await setStatus(b, status);
  }
  const list = async (query: string, who = owner) => app().request(`/api/v1/clusters/${clusterId}/events${query}`, { headers: who.auth });
  // Events become readable once numbered.
  let all: any;
  for (let attempt = 0; attempt < 100; attempt++) {
    all = await body(await list('?type=server.status'));
    if (all.data.length === 4) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.is(all.meta.total, 4);
  t.deepEqual(
    all.data.map((event: any) => [event.data.serverId, event.data.status]),
    [
      [a, 'STARTING'],
      [b, 'STARTING'],
      [a, 'ONLINE'],
      [b, 'ONLINE'],
    ],
  );
  t.deepEqual(Object.keys(all.data[0]).sort(), ['at', 'clusterId', 'data', 'id', 'type']);
  const afterSecond = await body(await list(`?type=server.status&after=${all.data[1].id}`));
  t.deepEqual(
    afterSecond.data.map((event: any) => event.id),
    [all.data[2].id, all.data[3].id],
  );
  const onlyB = await body(await list(`?type=SERVER.STATUS,job.updated&serverId=${b}&limit=1&page=2`));
  t.like(onlyB, { meta: { total: 2, page: 2, limit: 1 } });
  t.is(onlyB.data[0].data.status, 'ONLINE');

  for (const query of ['?type=server.exploded', '?after=abc', '?after=-1', '?serverId=nope', '?unknown=1']) {
    const response = await list(query);
    t.is(response.status, 400, query);
    t.is((await body(response)).message, 'Validation failed');
  }
  const badResume = await app().request(`/api/v1/clusters/${clusterId}/events/stream`, { headers: { ...owner.auth, 'Last-Event-ID': 'x' } });
  t.is(badResume.status, 400);
  const outsider = await signUp(app());
  t.is((await list('', outsider)).status, 403);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/events/stream`, { headers: outsider.auth })).status, 403);
});

test('a stream opened without a cursor starts with the events that come next, not the history', async (t) => {
  const { clusterId, server } = await cluster();
  const serverId = await server();
  await setStatus(serverId, 'STARTING');
  await setStatus(serverId, 'ONLINE');
  await sequencer.runOnce();
  const reader = await openSse(streamUrl(clusterId, '?types=server.status'), owner.auth);
  await setStatus(serverId, 'STOPPING');
  const [first] = await reader.take(1);
  t.is(first!.data.data.status, 'STOPPING');
  reader.close();
});

test('a stream opened without a cursor sends its resume point first: a reader cut off before any event misses nothing', async (t) => {
  const { clusterId, server } = await cluster();
  const serverId = await server();
  const abort = new AbortController();
  const response = await fetch(streamUrl(clusterId, '?types=server.status'), { headers: { Accept: 'text/event-stream', ...owner.auth }, signal: abort.signal });
  const reader = response.body!.getReader();
  let text = '';
  while (!/^id: \d+$/m.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  const resumeFrom = /^id: (\d+)$/m.exec(text)![1]!;
  t.regex(text, /: connected\n\nid: \d{16}\n\n/, 'an id line alone, before any event');
  abort.abort(); // cut off before any event
  await setStatus(serverId, 'STARTING');
  const resumed = await openSse(streamUrl(clusterId, '?types=server.status'), { ...owner.auth, 'Last-Event-ID': resumeFrom });
  const [missed] = await resumed.take(1);
  resumed.close();
  t.is(missed!.data.data.status, 'STARTING');
});

test.serial('a catch-up while more than 10,000 new events arrive is not cut short: every event once, in order', async (t) => {
  const clusterId = await createCluster(app(), owner);
  const count = 20_000;
  // Stored after the process's feed started: the feed hands them to the stream as new events while it catches up.
  await app().pool.transaction(async (connection) => {
    const base = String(await connection.oneFirst(sql.unsafe`SELECT last_position FROM event_positions FOR UPDATE`));
    await connection.query(sql.unsafe`
      INSERT INTO events (position, cluster_id, type, server_id, data)
      SELECT ${base}::bigint + g, ${clusterId}, 'job.updated', NULL, jsonb_build_object('n', g) FROM generate_series(1, ${count}) AS g`);
    await connection.query(sql.unsafe`UPDATE event_positions SET last_position = last_position + ${count}`);
  });
  const sse = await openSse(`${app().url}/api/v1/clusters/${clusterId}/events/stream?after=0`, owner.auth);
  t.teardown(() => sse.close());
  const frames = await sse.take(count, 60_000);
  t.deepEqual(
    frames.map((frame) => frame.data.data.n),
    Array.from({ length: count }, (_, index) => index + 1),
  );
  t.true(frames.every((frame, index) => index === 0 || frame.id! > frames[index - 1]!.id!));
  t.like(frames[0]!.data, { type: 'job.updated', clusterId, data: { n: 1 } });
  t.regex(frames[0]!.data.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});
