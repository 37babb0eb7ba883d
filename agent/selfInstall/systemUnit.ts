/**
 * `gsm-agent install` and `uninstall` (docs/agent.md#installing-it): the configuration file (0600), the system user
 * for game servers, and a systemd unit where systemd runs. The unit keeps game servers running across agent restarts
 * (`KillMode=process`: only the agent is stopped; the next one adopts them), hands the agent its cgroup subtree for
 * server limits (`Delegate=yes`), waits longer than the agent's own graceful stop when the machine shuts down, and
 * does not restart an agent whose token was refused (exit status 2: retrying cannot help).
 */
import { loadOrCreateHostKey } from '../sftp/hostKey.ts';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { endProcessesOf, ensureBaseUser, ownAccounts, removeTree } from '../servers/accounts.ts';
import { isSameProcess } from '../runtime/processRuntime.ts';
import type { AgentSettings } from '../settings.ts';

export const UNIT_NAME = 'gsm-agent.service';
export const DEFAULT_UNIT_DIR = '/etc/systemd/system';
export const DEFAULT_DATA_DIR = '/var/lib/gsm-agent';

/** Whether systemd manages this machine (sd_booted's test). */
export const systemdRuns = () => existsSync('/run/systemd/system');

/** The command that runs the agent with `configPath`: this very Node.js and this very script. */
export function runCommand(configPath: string): string[] {
  return [process.execPath, process.argv[1], 'run', '--config', configPath];
}

const quoteUnitArg = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);

export function unitText(configPath: string, settings: Pick<AgentSettings, 'stopTimeoutMs'>): string {
  // The agent's own graceful stop at shutdown: the game's stop command, SIGTERM after stopTimeoutMs, SIGKILL after
  // twice it; systemd must wait longer than that before it kills what is left.
  const stopSeconds = Math.ceil((settings.stopTimeoutMs * 2) / 1000) + 30;
  return `[Unit]
Description=Game server manager agent
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart=${runCommand(configPath).map(quoteUnitArg).join(' ')}
Restart=always
RestartSec=5
# Exit status 2: the service refused the token or the version; restarting cannot help.
RestartPreventExitStatus=2
# Exit status 75: the agent asks to be started again (after upgrading itself on a Node.js without execve).
RestartForceExitStatus=75
# Stopping or restarting the agent leaves the game servers running: the next agent adopts them.
KillMode=process
# The agent puts each game server in its own cgroup below its own, with the server's memory and CPU limits.
Delegate=yes
TimeoutStopSec=${stopSeconds}
LimitNOFILE=65536
Environment=NODE_ENV=production

[Install]
WantedBy=multi-user.target
`;
}

/** Writes `content` to `path` with `mode`, atomically (a half-written configuration is never read). */
async function writeAtomic(path: string, content: string, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode });
  await chmod(temporary, mode); // the umask may have narrowed it; never widened
  await rename(temporary, path);
}

const systemctl = (...args: string[]) => {
  const result = spawnSync('systemctl', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`systemctl ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim()}`);
};

export type InstallOptions = {
  configPath: string;
  settings: AgentSettings;
  /** Where the unit goes; given explicitly, the unit is written even where systemd does not run (and not started). */
  unitDir?: string;
  start: boolean;
  print: (line: string) => void;
};

export async function install({ configPath, settings, unitDir, start, print }: InstallOptions): Promise<void> {
  const isRoot = process.getuid?.() === 0;
  const config = {
    url: settings.url,
    machineId: settings.machineId,
    token: settings.token,
    dataDir: settings.dataDir,
    path: settings.path,
    stopTimeoutMs: settings.stopTimeoutMs,
    user: settings.user,
    allowRoot: settings.allowRoot,
    sftp: settings.sftp,
    sftpPort: settings.sftpPort,
    sftpAddress: settings.sftpAddress,
  };
  await writeAtomic(configPath, `${JSON.stringify(config, null, 2)}\n`, 0o600);
  print(`configuration written to ${configPath} (mode 0600)`);
  await mkdir(settings.dataDir, { recursive: true, mode: isRoot ? 0o711 : 0o700 });
  if (settings.sftp) {
    // Made here so the operator can note its fingerprint now; kept across reinstalls and upgrades.
    const hostKey = await loadOrCreateHostKey(settings.dataDir);
    print(`SFTP on port ${settings.sftpPort}; host key ${hostKey.fingerprint}`);
  }
  if (isRoot && !settings.allowRoot) {
    const user = await ensureBaseUser(settings.user);
    print(`game servers run as unprivileged accounts of the group ${user.name} (one per server)`);
  } else if (!isRoot) {
    print('not running as root: game servers will run as this user, and no system user is created');
  }

  const useSystemd = systemdRuns();
  if (!useSystemd && unitDir === undefined) {
    print('systemd does not run on this machine; start the agent with:');
    print(`  ${runCommand(configPath).join(' ')}`);
    print('and keep it running with your init system (restart it when it exits, except with exit status 2).');
    return;
  }
  const unitPath = join(unitDir ?? DEFAULT_UNIT_DIR, UNIT_NAME);
  await writeAtomic(unitPath, unitText(configPath, settings), 0o644);
  print(`systemd unit written to ${unitPath}`);
  if (!useSystemd) return print('systemd does not run here: the unit was written but not started');
  systemctl('daemon-reload');
  systemctl('enable', UNIT_NAME);
  if (!start) return print(`not started (--no-start); start it with: systemctl start ${UNIT_NAME}`);
  // restart, not start: an upgrade or a new token takes effect (the game servers keep running either way).
  systemctl('restart', UNIT_NAME);
  print(`started: systemctl status ${UNIT_NAME}; journalctl -u ${UNIT_NAME} -f`);
}

export type UninstallOptions = { configPath: string; dataDir: string; user: string; unitDir?: string; purge: boolean; print: (line: string) => void };

/** Stops every game server left in `dataDir` (SIGTERM to its process group, SIGKILL after `graceMs`). */
async function stopServers(dataDir: string, graceMs: number, print: (line: string) => void): Promise<void> {
  const runRoot = join(dataDir, 'run');
  const groups: number[] = [];
  for (const id of await readdir(runRoot).catch(() => [] as string[])) {
    const text = await readFile(join(runRoot, id, 'process.json'), 'utf8').catch(() => undefined);
    if (!text) continue;
    const identity = JSON.parse(text) as Parameters<typeof isSameProcess>[0];
    if (!isSameProcess(identity)) continue;
    print(`stopping game server ${id} (pid ${identity.pid})`);
    try {
      process.kill(-identity.pid, 'SIGTERM');
      groups.push(identity.pid);
    } catch {
      // gone meanwhile
    }
  }
  const until = Date.now() + graceMs;
  const alive = (pid: number) => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (groups.some(alive) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
  for (const pid of groups.filter(alive)) process.kill(-pid, 'SIGKILL');
}

export async function uninstall({ configPath, dataDir, user, unitDir, purge, print }: UninstallOptions): Promise<void> {
  const unitPath = join(unitDir ?? DEFAULT_UNIT_DIR, UNIT_NAME);
  if (systemdRuns() && existsSync(unitPath)) {
    spawnSync('systemctl', ['disable', '--now', UNIT_NAME], { stdio: 'ignore' });
    print(`stopped and disabled ${UNIT_NAME}`);
  }
  await stopServers(dataDir, 30_000, print);
  // Only the accounts this agent made (another agent's on the same machine stay); anything of theirs that left its
  // server's process group ends too.
  const accounts = process.getuid?.() === 0 ? await ownAccounts(dataDir, user) : [];
  // An account some of whose processes could not be ended is not removed (its uid would be reused).
  const ended: typeof accounts = [];
  for (const account of accounts) {
    await endProcessesOf(account).then(
      () => ended.push(account),
      (error: Error) => print(`could not end every process of ${account.name}: ${error.message}`),
    );
  }
  await rm(unitPath, { force: true });
  if (systemdRuns()) spawnSync('systemctl', ['daemon-reload'], { stdio: 'ignore' });
  await rm(configPath, { force: true });
  print(`removed ${unitPath} and ${configPath}`);
  if (!purge) return print(`kept ${dataDir} (game servers' files); --purge removes it and the servers' accounts`);
  // The servers' trees are removed as their owners (removeTree: root never walks a tree an account can write); only
  // once they are gone does root remove its own directories.
  const kept: string[] = [];
  for (const place of ['servers', 'steamcmd']) {
    for (const name of await readdir(join(dataDir, place)).catch(() => [] as string[])) {
      await removeTree(join(dataDir, place, name)).catch((error: Error) => {
        kept.push(join(dataDir, place, name));
        print(`could not remove ${join(dataDir, place, name)}: ${error.message}`);
      });
    }
  }
  // What is left is root's own (logs/, run/, jobs/, backups/, staging/ and the emptied servers/ and steamcmd/): no account
  // can write in it, so root may walk it by path.
  if (kept.length === 0) await rm(dataDir, { recursive: true, force: true });
  for (const account of ended) {
    if (spawnSync('userdel', [account.name], { stdio: 'ignore' }).status !== 0) print(`could not remove the account ${account.name}`);
  }
  if (kept.length > 0 || ended.length < accounts.length) {
    throw new Error(`kept ${dataDir}${ended.length < accounts.length ? ' and the accounts whose processes did not end' : ''}: see above`);
  }
  print(`removed ${dataDir} and the servers' accounts`);
}
