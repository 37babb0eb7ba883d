/**
 * Game servers run in their own process groups, so they outlive an agent that is killed outright (SIGKILL, OOM,
 * power loss of the agent alone). Such leftovers would hold their ports and block the next start; the agent cannot
 * re-attach to their output or console. So on start-up it kills them, and the desired state brings back, cleanly, the
 * servers that should run.
 */
import { constants } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../schema/logger.ts';

/** Written in a server's directory while its process runs. */
export const PID_FILE = 'server.pid';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The pid file an earlier agent wrote, as root, in the server's directory. The game's account could have put any
 * number there (making root kill another process group), a link, or a hard link to a file of root's: only a regular
 * root-owned file with one link, read without following a link, is believed.
 */
async function readPidFile(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return '';
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.nlink !== 1 || info.uid !== process.getuid?.() || info.size > 64) return '';
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Kills the process group of every server a previous agent left running; answers how many. */
export async function killLeftovers(dataDir: string, logger: Logger): Promise<number> {
  const serversDir = join(dataDir, 'servers');
  const ids = await readdir(serversDir).catch(() => [] as string[]);
  let killed = 0;
  for (const id of ids) {
    const file = join(serversDir, id, PID_FILE);
    const pid = Number.parseInt((await readPidFile(file)).trim(), 10);
    if (Number.isInteger(pid) && pid > 1 && alive(pid)) {
      try {
        process.kill(-pid, 'SIGKILL'); // the whole group: the server and anything it forked
        killed++;
        logger.warn({ serverId: id, pid }, 'killed a game server left running by an earlier agent');
      } catch {
        // gone meanwhile
      }
    }
    await rm(file, { force: true });
  }
  return killed;
}
