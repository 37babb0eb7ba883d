/**
 * The agent's file helpers (docs/agent.md#server-files): one per server while it is used, shared by the service's
 * `files` requests (the API's file manager and transfers) and file jobs, and one of its own for each SFTP session. A
 * shared helper idle for a while is stopped; one that died (the server's STOP ended every process of its account) is
 * started again at the next request. A disk-usage measurement is not a use: it borrows the helper that is there (its
 * idle time running on), or starts one only for itself and stops it when done.
 *
 * When a server's deny list changes (its template's `files.deny`, or the cluster's default, arrives with its
 * configuration), every helper of the server, SFTP sessions' included, is given the new list: the operations asked
 * for next are checked against it, while those under way (a compress, an extract, a file being copied in) finish
 * under the list they started with. No helper is stopped for it.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareServerDir, type Accounts } from '../servers/accounts.ts';
import { FileHelper, FileOpError } from './fileHelper.ts';

/** A helper with no request for this long is stopped (its open handles closed). */
const DEFAULT_IDLE_MS = 5 * 60_000;

export type FileSessionsOptions = {
  dataDir: string;
  accounts: Accounts;
  /** The deny list of a server this agent runs; undefined: not a server of this agent. */
  denyListOf: (serverId: string) => readonly string[] | undefined;
  /** How long a helper may go without a request before it is stopped (default 5 minutes). */
  idleMs?: number;
};

/** `borrowed`: started for a measurement only (no idle timer; stopped when it ends unless a request came meanwhile). */
type Entry = { helper: Promise<FileHelper>; timer?: NodeJS.Timeout; borrowed?: boolean };

/** The deny list each live helper was last given (compared as JSON). */
type Given = { deny: string; update: Promise<void> };

export class FileSessions {
  readonly #options: FileSessionsOptions;
  readonly #helpers = new Map<string, Entry>();
  /** Every live helper of each server (the shared one and SFTP sessions' ones), with the list it enforces. */
  readonly #live = new Map<string, Map<FileHelper, Given>>();
  /** After stopAll (the agent is ending): no helper is started any more. */
  #closed = false;
  /** Servers whose files are being archived for a transfer: no helper is started for them until released. */
  readonly #held = new Set<string>();

  constructor(options: FileSessionsOptions) {
    this.#options = options;
  }

  /** The helper of server `serverId` (started when needed): NOT_FOUND for a server this agent does not run. */
  async helperFor(serverId: string): Promise<FileHelper> {
    return this.#helper(serverId, true);
  }

  /** The servers whose helpers are running (or starting). */
  running(): string[] {
    return [...this.#helpers.keys()];
  }

  /**
   * Runs `use` with the server's helper without counting as a use of it (disk-usage measurement): a running helper's
   * idle time runs on; a helper started for this alone is stopped once `use` ends, unless a request took it meanwhile.
   */
  async borrow<T>(serverId: string, use: (helper: FileHelper) => Promise<T>): Promise<T> {
    const before = this.#helpers.get(serverId);
    const helper = await this.#helper(serverId, false);
    const entry = this.#helpers.get(serverId);
    try {
      return await use(helper);
    } finally {
      if (entry && entry !== before && entry.borrowed && this.#helpers.get(serverId) === entry) {
        this.#helpers.delete(serverId);
        await helper.stop().catch(() => undefined);
      }
    }
  }

  async #helper(serverId: string, touch: boolean): Promise<FileHelper> {
    if (this.#closed) throw new FileOpError('HELPER_GONE', 'the agent is stopping');
    this.#refuseHeld(serverId);
    const deny = this.#denyList(serverId);
    const entry = this.#helpers.get(serverId);
    if (entry) {
      // Taken for a request before anything is awaited: a measurement ending meanwhile does not stop it under this one.
      if (touch) {
        entry.borrowed = false;
        this.#touch(serverId, entry);
      }
      const helper = await entry.helper.catch(() => undefined);
      if (this.#closed) throw new FileOpError('HELPER_GONE', 'the agent is stopping');
      // Still the server's helper (not stopped as idle, or replaced, while it started): it serves this request.
      if (helper?.alive && this.#helpers.get(serverId) === entry) {
        // A list changed since the last sync (or never pushed) is given before this request is sent.
        await this.#give(serverId, helper, deny);
        return helper;
      }
      if (this.#helpers.get(serverId) === entry) this.#helpers.delete(serverId);
      if (this.#helpers.has(serverId)) return this.#helper(serverId, touch);
    }
    const started = this.#start(serverId, deny);
    const fresh: Entry = { helper: started, ...(touch ? {} : { borrowed: true }) };
    this.#helpers.set(serverId, fresh);
    started.catch(() => this.#helpers.get(serverId) === fresh && this.#helpers.delete(serverId));
    if (touch) {
      this.#touch(serverId, fresh);
      // The idle time counts from the end of its start too: a start slower than it does not stop it before its first request.
      void started.then(
        () => this.#helpers.get(serverId) === fresh && this.#touch(serverId, fresh),
        () => undefined,
      );
    }
    return started;
  }

  /**
   * A helper of its own for one SFTP session of server `serverId` (its handles and its end are the session's); it
   * follows the server's deny list like the shared one. The caller stops it when the session ends.
   */
  async sessionHelper(serverId: string): Promise<FileHelper> {
    if (this.#closed) throw new FileOpError('HELPER_GONE', 'the agent is stopping');
    this.#refuseHeld(serverId);
    return this.#start(serverId, this.#denyList(serverId));
  }

  /**
   * Gives every live helper its server's current deny list, where it changed (after a `servers:sync`). Resolves once
   * each helper has it: an operation asked for afterwards is checked against the new list.
   */
  async denyListsChanged(): Promise<void> {
    const updates: Promise<void>[] = [];
    for (const [serverId, helpers] of this.#live) {
      const deny = this.#options.denyListOf(serverId);
      if (!deny) continue; // the server is going; its helpers are stopped with it
      for (const helper of helpers.keys()) updates.push(this.#give(serverId, helper, deny));
    }
    await Promise.all(updates);
  }

  #denyList(serverId: string): readonly string[] {
    const deny = this.#options.denyListOf(serverId);
    if (!deny) throw new FileOpError('NOT_FOUND', 'this agent does not run that server');
    return deny;
  }

  /** Sends `deny` to `helper` unless it has it already; a helper that cannot take it is stopped (it never serves the old list on). */
  #give(serverId: string, helper: FileHelper, deny: readonly string[]): Promise<void> {
    const given = this.#live.get(serverId)?.get(helper);
    if (!given) return Promise.resolve();
    const key = JSON.stringify(deny);
    if (given.deny === key) return given.update;
    given.deny = key;
    given.update = given.update
      .then(() => helper.setDenyList(deny))
      .catch(async (error: unknown) => {
        if (helper.alive) await helper.stop().catch(() => undefined);
        throw error;
      });
    return given.update;
  }

  async #start(serverId: string, deny: readonly string[]): Promise<FileHelper> {
    const root = join(this.#options.dataDir, 'servers', serverId);
    const account = await this.#options.accounts.forServer(serverId);
    if (account) await prepareServerDir(root, account);
    else await mkdir(root, { recursive: true, mode: 0o700 });
    if (this.#closed) throw new FileOpError('HELPER_GONE', 'the agent is stopping');
    const helper = await FileHelper.start({ root, ...(account ? { runAs: account } : {}), deny });
    if (this.#closed) {
      // stopAll ran while it started: it would serve on after the agent's end.
      await helper.stop().catch(() => undefined);
      throw new FileOpError('HELPER_GONE', 'the agent is stopping');
    }
    const live = this.#live.get(serverId) ?? new Map<FileHelper, Given>();
    this.#live.set(serverId, live);
    live.set(helper, { deny: JSON.stringify(deny), update: Promise.resolve() });
    helper.once('exit', () => {
      live.delete(helper);
      if (live.size === 0 && this.#live.get(serverId) === live) this.#live.delete(serverId);
      const entry = this.#helpers.get(serverId);
      if (entry) void entry.helper.then((current) => current === helper && this.#helpers.get(serverId) === entry && this.#helpers.delete(serverId));
    });
    // The list may have changed while it started: it gets the current one before its first request.
    await this.#give(serverId, helper, this.#options.denyListOf(serverId) ?? deny);
    return helper;
  }

  #touch(serverId: string, entry: Entry): void {
    clearTimeout(entry.timer);
    const timer = setTimeout(() => {
      if (this.#helpers.get(serverId) !== entry) return;
      void entry.helper.then(
        (helper) => {
          // Touched again meanwhile (a request, or its start ended): that timer decides.
          if (this.#helpers.get(serverId) !== entry || entry.timer !== timer) return;
          // A request still running (an extraction of many entries takes longer than the idle time) is a use: it is
          // never cut short, and the idle time starts again.
          if (helper.busy > 0) return this.#touch(serverId, entry);
          this.#helpers.delete(serverId);
          return helper.stop();
        },
        () => undefined,
      );
    }, this.#options.idleMs ?? DEFAULT_IDLE_MS);
    timer.unref();
    entry.timer = timer;
  }

  #refuseHeld(serverId: string): void {
    if (this.#held.has(serverId)) throw new FileOpError('SERVER_BUSY', "the server's files are being archived to move it to another machine");
  }

  /**
   * Holds a server's files for a transfer (docs/transfers.md#meanwhile): every helper of the server (the shared one
   * and SFTP sessions' ones) is stopped, so an upload or a write under way ends (refused to its client, never kept
   * after the archive), and none starts again until `release`. Resolves once none is left.
   */
  async hold(serverId: string): Promise<void> {
    this.#held.add(serverId);
    await this.stop(serverId);
    await Promise.all([...(this.#live.get(serverId)?.keys() ?? [])].map((helper) => helper.stop().catch(() => undefined)));
  }

  /** Ends `hold`: the server's files may be used again. */
  release(serverId: string): void {
    this.#held.delete(serverId);
  }

  /** Whether the server's files are held for a transfer. */
  held(serverId: string): boolean {
    return this.#held.has(serverId);
  }

  /** Stops a server's helper (the server was removed, or its files are being replaced). */
  async stop(serverId: string): Promise<void> {
    const entry = this.#helpers.get(serverId);
    if (!entry) return;
    this.#helpers.delete(serverId);
    clearTimeout(entry.timer);
    await entry.helper.then((helper) => helper.stop()).catch(() => undefined);
  }

  async stopAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#helpers.keys()].map((id) => this.stop(id)));
  }

  /**
   * One `files` request of the service: `{ serverId, op, …arguments }` (the operations of FileHelper; `read` answers
   * its bytes as `data`, `write` takes them as `data`). Answers `{ ok: true, … }` or `{ error: { code, message } }`.
   */
  async handle(request: Record<string, unknown>, data?: Buffer): Promise<Record<string, unknown>> {
    try {
      const serverId = typeof request.serverId === 'string' ? request.serverId : '';
      const helper = await this.helperFor(serverId);
      const s = (key: string) => String(request[key] ?? '');
      const n = (key: string) => Number(request[key] ?? 0);
      switch (request.op) {
        case 'stat':
          return { ok: true, info: await helper.stat(s('path')) };
        case 'lstat':
          return { ok: true, info: await helper.lstat(s('path')) };
        case 'list':
          return { ok: true, ...(await helper.list(s('path'), { ...(request.after !== undefined ? { after: s('after') } : {}), limit: n('limit') || 1000 })) };
        case 'open':
          return { ok: true, ...(await helper.open(s('path'), (request.flags ?? {}) as never)) };
        case 'read':
          return { ok: true, data: await helper.read(n('handle'), n('position'), n('length')) };
        case 'write':
          return { ok: true, written: await helper.write(n('handle'), n('position'), data ?? Buffer.alloc(0)) };
        case 'close':
          return { ok: true, info: (await helper.close(n('handle'), { commit: request.commit === true })) ?? null };
        case 'mkdir':
          return { ok: true, info: await helper.mkdir(s('path'), { recursive: request.recursive === true }) };
        case 'rename':
          return { ok: true, info: await helper.rename(s('from'), s('to'), { overwrite: request.overwrite === true }) };
        case 'copy':
          return { ok: true, info: await helper.copy(s('from'), s('to')) };
        case 'remove':
          await helper.remove(s('path'), { recursive: request.recursive === true });
          return { ok: true };
        case 'chmod':
          return { ok: true, info: await helper.chmod(s('path'), n('mode')) };
        case 'search':
          return { ok: true, result: await helper.search((request.options ?? {}) as never) };
        case 'usage':
          return { ok: true, ...(await helper.usage(s('path'))) };
        case 'space':
          return { ok: true, ...(await helper.space()) };
        default:
          throw new FileOpError('INVALID', `unknown file operation ${String(request.op)}`);
      }
    } catch (error) {
      const failure = error instanceof FileOpError ? error : new FileOpError('FAILED', (error as Error).message);
      return { error: { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) } };
    }
  }
}
