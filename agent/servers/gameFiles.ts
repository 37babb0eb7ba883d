/**
 * Files the agent, running as root, reads and writes inside a game's own directory (e.g. Minecraft's
 * server.properties). The game's account owns that directory and could put a symbolic link where the agent expects
 * a file, pointing at /etc/shadow: reads never follow a link (O_NOFOLLOW, regular files only), and writes go to a new
 * file that then replaces the name (rename replaces a link itself, never its target). Only names directly in the
 * directory are used: the directory's own path is the agent's (`<data-dir>/servers/<id>`, in a root-owned parent).
 */
import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export type Owner = { uid: number; gid: number };

/** The content of a regular file; undefined when there is none. A symbolic link or anything else is refused. */
export async function readGameFile(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new Error(`${basename(path)} is a symbolic link; the agent does not follow links in a server's directory`, { cause: error });
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${basename(path)} is not a regular file`);
    // A hard link the game made to a file outside (e.g. /etc/shadow) would otherwise be read, and written back, by root.
    if (info.nlink > 1) throw new Error(`${basename(path)} has more than one hard link; the agent does not read it`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Replaces `path` with `content` (a new file renamed over the name), owned by `owner` when given. */
export async function writeGameFile(path: string, content: string, owner?: Owner): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.gsm-${randomBytes(6).toString('hex')}`);
  // O_EXCL with O_NOFOLLOW: a name prepared in advance (even a link) makes this fail instead of writing elsewhere.
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(content);
    if (owner) await handle.chown(owner.uid, owner.gid);
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
}
