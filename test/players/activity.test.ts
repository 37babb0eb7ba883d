/**
 * The per-day player activity behind the statistics and the player count (sql/migrations/000010): over random histories written
 * through the ingest functions (joins, leaves, duplicates, reordering, snapshots, crashes, times exactly on window
 * starts and UTC midnights), every figure equals the same figure worked out from the sessions themselves by the
 * definitions of docs/api.md, for window starts at many times of day, before and after the deltas are folded; the
 * folded day rows equal a recount of the players; a deleted cluster's deltas are dropped; the orchestrator's beat folds.
 */
import test from 'ava';
import pg from 'pg';
import { sql } from 'slonik';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { createLogger } from '../../schema/logger.ts';
import { foldPlayerActivity, startActivityFolder } from '../../orchestrator/players/activity.ts';
import { playerListPage, playerStatsOf } from '../../orchestrator/players/store.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { until } from '../support/wait.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let database: TestDatabase;
let pool: DatabasePool;
test.before(async () => {
  database = await createTestDatabase();
  pool = await createDatabasePool(database.url, { maxPoolSize: 6 });
});
test.after.always(async () => {
  await pool?.end();
  await database?.drop();
});

let nextPort = 30_000;
/** A cluster with one machine and `servers` ONLINE servers, written directly. */
async function cluster(servers: number) {
  const clusterId = (await pool.oneFirst(sql.unsafe`INSERT INTO clusters (name) VALUES ('activity') RETURNING id`)) as string;
  const machineId = (await pool.oneFirst(sql.unsafe`
    INSERT INTO machines (cluster_id, name, agent_token_hash) VALUES (${clusterId}, 'host', ${`hash-${clusterId}`}) RETURNING id`)) as string;
  const serverIds: string[] = [];
  for (let index = 0; index < servers; index++) {
    const port = (nextPort += 3);
    serverIds.push(
      (await pool.oneFirst(sql.unsafe`
      INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status, last_status_at)
      VALUES (${clusterId}, ${machineId}, ${`s${index}`}, 'RUST', ${port}, ${port + 1}, ${port + 2}, 100, 'x', 'ONLINE', now() - interval '1 year')
      RETURNING id`)) as string,
    );
  }
  return { clusterId, serverIds };
}

/** A small deterministic generator, so a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (below: number) => Math.floor(next() * below), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]! };
}

const iso = (ms: number) => new Date(ms).toISOString();
const event = (serverId: string, kind: 'join' | 'leave', steamId: string, at: number) =>
  pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, ${kind}, ${steamId}, ${`name ${steamId}`}, ${iso(at)}, NULL)`);

/**
 * A random history ending before `now`: sessions on random servers over the last 100 days, some still open; some
 * reports sent twice or late; now and then a snapshot or a crash. Times include exact window starts and UTC midnights.
 */
async function history(serverIds: string[], now: number, seed: number) {
  const rng = random(seed);
  const midnight = (ms: number) => Math.floor(ms / DAY) * DAY;
  const special = [
    now - DAY,
    now - 7 * DAY,
    now - 30 * DAY,
    now - 31 * DAY,
    now - 37 * DAY,
    now - 60 * DAY,
    midnight(now - DAY),
    midnight(now - 7 * DAY),
    midnight(now - 30 * DAY),
    midnight(now - 31 * DAY) + DAY,
    midnight(now - 37 * DAY),
  ];
  const late: (() => Promise<unknown>)[] = [];
  for (let player = 0; player < 60; player++) {
    const steamId = `${seed}-${player}`;
    let at = now - rng.int(100) * DAY - rng.int(DAY);
    if (rng.next() < 0.2) at = rng.pick(special) - (rng.next() < 0.5 ? 0 : rng.int(3) * HOUR);
    for (let session = rng.int(4) + 1; session > 0 && at < now - 60_000; session--) {
      const serverId = rng.pick(serverIds);
      const leave = Math.min(at + rng.int(10 * HOUR) + 60_000, now - 1);
      const open = session === 1 && rng.next() < 0.15;
      await event(serverId, 'join', steamId, at);
      if (rng.next() < 0.1) await event(serverId, 'join', steamId, at); // a duplicate
      if (!open) {
        const send = () => event(serverId, 'leave', steamId, rng.next() < 0.1 ? rng.pick(special) : leave);
        if (rng.next() < 0.1)
          late.push(send); // arrives after later reports
        else await send();
      }
      // The next session: minutes, hours or weeks later (some exactly 1, 7 or 30 days after this one's start).
      const gap = rng.pick([rng.int(HOUR), rng.int(3 * DAY), rng.int(40 * DAY), DAY, 7 * DAY, 30 * DAY]);
      at = Math.max(leave, at + gap) + 1_000;
    }
  }
  for (const send of late) await send();
  // A snapshot of one server (the truth at its time) and a crash of another.
  await pool.query(
    sql.unsafe`SELECT gsm_players_snapshot(${serverIds[0]!}, ${sql.jsonb([{ steamId: `${seed}-snap`, username: 'snap' }])}, ${iso(now - 2 * HOUR)})`,
  );
  if (serverIds[1]) await pool.query(sql.unsafe`UPDATE servers SET status = 'CRASHED', last_status_at = ${iso(now - HOUR)} WHERE id = ${serverIds[1]}`);
}

/** The statistics worked out from the sessions alone, by docs/api.md (windows end at `now`). */
async function fromSessions(clusterId: string, now: number) {
  const row = (await pool.one(sql.unsafe`
    WITH s AS (SELECT player_id, joined_at, left_at FROM player_sessions s JOIN players p ON p.id = s.player_id WHERE p.cluster_id = ${clusterId}),
         firsts AS (SELECT player_id, min(joined_at) AS first FROM s GROUP BY player_id),
         at AS (SELECT ${iso(now)}::timestamptz AS now)
    SELECT (SELECT count(*) FROM players WHERE cluster_id = ${clusterId})::int AS total,
           ${sql.join(
             [1, 7, 30].map(
               (days) => sql.fragment`
             (SELECT count(DISTINCT player_id) FROM s, at WHERE joined_at <= at.now AND (left_at IS NULL OR left_at >= at.now - make_interval(days => ${days})))::int AS ${sql.identifier([`active${days}`])},
             (SELECT count(*) FROM firsts, at WHERE first >= at.now - make_interval(days => ${days}))::int AS ${sql.identifier([`new${days}`])},
             (SELECT coalesce(avg(CASE WHEN EXISTS (SELECT 1 FROM s WHERE s.player_id = f.player_id AND s.joined_at >= f.first + make_interval(days => ${days}))
                                       THEN 1.0 ELSE 0.0 END), 0)::float8
                FROM firsts f, at WHERE f.first >= at.now - make_interval(days => ${days + 30}) AND f.first < at.now - make_interval(days => ${days})) AS ${sql.identifier([`retention${days}`])}`,
             ),
             sql.fragment`, `,
           )}`)) as Record<string, number>;
  return {
    total: row.total,
    active: { today: row.active1, week: row.active7, month: row.active30 },
    new: { today: row.new1, week: row.new7, month: row.new30 },
    retention: { day1: row.retention1, day7: row.retention7, day30: row.retention30 },
  };
}

async function figuresOf(clusterId: string, now: number) {
  const { topPlayers: _top, retention, ...rest } = await playerStatsOf(pool, clusterId, new Date(now));
  const total = (await playerListPage(pool, clusterId, { page: { page: 1, limit: 1 }, sort: { field: 'lastSeen', descending: true } })).meta.total;
  return { ...rest, retention, listTotal: total };
}

/** The day rows as a recount of the players would have them. */
const recount = (clusterId: string) =>
  pool.any(sql.unsafe`
    SELECT day::text, first_seen::int, last_seen::int, returned_1::int, returned_7::int, returned_30::int
      FROM gsm_player_activity_recount(${clusterId}) WHERE (first_seen, last_seen, returned_1, returned_7, returned_30) <> (0, 0, 0, 0, 0) ORDER BY day`);
const dayRows = (clusterId: string) =>
  pool.any(sql.unsafe`
    SELECT day::text, first_seen::int, last_seen::int, returned_1::int, returned_7::int, returned_30::int
      FROM player_activity_days WHERE cluster_id = ${clusterId} ORDER BY day`);

for (const seed of [1, 2, 3, 4, 5]) {
  test.serial(`random history ${seed}: every figure equals the sessions' own, for window starts all through the day, before and after folding`, async (t) => {
    const { clusterId, serverIds } = await cluster(3);
    const other = await cluster(1);
    const now = Date.now() - 3 * DAY + seed * 7 * HOUR;
    await history(serverIds, now, seed);
    await history(other.serverIds, now, seed + 100); // another cluster's players count only there
    const instants = [
      now,
      now + 1,
      now + 37 * 60_000,
      now + 5 * HOUR,
      now + 13 * HOUR + 1_234,
      now + 23 * HOUR,
      now + DAY - 1,
      Math.ceil(now / DAY) * DAY,
      Math.ceil(now / DAY) * DAY - 1,
    ];
    const expected = await Promise.all(instants.map((at) => fromSessions(clusterId, at)));
    t.true(expected[0]!.total > 50 && expected[0]!.active.month > 0 && expected[0]!.retention.day1 > 0, 'the history is not trivial');
    for (const [index, at] of instants.entries())
      t.deepEqual(await figuresOf(clusterId, at), { ...expected[index]!, listTotal: expected[index]!.total }, `unfolded, at ${iso(at)}`);

    t.true((await foldPlayerActivity(pool)) > 0);
    t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_activity_changes`), 0, 'every delta is folded');
    t.deepEqual(await dayRows(clusterId), await recount(clusterId), 'the day rows are a recount of the players');
    for (const [index, at] of instants.entries())
      t.deepEqual(await figuresOf(clusterId, at), { ...expected[index]!, listTotal: expected[index]!.total }, `folded, at ${iso(at)}`);

    // More play after the fold: the figures are the folded rows plus the new deltas.
    await history(serverIds, now + DAY, seed + 200);
    const later = now + DAY + 2 * HOUR;
    t.deepEqual(await figuresOf(clusterId, later), { ...(await fromSessions(clusterId, later)), listTotal: (await fromSessions(clusterId, later)).total });
    await foldPlayerActivity(pool);
    t.deepEqual(await dayRows(clusterId), await recount(clusterId));
  });
}

test.serial('folding while players are written keeps every change exactly once; two folds at once do not collide', async (t) => {
  const { clusterId, serverIds } = await cluster(2);
  const now = Date.now();
  let writing = true;
  const folds = (async () => {
    while (writing) await Promise.all([foldPlayerActivity(pool), foldPlayerActivity(pool)]);
  })();
  await Promise.all(
    serverIds.map(async (serverId, server) => {
      for (let index = 0; index < 150; index++) {
        const steamId = `c-${server}-${index % 50}`;
        const at = now - (200 - index) * 13 * HOUR;
        await event(serverId, 'join', steamId, at);
        await event(serverId, 'leave', steamId, at + 3 * HOUR);
      }
    }),
  );
  writing = false;
  await folds;
  await foldPlayerActivity(pool);
  t.deepEqual(await dayRows(clusterId), await recount(clusterId));
  t.is((await playerStatsOf(pool, clusterId, new Date(now))).total, 100);
});

test.serial('a deleted cluster takes its day rows with it, and its unfolded deltas are dropped by the next fold', async (t) => {
  const { clusterId, serverIds } = await cluster(1);
  await event(serverIds[0]!, 'join', 'gone', Date.now() - HOUR);
  await foldPlayerActivity(pool);
  await event(serverIds[0]!, 'join', 'gone-too', Date.now() - HOUR);
  t.true(((await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_activity_changes WHERE cluster_id = ${clusterId}`)) as number) > 0);
  await pool.query(sql.unsafe`DELETE FROM clusters WHERE id = ${clusterId}`);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_activity_days WHERE cluster_id = ${clusterId}`), 0);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_sessions WHERE cluster_id = ${clusterId}`), 0, 'the sessions went with the players');
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_presence WHERE server_id = ${serverIds[0]!}`), 0, 'and so did their presence');
  await foldPlayerActivity(pool);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_activity_changes WHERE cluster_id = ${clusterId}`), 0);
});

test.serial('a player removed on its own is taken off its days, with its sessions and presence', async (t) => {
  const { clusterId, serverIds } = await cluster(1);
  await event(serverIds[0]!, 'join', 'stays', Date.now() - 3 * DAY);
  await event(serverIds[0]!, 'join', 'removed', Date.now() - 2 * DAY);
  await event(serverIds[0]!, 'leave', 'removed', Date.now() - DAY);
  const removed = (await pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE cluster_id = ${clusterId} AND steam_id = 'removed'`)) as string;
  await pool.query(sql.unsafe`DELETE FROM players WHERE id = ${removed}`);
  t.is((await playerStatsOf(pool, clusterId)).total, 1);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_sessions WHERE player_id = ${removed}`), 0);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_presence WHERE player_id = ${removed}`), 0);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_sessions WHERE cluster_id = ${clusterId}`), 1, 'the other player keeps hers');
  await foldPlayerActivity(pool);
  t.deepEqual(await dayRows(clusterId), await recount(clusterId));
});

test.serial('the orchestrator beat folds the deltas on its own', async (t) => {
  const { clusterId, serverIds } = await cluster(1);
  await event(serverIds[0]!, 'join', 'beat', Date.now() - HOUR);
  const folder = startActivityFolder({ pool, logger: createLogger('silent'), everyMs: 50 });
  try {
    await until(async () => (await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_activity_changes`)) === 0, 'the deltas folded', 5_000);
    t.deepEqual(await dayRows(clusterId), await recount(clusterId));
  } finally {
    await folder.stop();
  }
});

/** A second connection holding a transaction open; `blocked` waits until some other backend waits for a lock. */
async function holder() {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('BEGIN');
  return {
    query: (text: string, values: unknown[] = []) => client.query(text, values),
    commit: async () => (await client.query('COMMIT'), await client.end()),
  };
}
const someoneWaits = () =>
  until(
    async () =>
      ((await pool.oneFirst(sql.unsafe`
    SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as number) > 0,
    'a backend waiting for a lock',
    5_000,
  );
const orphans = () =>
  pool.one(sql.unsafe`
    SELECT (SELECT count(*)::int FROM player_sessions s WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.id = s.player_id)) AS sessions,
           (SELECT count(*)::int FROM player_presence r WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.id = r.player_id)) AS presence`);
const batch = (serverId: string, kind: 'join' | 'leave', steamId: string, at: number) =>
  pool.query(sql.unsafe`SELECT gsm_player_events(${sql.jsonb([{ serverId, kind, steamId, username: `name ${steamId}`, at: iso(at) }])})`);

test.serial('a player deleted while a join about it is stored keeps no session or presence, in either order', async (t) => {
  const { clusterId, serverIds } = await cluster(1);
  const [server] = serverIds as [string];
  await event(server, 'join', 'race-1', Date.now() - 3 * HOUR);
  await event(server, 'leave', 'race-1', Date.now() - 2 * HOUR);
  const first = (await pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE cluster_id = ${clusterId} AND steam_id = 'race-1'`)) as string;

  // The deletion first: the join waits for it, then finds no player and creates it afresh.
  const deleting = await holder();
  await deleting.query(`DELETE FROM players WHERE id = $1`, [first]);
  const joining = batch(server, 'join', 'race-1', Date.now() - HOUR);
  await someoneWaits();
  await deleting.commit();
  await joining;
  t.deepEqual(await orphans(), { sessions: 0, presence: 0 });
  const second = (await pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE cluster_id = ${clusterId} AND steam_id = 'race-1'`)) as string;
  t.not(second, first, 'a new player');
  t.is(await pool.oneFirst(sql.unsafe`SELECT players_online FROM servers WHERE id = ${server}`), 1);

  // The join first: the deletion waits for it, then takes the join's session and presence with the player.
  const storing = await holder();
  await storing.query(`SELECT gsm_player_events($1::jsonb)`, [
    JSON.stringify([{ serverId: server, kind: 'leave', steamId: 'race-1', username: 'r', at: iso(Date.now() - 30 * 60_000) }]),
  ]);
  const removing = pool.query(sql.unsafe`DELETE FROM players WHERE id = ${second}`);
  await someoneWaits();
  await storing.commit();
  await removing;
  t.deepEqual(await orphans(), { sessions: 0, presence: 0 });
  await foldPlayerActivity(pool);
  t.deepEqual(await dayRows(clusterId), await recount(clusterId));
});

test.serial('a fold while a cluster is being deleted waits for it and drops its deltas, without an error', async (t) => {
  const { clusterId, serverIds } = await cluster(1);
  const other = await cluster(1);
  await foldPlayerActivity(pool);
  await event(serverIds[0]!, 'join', 'doomed', Date.now() - HOUR);
  await event(other.serverIds[0]!, 'join', 'kept', Date.now() - HOUR);
  const deleting = await holder();
  await deleting.query(`DELETE FROM clusters WHERE id = $1`, [clusterId]);
  const folding = foldPlayerActivity(pool);
  await someoneWaits();
  await deleting.commit();
  t.true((await folding) >= 2);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_activity_changes`), 0);
  t.deepEqual(await dayRows(other.clusterId), await recount(other.clusterId), 'the other cluster was folded in the same round');
});
