/**
 * The file operations on one server's directory, as the file helper process runs them (docs/agent.md#server-files).
 * The process runs as the server's account, so the kernel is the first guard: it may touch only what the account may.
 * These checks are the second: every path is relative (no NUL, no `..`, not absolute), resolves (through any link)
 * inside the directory, is not on the deny list (the name asked for and the place a link leads to), and a descriptor
 * opened is checked again through /proc/self/fd (a link swapped in between the check and the open is caught).
 * chmod never follows a link; FIFOs, sockets and devices are never opened (opening a FIFO would block).
 */
import { randomBytes } from 'node:crypto';
import { constants, type BigIntStats, type Dirent } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  open,
  opendir,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  statfs,
  symlink,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { checkNewName, DenyList, FilePathError, filePathSegments } from '../../schema/filePaths.ts';
import { FileOpError, MAX_CHUNK, type FileInfo, type FileType, type OpenFlags, type SearchOptions, type SearchResult } from './protocol.ts';

const ERRNO: Record<string, FileOpError['code']> = {
  ENOENT: 'NOT_FOUND',
  EEXIST: 'EXISTS',
  ENOTDIR: 'NOT_A_DIRECTORY',
  EISDIR: 'IS_A_DIRECTORY',
  ENOTEMPTY: 'NOT_EMPTY',
  EACCES: 'PERMISSION',
  EPERM: 'PERMISSION',
  EROFS: 'PERMISSION',
  ELOOP: 'LINK_REFUSED',
  ENOSPC: 'NO_SPACE',
  EDQUOT: 'NO_SPACE',
  EFBIG: 'TOO_LARGE',
  ENAMETOOLONG: 'INVALID_PATH',
  EXDEV: 'INVALID',
  EINVAL: 'INVALID',
  ENXIO: 'NOT_A_FILE',
};

/** An error of the file system as a FileOpError naming `shown` (the path as asked, never the real one). */
export function asFileError(error: unknown, shown: string): FileOpError {
  if (error instanceof FileOpError) return error;
  if (error instanceof FilePathError) return new FileOpError(error.code, error.message);
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const mapped = ERRNO[code] ?? 'FAILED';
  const what: Record<string, string> = {
    NOT_FOUND: 'does not exist',
    EXISTS: 'already exists',
    NOT_A_DIRECTORY: 'is not a directory (or a directory on its path is not)',
    IS_A_DIRECTORY: 'is a directory',
    NOT_EMPTY: 'is a directory that is not empty',
    PERMISSION: "may not be used by the server's account",
    LINK_REFUSED: 'is a symbolic link (refused)',
    NO_SPACE: 'could not be written: no space left',
    TOO_LARGE: 'is too large',
    INVALID_PATH: 'is too long',
    NOT_A_FILE: 'is not a regular file',
  };
  return new FileOpError(mapped, `/${shown} ${what[mapped] ?? `failed (${code || (error as Error).message})`}`);
}

const typeOf = (info: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileType =>
  info.isFile() ? 'file' : info.isDirectory() ? 'directory' : info.isSymbolicLink() ? 'symlink' : 'other';

/** A strong ETag of a file's version: inode, size and modification time in nanoseconds. */
export const etagOf = (info: BigIntStats): string => `"${info.ino.toString(36)}-${info.size.toString(36)}-${info.mtimeNs.toString(36)}"`;

function infoOf(name: string, info: BigIntStats, extra: Partial<FileInfo> = {}): FileInfo {
  const type = typeOf(info);
  return {
    name,
    type,
    size: Number(info.size),
    mode: Number(info.mode) & 0o7777,
    modifiedAt: new Date(Number(info.mtimeMs)).toISOString(),
    ...(type === 'file' ? { etag: etagOf(info) } : {}),
    uid: Number(info.uid),
    gid: Number(info.gid),
    links: Number(info.nlink),
    ...extra,
  };
}

type OpenFile = {
  handle: FileHandle;
  /** The path as asked (relative). */
  path: string;
  /** Atomic writes: the temporary file's and the target's absolute paths, the mode to give it. */
  atomic?: { temp: string; target: string; mode: number; ifMatch?: string };
  append: boolean;
};

/** Files at most this large are compared as text by a content search. */
const SEARCH_FILE_LIMIT = 8 * 1024 * 1024;

export class ServerFiles {
  /** The server's directory (its real path). */
  readonly root: string;
  readonly deny: DenyList;
  readonly #open = new Map<number, OpenFile>();
  #nextHandle = 1;

  private constructor(root: string, deny: DenyList) {
    this.root = root;
    this.deny = deny;
  }

  static async open(root: string, denyPatterns: readonly string[] = []): Promise<ServerFiles> {
    const real = await realpath(root);
    const info = await stat(real);
    if (!info.isDirectory()) throw new Error(`${root} is not a directory`);
    return new ServerFiles(real, new DenyList(denyPatterns));
  }

  /** The absolute path of normalized segments (not resolved). */
  #abs(rel: string): string {
    return rel === '' ? this.root : `${this.root}/${rel}`;
  }

  /** The relative form of a real absolute path, or undefined when it is outside the directory. */
  #inside(real: string): string | undefined {
    if (real === this.root) return '';
    if (real.startsWith(this.root + sep)) return real.slice(this.root.length + 1);
    return undefined;
  }

  #normalize(path: string, options: { newName?: boolean } = {}): string {
    try {
      const rel = filePathSegments(path, { leadingSlash: true }).join('/');
      if (options.newName) checkNewName(rel);
      return rel;
    } catch (error) {
      throw asFileError(error, String(path));
    }
  }

  #checkDeny(rel: string, isDir?: boolean): void {
    if (this.deny.denies(rel, isDir)) throw new FileOpError('DENIED', `/${rel} is on the server's deny list`);
  }

  /**
   * Resolves `path` for an operation on the entry itself (lstat, delete, rename, chmod): the directory it is in must
   * resolve inside the server's directory; the last name is not followed. Answers the relative path and the absolute
   * path of the entry (its parent resolved).
   */
  async #entry(path: string, options: { newName?: boolean; allowRoot?: boolean } = {}): Promise<{ rel: string; abs: string }> {
    const rel = this.#normalize(path, options);
    if (rel === '' && !options.allowRoot) throw new FileOpError('INVALID', "the server's directory itself cannot be changed so");
    this.#checkDeny(rel);
    if (rel === '') return { rel, abs: this.root };
    const parentRel = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    let parentReal: string;
    try {
      parentReal = await realpath(this.#abs(parentRel));
    } catch (error) {
      throw asFileError(error, parentRel);
    }
    const parentInside = this.#inside(parentReal);
    if (parentInside === undefined) throw new FileOpError('OUTSIDE', `/${rel} is outside the server's directory (through a link)`);
    const name = basename(rel);
    const realRel = parentInside === '' ? name : `${parentInside}/${name}`;
    if (realRel !== rel) this.#checkDeny(realRel);
    return { rel, abs: join(parentReal, name) };
  }

  /**
   * Resolves `path` following links: the real path must be inside the server's directory and not denied. A path that
   * does not exist yet (`mayBeMissing`) resolves through its parent.
   */
  async #resolved(path: string, options: { mayBeMissing?: boolean; newName?: boolean } = {}): Promise<{ rel: string; abs: string; exists: boolean }> {
    const rel = this.#normalize(path, options);
    this.#checkDeny(rel);
    let real: string;
    try {
      real = await realpath(this.#abs(rel));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.mayBeMissing) throw asFileError(error, rel);
      const entry = await this.#entry(path, options);
      // A dangling link: creating through it would create its target, wherever that is.
      const dangling = await lstat(entry.abs).then(
        (info) => info.isSymbolicLink(),
        () => false,
      );
      if (dangling) throw new FileOpError('LINK_REFUSED', `/${rel} is a symbolic link to nothing (refused)`);
      return { ...entry, exists: false };
    }
    const realRel = this.#inside(real);
    if (realRel === undefined) throw new FileOpError('OUTSIDE', `/${rel} is outside the server's directory (through a link)`);
    if (realRel !== rel) this.#checkDeny(realRel);
    return { rel, abs: real, exists: true };
  }

  /** After an open: the descriptor's real file is inside and not denied (catches a link swapped in since the check). */
  async #checkDescriptor(handle: FileHandle, rel: string): Promise<void> {
    let real: string;
    try {
      real = await readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      return; // no /proc (not Linux): the checks before the open stand
    }
    const inside = this.#inside(real);
    if (inside === undefined || this.deny.denies(inside)) {
      await handle.close().catch(() => undefined);
      throw new FileOpError(
        inside === undefined ? 'OUTSIDE' : 'DENIED',
        `/${rel} changed into a link leading ${inside === undefined ? 'outside' : 'to a denied path'}`,
      );
    }
  }

  async stat(path: string): Promise<FileInfo> {
    const { rel, abs } = await this.#resolved(path);
    try {
      return infoOf(basename(rel) || '/', await stat(abs, { bigint: true }));
    } catch (error) {
      throw asFileError(error, rel);
    }
  }

  async lstat(path: string): Promise<FileInfo> {
    const { rel, abs } = await this.#entry(path, { allowRoot: true });
    try {
      const info = await lstat(abs, { bigint: true });
      return infoOf(basename(rel) || '/', info, info.isSymbolicLink() ? { linkTarget: await readlink(abs) } : {});
    } catch (error) {
      throw asFileError(error, rel);
    }
  }

  async realpath(path: string): Promise<string> {
    const { abs, exists } = await this.#resolved(path, { mayBeMissing: true });
    const rel = exists ? this.#inside(abs)! : this.#normalize(path);
    return `/${rel}`;
  }

  async readlink(path: string): Promise<string> {
    const { rel, abs } = await this.#entry(path);
    try {
      return await readlink(abs);
    } catch (error) {
      throw asFileError(error, rel);
    }
  }

  /**
   * A directory's entries sorted by name (byte order), `limit` (at most 10,000) after the name `after`; denied entries
   * are left out. `total` counts the directory's entries that are not denied.
   */
  async list(path: string, options: { after?: string; limit?: number } = {}): Promise<{ entries: FileInfo[]; total: number; next?: string }> {
    const { rel, abs } = await this.#resolved(path);
    const limit = Math.max(1, Math.min(options.limit ?? 1000, 10_000));
    let dirents: Dirent<Buffer>[];
    try {
      dirents = await readdir(abs, { encoding: 'buffer', withFileTypes: true });
    } catch (error) {
      throw asFileError(error, rel);
    }
    const visible = dirents
      .map((dirent) => {
        const name = dirent.name.toString('utf8');
        return { raw: dirent.name, name, invalid: !Buffer.from(name, 'utf8').equals(dirent.name), dirent };
      })
      .filter((entry) => !this.deny.denies(rel === '' ? entry.name : `${rel}/${entry.name}`, entry.dirent.isDirectory()));
    visible.sort((a, b) => Buffer.compare(a.raw, b.raw));
    let start = 0;
    if (options.after !== undefined) {
      const after = Buffer.from(options.after, 'utf8');
      while (start < visible.length && Buffer.compare(visible[start]!.raw, after) <= 0) start++;
    }
    const page = visible.slice(start, start + limit);
    const entries: FileInfo[] = [];
    for (const entry of page) {
      const full = Buffer.concat([Buffer.from(`${abs}/`), entry.raw]);
      try {
        const info = await lstat(full, { bigint: true });
        const extra: Partial<FileInfo> = entry.invalid ? { invalidName: true } : {};
        if (info.isSymbolicLink()) extra.linkTarget = (await readlink(full, { encoding: 'buffer' })).toString('utf8');
        entries.push(infoOf(entry.name, info, extra));
      } catch {
        // gone since the readdir
      }
    }
    const more = start + limit < visible.length;
    return { entries, total: visible.length, ...(more ? { next: page.at(-1)!.name } : {}) };
  }

  async open(path: string, flags: OpenFlags): Promise<{ handle: number; info: FileInfo }> {
    const writing = Boolean(flags.write || flags.append || flags.atomic || flags.truncate);
    const creating = Boolean(flags.create || flags.atomic);
    const target = await this.#resolved(path, { mayBeMissing: creating, newName: creating });
    const current = target.exists
      ? await stat(target.abs, { bigint: true }).catch((error: unknown) => Promise.reject(asFileError(error, target.rel)))
      : undefined;
    if (current && !current.isFile()) throw new FileOpError(current.isDirectory() ? 'IS_A_DIRECTORY' : 'NOT_A_FILE', `/${target.rel} is not a regular file`);
    if (flags.ifMatch !== undefined) {
      const now = current ? etagOf(current) : undefined;
      const ok = flags.ifMatch === '*' ? Boolean(current) : flags.ifMatch === 'none' ? !current : flags.ifMatch === now;
      if (!ok) throw new FileOpError('PRECONDITION_FAILED', `/${target.rel} changed since that version`, { etag: now ?? null });
    }
    if (flags.exclusive && current) throw new FileOpError('EXISTS', `/${target.rel} already exists`);
    const mode = (flags.mode ?? 0o644) & 0o777;
    if (flags.atomic) {
      const dir = dirname(target.abs);
      const temp = join(dir, `.${basename(target.abs).slice(0, 180)}.gsm-${randomBytes(6).toString('hex')}.tmp`);
      let handle: FileHandle;
      try {
        handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      } catch (error) {
        throw asFileError(error, target.rel);
      }
      await this.#checkDescriptor(handle, target.rel);
      const id = this.#nextHandle++;
      const keepMode = current ? Number(current.mode) & 0o7777 : mode;
      this.#open.set(id, {
        handle,
        path: target.rel,
        append: false,
        atomic: { temp, target: target.abs, mode: keepMode, ...(flags.ifMatch !== undefined ? { ifMatch: flags.ifMatch } : {}) },
      });
      return { handle: id, info: infoOf(basename(target.rel), await handle.stat({ bigint: true })) };
    }
    if (writing && current && Number(current.nlink) > 1)
      throw new FileOpError('LINK_REFUSED', `/${target.rel} has several hard links: it is written only as a whole (atomic write)`);
    let how = constants.O_NOFOLLOW | constants.O_NONBLOCK;
    how |= writing ? (flags.read ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
    if (creating) how |= constants.O_CREAT;
    if (flags.exclusive) how |= constants.O_EXCL;
    if (flags.truncate) how |= constants.O_TRUNC;
    if (flags.append) how |= constants.O_APPEND;
    let handle: FileHandle;
    try {
      handle = await open(target.abs, how, mode);
    } catch (error) {
      throw asFileError(error, target.rel);
    }
    await this.#checkDescriptor(handle, target.rel);
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) {
      await handle.close();
      throw new FileOpError('NOT_A_FILE', `/${target.rel} is not a regular file`);
    }
    if (writing && Number(info.nlink) > 1) {
      await handle.close();
      throw new FileOpError('LINK_REFUSED', `/${target.rel} has several hard links: it is written only as a whole (atomic write)`);
    }
    const id = this.#nextHandle++;
    this.#open.set(id, { handle, path: target.rel, append: Boolean(flags.append) });
    return { handle: id, info: infoOf(basename(target.rel), info) };
  }

  #file(handle: number): OpenFile {
    const file = this.#open.get(handle);
    if (!file) throw new FileOpError('INVALID', `no open file ${handle}`);
    return file;
  }

  async read(handle: number, position: number, length: number): Promise<Buffer> {
    const file = this.#file(handle);
    const size = Math.max(0, Math.min(length, MAX_CHUNK));
    const buffer = Buffer.allocUnsafe(size);
    try {
      const { bytesRead } = await file.handle.read(buffer, 0, size, position);
      return buffer.subarray(0, bytesRead);
    } catch (error) {
      throw asFileError(error, file.path);
    }
  }

  async write(handle: number, position: number, data: Buffer): Promise<number> {
    const file = this.#file(handle);
    if (data.length > MAX_CHUNK) throw new FileOpError('TOO_LARGE', 'a write carries at most 1 MiB');
    try {
      let done = 0;
      while (done < data.length) {
        const { bytesWritten } = await file.handle.write(data, done, data.length - done, file.append ? null : position + done);
        done += bytesWritten;
      }
      return done;
    } catch (error) {
      throw asFileError(error, file.path);
    }
  }

  async fstat(handle: number): Promise<FileInfo> {
    const file = this.#file(handle);
    return infoOf(basename(file.path), await file.handle.stat({ bigint: true }));
  }

  /**
   * Closes a file. An atomic write is renamed over its target only with `commit` (its If-Match checked again at that
   * moment), otherwise its temporary file is removed. Answers the target's new state after a commit.
   */
  async close(handle: number, options: { commit?: boolean } = {}): Promise<FileInfo | undefined> {
    const file = this.#file(handle);
    this.#open.delete(handle);
    const atomic = file.atomic;
    if (!atomic) {
      await file.handle.close().catch(() => undefined);
      return undefined;
    }
    try {
      if (!options.commit) return undefined;
      await file.handle.chmod(atomic.mode);
      await file.handle.sync();
      if (atomic.ifMatch !== undefined && atomic.ifMatch !== '*') {
        const now = await stat(atomic.target, { bigint: true }).catch(() => undefined);
        const current = now ? etagOf(now) : undefined;
        if (atomic.ifMatch === 'none' ? current !== undefined : current !== atomic.ifMatch)
          throw new FileOpError('PRECONDITION_FAILED', `/${file.path} changed while it was written`, { etag: current ?? null });
      }
      // The target may have become a link meanwhile: rename replaces the link itself, never what it points to.
      await rename(atomic.temp, atomic.target);
      const info = await stat(atomic.target, { bigint: true });
      return infoOf(basename(file.path), info);
    } catch (error) {
      throw asFileError(error, file.path);
    } finally {
      await file.handle.close().catch(() => undefined);
      await unlink(atomic.temp).catch(() => undefined);
    }
  }

  async mkdir(path: string, options: { recursive?: boolean; mode?: number } = {}): Promise<FileInfo> {
    const mode = (options.mode ?? 0o755) & 0o777;
    const rel = this.#normalize(path, { newName: true });
    if (rel === '') throw new FileOpError('EXISTS', "the server's directory exists");
    const segments = rel.split('/');
    for (let i = options.recursive ? 1 : segments.length; i <= segments.length; i++) {
      const sub = segments.slice(0, i).join('/');
      this.#checkDeny(sub, true);
      const { abs, exists } = await this.#resolved(sub, { mayBeMissing: true, newName: true });
      if (exists) {
        if (i === segments.length && !options.recursive) throw new FileOpError('EXISTS', `/${sub} already exists`);
        continue;
      }
      try {
        await mkdir(abs, { mode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST' && options.recursive) continue;
        throw asFileError(error, sub);
      }
    }
    return this.stat(rel);
  }

  /**
   * Every entry below the directory `abs` (relative to it), never following a link; at most `limit` entries, else
   * TOO_LARGE. What a rename, copy or delete of a directory checks against the deny list.
   */
  async #walk(abs: string, rel: string, limit = 100_000): Promise<{ path: string; dirent: Dirent }[]> {
    const found: { path: string; dirent: Dirent }[] = [];
    const pending: string[] = [''];
    while (pending.length > 0) {
      const sub = pending.pop()!;
      let dir;
      try {
        dir = await opendir(sub === '' ? abs : `${abs}/${sub}`);
      } catch (error) {
        throw asFileError(error, sub === '' ? rel : `${rel}/${sub}`);
      }
      for await (const dirent of dir) {
        const path = sub === '' ? dirent.name : `${sub}/${dirent.name}`;
        found.push({ path, dirent });
        if (found.length > limit) throw new FileOpError('TOO_LARGE', `/${rel} holds more than ${limit} entries`);
        if (dirent.isDirectory()) pending.push(path);
      }
    }
    return found;
  }

  /** Refuses when the entry (a directory: anything in it) is denied at `from` or would be at `to`. */
  async #checkTree(abs: string, from: string, to: string | undefined, isDir: boolean): Promise<void> {
    this.#checkDeny(from, isDir);
    if (to !== undefined) this.#checkDeny(to, isDir);
    if (!isDir || this.deny.empty) return;
    for (const { path, dirent } of await this.#walk(abs, from)) {
      const dir = dirent.isDirectory();
      if (this.deny.denies(`${from}/${path}`, dir)) throw new FileOpError('DENIED', `/${from} holds /${from}/${path}, which is on the server's deny list`);
      if (to !== undefined && this.deny.denies(`${to}/${path}`, dir)) throw new FileOpError('DENIED', `/${to}/${path} would be on the server's deny list`);
    }
  }

  async rename(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<FileInfo> {
    const source = await this.#entry(from);
    const target = await this.#entry(to, { newName: true });
    const info = await lstat(source.abs).catch((error: unknown) => Promise.reject(asFileError(error, source.rel)));
    if (info.isDirectory() && (target.rel === source.rel || target.rel.startsWith(`${source.rel}/`)))
      throw new FileOpError('INVALID', `/${source.rel} cannot be moved into itself`);
    await this.#checkTree(source.abs, source.rel, target.rel, info.isDirectory());
    if (!options.overwrite) {
      const exists = await lstat(target.abs).then(
        () => true,
        () => false,
      );
      if (exists) throw new FileOpError('EXISTS', `/${target.rel} already exists`);
    }
    try {
      await rename(source.abs, target.abs);
    } catch (error) {
      throw asFileError(error, source.rel);
    }
    return this.lstat(target.rel);
  }

  /** Copies a file or a directory (recursively); links are copied as links, never followed; FIFOs and others skipped. */
  async copy(from: string, to: string): Promise<FileInfo> {
    const source = await this.#entry(from);
    const target = await this.#entry(to, { newName: true });
    const info = await lstat(source.abs).catch((error: unknown) => Promise.reject(asFileError(error, source.rel)));
    if (info.isDirectory() && (target.rel === source.rel || target.rel.startsWith(`${source.rel}/`)))
      throw new FileOpError('INVALID', `/${source.rel} cannot be copied into itself`);
    await this.#checkTree(source.abs, source.rel, target.rel, info.isDirectory());
    const exists = await lstat(target.abs).then(
      () => true,
      () => false,
    );
    if (exists) throw new FileOpError('EXISTS', `/${target.rel} already exists`);
    if (info.isFile()) await this.#copyFile(source.abs, target.abs, source.rel, target.rel);
    else if (info.isDirectory()) {
      await mkdir(target.abs, { mode: Number(info.mode) & 0o777 }).catch((error: unknown) => Promise.reject(asFileError(error, target.rel)));
      for (const { path, dirent } of await this.#walk(source.abs, source.rel)) {
        const [src, dst] = [`${source.abs}/${path}`, `${target.abs}/${path}`];
        try {
          if (dirent.isDirectory()) await mkdir(dst, { mode: 0o755 });
          else if (dirent.isSymbolicLink()) await symlink(await readlink(src), dst);
          else if (dirent.isFile()) await this.#copyFile(src, dst, `${source.rel}/${path}`, `${target.rel}/${path}`);
        } catch (error) {
          throw asFileError(error, `${source.rel}/${path}`);
        }
      }
    } else if (info.isSymbolicLink())
      await symlink(await readlink(source.abs), target.abs).catch((error: unknown) => Promise.reject(asFileError(error, target.rel)));
    else throw new FileOpError('NOT_A_FILE', `/${source.rel} is not a file, directory or link`);
    return this.lstat(target.rel);
  }

  /** One regular file copied through descriptors: the source never followed through a link, the copy new (O_EXCL). */
  async #copyFile(src: string, dst: string, shownSrc: string, shownDst: string): Promise<void> {
    const handle = await open(src, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: unknown) =>
      Promise.reject(asFileError(error, shownSrc)),
    );
    try {
      await this.#checkDescriptor(handle, shownSrc);
      const info = await handle.stat();
      if (!info.isFile()) throw new FileOpError('NOT_A_FILE', `/${shownSrc} is not a regular file`);
      const out = await open(dst, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, info.mode & 0o777).catch((error: unknown) =>
        Promise.reject(asFileError(error, shownDst)),
      );
      try {
        const buffer = Buffer.allocUnsafe(1024 * 1024);
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          await out.write(buffer, 0, bytesRead);
        }
      } finally {
        await out.close();
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** Removes a file, a link (never its target) or a directory (`recursive`, else it must be empty). */
  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { rel, abs } = await this.#entry(path);
    const info = await lstat(abs).catch((error: unknown) => Promise.reject(asFileError(error, rel)));
    try {
      if (info.isDirectory()) {
        if (options.recursive) {
          await this.#checkTree(abs, rel, undefined, true);
          await rm(abs, { recursive: true });
        } else await rmdir(abs);
      } else await unlink(abs);
    } catch (error) {
      throw asFileError(error, rel);
    }
  }

  /** chmod of a file or directory, never of a link (nor through one): Linux has no lchmod, so links are refused. */
  async chmod(path: string, mode: number): Promise<FileInfo> {
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) throw new FileOpError('INVALID', 'a mode is 0 to 0777 (no setuid, setgid or sticky bits)');
    const { rel, abs } = await this.#entry(path);
    let handle: FileHandle | undefined;
    try {
      handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new FileOpError('LINK_REFUSED', `/${rel} is a symbolic link: its mode is not changed`);
      if (code !== 'EACCES') throw asFileError(error, rel);
      // Unreadable (mode 000 for example): checked not to be a link, then changed by path (as the account).
      const info = await lstat(abs).catch((failed: unknown) => Promise.reject(asFileError(failed, rel)));
      if (info.isSymbolicLink()) throw new FileOpError('LINK_REFUSED', `/${rel} is a symbolic link: its mode is not changed`);
      await chmod(abs, mode).catch((failed: unknown) => Promise.reject(asFileError(failed, rel)));
      return this.lstat(rel);
    }
    try {
      await this.#checkDescriptor(handle, rel);
      const info = await handle.stat();
      if (!info.isFile() && !info.isDirectory()) throw new FileOpError('NOT_A_FILE', `/${rel} is not a file or directory`);
      await handle.chmod(mode);
    } catch (error) {
      throw asFileError(error, rel);
    } finally {
      await handle.close().catch(() => undefined);
    }
    return this.lstat(rel);
  }

  /** Searches names and/or text contents below `path`, bounded by depth, files, bytes, results and time. */
  async search(options: SearchOptions): Promise<SearchResult> {
    const start = await this.#resolved(options.path ?? '');
    const maxDepth = Math.min(options.maxDepth ?? 16, 64);
    const maxFiles = Math.min(options.maxFiles ?? 50_000, 1_000_000);
    const maxBytes = Math.min(options.maxBytes ?? 256 * 1024 * 1024, 4 * 1024 * 1024 * 1024);
    const maxResults = Math.min(options.maxResults ?? 500, 10_000);
    const deadline = Date.now() + Math.min(options.timeoutMs ?? 10_000, 60_000);
    const name = options.name?.toLowerCase();
    const nameRegex =
      name && /[*?]/.test(name)
        ? new RegExp(
            `^${name
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '.*')
              .replace(/\?/g, '.')}$`,
            's',
          )
        : undefined;
    const content = options.content ? Buffer.from(options.content, 'utf8') : undefined;
    const result: SearchResult = { matches: [], scannedFiles: 0, scannedBytes: 0 };
    const pending: { rel: string; abs: string; depth: number }[] = [{ rel: start.rel, abs: start.abs, depth: 0 }];
    const stop = (why: NonNullable<SearchResult['stoppedEarly']>) => {
      result.stoppedEarly ??= why;
    };
    outer: while (pending.length > 0) {
      const dir = pending.shift()!;
      let entries: Dirent[];
      try {
        entries = await readdir(dir.abs, { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const dirent of entries) {
        if (Date.now() > deadline) {
          stop('time');
          break outer;
        }
        const rel = dir.rel === '' ? dirent.name : `${dir.rel}/${dirent.name}`;
        if (this.deny.denies(rel, dirent.isDirectory())) continue;
        const abs = `${dir.abs}/${dirent.name}`;
        if (dirent.isDirectory()) {
          if (dir.depth + 1 < maxDepth) pending.push({ rel, abs, depth: dir.depth + 1 });
          else stop('depth');
        }
        result.scannedFiles++;
        if (result.scannedFiles > maxFiles) {
          stop('files');
          break outer;
        }
        const nameMatches = !name || (nameRegex ? nameRegex.test(dirent.name.toLowerCase()) : dirent.name.toLowerCase().includes(name));
        if (!nameMatches) continue;
        const type: FileType = dirent.isFile() ? 'file' : dirent.isDirectory() ? 'directory' : dirent.isSymbolicLink() ? 'symlink' : 'other';
        if (!content) {
          const info = await lstat(abs).catch(() => undefined);
          result.matches.push({ path: `/${rel}`, type, size: info?.size ?? 0 });
        } else if (dirent.isFile()) {
          const found = await this.#grep(abs, content, maxBytes - result.scannedBytes);
          result.scannedBytes += found.bytes;
          if (found.match) result.matches.push({ path: `/${rel}`, type, size: found.size, ...found.match });
          if (result.scannedBytes >= maxBytes) {
            stop('bytes');
            break outer;
          }
        }
        if (result.matches.length >= maxResults) {
          stop('results');
          break outer;
        }
      }
    }
    return result;
  }

  async #grep(abs: string, needle: Buffer, budget: number): Promise<{ bytes: number; size: number; match?: { line: number; text: string } }> {
    let handle: FileHandle;
    try {
      handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return { bytes: 0, size: 0 };
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { bytes: 0, size: 0 };
      const take = Math.min(info.size, SEARCH_FILE_LIMIT, Math.max(0, budget));
      const buffer = Buffer.allocUnsafe(take);
      const { bytesRead } = await handle.read(buffer, 0, take, 0);
      const data = buffer.subarray(0, bytesRead);
      if (data.subarray(0, 8192).includes(0)) return { bytes: bytesRead, size: info.size };
      const at = data.indexOf(needle);
      if (at === -1) return { bytes: bytesRead, size: info.size };
      const lineStart = data.lastIndexOf(10, at) + 1;
      const lineEnd = data.indexOf(10, at);
      let line = 1;
      for (let i = data.indexOf(10); i !== -1 && i < at; i = data.indexOf(10, i + 1)) line++;
      const text = data
        .subarray(lineStart, lineEnd === -1 ? data.length : lineEnd)
        .toString('utf8')
        .slice(0, 300);
      return { bytes: bytesRead, size: info.size, match: { line, text } };
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** Bytes used below `path` (blocks, links not followed), bounded by `timeoutMs`: `partial` when it stopped early. */
  async usage(path = '', timeoutMs = 10_000): Promise<{ bytes: number; files: number; partial: boolean }> {
    const start = await this.#resolved(path);
    const deadline = Date.now() + timeoutMs;
    let bytes = 0;
    let files = 0;
    const pending = [start.abs];
    while (pending.length > 0) {
      if (Date.now() > deadline) return { bytes, files, partial: true };
      const dir = pending.pop()!;
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
      for (const dirent of entries) {
        const abs = `${dir}/${dirent.name}`;
        const info = await lstat(abs).catch(() => undefined);
        if (!info) continue;
        files++;
        bytes += info.blocks * 512;
        if (dirent.isDirectory()) pending.push(abs);
      }
    }
    return { bytes, files, partial: false };
  }

  /** Free and total bytes of the file system holding the server's directory (as the account sees it). */
  async space(): Promise<{ free: number; total: number }> {
    const info = await statfs(this.root);
    return { free: info.bavail * info.bsize, total: info.blocks * info.bsize };
  }

  /** Closes every open file, removing atomic writes' temporary files (the helper is ending). */
  async closeAll(): Promise<void> {
    for (const id of [...this.#open.keys()]) await this.close(id).catch(() => undefined);
  }
}
