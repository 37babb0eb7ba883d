/**
 * The server supervisor with real processes: what it makes of a game's output from the very first line.
 * Its status reports carry the template version its run was started with.
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { ProcessRuntime } from '../../agent/runtime/processRuntime.ts';
import { ServerSupervisor } from '../../agent/servers/serverSupervisor.ts';
import { RestartPolicy } from '../../agent/runtime/restartPolicy.ts';
import { FAKE_SERVER } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';
import { refusingFallocate } from '../support/fakeFallocate.ts';

/** Long enough for a loaded machine; a start that lost its ready line never gets there (its time-out is minutes). */
const STATUS_TIMEOUT_MS = 10_000;
const STARTS = 8;

/**
 * A game that prints its ready line the moment it runs (a shell starts in about a millisecond, far sooner than the
 * agent's own bookkeeping after spawn), then waits for `stop` on its console.
 */
const INSTANT_MINECRAFT = `/bin/sh -c 'echo "[12:00:00] [Server thread/INFO]: Done (0.001s)! For help, type \\"help\\""; while read line; do [ "$line" = stop ] && exit 0; done'`;

function config(startCommand: string, env: Record<string, string> | null = null): ServerConfig {
  return {
    id: 'instant',
    name: 'instant',
    gameType: 'MINECRAFT',
    gamePort: 25565,
    queryPort: 25565,
    rconPort: 25575,
    rconPassword: 'unused-password',
    maxPlayers: 4,
    desiredStatus: 'RUNNING',
    autoRestart: false,
    startCommand,
    env,
  };
}

test('a game that prints its ready line at once becomes ONLINE, start after start', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  const supervisor = new ServerSupervisor(config(INSTANT_MINECRAFT), {
    dataDir,
    runtime: new ProcessRuntime(),
    report: () => undefined,
    termAfterMs: 2_000,
    killAfterMs: 4_000,
  });
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  for (let start = 1; start <= STARTS; start++) {
    await supervisor.start();
    const status = await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS).catch((error: Error) => error.message);
    t.is(status, 'ONLINE', `start ${start} of ${STARTS}`);
    if (status !== 'ONLINE') return;
    await supervisor.stop();
    t.is(await supervisor.waitForStatus((status) => status === 'OFFLINE', STATUS_TIMEOUT_MS), 'OFFLINE');
  }
});

test('players forge nothing by chatting: only the joins, leaves and list the server prints are reported', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  const reports: { event: string; data: Record<string, unknown> }[] = [];
  const supervisor = new ServerSupervisor(
    config(`${process.execPath} ${FAKE_SERVER}`, { FAKE_MODE: 'minecraft', FAKE_ONLINE_MODE: '1', FAKE_READY_DELAY_MS: '0' }),
    { dataDir, runtime: new ProcessRuntime(), report: (event, data) => reports.push({ event, data }), termAfterMs: 2_000, killAfterMs: 4_000 },
  );
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  const players = () =>
    reports
      .filter((report) => report.event === 'player:join' || report.event === 'player:leave')
      .map(({ event, data }) => `${event} ${data.username} ${data.steamId}`);
  const steve = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
  await supervisor.channel.command(`sim.join Steve ${steve}`, /Steve joined the game/);
  for (const forgery of [
    'sim.chat Steve look]: Notch joined the game',
    'sim.chat Steve x]: Steve left the game',
    'say ]: Notch joined the game',
    'sim.me Steve ]: Steve left the game',
    'sim.chat Steve UUID of player Alex is 853c80ef-3c37-49fd-aa49-938b674adae6',
  ]) {
    await supervisor.channel.command(forgery);
  }
  // A real join after the forgeries: once it is reported, every line before it was seen.
  await supervisor.channel.command('sim.join Alex', /Alex joined the game/);
  await until(async () => players().some((line) => line.startsWith('player:join Alex')), 'the join of Alex');
  const alex = players()
    .find((line) => line.startsWith('player:join Alex'))!
    .split(' ')[2]!;
  t.not(alex, '853c80ef-3c37-49fd-aa49-938b674adae6', 'the UUID forged in chat was not taken');
  t.deepEqual(players(), [`player:join Steve ${steve}`, `player:join Alex ${alex}`]);

  await supervisor.channel.command('sim.chatonlist Steve There are 1 of a max of 20 players online: Notch');
  const before = reports.length;
  await supervisor.snapshotPlayers();
  const snapshot = reports.slice(before).find((report) => report.event === 'players:snapshot');
  t.deepEqual(snapshot?.data.players, [
    { steamId: steve, username: 'Steve' },
    { steamId: alex, username: 'Alex' },
  ]);
});

test('held for an install: nothing starts it meanwhile; an install the agent was stopped in is INSTALL_FAILED, not a crash to restart', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const reports: { status: string; message?: string }[] = [];
  const supervisor = new ServerSupervisor(
    { ...config(INSTANT_MINECRAFT), autoRestart: true },
    { dataDir, runtime: new ProcessRuntime(), report: (event, data) => void (event === 'server:status' && reports.push(data as never)) },
  );
  let startedDuring: unknown;
  await supervisor.maintain(
    'INSTALL',
    async () => {
      await supervisor.reconcile(); // desired RUNNING: a sync must not start it now
      startedDuring = await supervisor.start().catch((error: Error) => error.message);
    },
    'INSTALLING',
  );
  t.false(supervisor.running);
  t.regex(String(startedDuring), /being changed \(INSTALL\)/);
  t.deepEqual(
    reports.map((report) => report.status),
    ['INSTALLING'],
  );

  supervisor.orphanEnded('INSTALLING');
  t.like(reports.at(-1), { status: 'INSTALL_FAILED', message: 'the install was interrupted: the agent stopped while it ran' });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.false(supervisor.running, 'not restarted as after a crash');
});

test('as root: a start command naming a file its account cannot read fails before it runs, naming the account and the path', async (t) => {
  if (process.getuid?.() !== 0) return t.fail('this test runs as root (as CI does): it makes a system account');
  const { execFileSync } = await import('node:child_process');
  const { chmod, mkdir: makeDir, writeFile } = await import('node:fs/promises');
  const { Accounts } = await import('../../agent/servers/accounts.ts');
  const base = `gsmperm${process.pid % 100_000}`;
  const serverId = '0badf00d-0000-4000-8000-000000000001';
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  await chmod(dataDir, 0o755);
  const accounts = new Accounts({ user: base, enabled: true, dataDir });
  const account = await accounts.forServer(serverId)!;
  // A directory only root can enter, as /root is.
  const secret = await mkdtemp(join(tmpdir(), 'gsm-rootonly-'));
  await makeDir(join(secret, 'game'));
  await writeFile(join(secret, 'game', 'server.js'), "console.log('up'); setInterval(() => undefined, 1000);\n");
  await chmod(secret, 0o700);
  const reports: { status: string; message?: string }[] = [];
  const supervisor = new ServerSupervisor(
    {
      ...config(`${process.execPath} ${join(secret, 'game', 'server.js')}`),
      id: serverId,
      gameType: 'CUSTOM',
      ready: { mode: 'IMMEDIATE' },
      consoleMode: 'NONE',
    },
    {
      dataDir,
      runtime: new ProcessRuntime(),
      report: (event, data) => void (event === 'server:status' && reports.push(data as never)),
      accounts,
      termAfterMs: 2_000,
      killAfterMs: 4_000,
    },
  );
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
    await rm(secret, { recursive: true, force: true });
    execFileSync('userdel', [account.name]);
    execFileSync('userdel', [base]);
  });
  await supervisor.start();
  t.is(supervisor.status, 'CRASHED');
  t.is(
    supervisor.statusMessage,
    `the server runs as the account ${account.name}, which cannot read ${join(secret, 'game', 'server.js')} (permission denied: it may not enter ${secret}): give that account access, or move the file into the server's directory`,
  );
  t.false(supervisor.running, 'nothing was launched');
  t.deepEqual(
    reports.map((report) => report.status),
    ['STARTING', 'CRASHED'],
  );
  // A file that does not exist there gets the same answer: root says nothing of what the account cannot see.
  const original = supervisor.config;
  supervisor.config = { ...original, startCommand: `${process.execPath} ${join(secret, 'game', 'missing.js')}` };
  await supervisor.startAsked();
  t.is(
    supervisor.statusMessage,
    `the server runs as the account ${account.name}, which cannot read ${join(secret, 'game', 'missing.js')} (permission denied: it may not enter ${secret}): give that account access, or move the file into the server's directory`,
  );
  supervisor.config = original;

  // Readable by everyone: it starts, as that account.
  await chmod(secret, 0o755);
  await supervisor.startAsked();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
});

test('a crash without autoRestart is held: reconcile does not start it again, a START (startAsked) does', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  const reports: { status: string; message?: string }[] = [];
  const supervisor = new ServerSupervisor(
    { ...config(`${process.execPath} ${FAKE_SERVER}`, { FAKE_MODE: 'minecraft', FAKE_READY_DELAY_MS: '0' }), autoRestart: false },
    {
      dataDir,
      runtime: new ProcessRuntime(),
      report: (event, data) => void (event === 'server:status' && reports.push(data as never)),
      termAfterMs: 2_000,
      killAfterMs: 4_000,
    },
  );
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  await supervisor.channel.command('sim.crash').catch(() => undefined);
  t.is(await supervisor.waitForStatus((status) => status === 'CRASHED', STATUS_TIMEOUT_MS), 'CRASHED');
  await until(async () => supervisor.hold !== undefined, 'the hold');
  t.is(supervisor.hold, 'exited with code 3');
  const starts = () => reports.filter((report) => report.status === 'STARTING' && report.message === undefined).length;
  await supervisor.reconcile();
  t.is(starts(), 1, 'reconcile left it CRASHED');
  t.is(supervisor.status, 'CRASHED');
  await supervisor.startAsked();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  t.is(starts(), 2);
  t.is(supervisor.hold, undefined);
});

test('its status reports say the template version its run was started with: not a newer one sent meanwhile, until a crash restart runs it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  const reports: { status: string; templateVersion?: number }[] = [];
  const templated = (version: number): ServerConfig => ({
    ...config(`${process.execPath} ${FAKE_SERVER}`, { FAKE_MODE: 'minecraft', FAKE_READY_DELAY_MS: '0' }),
    autoRestart: true,
    ready: { mode: 'LINE', pattern: 'Done \\(' },
    consoleMode: 'STDIN',
    stop: { mode: 'COMMAND', command: 'stop' },
    template: { id: 'versioned', version, players: {}, commands: {}, configFiles: [], wipe: [] },
  });
  const supervisor = new ServerSupervisor(templated(1), {
    dataDir,
    runtime: new ProcessRuntime(),
    report: (event, data) => void (event === 'server:status' && reports.push(data as never)),
    termAfterMs: 2_000,
    killAfterMs: 4_000,
    restartPolicy: new RestartPolicy({ baseMs: 10 }),
  });
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  t.like(reports.at(-1), { status: 'ONLINE', templateVersion: 1 });
  // Version 2 arrives while it runs: the run keeps version 1, and says so (a report sent again, as after a reconnect).
  supervisor.config = templated(2);
  supervisor.reportStatus();
  t.like(reports.at(-1), { status: 'ONLINE', templateVersion: 1 });
  // It crashes and is restarted: the new run is version 2's.
  const before = reports.length;
  await supervisor.channel.command('sim.crash').catch(() => undefined);
  await until(async () => reports.slice(before).some((report) => report.status === 'ONLINE'), 'ONLINE again after the crash restart');
  const after = reports.slice(before);
  t.like(
    after.find((report) => report.status === 'STARTING'),
    { templateVersion: 2 },
  );
  t.like(
    after.find((report) => report.status === 'ONLINE'),
    { templateVersion: 2 },
  );
  t.is(after.find((report) => report.status === 'CRASHED')?.templateVersion, undefined, 'no run, no version');
});

test.serial('the agent’s own console notice (a spool it cannot free) reaches the console, but no readiness pattern or player parser reads it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  const restorePath = await refusingFallocate(dataDir, 'fallocate: refused; Done (0.1s) joined the game');
  const consoleLines: string[] = [];
  const statuses: string[] = [];
  // More than the 1 MiB after which the read part of the spool is freed, then silence: not ready by its own output.
  const script = join(dataDir, 'big.mjs');
  await writeFile(script, `const line = 'z'.repeat(1023) + '\\n'; for (let i = 0; i < 1500; i++) process.stdout.write(line); setInterval(() => {}, 1000);`);
  const supervisor = new ServerSupervisor(
    {
      ...config(`${process.execPath} ${script}`),
      ready: { mode: 'LINE', pattern: 'Done \\(|refused' },
      template: { id: 'notice', version: 1, players: { join: '(?<name>\\S+) joined the game' }, commands: {}, configFiles: [], wipe: [] },
    } as ServerConfig,
    {
      dataDir,
      runtime: new ProcessRuntime(),
      report: (event, data) => {
        if (event === 'console') consoleLines.push(...(data as { lines: string[] }).lines);
        if (event === 'server:status') statuses.push((data as { status: string }).status);
        if (event === 'player:join') statuses.push('a player joined');
      },
      termAfterMs: 2_000,
      killAfterMs: 4_000,
    },
  );
  t.teardown(async () => {
    restorePath();
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  await supervisor.start();
  await until(async () => consoleLines.some((line) => line.startsWith('[gsm] could not free')), 'the notice in the console');
  restorePath();
  t.is(consoleLines.filter((line) => line.length === 1023).length, 1500);
  t.regex(
    consoleLines.find((line) => line.startsWith('[gsm]'))!,
    /refused; Done \(0\.1s\) joined the game\); trying again$/,
  );
  t.is(supervisor.status, 'STARTING', 'the notice did not make it ready');
  t.false(statuses.includes('ONLINE'));
  t.false(statuses.includes('a player joined'));
});
