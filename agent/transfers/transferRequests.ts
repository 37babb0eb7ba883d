/**
 * The agent's side of a transfer between machines (docs/transfers.md). The service runs the transfer and asks each
 * agent over its connection (`transfer` requests answered in the acknowledgement, like the file requests); the two
 * agents never reach each other.
 *
 * Source: `pack` archives the stopped server's directory as its account (a tar.gz, agent/backups/archiver.ts) into
 * `<data-dir>/transfers/<jobId>/server.tar.gz` and lists what is to be copied (the archive, the server's local backups
 * and the notes of its S3 ones), each with its size and SHA-256; `read` answers a chunk of one of them with the chunk's
 * SHA-256. Target: `write` checks a chunk's SHA-256 and writes it at its offset in `<key>.part` (so a chunk sent again
 * after a crash overwrites, never appends twice), `received` answers how much of an item it holds (where a copy
 * resumes), `finish` checks the whole item's SHA-256 and puts it in place: the server's archive extracted as the
 * server's account on this machine (modes kept, links and `..` refused by tar), a backup moved among its backups.
 * `discard` removes what a transfer left (and, on the source after the switch, the server's files and backups).
 *
 * `pack` and `finish` take long: they answer at once (`working`) and are asked again until `ready` or `failed`; an
 * agent restarted in between finds the finished work on its disk (a manifest, a `.done` mark) or starts it again.
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { SAFE_JOB_ID } from '../../schema/agentEvents.ts';
import { prepareServerDir, runAs, type Accounts } from '../servers/accounts.ts';
import { removeServer } from '../servers/removal.ts';
import type { Supervisors } from '../servers/supervisors.ts';
import { backupDirOf } from '../backups/backupJobs.ts';
import { restoreArchive, writeArchive } from '../backups/archiver.ts';

/** gzip level of a transfer's archive: it is only moved, so speed wins over size. */
const TRANSFER_GZIP_LEVEL = 1;
/** The largest chunk a `read` answers (the gateway's frames were at most 256 KiB before this release; a service of that release may ask). */
export const MAX_TRANSFER_CHUNK = 192 * 1024;
const SERVER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ITEM_KEY = /^(server|backup-[0-9a-f-]{36}\.(tar\.gz|s3))$/;

/** The source's files held from its archive to the transfer's end: nothing written after the archive is made is lost. */
export type FileHold = { hold: (serverId: string) => Promise<void>; release: (serverId: string) => void; held: (serverId: string) => boolean };

export type TransferItem = { key: string; kind: 'server' | 'backup'; backupId?: string; sizeBytes: number; sha256: string };
type Answer = Record<string, unknown>;

class TransferError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function hashFile(file: string): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  await pipeline(
    createReadStream(file, { highWaterMark: 1024 * 1024 }),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        sizeBytes += chunk.length;
        done();
      },
    }),
  );
  return { sha256: hash.digest('hex'), sizeBytes };
}

export class TransferRequests {
  readonly #dataDir: string;
  readonly #accounts: Accounts;
  readonly #supervisors: Supervisors;
  /** Long work under way (pack, finish), by `<jobId>/<what>`: its end, or its failure. */
  readonly #work = new Map<string, { done: boolean; error?: TransferError }>();
  /** Open part files of the target, by path: one chunk after another goes to the same descriptor. */
  readonly #parts = new Map<string, Promise<import('node:fs/promises').FileHandle>>();
  /** The last write of each part file, by path: the next waits for it (writes are applied in the order they came). */
  readonly #writing = new Map<string, Promise<unknown>>();

  /** Holds and releases a server's files (file helpers, SFTP sessions) while it is archived and copied. */
  readonly #files: FileHold | undefined;

  constructor(options: { dataDir: string; accounts: Accounts; supervisors: Supervisors; files?: FileHold }) {
    this.#dataDir = options.dataDir;
    this.#accounts = options.accounts;
    this.#supervisors = options.supervisors;
    this.#files = options.files;
  }

  /** Answers one request of the service; a refusal is `{ error: { code, message } }`. */
  async handle(request: Record<string, unknown>, data: Buffer | undefined): Promise<Answer> {
    try {
      const jobId = String(request.jobId ?? '');
      if (!SAFE_JOB_ID.test(jobId)) throw new TransferError('INVALID', 'no valid jobId');
      const serverId = String(request.serverId ?? '');
      if (!SERVER_ID.test(serverId)) throw new TransferError('INVALID', 'no valid serverId');
      const dir = join(this.#dataDir, 'transfers', jobId);
      switch (request.op) {
        case 'space':
          return await this.#space(serverId);
        case 'pack':
          return await this.#pack(jobId, serverId, dir, request.backups);
        case 'read':
          // An agent restarted during the copy holds the files again (the archive was made before).
          if (this.#files && !this.#files.held(serverId)) await this.#files.hold(serverId);
          return await this.#read(serverId, dir, this.#key(request.key), Number(request.offset), Number(request.length));
        case 'received':
          // inOrder: this agent applies an item's writes one after another in the order they came, so the service may
          // send several before the first is acknowledged (older agents did not: the service sends them one at a time).
          return { size: (await stat(join(dir, `${this.#key(request.key)}.part`)).catch(() => undefined))?.size ?? 0, inOrder: true };
        case 'write':
          return await this.#write(dir, this.#key(request.key), Number(request.offset), data, String(request.sha256 ?? ''));
        case 'finish':
          return await this.#finish(jobId, serverId, dir, request);
        case 'discard':
          return await this.#discard(serverId, dir, request);
        default:
          throw new TransferError('INVALID', 'unknown transfer operation');
      }
    } catch (error) {
      const failure = error instanceof TransferError ? error : new TransferError('FAILED', (error as Error).message);
      return { error: { code: failure.code, message: failure.message } };
    }
  }

  #key(value: unknown): string {
    const key = String(value ?? '');
    if (!ITEM_KEY.test(key)) throw new TransferError('INVALID', 'no valid item key');
    return key;
  }

  /** The free bytes where servers and backups are kept, and the server's directory's size here (0 without one). */
  async #space(serverId: string): Promise<Answer> {
    const fs = await statfs(this.#dataDir);
    const serverDir = join(this.#dataDir, 'servers', serverId);
    let usedBytes = 0;
    // du as the server's account: root never walks a tree the game can change. A directory no account owns (none made
    // yet) is not measured here: the service then checks only the free space.
    const account = this.#accounts.enabled ? await this.#accounts.existingFor(serverId) : undefined;
    if ((account || !this.#accounts.enabled) && (await stat(serverDir).catch(() => undefined))) {
      const du = await runAs(account, 'du', ['-s', '-B1', '--apparent-size', '--', serverDir], { output: true });
      usedBytes = Number.parseInt(du.stdout, 10) || 0;
    }
    return { freeBytes: fs.bavail * fs.bsize, usedBytes };
  }

  /** Runs `work` once per `name` while this agent lives; answers its state. */
  #background(name: string, work: () => Promise<void>): Answer {
    const known = this.#work.get(name);
    if (known?.done && !known.error) return { state: 'ready' };
    if (known?.error) {
      this.#work.delete(name);
      return { state: 'failed', error: { code: known.error.code, message: known.error.message } };
    }
    if (known) return { state: 'working' };
    const entry: { done: boolean; error?: TransferError } = { done: false };
    this.#work.set(name, entry);
    work().then(
      () => (entry.done = true),
      (error: unknown) => {
        entry.done = true;
        entry.error = error instanceof TransferError ? error : new TransferError((error as { code?: string }).code ?? 'FAILED', (error as Error).message);
      },
    );
    return { state: 'working' };
  }

  async #pack(jobId: string, serverId: string, dir: string, backups: unknown): Promise<Answer> {
    const manifest = join(dir, 'manifest.json');
    const found = await readFile(manifest, 'utf8').catch(() => undefined);
    if (found) {
      this.#work.delete(`${jobId}/pack`);
      return { state: 'ready', items: JSON.parse(found) as TransferItem[] };
    }
    const wanted = Array.isArray(backups) ? (backups as { id?: unknown; location?: unknown }[]) : [];
    const answer = this.#background(`${jobId}/pack`, async () => {
      const supervisor = this.#supervisors.get(serverId);
      if (supervisor?.running) throw new TransferError('SERVER_RUNNING', `the server is ${supervisor.status}: it must be stopped to be packed`);
      // An install, an update or a restore changing its files: the archive would catch them half-changed.
      if (supervisor?.maintenance)
        throw new TransferError('SERVER_BUSY', `the server's files are being changed (${supervisor.maintenance}): it cannot be packed now`);
      // From here to the transfer's end no file of the server is written here: what is under way (an upload, an SFTP
      // session) is ended before the archive starts, so nothing is written after it and lost.
      await this.#files?.hold(serverId);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const serverDir = join(this.#dataDir, 'servers', serverId);
      // Its account's, made when missing (a server never installed has no directory yet): tar reads as the account,
      // never as root; only the directory itself is touched by root, through a descriptor (prepareServerDir).
      const account = await this.#accounts.forServer(serverId);
      if (account) await prepareServerDir(serverDir, account);
      else await mkdir(serverDir, { recursive: true });
      const archived = await writeArchive({ dir: serverDir, destFile: join(dir, 'server.tar.gz'), account, level: TRANSFER_GZIP_LEVEL });
      const items: TransferItem[] = [{ key: 'server', kind: 'server', sizeBytes: archived.sizeBytes, sha256: archived.sha256 }];
      const backupDir = backupDirOf(this.#dataDir, serverId);
      for (const backup of wanted) {
        const backupId = String(backup.id ?? '');
        if (!SERVER_ID.test(backupId)) continue;
        const file = backup.location === 'S3' ? `${backupId}.s3` : `${backupId}.tar.gz`;
        const path = join(backupDir, file);
        if (!(await stat(path).catch(() => undefined)))
          throw new TransferError('BACKUP_MISSING', `the file of backup ${backupId} is not on the source machine`);
        items.push({ key: `backup-${file}`, kind: 'backup', backupId, ...(await hashFile(path)) });
      }
      await writeFile(`${manifest}.tmp`, JSON.stringify(items), { mode: 0o600 });
      await rename(`${manifest}.tmp`, manifest);
    });
    return answer.state === 'ready' ? this.#pack(jobId, serverId, dir, backups) : answer;
  }

  /** The source's file of an item. */
  #sourceFile(serverId: string, dir: string, key: string): string {
    if (key === 'server') return join(dir, 'server.tar.gz');
    return join(backupDirOf(this.#dataDir, serverId), key.slice('backup-'.length));
  }

  async #read(serverId: string, dir: string, key: string, offset: number, length: number): Promise<Answer> {
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length <= 0 || length > MAX_TRANSFER_CHUNK)
      throw new TransferError('INVALID', 'invalid offset or length');
    const handle = await open(this.#sourceFile(serverId, dir, key), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
      throw new TransferError('NOT_FOUND', `the source no longer has ${key}`);
    });
    try {
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      const data = buffer.subarray(0, bytesRead);
      return { data, sha256: sha256Of(data) };
    } finally {
      await handle.close();
    }
  }

  #part(path: string) {
    let handle = this.#parts.get(path);
    if (!handle) {
      handle = open(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      this.#parts.set(path, handle);
      handle.catch(() => this.#parts.delete(path));
    }
    return handle;
  }

  async #closePart(path: string) {
    const handle = this.#parts.get(path);
    this.#parts.delete(path);
    await (await handle?.catch(() => undefined))?.close().catch(() => undefined);
  }

  /**
   * Writes a chunk after the writes of the same item that came before it (called in the order the requests came, with
   * no wait before it: the service may keep several in flight). One that fails makes those after it fail too (they
   * would leave a hole): the service resumes from what is held.
   */
  #write(dir: string, key: string, offset: number, data: Buffer | undefined, sha256: string): Promise<Answer> {
    const path = join(dir, `${key}.part`);
    const previous = this.#writing.get(path) ?? Promise.resolve();
    const mine = previous.then(
      () => this.#writeNow(dir, key, offset, data, sha256),
      () => this.#writeNow(dir, key, offset, data, sha256),
    );
    this.#writing.set(path, mine);
    const forget = () => {
      if (this.#writing.get(path) === mine) this.#writing.delete(path);
    };
    mine.then(forget, forget);
    return mine;
  }

  async #writeNow(dir: string, key: string, offset: number, data: Buffer | undefined, sha256: string): Promise<Answer> {
    if (!data || !Number.isSafeInteger(offset) || offset < 0) throw new TransferError('INVALID', 'no chunk');
    // Checked before anything is written: a damaged chunk is asked for again, never kept.
    if (sha256Of(data) !== sha256) throw new TransferError('CHUNK_CHECKSUM', `the chunk at ${offset} does not match its SHA-256`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${key}.part`);
    const handle = await this.#part(path);
    const size = (await handle.stat()).size;
    // A chunk past what is held would leave a hole: the service resumes from `size`.
    if (offset > size) throw new TransferError('OUT_OF_ORDER', `the target holds ${size} bytes of ${key}, not ${offset}`);
    try {
      if (offset < size) await handle.truncate(offset);
      await handle.write(data, 0, data.length, offset);
    } catch (error) {
      if (['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? ''))
        throw new TransferError('NO_SPACE', 'no space left on the target machine');
      throw error;
    }
    return { size: offset + data.length };
  }

  async #finish(jobId: string, serverId: string, dir: string, request: Record<string, unknown>): Promise<Answer> {
    const key = this.#key(request.key);
    const expected = String(request.sha256 ?? '');
    const done = join(dir, `${key}.done`);
    if (await stat(done).catch(() => undefined)) return { state: 'ready' };
    // Asked only whether it is in place (a resumed transfer skips what was finished).
    if (request.probe === true) return { state: 'absent' };
    return this.#background(`${jobId}/finish/${key}`, async () => {
      const part = join(dir, `${key}.part`);
      await this.#writing.get(part)?.catch(() => undefined);
      const handle = await this.#part(part);
      await handle.sync();
      await this.#closePart(part);
      // Damaged somewhere: it is copied again from the start.
      const mismatch = async (message: string) => {
        await rm(part, { force: true });
        return new TransferError('CHECKSUM_MISMATCH', `the copy of ${key}: ${message}`);
      };
      if (key === 'server') {
        if (this.#supervisors.get(serverId)?.running) throw new TransferError('SERVER_RUNNING', 'the server runs on the target machine');
        const account = await this.#accounts.forServer(serverId);
        // The archive is hashed while tar extracts it (one read, not two) into a directory of its own, which takes the
        // server's place only when the whole archive's SHA-256 matched.
        try {
          await restoreArchive({ source: { file: part }, expectedSha256: expected, dir: join(this.#dataDir, 'servers', serverId), account });
        } catch (error) {
          if ((error as { code?: string }).code === 'CHECKSUM_MISMATCH') throw await mismatch((error as Error).message);
          throw error;
        }
      } else {
        const { sha256 } = await hashFile(part);
        if (sha256 !== expected) throw await mismatch(`its SHA-256 ${sha256} is not the source's ${expected}`);
        const backupDir = backupDirOf(this.#dataDir, serverId);
        await mkdir(backupDir, { recursive: true, mode: 0o700 });
        await rename(part, join(backupDir, key.slice('backup-'.length)));
      }
      await writeFile(done, '', { mode: 0o600 });
    });
  }

  /**
   * Removes the transfer's own files; with `removeServer`, the server's directory and account here (not while this
   * agent runs it), and the files of the backups named in `removeBackups`.
   */
  async #discard(serverId: string, dir: string, request: Record<string, unknown>): Promise<Answer> {
    this.#files?.release(serverId);
    for (const path of [...this.#parts.keys()].filter((path) => path.startsWith(`${dir}/`))) await this.#closePart(path);
    if (request.removeServer === true) {
      if (this.#supervisors.has(serverId)) throw new TransferError('SERVER_HERE', 'this machine runs the server: its files stay');
      await removeServer(this.#dataDir, serverId, this.#accounts);
    }
    const backups = Array.isArray(request.removeBackups) ? request.removeBackups.map(String).filter((id) => SERVER_ID.test(id)) : [];
    for (const backupId of backups) {
      for (const file of [`${backupId}.tar.gz`, `${backupId}.s3`]) await rm(join(backupDirOf(this.#dataDir, serverId), file), { force: true });
    }
    await rm(dir, { recursive: true, force: true });
    return { ok: true };
  }
}
