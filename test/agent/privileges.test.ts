/**
 * The agent as root never lets a game's account become root (docs/agent.md#least-privilege), with real system accounts
 * made for the test (a prefix of its own, removed afterwards), real processes and real files.
 */
import test from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installSteamApp } from '../../agent/installs/steam.ts';
import type { InstallContext } from '../../agent/installs/context.ts';
import { uninstall } from '../../agent/selfInstall/systemUnit.ts';
import { ProcessRuntime } from '../../agent/runtime/processRuntime.ts';
import { startAgent } from '../support/agentProcess.ts';
import { writeArchive } from '../../agent/backups/archiver.ts';
import { runInstallJob } from '../../agent/installs/installer.ts';
import { OutputLog } from '../../agent/runtime/outputLog.ts';
import { hasTraces, removeServer } from '../../agent/servers/removal.ts';
import { ServerSupervisor } from '../../agent/servers/serverSupervisor.ts';
import { wipe } from '../../agent/servers/wipe.ts';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import {
  ACCOUNTS_FILE,
  accountNameOf,
  Accounts,
  endProcessesOf,
  ensureBaseUser,
  legacyAccountNameOf,
  prepareServerDir,
  type Account,
} from '../../agent/servers/accounts.ts';
import { serveSteamcmd, startDownloadServer, type DownloadServer } from '../support/downloads.ts';

const isRoot = process.getuid?.() === 0;
/** This run's accounts: `<prefix>-…`, all removed afterwards. */
const prefix = `gt${randomBytes(3).toString('hex')}`;
let downloads: DownloadServer;
const attackers: ChildProcess[] = [];

test.before(async () => {
  downloads = await startDownloadServer();
});
test.after.always(async () => {
  for (const attacker of attackers) attacker.kill('SIGKILL');
  await downloads?.close();
  if (!isRoot) return;
  const passwd = await readFile('/etc/passwd', 'utf8');
  for (const line of passwd.split('\n')) {
    const name = line.split(':')[0]!;
    if (name.startsWith(`${prefix}-`)) {
      spawnSync('pkill', ['-KILL', '-u', name]);
      spawnSync('userdel', [name]);
    }
  }
  for (const group of [prefix]) {
    spawnSync('userdel', [group]);
    spawnSync('groupdel', [group]);
  }
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-priv-'));
  await chmod(dir, 0o711);
  await mkdir(join(dir, 'servers'), { mode: 0o711 });
  await chmod(join(dir, 'servers'), 0o711);
  return dir;
}

/** Pids of every process running as `uid` (from /proc; zombies excluded: they run nothing). */
async function processesOf(uid: number): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    const owner = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    const state = /^State:\s+(\S)/m.exec(status)?.[1];
    if (owner === String(uid) && state !== 'Z') found.push(Number(name));
  }
  return found;
}

/** A process of the account's own (the game, or anything it left running). */
function runAsAccount(account: Account, script: string): ChildProcess {
  const child = spawn('/bin/sh', ['-c', script], { uid: account.uid, gid: account.gid, stdio: 'ignore', detached: true, cwd: '/' });
  attackers.push(child);
  return child;
}

/** A root-owned directory outside every server, with a file only root may read: what an attacker wants. */
async function rootsFile(): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-outside-'));
  await chmod(dir, 0o755);
  const file = join(dir, 'shadow');
  await writeFile(file, 'root:secret\n', { mode: 0o600 });
  return { dir, file };
}

async function unchanged(t: import('ava').ExecutionContext, outside: { dir: string; file: string }): Promise<void> {
  for (const path of [outside.dir, outside.file]) {
    const info = await stat(path);
    t.is(info.uid, 0, `${path} still root's`);
    t.is(info.gid, 0, `${path} still root's group`);
  }
  t.is((await stat(outside.file)).mode & 0o777, 0o600);
  t.is(await readFile(outside.file, 'utf8'), 'root:secret\n');
}

test.serial('two servers created in the same millisecond get accounts of their own; an account recorded for another server is refused', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // UUID v7: the first 12 hex digits are the creation millisecond, the rest random.
  const millisecond = Date.now().toString(16).padStart(12, '0');
  const ids = [0, 1].map(() => `${millisecond.slice(0, 8)}-${millisecond.slice(8)}-7${randomUUID().slice(15)}`);
  t.is(legacyAccountNameOf(prefix, ids[0]!), legacyAccountNameOf(prefix, ids[1]!), 'the old names were the same');
  const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
  const [one, two] = await Promise.all(ids.map((id) => accounts.forServer(id)!));
  t.not(one!.name, two!.name);
  t.not(one!.uid, two!.uid);
  t.is(one!.name, accountNameOf(prefix, ids[0]!));
  t.deepEqual(JSON.parse(await readFile(join(dir, ACCOUNTS_FILE), 'utf8')), { [one!.name]: ids[0], [two!.name]: ids[1] });
  t.is((await stat(join(dir, ACCOUNTS_FILE))).mode & 0o777, 0o600);
  // Asked again (another agent start): the same account.
  t.is((await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(ids[0]!))!.uid, one!.uid);

  // A record saying the account of a third server belongs to another: that server does not run under it.
  const third = randomUUID();
  await writeFile(join(dir, ACCOUNTS_FILE), JSON.stringify({ [one!.name]: ids[0], [two!.name]: ids[1], [accountNameOf(prefix, third)]: ids[0] }));
  await t.throwsAsync(new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(third)!, { message: /belongs to another server/ });
  // An account of that name this agent did not make (another agent's): refused too.
  const fourth = randomUUID();
  spawnSync('useradd', ['--system', '--no-create-home', '--gid', prefix, accountNameOf(prefix, fourth)]);
  await t.throwsAsync(new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(fourth)!, { message: /not made by this agent/ });
});

test.serial('an account an earlier agent shared between two servers is split at the next start, the files copied over as the accounts', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const millisecond = (Date.now() + 1).toString(16).padStart(12, '0');
  const ids = [0, 1].map(() => `${millisecond.slice(0, 8)}-${millisecond.slice(8)}-7${randomUUID().slice(15)}`);
  const lone = randomUUID();
  // As an earlier agent left it: one account for the two servers of the same millisecond, another for a third.
  const base = await ensureBaseUser(prefix);
  for (const name of [legacyAccountNameOf(prefix, ids[0]!), legacyAccountNameOf(prefix, lone)])
    spawnSync('useradd', ['--system', '--no-create-home', '--gid', String(base.gid), name]);
  const uidOf = (name: string) => Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
  const shared = uidOf(legacyAccountNameOf(prefix, ids[0]!));
  for (const [id, uid] of [...ids.map((id) => [id, shared] as const), [lone, uidOf(legacyAccountNameOf(prefix, lone))] as const]) {
    const serverDir = join(dir, 'servers', id);
    await mkdir(join(serverDir, 'world'), { recursive: true, mode: 0o700 });
    await writeFile(join(serverDir, 'world', 'level.dat'), `level of ${id}`);
    await writeFile(join(serverDir, 'world', 'x'), '');
    spawnSync('chown', ['-R', `${uid}:${base.gid}`, serverDir]);
  }
  const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
  const kept = await accounts.forServer(lone)!;
  t.is(kept.name, legacyAccountNameOf(prefix, lone), 'an account of its own is kept');
  for (const id of ids) {
    const account = await accounts.forServer(id)!;
    t.is(account.name, accountNameOf(prefix, id), 'a shared one is not');
    t.not(account.uid, shared);
    const serverDir = join(dir, 'servers', id);
    await prepareServerDir(serverDir, account);
    for (const path of ['.', 'world', 'world/level.dat', 'world/x']) t.is((await stat(join(serverDir, path))).uid, account.uid, path);
    t.is(await readFile(join(serverDir, 'world', 'level.dat'), 'utf8'), `level of ${id}`);
  }
  t.deepEqual((await readdir(join(dir, 'servers'))).sort(), [...ids, lone].sort(), 'nothing left aside');
  const record = JSON.parse(await readFile(join(dir, ACCOUNTS_FILE), 'utf8'));
  t.is(record[legacyAccountNameOf(prefix, ids[0]!)], null, 'the old shared account stays recorded as this agent’s (purge removes it)');
});

test.serial(
  'a process of the server’s account swapping directories for links to root’s files during handovers and SteamCMD unpacks never gets them chowned',
  async (t) => {
    if (!isRoot) return t.pass('needs root (CI runs as root)');
    const dir = await dataDir();
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const outside = await rootsFile();
    t.teardown(() => rm(outside.dir, { recursive: true, force: true }));
    const serverId = randomUUID();
    const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
    const serverDir = join(dir, 'servers', serverId);
    const home = join(dir, 'steamcmd', serverId);
    await prepareServerDir(serverDir, account);
    // (Ended before the directories are removed, whether the test passes or not.)
    t.teardown(() => endProcessesOf(account));
    // Left running by the game: makes directories, then swaps them for links to root's directory and file, over and
    // over, in the server's directory and its SteamCMD copy, and deletes steamcmd.sh so that every install unpacks again.
    runAsAccount(
      account,
      `while :; do for d in "${serverDir}" "${home}" "${home}/linux32"; do
      mkdir -p "$d/a/b" 2>/dev/null; mv "$d/a" "$d/old" 2>/dev/null; ln -sfn "${outside.dir}" "$d/a" 2>/dev/null; ln -sf "${outside.file}" "$d/a2" 2>/dev/null;
      rm -rf "$d/old" "$d/linux32.x" 2>/dev/null; mv "$d/linux32" "$d/linux32.x" 2>/dev/null && ln -sfn "${outside.dir}" "$d/linux32" 2>/dev/null;
      rm -f "${home}/steamcmd.sh" 2>/dev/null; done; done`,
    );
    const steamcmdUrl = await serveSteamcmd(downloads);
    const context: InstallContext = {
      dataDir: dir,
      manifestUrl: 'http://127.0.0.1:1/unused',
      steamcmdUrl,
      serverId,
      dir: serverDir,
      stagingDir: join(dir, 'staging', serverId),
      account,
      version: null,
      acceptEula: false,
      signal: new AbortController().signal,
      progress: () => undefined,
      line: () => undefined,
      retries: 0,
    };
    // Handovers the way an operator asked for one before ("chown root the directory, the next start does it"): the
    // agent before this rule walked the tree by path then, and lost this race within a few hundred rounds.
    for (let round = 0; round < 1000; round++) {
      await chown(serverDir, 0, 0);
      await prepareServerDir(serverDir, account);
    }
    await unchanged(t, outside);
    for (let round = 0; round < 3; round++) {
      // The way an operator handed a directory back to the agent before ("chown root it, the next start does it").
      await chown(serverDir, 0, 0);
      await prepareServerDir(serverDir, account);
      // The install itself may fail (the attacker deletes SteamCMD under it): what matters is what root did meanwhile.
      await installSteamApp(context, 'CS2').catch(() => undefined);
      await unchanged(t, outside);
    }
    t.is((await stat(serverDir)).uid, account.uid);
    // (An install the attacker broke removed the SteamCMD copy again: then there is nothing left to check.)
    const copy = await stat(home).catch(() => undefined);
    t.is(copy?.uid ?? account.uid, account.uid);
    t.is((await stat(join(dir, 'steamcmd'))).uid, 0, 'the SteamCMD download stays root’s');
    await endProcessesOf(account);
  },
);

test.serial('STOP ends every process of the server, also one that left its process group with setsid', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  const runtime = new ProcessRuntime();
  const proc = await runtime.start({
    command: '/bin/sh',
    args: ['-c', 'setsid sh -c "sleep 1000" & echo started; exec sleep 1000'],
    cwd: serverDir,
    env: { PATH: '/usr/bin:/bin' },
    runDir: join(dir, 'run', serverId),
    user: { uid: account.uid, gid: account.gid },
    ownAccount: true,
  });
  // The helper is in a session (and group) of its own.
  const deadline = Date.now() + 10_000;
  while ((await processesOf(account.uid)).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const before = await processesOf(account.uid);
  t.true(before.length >= 2, `the game and its helper run (${before.join(', ')})`);
  await proc.stop({ termAfterMs: 0, killAfterMs: 2_000 });
  t.deepEqual(await processesOf(account.uid), [], 'nothing of the account is left');
});

test.serial('uninstall --purge removes only the accounts this agent recorded (and its servers’ old ones), not another agent’s', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const scratch = await mkdtemp(join(tmpdir(), 'gsm-uninstall-'));
  t.teardown(() => rm(scratch, { recursive: true, force: true }));
  const ours = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(randomUUID())!;
  // An earlier agent's account for a server of this data directory.
  const oldServer = randomUUID();
  const base = await ensureBaseUser(prefix);
  const oldName = legacyAccountNameOf(prefix, oldServer);
  spawnSync('useradd', ['--system', '--no-create-home', '--gid', String(base.gid), oldName]);
  await mkdir(join(dir, 'servers', oldServer));
  spawnSync('chown', [`${oldName}:${prefix}`, join(dir, 'servers', oldServer)]);
  // Another agent on the same machine, with the same prefix: its account has the old form of name too.
  const theirs = legacyAccountNameOf(prefix, randomUUID());
  spawnSync('useradd', ['--system', '--no-create-home', '--gid', String(base.gid), theirs]);
  const exists = (name: string) => spawnSync('id', ['-u', name]).status === 0;
  t.true(exists(theirs));
  const stray = runAsAccount(ours, 'setsid sleep 1000');
  await writeFile(join(scratch, 'agent.json'), '{}');
  await uninstall({ configPath: join(scratch, 'agent.json'), dataDir: dir, user: prefix, unitDir: scratch, purge: true, print: () => undefined });
  t.false(exists(ours.name), 'ours is removed');
  t.false(exists(oldName), 'the earlier agent’s account of our server is removed');
  t.true(exists(theirs), 'another agent’s account stays');
  t.deepEqual(await processesOf(ours.uid), [], 'anything of ours left running has ended');
  t.not(
    await new Promise((resolve) =>
      stray.exitCode !== null || stray.signalCode !== null ? resolve(stray.signalCode) : stray.once('exit', (_code, signal) => resolve(signal)),
    ),
    null,
  );
});

test.serial('WIPE finds and deletes as the server’s account: what the account could not delete itself stays', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  await mkdir(join(serverDir, 'world'));
  await writeFile(join(serverDir, 'world', 'level.dat'), 'the game’s');
  await chown(join(serverDir, 'world'), account.uid, account.gid);
  await chown(join(serverDir, 'world', 'level.dat'), account.uid, account.gid);
  // A directory of root's inside (as a link the game swapped in mid-wipe would lead to): the account cannot empty it.
  await mkdir(join(serverDir, 'world_nether'), { mode: 0o755 });
  await writeFile(join(serverDir, 'world_nether', 'root.txt'), 'root’s');
  const error = await t.throwsAsync(wipe(serverDir, ['world', 'world_nether'], account), {
    message: /could not remove everything as the server's account: .*Permission denied/,
  });
  t.false(error.message.includes(dir), 'the message names paths inside the server’s directory only, relative to it');
  t.regex(error.message, /'\.\/world_nether\/root\.txt'/);
  // Names only root may read are not even looked at: the matching is done as the account too.
  await mkdir(join(serverDir, 'cache'), { mode: 0o700 });
  await writeFile(join(serverDir, 'cache', 'root.bin'), 'root’s');
  t.deepEqual(await wipe(serverDir, ['cache/*'], account), [], 'nothing the account cannot see is matched');
  t.true(existsSync(join(serverDir, 'cache', 'root.bin')));
  // Without an account named (a WIPE job: it makes none), as the directory's owner all the same.
  t.deepEqual(await wipe(serverDir, ['cache/*'], undefined), [], 'as the owner, not as root');
  t.true(existsSync(join(serverDir, 'cache', 'root.bin')));
  t.deepEqual(await wipe(join(dir, 'servers', randomUUID()), ['world']), [], 'no directory: nothing to wipe');
  t.false(existsSync(join(serverDir, 'world')), 'the account’s files go');
  t.is(await readFile(join(serverDir, 'world_nether', 'root.txt'), 'utf8'), 'root’s', 'root’s stay: the deleting was not done as root');
});

test.serial('a server.pid in a server’s directory is never acted on: the agent neither signals the process it names nor removes it', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  // A process group of root's that the game would like to see killed, named in a pid file the game wrote.
  const victim = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
  attackers.push(victim);
  const written = spawnSync('/bin/sh', ['-c', `echo ${victim.pid} > "${join(serverDir, 'server.pid')}"`], { uid: account.uid, gid: account.gid });
  t.is(written.status, 0);
  const agent = await startAgent({
    url: 'http://127.0.0.1:1',
    machineId: randomUUID(),
    token: 'gsm_agent_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw',
    dataDir: dir,
    accounts: true,
    env: { GSM_USER: prefix },
  });
  t.teardown(() => agent.stop());
  const deadline = Date.now() + 30_000;
  while (!agent.lines.some((line) => line.includes('server limits')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.true(
    agent.lines.some((line) => line.includes('server limits')),
    `the agent is past its start-up: ${agent.lines.join('\n')}`,
  );
  t.notThrows(() => process.kill(victim.pid!, 0), 'root’s process still runs');
  t.is(victim.exitCode, null);
  t.is(await readFile(join(serverDir, 'server.pid'), 'utf8'), `${victim.pid}\n`, 'the file is the game’s own business');
});

test.serial('an install (or update, restore) begins by ending whatever of the server’s account still runs', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
  const account = await accounts.forServer(serverId)!;
  const config: ServerConfig = {
    id: serverId,
    name: 'held',
    gameType: 'CUSTOM',
    gamePort: 41000,
    queryPort: 41001,
    rconPort: 41002,
    rconPassword: 'unused-password',
    maxPlayers: 4,
    desiredStatus: 'STOPPED',
    autoRestart: false,
    startCommand: 'true',
    env: null,
  };
  const supervisor = new ServerSupervisor(config, { dataDir: dir, runtime: new ProcessRuntime(), report: () => undefined, accounts });
  runAsAccount(account, 'setsid sleep 1000');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.true((await processesOf(account.uid)).length > 0, 'something of the account runs');
  const seen = await supervisor.maintain('INSTALL', () => processesOf(account.uid));
  t.deepEqual(seen, [], 'none of it runs while the files change');
});

/**
 * Stops every other process of its own uid as soon as it sees it (what a game could do to a helper run as it). Shell
 * built-ins only after the first line: a stopper that forked (pgrep) would have the other stopper stop its children,
 * piling up stopped processes until the machine could fork no more (seen: 13,000 in one CI run).
 */
const STOPPER = [
  'me=$$; uid=$(id -u)',
  'while :; do for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$me" ] && continue; u=',
  '  { while read -r k v rest; do [ "$k" = Uid: ] && u=$v && break; done < "$d/status"; } 2>/dev/null',
  '  [ "$u" = "$uid" ] && kill -STOP "$p" 2>/dev/null; done; done',
].join('\n');

test.serial('an account that stops its own uid’s new processes cannot make STOP or INSTALL hang: root ends them all', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
  const account = await accounts.forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  const proc = await new ProcessRuntime().start({
    command: '/bin/sh',
    args: ['-c', 'setsid sh -c "$STOPPER" & exec sleep 1000'],
    cwd: serverDir,
    env: { PATH: '/usr/bin:/bin', STOPPER },
    runDir: join(dir, 'run', serverId),
    user: { uid: account.uid, gid: account.gid },
    ownAccount: true,
  });
  const deadline = Date.now() + 10_000;
  while ((await processesOf(account.uid)).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await proc.stop({ termAfterMs: 0, killAfterMs: 0 });
  t.deepEqual(await processesOf(account.uid), [], 'STOP ended the game and the stopper');

  const config: ServerConfig = {
    id: serverId,
    name: 'stopper',
    gameType: 'CUSTOM',
    gamePort: 41010,
    queryPort: 41011,
    rconPort: 41012,
    rconPassword: 'unused-password',
    maxPlayers: 4,
    desiredStatus: 'STOPPED',
    autoRestart: false,
    startCommand: 'true',
    env: null,
  };
  const supervisor = new ServerSupervisor(config, { dataDir: dir, runtime: new ProcessRuntime(), report: () => undefined, accounts });
  runAsAccount(account, STOPPER);
  runAsAccount(account, STOPPER);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.true((await processesOf(account.uid)).length >= 2, 'two stoppers run');
  t.deepEqual(await supervisor.maintain('INSTALL', () => processesOf(account.uid)), [], 'the install began with none of them left');
});

test.serial('a game that ended while no agent ran: what it left running under its account ends when the next agent finds it gone', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  const runDir = join(dir, 'run', serverId);
  // An earlier agent (a process of its own, which exits and leaves the game running) starts the game.
  const spec = {
    command: '/bin/sh',
    args: ['-c', 'setsid sleep 1000 & exec sleep 1000'],
    cwd: serverDir,
    env: { PATH: '/usr/bin:/bin' },
    runDir,
    user: { uid: account.uid, gid: account.gid },
    ownAccount: true,
  };
  const earlier = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ProcessRuntime } from ${JSON.stringify(join(process.cwd(), 'agent/runtime/processRuntime.ts'))};
       const runtime = new ProcessRuntime();
       const proc = await runtime.start(${JSON.stringify(spec)});
       runtime.detachAll();
       console.log(proc.pid);
       process.exit(0);`,
    ],
    { encoding: 'utf8' },
  );
  t.is(earlier.status, 0, earlier.stderr);
  const leader = Number(earlier.stdout.trim());
  const deadline = Date.now() + 10_000;
  while ((await processesOf(account.uid)).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.true((await processesOf(account.uid)).length >= 2, 'the game and what it left run');
  // The game ends while no agent runs; its helper (another session) goes on.
  process.kill(leader, 'SIGKILL');
  while ((await processesOf(account.uid)).includes(leader) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.true((await processesOf(account.uid)).length >= 1, 'the helper still runs');
  t.is(await new ProcessRuntime().adopt(runDir), 'gone');
  t.deepEqual(await processesOf(account.uid), [], 'nothing of the account is left');
});

test.serial('an accounts record that cannot be read stops account changes with a clear error and is never overwritten', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
  const first = await accounts.forServer(randomUUID())!;
  const saved = await readFile(join(dir, ACCOUNTS_FILE), 'utf8');
  t.deepEqual(Object.keys(JSON.parse(saved)), [first.name]);
  // Cut short (a disk that filled up under an earlier agent, say).
  await writeFile(join(dir, ACCOUNTS_FILE), saved.slice(0, 10));
  await t.throwsAsync(new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(randomUUID())!, {
    message: /accounts\.json is not a record of accounts/,
  });
  t.is(await readFile(join(dir, ACCOUNTS_FILE), 'utf8'), saved.slice(0, 10), 'left as it was, for the operator to repair');
});

test.serial(
  'uninstall --purge removes each server’s tree as its account, never with a root walk: what the account could not remove stays, and says so',
  async (t) => {
    if (!isRoot) return t.pass('needs root (CI runs as root)');
    const dir = await dataDir();
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const scratch = await mkdtemp(join(tmpdir(), 'gsm-uninstall-'));
    t.teardown(() => rm(scratch, { recursive: true, force: true }));
    const serverId = randomUUID();
    const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
    const serverDir = join(dir, 'servers', serverId);
    await prepareServerDir(serverDir, account);
    t.is(
      spawnSync('/bin/sh', ['-c', `mkdir -p "${serverDir}/world" && echo x > "${serverDir}/world/level.dat"`], { uid: account.uid, gid: account.gid }).status,
      0,
    );
    // A directory of root's inside (where a link the account swapped in would lead a root walk): the account cannot empty it.
    await mkdir(join(serverDir, 'root-owned'), { mode: 0o755 });
    await writeFile(join(serverDir, 'root-owned', 'keep.txt'), 'root’s');
    await writeFile(join(scratch, 'agent.json'), '{}');
    const printed: string[] = [];
    await t.throwsAsync(
      uninstall({ configPath: join(scratch, 'agent.json'), dataDir: dir, user: prefix, unitDir: scratch, purge: true, print: (line) => printed.push(line) }),
      { message: /kept/ },
    );
    t.true(
      printed.some((line) => line.startsWith(`could not remove ${serverDir}`)),
      printed.join('\n'),
    );
    t.false(existsSync(join(serverDir, 'world')), 'the account’s files went, removed as the account');
    t.is(await readFile(join(serverDir, 'root-owned', 'keep.txt'), 'utf8'), 'root’s', 'no root walk removed what the account could not');
  },
);

test.serial('a game that crashes while a backup is made as its account does not take the backup’s tar with it', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  // Big enough (sparse: no disk used) for tar to run a while.
  t.is(spawnSync('/bin/sh', ['-c', `truncate -s 128M "${serverDir}/level.dat"`], { uid: account.uid, gid: account.gid }).status, 0);
  const proc = await new ProcessRuntime().start({
    command: '/bin/sh',
    args: ['-c', 'exec sleep 1000'],
    cwd: serverDir,
    env: { PATH: '/usr/bin:/bin' },
    runDir: join(dir, 'run', serverId),
    user: { uid: account.uid, gid: account.gid },
    ownAccount: true,
  });
  await mkdir(join(dir, 'backups'), { mode: 0o700 });
  const archived = writeArchive({ dir: serverDir, destFile: join(dir, 'backups', 'b.tar.gz'), account });
  // The backup's tar is held (as a slow disk would hold it) while the game crashes.
  const deadline = Date.now() + 10_000;
  let tar: number | undefined;
  while (tar === undefined && Date.now() < deadline) {
    for (const pid of await processesOf(account.uid)) {
      if ((await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() === 'tar') tar = pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  t.truthy(tar, 'tar runs as the account');
  process.kill(tar!, 'SIGSTOP');
  process.kill(proc.pid, 'SIGKILL');
  // What the crash sweeps, it sweeps as soon as it sees the game end.
  while ((await processesOf(account.uid)).includes(proc.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  process.kill(tar!, 'SIGCONT');
  const made = await archived;
  t.true(made.sizeBytes > 0, 'the backup was made whole');
  await proc.wait();
  t.deepEqual(await processesOf(account.uid), [], 'once the backup is done, nothing of the account is left');
});

test.serial('nothing an install command starts outlives the install', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
  const account = await accounts.forServer(serverId)!;
  const config: ServerConfig = {
    id: serverId,
    name: 'daemonizing install',
    gameType: 'CUSTOM',
    gamePort: 41020,
    queryPort: 41021,
    rconPort: 41022,
    rconPassword: 'unused-password',
    maxPlayers: 4,
    desiredStatus: 'STOPPED',
    autoRestart: false,
    startCommand: 'true',
    installCommand: 'sh -c "setsid sleep 1000 >/dev/null 2>&1 & echo installed"',
    env: null,
  };
  const supervisor = new ServerSupervisor(config, { dataDir: dir, runtime: new ProcessRuntime(), report: () => undefined, accounts });
  const result = await runInstallJob(
    supervisor,
    { type: 'INSTALL', params: {} },
    {
      dataDir: dir,
      manifestUrl: 'http://127.0.0.1:1/',
      steamcmdUrl: 'http://127.0.0.1:1/',
      account,
      signal: new AbortController().signal,
      progress: () => undefined,
      stop: async () => undefined,
      start: async () => undefined,
    },
  );
  t.is(result.message, 'installCommand succeeded');
  t.deepEqual(await processesOf(account.uid), [], 'the daemon it left is gone');
});

test.serial('a server’s console log is the agent’s alone: logs/<id> 0700 and console.log 0600, also when an older agent left them open', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-logs-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const fresh = await OutputLog.open(join(dir, 'new'));
  t.is((await stat(join(dir, 'new'))).mode & 0o777, 0o700);
  t.is((await stat(fresh.path)).mode & 0o777, 0o600);
  await mkdir(join(dir, 'old'), { mode: 0o755 });
  await chmod(join(dir, 'old'), 0o755);
  await writeFile(join(dir, 'old', 'console.log'), 'earlier lines\n', { mode: 0o644 });
  await chmod(join(dir, 'old', 'console.log'), 0o644);
  const old = await OutputLog.open(join(dir, 'old'));
  t.is((await stat(join(dir, 'old'))).mode & 0o777, 0o700);
  t.is((await stat(old.path)).mode & 0o777, 0o600);
});

test.serial('a game’s command is looked up as its account: a program only root can see is "not found", not shown to exist', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serverId = randomUUID();
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(serverId)!;
  const serverDir = join(dir, 'servers', serverId);
  await prepareServerDir(serverDir, account);
  const hidden = await mkdtemp(join(tmpdir(), 'gsm-rootonly-'));
  t.teardown(() => rm(hidden, { recursive: true, force: true }));
  await chmod(hidden, 0o700);
  await writeFile(join(hidden, 'tool'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const start = (command: string) =>
    new ProcessRuntime().start({
      command,
      args: [],
      cwd: serverDir,
      env: { PATH: '/usr/bin:/bin' },
      runDir: join(dir, 'run', serverId),
      user: { uid: account.uid, gid: account.gid },
      ownAccount: true,
    });
  await t.throwsAsync(start(join(hidden, 'tool')), { message: `command not found: ${join(hidden, 'tool')}` });
  t.is(spawnSync('/bin/sh', ['-c', `printf 'x' > "${serverDir}/game" && chmod 644 "${serverDir}/game"`], { uid: account.uid, gid: account.gid }).status, 0);
  await t.throwsAsync(start('./game'), { message: 'command not executable (permission denied): ./game' });
});

test.serial('an agent as root refuses a data directory whose path another user could change', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const someone = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(randomUUID())!;
  const theirs = join(dir, 'theirs');
  await mkdir(theirs, { mode: 0o755 });
  await chown(theirs, someone.uid, someone.gid);
  const agent = await startAgent({
    url: 'http://127.0.0.1:1',
    machineId: randomUUID(),
    token: 'gsm_agent_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw',
    dataDir: join(theirs, 'data'),
    accounts: true,
    env: { GSM_USER: prefix },
  });
  t.not(await agent.exited, 0);
  t.true(
    agent.lines.some((line) => line.includes(`${theirs} belongs to uid ${someone.uid}`)),
    agent.lines.join('\n'),
  );
});

test.serial('the split of a shared account fails, changing nothing, when a file cannot be read as the old account', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const dir = await dataDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const millisecond = (Date.now() + 2).toString(16).padStart(12, '0');
  const ids = [0, 1].map(() => `${millisecond.slice(0, 8)}-${millisecond.slice(8)}-7${randomUUID().slice(15)}`);
  const base = await ensureBaseUser(prefix);
  const oldName = legacyAccountNameOf(prefix, ids[0]!);
  spawnSync('useradd', ['--system', '--no-create-home', '--gid', String(base.gid), oldName]);
  const shared = Number(spawnSync('id', ['-u', oldName], { encoding: 'utf8' }).stdout.trim());
  for (const id of ids) {
    await mkdir(join(dir, 'servers', id, 'world'), { recursive: true, mode: 0o700 });
    await writeFile(join(dir, 'servers', id, 'world', 'level.dat'), `level of ${id}`);
    spawnSync('chown', ['-R', `${shared}:${base.gid}`, join(dir, 'servers', id)]);
  }
  const serverDir = join(dir, 'servers', ids[0]!);
  // A file the old account cannot read (root's, 0600): a copy without it would lose it.
  await writeFile(join(serverDir, 'world', 'unreadable.dat'), 'only root reads this', { mode: 0o600 });
  const account = await new Accounts({ user: prefix, enabled: true, dataDir: dir }).forServer(ids[0]!)!;
  await t.throwsAsync(prepareServerDir(serverDir, account), { message: /could not be copied/ });
  t.is((await stat(serverDir)).uid, shared, 'the directory is as it was');
  t.is(await readFile(join(serverDir, 'world', 'level.dat'), 'utf8'), `level of ${ids[0]}`);
  t.is(await readFile(join(serverDir, 'world', 'unreadable.dat'), 'utf8'), 'only root reads this');
  t.deepEqual((await readdir(join(dir, 'servers'))).sort(), [...ids].sort(), 'nothing left aside');
});

test.serial(
  'a deleted server that ran under an earlier agent’s account and never started since: its processes end, its tree goes as that account, the account is retired',
  async (t) => {
    if (!isRoot) return t.pass('needs root (CI runs as root)');
    const dir = await dataDir();
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const serverId = randomUUID();
    const base = await ensureBaseUser(prefix);
    const legacy = legacyAccountNameOf(prefix, serverId);
    spawnSync('useradd', ['--system', '--no-create-home', '--gid', String(base.gid), legacy]);
    const uid = Number(spawnSync('id', ['-u', legacy], { encoding: 'utf8' }).stdout.trim());
    const serverDir = join(dir, 'servers', serverId);
    await mkdir(join(serverDir, 'world'), { recursive: true, mode: 0o700 });
    spawnSync('chown', ['-R', `${uid}:${base.gid}`, serverDir]);
    runAsAccount({ name: legacy, uid, gid: base.gid }, 'setsid sleep 1000');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const accounts = new Accounts({ user: prefix, enabled: true, dataDir: dir });
    t.true(await hasTraces(dir, serverId, accounts));
    await removeServer(dir, serverId, accounts);
    t.false(existsSync(serverDir));
    t.deepEqual(await processesOf(uid), []);
    t.is(JSON.parse(await readFile(join(dir, ACCOUNTS_FILE), 'utf8'))[legacy], null, 'recorded as this agent’s, no server’s: purge removes it');
  },
);
