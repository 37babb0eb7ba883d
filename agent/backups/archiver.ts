/**
 * Backup archives of a server's directory (docs/installs-and-backups.md): a gzip-compressed tar, streamed, never held
 * in memory.
 *
 * The machine's own `tar` reads and writes the files, as the server's account (when the agent is root and the server
 * has one): a game that swaps a directory for a symbolic link can then never make the agent read or write anything
 * its own account could not. tar stores links as links (never follows them), refuses `..` and absolute member names
 * when extracting, and writes nothing through a link it extracted. Compression and the SHA-256 are the agent's, on the
 * stream between its file and tar, so the checksum covers exactly the bytes stored.
 *
 * - writeArchive: tar → gzip → SHA-256 → `<dest>.partial`, fsynced, renamed to `<dest>` only when whole. A full disk is
 *   `DISK_FULL`; any failure leaves nothing at either name.
 * - restoreArchive: source → SHA-256 → tar (with its gzip) extracting into a new directory beside the server's. Only when the
 *   extraction succeeded and the checksum matches is the server's directory renamed aside, the new one renamed into
 *   place, and the old one removed; otherwise the server's directory is untouched and the new one removed.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { chown, mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { removeTree } from '../servers/accounts.ts';
import { trackAccountWork } from '../runtime/processRuntime.ts';
import { SkippedPaths } from './backupSkip.ts';

export type ArchiveAccount = { uid: number; gid: number } | undefined;
export type ArchiveErrorCode = 'DISK_FULL' | 'ARCHIVE_FAILED' | 'CHECKSUM_MISMATCH' | 'RESTORE_FAILED' | 'CANCELLED';

export class ArchiveError extends Error {
  readonly code: ArchiveErrorCode;
  constructor(code: ArchiveErrorCode, message: string) {
    super(message);
    this.name = 'ArchiveError';
    this.code = code;
  }
}

/** gzip's own default: the same trade of size for speed as `tar -czf`. */
const GZIP_LEVEL = 6;
const CHUNK = 256 * 1024;
/** tar's messages kept for an error (the last ones say why). */
const STDERR_KEEP = 4096;
const NO_SPACE = /No space left on device|Disk quota exceeded/i;

const isDiskFull = (error: unknown) => ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException)?.code ?? '');

/** Counts and hashes what passes. */
function tally() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    highWaterMark: CHUNK,
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, digest: () => ({ sha256: hash.digest('hex'), bytes }) };
}

/** Runs `command` (tar, find) as `account`; its stdio, its stderr's tail, and its end. */
function asAccount(command: 'tar' | 'find', args: string[], account: ArchiveAccount, io: { input?: boolean | number; signal?: AbortSignal }) {
  const child = spawn(command, args, {
    stdio: [typeof io.input === 'number' ? io.input : io.input ? 'pipe' : 'ignore', io.input !== undefined ? 'ignore' : 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-STDERR_KEEP)));
  const onAbort = () => child.kill('SIGKILL');
  io.signal?.addEventListener('abort', onAbort, { once: true });
  const ended = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  }).finally(() => io.signal?.removeEventListener('abort', onAbort));
  // A crash of the game must not kill this tar (or find) with the rest of the account's processes (processRuntime.ts).
  if (account) trackAccountWork(account.uid, ended);
  return { child, ended, stderr: () => stderr.trim() };
}

/**
 * The paths under `dir` that `patterns` skip (backupSkip.ts), listed by `find` **as the server's account** (root never
 * walks a server's tree by path): links are not followed, names are NUL-separated (a newline is a name's own), a
 * directory comes before its content. An unreadable directory is passed over (tar says what it cannot read).
 */
async function skippedPaths(dir: string, patterns: readonly string[], account: ArchiveAccount, signal?: AbortSignal): Promise<string[]> {
  const skipped = new SkippedPaths(patterns);
  if (skipped.empty) return [];
  const run = asAccount('find', ['-P', dir, '-mindepth', '1', '-printf', '%y%P\\0'], account, { signal });
  let rest: Buffer = Buffer.alloc(0);
  run.child.stdout!.on('data', (chunk: Buffer) => {
    let data: Buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    for (let end = data.indexOf(0); end !== -1; end = data.indexOf(0)) {
      // `%y`: one letter of the entry's type (`d` a directory), then `%P`: its path relative to `dir`.
      skipped.add(data.subarray(1, end).toString('utf8'), data[0] === 0x64);
      data = data.subarray(end + 1);
    }
    rest = data;
  });
  const ended = await run.ended;
  if (signal?.aborted) throw new ArchiveError('CANCELLED', 'the backup was cancelled');
  // 1: some directory could not be read; its content goes unlisted, as tar will say.
  if (ended.error || (ended.code !== 0 && ended.code !== 1))
    throw new ArchiveError(
      'ARCHIVE_FAILED',
      `the files to leave out could not be listed: ${ended.error?.message ?? (lastLine(run.stderr()) || `find exit ${ended.code}`)}`,
    );
  return skipped.paths;
}

/** tar's first complaint (its last line only says it failed "due to previous errors"). */
const lastLine = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '' && !/Exiting with failure status/.test(line))
    .slice(0, 2)
    .join('; ');

export async function writeArchive(options: {
  dir: string;
  destFile: string;
  account: ArchiveAccount;
  signal?: AbortSignal;
  exclude?: string[];
  /** gzip's level (default GZIP_LEVEL): a transfer, which only moves the archive, takes the fastest. */
  level?: number;
  /** gitignore-style patterns of what to leave out (the template's `files.backupSkip`, backupSkip.ts). */
  skip?: readonly string[];
}): Promise<{ sizeBytes: number; sha256: string }> {
  const partial = `${options.destFile}.partial`;
  // --ignore-failed-read: a file the game deletes while it is read is skipped, not fatal (a live archive).
  const args = ['--create', '--file=-', '--format=posix', `--directory=${options.dir}`, '--ignore-failed-read', '--warning=no-file-changed'];
  for (const path of options.exclude ?? []) args.push(`--exclude=./${path}`);
  // The skipped paths as exact names (a `*` or `[` in a file's name is not a pattern to tar).
  const skipped = await skippedPaths(options.dir, options.skip ?? [], options.account, options.signal);
  if (skipped.length > 0) args.push('--anchored', '--no-wildcards', ...skipped.map((path) => `--exclude=./${path}`));
  args.push('.');
  const counted = tally();
  let run: ReturnType<typeof asAccount> | undefined;
  try {
    // O_NOFOLLOW: the name is the agent's own, never a link someone prepared.
    const file = await open(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    const out = file.createWriteStream({ highWaterMark: CHUNK });
    // Its output is piped in the same tick it is spawned: Node discards what a child printed if nobody read it by the
    // time it exited (a small directory is archived that fast).
    run = asAccount('tar', args, options.account, { signal: options.signal });
    const written = pipeline(run.child.stdout!, createGzip({ level: options.level ?? GZIP_LEVEL, chunkSize: CHUNK }), counted.stream, out);
    const [ended] = await Promise.all([run.ended, written]);
    if (options.signal?.aborted) throw new ArchiveError('CANCELLED', 'the backup was cancelled');
    if (ended.error) throw new ArchiveError('ARCHIVE_FAILED', `tar could not run: ${ended.error.message}`);
    // 1: files changed while they were read (a live archive); 2 and more: fatal.
    if (ended.code !== 0 && ended.code !== 1) {
      const message = run.stderr();
      if (NO_SPACE.test(message)) throw new ArchiveError('DISK_FULL', `no space left while archiving: ${lastLine(message)}`);
      throw new ArchiveError('ARCHIVE_FAILED', `tar failed (exit ${ended.code}): ${lastLine(message) || 'no message'}`);
    }
    // On the disk before it has its name: a crash right after never leaves a backup that is not whole.
    const handle = await open(partial, constants.O_RDONLY | constants.O_NOFOLLOW);
    await handle.sync().finally(() => handle.close());
    await rename(partial, options.destFile);
    const { sha256, bytes } = counted.digest();
    return { sizeBytes: bytes, sha256 };
  } catch (error) {
    run?.child.kill('SIGKILL');
    await rm(partial, { force: true });
    if (error instanceof ArchiveError) throw error;
    if (options.signal?.aborted) throw new ArchiveError('CANCELLED', 'the backup was cancelled');
    if (isDiskFull(error)) throw new ArchiveError('DISK_FULL', `no space left on the disk of ${dirname(options.destFile)} for the backup`);
    throw new ArchiveError('ARCHIVE_FAILED', `the backup could not be written: ${(error as Error).message}`);
  }
}

export async function restoreArchive(options: {
  /** The archive: a stream (S3), or a file of the agent's, which tar then reads itself while the agent hashes it. */
  source: Readable | NodeJS.ReadableStream | { file: string };
  expectedSha256: string;
  dir: string;
  account: ArchiveAccount;
  signal?: AbortSignal;
}): Promise<void> {
  const suffix = randomBytes(6).toString('hex');
  const fresh = join(dirname(options.dir), `.${basename(options.dir)}.restore-${suffix}`);
  const aside = join(dirname(options.dir), `.${basename(options.dir)}.old-${suffix}`);
  await mkdir(fresh, { mode: 0o700 });
  let archiveFile: FileHandle | undefined;
  try {
    if (options.account) await chown(fresh, options.account.uid, options.account.gid);
    // --no-same-owner: the files belong to whoever extracts them (the server's account), never to uids in the archive.
    const args = ['--extract', '--gzip', '--file=-', `--directory=${fresh}`, '--no-same-owner', '--delay-directory-restore'];
    const fromFile = 'file' in options.source ? options.source.file : undefined;
    let read: { sha256: string; error?: unknown; extractError?: unknown };
    let run: ReturnType<typeof asAccount>;
    if (fromFile) {
      // tar reads the agent's file through the descriptor it is given (the server's account could not open it), and
      // the agent hashes the same file beside it: no copy through the agent, the two run in parallel.
      archiveFile = await open(fromFile, constants.O_RDONLY | constants.O_NOFOLLOW);
      run = asAccount('tar', args, options.account, { input: archiveFile.fd, signal: options.signal });
      const counted = tally();
      let error: unknown;
      await pipeline(createReadStream(fromFile, { highWaterMark: CHUNK }), counted.stream, new Writable({ write: (_chunk, _encoding, done) => done() })).catch(
        (failure: unknown) => (error = failure),
      );
      await run.ended;
      read = { sha256: counted.digest().sha256, error };
    } else {
      run = asAccount('tar', args, options.account, { input: true, signal: options.signal });
      read = await feed(options.source as Readable, run);
    }
    const ended = await run.ended;
    if (options.signal?.aborted) throw new ArchiveError('CANCELLED', 'the restore was cancelled');
    if (read.error) throw new ArchiveError('RESTORE_FAILED', `the archive could not be read: ${(read.error as Error).message}`);
    if (read.sha256 !== options.expectedSha256)
      throw new ArchiveError('CHECKSUM_MISMATCH', `the archive's SHA-256 ${read.sha256} is not the backup's ${options.expectedSha256}: it is damaged`);
    if (ended.error) throw new ArchiveError('RESTORE_FAILED', `tar could not run: ${ended.error.message}`);
    // tar stops reading at the archive's end marker, before gzip's padding: a closed input is no failure when tar succeeded.
    if (ended.code !== 0) {
      const message = run.stderr();
      if (NO_SPACE.test(message)) throw new ArchiveError('DISK_FULL', `no space left while restoring: ${lastLine(message)}`);
      const why = lastLine(message) || (read.extractError as Error | undefined)?.message || 'no message';
      throw new ArchiveError('RESTORE_FAILED', `the archive could not be extracted (tar exit ${ended.code}): ${why}`);
    }
    // The swap: the current directory stays until the restored one is in its place.
    const existed = await stat(options.dir).then(
      () => true,
      () => false,
    );
    if (existed) await rename(options.dir, aside);
    try {
      await rename(fresh, options.dir);
    } catch (error) {
      if (existed) await rename(aside, options.dir);
      throw error;
    }
    // The old files are the account's, and may be changed by it while they go: removed as the account (removeTree).
    await removeTree(aside);
  } catch (error) {
    await archiveFile?.close().catch(() => undefined);
    archiveFile = undefined;
    await removeTree(fresh).catch(() => undefined);
    if (error instanceof ArchiveError) throw error;
    if (isDiskFull(error)) throw new ArchiveError('DISK_FULL', `no space left on the disk of ${options.dir} for the restore`);
    if (options.signal?.aborted) throw new ArchiveError('CANCELLED', 'the restore was cancelled');
    throw new ArchiveError('RESTORE_FAILED', `the restore failed: ${(error as Error).message}`);
  } finally {
    await archiveFile?.close().catch(() => undefined);
  }
}

/**
 * Feeds a stream to tar's standard input through the checksum. The whole source is hashed even when tar gives up early
 * (a damaged archive is then told as such): past a failure of tar's, what is left is only hashed.
 */
async function feed(source: Readable, run: ReturnType<typeof asAccount>): Promise<{ sha256: string; error?: unknown; extractError?: unknown }> {
  const counted = tally();
  const input = run.child.stdin!;
  let extractError: unknown;
  input.on('error', (error) => (extractError ??= error));
  const sink = new Writable({
    highWaterMark: CHUNK,
    write(chunk: Buffer, _encoding, done) {
      if (extractError !== undefined || input.destroyed) return done();
      if (input.write(chunk)) return done();
      const go = () => {
        input.off('drain', go);
        input.off('close', go);
        done();
      };
      input.on('drain', go);
      input.on('close', go);
    },
    final(done) {
      if (!input.destroyed) input.end();
      done();
    },
  });
  let error: unknown;
  await pipeline(source, counted.stream, sink).catch((failure: unknown) => {
    error = failure;
    run.child.kill('SIGKILL');
  });
  return { sha256: counted.digest().sha256, error, extractError };
}

/**
 * After a restart: finishes what a restore interrupted by the agent stopping left in `serversDir`. A server directory
 * renamed aside whose replacement never arrived is put back; otherwise the aside copy is removed, and so is any
 * half-extracted one.
 */
export async function recoverInterruptedRestores(serversDir: string): Promise<string[]> {
  const recovered: string[] = [];
  const names = await readdir(serversDir).catch(() => [] as string[]);
  for (const name of names) {
    const match = /^\.(.+)\.(restore|old)-[0-9a-f]{12}$/.exec(name);
    if (!match) continue;
    const path = join(serversDir, name);
    const original = join(serversDir, match[1]!);
    if (match[2] === 'old' && !(await stat(original).catch(() => undefined))) {
      await rename(path, original);
      recovered.push(match[1]!);
    } else await removeTree(path);
  }
  return recovered;
}
