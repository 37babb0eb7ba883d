/**
 * The agent's durable memory of finished jobs, under `<dataDir>/jobs/`:
 * - `outbox/<jobId>.json`: results the service has not acknowledged yet. They are re-sent after every reconnect
 *   (docs/agent-protocol.md: at least once), so a result written here is never lost to a dropped connection or a restart.
 * - `done/<jobId>.json`: acknowledged results. Acknowledging renames the file from outbox/ to done/ (atomic), and
 *   done/ is what makes a job re-delivered later (the service's own at-least-once retry) a duplicate instead of a
 *   second run. It is pruned only for records both older than `keepMs` (7 days) and beyond the newest `keepEntries`
 *   (10,000), so both bounds are minimums. A job re-delivered after its record is gone would be past its deadline
 *   by then and so refused as EXPIRED, never run again.
 *
 * Every file is written to `<name>.tmp`, fsynced, then renamed: a crash leaves either the whole old state or the whole
 * new file, plus at worst a stray .tmp that `open()` removes. Only the job id and finish time of done/ records stay
 * in memory; their results are read back from disk on the rare duplicate.
 */
import { chmod, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
// Job ids become file names: only SAFE_JOB_ID's characters (UUIDs and the like) can never escape the directory.
import { SAFE_JOB_ID } from '../../schema/agentEvents.ts';

export type JobResultEvent = {
  jobId: string;
  status: 'SUCCEEDED' | 'FAILED';
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
  finishedAt: string;
};

export interface OutboxOptions {
  now?: () => number;
  /** Minimum age before an acknowledged record may be pruned; default 7 days. */
  keepMs?: number;
  /** Minimum number of acknowledged records kept whatever their age; default 10,000. */
  keepEntries?: number;
}

export class Outbox {
  readonly #outboxDir: string;
  readonly #doneDir: string;
  readonly #now: () => number;
  readonly #keepMs: number;
  readonly #keepEntries: number;
  /** Unacknowledged results in the order they were produced (their files carry `seq`, as finish times can tie). */
  readonly #pending = new Map<string, JobResultEvent>();
  /** Acknowledged job ids → finish time (ms), roughly oldest first, which is the order pruning walks. */
  readonly #done = new Map<string, number>();
  #seq = 0;

  /** Creates the directories, removes .tmp leftovers of a crash and loads what is on disk. */
  static async open(jobsDir: string, options: OutboxOptions = {}): Promise<Outbox> {
    // Results name servers, players and errors: root's alone (0700/0600), also on installations made before that rule.
    await mkdir(jobsDir, { recursive: true, mode: 0o700 });
    await chmod(jobsDir, 0o700);
    const outbox = new Outbox(jobsDir, options);
    await outbox.#load();
    return outbox;
  }

  private constructor(jobsDir: string, options: OutboxOptions) {
    this.#outboxDir = join(jobsDir, 'outbox');
    this.#doneDir = join(jobsDir, 'done');
    this.#now = options.now ?? Date.now;
    this.#keepMs = options.keepMs ?? 7 * 24 * 3600_000;
    this.#keepEntries = options.keepEntries ?? 10_000;
  }

  async #load(): Promise<void> {
    const pending: Stored[] = [];
    const done: Stored[] = [];
    for (const [dir, into] of [
      [this.#outboxDir, 'pending'],
      [this.#doneDir, 'done'],
    ] as const) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      for (const name of await readdir(dir)) {
        const path = join(dir, name);
        await chmod(path, 0o600).catch(() => undefined);
        // A .tmp file is a write that never reached its rename: the result it held was never sent, nor acknowledged.
        if (name.endsWith('.tmp')) {
          await unlink(path).catch(() => undefined);
          continue;
        }
        if (!name.endsWith('.json') || !SAFE_JOB_ID.test(name.slice(0, -5))) continue;
        const stored = await readStored(path);
        if (!stored) continue; // unreadable (disk damage, hand edits): left for an operator, never half-trusted
        (into === 'pending' ? pending : done).push(stored);
        this.#seq = Math.max(this.#seq, stored.seq);
      }
    }
    for (const { event } of pending.sort(bySeq)) this.#pending.set(event.jobId, event);
    for (const { event } of done.sort(bySeq)) {
      if (!this.#pending.has(event.jobId)) this.#done.set(event.jobId, Date.parse(event.finishedAt));
    }
    await this.#prune();
  }

  /** Whether the job finished (acknowledged or not) within what is remembered. */
  has(jobId: string): boolean {
    return this.#pending.has(jobId) || this.#done.has(jobId);
  }

  /** The stored result of a finished job, or undefined when it is not known (or its file became unreadable). */
  async get(jobId: string): Promise<JobResultEvent | undefined> {
    if (this.#pending.has(jobId)) return this.#pending.get(jobId);
    if (!this.#done.has(jobId)) return undefined;
    return (await readStored(join(this.#doneDir, `${jobId}.json`)))?.event;
  }

  /** Unacknowledged results, oldest first. */
  pending(): JobResultEvent[] {
    return [...this.#pending.values()];
  }

  /**
   * Stores a result durably. It is remembered in memory first, so even when the disk write fails (disk full) it is
   * still re-sent for as long as this process lives; the write error is rethrown for the caller to report.
   */
  async put(event: JobResultEvent): Promise<void> {
    this.#pending.set(event.jobId, event);
    const stored: Stored = { seq: ++this.#seq, event };
    await writeAtomically(join(this.#outboxDir, `${event.jobId}.json`), JSON.stringify(stored));
  }

  /** The service stored the result: move it to done/. A repeated or unknown acknowledgement changes nothing. */
  async acknowledge(jobId: string): Promise<void> {
    const event = this.#pending.get(jobId);
    if (!event || !SAFE_JOB_ID.test(jobId)) return;
    this.#pending.delete(jobId);
    this.#done.set(jobId, Date.parse(event.finishedAt));
    try {
      await rename(join(this.#outboxDir, `${jobId}.json`), join(this.#doneDir, `${jobId}.json`));
      await syncDirectory(this.#outboxDir);
    } catch (error) {
      // Not on disk (its write failed earlier): the in-memory record still prevents a second run in this process.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await this.#prune();
  }

  async #prune(): Promise<void> {
    const cutoff = this.#now() - this.#keepMs;
    for (const [jobId, at] of this.#done) {
      if (this.#done.size <= this.#keepEntries || at > cutoff) break;
      this.#done.delete(jobId);
      await unlink(join(this.#doneDir, `${jobId}.json`)).catch(() => undefined);
    }
  }
}

/** A file's content: the event exactly as sent (the service's schema is strict) and its place in the order. */
type Stored = { seq: number; event: JobResultEvent };
const bySeq = (a: Stored, b: Stored) => a.seq - b.seq;

async function readStored(path: string): Promise<Stored | undefined> {
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as Stored;
    const { seq, event } = stored ?? {};
    return Number.isSafeInteger(seq) && typeof event?.jobId === 'string' && !Number.isNaN(Date.parse(event.finishedAt)) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** temp file + fsync + rename (+ directory fsync, so the rename itself survives a power cut). */
async function writeAtomically(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`;
  const file = await open(tmp, 'w', 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
  await syncDirectory(join(path, '..'));
}

async function syncDirectory(dir: string): Promise<void> {
  // Directories cannot be opened for fsync on every platform (Windows); there the rename is as durable as it gets.
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}
