/**
 * The live console and the `/live` Socket.IO namespace end to end: the real agent runs the fake game, its output
 * reaches a Socket.IO viewer, an SSE reader and GET /console; console commands, permissions per subscription, loss of
 * access within 5 s, token expiry and refresh; crash reasons and stats on the Server record.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createApiToken, createCluster, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { consoleLines, connectViewer, type LiveViewer } from '../support/liveClient.ts';
import { openSse } from '../support/sse.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
const viewers: LiveViewer[] = [];

test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  for (const viewer of viewers) viewer.close();
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

const viewer = async (token: string) => {
  const connected = await connectViewer(app.url, token);
  viewers.push(connected);
  return connected;
};

/** A cluster of `owner`'s with a machine whose real agent runs, and one fake-game server on it (not started). */
async function setup(extra: Record<string, unknown> = {}) {
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await createFakeServer(app, owner, clusterId, machine.id, extra);
  agents.push(await startAgent({ url: app.url, machineId: machine.id, token: machine.agentToken }));
  await until(async () => (await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machine.id}`)) === 'ONLINE', 'the agent online');
  return { clusterId, machineId: machine.id as string, serverId: server.id };
}

const start = async (serverId: string) => body(await app.request(`/api/v1/servers/${serverId}/start?wait=30`, { method: 'POST', headers: owner.auth }));
const getServer = async (serverId: string, user = owner) => body(await app.request(`/api/v1/servers/${serverId}`, { headers: user.auth }));
const recentConsole = async (serverId: string, query = '') => app.request(`/api/v1/servers/${serverId}/console${query}`, { headers: owner.auth });

test.serial('console lines of the real game reach a /live viewer, an SSE reader and GET /console; an OWNER sends console commands', async (t) => {
  const { clusterId, serverId } = await setup();
  t.like(await start(serverId), { status: 'SUCCEEDED' });

  const watcher = await viewer(owner.accessToken);
  t.deepEqual(await watcher.request('subscribe', { serverId, console: true, stats: true }), { ok: true });
  const replay = await watcher.waitFor((event) => event.type === 'server.console' && event.data.replay === true, 'the replayed console');
  t.true(
    replay.data.lines.some((line: { line: string }) => line.line === 'Server ready'),
    'the subscription starts with the recent lines',
  );
  t.is(replay.clusterId, clusterId);
  const sse = await openSse(`${app.url}/api/v1/clusters/${clusterId}/events/stream?types=server.console,server.status&serverId=${serverId}`, owner.auth);
  t.is(sse.status, 200);

  const command = await watcher.request('console:command', { serverId, command: 'say hello from the console' });
  t.true(command.ok, JSON.stringify(command));
  t.regex(command.jobId, /^[0-9a-f-]{36}$/);
  const live = await watcher.waitFor(
    (event) =>
      event.type === 'server.console' && !event.data.replay && event.data.lines.some((line: { line: string }) => line.line === '[Chat] hello from the console'),
    'the live line',
  );
  t.regex(live.data.lines[0].at, /^\d{4}-\d\d-\d\dT/);
  t.like(live, { clusterId, data: { serverId } });
  t.false('id' in live, 'live-only events have no cursor');

  await until(
    async () =>
      sse.frames.some(
        (frame) => frame.event === 'server.console' && frame.data.data.lines.some((line: { line: string }) => line.line === '[Chat] hello from the console'),
      ),
    'the line on the event stream',
  );
  t.true(
    sse.frames.filter((frame) => frame.event === 'server.console').every((frame) => /^\d{16}:\d+$/.test(frame.id ?? '')),
    'SSE console frames carry the stream id with the console sequence (`<event id>:<sequence>`)',
  );
  sse.close();

  const job = await body(await app.request(`/api/v1/jobs/${command.jobId}?wait=10`, { headers: owner.auth }));
  t.like(job, { type: 'RCON', status: 'SUCCEEDED', serverId });
  const audit = await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM audit_log WHERE cluster_id = ${clusterId} AND action = 'server.rcon'`);
  t.is(Number(audit), 1, 'a console command is audited as RCON');

  const history = await recentConsole(serverId, '?lines=1000');
  t.is(history.status, 200);
  const lines = (await body(history)).lines.map((line: { line: string }) => line.line);
  t.true(lines.includes('Server ready') && lines.includes('[Chat] hello from the console'), lines.join('|'));
  const last = await body(await recentConsole(serverId, '?lines=1'));
  t.is(last.lines.length, 1);
  t.is(last.serverId, serverId);
  for (const bad of ['?lines=0', '?lines=1001', '?lines=abc', '?lines=1.5', '?other=1']) {
    const refused = await recentConsole(serverId, bad);
    t.is(refused.status, 400, bad);
    t.truthy((await body(refused)).message);
  }

  const stats = await watcher.waitFor((event) => event.type === 'server.stats', 'a stats sample');
  t.like(stats.data, { serverId });
  t.is(typeof stats.data.cpuPercent, 'number');
  t.is(stats.data.playersOnline, 0, 'nobody is on the fake game');
  t.true(stats.data.memoryBytes > 0);
  await until(async () => (await getServer(serverId)).stats !== null, 'the stats on the Server record');
  const record = await getServer(serverId);
  t.is(typeof record.stats.cpuPercent, 'number');
  t.true(record.stats.memoryBytes > 0);
  t.regex(record.stats.at, /^\d{4}-\d\d-\d\dT/);
  t.is(record.statusReason, null);
});

test.serial('per-subscription permissions: a VIEWER watches but cannot send commands; a stranger sees nothing; bad requests are 400', async (t) => {
  const { clusterId, serverId } = await setup();
  const member = await signUp(app);
  await addMember(app, clusterId, member, 'VIEWER');
  const stranger = await signUp(app);

  const watching = await viewer(member.accessToken);
  t.deepEqual(await watching.request('subscribe', { serverId, console: true }), { ok: true });
  t.deepEqual(await watching.request('subscribe', { clusterId }), { ok: true });
  t.like(await watching.request('console:command', { serverId, command: 'say nope' }), { ok: false, statusCode: 403 });
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM jobs WHERE server_id = ${serverId}`)), 0, 'no job was made');

  const outsider = await viewer(stranger.accessToken);
  t.like(await outsider.request('subscribe', { serverId, console: true }), { ok: false, statusCode: 403 });
  t.like(await outsider.request('subscribe', { clusterId }), { ok: false, statusCode: 403 });
  t.like(await outsider.request('console:command', { serverId, command: 'say nope' }), { ok: false, statusCode: 403 });
  t.like(await outsider.request('subscribe', { serverId: '00000000-0000-4000-8000-000000000000' }), { ok: false, statusCode: 404 });

  for (const bad of [{}, { serverId: 'nope' }, { clusterId, extra: 1 }, { serverId, console: 'yes' }, null, 'text', { clusterId, types: 'no.such' }]) {
    const answer = await watching.request('subscribe', bad);
    t.like(answer, { ok: false, statusCode: 400 }, JSON.stringify(bad));
    t.is(typeof answer.message, 'string');
  }
  t.like(await watching.request('console:command', { serverId, command: '' }), { ok: false, statusCode: 400 });
  t.like(await watching.request('console:command', { serverId, command: 'a\u0000b' }), { ok: false, statusCode: 400 });
  t.like(await watching.request('unsubscribe', { serverId: '00000000-0000-4000-8000-000000000000' }), { ok: false, statusCode: 404 });
  t.deepEqual(await watching.request('unsubscribe', { serverId }), { ok: true });

  for (const token of [undefined, '', 'nonsense', `gsm_${'x'.repeat(40)}`]) {
    const refused = await connectViewer(app.url, token).then(
      () => undefined,
      (error: { data?: { statusCode: number; message: string } }) => error.data,
    );
    t.is(refused?.statusCode, 401, String(token));
    t.is(typeof refused?.message, 'string');
  }
});

test.serial('a subscription survives nothing it should not: a removed member stops receiving and a revoked token is cut off within 5 s', async (t) => {
  const { clusterId, serverId } = await setup();
  const member = await signUp(app);
  await addMember(app, clusterId, member, 'ADMIN');
  const memberViewer = await viewer(member.accessToken);
  t.deepEqual(await memberViewer.request('subscribe', { serverId, console: true }), { ok: true });
  const token = await createApiToken(app, owner, [clusterId]);
  const tokenViewer = await viewer(token.token);
  t.deepEqual(await tokenViewer.request('subscribe', { clusterId }), { ok: true });

  const removed = await app.request(`/api/v1/clusters/${clusterId}/members/${member.id}`, { method: 'DELETE', headers: owner.auth });
  t.true(removed.ok);
  const revoked = await app.request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: owner.auth });
  t.true(revoked.ok);
  const removedAt = Date.now();

  const ended = await memberViewer.notice('subscription:ended', 8_000);
  t.like(ended, { serverId, statusCode: 403 });
  t.true(Date.now() - removedAt <= 6_500, `ended after ${Date.now() - removedAt} ms`);
  t.truthy(await tokenViewer.notice('auth:expired', 8_000));
  await tokenViewer.disconnected;

  // Nothing more reaches the removed member: the server's next lines go to the owner only.
  const ownerViewer = await viewer(owner.accessToken);
  t.deepEqual(await ownerViewer.request('subscribe', { serverId, console: true }), { ok: true });
  const before = memberViewer.events.length;
  await start(serverId);
  await ownerViewer.waitFor((event) => event.type === 'server.console' && !event.data.replay, 'the owner sees the start');
  t.is(memberViewer.events.length, before, 'the removed member got nothing');
  t.like(await memberViewer.request('subscribe', { serverId, console: true }), { ok: false, statusCode: 403 });
});

test.serial('a session token: auth:expiring ahead of expiry, a disconnect at expiry, and auth:refresh with a fresh token keeps the socket', async (t) => {
  const claims = (await app.deps.accessTokens.verify(owner.accessToken))!;
  const shortLived = await app.deps.accessTokens.issue({ userId: owner.id, sessionId: claims.sessionId }, 3);
  const expiring = await viewer(shortLived);
  const warning = await expiring.notice('auth:expiring', 5_000);
  t.true(Math.abs(Date.parse(warning.expiresAt) - (Date.now() + 3_000)) < 4_000);
  t.truthy(await expiring.notice('auth:expired', 8_000));
  t.is(await expiring.disconnected, 'io server disconnect');

  const refreshed = await viewer(await app.deps.accessTokens.issue({ userId: owner.id, sessionId: claims.sessionId }, 3));
  await refreshed.notice('auth:expiring', 5_000);
  const answer = await refreshed.request('auth:refresh', { token: owner.accessToken });
  t.true(answer.ok);
  t.true(Date.parse(answer.expiresAt) > Date.now() + 60 * 60_000);
  await new Promise((done) => setTimeout(done, 4_000));
  t.true(refreshed.socket.connected, 'still connected past the old expiry');
  t.false(refreshed.notices.some((notice) => notice.name === 'auth:expired'));

  const other = await signUp(app);
  t.like(await refreshed.request('auth:refresh', { token: other.accessToken }), { ok: false, statusCode: 400 });
  t.like(await refreshed.request('auth:refresh', { token: 'v4.local.forged' }), { ok: false, statusCode: 401 });
});

test.serial(
  'crash reasons: a start command that does not exist says so on the Server and the failed job; a crash keeps its exit code and console tail',
  async (t) => {
    const missing = await setup({ startCommand: './NoSuchDedicatedServer -batchmode', autoRestart: false });
    const failed = await start(missing.serverId);
    t.like(failed, { type: 'START', status: 'FAILED' });
    t.regex(failed.error.message, /command not found: \.\/NoSuchDedicatedServer/);
    const server = await getServer(missing.serverId);
    t.is(server.status, 'CRASHED');
    t.regex(server.statusReason, /command not found: \.\/NoSuchDedicatedServer/);

    const crashing = await setup({
      startCommand: `${process.execPath} -e "console.log('loading world'); console.error('fatal: map file is corrupt'); process.exit(7)"`,
      autoRestart: false,
    });
    const crashed = await start(crashing.serverId);
    t.like(crashed, { status: 'FAILED', error: { code: 'CRASHED' } });
    t.deepEqual(crashed.error.consoleTail, ['loading world', 'fatal: map file is corrupt']);
    t.is(crashed.error.message, 'the server crashed while starting: exited with code 7');
    const record = await getServer(crashing.serverId);
    t.like(record, { status: 'CRASHED', lastExitCode: 7, statusReason: 'exited with code 7' });
    const event = await body(
      await app.request(`/api/v1/clusters/${crashing.clusterId}/events?type=server.status&serverId=${crashing.serverId}`, { headers: owner.auth }),
    );
    t.true(
      event.data.some(
        (entry: { data: Record<string, unknown> }) =>
          entry.data.status === 'CRASHED' && entry.data.reason === 'exited with code 7' && entry.data.exitCode === 7,
      ),
    );
  },
);

test.serial('a reconnecting viewer loses nothing: durable events resume from the cursor and the console replays its recent lines', async (t) => {
  const { clusterId, serverId } = await setup();
  const first = await viewer(owner.accessToken);
  t.deepEqual(await first.request('subscribe', { clusterId, types: ['server.status'] }), { ok: true });
  await start(serverId);
  await first.waitFor((event) => event.type === 'server.status' && event.data.status === 'ONLINE', 'ONLINE');
  const cursor = first.events.at(-1).id as string;
  first.close();

  await app.request(`/api/v1/servers/${serverId}/rcon`, json({ command: 'say while away' }, { headers: owner.auth }));
  await app.request(`/api/v1/servers/${serverId}/stop?wait=30`, { method: 'POST', headers: owner.auth });

  const missed = await body(
    await app.request(`/api/v1/clusters/${clusterId}/events?type=server.status&after=${encodeURIComponent(cursor)}`, { headers: owner.auth }),
  );
  t.deepEqual(
    missed.data.map((event: { data: { status: string } }) => event.data.status),
    ['STOPPING', 'OFFLINE'],
  );
  const again = await viewer(owner.accessToken);
  t.deepEqual(await again.request('subscribe', { serverId, console: true }), { ok: true });
  await again.waitFor((event) => event.data.replay === true, 'the replay');
  t.true(consoleLines(again).includes('[Chat] while away'));
});

test.serial('a flooding server is throttled with a marker line and does not hold up another server on the same machine', async (t) => {
  const { clusterId, machineId, serverId: flooding } = await setup();
  const quiet = (await createFakeServer(app, owner, clusterId, machineId)).id;
  await start(flooding);
  await start(quiet);
  const watcher = await viewer(owner.accessToken);
  t.deepEqual(await watcher.request('subscribe', { serverId: flooding, console: true }), { ok: true });
  t.deepEqual(await watcher.request('subscribe', { serverId: quiet, console: true }), { ok: true });

  await app.request(`/api/v1/servers/${flooding}/rcon`, json({ command: 'sim.flood 30000 2' }, { headers: owner.auth }));
  await new Promise((done) => setTimeout(done, 500));
  const sentAt = Date.now();
  await app.request(`/api/v1/servers/${quiet}/rcon`, json({ command: 'say still here' }, { headers: owner.auth }));
  await watcher.waitFor(
    (event) => event.data.serverId === quiet && event.data.lines?.some((line: { line: string }) => line.line === '[Chat] still here'),
    'the quiet line',
  );
  t.true(Date.now() - sentAt < 2_000, `the quiet server's line took ${Date.now() - sentAt} ms`);

  const marker = await watcher.waitFor(
    (event) => event.data.serverId === flooding && event.data.lines?.some((line: { line: string }) => /^\[gsm\] \d+ lines dropped$/.test(line.line)),
    'the dropped-lines marker',
  );
  t.truthy(marker);
  const floodLines = watcher.events
    .filter((event) => event.type === 'server.console' && event.data.serverId === flooding && !event.data.replay)
    .flatMap((event) => event.data.lines)
    .filter((line: { line: string }) => line.line.startsWith('flood '));
  t.true(floodLines.length > 1_000, `${floodLines.length} flood lines relayed`);
  t.true(floodLines.length <= 5_000 * 4, `${floodLines.length} flood lines relayed in about 3 s`);
  const recent = await body(await recentConsole(flooding, '?lines=1000'));
  t.is(recent.lines.length, 1_000, 'the history keeps the last 1,000 lines');
});

test.serial('subscriptions racing with unsubscribe and disconnect leave no listener and no room behind', async (t) => {
  const { clusterId, serverId } = await setup();
  const namespace = app.deps.live.io.of('/live');
  const baseline = app.deps.eventFeed.size();
  // The console replay is read slowly (as from a distant Redis): the unsubscribes and disconnects land meanwhile.
  const history = app.deps.live.history;
  const recent = history.recent;
  history.recent = async (...args) => (await new Promise((done) => setTimeout(done, 300)), recent(...args));
  t.teardown(() => void (history.recent = recent));
  const sockets = await Promise.all(Array.from({ length: 10 }, () => viewer(owner.accessToken)));
  for (const socket of sockets) {
    // Not awaited: each subscribe is still checking access when the unsubscribe, or the disconnect, arrives.
    socket.socket.emit('subscribe', { serverId, console: true, stats: true }, () => undefined);
    socket.socket.emit('subscribe', { clusterId }, () => undefined);
  }
  for (const [index, socket] of sockets.entries()) {
    if (index % 2 === 0) socket.close();
    else {
      socket.socket.emit('unsubscribe', { serverId }, () => undefined);
      socket.socket.emit('unsubscribe', { clusterId }, () => undefined);
    }
  }
  await new Promise((done) => setTimeout(done, 1_500));
  // Whatever order things ran in, an unsubscribed socket is in no room (it would get the console for good).
  t.is(namespace.adapter.rooms.get(`console:${serverId}`)?.size ?? 0, 0, 'no unsubscribed socket in the console room');
  t.is(namespace.adapter.rooms.get(`stats:${serverId}`)?.size ?? 0, 0);
  for (const [index, socket] of sockets.entries()) if (index % 2 === 1) socket.close();
  await until(async () => app.deps.eventFeed.size() === baseline, 'every event-feed listener released', 5_000);
  t.is(app.deps.eventFeed.size(), baseline);
  t.is(namespace.adapter.rooms.get(`console:${serverId}`)?.size ?? 0, 0);
  t.is(namespace.adapter.rooms.get(`stats:${serverId}`)?.size ?? 0, 0);
});
