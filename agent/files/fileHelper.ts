/**
 * The agent's side of a file helper (docs/agent.md#server-files): `FileHelper.start({ root, runAs, deny })` starts a
 * process running as the server's account (helperMain.ts) and answers an object whose methods are the file operations
 * on that server's directory. Paths are relative to the directory (`/` is the directory itself: `/plugins/a.jar` and
 * `plugins/a.jar` are the same). Every method rejects with a FileOpError (`code`, `message`, for PRECONDITION_FAILED
 * `details.etag`); when the helper dies (the server stopped and its account's processes ended, for example), pending
 * and later calls reject with HELPER_GONE: start another one.
 *
 * This is the interface the API's file transfers and SFTP use. readStream and writeAtomic move large files with
 * bounded memory: a read stream asks for the next chunk only when its consumer wants more; a write waits for each
 * chunk to be written before taking the next.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { RunAs } from '../servers/accounts.ts';
import {
  writeFrame,
  FileOpError,
  FrameReader,
  MAX_CHUNK,
  type FileErrorCode,
  type FileInfo,
  type OpenFlags,
  type SearchOptions,
  type SearchResult,
} from './protocol.ts';

export { FileOpError, type FileErrorCode, type FileInfo, type OpenFlags, type SearchOptions, type SearchResult } from './protocol.ts';

/** How the helper is started: the bundled agent runs itself with `__files-helper`, the sources run helperMain.ts. */
export function helperCommand(): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return { command: process.execPath, args: [join(dirname(here), 'helperMain.ts')] };
  return { command: process.execPath, args: [here, '__files-helper'] };
}

type Pending = { resolve: (frame: { json: Record<string, unknown>; data?: Buffer }) => void; reject: (error: Error) => void };

export type FileHelperOptions = {
  /** The server's directory. */
  root: string;
  /** The server's account (undefined: the agent's own user, when servers run as it). */
  runAs?: RunAs;
  /** The gitignore-style deny list of the server's template (or the cluster's default). */
  deny?: readonly string[];
};

const READ_CHUNK = 256 * 1024;

/** How far a compress or extract is: bytes done, of `total` when known. */
export type ArchiveProgress = (done: number, total: number | null, message: string) => void;
export type LongCall = { progress?: ArchiveProgress; signal?: AbortSignal };

export class FileHelper extends EventEmitter {
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #pending = new Map<number, Pending>();
  readonly #progress = new Map<number, ArchiveProgress>();
  #nextId = 1;
  #gone: FileOpError | undefined;
  #stderr = '';
  /** The uid the helper runs as (as it says itself). */
  uid: number | null = null;

  private constructor(child: ChildProcessByStdio<Writable, Readable, Readable>) {
    super();
    this.#child = child;
  }

  /** Starts a helper; resolves once it serves (rejects when it cannot start, with its reason). */
  static start(options: FileHelperOptions): Promise<FileHelper> {
    const { command, args } = helperCommand();
    const who = options.runAs && options.runAs.uid !== process.getuid?.() ? { uid: options.runAs.uid, gid: options.runAs.gid } : {};
    const child = spawn(command, [...args, options.root, JSON.stringify(options.deny ?? [])], {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', HOME: '/' },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...who,
    });
    const helper = new FileHelper(child);
    return helper.#begin();
  }

  #begin(): Promise<FileHelper> {
    const reader = new FrameReader();
    const child = this.#child;
    return new Promise((resolve, reject) => {
      let ready = false;
      child.stderr.setEncoding('utf8').on('data', (text: string) => (this.#stderr = (this.#stderr + text).slice(-4096)));
      child.stdout.on('data', (chunk: Buffer) => {
        let frames;
        try {
          frames = reader.push(chunk);
        } catch (error) {
          this.#fail(`the file helper sent a bad frame (${(error as Error).message})`);
          child.kill('SIGKILL');
          return;
        }
        for (const frame of frames) {
          if (frame.id === 0 && ready) {
            // A long operation's progress.
            const note = frame.json.progress as { request: number; done: number; total: number | null; message: string } | undefined;
            if (note) this.#progress.get(note.request)?.(note.done, note.total, note.message);
            continue;
          }
          if (frame.id === 0) {
            ready = true;
            this.uid = typeof frame.json.uid === 'number' ? frame.json.uid : null;
            resolve(this);
            continue;
          }
          const pending = this.#pending.get(frame.id);
          if (!pending) continue;
          this.#pending.delete(frame.id);
          pending.resolve(frame);
        }
      });
      const onEnd = (why: string) => {
        this.#fail(why);
        if (!ready) reject(this.#gone);
        this.emit('exit');
      };
      child.on('error', (error) => onEnd(`the file helper could not start: ${error.message}`));
      child.on('close', (code, signal) =>
        onEnd(`the file helper ended (${signal ?? `exit ${code}`})${this.#stderr.trim() ? `: ${this.#stderr.trim().split('\n').at(-1)}` : ''}`),
      );
      child.stdin.on('error', () => undefined);
    });
  }

  #fail(message: string): void {
    this.#gone ??= new FileOpError('HELPER_GONE', message);
    for (const pending of this.#pending.values()) pending.reject(this.#gone);
    this.#pending.clear();
  }

  /** How many requests are waiting for their answer (a long extract among them): a helper so busy is not idle. */
  get busy(): number {
    return this.#pending.size;
  }

  /** Whether the helper still serves. */
  get alive(): boolean {
    return this.#gone === undefined;
  }

  async #call(json: Record<string, unknown>, data?: Buffer, long?: LongCall): Promise<{ json: Record<string, unknown>; data?: Buffer }> {
    if (this.#gone) throw this.#gone;
    const id = this.#nextId++;
    if (this.#nextId > 0xfffffff0) this.#nextId = 1;
    if (long?.progress) this.#progress.set(id, long.progress);
    const onAbort = () => void this.#call({ op: 'cancel', request: id }).catch(() => undefined);
    long?.signal?.addEventListener('abort', onAbort, { once: true });
    const answer = await new Promise<{ json: Record<string, unknown>; data?: Buffer }>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      writeFrame(this.#child.stdin, id, json, data);
    }).finally(() => {
      this.#progress.delete(id);
      long?.signal?.removeEventListener('abort', onAbort);
    });
    const error = answer.json.error as { code: FileErrorCode; message: string; details?: Record<string, unknown> } | undefined;
    if (error) throw new FileOpError(error.code, error.message, error.details);
    return answer;
  }

  async stat(path: string): Promise<FileInfo> {
    return (await this.#call({ op: 'stat', path })).json.info as FileInfo;
  }
  /** The entry itself (a link is not followed; `linkTarget` says where it points). */
  async lstat(path: string): Promise<FileInfo> {
    return (await this.#call({ op: 'lstat', path })).json.info as FileInfo;
  }
  /** The canonical path (`/…`, inside the directory) of `path`, links resolved. */
  async realpath(path: string): Promise<string> {
    return (await this.#call({ op: 'realpath', path })).json.path as string;
  }
  async readlink(path: string): Promise<string> {
    return (await this.#call({ op: 'readlink', path })).json.target as string;
  }
  /** A page of a directory, sorted by name: `limit` (≤ 10,000) entries after the name `after`; `next` when more follow. */
  async list(path: string, options: { after?: string; limit?: number } = {}): Promise<{ entries: FileInfo[]; total: number; next?: string }> {
    return (await this.#call({ op: 'list', path, ...options })).json as never;
  }
  /** Opens a regular file (never a FIFO or device; never through a link leading outside); answers a handle number. */
  async open(path: string, flags: OpenFlags): Promise<{ handle: number; info: FileInfo }> {
    return (await this.#call({ op: 'open', path, flags })).json as never;
  }
  /** Up to `length` (≤ 1 MiB) bytes at `position`; an empty buffer at the end of the file. */
  async read(handle: number, position: number, length: number): Promise<Buffer> {
    return (await this.#call({ op: 'read', handle, position, length })).data ?? Buffer.alloc(0);
  }
  /** Writes `data` (≤ 1 MiB) at `position` (ignored for files opened with `append`). */
  async write(handle: number, position: number, data: Buffer): Promise<number> {
    if (data.length > MAX_CHUNK) throw new FileOpError('TOO_LARGE', 'a write carries at most 1 MiB');
    return (await this.#call({ op: 'write', handle, position }, data)).json.written as number;
  }
  async fstat(handle: number): Promise<FileInfo> {
    return (await this.#call({ op: 'fstat', handle })).json.info as FileInfo;
  }
  /** Closes a handle; an atomic write is put in place only with `commit` (answering the file's new state). */
  async close(handle: number, options: { commit?: boolean } = {}): Promise<FileInfo | undefined> {
    return ((await this.#call({ op: 'close', handle, commit: options.commit === true })).json.info as FileInfo | null) ?? undefined;
  }
  async mkdir(path: string, options: { recursive?: boolean; mode?: number } = {}): Promise<FileInfo> {
    return (await this.#call({ op: 'mkdir', path, ...options })).json.info as FileInfo;
  }
  /** Renames or moves; refuses an existing target unless `overwrite`. */
  async rename(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<FileInfo> {
    return (await this.#call({ op: 'rename', from, to, ...options })).json.info as FileInfo;
  }
  /** Copies a file or directory tree (links as links); the target must not exist. */
  async copy(from: string, to: string): Promise<FileInfo> {
    return (await this.#call({ op: 'copy', from, to })).json.info as FileInfo;
  }
  /** Removes a file or link, or a directory (empty, or with `recursive` everything in it). */
  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.#call({ op: 'remove', path, ...options });
  }
  /** Changes a file's or directory's mode (0–0777); a link is refused, never followed. */
  async chmod(path: string, mode: number): Promise<FileInfo> {
    return (await this.#call({ op: 'chmod', path, mode })).json.info as FileInfo;
  }
  /** Compresses files or directories of one directory into a .tar.gz, .tgz or .zip (docs/files.md#archives-and-pulls). */
  async compress(sources: readonly string[], archive: string, long: LongCall = {}): Promise<Record<string, unknown>> {
    return (await this.#call({ op: 'compress', sources, archive }, undefined, long)).json.result as Record<string, unknown>;
  }
  /** Extracts an archive into a directory, after checking all of it (links, names, limits, free space), through a staging directory. */
  async extract(archive: string, destination: string, limits: { maxBytes: number; maxEntries: number }, long: LongCall = {}): Promise<Record<string, unknown>> {
    return (await this.#call({ op: 'extract', archive, destination, ...limits }, undefined, long)).json.result as Record<string, unknown>;
  }
  async search(options: SearchOptions): Promise<SearchResult> {
    return (await this.#call({ op: 'search', options })).json.result as SearchResult;
  }
  /** Bytes used below `path` (`partial` when the walk took longer than `timeoutMs`). */
  async usage(path = '', timeoutMs?: number): Promise<{ bytes: number; files: number; partial: boolean }> {
    return (await this.#call({ op: 'usage', path, ...(timeoutMs ? { timeoutMs } : {}) })).json as never;
  }
  /**
   * Replaces the deny list (the template's or the cluster's default changed): operations asked for after this are
   * checked against the new list; those under way (an extract, a copy) finish under the one they started with, and
   * files already open stay open.
   */
  async setDenyList(patterns: readonly string[]): Promise<void> {
    await this.#call({ op: 'deny', patterns });
  }
  /** Free and total bytes of the server directory's file system. */
  async space(): Promise<{ free: number; total: number }> {
    return (await this.#call({ op: 'space' })).json as never;
  }

  /**
   * A file's bytes from `start` to `end` (inclusive; default the whole file) as a stream that reads the next chunk only
   * when its consumer asks: memory stays flat for any size. The file is opened before this resolves (errors reject).
   */
  async readStream(path: string, options: { start?: number; end?: number } = {}): Promise<{ info: FileInfo; stream: Readable }> {
    const { handle, info } = await this.open(path, { read: true });
    let position = options.start ?? 0;
    const last = options.end ?? Infinity;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      void this.close(handle).catch(() => undefined);
    };
    const stream = new Readable({
      highWaterMark: READ_CHUNK,
      read: () => {
        const want = Math.min(READ_CHUNK, last - position + 1);
        if (want <= 0) {
          close();
          stream.push(null);
          return;
        }
        this.read(handle, position, want).then(
          (data) => {
            if (data.length === 0) {
              close();
              stream.push(null);
              return;
            }
            position += data.length;
            stream.push(data);
          },
          (error: Error) => {
            close();
            stream.destroy(error);
          },
        );
      },
      destroy: (error, callback) => {
        close();
        callback(error);
      },
    });
    return { info, stream };
  }

  /**
   * Writes a whole file atomically from `source`: a new file beside the target, renamed over it at the end (same mode
   * as the file it replaces; `mode` for a new one). `ifMatch` (an ETag, `*` or `none`) is checked at the start and
   * again at the rename: PRECONDITION_FAILED with `details.etag`, the current version. `maxBytes` stops a source
   * that is larger (TOO_LARGE, nothing replaced). The source is read one chunk at a time, each written before the next.
   */
  async writeAtomic(
    path: string,
    source: AsyncIterable<Buffer | Uint8Array | string>,
    options: { ifMatch?: string; mode?: number; maxBytes?: number } = {},
  ): Promise<FileInfo> {
    const { handle } = await this.open(path, {
      atomic: true,
      ...(options.ifMatch !== undefined ? { ifMatch: options.ifMatch } : {}),
      ...(options.mode !== undefined ? { mode: options.mode } : {}),
    });
    let position = 0;
    try {
      for await (const piece of source) {
        let chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
        if (options.maxBytes !== undefined && position + chunk.length > options.maxBytes)
          throw new FileOpError('TOO_LARGE', `the file is larger than the limit of ${options.maxBytes} bytes`);
        while (chunk.length > 0) {
          const part = chunk.subarray(0, MAX_CHUNK);
          await this.write(handle, position, part);
          position += part.length;
          chunk = chunk.subarray(part.length);
        }
      }
    } catch (error) {
      await this.close(handle).catch(() => undefined);
      throw error;
    }
    return (await this.close(handle, { commit: true }))!;
  }

  /** Ends the helper (open files closed, unfinished atomic writes' temporary files removed). */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const closed = new Promise<void>((resolve) => this.#child.once('close', () => resolve()));
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5000);
    await closed;
    clearTimeout(timer);
  }
}
