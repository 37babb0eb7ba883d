/**
 * Players end to end with the real agent process and the fake game server: players join and leave through the game
 * and show up in the API; kick and ban through the API act in the game; a banned player who joins is kicked within
 * 2 s; a ban's expiry lifts it in the game; MODERATOR may kick and ban but not start servers, VIEWER neither.
 */
import test from 'ava';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { addMember, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import type { AgentProcess } from '../support/agentProcess.ts';
import { createWorld } from '../support/world.ts';

let app: GatewayApp;
let owner: TestUser;
let moderator: TestUser;
let viewer: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
  owner = await signUp(app);
  moderator = await signUp(app);
  viewer = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

const as = (user: TestUser) => ({
  get: (path: string) => app.request(path, { headers: user.auth }),
  post: (path: string, payload?: unknown) =>
    app.request(path, payload === undefined ? { method: 'POST', headers: user.auth } : json(payload, { headers: user.auth })),
});

async function setup() {
  const world = await createWorld(app, owner, { server: { name: 'main' }, start: true, agents });
  await addMember(app, world.clusterId, moderator, 'MODERATOR');
  await addMember(app, world.clusterId, viewer, 'VIEWER');
  return world;
}

/** A console command in the game (as the owner, through the API): how tests make players join and look around. */
async function game(serverId: string, command: string): Promise<string> {
  const answer = await body(await as(owner).post(`/api/v1/servers/${serverId}/rcon`, { command }));
  if (!answer.success) throw new Error(`${command}: ${answer.status}`);
  return answer.output;
}
const inGame = async (serverId: string, steamId: string) => (await game(serverId, 'players')).split('\n').some((line) => line.startsWith(`${steamId} `));

async function player(clusterId: string, steamId: string) {
  const list = await body(await as(viewer).get(`/api/v1/clusters/${clusterId}/players?search=${steamId}`));
  return list.data[0] as { id: string; online: boolean; currentServer: { id: string; name: string } | null; username: string } | undefined;
}

test.serial('players join and leave through the game and show up online with the right server; kick disconnects them', async (t) => {
  const { clusterId, serverId } = await setup();
  await game(serverId, 'sim.join 76561198000000001 Alice Liddell');
  await until(async () => (await player(clusterId, '76561198000000001'))?.online === true, 'Alice to show up online');
  const alice = (await player(clusterId, '76561198000000001'))!;
  t.like(alice, { username: 'Alice Liddell', currentServer: { id: serverId, name: 'main' } });
  const onServer = await body(await as(viewer).get(`/api/v1/servers/${serverId}/players`));
  t.like(onServer, { online: 1, max: 32 });
  t.like(onServer.players[0], { id: alice.id, steamId: '76561198000000001', username: 'Alice Liddell' });
  // The join line carries no ping; the next player list (snapshot) does.
  await until(
    async () => typeof (await body(await as(viewer).get(`/api/v1/servers/${serverId}/players`))).players[0]?.ping === 'number',
    'a ping from the snapshot',
  );

  await game(serverId, 'sim.leave 76561198000000001');
  await until(async () => (await player(clusterId, '76561198000000001'))?.online === false, 'Alice to go offline');
  await game(serverId, 'sim.join 76561198000000001 Alice Liddell');
  await until(async () => (await player(clusterId, '76561198000000001'))?.online === true, 'Alice to be back');

  // VIEWER may not kick; MODERATOR may.
  t.is((await as(viewer).post(`/api/v1/players/${alice.id}/kick`, { reason: 'afk' })).status, 403);
  const kicked = await as(moderator).post(`/api/v1/players/${alice.id}/kick`, { reason: 'afk too long' });
  t.is(kicked.status, 200);
  const answer = await body(kicked);
  t.like(answer, { success: true, status: 'SUCCEEDED', message: 'Kicked Alice Liddell from main' });
  t.false(await inGame(serverId, '76561198000000001'), 'the game no longer has the player');
  const job = await body(await as(viewer).get(`/api/v1/jobs/${answer.jobId}`));
  t.like(job, { type: 'KICK', serverId, playerId: alice.id, createdBy: { kind: 'USER', id: moderator.id }, params: { reason: 'afk too long' } });
  await until(async () => (await player(clusterId, '76561198000000001'))?.online === false, 'the kick to show in the API');
  const detail = await body(await as(viewer).get(`/api/v1/players/${alice.id}`));
  t.is(detail.sessions.length, 2);
  t.true(detail.sessions.every((session: { leftAt: string | null }) => session.leftAt !== null));
});

test.serial("ban pushes to the game's list and kicks; a banned player who joins anyway is kicked within 2 s; expiry lifts the ban in the game", async (t) => {
  const { clusterId, serverId, addServer } = await setup();
  await game(serverId, 'sim.join 76561198000000002 Mallory');
  await until(async () => (await player(clusterId, '76561198000000002'))?.online === true, 'Mallory online');
  const mallory = (await player(clusterId, '76561198000000002'))!;

  t.is((await as(viewer).post(`/api/v1/players/${mallory.id}/ban`, { serverId, reason: 'x' })).status, 403);
  const banned = await as(moderator).post(`/api/v1/players/${mallory.id}/ban`, { clusterWide: true, reason: 'aimbot', duration: 6 });
  t.is(banned.status, 201);
  const { ban, jobIds } = await body(banned);
  t.is(jobIds.length, 1);
  const banJob = await body(await as(viewer).get(`/api/v1/jobs/${jobIds[0]}?wait=15`));
  t.like(banJob, { type: 'BAN', status: 'SUCCEEDED', result: { applied: true } });
  t.false(await inGame(serverId, '76561198000000002'), 'banned players are kicked');
  t.regex(await game(serverId, 'sim.join 76561198000000002 Mallory'), /is banned/, "the game's own list refuses the player");

  // A server added after a cluster-wide ban is covered too: its game has never heard of the ban, the service kicks.
  const second = (await addServer({ name: 'second' })).id;
  await game(second, 'sim.join 76561198000000002 Mallory');
  await until(
    async () => {
      const kicks = await body(await as(viewer).get(`/api/v1/clusters/${clusterId}/jobs?type=kick&serverId=${second}&status=succeeded`));
      return kicks.meta.total === 1;
    },
    'the service to kick the banned player',
    10_000,
  );
  const kick = (await body(await as(viewer).get(`/api/v1/clusters/${clusterId}/jobs?type=kick&serverId=${second}`))).data[0];
  t.like(kick, { createdBy: { kind: 'SYSTEM', id: null }, params: { reason: 'aimbot', banId: ban.id } });
  // Timed from the join as the agent saw it in the game's output (the session's start), not from the RCON request
  // that made the simulated player join, whose own round trip is no part of the requirement.
  const sessions = await body(await as(viewer).get(`/api/v1/players/${mallory.id}/sessions`));
  const joinedAt = Date.parse(sessions.data.find((session: { serverId: string }) => session.serverId === second).joinedAt);
  t.true(Date.parse(kick.finishedAt) - joinedAt < 2_000, `kicked ${Date.parse(kick.finishedAt) - joinedAt} ms after joining (limit 2 s)`);
  t.false(await inGame(second, '76561198000000002'));

  // Expiry (6 s after the ban): UNBAN jobs lift it in each game; the player can join again and stays.
  await until(
    async () => (await body(await as(viewer).get(`/api/v1/clusters/${clusterId}/jobs?type=unban&status=succeeded`))).meta.total === 2,
    'the expiry to lift the ban in both games',
    30_000,
  );
  t.like(await body(await as(viewer).get(`/api/v1/bans/${ban.id}`)), { active: false });
  t.is(await game(serverId, 'sim.join 76561198000000002 Mallory'), '', 'the game lets the player in again');
  await until(async () => (await player(clusterId, '76561198000000002'))?.online === true, 'Mallory back online');
  await new Promise((done) => setTimeout(done, 1_500));
  t.true(await inGame(serverId, '76561198000000002'), 'and nobody kicks the player');
});

test.serial('unban lifts a permanent ban in the game at once', async (t) => {
  const { clusterId, serverId } = await setup();
  await game(serverId, 'sim.join 76561198000000003 Trudy');
  await until(async () => (await player(clusterId, '76561198000000003'))?.online === true, 'Trudy online');
  const trudy = (await player(clusterId, '76561198000000003'))!;
  const { ban, jobIds } = await body(await as(moderator).post(`/api/v1/players/${trudy.id}/ban`, { serverId, reason: 'spam' }));
  t.like(await body(await as(viewer).get(`/api/v1/jobs/${jobIds[0]}?wait=15`)), { status: 'SUCCEEDED' });
  t.is((await app.request(`/api/v1/bans/${ban.id}`, { method: 'DELETE', headers: viewer.auth })).status, 403);
  const removed = await body(await app.request(`/api/v1/bans/${ban.id}`, { method: 'DELETE', headers: moderator.auth }));
  t.like(await body(await as(viewer).get(`/api/v1/jobs/${removed.jobIds[0]}?wait=15`)), { type: 'UNBAN', status: 'SUCCEEDED' });
  t.is(await game(serverId, 'sim.join 76561198000000003 Trudy'), '');
});

test.serial("a ban written while the server is stopped reaches the game's own list when it is next online", async (t) => {
  const { clusterId, serverId } = await setup();
  await game(serverId, 'sim.join 76561198000000004 Eve');
  await until(async () => (await player(clusterId, '76561198000000004'))?.online === true, 'Eve online');
  const eve = (await player(clusterId, '76561198000000004'))!;
  t.like(await body(await as(owner).post(`/api/v1/servers/${serverId}/stop?wait=30`)), { status: 'SUCCEEDED' });
  const { jobIds } = await body(await as(moderator).post(`/api/v1/players/${eve.id}/ban`, { serverId, reason: 'later' }));
  t.like(await body(await as(viewer).get(`/api/v1/jobs/${jobIds[0]}?wait=15`)), { status: 'SUCCEEDED', result: { applied: false, deferred: true } });
  t.like(await body(await as(owner).post(`/api/v1/servers/${serverId}/start?wait=30`)), { status: 'SUCCEEDED' });
  await until(async () => /is banned/.test(await game(serverId, 'sim.join 76561198000000004 Eve')), "the game's list to have the ban", 10_000);
  t.pass();
});

test.serial('MODERATOR cannot start servers or run RCON; VIEWER cannot moderate', async (t) => {
  const { serverId } = await setup();
  t.is((await as(moderator).post(`/api/v1/servers/${serverId}/start`)).status, 403);
  t.is((await as(moderator).post(`/api/v1/servers/${serverId}/rcon`, { command: 'players' })).status, 403);
  t.is((await as(viewer).post(`/api/v1/servers/${serverId}/stop`)).status, 403);
});
