/**
 * Player reports from an agent (plain WebSocket framing, exact report times) into players and sessions, read back
 * through the API: joins, leaves, duplicates, reordering, snapshots as the truth, sessions closed by server and machine
 * status, and the kick of a banned player who joins.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import type { TestUser } from '../support/identity.ts';
import { plainAgent, startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { clusterWithServers } from '../support/players.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 30, authTimeoutMs: 2_000 });
});
test.after.always(async () => app?.close());

/** A cluster with one machine, `servers` ONLINE servers and a connected agent. */
async function setup(servers = 1) {
  const { user, clusterId, serverIds, machineId, agentToken } = await clusterWithServers(app, servers, {
    names: (index) => `server ${index + 1}`,
    maxPlayers: 50,
  });
  const machine = { id: machineId, agentToken };
  const agent = await plainAgent(app);
  agent.send('auth', { token: machine.agentToken, machineId: machine.id, version: '0.1.0' });
  await agent.next('authenticated');
  let frame = 0;
  /** Sends a report and waits until the gateway has handled it (its ack). */
  const report = async (event: string, data: Record<string, unknown>) => {
    const id = `r${++frame}`;
    agent.ws.send(JSON.stringify({ event, data, id }));
    await until(async () => agent.received.some((entry) => entry.event === 'ack' && entry.data.id === id), `ack of ${event}`, 5_000);
    const answer = agent.received.find((entry) => entry.event === 'ack' && entry.data.id === id)!.data;
    if (answer.accepted !== true) throw new Error(`${event} refused: ${answer.reason}`);
  };
  for (const serverId of serverIds) await report('server:status', { serverId, status: 'ONLINE', at: minutesAgo(120) });
  return { user, clusterId, machineId: machine.id as string, serverIds, agent, report };
}

const base = Date.now();
/** A report time `minutes` before the test file started (all in the past: reports are clamped to the service's clock). */
const minutesAgo = (minutes: number) => new Date(base - minutes * 60_000).toISOString();
/**
 * Whether `playtime` is `expected` seconds plus what each of `openSessions` open sessions has added since the file
 * started (open sessions count up to now, and a loaded machine may start this file's tests late), within a second.
 */
const playtimeIs = (playtime: number, expected: number, openSessions: number) =>
  playtime >= expected - 1 && playtime <= expected + (openSessions * (Date.now() - base)) / 1000 + 1;

const get = (user: TestUser, path: string) => app.request(path, { headers: user.auth }).then(body);

async function playerBySteamId(user: TestUser, clusterId: string, steamId: string) {
  const list = await get(user, `/api/v1/clusters/${clusterId}/players?search=${steamId}`);
  return list.data.find((player: { steamId: string }) => player.steamId === steamId);
}

test('join opens a session and shows the player online on that server; leave closes it and adds its seconds', async (t) => {
  const { user, clusterId, serverIds, report } = await setup();
  const [serverId] = serverIds;
  await report('player:join', { serverId, steamId: '76561198000000001', username: 'alice', at: minutesAgo(60), ping: 42.4 });

  const online = await playerBySteamId(user, clusterId, '76561198000000001');
  t.like(online, { username: 'alice', online: true, currentServer: { id: serverId, name: 'server 1' }, firstSeen: minutesAgo(60), flags: [] });
  t.true(online.playtime >= 3600 && online.playtime < 3600 + 120, 'an open session counts its time so far');
  const onServer = await get(user, `/api/v1/servers/${serverId}/players`);
  t.like(onServer, { online: 1, max: 50 });
  t.like(onServer.players[0], { id: online.id, username: 'alice', steamId: '76561198000000001', joinedAt: minutesAgo(60), ping: 42 });
  t.is((await get(user, `/api/v1/servers/${serverId}`)).playersOnline, 1);

  await report('player:leave', { serverId, steamId: '76561198000000001', username: 'alice', at: minutesAgo(15) });
  const detail = await get(user, `/api/v1/players/${online.id}`);
  t.like(detail, { online: false, currentServer: null, playtime: 45 * 60, lastSeen: minutesAgo(15), discordId: null, purchases: [], notes: [] });
  t.deepEqual(
    detail.sessions.map((s: any) => ({ ...s, id: undefined })),
    [{ id: undefined, serverId, serverName: 'server 1', joinedAt: minutesAgo(60), leftAt: minutesAgo(15), duration: 2700 }],
  );
  t.deepEqual(await get(user, `/api/v1/servers/${serverId}/players`), { online: 0, max: 50, players: [] });
  t.is((await get(user, `/api/v1/servers/${serverId}`)).playersOnline, 0);
});

test('duplicate and out-of-order joins and leaves never count time twice', async (t) => {
  const { user, clusterId, serverIds, report } = await setup();
  const [serverId] = serverIds;
  const steamId = '76561198000000002';
  const event = (kind: 'join' | 'leave', minutes: number) => report(`player:${kind}`, { serverId, steamId, username: 'bob', at: minutesAgo(minutes) });
  await event('join', 100);
  await event('join', 100); // duplicate
  await event('leave', 90);
  await event('leave', 90); // duplicate
  await event('join', 95); // older than the leave already applied: stale
  // Out of order: the leave of the next session arrives before its join.
  await event('leave', 70);
  await event('join', 80);
  const player = await playerBySteamId(user, clusterId, steamId);
  t.like(player, { online: false, playtime: 600 });
  t.is((await get(user, `/api/v1/players/${player.id}/sessions`)).meta.total, 1);
  // A later session counts normally.
  await event('join', 60);
  await event('leave', 30);
  t.like(await playerBySteamId(user, clusterId, steamId), { online: false, playtime: 600 + 1800, lastSeen: minutesAgo(30) });
});

test('a snapshot is the truth: it closes a missed leave, opens unseen players, renames, and an older snapshot changes nothing', async (t) => {
  const { user, clusterId, serverIds, report } = await setup();
  const [serverId] = serverIds;
  await report('player:join', { serverId, steamId: 'A1', username: 'ann', at: minutesAgo(50) });
  await report('player:join', { serverId, steamId: 'B2', username: 'ben', at: minutesAgo(50) });
  // ben's leave was missed; carl was never announced; ann has a new name.
  await report('players:snapshot', {
    serverId,
    players: [
      { steamId: 'A1', username: 'ann-renamed', ping: 10 },
      { steamId: 'C3', username: 'carl', ping: 20 },
    ],
    at: minutesAgo(40),
  });
  t.like(await playerBySteamId(user, clusterId, 'B2'), { online: false, playtime: 600 });
  t.like(await playerBySteamId(user, clusterId, 'A1'), { online: true, username: 'ann-renamed' });
  t.like(await playerBySteamId(user, clusterId, 'C3'), { online: true, firstSeen: minutesAgo(40) });
  const onServer = await get(user, `/api/v1/servers/${serverId}/players`);
  t.deepEqual(
    onServer.players.map((p: any) => [p.username, p.ping]),
    [
      ['ann-renamed', 10],
      ['carl', 20],
    ],
  );

  // A join older than the snapshot, arriving after it, is stale.
  await report('player:join', { serverId, steamId: 'B2', username: 'ben', at: minutesAgo(45) });
  t.like(await playerBySteamId(user, clusterId, 'B2'), { online: false, playtime: 600 });
  // So is an older snapshot.
  await report('players:snapshot', { serverId, players: [], at: minutesAgo(45) });
  t.is((await get(user, `/api/v1/servers/${serverId}/players`)).online, 2);

  await report('players:snapshot', { serverId, players: [], at: minutesAgo(20) });
  t.like(await playerBySteamId(user, clusterId, 'A1'), { online: false, playtime: 1800 });
  t.like(await playerBySteamId(user, clusterId, 'C3'), { online: false, playtime: 1200 });
  t.is((await get(user, `/api/v1/clusters/${clusterId}/players`)).meta.total, 3);
});

test('players are unique per cluster by steamId; a player on two servers is online until the last session ends', async (t) => {
  const { user, clusterId, serverIds, report } = await setup(2);
  const other = await setup();
  const [first, second] = serverIds;
  await report('player:join', { serverId: first, steamId: 'S1', username: 'sam', at: minutesAgo(30) });
  await report('player:join', { serverId: second, steamId: 'S1', username: 'sam', at: minutesAgo(20) });
  await other.report('player:join', { serverId: other.serverIds[0], steamId: 'S1', username: 'sam elsewhere', at: minutesAgo(10) });
  t.is((await get(user, `/api/v1/clusters/${clusterId}/players`)).meta.total, 1);
  const both = await playerBySteamId(user, clusterId, 'S1');
  t.like(both, { username: 'sam', currentServer: { id: second } });
  t.true(playtimeIs(both.playtime, (30 + 20) * 60, 2), `both open sessions count so far (${both.playtime} s)`);
  t.like(await playerBySteamId(other.user, other.clusterId, 'S1'), { username: 'sam elsewhere' });

  await report('player:leave', { serverId: second, steamId: 'S1', username: 'sam', at: minutesAgo(15) });
  const one = await playerBySteamId(user, clusterId, 'S1');
  t.like(one, { online: true, currentServer: { id: first } });
  t.true(playtimeIs(one.playtime, 300 + 30 * 60, 1), `the closed 5 minutes and the open session so far (${one.playtime} s)`);
  await report('player:leave', { serverId: first, steamId: 'S1', username: 'sam', at: minutesAgo(10) });
  t.like(await playerBySteamId(user, clusterId, 'S1'), { online: false, currentServer: null, playtime: 1200 + 300 });
});

test('a server that crashes or stops, and a machine that goes OFFLINE, close the open sessions', async (t) => {
  const { user, clusterId, serverIds, agent, report } = await setup(2);
  const [first, second] = serverIds;
  await report('player:join', { serverId: first, steamId: 'X1', username: 'xena', at: minutesAgo(30) });
  await report('player:join', { serverId: second, steamId: 'Y1', username: 'yuri', at: minutesAgo(30) });
  await report('server:status', { serverId: first, status: 'CRASHED', at: minutesAgo(10), exitCode: 3 });
  t.like(await playerBySteamId(user, clusterId, 'X1'), { online: false, playtime: 1200, lastSeen: minutesAgo(10) });
  t.like(await playerBySteamId(user, clusterId, 'Y1'), { online: true });
  // A leave that arrives after the crash closed the session changes nothing.
  await report('player:leave', { serverId: first, steamId: 'X1', username: 'xena', at: minutesAgo(5) });
  t.like(await playerBySteamId(user, clusterId, 'X1'), { playtime: 1200 });

  agent.close();
  await until(async () => !(await playerBySteamId(user, clusterId, 'Y1')).online, 'the machine going OFFLINE to close the session');
  const yuri = await playerBySteamId(user, clusterId, 'Y1');
  t.true(yuri.playtime >= 1800, 'closed at the time the machine went away');
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${second}`)), 'UNKNOWN');
});

test("reports about another machine's server are refused; invalid player reports are INVALID_EVENT", async (t) => {
  const mine = await setup();
  const theirs = await setup();
  await t.throwsAsync(mine.report('player:join', { serverId: theirs.serverIds[0], steamId: 'Z', username: 'z', at: minutesAgo(1) }), {
    message: /not on this machine/,
  });
  await t.throwsAsync(mine.report('player:join', { serverId: mine.serverIds[0], steamId: '', username: 'z', at: minutesAgo(1) }), {
    message: /invalid player:join/,
  });
  await t.throwsAsync(mine.report('players:snapshot', { serverId: mine.serverIds[0], players: [{ steamId: 'a' }], at: minutesAgo(1) }), {
    message: /invalid players:snapshot/,
  });
  t.is((await get(theirs.user, `/api/v1/clusters/${theirs.clusterId}/players`)).meta.total, 0);
});

test("a banned player who joins is kicked at once with the ban's reason; an unbanned one is not", async (t) => {
  const { user, clusterId, serverIds, agent, report } = await setup();
  const [serverId] = serverIds;
  await report('player:join', { serverId, steamId: 'BAD', username: 'griefer', at: minutesAgo(10) });
  const player = await playerBySteamId(user, clusterId, 'BAD');
  const banned = await app.request(`/api/v1/players/${player.id}/ban`, json({ serverId, reason: 'griefing', duration: null }, { headers: user.auth }));
  t.is(banned.status, 201);
  const { ban, jobIds } = await body(banned);
  t.like(ban, { playerId: player.id, serverId, reason: 'griefing', clusterWide: false, expiresAt: null, active: true, createdBy: user.id });
  t.is(jobIds.length, 1);
  const banJob = await agent.next('job', 5_000);
  t.like(banJob, { jobId: jobIds[0], type: 'BAN', serverId, params: { steamId: 'BAD', username: 'griefer', reason: 'griefing', banId: ban.id } });

  await report('player:leave', { serverId, steamId: 'BAD', username: 'griefer', at: new Date(Date.now() - 2_000).toISOString() });
  const joinedAt = Date.now();
  await report('player:join', { serverId, steamId: 'BAD', username: 'griefer', at: new Date(Date.now() - 1_000).toISOString() });
  const kick = await agent.next('job', 2_000);
  t.true(Date.now() - joinedAt < 2_000, 'kicked within 2 s');
  t.like(kick, { type: 'KICK', serverId, params: { steamId: 'BAD', reason: 'griefing', banId: ban.id } });
  const kickJob = await get(user, `/api/v1/jobs/${kick.jobId}`);
  t.like(kickJob, { playerId: player.id, createdBy: { kind: 'SYSTEM', id: null } });

  // Unbanned: the next join is left alone.
  const removed = await app.request(`/api/v1/bans/${ban.id}`, { method: 'DELETE', headers: user.auth });
  const removal = await body(removed);
  t.like(removal, { success: true, message: 'The ban has been removed' });
  t.is(removal.jobIds.length, 1);
  t.like(await agent.next('job', 5_000), { type: 'UNBAN', serverId, params: { steamId: 'BAD' } });
  await report('player:leave', { serverId, steamId: 'BAD', username: 'griefer', at: new Date(Date.now() - 500).toISOString() });
  await report('player:join', { serverId, steamId: 'BAD', username: 'griefer', at: new Date().toISOString() });
  await new Promise((done) => setTimeout(done, 500));
  t.false(agent.received.slice(-5).some((entry) => entry.event === 'job' && entry.data.type === 'KICK' && entry.data.jobId !== kick.jobId));
});

test('a burst of reports is stored in order, joins and leaves batched around a status change', async (t) => {
  const { user, clusterId, serverIds, agent } = await setup();
  const [serverId] = serverIds;
  const frames: [string, Record<string, unknown>][] = [];
  for (let index = 0; index < 150; index++) {
    frames.push(['player:join', { serverId, steamId: `burst${index}`, username: `b${index}`, at: minutesAgo(50 - index * 0.01) }]);
  }
  for (let index = 0; index < 100; index++) {
    frames.push(['player:leave', { serverId, steamId: `burst${index}`, username: `b${index}`, at: minutesAgo(40) }]);
  }
  // The crash closes the 50 still on; a join reported after it (but timed before it) is stale.
  frames.push(['server:status', { serverId, status: 'CRASHED', at: minutesAgo(30) }]);
  frames.push(['player:join', { serverId, steamId: 'late', username: 'late', at: minutesAgo(35) }]);
  frames.push(['server:status', { serverId, status: 'ONLINE', at: minutesAgo(20) }]);
  frames.push(['player:join', { serverId, steamId: 'after', username: 'after', at: minutesAgo(10) }]);
  frames.forEach(([event, data], index) => agent.ws.send(JSON.stringify({ event, data, id: `burst-${index}` })));
  await until(async () => agent.received.some((entry) => entry.event === 'ack' && entry.data.id === `burst-${frames.length - 1}`), 'the last ack', 15_000);
  const acks = agent.received.filter((entry) => entry.event === 'ack' && String(entry.data.id).startsWith('burst-'));
  t.is(acks.length, frames.length, 'every report acknowledged');
  t.true(acks.every((entry) => entry.data.accepted === true));

  const list = await get(user, `/api/v1/clusters/${clusterId}/players?limit=100&online=true`);
  t.deepEqual(
    list.data.map((player: { steamId: string }) => player.steamId),
    ['after'],
  );
  t.is((await get(user, `/api/v1/clusters/${clusterId}/players`)).meta.total, 151, 'the stale join created nobody');
  const first = await playerBySteamId(user, clusterId, 'burst0');
  t.is(first.playtime, 600);
  const last = await playerBySteamId(user, clusterId, 'burst149');
  t.is(last.playtime, Math.round((50 - 149 * 0.01 - 30) * 60));
});

test('a late snapshot never overrides a newer join or leave', async (t) => {
  const { user, clusterId, serverIds, report } = await setup();
  const [serverId] = serverIds;
  // Left 30 minutes ago; a snapshot taken 45 minutes ago still lists the player.
  await report('player:join', { serverId, steamId: 'L1', username: 'lea', at: minutesAgo(60) });
  await report('player:leave', { serverId, steamId: 'L1', username: 'lea', at: minutesAgo(30) });
  // Joined 10 minutes ago; the same snapshot does not list the player.
  await report('player:join', { serverId, steamId: 'L2', username: 'lou', at: minutesAgo(10) });
  await report('players:snapshot', { serverId, players: [{ steamId: 'L1', username: 'lea' }], at: minutesAgo(45) });
  t.like(await playerBySteamId(user, clusterId, 'L1'), { online: false, playtime: 1800 });
  t.like(await playerBySteamId(user, clusterId, 'L2'), { online: true });
  t.is((await get(user, `/api/v1/servers/${serverId}/players`)).online, 1);
});

test('a leave without a session is no sign of play; NUL in a report is INVALID_EVENT and the rest of the burst is stored', async (t) => {
  const { user, clusterId, serverIds, agent, report } = await setup();
  const [serverId] = serverIds;
  await report('player:join', { serverId, steamId: 'N1', username: 'nia', at: minutesAgo(100) });
  await report('player:leave', { serverId, steamId: 'N1', username: 'nia', at: minutesAgo(90) });
  await report('player:leave', { serverId, steamId: 'N1', username: 'nia', at: minutesAgo(5) });
  t.is((await playerBySteamId(user, clusterId, 'N1')).lastSeen, minutesAgo(90));

  const frames: [string, Record<string, unknown>][] = [
    ['player:join', { serverId, steamId: 'N2', username: 'ned', at: minutesAgo(4) }],
    ['player:join', { serverId, steamId: 'N3\u0000', username: 'bad', at: minutesAgo(4) }],
    ['player:join', { serverId, steamId: 'N4', username: 'nor', at: minutesAgo(4) }],
  ];
  frames.forEach(([event, data], index) => agent.ws.send(JSON.stringify({ event, data, id: `nul-${index}` })));
  await until(
    async () => agent.received.filter((entry) => entry.event === 'ack' && String(entry.data.id).startsWith('nul-')).length === 3,
    'three acks',
    3_000,
  );
  const ack = (index: number) => agent.received.find((entry) => entry.event === 'ack' && entry.data.id === `nul-${index}`)!.data;
  t.like(ack(0), { accepted: true });
  t.false(ack(1).accepted);
  t.regex(ack(1).reason, /NUL/);
  t.like(ack(2), { accepted: true });
  t.like(await playerBySteamId(user, clusterId, 'N4'), { online: true });
});

test('a join followed by an invalid frame is stored at once, not when the next frame comes', async (t) => {
  const { user, clusterId, serverIds, agent } = await setup();
  const [serverId] = serverIds;
  agent.ws.send(JSON.stringify({ event: 'player:join', data: { serverId, steamId: 'F1', username: 'fay', at: minutesAgo(1) }, id: 'f-0' }));
  agent.ws.send(JSON.stringify({ event: 'player:leave', data: { serverId, steamId: 'F1', at: minutesAgo(1) }, id: 'f-1' }));
  await until(async () => agent.received.some((entry) => entry.event === 'ack' && entry.data.id === 'f-0'), 'the join to be acknowledged', 2_000);
  t.like(await playerBySteamId(user, clusterId, 'F1'), { online: true });
});

test('after a reconnect, an agent whose clock runs behind the service still has its joins counted', async (t) => {
  const { user, clusterId, serverIds, machineId, agent } = await setup();
  const [serverId] = serverIds;
  agent.close();
  await until(
    async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`)) === 'UNKNOWN',
    'the server to be UNKNOWN',
  );
  const { agentToken } = await body(await app.request(`/api/v1/machines/${machineId}/token`, { method: 'POST', headers: user.auth }));
  const again = await plainAgent(app);
  again.send('auth', { token: agentToken, machineId, version: '0.1.0' });
  await again.next('authenticated');
  const behind = new Date(Date.now() - 90_000).toISOString();
  again.ws.send(JSON.stringify({ event: 'server:status', data: { serverId, status: 'ONLINE', at: behind }, id: 'c-0' }));
  again.ws.send(JSON.stringify({ event: 'player:join', data: { serverId, steamId: 'C1', username: 'cy', at: behind }, id: 'c-1' }));
  await until(async () => again.received.some((entry) => entry.event === 'ack' && entry.data.id === 'c-1'), 'the join to be acknowledged', 3_000);
  t.like(await playerBySteamId(user, clusterId, 'C1'), { online: true });
  again.close();
});
