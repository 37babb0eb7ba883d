/**
 * Least privilege (docs/agent.md#least-privilege): an agent running as root never runs a game server as root (unless
 * the machine's configuration says `allowRoot`). Each server runs as its own system account `<user>-<first 12 hex
 * digits of its id>`, in the group `<user>` (default `gsm`), with its directory owned by it and closed to others
 * (0700): one server cannot read another's files, and none can read the agent's configuration or token. An agent that
 * is not root runs its servers as its own user (it cannot do otherwise).
 */
import { execFile } from 'node:child_process';
import { chmod, lchown, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type Account = { name: string; uid: number; gid: number };

/** A valid base user name (the server accounts add 13 characters; Linux allows 32). */
export const USER_NAME = /^[a-z_][a-z0-9_-]{0,18}$/;

async function lookup(name: string): Promise<Account | undefined> {
  try {
    const { stdout } = await run('getent', ['passwd', name]);
    const [, , uid, gid] = stdout.trim().split(':');
    return { name, uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

async function groupExists(name: string): Promise<boolean> {
  return run('getent', ['group', name]).then(
    () => true,
    () => false,
  );
}

/** Creates the system user and group `name` when missing (install, and before the first server account). */
export async function ensureBaseUser(name: string): Promise<Account> {
  const found = await lookup(name);
  if (found) return found;
  const args = ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin'];
  await run('useradd', [...args, ...((await groupExists(name)) ? ['--gid', name] : ['--user-group']), name]);
  const made = await lookup(name);
  if (!made) throw new Error(`could not create the user ${name}`);
  return made;
}

export class Accounts {
  readonly #user: string;
  readonly #enabled: boolean;
  readonly #known = new Map<string, Promise<Account>>();

  /** `enabled`: the agent runs as root and `allowRoot` is not set. */
  constructor(options: { user: string; enabled: boolean }) {
    this.#user = options.user;
    this.#enabled = options.enabled;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** The account server `serverId` runs as (made on first use); undefined when servers run as the agent's user. */
  forServer(serverId: string): Promise<Account> | undefined {
    if (!this.#enabled) return undefined;
    const name = `${this.#user}-${serverId.replaceAll('-', '').slice(0, 12).toLowerCase()}`;
    let account = this.#known.get(name);
    if (!account) {
      account = this.#make(name);
      this.#known.set(name, account);
      account.catch(() => this.#known.delete(name));
    }
    return account;
  }

  async #make(name: string): Promise<Account> {
    const found = await lookup(name);
    if (found) return found;
    const base = await ensureBaseUser(this.#user);
    await run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--gid', String(base.gid), name]);
    const made = await lookup(name);
    if (!made) throw new Error(`could not create the user ${name}`);
    return made;
  }
}

/**
 * Gives `dir` and everything in it to `account` (when it is not theirs yet: a new server, or files copied in by
 * root), closed to others. Symbolic links are changed themselves, never followed.
 */
export async function ownTree(dir: string, account: Account): Promise<void> {
  const top = await lstat(dir);
  await chmod(dir, 0o700);
  if (top.uid === account.uid && top.gid === account.gid) return;
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    if (info.uid !== account.uid || info.gid !== account.gid) await lchown(path, account.uid, account.gid).catch(() => undefined);
    if (!info.isDirectory()) return;
    for (const entry of await readdir(path)) await walk(join(path, entry));
  };
  await walk(dir);
}
