/**
 * One SFTP subsystem's requests (docs/sftp.md), each carried out by the server's file helper (agent/files/: a
 * process running as the server's account, with the path checks and the deny list). What SFTP adds on top:
 *
 * - paths are the client's view, `/` being the server's directory; `..` is resolved lexically and a path that would
 *   climb above `/` is refused (PERMISSION_DENIED), as a chroot would never let it out;
 * - a read-only session (no `files.write`) is refused every change;
 * - SETSTAT changes the mode only (the helper refuses links: never followed); owners and sizes are refused, times
 *   are accepted and left alone (clients such as WinSCP set them after every upload);
 * - symbolic links cannot be made (SYMLINK is refused); READLINK answers a link's target as written;
 * - a file opened with TRUNC (what `put` does) is written atomically: a new file renamed over the old one on CLOSE,
 *   keeping its mode, so readers never see half a file and the server's other hard links are never written through.
 */
import type { EventEmitter } from 'node:events';
import ssh2, { type Attributes, type FileEntry, type SFTPWrapper } from 'ssh2';
import type { SftpPermissions } from '../../schema/agentEvents.ts';
import type { Logger } from '../../schema/logger.ts';
import { ReadAheadSession, type HandleReader } from './readAhead.ts';
import { MAX_CHUNK } from '../files/protocol.ts';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

/** What SFTP needs of a file helper (agent/files/fileHelper.ts's FileHelper has these). */
export type SftpFileInfo = {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mode: number;
  modifiedAt: string;
  uid?: number;
  gid?: number;
  linkTarget?: string;
};
export type SftpOpenFlags = {
  read?: boolean;
  write?: boolean;
  create?: boolean;
  truncate?: boolean;
  exclusive?: boolean;
  append?: boolean;
  atomic?: boolean;
  mode?: number;
};
export type SftpFiles = {
  stat(path: string): Promise<SftpFileInfo>;
  lstat(path: string): Promise<SftpFileInfo>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  list(path: string, options?: { after?: string; limit?: number }): Promise<{ entries: SftpFileInfo[]; next?: string }>;
  open(path: string, flags: SftpOpenFlags): Promise<{ handle: number; info: SftpFileInfo }>;
  read(handle: number, position: number, length: number): Promise<Buffer>;
  write(handle: number, position: number, data: Buffer): Promise<number>;
  fstat(handle: number): Promise<SftpFileInfo>;
  close(handle: number, options?: { commit?: boolean }): Promise<SftpFileInfo | undefined>;
  mkdir(path: string, options?: { mode?: number }): Promise<SftpFileInfo>;
  rename(from: string, to: string, options?: { overwrite?: boolean }): Promise<SftpFileInfo>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  chmod(path: string, mode: number): Promise<SftpFileInfo>;
};

type Change = { action: 'write' | 'delete' | 'rename' | 'chmod' | 'mkdir' | 'rmdir'; path: string; toPath?: string; size?: number; mode?: number };

type OpenFile = {
  kind: 'file';
  handle: number;
  path: string;
  writable: boolean;
  atomic: boolean;
  written: boolean;
  /** A handle opened for reading only reads ahead (readAhead.ts). */
  reader?: HandleReader;
  /** WRITEs received in this turn of the event loop, not yet sent to the helper (#queueWrite). */
  batch?: WriteBatch;
};
/** Contiguous WRITEs of one handle, sent to the helper as one write; each is answered once that write is done. */
type WriteBatch = { offset: number; parts: Buffer[]; bytes: number; reqIds: number[] };
type OpenDir = { kind: 'dir'; path: string; after: string | undefined; done: boolean };

/** Largest READ answered at once (clients ask for 32–256 KiB). */
const MAX_READ = 256 * 1024;
/** Directory entries answered per READDIR. */
const DIR_PAGE = 512;
/** Handles one subsystem may hold open (sshd has no limit; ours keeps a client from exhausting the helper). */
const MAX_HANDLES = 256;

const S_IFMT = 0o170000;
const TYPE_BITS = { file: 0o100000, directory: 0o040000, symlink: 0o120000, other: 0 } as const;

/** SFTP status for a helper's error code (agent/files/protocol.ts). */
function statusOf(error: unknown): { code: number; message: string } {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? 'failed';
  switch (code) {
    case 'NOT_FOUND':
      return { code: STATUS_CODE.NO_SUCH_FILE, message };
    case 'INVALID_PATH':
    case 'OUTSIDE':
    case 'DENIED':
    case 'PERMISSION':
    case 'LINK_REFUSED':
    case 'NOT_A_FILE':
      return { code: STATUS_CODE.PERMISSION_DENIED, message };
    default:
      return { code: STATUS_CODE.FAILURE, message };
  }
}

function attrsOf(info: SftpFileInfo): Attributes {
  const seconds = Math.floor(Date.parse(info.modifiedAt) / 1000) || 0;
  return {
    mode: ((info.mode & S_IFMT) === 0 ? TYPE_BITS[info.type] : 0) | info.mode,
    uid: info.uid ?? 0,
    gid: info.gid ?? 0,
    size: info.size,
    atime: seconds,
    mtime: seconds,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An `ls -l` line, as SFTP v3 clients print for `ls -l`. */
function longname(info: SftpFileInfo): string {
  const mode = attrsOf(info).mode;
  const kind = info.type === 'directory' ? 'd' : info.type === 'symlink' ? 'l' : info.type === 'file' ? '-' : '?';
  const bits = 'rwxrwxrwx'.replace(/./g, (letter, index: number) => (mode & (1 << (8 - index)) ? letter : '-'));
  const date = new Date(info.modifiedAt);
  const when = `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2)} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return `${kind}${bits}    1 ${String(info.uid ?? 0).padEnd(8)} ${String(info.gid ?? 0).padEnd(8)} ${String(info.size).padStart(10)} ${when} ${info.name}`;
}

/** A client's path inside the server's directory; null when it climbs above `/`. */
export function clientPath(path: string): string | null {
  if (path.includes('\0')) return null;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

export class SftpFileSystem {
  permissions: SftpPermissions;
  readonly #stream: SFTPWrapper;
  readonly #getFiles: () => Promise<SftpFiles & { stop: () => Promise<void> }>;
  #files: Promise<SftpFiles & { stop: () => Promise<void> }> | undefined;
  readonly #logger: Logger;
  readonly #changed: (change: Change) => void;
  readonly #handles = new Map<number, OpenFile | OpenDir>();
  readonly #readAhead = new ReadAheadSession();
  #nextHandle = 1;
  #ended = false;
  /** Handles with a batch of WRITEs not yet sent to the helper, in the order their batches started. */
  readonly #batched = new Set<OpenFile>();

  constructor(options: {
    stream: SFTPWrapper;
    permissions: SftpPermissions;
    files: () => Promise<SftpFiles & { stop: () => Promise<void> }>;
    logger: Logger;
    changed: (change: Change) => void;
  }) {
    this.#stream = options.stream;
    this.permissions = options.permissions;
    this.#getFiles = options.files;
    this.#logger = options.logger;
    this.#changed = options.changed;
    this.#listen();
  }

  /** Ends the subsystem: open handles are closed (atomic writes not committed), the helper stops. */
  async end(): Promise<void> {
    if (this.#ended) return;
    // WRITEs received before the end still go to the helper, ahead of the closes below (they were never answered).
    this.#flushAll();
    this.#ended = true;
    const files = this.#files;
    if (!files) return;
    const helper = await files.catch(() => undefined);
    if (!helper) return;
    for (const entry of this.#handles.values()) if (entry.kind === 'file') await helper.close(entry.handle).catch(() => undefined);
    this.#handles.clear();
    this.#readAhead.clear();
    await helper.stop().catch(() => undefined);
  }

  #helper(): Promise<SftpFiles & { stop: () => Promise<void> }> {
    this.#files ??= this.#getFiles();
    return this.#files;
  }

  /** Runs one request (or a batch of WRITEs): its answer, or the status its failure maps to, for each. */
  #run(reqIds: number | number[], work: (files: SftpFiles) => Promise<void>): void {
    if (this.#ended) return;
    this.#helper()
      .then(work)
      .catch((error: unknown) => {
        if (this.#ended) return;
        const { code, message } = statusOf(error);
        if (code === STATUS_CODE.FAILURE) this.#logger.debug({ err: error }, 'SFTP request failed');
        for (const reqId of typeof reqIds === 'number' ? [reqIds] : reqIds) this.#stream.status(reqId, code, message);
      });
  }

  /**
   * A WRITE joins the handle's batch when it continues it (and the batch stays within the helper's largest write),
   * else the batch goes to the helper and a new one starts; a batch goes at the end of the turn of the event loop in
   * which it started, or before any other request of the session (a WRITE to another handle included), so the helper
   * gets every request in the order the client sent it. OpenSSH's `put` sends WRITEs of 32 KiB, up to 64 at
   * once: they reach the helper as writes of up to 1 MiB, one round trip each instead of one per 32 KiB
   * (docs/sftp.md#throughput). Each WRITE is still answered only once its bytes are written, and a failed write fails
   * every WRITE of its batch.
   */
  #queueWrite(file: OpenFile, reqId: number, offset: number, data: Buffer): void {
    this.#flushAll(file);
    const batch = file.batch;
    if (batch && offset === batch.offset + batch.bytes && batch.bytes + data.length <= MAX_CHUNK) {
      batch.parts.push(data);
      batch.bytes += data.length;
      batch.reqIds.push(reqId);
      return;
    }
    this.#flushWrites(file);
    const started: WriteBatch = { offset, parts: [data], bytes: data.length, reqIds: [reqId] };
    file.batch = started;
    this.#batched.add(file);
    setImmediate(() => {
      if (file.batch === started) this.#flushWrites(file);
    });
  }

  /** Sends every handle's batch of WRITEs (but `except`'s) to the helper now, in the order the batches started. */
  #flushAll(except?: OpenFile): void {
    for (const file of this.#batched) if (file !== except) this.#flushWrites(file);
  }

  /** Sends the handle's batch of WRITEs to the helper now (before another request, or at the turn's end). */
  #flushWrites(file: OpenFile): void {
    const batch = file.batch;
    this.#batched.delete(file);
    if (!batch) return;
    file.batch = undefined;
    const data = batch.parts.length === 1 ? batch.parts[0]! : Buffer.concat(batch.parts, batch.bytes);
    this.#run(batch.reqIds, async (files) => {
      try {
        await files.write(file.handle, batch.offset, data);
      } finally {
        this.#readAhead.changed(file.path);
        file.written = true; // a write that failed halfway may have changed the file too
      }
      for (const reqId of batch.reqIds) this.#stream.status(reqId, STATUS_CODE.OK);
    });
  }

  #deny(reqId: number, message: string): void {
    this.#stream.status(reqId, STATUS_CODE.PERMISSION_DENIED, message);
  }

  /** The client's path, or answers PERMISSION_DENIED (climbing above `/`) and null. */
  #path(reqId: number, raw: string): string | null {
    const path = clientPath(raw);
    if (path === null) this.#deny(reqId, 'outside the server’s directory');
    return path;
  }

  #readOnly(reqId: number): boolean {
    if (this.permissions.write) return false;
    this.#deny(reqId, 'read-only access: your role may not change this server’s files');
    return true;
  }

  #newHandle(reqId: number, entry: OpenFile | OpenDir): Buffer | null {
    if (this.#handles.size >= MAX_HANDLES) {
      this.#stream.status(reqId, STATUS_CODE.FAILURE, `at most ${MAX_HANDLES} open handles`);
      return null;
    }
    const id = this.#nextHandle++;
    this.#handles.set(id, entry);
    const handle = Buffer.alloc(4);
    handle.writeUInt32BE(id);
    return handle;
  }

  #entry(handle: Buffer): [number, OpenFile | OpenDir] | undefined {
    if (handle.length !== 4) return undefined;
    const id = handle.readUInt32BE(0);
    const entry = this.#handles.get(id);
    return entry ? [id, entry] : undefined;
  }

  #listen(): void {
    const stream = this.#stream;
    const badHandle = (reqId: number) => stream.status(reqId, STATUS_CODE.FAILURE, 'invalid handle');

    stream.on('OPEN', (reqId, filename, flags, attrs) => {
      const path = this.#path(reqId, filename);
      if (path === null) return;
      const write = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC)) !== 0;
      if (write && this.#readOnly(reqId)) return;
      const truncate = (flags & OPEN_MODE.TRUNC) !== 0;
      const open: SftpOpenFlags = {
        read: (flags & OPEN_MODE.READ) !== 0,
        write,
        create: (flags & OPEN_MODE.CREAT) !== 0,
        truncate,
        exclusive: (flags & OPEN_MODE.EXCL) !== 0,
        append: (flags & OPEN_MODE.APPEND) !== 0,
        // `put` opens WRITE|CREAT|TRUNC: a new file renamed into place on close.
        atomic: write && truncate && (flags & OPEN_MODE.READ) === 0 && (flags & OPEN_MODE.APPEND) === 0,
        ...(typeof attrs?.mode === 'number' ? { mode: attrs.mode & 0o777 } : {}),
      };
      this.#run(reqId, async (files) => {
        const opened = await files.open(path, open);
        const reader = write ? undefined : this.#readAhead.reader(path, (position, length) => files.read(opened.handle, position, length));
        const handle = this.#newHandle(reqId, {
          kind: 'file',
          handle: opened.handle,
          path,
          writable: write,
          atomic: open.atomic === true,
          written: false,
          ...(reader ? { reader } : {}),
        });
        if (!handle && reader) this.#readAhead.forget(reader);
        if (handle) stream.handle(reqId, handle);
        else await files.close(opened.handle);
      });
    });

    stream.on('READ', (reqId, handle, offset, length) => {
      const found = this.#entry(handle);
      if (!found || found[1].kind !== 'file') return badHandle(reqId);
      const file = found[1];
      this.#run(reqId, async (files) => {
        const size = Math.min(length, MAX_READ);
        const data = file.reader ? await file.reader.read(offset, size) : await files.read(file.handle, offset, size);
        if (data.length === 0) stream.status(reqId, STATUS_CODE.EOF);
        else stream.data(reqId, data);
      });
    });

    stream.on('WRITE', (reqId, handle, offset, data) => {
      const found = this.#entry(handle);
      if (!found || found[1].kind !== 'file') return badHandle(reqId);
      const file = found[1];
      if (!file.writable) return this.#deny(reqId, 'the file was not opened for writing');
      if (this.#readOnly(reqId)) return;
      // Blocks read ahead of this file's readers go now and once the write is done (readAhead.ts).
      this.#readAhead.changed(file.path);
      this.#queueWrite(file, reqId, offset, data);
    });

    stream.on('FSTAT', (reqId, handle) => {
      const found = this.#entry(handle);
      if (!found) return badHandle(reqId);
      const entry = found[1];
      this.#run(reqId, async (files) => stream.attrs(reqId, attrsOf(entry.kind === 'file' ? await files.fstat(entry.handle) : await files.stat(entry.path))));
    });

    stream.on('CLOSE', (reqId, handle) => {
      const found = this.#entry(handle);
      if (!found) return badHandle(reqId);
      const [id, entry] = found;
      this.#handles.delete(id);
      if (entry.kind === 'file' && entry.reader) this.#readAhead.forget(entry.reader);
      if (entry.kind === 'dir') return stream.status(reqId, STATUS_CODE.OK);
      this.#run(reqId, async (files) => {
        // A `put` one of whose WRITEs failed is refused by the helper's commit (the old file stays): the CLOSE fails.
        const info = await files.close(entry.handle, { commit: entry.atomic });
        if (entry.written || entry.atomic) this.#changed({ action: 'write', path: entry.path, ...(info ? { size: info.size } : {}) });
        stream.status(reqId, STATUS_CODE.OK);
      });
    });

    const stat = (reqId: number, raw: string, follow: boolean) => {
      const path = this.#path(reqId, raw);
      if (path === null) return;
      this.#run(reqId, async (files) => stream.attrs(reqId, attrsOf(follow ? await files.stat(path) : await files.lstat(path))));
    };
    stream.on('STAT', (reqId, raw) => stat(reqId, raw, true));
    stream.on('LSTAT', (reqId, raw) => stat(reqId, raw, false));

    const setstat = (reqId: number, path: string, attrs: Partial<Attributes>) => {
      if (this.#readOnly(reqId)) return;
      if (attrs.uid !== undefined || attrs.gid !== undefined) return this.#deny(reqId, 'owners cannot be changed: the server’s files belong to its account');
      if (attrs.size !== undefined) return stream.status(reqId, STATUS_CODE.OP_UNSUPPORTED, 'sizes cannot be set; write the file again');
      if (attrs.mode === undefined) return stream.status(reqId, STATUS_CODE.OK);
      const mode = attrs.mode & 0o777;
      this.#run(reqId, async (files) => {
        await files.chmod(path, mode);
        this.#changed({ action: 'chmod', path, mode });
        stream.status(reqId, STATUS_CODE.OK);
      });
    };
    stream.on('SETSTAT', (reqId, raw, attrs) => {
      const path = this.#path(reqId, raw);
      if (path !== null) setstat(reqId, path, attrs);
    });
    stream.on('FSETSTAT', (reqId, handle, attrs) => {
      const found = this.#entry(handle);
      if (!found) return badHandle(reqId);
      const entry = found[1];
      // An atomic write's file is not in place before CLOSE: its mode follows the file it replaces.
      if (entry.kind === 'file' && entry.atomic && attrs.mode !== undefined && attrs.uid === undefined && attrs.size === undefined) {
        return stream.status(reqId, STATUS_CODE.OK);
      }
      setstat(reqId, entry.path, attrs);
    });

    stream.on('OPENDIR', (reqId, raw) => {
      const path = this.#path(reqId, raw);
      if (path === null) return;
      this.#run(reqId, async (files) => {
        const info = await files.stat(path);
        if (info.type !== 'directory') return stream.status(reqId, STATUS_CODE.FAILURE, 'not a directory');
        const handle = this.#newHandle(reqId, { kind: 'dir', path, after: undefined, done: false });
        if (handle) stream.handle(reqId, handle);
      });
    });

    stream.on('READDIR', (reqId, handle) => {
      const found = this.#entry(handle);
      if (!found || found[1].kind !== 'dir') return badHandle(reqId);
      const dir = found[1];
      if (dir.done) return stream.status(reqId, STATUS_CODE.EOF);
      this.#run(reqId, async (files) => {
        const page = await files.list(dir.path, { limit: DIR_PAGE, ...(dir.after !== undefined ? { after: dir.after } : {}) });
        const names: FileEntry[] = page.entries.map((info) => ({ filename: info.name, longname: longname(info), attrs: attrsOf(info) }));
        // `.` and `..` first, as sshd answers them (clients such as `sftp` hide them).
        if (dir.after === undefined && dir.path === '/')
          names.unshift({
            filename: '.',
            longname: 'drwxr-xr-x    1 0        0                 0 Jan  1 00:00 .',
            attrs: attrsOf({ name: '.', type: 'directory', size: 0, mode: 0o755, modifiedAt: new Date(0).toISOString() }),
          });
        // The listing's own cursor, not the last name shown: a name that is not UTF-8 is shown escaped.
        dir.after = page.next ?? dir.after;
        dir.done = page.next === undefined;
        if (names.length === 0) stream.status(reqId, STATUS_CODE.EOF);
        else stream.name(reqId, names);
      });
    });

    stream.on('REMOVE', (reqId, raw) => {
      const path = this.#path(reqId, raw);
      if (path === null || this.#readOnly(reqId)) return;
      this.#run(reqId, async (files) => {
        const info = await files.lstat(path);
        if (info.type === 'directory') return stream.status(reqId, STATUS_CODE.FAILURE, 'a directory: use rmdir');
        await files.remove(path);
        this.#changed({ action: 'delete', path, size: info.size });
        stream.status(reqId, STATUS_CODE.OK);
      });
    });

    stream.on('RMDIR', (reqId, raw) => {
      const path = this.#path(reqId, raw);
      if (path === null || this.#readOnly(reqId)) return;
      if (path === '/') return this.#deny(reqId, 'the server’s directory itself cannot be removed');
      this.#run(reqId, async (files) => {
        const info = await files.lstat(path);
        if (info.type !== 'directory') return stream.status(reqId, STATUS_CODE.FAILURE, 'not a directory');
        await files.remove(path);
        this.#changed({ action: 'rmdir', path });
        stream.status(reqId, STATUS_CODE.OK);
      });
    });

    stream.on('MKDIR', (reqId, raw, attrs) => {
      const path = this.#path(reqId, raw);
      if (path === null || this.#readOnly(reqId)) return;
      this.#run(reqId, async (files) => {
        await files.mkdir(path, typeof attrs?.mode === 'number' ? { mode: attrs.mode & 0o777 } : {});
        this.#changed({ action: 'mkdir', path });
        stream.status(reqId, STATUS_CODE.OK);
      });
    });

    stream.on('RENAME', (reqId, rawFrom, rawTo) => {
      const from = this.#path(reqId, rawFrom);
      if (from === null) return;
      const to = this.#path(reqId, rawTo);
      if (to === null || this.#readOnly(reqId)) return;
      this.#run(reqId, async (files) => {
        await files.rename(from, to);
        this.#changed({ action: 'rename', path: from, toPath: to });
        stream.status(reqId, STATUS_CODE.OK);
      });
    });

    stream.on('REALPATH', (reqId, raw) => {
      // A chroot's view: `..` at the top stays at the top (clients ask for `.` first and `cd ..` from `/`).
      const parts: string[] = [];
      for (const part of raw.split('/')) {
        if (part === '' || part === '.') continue;
        if (part === '..') parts.pop();
        else parts.push(part);
      }
      const path = `/${parts.join('/')}`;
      this.#run(reqId, async (files) => {
        const real = path === '/' ? '/' : await files.realpath(path);
        stream.name(reqId, [{ filename: real, longname: real, attrs: {} as Attributes }]);
      });
    });

    stream.on('READLINK', (reqId, raw) => {
      const path = this.#path(reqId, raw);
      if (path === null) return;
      this.#run(reqId, async (files) => {
        const target = await files.readlink(path);
        stream.name(reqId, [{ filename: target, longname: target, attrs: {} as Attributes }]);
      });
    });

    stream.on('SYMLINK', (reqId) => this.#deny(reqId, 'symbolic links cannot be made over SFTP'));

    // Batched WRITEs go to the helper ahead of any other request that came after them (#queueWrite): every request
    // answered above (ssh2 names them in capitals) but WRITE sends them first. Only those: ssh2 answers OP_UNSUPPORTED
    // itself to a request nobody listens to (EXTENDED), which a listener here would silence.
    const emitter = stream as unknown as EventEmitter;
    for (const request of emitter.eventNames())
      if (typeof request === 'string' && /^[A-Z]+$/.test(request) && request !== 'WRITE') emitter.prependListener(request, () => this.#flushAll());
  }
}
