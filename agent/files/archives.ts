/**
 * Compress and extract in the file helper, as the server's account (docs/files.md#archives-and-pulls). Every file is
 * read and written through ServerFiles' checked operations (paths inside the directory, the deny list, links never
 * followed outside), so an archive can do nothing the API's own verbs could not.
 *
 * Extraction checks the whole archive before it writes anything: every name (no NUL, not absolute, no `..`), every
 * entry's kind (symbolic and hard links, devices and FIFOs refused), a zip's methods, a file where a directory is (in
 * the archive or on the server) or the reverse, the entry count and the total uncompressed size against the limits,
 * and the free space of the file system. A tar.gz is decompressed twice for that (a first pass reading only headers);
 * a zip's central directory is read. Then it writes into a staging directory inside the destination, counting each
 * entry's actual bytes again (an archive lying about its sizes is stopped at the declared size) and checking each zip
 * entry's CRC-32; only when all of it is written are the files moved into place. Nothing of a bad archive is left.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, createDeflateRaw } from 'node:zlib';
import { checkNewName, filePathSegments } from '../../schema/filePaths.ts';
import { FileOpError, MAX_CHUNK, type FileInfo } from './protocol.ts';
import { STAGING_PREFIX, type ServerFiles } from './operations.ts';
import {
  archiveFormatOf,
  ArchiveFormatError,
  ArchiveLimitError,
  crc32,
  readTar,
  readZipDirectory,
  TAR_END,
  tarHeader,
  tarPadding,
  ZIP_MAX_BYTES,
  ZIP_MAX_ENTRIES,
  zipCentralDirectory,
  zipDataDescriptor,
  zipEntryData,
  zipLocalHeader,
  type ArchiveEntry,
  type ZipWritten,
} from './archiveFormats.ts';

export type Progress = (done: number, total: number | null, message: string) => void;
export type ExtractLimits = { maxBytes: number; maxEntries: number };
export type ArchiveOptions = { signal?: AbortSignal; progress?: Progress };

const READ_CHUNK = 256 * 1024;
/** Progress is reported at most this often. */
const PROGRESS_EVERY_MS = 500;

function throttled(progress: Progress | undefined): Progress {
  let last = 0;
  return (done, total, message) => {
    const now = Date.now();
    if (!progress || (now - last < PROGRESS_EVERY_MS && done !== total)) return;
    last = now;
    progress(done, total, message);
  };
}

const cancelled = (signal?: AbortSignal) => {
  if (signal?.aborted) throw new FileOpError('FAILED', 'cancelled');
};

/** Reads a whole file through the helper's checked open, chunk by chunk. */
async function* readFile(files: ServerFiles, path: string, signal?: AbortSignal): AsyncIterable<Buffer> {
  const { handle } = await files.open(path, { read: true });
  try {
    for (let position = 0; ;) {
      cancelled(signal);
      const chunk = await files.read(handle, position, READ_CHUNK);
      if (chunk.length === 0) return;
      position += chunk.length;
      yield chunk;
    }
  } finally {
    await files.close(handle).catch(() => undefined);
  }
}

/** A sink writing into an atomic file of the helper (put in place only by `commit`). */
async function atomicSink(files: ServerFiles, path: string, mode?: number, limit?: { bytes: number; refusal: string }) {
  const { handle } = await files.open(path, { atomic: true, ...(mode !== undefined ? { mode } : {}) });
  let position = 0;
  const write = async (data: Buffer) => {
    // Checked on every write, not after an entry: one huge (or growing) file cannot run past the limit.
    if (limit && position + data.length > limit.bytes) throw new FileOpError('TOO_LARGE', limit.refusal);
    for (let at = 0; at < data.length; at += MAX_CHUNK) {
      const part = data.subarray(at, at + MAX_CHUNK);
      await files.write(handle, position, part);
      position += part.length;
    }
  };
  return {
    write,
    get position() {
      return position;
    },
    stream: () =>
      new Writable({
        write: (chunk: Buffer, _encoding, callback) => void write(chunk).then(() => callback(), callback),
      }),
    commit: () => files.close(handle, { commit: true }) as Promise<FileInfo>,
    abort: () => files.close(handle).catch(() => undefined),
  };
}

/** The name of an atomic write's temporary file (operations.ts `open` with `atomic`). */
const ATOMIC_TEMP = /^\..*\.gsm-[0-9a-f]+\.tmp$/s;

/** The files and directories below `sources` (links, devices and deny-listed entries left out), depth first. */
async function* walk(files: ServerFiles, sources: readonly string[], skipped: { count: number }): AsyncIterable<{ path: string; info: FileInfo }> {
  for (const source of sources) {
    const info = await files.lstat(source);
    const path = filePathSegments(source, { leadingSlash: true }).join('/');
    if (info.type === 'file') yield { path, info };
    else if (info.type !== 'directory') skipped.count++;
    else {
      yield { path, info };
      const pending = [path];
      while (pending.length > 0) {
        const dir = pending.pop()!;
        let after: string | undefined;
        do {
          const page = await files.list(dir, { limit: 10_000, ...(after !== undefined ? { after } : {}) });
          for (const entry of page.entries) {
            const child = `${dir}/${entry.name}`;
            // An atomic write in progress (this archive's own temporary file, an upload's): never its own input.
            if (entry.type === 'file' && ATOMIC_TEMP.test(entry.name)) continue;
            // An extraction's staging directory (one under way, or left by a killed helper): never archived half-written.
            if (entry.type === 'directory' && entry.name.startsWith(STAGING_PREFIX)) continue;
            // A name that is not UTF-8 cannot be put in an archive of UTF-8 names: left out, counted.
            if (entry.invalidName) {
              skipped.count++;
              continue;
            }
            if (entry.type === 'file') yield { path: child, info: entry };
            else if (entry.type === 'directory') {
              yield { path: child, info: entry };
              pending.push(child);
            } else skipped.count++;
          }
          after = page.next;
        } while (after !== undefined);
      }
    }
  }
}

/** The archive's member name of `path`: relative to the directory the sources are in (`base`). */
function memberName(path: string, base: string): string {
  return base === '' ? path : path.slice(base.length + 1);
}

/**
 * Compresses `sources` (files or directories, all in one directory) into `archive` (.tar.gz, .tgz or .zip), written
 * atomically. Symbolic links and special files are left out (counted in `skipped`).
 */
export async function compress(
  files: ServerFiles,
  sources: readonly string[],
  archive: string,
  options: ArchiveOptions = {},
): Promise<{ archive: FileInfo; entries: number; bytes: number; skipped: number }> {
  const format = archiveFormatOf(archive);
  if (!format) throw new FileOpError('INVALID', 'the archive name must end in .tar.gz, .tgz or .zip');
  if (sources.length === 0) throw new FileOpError('INVALID', 'name at least one file or directory to compress');
  const normalized = sources.map((source) => filePathSegments(source, { leadingSlash: true }).join('/'));
  if (normalized.includes('')) throw new FileOpError('INVALID', "compress the server's directory by naming what is in it");
  const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const base = parentOf(normalized[0]!);
  if (normalized.some((path) => parentOf(path) !== base)) throw new FileOpError('INVALID', 'the files to compress must all be in one directory');
  const target = filePathSegments(archive, { leadingSlash: true }).join('/');
  const report = throttled(options.progress);
  const skipped = { count: 0 };
  let entries = 0;
  let bytes = 0;
  const archiveDir = parentOf(target);
  if (archiveDir !== '')
    await files.mkdir(archiveDir, { recursive: true }).catch((error: FileOpError) => (error.code === 'EXISTS' ? undefined : Promise.reject(error)));
  const zipLimit = { bytes: ZIP_MAX_BYTES, refusal: 'a zip is at most 4 GiB here: use .tar.gz' };
  const sink = await atomicSink(files, archive, undefined, format === 'zip' ? zipLimit : undefined);
  try {
    if (format === 'tar.gz') {
      const gzip = createGzip();
      const writing = pipeline(gzip, sink.stream());
      const put = async (data: Buffer) => {
        if (!gzip.write(data)) await new Promise((resolve) => gzip.once('drain', resolve));
      };
      try {
        for await (const { path, info } of walk(files, normalized, skipped)) {
          cancelled(options.signal);
          if (path === target) continue;
          const entry: ArchiveEntry = {
            name: memberName(path, base),
            kind: info.type === 'directory' ? 'directory' : 'file',
            size: info.type === 'file' ? info.size : 0,
            mode: info.mode,
            mtime: new Date(info.modifiedAt),
          };
          let written = 0;
          if (entry.kind === 'file') {
            // The size in the header is the size when listed: a file that grew is cut there, one that shrank padded.
            await put(tarHeader(entry));
            for await (const chunk of readFile(files, path, options.signal)) {
              const part = chunk.subarray(0, entry.size - written);
              if (part.length > 0) await put(part);
              written += part.length;
              bytes += part.length;
              report(bytes, null, `compressing ${entry.name}`);
              if (written >= entry.size) break;
            }
            if (written < entry.size) await put(Buffer.alloc(entry.size - written));
            await put(Buffer.alloc(tarPadding(entry.size)));
          } else await put(tarHeader(entry));
          entries++;
        }
        await put(TAR_END);
        gzip.end();
        await writing;
      } catch (error) {
        gzip.destroy();
        await writing.catch(() => undefined);
        throw error;
      }
    } else {
      const written: ZipWritten[] = [];
      for await (const { path, info } of walk(files, normalized, skipped)) {
        cancelled(options.signal);
        if (path === target) continue;
        if (written.length >= ZIP_MAX_ENTRIES) throw new FileOpError('TOO_LARGE', `a zip holds at most ${ZIP_MAX_ENTRIES} entries here: use .tar.gz`);
        const directory = info.type === 'directory';
        const name = `${memberName(path, base)}${directory ? '/' : ''}`;
        const mtime = new Date(info.modifiedAt);
        const offset = sink.position;
        await sink.write(zipLocalHeader(name, mtime, directory));
        const entry: ZipWritten = { name, crc: 0, compressedSize: 0, size: 0, offset, mode: info.mode, mtime, directory };
        if (!directory) {
          const start = sink.position;
          const deflate = createDeflateRaw();
          const writing = pipeline(deflate, sink.stream());
          // Read up to the size when listed: a file growing while it is read (a log) is cut there.
          const listed = info.type === 'file' ? info.size : 0;
          for await (const chunk of readFile(files, path, options.signal)) {
            const part = chunk.subarray(0, listed - entry.size);
            if (part.length > 0) {
              entry.crc = crc32(part, entry.crc);
              entry.size += part.length;
              bytes += part.length;
              report(bytes, null, `compressing ${name}`);
              if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
            }
            if (entry.size >= listed) break;
          }
          deflate.end();
          await writing;
          entry.compressedSize = sink.position - start;
          await sink.write(zipDataDescriptor(entry));
        }
        written.push(entry);
        entries++;
      }
      await sink.write(zipCentralDirectory(written, sink.position));
    }
    const info = await sink.commit();
    options.progress?.(bytes, bytes, 'compressed');
    return { archive: info, entries, bytes, skipped: skipped.count };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/** The checked name of an archive member, relative to the destination (`''`: the destination itself), or a refusal naming it. */
function memberPath(entry: ArchiveEntry): string {
  const shown = JSON.stringify(entry.name);
  if (entry.kind === 'symlink' || entry.kind === 'hardlink')
    throw new FileOpError('LINK_REFUSED', `the archive holds a ${entry.kind === 'symlink' ? 'symbolic' : 'hard'} link (${shown}): links are not extracted`);
  if (entry.kind === 'other') throw new FileOpError('INVALID', `the archive holds a special file (${shown}): only files and directories are extracted`);
  if (entry.name.includes('\0')) throw new FileOpError('INVALID_PATH', 'the archive holds a name with NUL');
  if (entry.name.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(entry.name)) throw new FileOpError('INVALID_PATH', `the archive holds an absolute name (${shown})`);
  if (entry.name.split(/[\\/]/).includes('..')) throw new FileOpError('INVALID_PATH', `the archive holds a name climbing with .. (${shown})`);
  let relative: string;
  try {
    relative = filePathSegments(entry.name).join('/');
    if (relative !== '') checkNewName(relative);
  } catch (error) {
    throw new FileOpError('INVALID_PATH', `the archive holds a name that is refused (${shown}): ${(error as Error).message}`);
  }
  if (relative === '' && entry.kind !== 'directory') throw new FileOpError('INVALID_PATH', `the archive holds a file without a name (${shown})`);
  return relative;
}

const under = (dest: string, relative: string) => (dest === '' ? relative : relative === '' ? dest : `${dest}/${relative}`);
const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** The prefix of an extraction's staging directory, made inside the destination while the job runs. */
export { STAGING_PREFIX };
/**
 * A staging directory unchanged for this long is one an extraction left when its helper was killed (no extraction
 * runs this long): the next extraction into that directory removes it.
 */
export const STALE_STAGING_MS = 24 * 60 * 60_000;

/** What an archive puts in place: each path (relative to the destination) and its kind, parents before children. */
type Plan = Map<string, 'file' | 'directory'>;

/** Adds a member (and the directories it implies) to the plan; refuses a file where the archive has a directory, or the reverse. */
function planMember(plan: Plan, relative: string, kind: 'file' | 'directory'): void {
  if (relative === '') return;
  const segments = relative.split('/');
  for (let i = 1; i < segments.length; i++) {
    const parent = segments.slice(0, i).join('/');
    const known = plan.get(parent);
    if (known === 'file') throw new FileOpError('INVALID', `the archive holds /${relative} inside /${parent}, which it also holds as a file`);
    if (!known) plan.set(parent, 'directory');
  }
  const known = plan.get(relative);
  if (known && known !== kind) throw new FileOpError('INVALID', `the archive holds /${relative} both as a file and as a directory`);
  plan.set(relative, kind);
}

/**
 * Refuses a plan that does not fit what is in place: a file where the server has a directory, a directory where it has
 * a file (a link to a directory inside is a directory; a file replaces a link, never what it points to).
 */
async function checkInPlace(files: ServerFiles, dest: string, plan: Plan, signal?: AbortSignal): Promise<void> {
  const missing = new Set<string>();
  for (const [relative, kind] of plan) {
    cancelled(signal);
    const parent = parentOf(relative);
    if (parent !== '' && missing.has(parent)) {
      if (kind === 'directory') missing.add(relative);
      continue;
    }
    const path = under(dest, relative);
    let info: FileInfo;
    try {
      info = await files.lstat(path);
      if (info.type === 'symlink' && kind === 'directory') info = await files.stat(path);
    } catch (error) {
      if ((error as FileOpError).code !== 'NOT_FOUND') throw error;
      if (kind === 'directory') missing.add(relative);
      continue;
    }
    if (kind === 'file' && info.type === 'directory')
      throw new FileOpError('IS_A_DIRECTORY', `the archive holds a file /${path} where the server has a directory`);
    if (kind === 'directory' && info.type !== 'directory')
      throw new FileOpError(
        'NOT_A_DIRECTORY',
        `the archive holds a directory /${path} where the server has a ${info.type === 'other' ? 'special file' : info.type}`,
      );
  }
}

const mkdirQuiet = (files: ServerFiles, path: string, options: { mode?: number } = {}) =>
  files.mkdir(path, options).then(
    () => true,
    (error: FileOpError) => (error.code === 'EXISTS' ? false : Promise.reject(error)),
  );

/**
 * Extracts `archive` into the directory `destination` (made when missing). Nothing of an archive that fails is put in
 * place: it is checked whole first (names, kinds, limits, what it would replace, free space), then written into a
 * staging directory inside the destination (`.gsm-extract-<hex>`; every zip entry's method and CRC-32 verified as it
 * is written), and only once all of it is written are its files moved into place (existing files of the same names
 * replaced, each by a rename). A failure removes the staging directory and any directory the extraction made.
 */
export async function extract(
  files: ServerFiles,
  archive: string,
  destination: string,
  limits: ExtractLimits,
  options: ArchiveOptions = {},
): Promise<{ entries: number; bytes: number }> {
  const format = archiveFormatOf(archive);
  if (!format) throw new FileOpError('INVALID', 'only .tar.gz, .tgz and .zip archives are extracted');
  const dest = filePathSegments(destination, { leadingSlash: true }).join('/');
  const report = throttled(options.progress);
  const { handle, info } = await files.open(archive, { read: true });
  const readAt = (position: number, length: number) =>
    files.read(handle, position, Math.min(length, MAX_CHUNK)).then(async (first) => {
      // A read answers at most MAX_CHUNK bytes: longer ones (a zip's central directory) are put together.
      const parts = [first];
      let got = first.length;
      while (got < length && parts.at(-1)!.length > 0) {
        const next = await files.read(handle, position + got, Math.min(length - got, MAX_CHUNK));
        parts.push(next);
        got += next.length;
      }
      return parts.length === 1 ? first : Buffer.concat(parts);
    });
  async function* archiveBytes() {
    for (let position = 0; ;) {
      cancelled(options.signal);
      const chunk = await files.read(handle, position, READ_CHUNK);
      if (chunk.length === 0) return;
      position += chunk.length;
      yield chunk;
    }
  }
  const overLimit = (count: number, total: number) => {
    if (count > limits.maxEntries) throw new FileOpError('TOO_LARGE', `the archive has more than ${limits.maxEntries} entries (the limit)`);
    if (total > limits.maxBytes) throw new FileOpError('TOO_LARGE', `the archive holds more than ${limits.maxBytes} bytes uncompressed (the limit)`);
  };
  /** Directories this extraction made (the destination and its missing parents, the staging directory), to remove on failure. */
  const made: string[] = [];
  let succeeded = false;
  try {
    // 1. Check everything before writing anything.
    let count = 0;
    /** The entries' data (what is written), and a tar's headers and padding (read, never written). */
    let total = 0;
    let framing = 0;
    const plan: Plan = new Map();
    /** A tar's entries as the first pass read them (name, kind, size): the second must read the same ones. */
    const firstPass: string[] = [];
    const zipEntries = format === 'zip' ? await readZipDirectory(readAt, info.size, limits.maxEntries) : undefined;
    const checked = (entry: ArchiveEntry) => {
      const relative = memberPath(entry);
      const path = under(dest, relative);
      if (files.deny.denies(path, entry.kind === 'directory'))
        throw new FileOpError('DENIED', `the archive holds /${path}, which is on the server's deny list`);
      planMember(plan, relative, entry.kind === 'directory' ? 'directory' : 'file');
    };
    // Every entry's data counts, a directory's too (a tar may carry data on any header: skipping it is work).
    if (zipEntries)
      for (const entry of zipEntries) {
        checked(entry);
        if (entry.kind === 'file' && entry.flags & 1) throw new FileOpError('INVALID', `${JSON.stringify(entry.name)} is encrypted (not supported)`);
        if (entry.kind === 'file' && entry.method !== 0 && entry.method !== 8)
          throw new FileOpError('INVALID', `${JSON.stringify(entry.name)} uses compression method ${entry.method}: only stored and deflate are supported`);
        count++;
        total += entry.size;
        overLimit(count, total);
      }
    else
      await readTar(
        gunzipped(archiveBytes()),
        async (entry, data) => {
          checked(entry);
          firstPass.push(memberKey(entry));
          count++;
          total += entry.size;
          overLimit(count, total + framing);
          // A tar's data is there in full: skipping it reads (and so counts) it.
          for await (const _chunk of data) cancelled(options.signal);
          report(0, null, `checking the archive (${count} entries)`);
        },
        {
          // Every header block and its padding count too, an extended header's (PAX, GNU long names) whole: an
          // archive of endless (even empty) headers is a bomb like one of endless data.
          headerBytes: (bytes) => {
            framing += bytes;
            overLimit(count, total + framing);
          },
        },
      );
    if (dest !== '') {
      const info = await files.stat(dest).catch((error: FileOpError) => (error.code === 'NOT_FOUND' ? undefined : Promise.reject(error)));
      if (info && info.type !== 'directory') throw new FileOpError('NOT_A_DIRECTORY', `/${dest} is not a directory`);
      if (info) await checkInPlace(files, dest, plan, options.signal);
    } else await checkInPlace(files, dest, plan, options.signal);
    const { free } = await files.space();
    if (total > free) throw new FileOpError('NO_SPACE', `the archive needs ${total} bytes and only ${free} are free`);

    // 2. Write everything into a staging directory inside the destination (one file system: the moves are renames),
    // after removing the ones extractions killed part-way left there.
    await files.sweepStaging(dest, STALE_STAGING_MS).catch(() => undefined);
    if (dest !== '') {
      const segments = dest.split('/');
      for (let i = 1; i <= segments.length; i++) {
        const sub = segments.slice(0, i).join('/');
        if (await mkdirQuiet(files, sub)) made.push(sub);
      }
    }
    const staging = under(dest, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
    if (files.deny.denies(staging, true))
      throw new FileOpError('DENIED', `extracting writes into a staging directory /${staging}, which the server's deny list denies (a pattern such as .*)`);
    await files.mkdir(staging, { mode: 0o700 });
    made.push(staging);
    const staged = new Set<string>();
    const stageDir = async (relative: string) => {
      if (relative === '' || staged.has(relative)) return;
      await stageDir(parentOf(relative));
      await mkdirQuiet(files, `${staging}/${relative}`);
      staged.add(relative);
    };
    let done = 0;
    let written = 0;
    const put = async (entry: ArchiveEntry, data: AsyncIterable<Buffer>) => {
      cancelled(options.signal);
      const relative = memberPath(entry);
      // The archive is read again: one changed since it was checked (rewritten meanwhile) is refused, not trusted.
      if (!zipEntries && firstPass[written] !== memberKey(entry)) throw changedArchive();
      written++;
      if (entry.kind === 'directory') return stageDir(relative);
      await stageDir(parentOf(relative));
      const mode = entry.mode & 0o777 ? entry.mode & 0o755 : undefined;
      const opened = await files.open(`${staging}/${relative}`, { write: true, create: true, truncate: true, ...(mode !== undefined ? { mode } : {}) });
      try {
        let position = 0;
        for await (const chunk of data) {
          done += chunk.length;
          // Counted again as written: a zip entry inflating beyond what the checks added up is stopped.
          if (done > total || done > limits.maxBytes) throw new FileOpError('TOO_LARGE', 'the archive holds more bytes than it declares (refused)');
          for (let at = 0; at < chunk.length; at += MAX_CHUNK) {
            const part = chunk.subarray(at, at + MAX_CHUNK);
            await files.write(opened.handle, position, part);
            position += part.length;
          }
          report(done, total, `extracting ${entry.name}`);
        }
      } finally {
        await files.close(opened.handle);
      }
    };
    if (zipEntries) for (const entry of zipEntries) await put(entry, entry.kind === 'file' ? zipEntryData(readAt, entry, info.size) : emptyData());
    else {
      await readTar(gunzipped(archiveBytes()), put);
      if (written !== firstPass.length) throw changedArchive();
    }

    // 3. All of it is there: move it into place, parents first.
    cancelled(options.signal);
    options.progress?.(done, total, 'moving the extracted files into place');
    for (const [relative, kind] of plan) {
      const target = under(dest, relative);
      if (kind === 'directory') await mkdirQuiet(files, target);
      else await files.rename(`${staging}/${relative}`, target, { overwrite: true });
    }
    succeeded = true;
    options.progress?.(done, total, 'extracted');
    return { entries: written, bytes: done };
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw new FileOpError('TOO_LARGE', error.message);
    if (error instanceof ArchiveFormatError) throw new FileOpError('INVALID', `the archive is damaged or not an archive: ${error.message}`);
    if ((error as { code?: string }).code === 'Z_DATA_ERROR' || (error as { code?: string }).code === 'Z_BUF_ERROR')
      throw new FileOpError('INVALID', `the archive is damaged or not compressed as its name says (${(error as Error).message})`);
    throw error;
  } finally {
    await files.close(handle).catch(() => undefined);
    // The staging directory always goes (after a success only empty directories are left in it); the destination
    // and the parents this extraction made go only after a failure, and only when empty.
    const staging = made.at(-1);
    if (staging?.includes(STAGING_PREFIX)) await files.removeStaging(staging).catch(() => undefined);
    if (!succeeded) for (const dir of made.filter((path) => !path.includes(STAGING_PREFIX)).reverse()) await files.remove(dir).catch(() => undefined);
  }
}

async function* emptyData(): AsyncIterable<Buffer> {}

/** What the two passes over a tar compare of each entry. */
const memberKey = (entry: ArchiveEntry) => `${entry.kind} ${entry.size} ${entry.name}`;
const changedArchive = () =>
  new FileOpError('INVALID', 'the archive changed while it was extracted (its entries differ from those checked): nothing was put in place');

/** The gunzipped bytes of a source. */
function gunzipped(source: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  const feeding = (async () => {
    try {
      for await (const chunk of source) if (!gunzip.write(chunk)) await new Promise((resolve) => gunzip.once('drain', resolve));
      gunzip.end();
    } catch (error) {
      gunzip.destroy(error as Error);
    }
  })();
  return (async function* () {
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
    } finally {
      gunzip.destroy();
      await feeding;
    }
  })();
}
