/**
 * Game servers survive their agent: the real agent is killed with SIGKILL while a game runs with a real player
 * connected over TCP; a new agent on the same data directory adopts the process (same pid, no restart), reports it
 * ONLINE, relays its console and runs commands (RCON and, for Minecraft-style games, standard input through the named
 * pipe). A game that died while no agent ran is CRASHED and restarted by its policy. As root, games run as their own
 * unprivileged account and cannot read each other's files.
 */
import test from 'ava';
import { connect, type Socket } from 'node:net';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, FAKE_SERVER, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { userInfo } from 'node:os';
import { accountNameOf } from '../../agent/servers/accounts.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  // The service's reconnect grace: an agent back within it leaves its servers' status as it was.
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true, reconnectGraceSeconds: 20 });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

const post = (path: string, payload: unknown) => app.request(path, json(payload, { headers: owner.auth }));
const statusOf = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));
const reaches = (serverId: string, status: string, timeoutMs?: number) =>
  until(async () => (await statusOf(serverId)) === status, `server ${status}`, timeoutMs);
/** The pid the agent recorded for a server's process (waited for: `?wait=` may answer before a slow start is recorded). */
const pidOf = async (agent: AgentProcess, serverId: string) => {
  const file = join(agent.dataDir, 'run', serverId, 'process.json');
  await until(async () => existsSync(file), `the agent records the process of ${serverId}`, 60_000);
  return (JSON.parse(await readFile(file, 'utf8')) as { pid: number }).pid;
};
/** Alive and not a zombie (in a container, PID 1 may never reap an orphaned game). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** A player connected to the game's own port, with the lines the game sends it. */
async function player(port: number, name: string) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const lines: string[] = [];
  let closed = false;
  socket.on('close', () => (closed = true));
  createInterface({ input: socket }).on('line', (line) => lines.push(line));
  socket.write(`hello ${name}\n`);
  await until(async () => lines.includes(`welcome ${name}`), 'welcomed');
  const ping = async () => {
    const before = lines.filter((line) => line === 'pong').length;
    socket.write('ping\n');
    await until(async () => lines.filter((line) => line === 'pong').length > before, 'pong', 5_000);
  };
  return { socket, ping, closed: () => closed };
}

/** Server statuses the agent reported (from the event log) since `since`. */
const reportedSince = async (serverId: string, since: string) =>
  app.pool.anyFirst(
    sql.unsafe`SELECT data->>'status' FROM events WHERE type = 'server.status' AND server_id = ${serverId} AND at > ${since} ORDER BY at, id`,
  ) as Promise<readonly string[]>;

test.serial('kill -9 of the agent: the game keeps running with its player connected; the next agent adopts it without a restart', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
  agents.push(first);
  const server = await createFakeServer(app, owner, clusterId, machineId, { env: { FAKE_GAME_TCP: '1' } });
  const { gamePort } = await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }));
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
  await reaches(server.id, 'ONLINE');
  const alice = await player(gamePort, 'alice');
  const pid = await pidOf(first, server.id);

  // The server's status as the service answers it, sampled every 50 ms from before the kill until the end.
  const seen = new Set<string>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      seen.add(String((await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))).status));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const killedAt = new Date().toISOString();
  first.child.kill('SIGKILL');
  await first.exited;
  t.true(alive(pid), 'the game outlives its agent');
  await alice.ping();

  const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir });
  agents.push(second);
  await until(async () => second.lines.some((line) => line.includes('adopted a running game server')), 'adopted');
  await reaches(server.id, 'ONLINE', 15_000);
  t.is(await pidOf(second, server.id), pid, 'the same process: not restarted');
  t.false(alice.closed());
  await alice.ping();
  sampling = false;
  await sampler;
  t.deepEqual([...seen], ['ONLINE'], 'ONLINE throughout: the machine was OFFLINE for a moment, its server never changed');
  const reports = await reportedSince(server.id, killedAt);
  t.true(
    reports.every((status) => status === 'ONLINE'),
    JSON.stringify(reports),
  );
  t.false(second.lines.some((line) => line.includes('"msg":"server STARTING"')));

  // The adopted game's commands and console still work.
  const answer = await body(await post(`/api/v1/servers/${server.id}/rcon?wait=20`, { command: 'echo after adoption' }));
  t.like(answer, { status: 'SUCCEEDED', output: 'after adoption' });
  const bob = await player(gamePort, 'bob');
  await until(
    async () => (await readFile(join(second.dataDir, 'logs', server.id, 'console.log'), 'utf8')).includes('Player connected: bob (bob)'),
    'the console of the adopted game is relayed',
  );
  await until(
    async () => Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM player_sessions WHERE server_id = ${server.id} AND left_at IS NULL`)) === 2,
    'both players online',
  );
  bob.socket.destroy();
  alice.socket.destroy();

  // A STOP job stops it, as always.
  t.is((await post(`/api/v1/servers/${server.id}/stop?wait=30`, {})).status, 200);
  await reaches(server.id, 'OFFLINE');
  t.false(alive(pid));
});

test.serial('stdin-console games (Minecraft) take commands through the named pipe after adoption', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
  agents.push(first);
  const server = await createFakeServer(app, owner, clusterId, machineId, { gameType: 'MINECRAFT', env: { FAKE_MODE: 'minecraft', FAKE_PLAYERS: 'u1:Steve' } });
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
  const pid = await pidOf(first, server.id);
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir });
  agents.push(second);
  await until(async () => second.lines.some((line) => line.includes('adopted a running game server')), 'adopted');
  await reaches(server.id, 'ONLINE', 15_000);
  t.is(await pidOf(second, server.id), pid);
  // Run without per-server accounts, a server runs as the agent's own user, and its record says so.
  const record = await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }));
  t.is(record.osUser, userInfo().username);
  const answer = await body(await post(`/api/v1/servers/${server.id}/rcon?wait=20`, { command: 'list' }));
  t.is(answer.status, 'SUCCEEDED', JSON.stringify(answer));
  t.regex(String(answer.output), /There are 1 of a max of \d+ players online: Steve/);
  // The graceful stop is the game's `stop` command, written to the pipe.
  t.is((await post(`/api/v1/servers/${server.id}/stop?wait=30`, {})).status, 200);
  t.regex(await readFile(join(second.dataDir, 'logs', server.id, 'console.log'), 'utf8'), /Stopping the server/);
  t.false(alive(pid));
});

test.serial('a game that died while no agent ran is reported CRASHED and restarted by its policy; a reused pid is never adopted', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
  agents.push(first);
  const crashed = await createFakeServer(app, owner, clusterId, machineId);
  const reused = await createFakeServer(app, owner, clusterId, machineId);
  for (const server of [crashed, reused]) t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
  const crashedPid = await pidOf(first, crashed.id);
  const reusedPid = await pidOf(first, reused.id);
  first.child.kill('SIGKILL');
  await first.exited;
  process.kill(-crashedPid, 'SIGKILL'); // dies while no agent runs
  // The other one's identity file now names its pid with another start time: as if the pid had been reused by a
  // stranger. The new agent must leave that process alone and start the server afresh.
  const file = join(first.dataDir, 'run', reused.id, 'process.json');
  const identity = JSON.parse(await readFile(file, 'utf8')) as { startTicks: string };
  await writeFile(file, JSON.stringify({ ...identity, startTicks: String(Number(identity.startTicks) + 7) }));

  const since = new Date().toISOString();
  const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir });
  agents.push(second);
  await until(async () => (await reportedSince(crashed.id, since)).includes('CRASHED'), 'CRASHED reported');
  await until(async () => second.lines.some((line) => line.includes('exited while no agent was running')), 'the reason in the log');
  await reaches(crashed.id, 'ONLINE', 20_000);
  t.not(await pidOf(second, crashed.id), crashedPid, 'restarted by its policy');

  // The server whose pid is now a stranger's is not adopted (reported as ended) and the stranger is not touched.
  await until(async () => (await reportedSince(reused.id, since)).includes('CRASHED'), 'the other one is not adopted');
  t.true(alive(reusedPid), 'the stranger holding the pid is not touched');
  process.kill(-reusedPid, 'SIGKILL'); // here the "stranger" holds the server's ports: gone, the restart can work
  await reaches(reused.id, 'ONLINE', 20_000);
  t.not(await pidOf(second, reused.id), reusedPid);
});

test.serial('run as root, each game runs as its own unprivileged account and cannot read another game’s files', async (t) => {
  if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token, accounts: true });
  agents.push(agent);
  const one = await createFakeServer(app, owner, clusterId, machineId);
  const two = await createFakeServer(app, owner, clusterId, machineId);
  for (const server of [one, two]) t.is((await post(`/api/v1/servers/${server.id}/start?wait=60`, {})).status, 200);
  const uidOf = async (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]);
  const uidOne = await uidOf(await pidOf(agent, one.id));
  const uidTwo = await uidOf(await pidOf(agent, two.id));
  t.not(uidOne, 0);
  t.not(uidTwo, 0);
  t.not(uidOne, uidTwo);
  t.is(execFileSync('id', ['-nu', String(uidOne)], { encoding: 'utf8' }).trim(), accountNameOf('gsm', one.id));
  // The server record says which account it runs as (reported by the agent with its status).
  const osUserOf = async (id: string) => (await body(await app.request(`/api/v1/servers/${id}`, { headers: owner.auth }))).osUser;
  await until(async () => (await osUserOf(one.id)) === accountNameOf('gsm', one.id), 'osUser reported');
  t.is(await osUserOf(two.id), accountNameOf('gsm', two.id));
  const dirOne = join(agent.dataDir, 'servers', one.id);
  t.is((await stat(dirOne)).uid, uidOne);
  t.is((await stat(dirOne)).mode & 0o777, 0o700);
  // Server two's account tries to read server one's files.
  await writeFile(join(dirOne, 'secret.txt'), 'one');
  const account = execFileSync('id', ['-nu', String(uidTwo)], { encoding: 'utf8' }).trim();
  const gidTwo = execFileSync('id', ['-g', account], { encoding: 'utf8' }).trim();
  const attempt = (() => {
    try {
      execFileSync('setpriv', [`--reuid=${uidTwo}`, `--regid=${gidTwo}`, '--clear-groups', 'cat', join(dirOne, 'secret.txt')], { stdio: 'pipe' });
      return 'read';
    } catch {
      return 'refused';
    }
  })();
  t.is(attempt, 'refused', `${account} must not read server one's files`);
  t.is((await stat(join(agent.dataDir, 'run'))).mode & 0o077, 0, "the agent's own run files are closed to the games");
});

test.serial('a graceful agent restart (SIGTERM, as an upgrade does) leaves the game running and the next agent adopts it', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
  agents.push(first);
  const server = await createFakeServer(app, owner, clusterId, machineId);
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
  const pid = await pidOf(first, server.id);
  first.child.kill('SIGTERM');
  t.is(await first.exited, 0);
  await until(async () => first.lines.some((line) => line.includes('the game servers keep running')), 'says so');
  t.true(alive(pid));
  const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir });
  agents.push(second);
  await until(async () => second.lines.some((line) => line.includes('adopted a running game server')), 'adopted');
  await reaches(server.id, 'ONLINE', 15_000);
  t.is(await pidOf(second, server.id), pid);
});

test.serial(
  'SIGTERM while a RESTART runs: the agent lets it end and stores its result; the next agent answers it from there, the game restarted once; a job queued behind it and cancelled meanwhile ends CANCELLED',
  async (t) => {
    const { clusterId, machineId, token } = await registerMachine(app, owner);
    const first = await startAgent({ url: app.url, machineId, token, keepServers: true, stopTimeoutMs: 20_000 });
    agents.push(first);
    const log = join(first.dataDir, 'commands.log');
    // Ready 3 s after it starts: the RESTART is still running when the agent is told to stop.
    const server = await createFakeServer(app, owner, clusterId, machineId, {
      startCommand: `/usr/bin/env FAKE_COMMAND_LOG=${log} FAKE_READY_DELAY_MS=3000 ${process.execPath} ${FAKE_SERVER}`,
    });
    t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
    const restart = await body(await post(`/api/v1/servers/${server.id}/restart`, {}));
    // A second RESTART queued behind the first: accepted by this agent (DISPATCHED), never started by it.
    const queued = await body(await post(`/api/v1/servers/${server.id}/restart`, {}));
    await until(async () => (await app.pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${queued.id}`)) === 'DISPATCHED', 'the agent accepted it');
    await until(async () => (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('start ')).length === 2, 'the game started again');
    first.child.kill('SIGTERM');
    t.is(await first.exited, 0);
    // Cancelled while no agent is connected: the next agent gets only the cancel, and must end the job, not ignore it.
    const cancel = await post(`/api/v1/jobs/${queued.id}/cancel`, {});
    t.is(cancel.status, 202);
    t.is((await body(cancel)).status, 'DISPATCHED');
    const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir, keepServers: true });
    agents.push(second);
    const ended = await body(await app.request(`/api/v1/jobs/${restart.id}?wait=30`, { headers: owner.auth }));
    t.is(ended.status, 'SUCCEEDED');
    const cancelled = await body(await app.request(`/api/v1/jobs/${queued.id}?wait=30`, { headers: owner.auth }));
    t.is(cancelled.status, 'CANCELLED');
    await reaches(server.id, 'ONLINE', 15_000);
    const starts = (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('start '));
    t.is(starts.length, 2, 'the game started once for START and once for the RESTART, not again by the next agent');
  },
);

test.serial(
  'SIGKILL while a RESTART runs (as a release whose agent stores no result at its stop): the next agent finds the game restarted since the job was accepted and does not restart it again',
  async (t) => {
    const { clusterId, machineId, token } = await registerMachine(app, owner);
    const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
    agents.push(first);
    const log = join(first.dataDir, 'commands.log');
    const server = await createFakeServer(app, owner, clusterId, machineId, {
      startCommand: `/usr/bin/env FAKE_COMMAND_LOG=${log} FAKE_READY_DELAY_MS=3000 ${process.execPath} ${FAKE_SERVER}`,
    });
    t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
    const startsSoFar = async () => (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('start ')).length;
    const restart = await body(await post(`/api/v1/servers/${server.id}/restart`, {}));
    await until(async () => (await startsSoFar()) === 2, 'the game started again');
    // Its process is recorded before the agent dies (adopted by the next one), the job not ended.
    let restartedPid = 0;
    await until(async () => {
      const file = join(first.dataDir, 'run', server.id, 'process.json');
      const pid = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { pid?: number }).pid : undefined;
      const starts = (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('start '));
      restartedPid = pid !== undefined && starts.at(-1) === `start ${pid}` ? pid : 0;
      return restartedPid !== 0;
    }, 'the new process recorded');
    first.child.kill('SIGKILL');
    await first.exited;
    t.not(String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${restart.id}`)), 'SUCCEEDED');
    const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir, keepServers: true });
    agents.push(second);
    const ended = await body(await app.request(`/api/v1/jobs/${restart.id}?wait=30`, { headers: owner.auth }));
    t.is(ended.status, 'SUCCEEDED');
    t.is(ended.result.message, 'a process started since the restart was accepted runs (the agent was replaced meanwhile)');
    await reaches(server.id, 'ONLINE', 15_000);
    t.is(await startsSoFar(), 2, 'started once for START and once for the RESTART, not again by the next agent');
    t.is(await pidOf(second, server.id), restartedPid);
  },
);

test.serial(
  'SIGKILL while a RESTART waits its turn (queued behind a long RCON command): the next agent restarts the game, which started before it was accepted',
  async (t) => {
    const { clusterId, machineId, token } = await registerMachine(app, owner);
    const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
    agents.push(first);
    const log = join(first.dataDir, 'commands.log');
    const server = await createFakeServer(app, owner, clusterId, machineId, {
      startCommand: `/usr/bin/env FAKE_COMMAND_LOG=${log} ${process.execPath} ${FAKE_SERVER}`,
    });
    t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
    const startsSoFar = async () => (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('start ')).length;
    // The RCON command holds the server's lane; the RESTART behind it is accepted (DISPATCHED), never started.
    await post(`/api/v1/servers/${server.id}/rcon?wait=0`, { command: 'sleep 6000' });
    await until(async () => (await readFile(log, 'utf8')).includes('sleep 6000'), 'the command running');
    const restart = await body(await post(`/api/v1/servers/${server.id}/restart`, {}));
    await until(async () => (await app.pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${restart.id}`)) === 'DISPATCHED', 'accepted');
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startAgent({ url: app.url, machineId, token, dataDir: first.dataDir, keepServers: true });
    agents.push(second);
    const ended = await body(await app.request(`/api/v1/jobs/${restart.id}?wait=60`, { headers: owner.auth }));
    t.is(ended.status, 'SUCCEEDED');
    t.is(ended.result.message, 'restarted');
    t.is(await startsSoFar(), 2, 'started for START, then restarted by the RESTART the next agent ran');
  },
);

test.serial('where no cgroup enforces it, a server over its memory limit is stopped by the agent: CRASHED, saying why', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  // No cgroup v2 here (GSM_CGROUP_ROOT names a directory without controllers): the agent watches memory itself.
  const agent = await startAgent({ url: app.url, machineId, token, env: { GSM_CGROUP_ROOT: '/nonexistent' } });
  agents.push(agent);
  const server = await createFakeServer(app, owner, clusterId, machineId, { memoryLimitMb: 256, autoRestart: false });
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=30`, {})).status, 200);
  await post(`/api/v1/servers/${server.id}/rcon?wait=20`, { command: 'sim.alloc 300' });
  await reaches(server.id, 'CRASHED', 15_000);
  const record = await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }));
  t.regex(String(record.statusReason), /memory use \d+ MiB over its limit of 256 MiB/);
});

test.serial(
  'as root, a deleted server leaves nothing on the machine but its backups: no process, no directory; its account is retired, never reused',
  async (t) => {
    if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
    // Accounts of a prefix of this test's own, removed afterwards.
    const prefix = `gd${Date.now().toString(36).slice(-5)}`;
    t.teardown(() => {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const name = line.split(':')[0]!;
        if (name !== prefix && !name.startsWith(`${prefix}-`)) continue;
        spawnSync('pkill', ['-KILL', '-u', name]); // a failed test may leave its game running
        spawnSync('userdel', [name]);
      }
      spawnSync('groupdel', [prefix]);
    });
    const { clusterId, machineId, token } = await registerMachine(app, owner);
    const agent = await startAgent({ url: app.url, machineId, token, accounts: true, env: { GSM_USER: prefix } });
    agents.push(agent);
    const server = await createFakeServer(app, owner, clusterId, machineId);
    t.is((await post(`/api/v1/servers/${server.id}/start?wait=60`, {})).status, 200);
    const name = accountNameOf(prefix, server.id);
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    // Something the game left running outside its process group.
    const stray = spawn('setsid', ['sleep', '1000'], { uid, gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()), stdio: 'ignore' });
    // A directory the game closed to itself: removed all the same.
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    const serverDir = join(agent.dataDir, 'servers', server.id);
    t.is(
      spawnSync('/bin/sh', ['-c', `mkdir -p "${serverDir}/closed/inner" && touch "${serverDir}/closed/inner/f" && chmod 000 "${serverDir}/closed"`], {
        uid,
        gid,
      }).status,
      0,
    );
    const backups = join(agent.dataDir, 'backups', server.id);
    await mkdir(backups, { recursive: true });
    await writeFile(join(backups, 'kept.txt'), 'a backup');
    t.is((await app.request(`/api/v1/servers/${server.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
    const retired = async () => JSON.parse(await readFile(join(agent.dataDir, 'accounts.json'), 'utf8').catch(() => '{}'))[name] === null;
    await until(retired, 'the account retired', 30_000);
    t.is(spawnSync('id', ['-u', name]).status, 0, 'the account stays (its uid is not given to another), recorded as no server’s');
    t.false(existsSync(join(agent.dataDir, 'servers', server.id)), 'its directory is gone');
    t.false(existsSync(join(agent.dataDir, 'run', server.id)));
    t.is(await readFile(join(backups, 'kept.txt'), 'utf8'), 'a backup', 'its backups stay');
    await until(async () => stray.exitCode !== null || stray.signalCode !== null, 'the stray process ended');
    // A process may end between the listing and the read of its status (any of the machine's): it is not left.
    const statusOf = (pid: string) => {
      try {
        return readFileSync(`/proc/${pid}/status`, 'utf8');
      } catch {
        return '';
      }
    };
    const left = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && /^Uid:\s+(\d+)/m.exec(statusOf(pid))?.[1] === String(uid));
    t.deepEqual(left, []);
  },
);

test.serial('an agent started with another machine’s id and the same data directory removes nothing of the servers it finds there', async (t) => {
  const first = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId: first.machineId, token: first.token, keepServers: true });
  agents.push(agent);
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId, { autoRestart: false });
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=60`, {})).status, 200);
  const serverDir = join(agent.dataDir, 'servers', server.id);
  await writeFile(join(serverDir, 'world.dat'), 'the world');
  await agent.stop(); // the game goes on running
  // Another machine's agent on the same data directory: it adopts the game, but the server is not its machine's.
  const second = await registerMachine(app, owner);
  const other = await startAgent({ url: app.url, machineId: second.machineId, token: second.token, dataDir: agent.dataDir });
  agents.push(other);
  await until(async () => other.lines.some((line) => line.includes('belongs to another machine')), 'the data directory seen as another machine’s');
  await until(async () => other.lines.some((line) => line.includes('no longer listed') && line.includes(server.id)), 'the server stopped');
  t.is(await readFile(join(serverDir, 'world.dat'), 'utf8'), 'the world', 'the first machine’s server keeps its files');
  await other.stop();
  // The first machine's agent again: the server is still its own, files and all.
  const again = await startAgent({ url: app.url, machineId: first.machineId, token: first.token, dataDir: agent.dataDir });
  agents.push(again);
  t.is((await post(`/api/v1/servers/${server.id}/start?wait=60`, {})).status, 200);
  t.is(await readFile(join(serverDir, 'world.dat'), 'utf8'), 'the world');
});
