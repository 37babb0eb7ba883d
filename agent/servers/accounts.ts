/**
 * Least privilege (docs/agent.md#least-privilege): an agent running as root never runs a game server as root (unless
 * the machine's configuration says `allowRoot`). Each server runs as its own system account `<user>-<12 hex digits of
 * a hash of its whole id>`, in the group `<user>` (default `gsm`), with its directory owned by it and closed to others
 * (0700): one server cannot read another's files, and none can read the agent's configuration or token. An agent that
 * is not root runs its servers as its own user (it cannot do otherwise).
 *
 * Which server an account belongs to is recorded in `<data-dir>/accounts.json` (root's, 0600) before the account is
 * made: a server never runs under an account recorded for another, nor under one this agent did not make, and
 * `uninstall --purge` removes only the accounts recorded there.
 *
 * Root never walks a tree a server's account can write (the account could swap a directory for a link to /etc between
 * two steps of the walk): work inside it runs as the account (runAs), and root touches only the server's directory
 * itself, through a descriptor opened without following links.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { killAccount } from '../runtime/processRuntime.ts';

const run = promisify(execFile);

export type Account = { name: string; uid: number; gid: number };
/** Who a helper runs as: a server's account, or the owner of a tree found on disk. */
export type RunAs = { uid: number; gid: number };

/** A valid base user name (the server accounts add 13 characters; Linux allows 32). */
export const USER_NAME = /^[a-z_][a-z0-9_-]{0,18}$/;

/** `<data-dir>/accounts.json`: account name → the id of the server it belongs to (null: this agent's, no server). */
export const ACCOUNTS_FILE = 'accounts.json';
export type AccountRecord = Record<string, string | null>;

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

/** The account name of a server: a hash of its whole id (a UUID v7's first digits are only its creation millisecond). */
export const accountNameOf = (user: string, serverId: string) => `${user}-${createHash('sha256').update(serverId.toLowerCase()).digest('hex').slice(0, 12)}`;
/** The name agents before this rule gave a server: the first 12 hex digits of its id. */
export const legacyAccountNameOf = (user: string, serverId: string) => `${user}-${serverId.replaceAll('-', '').slice(0, 12).toLowerCase()}`;

/**
 * The accounts this agent recorded as its own (a missing file: none). A file that cannot be read or is not a record
 * stops whoever asks with a clear error: it is never taken for an empty record (and overwritten, losing which
 * account is whose).
 */
export async function recordedAccounts(dataDir: string): Promise<AccountRecord> {
  const file = join(dataDir, ACCOUNTS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new AccountError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code}): no server account is made or removed until it can`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.values(parsed).every((value) => value === null || typeof value === 'string'))
    throw new AccountError(`${file} is not a record of accounts (name → server id): no server account is made or removed until it is repaired`);
  return parsed as AccountRecord;
}

export class AccountError extends Error {}

export class Accounts {
  readonly #user: string;
  readonly #enabled: boolean;
  readonly #dataDir: string;
  readonly #known = new Map<string, Promise<Account>>();
  /** Changes to the record, one after the other. */
  #queue: Promise<unknown> = Promise.resolve();

  /** `enabled`: the agent runs as root and `allowRoot` is not set. */
  constructor(options: { user: string; enabled: boolean; dataDir: string }) {
    this.#user = options.user;
    this.#enabled = options.enabled;
    this.#dataDir = options.dataDir;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** The account server `serverId` runs as (made on first use); undefined when servers run as the agent's user. */
  forServer(serverId: string): Promise<Account> | undefined {
    if (!this.#enabled) return undefined;
    let account = this.#known.get(serverId);
    if (!account) {
      account = this.#serial(() => this.#resolve(serverId));
      this.#known.set(serverId, account);
      account.catch(() => this.#known.delete(serverId));
    }
    return account;
  }

  /** The account's name if this server already has one (for its status report); never makes one. */
  async nameOf(serverId: string): Promise<string | undefined> {
    if (!this.#enabled) return undefined;
    const record = await recordedAccounts(this.#dataDir).catch(() => ({}) as AccountRecord);
    return Object.entries(record).find(([, owner]) => owner === serverId)?.[0];
  }

  /**
   * The account server `serverId` already has (recorded, or an earlier agent's it alone used, which is recorded then);
   * never makes one: what a removal ends the processes of.
   */
  existingFor(serverId: string): Promise<Account | undefined> {
    if (!this.#enabled) return Promise.resolve(undefined);
    return this.#serial(async () => {
      const record = await recordedAccounts(this.#dataDir);
      const recorded = Object.entries(record).find(([, owner]) => owner === serverId)?.[0];
      if (recorded) return lookup(recorded);
      return this.#adoptLegacy(serverId, record);
    });
  }

  /**
   * Retires a deleted server's account once none of its processes is left: it stays on the system (locked: no
   * password, no shell), recorded as this agent's with no server, so that its uid is never given to a new account
   * that would inherit whatever it left outside the server's directory; `uninstall --purge` removes it. Rejects,
   * changing nothing, when a process of the account could not be ended.
   */
  async removeServer(serverId: string): Promise<void> {
    if (!this.#enabled) return;
    await this.#serial(async () => {
      const record = await recordedAccounts(this.#dataDir);
      for (const [name, owner] of Object.entries(record)) {
        if (owner !== serverId) continue;
        const account = await lookup(name);
        if (account) await endProcessesOf(account);
        record[name] = null;
      }
      await this.#save(record);
      this.#known.delete(serverId);
    });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Written to a new file, flushed to disk, then renamed over the old one: a crash leaves the old record or the new. */
  async #save(record: AccountRecord): Promise<void> {
    const file = join(this.#dataDir, ACCOUNTS_FILE);
    await rm(`${file}.tmp`, { force: true });
    const handle = await open(`${file}.tmp`, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(JSON.stringify(record, null, 2));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(`${file}.tmp`, file);
    const parent = await open(this.#dataDir, constants.O_RDONLY | constants.O_DIRECTORY);
    await parent.sync().finally(() => parent.close());
  }

  async #resolve(serverId: string): Promise<Account> {
    const record = await recordedAccounts(this.#dataDir);
    const recorded = Object.entries(record).find(([, owner]) => owner === serverId)?.[0];
    if (recorded) return (await lookup(recorded)) ?? (await this.#make(recorded));
    const adopted = await this.#adoptLegacy(serverId, record);
    if (adopted) return adopted;
    const name = accountNameOf(this.#user, serverId);
    if (name in record) throw new AccountError(`the account ${name} belongs to another server (${record[name] ?? 'none'}): not running ${serverId} under it`);
    if (await lookup(name)) throw new AccountError(`the account ${name} exists but was not made by this agent: not running ${serverId} under it`);
    // Recorded before it exists: an agent stopped in between finds it recorded, never a stranger's.
    record[name] = serverId;
    await this.#save(record);
    return this.#make(name);
  }

  /**
   * A server an earlier agent ran under `<user>-<first 12 hex digits of its id>` keeps that account, unless another
   * server here has the same name (created in the same millisecond): then neither keeps it, each gets an account of its
   * own at its next start (its files copied over as the accounts, prepareServerDir), and the old one stays recorded as
   * this agent's (no server) so that `uninstall --purge` removes it.
   */
  async #adoptLegacy(serverId: string, record: AccountRecord): Promise<Account | undefined> {
    const legacy = legacyAccountNameOf(this.#user, serverId);
    if (legacy in record && record[legacy] !== serverId) return undefined;
    const account = await lookup(legacy);
    if (!account) return undefined;
    const dir = join(this.#dataDir, 'servers', serverId);
    const owner = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
      .then(async (handle) => (await handle.stat().finally(() => handle.close())).uid)
      .catch(() => undefined);
    if (owner !== account.uid) return undefined;
    const others = new Set<string>();
    for (const place of ['servers', 'run']) {
      for (const name of await readdir(join(this.#dataDir, place)).catch(() => [] as string[])) {
        if (/^[0-9a-f-]{36}$/i.test(name) && name !== serverId && legacyAccountNameOf(this.#user, name) === legacy) others.add(name);
      }
    }
    record[legacy] = others.size === 0 ? serverId : null;
    await this.#save(record);
    return others.size === 0 ? account : undefined;
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
 * How long a helper running as a server's account may take before root kills it: the account can stop or trace its
 * own processes, and whoever waits for the helper (a removal, an install) must not wait forever.
 */
export const HELPER_TIMEOUT_MS = 30 * 60_000;

/**
 * Runs `command` as `who` (never root's environment: a bare PATH), from `/`; answers its exit code, stderr's tail and,
 * with `output`, its standard output (at most 16 MiB). Without `who`, as the agent's own user.
 */
export function runAs(
  who: RunAs | undefined,
  command: string,
  args: string[],
  options: { stdin?: number; cwd?: string; timeoutMs?: number; output?: boolean } = {},
): Promise<{ code: number | null; stderr: string; stdout: string; error?: Error }> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', HOME: '/' },
    stdio: [options.stdin ?? 'ignore', options.output ? 'pipe' : 'ignore', 'pipe'],
    ...(who && who.uid !== process.getuid?.() ? { uid: who.uid, gid: who.gid } : {}),
    timeout: options.timeoutMs ?? HELPER_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
  const chunks: Buffer[] = [];
  let size = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= 16 * 1024 * 1024) chunks.push(chunk);
    else child.kill('SIGKILL');
  });
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, stderr, stdout: '', error }));
    child.on('close', (code) =>
      resolve(
        size > 16 * 1024 * 1024
          ? { code: null, stderr, stdout: '', error: new Error(`${command}: too much output`) }
          : { code, stderr: stderr.trim(), stdout: Buffer.concat(chunks).toString('utf8') },
      ),
    );
  });
}

/** Ends every process of `who` at once (an account that is the server's alone). */
export const endProcessesOf = (who: RunAs): Promise<void> => killAccount(who);

/** The owner of `dir` itself, read through a descriptor (never following a link); undefined when it is not a directory. */
export async function ownerOf(dir: string): Promise<RunAs | undefined> {
  try {
    const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    const info = await handle.stat().finally(() => handle.close());
    return { uid: info.uid, gid: info.gid };
  } catch {
    return undefined;
  }
}

/**
 * Removes `paths` as `who` (the server's account: it can only remove what it could anyway, whatever links it put in
 * the way); without an account, as the agent's own user.
 */
export async function removeAs(who: RunAs | undefined, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  if (!who || who.uid === process.getuid?.()) {
    for (const path of paths) await rm(path, { recursive: true, force: true });
    return;
  }
  const done = await runAs(who, 'rm', ['-rf', '--one-file-system', '--', ...paths]);
  if (done.error) throw done.error;
  if (done.code !== 0) throw new Error(`could not remove everything as the server's account: ${done.stderr.split('\n')[0] || `rm exit ${done.code}`}`);
}

/**
 * Removes the directory `dir` (whose parent is the agent's, so the name itself cannot be swapped): its content as the
 * directory's owner, then the empty directory as root. A directory root owns (one the agent made and never handed
 * over) is removed by the agent itself.
 */
export async function removeTree(dir: string): Promise<void> {
  const owner = await ownerOf(dir);
  if (!owner) return void (await rm(dir, { force: true }).catch(() => undefined));
  if (owner.uid === 0 || owner.uid === process.getuid?.()) {
    // The agent's own (never handed over): GNU rm walks it by descriptors, never following a link (Node's rm walks by
    // path), should something in it have been given to an account all the same.
    const done = await runAs(undefined, 'rm', ['-rf', '--one-file-system', '--', dir]);
    if (done.error || done.code !== 0) throw new Error(`${dir} could not be removed entirely: ${done.error?.message ?? done.stderr.split('\n')[0]}`);
    return;
  }
  // As the owner, the content goes (the owner cannot remove the directory itself from the agent's parent); directories
  // it closed to itself are opened again first.
  await runAs(owner, 'chmod', ['-R', 'u+rwx', '--', dir]);
  await runAs(owner, 'find', [dir, '-mindepth', '1', '-delete']);
  await rmdir(dir).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw new Error(`${dir} could not be removed entirely: ${error.code}`, { cause: error });
  });
}

/**
 * Makes `dir` (`<data-dir>/servers/<id>` or another directory in a parent only root can write) the account's, closed
 * to others. Only the directory itself is changed by root, through a descriptor. When it belonged to another account
 * (one an earlier agent shared between two servers), its content is copied over as the two accounts (tar reading as
 * the old one, tar writing as the new one), then put in its place: no file's ownership is changed by a root walk.
 */
export async function prepareServerDir(dir: string, account: Account): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  let previous: RunAs | undefined;
  try {
    const info = await handle.stat();
    if (info.uid !== account.uid || info.gid !== account.gid) {
      if (info.uid !== 0 && info.uid !== account.uid) previous = { uid: info.uid, gid: info.gid };
      else await handle.chown(account.uid, account.gid);
    }
    await handle.chmod(0o700);
  } finally {
    await handle.close();
  }
  if (previous) await moveTreeTo(dir, previous, account);
}

/** A shared account's files copied over (moveTreeTo) may be many gigabytes: a longer limit than HELPER_TIMEOUT_MS. */
const COPY_TIMEOUT_MS = 6 * 60 * 60_000;

async function moveTreeTo(dir: string, from: RunAs, to: Account): Promise<void> {
  // The names recoverInterruptedRestores knows: an agent stopped half-way puts the old directory back.
  const suffix = randomBytes(6).toString('hex');
  const fresh = join(dirname(dir), `.${basename(dir)}.restore-${suffix}`);
  const aside = join(dirname(dir), `.${basename(dir)}.old-${suffix}`);
  await mkdir(fresh, { mode: 0o700 });
  try {
    const made = await open(fresh, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    await made.chown(to.uid, to.gid).finally(() => made.close());
    const [reader, writer] = [
      // Every file or none: a file the old account cannot read fails the split (it would be lost in the copy).
      spawn('tar', ['--create', '--file=-', '--format=posix', `--directory=${dir}`, '.'], {
        cwd: '/',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: COPY_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        uid: from.uid,
        gid: from.gid,
      }),
      spawn('tar', ['--extract', '--file=-', `--directory=${fresh}`, '--no-same-owner', '--delay-directory-restore'], {
        cwd: '/',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
        stdio: ['pipe', 'ignore', 'pipe'],
        timeout: COPY_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        uid: to.uid,
        gid: to.gid,
      }),
    ];
    reader.stdout!.pipe(writer.stdin!);
    let stderr = '';
    for (const child of [reader, writer]) child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-2048)));
    const ended = (child: ReturnType<typeof spawn>) => new Promise<number | null>((resolve) => child.on('close', resolve).on('error', () => resolve(null)));
    const [readCode, writeCode] = await Promise.all([ended(reader), ended(writer)]);
    if (readCode !== 0 || writeCode !== 0)
      throw new Error(`the files could not be copied to ${to.name} (tar: ${stderr.trim() || `exit ${readCode}/${writeCode}`})`);
    await rename(dir, aside);
    await rename(fresh, dir);
  } catch (error) {
    await removeTree(fresh).catch(() => undefined);
    throw error;
  }
  await removeTree(aside).catch(() => undefined);
}

/**
 * The accounts of this agent's servers, for `uninstall --purge`: those recorded in its data directory, and those an
 * agent before the record made for the servers in it (`<user>-<first 12 hex digits>` owning the server's directory).
 */
export async function ownAccounts(dataDir: string, user: string): Promise<Account[]> {
  const names = new Set(Object.keys(await recordedAccounts(dataDir)));
  for (const id of await readdir(join(dataDir, 'servers')).catch(() => [] as string[])) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) continue;
    const legacy = legacyAccountNameOf(user, id);
    const [account, owner] = await Promise.all([lookup(legacy), ownerOf(join(dataDir, 'servers', id))]);
    if (account && owner?.uid === account.uid) names.add(legacy);
  }
  const found: Account[] = [];
  for (const name of names) {
    const account = await lookup(name);
    if (account && account.uid !== 0) found.push(account);
  }
  return found;
}

/**
 * An agent running as root keeps the servers' accounts apart only if no account can change the path to its data
 * directory: the directory and each one above it must be root's (followed by no link) and writable by no one else,
 * unless sticky (as /tmp is: others cannot rename root's entries there). Rejects saying which one is not.
 */
export async function checkDataDirPath(dataDir: string): Promise<void> {
  let path = resolve(dataDir);
  for (;;) {
    const info = await lstat(path);
    if (info.isSymbolicLink()) throw new Error(`${path} is a symbolic link: the data directory's path must be root's own directories`);
    if (info.uid !== 0) throw new Error(`${path} belongs to uid ${info.uid}: the data directory and the directories above it must be root's`);
    if ((info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0)
      throw new Error(`${path} is writable by others (mode ${(info.mode & 0o7777).toString(8)}): the data directory and those above it must not be`);
    const parent = dirname(path);
    if (parent === path) return;
    path = parent;
  }
}
