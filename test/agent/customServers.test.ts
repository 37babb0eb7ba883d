/**
 * CUSTOM servers without a template, with the real agent and the fake game: ready on a line, on a port, or waiting
 * for RCON (statusReason says what it waits for); console on stdin, or none (409); stop by a command or a signal. A
 * server whose crash restarts were given up on stays CRASHED through syncs, reconnects and an agent restart until a
 * START. Start on a server whose install failed or never ran is 409 with the reason.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { sql } from 'slonik';
import { until } from '../support/wait.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { serverConfig } from '../../schema/agentEvents.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000 });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

async function machineWithAgent() {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token, keepServers: true });
  agents.push(agent);
  return { clusterId, machineId, token, agent };
}

type Server = { status: string; statusReason: string | null; desiredStatus: string } & Record<string, unknown>;
const getServer = async (serverId: string) => (await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth }))) as Server;
const reaches = (serverId: string, status: string, timeoutMs?: number) =>
  until(async () => (await getServer(serverId)).status === status, `server ${status}`, timeoutMs);
const power = (serverId: string, action: string, wait = 30) =>
  app.request(`/api/v1/servers/${serverId}/${action}?wait=${wait}`, { method: 'POST', headers: owner.auth });
const consoleLog = (agent: AgentProcess, serverId: string) => readFile(`${agent.dataDir}/logs/${serverId}/console.log`, 'utf8');
/** How many times the agent launched the server (each launch reports STARTING first). */
const launches = (agent: AgentProcess, serverId: string) =>
  agent.lines.filter((line) => line.includes(`"serverId":"${serverId}"`) && line.includes('"msg":"server STARTING"') && !line.includes('waiting for')).length;

const create = (clusterId: string, fields: Record<string, unknown>) =>
  app.request(
    `/api/v1/clusters/${clusterId}/servers`,
    json({ name: 'x', gamePort: 30101, queryPort: 30102, rconPort: 30103, ...fields }, { headers: owner.auth }),
  );

test.serial('ready, consoleMode and stop are checked at the boundary: CUSTOM only, a pattern that compiles, a stop command needs a console', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const custom = { machineId, gameType: 'CUSTOM', startCommand: './run' };
  const refused = async (fields: Record<string, unknown>, field: string, message: RegExp) => {
    const response = await create(clusterId, fields);
    t.is(response.status, 400, JSON.stringify(fields));
    const answer = await body(response);
    t.is(answer.error, 'Bad Request');
    const detail = (answer.details as { field: string; message: string }[]).find((entry) => entry.field.startsWith(field));
    t.regex(detail?.message ?? JSON.stringify(answer), message);
  };
  await refused({ ...custom, ready: { mode: 'LINE', pattern: 'Server (started' } }, 'ready', /valid regular expression/);
  await refused({ ...custom, ready: { mode: 'LINE' } }, 'ready', /required when mode is LINE/);
  await refused({ ...custom, ready: { mode: 'SOON' } }, 'ready', /LINE, PORT, RCON, IMMEDIATE/);
  await refused({ ...custom, stop: { mode: 'SIGNAL', signal: 'SIGKILL' } }, 'stop', /SIGINT/);
  // Within a power job's 10 minutes: a RESTART waits for both.
  await refused({ ...custom, ready: { mode: 'IMMEDIATE', timeoutSeconds: 421 } }, 'ready', /at most 420 seconds/);
  // The agent connects as root: only to the server's own ports.
  await refused(
    { ...custom, ready: { mode: 'PORT', port: 22 } },
    'ready',
    /one of the server's own ports \(gamePort, queryPort, rconPort: 30101, 30102, 30103\)/,
  );
  await refused({ ...custom, stop: { mode: 'SIGNAL', signal: 'SIGINT', graceSeconds: 121 } }, 'stop', /at most 120 seconds/);
  await refused({ ...custom, consoleMode: 'NONE', stop: { mode: 'COMMAND', command: 'quit' } }, 'stop', /needs a console/);
  await refused({ machineId, gameType: 'MINECRAFT', autoInstall: false, consoleMode: 'STDIN' }, 'consoleMode', /only CUSTOM servers/);
  // Lone surrogates: jsonb refuses them, so they are a 400, not a 500.
  await refused({ ...custom, ready: { mode: 'LINE', pattern: 'ready \ud800' } }, 'ready', /lone surrogate/);
  await refused({ ...custom, stop: { mode: 'COMMAND', command: 'stop \udc00' } }, 'stop', /lone surrogate/);

  const response = await create(clusterId, {
    ...custom,
    ready: { mode: 'LINE', pattern: '^Done \\(', timeoutSeconds: 60 },
    consoleMode: 'STDIN',
    stop: { mode: 'COMMAND', command: 'stop', graceSeconds: 10 },
  });
  t.is(response.status, 201);
  const created = await body(response);
  t.deepEqual(
    { ready: created.ready, consoleMode: created.consoleMode, stop: created.stop },
    { ready: { mode: 'LINE', pattern: '^Done \\(', timeoutSeconds: 60 }, consoleMode: 'STDIN', stop: { mode: 'COMMAND', command: 'stop', graceSeconds: 10 } },
  );
  // PATCH: NONE with the stored stop command is refused, and nothing changes.
  const patched = await app.request(`/api/v1/servers/${created.id}`, json({ consoleMode: 'NONE' }, { method: 'PATCH', headers: owner.auth }));
  t.is(patched.status, 400);
  t.is((await getServer(created.id)).consoleMode, 'STDIN');
  const elsewhere = await app.request(`/api/v1/servers/${created.id}`, json({ ready: { mode: 'PORT', port: 5432 } }, { method: 'PATCH', headers: owner.auth }));
  t.is(elsewhere.status, 400);
  const own = await app.request(`/api/v1/servers/${created.id}`, json({ ready: { mode: 'PORT', port: 30102 } }, { method: 'PATCH', headers: owner.auth }));
  t.is(own.status, 200);
  // Its ports changed away from the ready port: refused too.
  t.is((await app.request(`/api/v1/servers/${created.id}`, json({ queryPort: 30104 }, { method: 'PATCH', headers: owner.auth }))).status, 400);
  await app.request(
    `/api/v1/servers/${created.id}`,
    json({ ready: { mode: 'LINE', pattern: '^Done \\(', timeoutSeconds: 60 } }, { method: 'PATCH', headers: owner.auth }),
  );
  const surrogate = await app.request(
    `/api/v1/servers/${created.id}`,
    json({ ready: { mode: 'LINE', pattern: '\ud83d' } }, { method: 'PATCH', headers: owner.auth }),
  );
  t.is(surrogate.status, 400);
  t.like((await getServer(created.id)).ready, { pattern: '^Done \\(' });
  const cleared = await app.request(`/api/v1/servers/${created.id}`, json({ ready: null, stop: null }, { method: 'PATCH', headers: owner.auth }));
  t.is(cleared.status, 200);
  t.like(await body(cleared), { ready: null, stop: null, consoleMode: 'STDIN' });

  const minecraft = await body(
    await create(clusterId, { machineId, gameType: 'MINECRAFT', autoInstall: false, gamePort: 30201, queryPort: 30202, rconPort: 30203 }),
  );
  const wrong = await app.request(`/api/v1/servers/${minecraft.id}`, json({ ready: { mode: 'IMMEDIATE' } }, { method: 'PATCH', headers: owner.auth }));
  t.is(wrong.status, 400);
  t.regex(JSON.stringify(await body(wrong)), /only CUSTOM servers take ready/);
});

test.serial('a game that prints a ready line and reads stdin: ONLINE on its line, console on stdin, stopped by its command', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    env: { FAKE_NO_RCON: '1' },
    ready: { mode: 'LINE', pattern: '^Server ready$' },
    consoleMode: 'STDIN',
    stop: { mode: 'COMMAND', command: 'quit', graceSeconds: 20 },
  });
  await reaches(server.id, 'OFFLINE');
  const started = await power(server.id, 'start');
  t.like(await body(started), { status: 'SUCCEEDED' });
  t.is((await getServer(server.id)).status, 'ONLINE');
  const answer = await app.request(`/api/v1/servers/${server.id}/rcon?wait=30`, json({ command: 'echo over stdin' }, { headers: owner.auth }));
  t.like(await body(answer), { success: true, output: 'over stdin' });
  t.like(await body(await power(server.id, 'stop')), { status: 'SUCCEEDED' });
  const log = await consoleLog(agent, server.id);
  t.regex(log, /Shutting down/);
  t.notRegex(log, /received SIG/, 'stopped by its command, not a signal');
});

test.serial('stop by a signal: the game gets that signal; console NONE refuses commands with 409', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    env: { FAKE_NO_RCON: '1' },
    ready: { mode: 'IMMEDIATE' },
    consoleMode: 'NONE',
    stop: { mode: 'SIGNAL', signal: 'SIGINT', graceSeconds: 20 },
  });
  await reaches(server.id, 'OFFLINE');
  t.like(await body(await power(server.id, 'start')), { status: 'SUCCEEDED' });
  // Ready at once means before the game has set up its handlers: it is given the time to (its first line).
  await until(async () => /Fake Source server/.test(await consoleLog(agent, server.id).catch(() => '')), 'the game running');
  const refused = await app.request(`/api/v1/servers/${server.id}/rcon`, json({ command: 'echo hi' }, { headers: owner.auth }));
  t.is(refused.status, 409);
  t.regex(String((await body(refused)).message), /no console \(consoleMode NONE\)/);
  t.like(await body(await power(server.id, 'stop')), { status: 'SUCCEEDED' });
  await until(async () => /received SIGINT/.test(await consoleLog(agent, server.id)), 'the game received SIGINT');
});

test.serial('ready when a port answers; STARTING says what it waits for, and the time-out says it too', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    env: { FAKE_NO_RCON: '1', FAKE_GAME_TCP: '1' },
    ready: { mode: 'PORT' },
    consoleMode: 'STDIN',
  });
  await reaches(server.id, 'OFFLINE');
  t.like(await body(await power(server.id, 'start')), { status: 'SUCCEEDED' });
  t.is((await getServer(server.id)).status, 'ONLINE');
  t.like(await body(await power(server.id, 'stop')), { status: 'SUCCEEDED' });

  // Nothing answers on RCON (the CUSTOM default): the reason names the port and the refusal.
  const waiting = await createFakeServer(app, owner, clusterId, machineId, { env: { FAKE_NO_RCON: '1' }, autoRestart: false });
  await reaches(waiting.id, 'OFFLINE');
  t.is((await power(waiting.id, 'start', 0)).status, 202);
  await until(
    async () => (await getServer(waiting.id)).statusReason === `waiting for RCON on port ${waiting.rconPort}: connection refused`,
    'STARTING says it waits for RCON',
  );
  t.is((await getServer(waiting.id)).status, 'STARTING');
  await power(waiting.id, 'kill');

  // A port nobody opens (its game port: this game listens on none), with a short time-out: CRASHED saying what it waited for.
  const never = await createFakeServer(app, owner, clusterId, machineId, {
    env: { FAKE_NO_RCON: '1' },
    ready: { mode: 'PORT', timeoutSeconds: 3 },
    consoleMode: 'STDIN',
    autoRestart: false,
  });
  await reaches(never.id, 'OFFLINE');
  const failed = await body(await power(never.id, 'start'));
  t.is(failed.status, 'FAILED');
  const reason = `waiting for port ${(await getServer(never.id)).gamePort} to accept connections: connection refused`;
  t.regex(String((failed.error as { message: string }).message), new RegExp(`not ready within 3 s \\(${reason}\\)`));
  t.true(
    agent.lines.some((line) => line.includes(never.id) && line.includes(reason)),
    'STARTING said so while it waited',
  );
});

test.serial('given up after its crashes: not started again by other servers changing, a reconnect or an agent restart; a START starts it', async (t) => {
  const { clusterId, machineId, token, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, { startCommand: "/bin/sh -c 'echo broken; exit 1'", autoRestart: true });
  await reaches(server.id, 'OFFLINE');
  t.is((await power(server.id, 'start', 0)).status, 202);
  // 5 crashes within 10 minutes (restarts after 1, 2, 4 and 8 s) stop the loop.
  await until(async () => /not restarted: crashed 5 times/.test((await getServer(server.id)).statusReason ?? ''), 'the restarts given up', 40_000);
  // The agent's log reaches this process a moment after its reports reach the service.
  await until(async () => launches(agent, server.id) === 5, 'five launches in the log');
  t.is((await getServer(server.id)).desiredStatus, 'RUNNING');

  // Unrelated activity: another server created, patched and deleted; each sends a servers:sync.
  const other = await createFakeServer(app, owner, clusterId, machineId);
  await app.request(`/api/v1/servers/${other.id}`, json({ name: 'renamed' }, { method: 'PATCH', headers: owner.auth }));
  await app.request(`/api/v1/servers/${other.id}`, { method: 'DELETE', headers: owner.auth });
  // A reconnect (the gateway drops the agent): another sync, and every server reported again.
  app.gateway.session(machineId)!.link.close();
  await reaches(server.id, 'UNKNOWN', 5_000);
  await reaches(server.id, 'CRASHED', 10_000);
  // A status report after the last sync proves the agent has applied it (syncs are applied in order).
  const marker = await createFakeServer(app, owner, clusterId, machineId);
  await reaches(marker.id, 'OFFLINE');
  t.is(launches(agent, server.id), 5, 'no launch after giving up');
  t.regex((await getServer(server.id)).statusReason ?? '', /not restarted: crashed 5 times/);

  // The agent restarts (its games keep running, as installed): still held.
  await agent.stop();
  const next = await startAgent({ url: app.url, machineId, token, dataDir: agent.dataDir, keepServers: true });
  agents.push(next);
  await until(async () => next.lines.some((line) => line.includes(marker.id) && line.includes('"msg":"server OFFLINE"')), 'the new agent synced');
  t.is(launches(next, server.id), 0, 'the new agent does not start it');
  t.is((await getServer(server.id)).status, 'CRASHED');

  // A person starts it: launched again (and it crashes again, as it is still broken).
  const started = await body(await power(server.id, 'start'));
  t.is(started.status, 'FAILED');
  t.regex(String((started.error as { message: string }).message), /crashed while starting/);
  await until(async () => launches(next, server.id) >= 1, 'launched by the START');
  t.pass();
});

test.serial('Start on a server whose install failed or never ran is 409 with the reason; the reason stays through syncs', async (t) => {
  const { clusterId, machineId } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    installCommand: "/bin/sh -c 'echo no space left on device >&2; exit 1'",
    autoInstall: true,
  });
  await reaches(server.id, 'INSTALL_FAILED');
  const reasonBefore = (await getServer(server.id)).statusReason;
  const refused = await power(server.id, 'start');
  t.is(refused.status, 409);
  const answer = await body(refused);
  t.like(answer, { statusCode: 409, error: 'Conflict' });
  t.regex(String(answer.message), /cannot be started: its last install failed: .*Install it first/);
  const after = await getServer(server.id);
  t.is(after.desiredStatus, 'STOPPED', 'a refused start changes nothing');
  const jobs = await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM jobs WHERE server_id = ${server.id} AND type = 'START'`);
  t.is(jobs, 0);

  // A sync (the server patched) keeps the install's reason.
  await app.request(`/api/v1/servers/${server.id}`, json({ name: 'renamed' }, { method: 'PATCH', headers: owner.auth }));
  const other = await createFakeServer(app, owner, clusterId, machineId);
  await reaches(other.id, 'OFFLINE');
  t.like(await getServer(server.id), { status: 'INSTALL_FAILED', statusReason: reasonBefore });

  // An install asked for but never run (cancelled before its agent took it): 409 too.
  const { clusterId: lonelyCluster, machineId: lonelyMachine } = await registerMachine(app, owner);
  const rust = await create(lonelyCluster, { machineId: lonelyMachine, gameType: 'RUST' });
  const installJob = rust.headers.get('GSM-Install-Job')!;
  const rustServer = await body(rust);
  await app.request(`/api/v1/jobs/${installJob}/cancel`, { method: 'POST', headers: owner.auth });
  const never = await power(rustServer.id, 'start', 0);
  t.is(never.status, 409);
  t.regex(String((await body(never)).message), /never installed \(its install was cancelled\)/);
});

test.serial('a ready pattern runs in linear time: backreferences and lookaround are 400; a catastrophic pattern and line do not block the agent', async (t) => {
  const { clusterId, machineId } = await machineWithAgent();
  for (const pattern of ['^(a)\\1$', '(?=Done)Done', '(?<!not )ready', 'a{1,1000}']) {
    const response = await create(clusterId, { machineId, gameType: 'CUSTOM', startCommand: './run', ready: { mode: 'LINE', pattern } });
    t.is(response.status, 400, pattern);
    t.regex(JSON.stringify(await body(response)), /must run in linear time/);
  }

  // `^(a+)+$` on 40 a's and a b backtracks 2^40 times: the agent would test it for hours, every other server waiting.
  const line = `${'a'.repeat(40)}b`;
  const evil = await createFakeServer(app, owner, clusterId, machineId, {
    startCommand: `/bin/sh -c 'for i in 1 2 3 4 5; do echo ${line}; done; exec sleep 600'`,
    ready: { mode: 'LINE', pattern: '^(a+)+$', timeoutSeconds: 400 },
    consoleMode: 'NONE',
    stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
  });
  const other = await createFakeServer(app, owner, clusterId, machineId);
  await reaches(evil.id, 'OFFLINE');
  await reaches(other.id, 'OFFLINE');
  t.is((await power(evil.id, 'start', 0)).status, 202);
  await until(async () => (await getServer(evil.id)).statusReason?.startsWith('waiting for a line') ?? false, 'the pattern server STARTING');
  t.like(await body(await power(other.id, 'start')), { status: 'SUCCEEDED' });
  t.is((await getServer(evil.id)).status, 'STARTING');
  t.like(await body(await power(evil.id, 'kill')), { status: 'SUCCEEDED' });
  t.like(await body(await power(other.id, 'stop')), { status: 'SUCCEEDED' });
});

test.serial(
  'the install 409 is narrow: START on an ONLINE server is "already online"; a failed UPDATE of an installed server still starts; a CUSTOM server without installCommand cannot be installed',
  async (t) => {
    const { clusterId, machineId } = await machineWithAgent();
    const failing = "/bin/sh -c 'echo mirror down >&2; exit 1'";
    // Never installed (autoInstall false), running; an UPDATE that fails starts it again on its files.
    const running = await createFakeServer(app, owner, clusterId, machineId, { installCommand: failing });
    await reaches(running.id, 'OFFLINE');
    t.like(await body(await power(running.id, 'start')), { status: 'SUCCEEDED' });
    t.like(await body(await power(running.id, 'update', 60)), { status: 'FAILED' });
    await reaches(running.id, 'ONLINE');
    const again = await power(running.id, 'start');
    t.is(again.status, 200);
    t.like(await body(again), { status: 'SUCCEEDED', result: { message: 'already online' } });
    t.like(await body(await power(running.id, 'stop')), { status: 'SUCCEEDED' });

    // Installed once, then an UPDATE fails: INSTALL_FAILED, but its previous installation starts.
    const installed = await createFakeServer(app, owner, clusterId, machineId, { installCommand: "/bin/sh -c 'echo installed'", autoInstall: true });
    await until(async () => (await getServer(installed.id)).installedAt !== null, 'the install recorded');
    await app.request(`/api/v1/servers/${installed.id}`, json({ installCommand: failing }, { method: 'PATCH', headers: owner.auth }));
    t.like(await body(await power(installed.id, 'update', 60)), { status: 'FAILED' });
    await reaches(installed.id, 'INSTALL_FAILED');
    t.like(await body(await power(installed.id, 'start')), { status: 'SUCCEEDED' });
    t.is((await getServer(installed.id)).status, 'ONLINE');
    t.like(await body(await power(installed.id, 'stop')), { status: 'SUCCEEDED' });

    // No installCommand: INSTALL and UPDATE are 409 and make no job (create with autoInstall is a 400).
    const bare = await createFakeServer(app, owner, clusterId, machineId);
    for (const action of ['install', 'update']) {
      const refused = await power(bare.id, action, 0);
      t.is(refused.status, 409, action);
      t.regex(String((await body(refused)).message), /no installCommand/);
    }
    t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM jobs WHERE server_id = ${bare.id}`), 0);
    const created = await create(clusterId, {
      machineId,
      gameType: 'CUSTOM',
      startCommand: './run',
      autoInstall: true,
      gamePort: 30301,
      queryPort: 30302,
      rconPort: 30303,
    });
    t.is(created.status, 400);
  },
);

test.serial('an UPDATE that starts a held server again clears its hold: a later crash is restarted', async (t) => {
  const { clusterId, machineId } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    installCommand: "/bin/sh -c 'echo updated'",
    ready: { mode: 'PORT', timeoutSeconds: 2 },
  });
  await reaches(server.id, 'OFFLINE');
  t.like(await body(await power(server.id, 'start')), { status: 'FAILED' });
  t.regex((await getServer(server.id)).statusReason ?? '', /not ready within 2 s/);
  // Held. Ready on RCON from now on, and updated: the update starts it (its desired status is RUNNING).
  await app.request(`/api/v1/servers/${server.id}`, json({ ready: null }, { method: 'PATCH', headers: owner.auth }));
  t.like(await body(await power(server.id, 'update', 60)), { status: 'SUCCEEDED' });
  await reaches(server.id, 'ONLINE');
  await app.request(`/api/v1/servers/${server.id}/rcon?wait=5`, json({ command: 'sim.crash' }, { headers: owner.auth }));
  await reaches(server.id, 'CRASHED');
  await reaches(server.id, 'ONLINE', 20_000);
  t.like(await body(await power(server.id, 'stop')), { status: 'SUCCEEDED' });
});

test.serial('an agent restart after a first install failed (the server never launched) keeps INSTALL_FAILED and its reason', async (t) => {
  const { clusterId, machineId, token, agent } = await machineWithAgent();
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    installCommand: "/bin/sh -c 'echo disk quota exceeded >&2; exit 1'",
    autoInstall: true,
  });
  await reaches(server.id, 'INSTALL_FAILED');
  const reason = (await getServer(server.id)).statusReason;
  await agent.stop();
  const next = await startAgent({ url: app.url, machineId, token, dataDir: agent.dataDir, keepServers: true });
  agents.push(next);
  const reported = (status: string) => next.lines.some((line) => line.includes(`"serverId":"${server.id}"`) && line.includes(`"msg":"server ${status}"`));
  await until(async () => reported('INSTALL_FAILED'), 'the new agent reports INSTALL_FAILED');
  const marker = await createFakeServer(app, owner, clusterId, machineId);
  await reaches(marker.id, 'OFFLINE');
  t.false(reported('OFFLINE'), 'not OFFLINE after the sync');
  t.like(await getServer(server.id), { status: 'INSTALL_FAILED', statusReason: reason });
});

test.serial('consoleMode NONE without a stop: a STOP sends SIGTERM at once, not after the stop time-out', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  // A stop time-out far beyond the STOP call's wait: only a SIGTERM sent at once ends the job within it.
  const agent = await startAgent({ url: app.url, machineId, token, keepServers: true, stopTimeoutMs: 120_000 });
  agents.push(agent);
  const server = await createFakeServer(app, owner, clusterId, machineId, { env: { FAKE_NO_RCON: '1' }, ready: { mode: 'IMMEDIATE' }, consoleMode: 'NONE' });
  await reaches(server.id, 'OFFLINE');
  t.like(await body(await power(server.id, 'start')), { status: 'SUCCEEDED' });
  await until(async () => /Fake Source server/.test(await consoleLog(agent, server.id).catch(() => '')), 'the game running');
  t.like(await body(await power(server.id, 'stop', 30)), { status: 'SUCCEEDED' });
  t.regex(await consoleLog(agent, server.id), /received SIGTERM/);
});

test.serial("a STOP waits for the server's own graceSeconds before failing: the job's limit follows the server's stop", async (t) => {
  const { clusterId, machineId } = await machineWithAgent();
  // The agent's own stop limit here is 12 s (a stop time-out of 1 s); this game ignores its stop signal for 15 s.
  const server = await createFakeServer(app, owner, clusterId, machineId, {
    startCommand: `/bin/sh -c 'trap "" USR2; echo up; exec sleep 600'`,
    ready: { mode: 'IMMEDIATE' },
    consoleMode: 'NONE',
    stop: { mode: 'SIGNAL', signal: 'SIGUSR2', graceSeconds: 15 },
  });
  await reaches(server.id, 'OFFLINE');
  t.like(await body(await power(server.id, 'start')), { status: 'SUCCEEDED' });
  const stopped = await body(await power(server.id, 'stop', 40));
  t.like(stopped, { status: 'SUCCEEDED', result: { message: 'offline' } });
  t.is((await getServer(server.id)).status, 'OFFLINE');
});

test.serial("the install check reads a server's latest INSTALL or UPDATE job through its own index", async (t) => {
  const plan = await app.pool.transaction(async (tx) => {
    // Few rows here: the planner would scan; what matters is that the index serves this lookup.
    await tx.query(sql.unsafe`SET LOCAL enable_seqscan = off`);
    const rows = await tx.any(sql.unsafe`
      EXPLAIN SELECT type, status, error FROM jobs
       WHERE server_id = ${'00000000-0000-4000-8000-000000000000'} AND type IN ('INSTALL', 'UPDATE')
       ORDER BY created_at DESC, id DESC LIMIT 1`);
    return rows.map((row) => Object.values(row as Record<string, unknown>).join(' ')).join('\n');
  });
  t.regex(plan, /Index Scan using jobs_server_installs_idx/);
  t.notRegex(plan, /Sort/, 'read newest first, not sorted');
});

test.serial('an agent older than these settings: they are 400 on its machine; this agent takes a mode it does not know as the default', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  await app.pool.query(sql.unsafe`UPDATE machines SET agent_version = '0.0.9' WHERE id = ${machineId}`);
  const old = await create(clusterId, { machineId, gameType: 'CUSTOM', startCommand: './run', consoleMode: 'STDIN' });
  t.is(old.status, 400);
  t.regex(JSON.stringify(await body(old)), /agent is version 0\.0\.9, which does not know consoleMode \(it needs 0\.1\.0 or newer\)/);
  const plain = await create(clusterId, { machineId, gameType: 'CUSTOM', startCommand: './run' });
  t.is(plain.status, 201);
  const plainId = String((await body(plain)).id);
  const patched = await app.request(
    `/api/v1/servers/${plainId}`,
    json({ stop: { mode: 'SIGNAL', signal: 'SIGINT' } }, { method: 'PATCH', headers: owner.auth }),
  );
  t.is(patched.status, 400);
  t.like(await getServer(plainId), { stop: null });

  // From a newer service: unknown modes are the defaults, the rest of the server's configuration is kept.
  const config = serverConfig.parse({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'x',
    gameType: 'CUSTOM',
    gamePort: 1,
    queryPort: 2,
    rconPort: 3,
    rconPassword: 'p',
    maxPlayers: 1,
    autoRestart: true,
    desiredStatus: 'RUNNING',
    startCommand: './run',
    env: null,
    ready: { mode: 'LOG_FILE', path: 'x' },
    consoleMode: 'WEBSOCKET',
    stop: { mode: 'COMMAND', command: 'stop' },
  });
  t.like(config, { ready: null, consoleMode: null, stop: { mode: 'COMMAND', command: 'stop' }, startCommand: './run' });
});

test.serial('a PATCH that changes neither the ready port nor a port is not refused over the stored ready port', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const created = await body(
    await create(clusterId, { machineId, name: 'old-ready', gameType: 'CUSTOM', startCommand: './run', ready: { mode: 'PORT', port: 30101 } }),
  );
  // A setting stored before its port had to be one of the server's own.
  await app.pool.query(sql.unsafe`UPDATE servers SET ready = '{"mode":"PORT","port":25}'::jsonb WHERE id = ${created.id}`);
  const patch = (fields: Record<string, unknown>) =>
    app.request(`/api/v1/servers/${created.id}`, {
      method: 'PATCH',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });
  const renamed = await patch({ name: 'renamed' });
  t.is(renamed.status, 200);
  t.is((await body(renamed)).name, 'renamed');
  // Changing a port (or the ready setting) checks it again.
  const moved = await patch({ gamePort: 30111 });
  t.is(moved.status, 400);
  t.regex(JSON.stringify(await body(moved)), /port must be one of the server's own ports/);
  t.is((await getServer(created.id)).gamePort, 30101);
});
