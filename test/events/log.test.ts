/**
 * The event log: events are written with their changes (and not with rolled-back ones), numbered only once committed,
 * and a reader resuming after a cursor never misses one and never sees one twice, also when transactions commit out
 * of the order they wrote in. Serial: each test reads the cluster's log from where the previous one left it.
 */
import test from 'ava';
import pg from 'pg';
import { sql } from 'slonik';
import { eventsAfter, type StoredEvent } from '../../orchestrator/events/store.ts';
import { sequenceEvents } from '../../orchestrator/events/sequencer.ts';
import { startSequencer } from '../../orchestrator/events/sequencer.ts';
import { body, json, useTestApp, type TestApp } from '../support/app.ts';
import { createCluster, signUp, type TestUser } from '../support/identity.ts';

let owner: TestUser;
let clusterId: string;
let machineId: string;
let serverId: string;
let port = 30_000;

const app = useTestApp(test, {
  setup: async (started) => {
    owner = await signUp(started);
    clusterId = await createCluster(started, owner);
    machineId = (await body(await started.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })))).id;
    serverId = await createServer(started);
  },
});

async function createServer(target: TestApp = app(), cluster = clusterId, machine = machineId): Promise<string> {
  const base = (port += 3);
  const response = await target.request(
    `/api/v1/clusters/${cluster}/servers`,
    json(
      { name: `s${base}`, machineId: machine, gameType: 'CUSTOM', startCommand: 'true', gamePort: base, queryPort: base + 1, rconPort: base + 2 },
      { headers: owner.auth },
    ),
  );
  if (response.status !== 201) throw new Error(`server create failed: ${response.status} ${await response.text()}`);
  return (await body(response)).id;
}

const setStatus = (connection: { query: (text: string, values: unknown[]) => Promise<unknown> }, server: string, status: string) =>
  connection.query('UPDATE servers SET status = $1 WHERE id = $2', [status, server]);

/** Numbers whatever is pending; answers the position after which a test's own events will come. */
async function settled(): Promise<bigint> {
  while ((await sequenceEvents(app().pool)) > 0);
  return (await readAll(0n)).at(-1)?.position ?? 0n;
}

/** Reads every event after `after` in order (all pages). */
async function readAll(after: bigint, filter = { clusterId }): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (;;) {
    const page = await eventsAfter(app().pool, filter, after, 1000);
    all.push(...page);
    if (page.length < 1000) return all;
    after = page.at(-1)!.position;
  }
}

test.serial('a change and its event commit together: a rolled-back change leaves no event; events are numbered only once committed', async (t) => {
  const client = new pg.Client({ connectionString: app().database.url });
  await client.connect();
  try {
    const start = await settled();
    await client.query('BEGIN');
    await setStatus(client, serverId, 'STARTING');
    await client.query('ROLLBACK');
    await sequenceEvents(app().pool);
    t.deepEqual(await readAll(start), []);

    await client.query('BEGIN');
    await setStatus(client, serverId, 'ONLINE');
    // Uncommitted: nothing to number, nothing to read.
    t.is(await sequenceEvents(app().pool), 0);
    await client.query('COMMIT');
    t.is(await sequenceEvents(app().pool), 1);
    const [event] = await readAll(start);
    t.like(event, { type: 'server.status', clusterId, serverId, data: { serverId, status: 'ONLINE', previous: 'INSTALLING' } });
    t.regex(event!.id, /^\d{16}$/);
  } finally {
    await client.end();
  }
});

test.serial('transactions committing out of order: a reader resuming after its cursor sees every event once', async (t) => {
  const [first, second] = [new pg.Client({ connectionString: app().database.url }), new pg.Client({ connectionString: app().database.url })];
  await Promise.all([first.connect(), second.connect()]);
  const [a, b] = [await createServer(), await createServer()];
  try {
    let cursor = await settled();
    await first.query('BEGIN');
    await setStatus(first, a, 'STARTING'); // written first…
    await second.query('BEGIN');
    await setStatus(second, b, 'STARTING');
    await second.query('COMMIT'); // …committed second
    await sequenceEvents(app().pool);
    const early = await readAll(cursor);
    t.deepEqual(
      early.map((event) => event.serverId),
      [b],
    );
    cursor = early.at(-1)!.position;
    await first.query('COMMIT');
    await sequenceEvents(app().pool);
    const late = await readAll(cursor);
    t.deepEqual(
      late.map((event) => event.serverId),
      [a],
    );
    t.true(late[0]!.position > cursor);
  } finally {
    await Promise.all([first.end(), second.end()]);
  }
});

test.serial('many writers whose commits interleave, a sequencer and a reader tailing all the while: nothing missed, nothing twice', async (t) => {
  const servers = await Promise.all(Array.from({ length: 6 }, () => createServer()));
  const start = await settled();
  const sequencer = await startSequencer({ pool: app().pool, databaseUrl: app().database.url, logger: app().deps.logger });
  const STATUSES = ['STARTING', 'ONLINE', 'STOPPING', 'OFFLINE'];
  const ROUNDS = 12;
  let writing = true;
  const seen: StoredEvent[] = [];
  const reader = (async () => {
    let cursor = start;
    while (writing || seen.length < servers.length * ROUNDS) {
      const page = await eventsAfter(app().pool, { clusterId }, cursor, 1000);
      for (const event of page) seen.push(event);
      if (page.length) cursor = page.at(-1)!.position;
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    // Each writer holds its transaction open a random while, so commits land in a different order from the writes.
    await Promise.all(
      servers.map(async (server) => {
        const client = new pg.Client({ connectionString: app().database.url });
        await client.connect();
        try {
          for (let round = 0; round < ROUNDS; round++) {
            await client.query('BEGIN');
            await setStatus(client, server, STATUSES[round % STATUSES.length]!);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
            await client.query('COMMIT');
          }
        } finally {
          await client.end();
        }
      }),
    );
  } finally {
    writing = false;
  }
  await reader;
  await sequencer.stop();
  t.is(seen.length, servers.length * ROUNDS);
  t.is(new Set(seen.map((event) => event.id)).size, seen.length, 'no event twice');
  t.deepEqual(
    seen.map((event) => event.position),
    [...seen.map((event) => event.position)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
    'in position order',
  );
  // Each server's events in the order they happened.
  for (const server of servers) {
    const statuses = seen.filter((event) => event.serverId === server).map((event) => event.data.status);
    t.deepEqual(
      statuses,
      Array.from({ length: ROUNDS }, (_, round) => STATUSES[round % STATUSES.length]),
    );
  }
});

test.serial('jobs, task runs, bans, machines and player sessions write their events', async (t) => {
  const start = await settled();
  await app().pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE' WHERE id = ${serverId}`);
  const rcon = await body(await app().request(`/api/v1/servers/${serverId}/rcon?wait=0`, json({ command: 'status' }, { headers: owner.auth })));
  await app().pool.query(sql.unsafe`UPDATE machines SET status = 'ONLINE' WHERE id = ${machineId}`);
  await app().pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, 'join', 'steam-1', 'Alice', now(), 20, true)`);
  const playerId = await app().pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE steam_id = 'steam-1'`);
  const ban = await body(await app().request(`/api/v1/players/${playerId}/ban`, json({ serverId, reason: 'griefing' }, { headers: owner.auth })));
  await app().pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, 'leave', 'steam-1', 'Alice', now(), null, true)`);
  await app().request(`/api/v1/bans/${ban.ban?.id ?? ban.id}`, { method: 'DELETE', headers: owner.auth });
  await sequenceEvents(app().pool);
  const events = await readAll(start);
  const types = events.map((event) => event.type);
  t.true(types.includes('job.updated'));
  t.like(
    events.find((event) => event.type === 'job.updated' && event.data.id === (rcon.jobId ?? rcon.id)),
    {
      data: { type: 'RCON', status: 'QUEUED', clusterId, serverId },
    },
  );
  t.like(
    events.find((event) => event.type === 'machine.status'),
    { data: { machineId, status: 'ONLINE' } },
  );
  t.like(
    events.find((event) => event.type === 'player.joined'),
    { serverId, data: { playerId, serverId, username: 'Alice', steamId: 'steam-1' } },
  );
  t.like(
    events.find((event) => event.type === 'player.left'),
    { data: { playerId, username: 'Alice' } },
  );
  t.like(
    events.find((event) => event.type === 'ban.created'),
    { data: { playerId, reason: 'griefing', active: true } },
  );
  t.like(
    events.find((event) => event.type === 'ban.revoked'),
    { data: { playerId, active: false } },
  );
  t.true(types.indexOf('player.joined') < types.indexOf('player.left'));
});
