/**
 * BACKUP and RESTORE jobs, and the removal of backups the service no longer has (docs/installs-and-backups.md).
 *
 * A backup is `<data-dir>/backups/<serverId>/<backupId>.tar.gz` (the agent's own directory: the game's account cannot
 * reach it), made by archive.ts as the server's account. A running MINECRAFT server is flushed first with saving
 * paused (`save-off`, `save-all flush`, then `save-on` whatever happens), so the archive is consistent; another running
 * game, or a MINECRAFT server that does not answer `save-off`, is archived live: the backup says `consistent: false` and
 * the job's result `inconsistentReason` says why (with `requireConsistent: true` the backup fails instead). With an S3 target the archive is uploaded, a small
 * `<backupId>.s3` note takes its place, and the local copy is removed.
 *
 * The service owns the list of backups (retention, deletion): each `servers:sync` names the ids of a server's
 * backups, and the agent removes the archives of any other, leaving alone those made in the last minute (a sync read
 * before a new backup's row existed can arrive after the archive).
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareServerDir, type Account } from '../servers/accounts.ts';
import type { ServerSupervisor } from '../servers/serverSupervisor.ts';
import { JobError } from '../jobs/jobRunner.ts';
import { ArchiveError, restoreArchive, writeArchive } from './archiver.ts';
import { S3Client, S3Error, type S3Target } from './s3Client.ts';

/** Backups younger than this are never removed for being absent from a sync. */
const PRUNE_MIN_AGE_MS = 60_000;
const BACKUP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A partial archive untouched this long is left over from an agent that stopped while writing it. */
const STALE_PARTIAL_MS = 10 * 60_000;
/** How long a MINECRAFT server may take to answer `save-all flush` by default (the agent's flushTimeoutMs). */
const FLUSH_TIMEOUT_MS = 120_000;

export type BackupSettings = { dataDir: string; s3?: S3Target; flushTimeoutMs?: number };
type Note = { key: string; sizeBytes: number; sha256: string };

export const backupDirOf = (dataDir: string, serverId: string) => join(dataDir, 'backups', serverId);
/** The object's key under the target's prefix. */
const s3Key = (serverId: string, backupId: string) => `${serverId}/${backupId}.tar.gz`;

function asJobError(error: unknown, fallback: string): JobError {
  if (error instanceof JobError) return error;
  if (error instanceof ArchiveError) return new JobError(error.code, error.message);
  if (error instanceof S3Error) return new JobError(`S3_${error.code}`.slice(0, 64), `S3: ${error.message}`);
  return new JobError(fallback, (error as Error).message);
}

/** Why an archive of a running server is not consistent (undefined: it is). */
type Inconsistency = string | undefined;

/**
 * Pauses a running MINECRAFT server's saving around `work` after flushing it. When saving cannot be paused (it does
 * not answer `save-off`: a modded or filtered console) the archive is made anyway, unflushed, and `work` is told why it
 * is not consistent, unless `requireConsistent`: then the backup fails, saying why. A flush that does not end in time
 * fails the backup: the game is writing its world at that moment, and an archive then would be torn, not just stale.
 */
async function withSavingPaused<T>(
  supervisor: ServerSupervisor,
  requireConsistent: boolean,
  flushTimeoutMs: number,
  work: (inconsistency: Inconsistency) => Promise<T>,
): Promise<T> {
  const live = (reason: string) => {
    if (requireConsistent) throw new JobError('NOT_CONSISTENT', `${reason}; requireConsistent asks for a consistent backup: stop the server first`);
    return work(reason);
  };
  if (!supervisor.running) return work(undefined);
  if (supervisor.config.gameType !== 'MINECRAFT' || supervisor.status !== 'ONLINE')
    return live(`archived while the ${supervisor.config.gameType} server was ${supervisor.status} (it cannot be flushed)`);
  const channel = supervisor.channel;
  const saveOn = async () => {
    if (supervisor.running) await supervisor.channel.command('save-on', /Automatic saving is now enabled|Saving is already turned on/).catch(() => undefined);
  };
  try {
    await channel.command('save-off', /Automatic saving is now disabled|Saving is already turned off/);
  } catch (error) {
    await channel.command('save-on').catch(() => undefined);
    return live(`the world could not be flushed (${(error as Error).message}): archived while the game was writing`);
  }
  try {
    // A big world takes a while to flush: minutes, not the console's usual seconds.
    await channel.command('save-all flush', /Saved the game/, flushTimeoutMs);
  } catch (error) {
    await saveOn();
    throw new JobError('FLUSH_FAILED', `the world was not flushed (${(error as Error).message}); automatic saving is on again; nothing was archived`);
  }
  try {
    return await work(undefined);
  } finally {
    await saveOn();
  }
}

export async function runBackupJob(
  supervisor: ServerSupervisor,
  params: Record<string, unknown>,
  options: BackupSettings & { account: Account | undefined; signal: AbortSignal; progress: (percent: number | null, message: string) => void },
): Promise<Record<string, unknown>> {
  const backupId = String(params.backupId ?? '');
  if (!BACKUP_ID.test(backupId)) throw new JobError('INVALID_JOB', 'the job names no backup');
  const serverId = supervisor.config.id;
  const dir = backupDirOf(options.dataDir, serverId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${backupId}.tar.gz`);
  // A server never started has no directory yet: made as the game would have it (its account's, closed to others).
  if (options.account) await prepareServerDir(supervisor.dir, options.account);
  else await mkdir(supervisor.dir, { recursive: true });
  try {
    options.progress(null, supervisor.running ? 'archiving the running server' : 'archiving');
    const { archived, inconsistency } = await withSavingPaused(
      supervisor,
      params.requireConsistent === true,
      options.flushTimeoutMs ?? FLUSH_TIMEOUT_MS,
      async (inconsistency) => ({
        archived: await writeArchive({
          dir: supervisor.dir,
          destFile: file,
          account: options.account,
          signal: options.signal,
          skip: supervisor.config.template?.backupSkip ?? [],
        }),
        inconsistency,
      }),
    );
    const result = {
      backupId,
      sizeBytes: archived.sizeBytes,
      sha256: archived.sha256,
      consistent: inconsistency === undefined,
      ...(inconsistency === undefined ? {} : { inconsistentReason: inconsistency }),
    };
    if (!options.s3) return { ...result, location: 'LOCAL', message: inconsistency === undefined ? 'backed up' : 'backed up, not consistent' };
    options.progress(null, 'uploading to S3');
    const key = s3Key(serverId, backupId);
    await new S3Client(options.s3).putFile(key, file, archived.sizeBytes, archived.sha256, options.signal);
    const note: Note = { key, sizeBytes: archived.sizeBytes, sha256: archived.sha256 };
    await writeFile(join(dir, `${backupId}.s3`), JSON.stringify(note), { mode: 0o600 });
    await rm(file, { force: true });
    return { ...result, location: 'S3', message: inconsistency === undefined ? 'backed up to S3' : 'backed up to S3, not consistent' };
  } catch (error) {
    await rm(file, { force: true });
    throw asJobError(error, 'BACKUP_FAILED');
  }
}

export async function runRestoreJob(
  supervisor: ServerSupervisor,
  params: Record<string, unknown>,
  options: BackupSettings & { account: Account | undefined; signal: AbortSignal; progress: (percent: number | null, message: string) => void },
): Promise<Record<string, unknown>> {
  const backupId = String(params.backupId ?? '');
  const sha256 = String(params.sha256 ?? '');
  if (!BACKUP_ID.test(backupId) || !/^[0-9a-f]{64}$/.test(sha256)) throw new JobError('INVALID_JOB', 'the job names no completed backup');
  if (supervisor.running || supervisor.status === 'STARTING')
    throw new JobError('SERVER_RUNNING', `the server is ${supervisor.status}: stop it before restoring`);
  const dir = backupDirOf(options.dataDir, supervisor.config.id);
  try {
    return await supervisor.maintain('RESTORE', async () => {
      let source: NodeJS.ReadableStream | { file: string };
      if (params.location === 'S3') {
        if (!options.s3) throw new JobError('BACKUP_MISSING', 'the backup is in S3, and this agent has no S3 target configured');
        const note = JSON.parse(await readFile(join(dir, `${backupId}.s3`), 'utf8').catch(() => '{}')) as Partial<Note>;
        options.progress(null, 'downloading from S3');
        source = await new S3Client(options.s3).getStream(note.key ?? s3Key(supervisor.config.id, backupId), options.signal);
      } else {
        const file = join(dir, `${backupId}.tar.gz`);
        if (!(await stat(file).catch(() => undefined))) throw new JobError('BACKUP_MISSING', `the archive of backup ${backupId} is not on this machine`);
        source = { file };
      }
      options.progress(null, 'restoring');
      await restoreArchive({ source, expectedSha256: sha256, dir: supervisor.dir, account: options.account, signal: options.signal });
      return { backupId, message: 'restored' };
    });
  } catch (error) {
    throw asJobError(error, 'RESTORE_FAILED');
  }
}

/** Removes the archives (and S3 objects) of this server's backups that the service no longer lists. */
export async function pruneBackups(settings: BackupSettings, serverId: string, keep: ReadonlySet<string>, now = Date.now()): Promise<string[]> {
  const dir = backupDirOf(settings.dataDir, serverId);
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    // An archive an agent was writing when it stopped: no longer written to for a while, it will never be finished.
    if (name.endsWith('.partial')) {
      const info = await stat(join(dir, name)).catch(() => undefined);
      if (info && now - info.mtimeMs > STALE_PARTIAL_MS) await rm(join(dir, name), { force: true });
      continue;
    }
    const match = /^([0-9a-f-]{36})\.(tar\.gz|s3)$/.exec(name);
    if (!match || keep.has(match[1]!)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info || now - info.mtimeMs < PRUNE_MIN_AGE_MS) continue;
    if (match[2] === 's3') {
      if (!settings.s3) continue; // kept until the agent can reach the storage again
      const note = JSON.parse(await readFile(path, 'utf8').catch(() => '{}')) as Partial<Note>;
      if (note.key) await new S3Client(settings.s3).delete(note.key);
    }
    await rm(path, { force: true });
    removed.push(match[1]!);
  }
  return removed;
}
