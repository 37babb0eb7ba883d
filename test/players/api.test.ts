/**
 * The players API over hand-made histories (written through the same ingest functions the gateway uses): lists with
 * search, filters, sorts and paging; detail; flags, notes and purchases; bans and their validation, listing,
 * removal and expiry; and the statistics, whose expected answers are worked out by hand below.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { clusterWithServers } from '../support/players.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp({ worker: true });
});
test.after.always(async () => app?.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const cluster = (servers = 1) => clusterWithServers(app, servers);

/** A session of `steamId` on `serverId` from `from` ms ago to `to` ms ago (`to` null: still on). */
async function played(serverId: string, steamId: string, username: string, from: number, to: number | null, now: number) {
  const at = (ago: number) => new Date(now - ago).toISOString();
  await app.pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, 'join', ${steamId}, ${username}, ${at(from)}, NULL)`);
  if (to !== null) await app.pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, 'leave', ${steamId}, ${username}, ${at(to)}, NULL)`);
}

const playerId = (clusterId: string, steamId: string) =>
  app.pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE cluster_id = ${clusterId} AND steam_id = ${steamId}`) as Promise<string>;

/** A user made a member of `clusterId` with `role`, signed in. */
async function signUpMember(clusterId: string, role: 'VIEWER' | 'MODERATOR') {
  const member = await signUp(app);
  await addMember(app, clusterId, member, role);
  return member;
}

const get = (user: TestUser, path: string) => app.request(path, { headers: user.auth });
const send = (user: TestUser, method: string, path: string, payload: unknown) => app.request(path, json(payload, { method, headers: user.auth }));

test('lists: search (partial, any case, username or platform id), online, serverId, sorts and paging', async (t) => {
  const { user, clusterId, serverIds } = await cluster(2);
  const now = Date.now();
  await played(serverIds[0]!, '76561198000000111', 'Alice', 10 * HOUR, 9 * HOUR, now); // 1 h
  await played(serverIds[0]!, '76561198000000222', 'malice', 8 * HOUR, 5 * HOUR, now); // 3 h
  await played(serverIds[1]!, '76561198000000333', 'bob', 2 * HOUR, null, now); // online
  await played(serverIds[1]!, 'steam_ALI_99', 'carol', 20 * HOUR, 18 * HOUR, now); // 2 h

  const names = async (query: string) =>
    (await body(await get(user, `/api/v1/clusters/${clusterId}/players?${query}`))).data.map((p: { username: string }) => p.username);
  t.deepEqual(await names('search=ALI&sort=username'), ['Alice', 'carol', 'malice'], 'username or platform id, any case, partial');
  t.deepEqual(await names('search=000000222'), ['malice']);
  t.deepEqual(await names('search=%25'), [], 'LIKE wildcards are literal');
  t.deepEqual(await names('online=true'), ['bob']);
  t.deepEqual(await names('online=false&sort=username'), ['Alice', 'carol', 'malice']);
  t.deepEqual(await names(`serverId=${serverIds[0]}&sort=username`), ['Alice', 'malice']);
  t.deepEqual(await names(`serverId=${serverIds[1]}&online=true`), ['bob']);
  t.deepEqual(await names('sort=-playtime&online=false'), ['malice', 'carol', 'Alice']);
  t.deepEqual(await names('sort=playtime&online=false'), ['Alice', 'carol', 'malice']);
  t.deepEqual(await names('sort=-firstSeen'), ['bob', 'malice', 'Alice', 'carol']);
  t.deepEqual(await names('sort=-lastSeen&online=false'), ['malice', 'Alice', 'carol']);
  t.deepEqual(await names('sort=-username'), ['malice', 'carol', 'bob', 'Alice']);

  const page = await body(await get(user, `/api/v1/clusters/${clusterId}/players?sort=username&limit=3&page=2`));
  t.deepEqual(page.meta, { total: 4, page: 2, limit: 3, totalPages: 2 });
  t.deepEqual(
    page.data.map((p: { username: string }) => p.username),
    ['malice'],
  );
  t.like(page.data[0], { steamId: '76561198000000222', uuid: null, playtime: 3 * 3600, online: false, currentServer: null, flags: [] });

  const beyond = await body(await get(user, `/api/v1/clusters/${clusterId}/players?search=ali&page=5`));
  t.deepEqual(beyond, { data: [], meta: { total: 3, page: 5, limit: 20, totalPages: 1 } }, 'a filtered page past the end still has its total');
  t.is((await body(await get(user, `/api/v1/clusters/${clusterId}/players?search=ali&limit=2`))).meta.total, 3);

  for (const bad of ['sort=kills', 'online=maybe', 'serverId=nope', 'limit=101', 'search=', 'search=a%01b', 'colour=red']) {
    const answer = await get(user, `/api/v1/clusters/${clusterId}/players?${bad}`);
    t.is(answer.status, 400, bad);
    t.like(await body(answer), { statusCode: 400, error: 'Bad Request' });
  }
});

test('detail, sessions paging, flags and notes, purchases; bad input changes nothing', async (t) => {
  const { user, clusterId, serverIds } = await cluster();
  const now = Date.now();
  for (let index = 0; index < 3; index++) await played(serverIds[0]!, 'P1', 'pat', (10 - index * 3) * HOUR, (9 - index * 3) * HOUR, now);
  const id = await playerId(clusterId, 'P1');

  const flagged = await send(user, 'PATCH', `/api/v1/players/${id}`, { flags: ['vip', 'Donator_2'], notes: 'Helpful in chat' });
  t.is(flagged.status, 200);
  const answer = await body(flagged);
  t.deepEqual(Object.keys(answer).sort(), ['flags', 'id', 'updatedAt']);
  t.deepEqual(answer.flags, ['vip', 'Donator_2']);
  t.is((await send(user, 'PATCH', `/api/v1/players/${id}`, { notes: 'Second note' })).status, 200);
  t.deepEqual((await body(await send(user, 'PATCH', `/api/v1/players/${id}`, { flags: ['vip'] }))).flags, ['vip'], 'flags replace the set');

  const bad: [unknown, string][] = [
    [{}, ''],
    [{ flags: ['has space'] }, 'flags.0'],
    [{ flags: ['x'.repeat(33)] }, 'flags.0'],
    [{ flags: Array.from({ length: 21 }, (_, index) => `f${index}`) }, 'flags'],
    [{ flags: ['a', 'a'] }, 'flags'],
    [{ notes: '' }, 'notes'],
    [{ notes: 'x'.repeat(2001) }, 'notes'],
    [{ notes: 'nul\u0000' }, 'notes'],
    [{ flags: ['ok'], colour: 'red' }, ''],
  ];
  for (const [payload, field] of bad) {
    const refused = await send(user, 'PATCH', `/api/v1/players/${id}`, payload);
    t.is(refused.status, 400, JSON.stringify(payload));
    const error = await body(refused);
    if (field)
      t.true(
        error.details.some((detail: { field: string }) => detail.field === field),
        `${JSON.stringify(payload)} names ${field}`,
      );
  }

  const bought = await send(user, 'POST', `/api/v1/players/${id}/purchases`, { productName: 'VIP (30 days)', amount: 9.99, currency: 'eur' });
  t.is(bought.status, 201);
  t.like(await body(bought), { productName: 'VIP (30 days)', amount: 9.99, currency: 'EUR' });
  t.like(await body(await send(user, 'POST', `/api/v1/players/${id}/purchases`, { productName: 'Kit', amount: 5 })), { currency: 'USD', amount: 5 });
  for (const amount of [19.99, 0.0003, 1234.5678, -4.2]) {
    t.like(await body(await send(user, 'POST', `/api/v1/players/${id}/purchases`, { productName: 'Gem', amount })), { amount }, `${amount} is a valid amount`);
  }
  for (const payload of [
    { productName: 'x', amount: '5' },
    { productName: '', amount: 5 },
    { productName: 'x', amount: 5, currency: 'EURO' },
    { amount: 5 },
    { productName: 'x', amount: 1.23456 },
    // A product name follows the rule of names: one line, nothing invisible, something visible, checked before trimming.
    { productName: 'VIP\nRefund approved', amount: 5 },
    { productName: '\tVIP', amount: 5 },
    { productName: 'VIP \u202E(sdays 03)', amount: 5 },
    { productName: 'VIP\u200B', amount: 5 },
    { productName: '\u00ad', amount: 5 },
  ]) {
    t.is((await send(user, 'POST', `/api/v1/players/${id}/purchases`, payload)).status, 400, JSON.stringify(payload));
  }

  const detail = await body(await get(user, `/api/v1/players/${id}`));
  t.like(detail, { id, clusterId, username: 'pat', steamId: 'P1', playtime: 3 * 3600, flags: ['vip'], discordId: null, online: false });
  t.deepEqual(
    detail.notes.map((note: { content: string; createdBy: string }) => [note.content, note.createdBy]),
    [
      ['Second note', user.id],
      ['Helpful in chat', user.id],
    ],
  );
  t.deepEqual(
    detail.purchases.map((purchase: { productName: string }) => purchase.productName),
    ['Gem', 'Gem', 'Gem', 'Gem', 'Kit', 'VIP (30 days)'],
  );
  t.is(detail.sessions.length, 3);
  t.true(Date.parse(detail.sessions[0].joinedAt) > Date.parse(detail.sessions[1].joinedAt), 'newest first');
  t.like(detail.sessions[0], { serverId: serverIds[0], serverName: 's1', duration: 3600 });

  const sessions = await body(await get(user, `/api/v1/players/${id}/sessions?limit=2&page=2`));
  t.deepEqual(sessions.meta, { total: 3, page: 2, limit: 2, totalPages: 2 });
  t.is(sessions.data[0].joinedAt, detail.sessions[2].joinedAt);
  t.deepEqual(detail.sessions, (await body(await get(user, `/api/v1/players/${id}/sessions?limit=100`))).data, 'the same records as the sessions list');
  const vip = detail.purchases.at(-1);
  t.like(vip, { productName: 'VIP (30 days)', amount: 9.99, currency: 'EUR' });
  for (const stamp of [vip.createdAt, detail.notes[0].createdAt, detail.sessions[0].joinedAt, detail.sessions[0].leftAt])
    t.regex(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  t.is((await get(user, `/api/v1/players/00000000-0000-7000-8000-000000000000`)).status, 404);
  const audit = await body(await get(user, `/api/v1/clusters/${clusterId}/audit-log?targetId=${id}`));
  t.deepEqual(audit.data.map((entry: { action: string }) => entry.action).sort(), [
    'player.flags',
    'player.note',
    'player.update',
    ...Array(6).fill('purchase.create'),
  ]);
});

test('bans: validation, server and cluster-wide scope with jobs, listing filters, removal once, expiry lifts it', async (t) => {
  const { user, clusterId, serverIds } = await cluster(2);
  const other = await cluster();
  const now = Date.now();
  await played(serverIds[0]!, 'B1', 'badguy', HOUR, null, now);
  await played(serverIds[0]!, 'B2', 'meh', HOUR, 10 * 60_000, now);
  const bad = await playerId(clusterId, 'B1');
  const meh = await playerId(clusterId, 'B2');

  const refusals: [unknown, string][] = [
    [{ reason: 'x' }, 'serverId'],
    [{ clusterWide: true, serverId: serverIds[0] }, 'serverId'],
    [{ serverId: serverIds[0], duration: 0 }, 'duration'],
    [{ serverId: serverIds[0], duration: 1.5 }, 'duration'],
    [{ serverId: serverIds[0], reason: 'x'.repeat(501) }, 'reason'],
    [{ serverId: other.serverIds[0] }, 'serverId'],
    [{ serverId: serverIds[0], until: 'tomorrow' }, ''],
  ];
  for (const [payload, field] of refusals) {
    const refused = await send(user, 'POST', `/api/v1/players/${bad}/ban`, payload);
    t.is(refused.status, 400, JSON.stringify(payload));
    if (field)
      t.true(
        (await body(refused)).details.some((detail: { field: string }) => detail.field === field),
        `${JSON.stringify(payload)} names ${field}`,
      );
  }
  t.is((await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM bans WHERE cluster_id = ${clusterId}`)) as number, 0, 'nothing written');

  const wide = await body(await send(user, 'POST', `/api/v1/players/${bad}/ban`, { clusterWide: true, reason: 'cheating' }));
  t.like(wide, { success: true, ban: { clusterWide: true, serverId: null, expiresAt: null, active: true, revokedAt: null } });
  // Names beside the ids, so that a client shows a ban without one more request per row.
  t.deepEqual(wide.ban.player, { id: bad, username: 'badguy', steamId: 'B1' });
  t.is(wide.ban.serverName, null, 'a cluster-wide ban has no server');
  t.is(wide.jobIds.length, 2, 'one BAN job per server of the cluster');
  const jobs = await body(await get(user, `/api/v1/clusters/${clusterId}/jobs?type=ban`));
  t.deepEqual(jobs.data.map((job: { serverId: string }) => job.serverId).sort(), [...serverIds].sort());
  t.true(jobs.data.every((job: any) => job.playerId === bad && job.params.reason === 'cheating' && job.params.steamId === 'B1'));

  const timed = await send(user, 'POST', `/api/v1/players/${meh}/ban`, { serverId: serverIds[1], duration: 1, reason: 'cool down' });
  t.is(timed.status, 201);
  const { ban: short } = await body(timed);
  t.true(Math.abs(Date.parse(short.expiresAt) - Date.now() - 1_000) < 2_000);

  // Expiry: the ban becomes inactive and an UNBAN job lifts it in the game, by the system.
  await until(
    async () => (await body(await get(user, `/api/v1/clusters/${clusterId}/jobs?type=unban`))).meta.total === 1,
    'the expiry to lift the ban',
    20_000,
  );
  const unban = (await body(await get(user, `/api/v1/clusters/${clusterId}/jobs?type=unban`))).data[0];
  t.like(unban, { serverId: serverIds[1], playerId: meh, createdBy: { kind: 'SYSTEM', id: null }, params: { steamId: 'B2', banId: short.id } });
  t.like(await body(await get(user, `/api/v1/bans/${short.id}`)), { active: false, revokedAt: null });
  t.is((await send(user, 'DELETE', `/api/v1/bans/${short.id}`, undefined)).status, 409, 'an expired ban cannot be removed');

  const list = async (query: string) => (await body(await get(user, `/api/v1/clusters/${clusterId}/bans?${query}`))).data.map((ban: { id: string }) => ban.id);
  t.deepEqual(await list(''), [short.id, wide.ban.id]);
  t.deepEqual(await list('active=true'), [wide.ban.id]);
  t.deepEqual(await list('active=false'), [short.id]);
  t.deepEqual(await list(`playerId=${meh}`), [short.id]);
  t.deepEqual(await list(`serverId=${serverIds[0]}`), [wide.ban.id], 'cluster-wide bans apply to every server');
  t.is((await get(user, `/api/v1/clusters/${clusterId}/bans?active=perhaps`)).status, 400);

  // A server ban under a cluster-wide one: removing the cluster-wide ban lifts it only where nothing else applies.
  const local = await body(await send(user, 'POST', `/api/v1/players/${bad}/ban`, { serverId: serverIds[0], reason: 'also here' }));
  const removed = await app.request(`/api/v1/bans/${wide.ban.id}`, { method: 'DELETE', headers: user.auth });
  t.is(removed.status, 200);
  const removal = await body(removed);
  t.is(removal.success, true);
  const lifted = await Promise.all(removal.jobIds.map(async (jobId: string) => (await body(await get(user, `/api/v1/jobs/${jobId}`))).serverId));
  t.deepEqual(lifted, [serverIds[1]], 'the game ban stays where the server ban still applies');
  t.like(await body(await get(user, `/api/v1/bans/${wide.ban.id}`)), { active: false });
  t.truthy((await body(await get(user, `/api/v1/bans/${wide.ban.id}`))).revokedAt);
  t.is((await app.request(`/api/v1/bans/${wide.ban.id}`, { method: 'DELETE', headers: user.auth })).status, 409, 'removing twice is a conflict');
  t.deepEqual(await list('active=true'), [local.ban.id]);
  t.like(local.ban, { serverId: serverIds[0], serverName: 's1', player: { username: 'badguy' } });
  const listed = (await body(await get(user, `/api/v1/clusters/${clusterId}/bans?active=true`))).data[0];
  t.like(listed, { serverName: 's1', player: { id: bad, username: 'badguy', steamId: 'B1' } });
  t.like(await body(await get(user, `/api/v1/bans/${short.id}`)), { serverName: 's2', player: { id: meh, username: 'meh' } });
  const banEntry = (await body(await get(user, `/api/v1/clusters/${clusterId}/audit-log?action=ban.revoke`))).data[0];
  t.deepEqual(banEntry.target, { type: 'ban', id: wide.ban.id, name: 'badguy' }, "an audit entry names the ban's player");
  const actions = (await body(await get(user, `/api/v1/clusters/${clusterId}/audit-log?action=ban.create`))).meta.total;
  t.is(actions, 3);
});

test('overlapping bans revoked at the same moment still lift the game ban where neither applies any more', async (t) => {
  const { user, clusterId, serverIds } = await cluster(2);
  await played(serverIds[0]!, 'O1', 'olga', HOUR, null, Date.now());
  const id = await playerId(clusterId, 'O1');
  for (let round = 0; round < 3; round++) {
    const local = await body(await send(user, 'POST', `/api/v1/players/${id}/ban`, { serverId: serverIds[0] }));
    const wide = await body(await send(user, 'POST', `/api/v1/players/${id}/ban`, { clusterWide: true }));
    const answers = await Promise.all(
      [local, wide].map(async ({ ban }) => body(await app.request(`/api/v1/bans/${ban.id}`, { method: 'DELETE', headers: user.auth }))),
    );
    const lifted = await Promise.all(
      answers.flatMap((answer) => answer.jobIds).map(async (jobId: string) => (await body(await get(user, `/api/v1/jobs/${jobId}`))).serverId),
    );
    t.deepEqual(lifted.sort(), [...serverIds].sort(), `round ${round}: one UNBAN per server`);
  }
});

test('unban by player: every active ban of the player is revoked, one UNBAN per server, audited with ban.revoked events; 409 when none', async (t) => {
  const { user, clusterId, serverIds } = await cluster(2);
  await played(serverIds[0]!, 'U1', 'ursula', HOUR, null, Date.now());
  await played(serverIds[0]!, 'U2', 'uther', HOUR, null, Date.now());
  const id = await playerId(clusterId, 'U1');
  const other = await playerId(clusterId, 'U2');
  const local = await body(await send(user, 'POST', `/api/v1/players/${id}/ban`, { serverId: serverIds[0], reason: 'spam' }));
  const wide = await body(await send(user, 'POST', `/api/v1/players/${id}/ban`, { clusterWide: true, reason: 'cheating' }));
  const untouched = await body(await send(user, 'POST', `/api/v1/players/${other}/ban`, { clusterWide: true }));

  const viewer = await signUpMember(clusterId, 'VIEWER');
  t.is((await app.request(`/api/v1/players/${id}/unban`, { method: 'POST', headers: viewer.auth })).status, 403);
  t.is((await app.request('/api/v1/players/00000000-0000-4000-8000-000000000000/unban', { method: 'POST', headers: user.auth })).status, 404);

  const response = await app.request(`/api/v1/players/${id}/unban`, { method: 'POST', headers: user.auth });
  t.is(response.status, 200);
  const answer = await body(response);
  t.like(answer, { success: true, message: 'Removed 2 bans' });
  t.deepEqual(answer.bans.map((ban: { id: string }) => ban.id).sort(), [local.ban.id, wide.ban.id].sort());
  t.true(answer.bans.every((ban: { active: boolean; revokedAt: string | null }) => !ban.active && ban.revokedAt !== null));
  const lifted = await Promise.all(answer.jobIds.map(async (jobId: string) => body(await get(user, `/api/v1/jobs/${jobId}`))));
  t.deepEqual(lifted.map((job) => job.serverId).sort(), [...serverIds].sort(), 'one UNBAN per server');
  t.true(lifted.every((job) => job.type === 'UNBAN'));

  t.like(await body(await get(user, `/api/v1/bans/${untouched.ban.id}`)), { active: true }, "another player's ban stays");
  const audit = await body(await get(user, `/api/v1/clusters/${clusterId}/audit-log?action=ban.revoke`));
  t.deepEqual(audit.data.map((entry: { target: { id: string } }) => entry.target.id).sort(), [local.ban.id, wide.ban.id].sort());
  await until(async () => {
    const events = await body(await get(user, `/api/v1/clusters/${clusterId}/events?types=ban.revoked`));
    return events.data.length === 2;
  }, 'a ban.revoked event for each');

  const again = await app.request(`/api/v1/players/${id}/unban`, { method: 'POST', headers: user.auth });
  t.is(again.status, 409);
  t.like(await body(again), { statusCode: 409, message: 'The player has no active ban' });
});

test('deleting a server revokes its own bans and keeps them as history; cluster-wide bans stay', async (t) => {
  const { user, clusterId, serverIds } = await cluster(2);
  await played(serverIds[0]!, 'D1', 'dan', HOUR, null, Date.now());
  const id = await playerId(clusterId, 'D1');
  const local = await body(await send(user, 'POST', `/api/v1/players/${id}/ban`, { serverId: serverIds[0], duration: 3600 }));
  const wide = await body(await send(user, 'POST', `/api/v1/players/${id}/ban`, { clusterWide: true }));
  t.is((await app.request(`/api/v1/servers/${serverIds[0]}`, { method: 'DELETE', headers: user.auth })).status, 200);
  const kept = await body(await get(user, `/api/v1/bans/${local.ban.id}`));
  t.like(kept, { active: false, serverId: null, clusterWide: false });
  t.truthy(kept.revokedAt);
  t.like(await body(await get(user, `/api/v1/bans/${wide.ban.id}`)), { active: true });
  t.is(
    (await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM graphile_worker._private_jobs WHERE key = ${`ban:${local.ban.id}`}`)) as number,
    0,
    'its expiry job is gone',
  );
  t.is((await body(await get(user, `/api/v1/clusters/${clusterId}/bans`))).meta.total, 2);
});

test('kick answers 409 when the player is not on that server', async (t) => {
  const { user, clusterId, serverIds } = await cluster(2);
  const now = Date.now();
  await played(serverIds[0]!, 'K1', 'kay', HOUR, 30 * 60_000, now);
  await played(serverIds[0]!, 'K2', 'kim', HOUR, null, now);
  const offline = await playerId(clusterId, 'K1');
  const online = await playerId(clusterId, 'K2');
  t.like(await body(await send(user, 'POST', `/api/v1/players/${offline}/kick`, { reason: 'afk' })), { statusCode: 409, message: 'The player is not online' });
  t.like(await body(await send(user, 'POST', `/api/v1/players/${online}/kick`, { serverId: serverIds[1] })), {
    statusCode: 409,
    message: 'The player is not on that server',
  });
  t.is((await send(user, 'POST', `/api/v1/players/${online}/kick`, { reason: 'x'.repeat(501) })).status, 400);
  t.is((await body(await get(user, `/api/v1/clusters/${clusterId}/jobs?type=kick`))).meta.total, 0);
});

test('statistics over a hand-made history, with every figure worked out by hand', async (t) => {
  const { user, clusterId, serverIds } = await cluster();
  const [server] = serverIds as [string];
  const now = Date.now();
  // P1: first seen 40 days ago; back 35 days ago and 2 hours ago. 2 h + 1 h + 1 h = 14,400 s.
  await played(server, 'P1', 'p1', 40 * DAY, 40 * DAY - 2 * HOUR, now);
  await played(server, 'P1', 'p1', 35 * DAY, 35 * DAY - HOUR, now);
  await played(server, 'P1', 'p1', 2 * HOUR, HOUR, now);
  // P2: one 3 h session 20 days ago (10,800 s).
  await played(server, 'P2', 'p2', 20 * DAY, 20 * DAY - 3 * HOUR, now);
  // P3: first seen 10 days ago (1 h), back 2 days ago (30 min): 5,400 s.
  await played(server, 'P3', 'p3', 10 * DAY, 10 * DAY - HOUR, now);
  await played(server, 'P3', 'p3', 2 * DAY, 2 * DAY - HOUR / 2, now);
  // P4: on now, for 30 minutes (about 1,800 s).
  await played(server, 'P4', 'p4', HOUR / 2, null, now);
  // P5: one 10 h session 5 days ago (36,000 s).
  await played(server, 'P5', 'p5', 5 * DAY, 5 * DAY - 10 * HOUR, now);
  // P6: one hour 65 days ago (3,600 s).
  await played(server, 'P6', 'p6', 65 * DAY, 65 * DAY - HOUR, now);

  const stats = await body(await get(user, `/api/v1/clusters/${clusterId}/players/stats`));
  t.is(stats.total, 6);
  // Sessions overlapping the last 24 h: P1 (2 h ago), P4 (on now). 7 days: + P3 (2 days), P5 (5 days).
  // 30 days: + P2 (20 days). P6 is older.
  t.deepEqual(stats.active, { today: 2, week: 4, month: 5 });
  // First seen in 24 h: P4. 7 days: + P5. 30 days: + P3, P2.
  t.deepEqual(stats.new, { today: 1, week: 2, month: 4 });
  t.deepEqual(
    stats.topPlayers.map((p: { username: string }) => p.username),
    ['p5', 'p1', 'p2', 'p3', 'p6', 'p4'],
  );
  t.deepEqual(
    stats.topPlayers.slice(0, 5).map((p: { playtime: number }) => p.playtime),
    [36_000, 14_400, 10_800, 5_400, 3_600],
  );
  t.true(Math.abs(stats.topPlayers[5].playtime - 1_800) < 60);
  // day1: first seen between 31 and 1 days ago = P2, P3, P5; back ≥ 1 day after their first session: P3 → 1/3.
  // day7: between 37 and 7 days ago = P2, P3; back ≥ 7 days after: P3 (8 days later) → 1/2.
  // day30: between 60 and 30 days ago = P1; back ≥ 30 days after (2 hours ago, 40 days later) → 1.
  t.is(stats.retention.day1, 1 / 3);
  t.is(stats.retention.day7, 0.5);
  t.is(stats.retention.day30, 1);

  const empty = await cluster(0);
  t.deepEqual(await body(await get(empty.user, `/api/v1/clusters/${empty.clusterId}/players/stats`)), {
    total: 0,
    active: { today: 0, week: 0, month: 0 },
    new: { today: 0, week: 0, month: 0 },
    topPlayers: [],
    retention: { day1: 0, day7: 0, day30: 0 },
  });
});

test('a top player who is online counts the current session in the ranking', async (t) => {
  const { user, clusterId, serverIds } = await cluster();
  const now = Date.now();
  // Eleven offline players with 1..11 hours; one online for 20 hours with nothing stored yet.
  for (let index = 1; index <= 11; index++) await played(serverIds[0]!, `O${index}`, `o${index}`, 30 * DAY, 30 * DAY - index * HOUR, now);
  await played(serverIds[0]!, 'ON', 'online', 20 * HOUR, null, now);
  const stats = await body(await get(user, `/api/v1/clusters/${clusterId}/players/stats`));
  t.deepEqual(
    stats.topPlayers.map((p: { username: string }) => p.username),
    ['online', 'o11', 'o10', 'o9', 'o8', 'o7', 'o6', 'o5', 'o4', 'o3'],
  );
});
