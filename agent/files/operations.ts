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

/**
 * The most a listing page's entries take as JSON: its answer crosses the helper's pipe and then the agent's connection
 * to the service, whose frames stopped at 256 KiB before this release (schema/agentEvents.ts MAX_FRAME_BYTES): an
 * orchestrator of the previous release may still carry it during a rolling upgrade.
 */
export const LIST_PAGE_BYTES = 160 * 1024;

/** What an entry of an answer takes as JSON (with its separator), counted against LIST_PAGE_BYTES. */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value)) + 1;

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

/** The name of an extraction's staging directory starts so (`.gsm-extract-<hex>`, archives.ts). */
export const STAGING_PREFIX = '.gsm-extract-';

/**
 * A name on disk as it is shown: valid UTF-8 as it is, each byte of a sequence that is not valid UTF-8 as `\xHH`
 * (`bad-\xff.txt`), and in such a name a backslash as `\x5c`, with `invalid` set. Such a name is found again by that form (#entryOrRaw).
 */
export function shownName(raw: Buffer): { name: string; invalid: boolean } {
  const decoded = raw.toString('utf8');
  if (Buffer.from(decoded, 'utf8').equals(raw)) return { name: decoded, invalid: false };
  let name = '';
  for (let at = 0; at < raw.length;) {
    const lead = raw[at]!;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const sequence = length > 0 ? raw.subarray(at, at + length) : undefined;
    const text = sequence?.length === length ? sequence.toString('utf8') : undefined;
    // A backslash is escaped too (`\x5c`), so no two names on disk are shown alike: `\xHH` is always an escape.
    if (sequence && text !== undefined && text !== '\\' && Buffer.from(text, 'utf8').equals(sequence)) {
      name += text;
      at += length;
    } else {
      name += `\\x${lead.toString(16).padStart(2, '0')}`;
      at += 1;
    }
  }
  return { name, invalid: true };
}

/**
 * A listing's cursor after the entry named `raw` on disk: its name when that is valid UTF-8, else `/` and its bytes in
 * base64url (no name holds a `/`). Paging compares bytes, so a name that is not UTF-8 is passed once, never again.
 */
export const listCursor = (raw: Buffer): string => {
  const shown = shownName(raw);
  return shown.invalid ? `/${raw.toString('base64url')}` : shown.name;
};
const cursorBytes = (after: string): Buffer => (after.startsWith('/') ? Buffer.from(after.slice(1), 'base64url') : Buffer.from(after, 'utf8'));

const pathBytes = (path: string | Buffer): Buffer => (typeof path === 'string' ? Buffer.from(path, 'utf8') : path);
const SLASH = Buffer.from('/');
/** `dir/name` as bytes (a name on disk may not be UTF-8). */
const childOf = (dir: string | Buffer, name: string | Buffer): Buffer => Buffer.concat([pathBytes(dir), SLASH, pathBytes(name)]);

type OpenFile = {
  handle: FileHandle;
  /** The path as asked (relative). */
  path: string;
  /** Atomic writes: the temporary file's and the target's absolute paths, the mode to give it. */
  atomic?: { temp: string; target: string; mode: number; ifMatch?: string };
  append: boolean;
  /** The last write asked for (writes run one after the other, in the order asked), and the failure that ends them. */
  writes?: Promise<unknown>;
  failed?: FileOpError;
};

/** Files at most this large are compared as text by a content search. */
const SEARCH_FILE_LIMIT = 8 * 1024 * 1024;

/** The open files of a helper, shared by its views (see `pinned`), and its last directory read for a listing. */
type OpenFiles = { files: Map<number, OpenFile>; next: number; listed?: ListedDirectory };

/**
 * A directory as a listing read it: its entries not denied, sorted, with what says it is unchanged (the directory's
 * device, inode and change time, the deny list it was filtered by) and when it was read. The pages of one listing read
 * it once: without it, each page of a directory of 100,000 entries read and sorted them all again.
 */
type ListedDirectory = {
  /** The path asked for (the deny list is checked on it) and where it leads. */
  rel: string;
  abs: string;
  dev: bigint;
  ino: bigint;
  ctimeNs: bigint;
  mtimeNs: bigint;
  deny: DenyList;
  at: number;
  visible: { raw: Buffer; name: string; invalid?: boolean }[];
};
/** How long a directory read for a listing is used for its next pages (when unchanged meanwhile). */
const LISTED_FOR_MS = 30_000;

export class ServerFiles {
  /** The server's directory (its real path). */
  readonly root: string;
  #deny: DenyList;
  readonly #state: OpenFiles;
  readonly #open: Map<number, OpenFile>;

  private constructor(root: string, deny: DenyList, state: OpenFiles = { files: new Map(), next: 1 }) {
    this.root = root;
    this.#deny = deny;
    this.#state = state;
    this.#open = state.files;
  }

  /** The deny list the next operations are checked against. */
  get deny(): DenyList {
    return this.#deny;
  }

  /**
   * A new deny list (the template's or the cluster's default changed): operations asked for from now on are checked
   * against it; those under way, and files already open, carry on.
   */
  setDenyList(patterns: readonly string[]): void {
    this.#deny = new DenyList(patterns);
  }

  /**
   * These files with the deny list as it is now, kept whatever `setDenyList` does later: what a long operation (an
   * extract checked against the list at its start) works through, so a change of the list never breaks it half-way.
   * Files opened through either are the same (one table of handles).
   */
  pinned(): ServerFiles {
    return new ServerFiles(this.root, this.#deny, this.#state);
  }

  #newHandle(): number {
    return this.#state.next++;
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
   * The entry on disk whose name is shown as the last name of `rel` with `\xHH` escapes (not valid UTF-8), or undefined.
   * `parent`: the real path of the directory it is in.
   */
  async #rawName(parent: string, name: string): Promise<Buffer | undefined> {
    if (!name.includes('\\x')) return undefined;
    const names = await readdir(parent, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
    const found = names.filter((candidate) => {
      const shown = shownName(candidate);
      return shown.invalid && shown.name === name;
    });
    // Not possible with the escapes as they are; refused rather than guessed should two ever be shown alike.
    if (found.length > 1)
      throw new FileOpError('INVALID_PATH', `${name} names ${found.length} entries on disk whose names are not valid UTF-8: none is chosen`);
    return found[0];
  }

  /**
   * #entry, and when nothing has that name, the entry whose name on disk is not valid UTF-8 and is shown so (`\xHH`):
   * lstat, rename (its source), delete and chmod take such names, so a file a game named so can be renamed or removed.
   */
  async #entryOrRaw(path: string, options: { allowRoot?: boolean } = {}): Promise<{ rel: string; abs: string | Buffer; raw: boolean }> {
    const entry = await this.#entry(path, options);
    if (entry.rel === '') return { ...entry, raw: false };
    const exists = await lstat(entry.abs).then(
      () => true,
      () => false,
    );
    const raw = exists ? undefined : await this.#rawName(dirname(entry.abs), basename(entry.abs));
    // Its name decoded (U+FFFD for what is not UTF-8) is checked too: a pattern's `?` or `[…]` matches one character there.
    if (raw) this.#checkDeny(`${entry.rel.slice(0, entry.rel.length - basename(entry.rel).length)}${raw.toString('utf8')}`);
    return raw ? { rel: entry.rel, abs: childOf(dirname(entry.abs), raw), raw: true } : { ...entry, raw: false };
  }

  /** A refusal naming a path whose last name is not valid UTF-8 on disk (found by its shown form), else undefined. */
  async #rawRefusal(rel: string): Promise<FileOpError | undefined> {
    if (rel === '') return undefined;
    const parentRel = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    const parent = await realpath(this.#abs(parentRel)).catch(() => undefined);
    if (parent === undefined || this.#inside(parent) === undefined) return undefined;
    if (!(await this.#rawName(parent, basename(rel)))) return undefined;
    return new FileOpError(
      'INVALID_PATH',
      `/${rel}: its name on disk is not valid UTF-8 (shown with \\x escapes): it can be listed, renamed, deleted and chmod-ed, nothing else; rename it to use it`,
    );
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
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        const refusal = await this.#rawRefusal(rel);
        if (refusal) throw refusal;
      }
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
    const { rel, abs, raw } = await this.#entryOrRaw(path, { allowRoot: true });
    try {
      const info = await lstat(abs, { bigint: true });
      const extra: Partial<FileInfo> = raw ? { invalidName: true } : {};
      if (info.isSymbolicLink()) extra.linkTarget = (await readlink(abs, { encoding: 'buffer' })).toString('utf8');
      return infoOf(basename(rel) || '/', info, extra);
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
    const visible = await this.#listed(rel, abs, options.after !== undefined);
    // The first entry after `after` (binary search: the entries are sorted by their bytes).
    let start = 0;
    if (options.after !== undefined) {
      const after = cursorBytes(options.after);
      let high = visible.length;
      while (start < high) {
        const middle = (start + high) >>> 1;
        if (Buffer.compare(visible[middle]!.raw, after) <= 0) start = middle + 1;
        else high = middle;
      }
    }
    // A page also ends at LIST_PAGE_BYTES of entries (never before its first): the answer must fit in one frame of the
    // agent's connection to the service; `next` pages on from the last entry looked at.
    const entries: FileInfo[] = [];
    let bytes = 0;
    let index = start;
    for (; index < visible.length && index < start + limit; index++) {
      const entry = visible[index]!;
      const full = childOf(abs, entry.raw);
      let found: FileInfo;
      try {
        const info = await lstat(full, { bigint: true });
        const extra: Partial<FileInfo> = entry.invalid ? { invalidName: true } : {};
        if (info.isSymbolicLink()) extra.linkTarget = (await readlink(full, { encoding: 'buffer' })).toString('utf8');
        found = infoOf(entry.name, info, extra);
      } catch {
        continue; // gone since the readdir
      }
      const size = jsonBytes(found);
      if (entries.length > 0 && bytes + size > LIST_PAGE_BYTES) break;
      entries.push(found);
      bytes += size;
    }
    const more = index < visible.length;
    return { entries, total: visible.length, ...(more ? { next: listCursor(visible[index - 1]!.raw) } : {}) };
  }

  /**
   * The directory's entries not denied, sorted by their bytes: read now for a listing's first page, and for a later
   * page (`paging`) the read of an earlier one when the directory and the deny list are unchanged since (its change
   * time, checked now) and it is at most LISTED_FOR_MS old.
   */
  async #listed(rel: string, abs: string, paging: boolean): Promise<ListedDirectory['visible']> {
    let info: BigIntStats;
    try {
      info = await stat(abs, { bigint: true });
    } catch (error) {
      throw asFileError(error, rel);
    }
    const kept = this.#state.listed;
    if (
      paging &&
      kept &&
      kept.rel === rel &&
      kept.abs === abs &&
      kept.dev === info.dev &&
      kept.ino === info.ino &&
      kept.ctimeNs === info.ctimeNs &&
      kept.mtimeNs === info.mtimeNs &&
      kept.deny === this.deny &&
      Date.now() - kept.at < LISTED_FOR_MS
    )
      return kept.visible;
    let dirents: Dirent<Buffer>[];
    try {
      dirents = await readdir(abs, { encoding: 'buffer', withFileTypes: true });
    } catch (error) {
      throw asFileError(error, rel);
    }
    const prefix = rel === '' ? '' : `${rel}/`;
    // A name that is not UTF-8 is denied when its shown form or its decoded one (U+FFFD for each bad sequence) is.
    const visible = dirents
      .map((dirent) => ({ raw: dirent.name, ...shownName(dirent.name), directory: dirent.isDirectory() }))
      .filter(
        (entry) =>
          !this.deny.denies(`${prefix}${entry.name}`, entry.directory) &&
          !(entry.invalid && this.deny.denies(`${prefix}${entry.raw.toString('utf8')}`, entry.directory)),
      )
      .map(({ raw, name, invalid }) => ({ raw, name, ...(invalid ? { invalid } : {}) }));
    visible.sort((a, b) => Buffer.compare(a.raw, b.raw));
    const listed: ListedDirectory = {
      rel,
      abs,
      dev: info.dev,
      ino: info.ino,
      ctimeNs: info.ctimeNs,
      mtimeNs: info.mtimeNs,
      deny: this.deny,
      at: Date.now(),
      visible,
    };
    this.#state.listed = listed;
    // Not kept past its use: a big directory's entries are let go once no page may use them.
    setTimeout(() => {
      if (this.#state.listed === listed) this.#state.listed = undefined;
    }, LISTED_FOR_MS).unref();
    return visible;
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
      const id = this.#newHandle();
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
    const id = this.#newHandle();
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
    // Writes asked for before the read land first: a read sent after a write (not waiting for its answer) sees it.
    if (file.writes) await file.writes;
    const size = Math.max(0, Math.min(length, MAX_CHUNK));
    const buffer = Buffer.allocUnsafe(size);
    try {
      const { bytesRead } = await file.handle.read(buffer, 0, size, position);
      return buffer.subarray(0, bytesRead);
    } catch (error) {
      throw asFileError(error, file.path);
    }
  }

  /**
   * Writes `data` at `position`. The service keeps several writes of a transfer in flight (docs/files.md): they land
   * in the order they were asked for, and none lands after one that failed, so a file written at increasing positions
   * never has a hole and its size is what was written before the failure (a resumable upload's offset).
   */
  write(handle: number, position: number, data: Buffer): Promise<number> {
    const file = this.#file(handle);
    if (data.length > MAX_CHUNK) return Promise.reject(new FileOpError('TOO_LARGE', 'a write carries at most 1 MiB'));
    const run = async () => {
      if (file.failed) throw file.failed;
      try {
        let done = 0;
        while (done < data.length) {
          const { bytesWritten } = await file.handle.write(data, done, data.length - done, file.append ? null : position + done);
          done += bytesWritten;
        }
        return done;
      } catch (error) {
        file.failed = asFileError(error, file.path);
        throw file.failed;
      }
    };
    const written = file.writes ? file.writes.then(run) : run();
    file.writes = written.catch(() => undefined);
    return written;
  }

  async fstat(handle: number): Promise<FileInfo> {
    const file = this.#file(handle);
    if (file.writes) await file.writes;
    return infoOf(basename(file.path), await file.handle.stat({ bigint: true }));
  }

  /**
   * Closes a file. An atomic write is renamed over its target only with `commit` (its If-Match checked again at that
   * moment), otherwise its temporary file is removed. Answers the target's new state after a commit.
   */
  async close(handle: number, options: { commit?: boolean } = {}): Promise<FileInfo | undefined> {
    const file = this.#file(handle);
    this.#open.delete(handle);
    // Writes asked for before the close (a client need not wait for their answers) land, or fail, first: a commit
    // never puts a file in place with writes still to come, nor one a write failed to fill.
    await file.writes;
    const atomic = file.atomic;
    if (!atomic) {
      await file.handle.close().catch(() => undefined);
      return undefined;
    }
    try {
      if (!options.commit) return undefined;
      if (file.failed) throw file.failed;
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
  async #walk(abs: string | Buffer, rel: string, limit = 100_000): Promise<{ path: string; decoded: string; raw: Buffer; dirent: Dirent<Buffer> }[]> {
    const found: { path: string; decoded: string; raw: Buffer; dirent: Dirent<Buffer> }[] = [];
    const pending: { path: string; decoded: string; raw: Buffer | undefined }[] = [{ path: '', decoded: '', raw: undefined }];
    while (pending.length > 0) {
      const sub = pending.pop()!;
      let dir;
      try {
        // Names as bytes (Node's types know only text encodings here; `buffer` gives Buffer names at run time).
        dir = await opendir(sub.raw ? childOf(abs, sub.raw) : abs, { encoding: 'buffer' as BufferEncoding });
      } catch (error) {
        throw asFileError(error, sub.path === '' ? rel : `${rel}/${sub.path}`);
      }
      for await (const dirent of dir as AsyncIterable<Dirent<Buffer>>) {
        const name = shownName(dirent.name).name;
        const path = sub.path === '' ? name : `${sub.path}/${name}`;
        const decoded = sub.path === '' ? dirent.name.toString('utf8') : `${sub.decoded}/${dirent.name.toString('utf8')}`;
        const raw = sub.raw ? childOf(sub.raw, dirent.name) : dirent.name;
        found.push({ path, decoded, raw, dirent });
        if (found.length > limit) throw new FileOpError('TOO_LARGE', `/${rel} holds more than ${limit} entries`);
        if (dirent.isDirectory()) pending.push({ path, decoded, raw });
      }
    }
    return found;
  }

  /** Refuses when the entry (a directory: anything in it) is denied at `from` or would be at `to`. */
  async #checkTree(abs: string | Buffer, from: string, to: string | undefined, isDir: boolean): Promise<void> {
    this.#checkDeny(from, isDir);
    if (to !== undefined) this.#checkDeny(to, isDir);
    if (!isDir || this.deny.empty) return;
    for (const { path, decoded, dirent } of await this.#walk(abs, from)) {
      const dir = dirent.isDirectory();
      // A name that is not UTF-8 is checked as shown and decoded (U+FFFD), as a listing does.
      const denied = (base: string) => this.deny.denies(`${base}/${path}`, dir) || (decoded !== path && this.deny.denies(`${base}/${decoded}`, dir));
      if (denied(from)) throw new FileOpError('DENIED', `/${from} holds /${from}/${path}, which is on the server's deny list`);
      if (to !== undefined && denied(to)) throw new FileOpError('DENIED', `/${to}/${path} would be on the server's deny list`);
    }
  }

  async rename(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<FileInfo> {
    const source = await this.#entryOrRaw(from);
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
      for (const { path, raw, dirent } of await this.#walk(source.abs, source.rel)) {
        const [src, dst] = [childOf(source.abs, raw), childOf(target.abs, raw)];
        try {
          if (dirent.isDirectory()) await mkdir(dst, { mode: 0o755 });
          else if (dirent.isSymbolicLink()) await symlink(await readlink(src, { encoding: 'buffer' }), dst);
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
  async #copyFile(src: string | Buffer, dst: string | Buffer, shownSrc: string, shownDst: string): Promise<void> {
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

  /**
   * Removes an extraction's staging directory (its name starts with STAGING_PREFIX) whole, as the account: a directory,
   * never a link, and without the deny-list walk of `remove` (which stops at 100,000 entries): nothing in it was ever
   * in place, and what is in it was checked against the deny list when it was written.
   */
  async removeStaging(path: string): Promise<void> {
    const { rel, abs } = await this.#entry(path);
    if (!basename(rel).startsWith(STAGING_PREFIX)) throw new FileOpError('INVALID', `/${rel} is not an extraction's staging directory`);
    const info = await lstat(abs).catch((error: unknown) => Promise.reject(asFileError(error, rel)));
    if (!info.isDirectory()) throw new FileOpError('NOT_A_DIRECTORY', `/${rel} is not a directory`);
    await rm(abs, { recursive: true }).catch((error: unknown) => Promise.reject(asFileError(error, rel)));
  }

  /**
   * Removes the staging directories in the directory `path` not changed for `olderThanMs` (left by an extraction that
   * could not clean up: its helper killed); answers how many went. A missing directory has none.
   */
  async sweepStaging(path: string, olderThanMs: number): Promise<number> {
    const { rel, abs, exists } = await this.#resolved(path, { mayBeMissing: true });
    if (!exists) return 0;
    const names = await readdir(abs).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      if (!name.startsWith(STAGING_PREFIX)) continue;
      const info = await lstat(join(abs, name)).catch(() => undefined);
      if (!info?.isDirectory() || Date.now() - info.mtimeMs < olderThanMs) continue;
      if (
        await this.removeStaging(rel === '' ? name : `${rel}/${name}`).then(
          () => true,
          () => false,
        )
      )
        removed++;
    }
    return removed;
  }

  /** Removes a file, a link (never its target) or a directory (`recursive`, else it must be empty). */
  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { rel, abs } = await this.#entryOrRaw(path);
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
    const { rel, abs } = await this.#entryOrRaw(path);
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
    // The matches must fit in one answer, as a listing page must (LIST_PAGE_BYTES): past that the search stops, as
    // for `maxResults`.
    let matchBytes = 0;
    const add = (match: SearchResult['matches'][number]): boolean => {
      const size = jsonBytes(match);
      if (matchBytes + size > LIST_PAGE_BYTES) return false;
      result.matches.push(match);
      matchBytes += size;
      return true;
    };
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
        let fits = true;
        if (!content) {
          const info = await lstat(abs).catch(() => undefined);
          fits = add({ path: `/${rel}`, type, size: info?.size ?? 0 });
        } else if (dirent.isFile()) {
          const found = await this.#grep(abs, content, maxBytes - result.scannedBytes);
          result.scannedBytes += found.bytes;
          if (found.match) fits = add({ path: `/${rel}`, type, size: found.size, ...found.match });
          if (result.scannedBytes >= maxBytes) {
            stop('bytes');
            break outer;
          }
        }
        if (!fits || result.matches.length >= maxResults) {
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
