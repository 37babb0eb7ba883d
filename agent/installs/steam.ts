/**
 * Steam games (RUST, ARK_SURVIVAL_EVOLVED, CS2, VALHEIM) through SteamCMD (docs/installs-and-backups.md), as LinuxGSM
 * and the panels do it: `force_install_dir <server dir>`, `login anonymous`, `app_update <appId> validate`, `quit`.
 *
 * SteamCMD's tarball is downloaded once (from `steamcmdUrl`) into `<data-dir>/steamcmd/`, then unpacked per server into
 * `<data-dir>/steamcmd/<serverId>/`, owned by the server's account and unpacked as it: SteamCMD updates itself and
 * writes its caches there, and one server's account must not be able to change the SteamCMD another server's install
 * runs. SteamCMD runs as the server's account, its commands read from a script (`+runscript`) written as the account
 * into a private folder and removed after: a beta password on its command line would be readable by every account of
 * the machine. Its progress lines (`Update state (0x61) downloading, progress: 45.12 (…)`) become the job's progress;
 * success is its `Success! App '<id>' fully installed.` line, whatever its exit status says. A failed run is tried
 * again (SteamCMD often fails a first run while it updates itself), except when the disk is full (state 0x202), which
 * no retry mends.
 */
import { spawn } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { chmod, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as tar from 'tar';
import { STEAM_ARGUMENT_PATTERN } from '../../schema/template.ts';
import type { GameType } from '../../schema/games.ts';
import { prepareServerDir, removeAs, removeTree, runAs } from '../servers/accounts.ts';
import { download, InstallError } from './download.ts';
import type { InstallContext } from './context.ts';

export const DEFAULT_STEAMCMD_URL = 'https://steamcdn-a.akamaihd.net/client/installer/steamcmd_linux.tar.gz';

/** Steam app ids of the dedicated servers. */
export const STEAM_APPS: Partial<Record<GameType, number>> = { RUST: 258550, ARK_SURVIVAL_EVOLVED: 376030, CS2: 730, VALHEIM: 896660 };

const PROGRESS = /Update state \(0x[0-9a-f]+\) ([a-z][a-z ,]*?), progress: (\d+(?:\.\d+)?)/i;
const SUCCESS = /Success! App '(\d+)' (?:fully installed|already up to date)/;
const FAILURE = /Error! App '(\d+)' state is (0x[0-9a-f]+) after update job/i;
const DISK_FULL_STATE = '0x202';
/** Lines of SteamCMD output kept for a failed job's consoleTail. */
const TAIL = 20;

/** SteamCMD downloads under way, by file. */
const downloads = new Map<string, Promise<void>>();

/** SteamCMD, downloaded once and unpacked for this server (its own copy, owned by its account). */
async function steamcmdFor(context: InstallContext): Promise<string> {
  const root = join(context.dataDir, 'steamcmd');
  await mkdir(root, { recursive: true, mode: 0o711 });
  await chmod(root, 0o711);
  const tarball = join(root, 'steamcmd_linux.tar.gz');
  if (!existsSync(tarball)) {
    context.progress(null, 'downloading SteamCMD');
    // Servers installing at the same moment share one download (they would write the same temporary file).
    let downloading = downloads.get(tarball);
    if (!downloading) {
      downloading = download(context.steamcmdUrl, tarball, { retries: context.retries, backoffMs: context.backoffMs })
        .then(() => undefined)
        .finally(() => downloads.delete(tarball));
      downloads.set(tarball, downloading);
    }
    await downloading;
  }
  const home = join(root, context.serverId);
  const script = join(home, 'steamcmd.sh');
  if (context.account) await unpackAsAccount(context, tarball, home, script);
  else if (!existsSync(script)) {
    await rm(home, { recursive: true, force: true });
    await mkdir(home, { mode: 0o700 });
    try {
      await tar.x({ file: tarball, cwd: home, strict: true, preservePaths: false, preserveOwner: false });
    } catch (error) {
      await rm(home, { recursive: true, force: true });
      // A broken download is not kept: the next install fetches it again.
      await rm(tarball, { force: true });
      throw new InstallError('STEAMCMD_FAILED', `SteamCMD's tarball could not be unpacked: ${(error as Error).message}`);
    }
    if (!existsSync(script)) {
      await rm(home, { recursive: true, force: true });
      await rm(tarball, { force: true });
      throw new InstallError('STEAMCMD_FAILED', `${context.steamcmdUrl} has no steamcmd.sh`);
    }
  }
  return home;
}

/**
 * The server's SteamCMD is its account's to change (SteamCMD updates itself there), so everything inside it is done as
 * the account: root only makes the directory (in its own `steamcmd/`) and hands it over through a descriptor, and the
 * machine's tar, running as the account, unpacks the tarball root opened for it. Root never walks the copy: a link the
 * account put in it can only lead tar (the account) where the account could go anyway.
 */
async function unpackAsAccount(context: InstallContext, tarball: string, home: string, script: string): Promise<void> {
  const account = context.account!;
  await prepareServerDir(home, account);
  // Looked up as the account too: root follows no name in the copy.
  const hasScript = async () => (await runAs(account, 'test', ['-f', script])).code === 0;
  if (await hasScript()) return;
  const failed = async (message: string) => {
    await removeTree(home).catch(() => undefined);
    // A broken download is not kept: the next install fetches it again.
    await rm(tarball, { force: true });
    return new InstallError('STEAMCMD_FAILED', message);
  };
  const archive = await open(tarball, constants.O_RDONLY | constants.O_NOFOLLOW);
  let unpacked;
  try {
    unpacked = await runAs(account, 'tar', ['--extract', '--gzip', '--file=-', `--directory=${home}`, '--no-same-owner'], { stdin: archive.fd });
  } finally {
    await archive.close();
  }
  if (unpacked.error || unpacked.code !== 0)
    throw await failed(`SteamCMD's tarball could not be unpacked: ${unpacked.error?.message ?? (unpacked.stderr || `tar exit ${unpacked.code}`)}`);
  if (!(await hasScript())) throw await failed(`${context.steamcmdUrl} has no steamcmd.sh`);
}

type RunOutcome = { ok: true } | { ok: false; diskFull: boolean; reason: string; tail: string[] };

/**
 * SteamCMD's commands, one a line, as `+runscript` reads them: on its command line a beta password would be readable
 * by every account of the machine (/proc/<pid>/cmdline).
 */
function steamcmdScript(context: InstallContext, appId: number, app: SteamAppOptions): string {
  // A line break would start a command of its own; a quote would end the path early.
  if (/["\r\n]/.test(context.dir)) throw new InstallError('INSTALL_FAILED', `the server's directory cannot be given to SteamCMD: ${context.dir}`);
  const update = ['app_update', String(appId)];
  if (app.branch) update.push('-beta', app.branch);
  if (app.betaPassword) update.push('-betapassword', app.betaPassword);
  if (app.validate !== false) update.push('validate');
  return [
    ...(app.platform ? [`@sSteamCmdForcePlatformType ${app.platform}`] : []),
    `force_install_dir "${context.dir}"`,
    'login anonymous',
    update.join(' '),
    'quit',
    '',
  ].join('\n');
}

/**
 * Writes SteamCMD's script as the server's account (the agent's own user without one) into a private folder of its
 * SteamCMD's home (`runscript.XXXXXX`, 0700, the file 0600): answers the folder, which the caller removes.
 */
function writeSteamcmdScript(context: InstallContext, home: string, text: string): Promise<string> {
  const child = spawn('sh', ['-c', 'umask 077 && dir=$(mktemp -d "$1/runscript.XXXXXX") && cat > "$dir/commands.txt" && printf "%s" "$dir"', 'sh', home], {
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(context.account ? { uid: context.account.uid, gid: context.account.gid } : {}),
    timeout: SCRIPT_WRITE_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2048)));
  child.stdin.on('error', () => undefined);
  child.stdin.end(text);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new InstallError('STEAMCMD_FAILED', `SteamCMD's script could not be written: ${error.message}`)));
    child.on('close', (code) =>
      code === 0 && stdout.startsWith(`${home}/runscript.`)
        ? resolve(stdout)
        : reject(new InstallError('STEAMCMD_FAILED', `SteamCMD's script could not be written: ${stderr.trim() || `exit ${code}`}`)),
    );
  });
}

/** How long writing SteamCMD's script may take. */
const SCRIPT_WRITE_TIMEOUT_MS = 30_000;

/** One SteamCMD run of the script `script`; its output goes to the console and its progress to the job. */
function runSteamcmd(context: InstallContext, home: string, appId: number, script: string): Promise<RunOutcome> {
  const args = ['+runscript', script];
  const child = spawn(join(home, 'steamcmd.sh'), args, {
    cwd: home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...(context.account ? { USER: context.account.name } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(context.account ? { uid: context.account.uid, gid: context.account.gid } : {}),
    signal: context.signal,
  });
  const tail: string[] = [];
  let succeeded = false;
  let failure: { state: string } | undefined;
  const onLine = (raw: string) => {
    // SteamCMD rewrites its progress line with carriage returns.
    for (const line of raw.split('\r')) {
      if (line.trim() === '') continue;
      context.line(line);
      tail.push(line);
      if (tail.length > TAIL) tail.shift();
      const progress = PROGRESS.exec(line);
      if (progress) context.progress(Math.min(99, Number(progress[2])), `SteamCMD: ${progress[1]}`);
      if (SUCCESS.test(line)) succeeded = true;
      const failed = FAILURE.exec(line);
      if (failed) failure = { state: failed[2]!.toLowerCase() };
    }
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ ok: false, diskFull: false, reason: `SteamCMD could not run: ${error.message}`, tail }));
    child.on('close', (code, signal) => {
      if (succeeded && !failure) return resolve({ ok: true });
      const reason = failure
        ? `SteamCMD: app ${appId} is in state ${failure.state} after the update${failure.state === DISK_FULL_STATE ? ' (not enough disk space)' : ''}`
        : `SteamCMD ended (${signal ?? `exit code ${code}`}) without installing app ${appId}`;
      resolve({ ok: false, diskFull: failure?.state === DISK_FULL_STATE, reason, tail });
    });
  });
}

export async function installSteamApp(context: InstallContext, gameType: GameType): Promise<{ version: string | null; message: string }> {
  const appId = STEAM_APPS[gameType];
  if (!appId) throw new InstallError('NOT_INSTALLABLE', `${gameType} is not a Steam game`);
  return installSteamAppId(context, appId);
}

/** A template's `steamcmd` step: a branch (`-beta`), its password, `validate` (default on) and a forced platform. */
export type SteamAppOptions = { branch?: string; betaPassword?: string; validate?: boolean; platform?: 'linux' | 'windows' };

/** Installs or updates Steam app `appId` (SteamCMD's app_update is a no-op when it is current). */
export async function installSteamAppId(
  context: InstallContext,
  appId: number,
  app: SteamAppOptions = {},
): Promise<{ version: string | null; message: string }> {
  // Into SteamCMD's own commands: a space then `quit`, or a line break, would be commands of their own.
  for (const [what, value] of [
    ['branch', app.branch],
    ['beta password', app.betaPassword],
  ] as const)
    if (value !== undefined && !STEAM_ARGUMENT_PATTERN.test(value))
      throw new InstallError('INSTALL_FAILED', `the SteamCMD ${what} is refused: it must be letters, digits, ., _ and - (at most 64)`);
  const home = await steamcmdFor(context);
  const scriptDir = await writeSteamcmdScript(context, home, steamcmdScript(context, appId, app));
  try {
    const attempts = 1 + (context.retries ?? 2);
    let last: Extract<RunOutcome, { ok: false }> | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (context.signal.aborted) throw new InstallError('CANCELLED', 'cancelled');
      context.progress(0, attempt === 1 ? `SteamCMD: app_update ${appId}` : `SteamCMD: app_update ${appId}, attempt ${attempt} of ${attempts}`);
      const outcome = await runSteamcmd(context, home, appId, join(scriptDir, 'commands.txt'));
      if (outcome.ok) return { version: null, message: `installed Steam app ${appId}` };
      if (context.signal.aborted) throw new InstallError('CANCELLED', 'cancelled');
      last = outcome;
      if (outcome.diskFull) throw new InstallError('DISK_FULL', outcome.reason, outcome.tail);
      context.line(`[gsm] ${outcome.reason}${attempt < attempts ? '; trying again' : ''}`);
    }
    throw new InstallError('STEAMCMD_FAILED', `${last!.reason} (${attempts} attempts)`, last!.tail);
  } finally {
    // Removed as the account (it is in the account's tree), whatever the runs did.
    await removeAs(context.account, [scriptDir]).catch(() => undefined);
  }
}
