/**
 * The agent's file helpers, one per server while it is used (docs/agent.md#server-files): the service's `files`
 * requests (the API's file manager and transfers) and SFTP sessions share it. A helper idle for a while is stopped; one
 * that died (the server's STOP ended every process of its account) is started again at the next request.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareServerDir, type Accounts } from '../servers/accounts.ts';
import { FileHelper, FileOpError } from './fileHelper.ts';

/** A helper with no request for this long is stopped (its open handles closed). */
const IDLE_MS = 5 * 60_000;

export type FileSessionsOptions = {
  dataDir: string;
  accounts: Accounts;
  /** The deny list of a server this agent runs; undefined: not a server of this agent. */
  denyListOf: (serverId: string) => readonly string[] | undefined;
};

type Entry = { helper: Promise<FileHelper>; deny: string; timer?: NodeJS.Timeout };

export class FileSessions {
  readonly #options: FileSessionsOptions;
  readonly #helpers = new Map<string, Entry>();

  constructor(options: FileSessionsOptions) {
    this.#options = options;
  }

  /** The helper of server `serverId` (started when needed): NOT_FOUND for a server this agent does not run. */
  async helperFor(serverId: string): Promise<FileHelper> {
    const deny = this.#options.denyListOf(serverId);
    if (!deny) throw new FileOpError('NOT_FOUND', 'this agent does not run that server');
    const key = JSON.stringify(deny);
    let entry = this.#helpers.get(serverId);
    if (entry && entry.deny !== key) {
      // The deny list changed: a new helper enforces the new one.
      this.#helpers.delete(serverId);
      void entry.helper.then((helper) => helper.stop()).catch(() => undefined);
      entry = undefined;
    }
    if (entry) {
      const helper = await entry.helper.catch(() => undefined);
      if (helper?.alive) {
        this.#touch(serverId, entry);
        return helper;
      }
      if (this.#helpers.get(serverId) === entry) this.#helpers.delete(serverId);
    }
    const started = this.#start(serverId, deny);
    const fresh: Entry = { helper: started, deny: key };
    this.#helpers.set(serverId, fresh);
    started.catch(() => this.#helpers.get(serverId) === fresh && this.#helpers.delete(serverId));
    this.#touch(serverId, fresh);
    return started;
  }

  async #start(serverId: string, deny: readonly string[]): Promise<FileHelper> {
    const root = join(this.#options.dataDir, 'servers', serverId);
    const account = await this.#options.accounts.forServer(serverId);
    if (account) await prepareServerDir(root, account);
    else await mkdir(root, { recursive: true, mode: 0o700 });
    const helper = await FileHelper.start({ root, ...(account ? { runAs: account } : {}), deny });
    helper.once('exit', () => {
      const entry = this.#helpers.get(serverId);
      if (entry) void entry.helper.then((current) => current === helper && this.#helpers.get(serverId) === entry && this.#helpers.delete(serverId));
    });
    return helper;
  }

  #touch(serverId: string, entry: Entry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.#helpers.get(serverId) !== entry) return;
      this.#helpers.delete(serverId);
      void entry.helper.then((helper) => helper.stop()).catch(() => undefined);
    }, IDLE_MS);
    entry.timer.unref();
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
