/**
 * A server deleted in the service leaves nothing on the machine but its backups (docs/agent.md#how-it-runs-a-game-server): once
 * stopped, every process of its account ends, its directory and its SteamCMD copy are removed as that account
 * (removeTree), the agent's own files about it go, and its account is retired (Accounts.removeServer).
 *
 * Only on the service's explicit word (servers:sync's `deleted`), and only by the agent of the machine the data
 * directory was first used for (`machine-id` in it): a sync that merely omits a server (an agent started with another
 * machine's id and this data directory, a service restored from an old database) stops it and keeps its files.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { endProcessesOf, removeTree, type Accounts } from './accounts.ts';

/** `<data-dir>/machine-id`: the machine this data directory's servers belong to (root's, 0600). */
export const MACHINE_ID_FILE = 'machine-id';

/**
 * Records `machineId` in a data directory used for the first time; answers whether the directory is this machine's
 * (false: it was first used by another machine's agent, or the record cannot be read; no server's files are removed).
 */
export async function claimDataDir(dataDir: string, machineId: string): Promise<{ own: boolean; recorded?: string }> {
  const file = join(dataDir, MACHINE_ID_FILE);
  let recorded: string;
  try {
    recorded = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { own: false, recorded: `unreadable (${(error as NodeJS.ErrnoException).code})` };
    await writeFile(file, `${machineId}\n`, { mode: 0o600, flag: 'wx' });
    return { own: true };
  }
  return recorded === machineId ? { own: true } : { own: false, recorded };
}

/** Whether anything of server `serverId` is still on this machine (its files, the agent's about it, its account). */
export async function hasTraces(dataDir: string, serverId: string, accounts: Accounts): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(serverId)) return false;
  if (['servers', 'steamcmd', 'run', 'logs', 'staging'].some((place) => existsSync(join(dataDir, place, serverId)))) return true;
  return (await accounts.nameOf(serverId)) !== undefined;
}

export async function removeServer(dataDir: string, serverId: string, accounts: Accounts): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(serverId)) return;
  // Its account (an earlier agent's included: it is recorded now, and retired below) must have nothing left running.
  const account = await accounts.existingFor(serverId);
  if (account) await endProcessesOf(account);
  await removeTree(join(dataDir, 'servers', serverId));
  await removeTree(join(dataDir, 'steamcmd', serverId));
  for (const own of ['run', 'logs', 'staging']) await rm(join(dataDir, own, serverId), { recursive: true, force: true });
  await accounts.removeServer(serverId);
}
