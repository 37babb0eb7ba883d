/**
 * A server deleted in the service (absent from a `servers:sync`; servers never move between machines) leaves nothing
 * on the machine but its backups (docs/agent.md#least-privilege): once stopped, every process of its account ends, its
 * directory and its SteamCMD copy are removed as that account (removeTree), the agent's own files about it go, and so
 * does its account.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { endProcessesOf, removeTree, type Accounts } from './accounts.ts';

export async function removeServer(dataDir: string, serverId: string, accounts: Accounts): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(serverId)) return;
  const account = accounts.enabled ? await accounts.nameOf(serverId) : undefined;
  if (account) {
    const found = await accounts.forServer(serverId);
    if (found) await endProcessesOf(found);
  }
  await removeTree(join(dataDir, 'servers', serverId));
  await removeTree(join(dataDir, 'steamcmd', serverId));
  for (const own of ['run', 'logs', 'staging']) await rm(join(dataDir, own, serverId), { recursive: true, force: true });
  await accounts.removeServer(serverId);
}
