/**
 * Read-ahead for SFTP downloads (docs/sftp.md#throughput). A client such as OpenSSH's `get` asks for a file in READs
 * of 32 KiB at increasing offsets, up to 64 at once; each was a round trip to the file helper (a frame each way over
 * its pipe, and a wake-up of each process). A handle read in that order is read from the helper in blocks of
 * BLOCK_BYTES instead, and its READs are answered from the block (a view of it, not a copy): one round trip for
 * eight READs.
 *
 * Bounds and freshness:
 * - only a READ that continues the previous one starts a block; any other is read directly, as before;
 * - a block is used for at most FRESH_MS after it was read (a monotonic clock), and never past the end of the file it
 *   saw: a READ that starts beyond a short block's bytes (the file ended there) is read directly, so a file that grew
 *   is read as it is now; one that starts inside them is answered with the bytes there, as a read racing the growth
 *   would be;
 * - blocks behind the one being read are dropped; a session holds at most SESSION_BLOCKS blocks (READs past that are
 *   read directly), so a client opening many handles cannot make the agent hold more than SESSION_BLOCKS × BLOCK_BYTES
 *   at rest (blocks being read when they are dropped are bounded by the READs in flight, as direct reads are);
 * - a failed block read is dropped and the READ read directly (which answers the helper's error);
 * - a WRITE through the session drops the blocks of the readers of the same path when it is asked for and again when
 *   it is done (`changed`), so a READ sent after the WRITE's answer never sees the bytes before it. Other changes
 *   (renames, removals, a new file renamed into place by `put` or the API) do not change the bytes an open handle
 *   reads, and writers outside the session (the game server itself) are seen within FRESH_MS, as with any read racing
 *   them;
 * - a reader whose handle was closed (`forget`) reads directly.
 */

/** Bytes read from the helper at once for a sequential reader. */
export const BLOCK_BYTES = 256 * 1024;
/** How long a block read from the file may answer READs. */
export const FRESH_MS = 1_000;
/** Blocks one session may hold at once (all its handles together). */
export const SESSION_BLOCKS = 16;

type Block = { index: number; readAt: number; data: Promise<Buffer | undefined> };
export type ReadBytes = (position: number, length: number) => Promise<Buffer>;

/** The blocks of one SFTP session, shared by its handles' readers. */
export class ReadAheadSession {
  #held = 0;
  readonly #readers = new Set<HandleReader>();

  /** A reader for one open handle of `path`; `readBytes` reads from the helper. */
  reader(path: string, readBytes: ReadBytes, now: () => number = () => performance.now()): HandleReader {
    const reader = new HandleReader(this, path, readBytes, now);
    this.#readers.add(reader);
    return reader;
  }

  /** Drops the blocks of the readers of `path` (a WRITE to it is asked for, and again once it is done). */
  changed(path: string): void {
    for (const reader of this.#readers) if (reader.path === path) reader.drop();
  }

  /** Drops every block of the session (it ends). */
  clear(): void {
    for (const reader of this.#readers) reader.drop();
  }

  /** Forgets a reader (its handle was closed): its blocks go, and a READ still on its way to it reads directly. */
  forget(reader: HandleReader): void {
    reader.close();
    this.#readers.delete(reader);
  }

  /** Blocks held now, across the session's handles. */
  get held(): number {
    return this.#held;
  }

  /** @internal */
  take(): boolean {
    if (this.#held >= SESSION_BLOCKS) return false;
    this.#held++;
    return true;
  }
  /** @internal */
  give(count: number): void {
    this.#held -= count;
  }
}

export class HandleReader {
  readonly path: string;
  readonly #session: ReadAheadSession;
  readonly #readBytes: ReadBytes;
  readonly #now: () => number;
  #blocks: Block[] = [];
  /** Where the next READ of a sequential reader starts. */
  #next = 0;
  #closed = false;
  /** Round trips to the helper made by this reader (for tests and figures). */
  helperReads = 0;

  constructor(session: ReadAheadSession, path: string, readBytes: ReadBytes, now: () => number) {
    this.path = path;
    this.#session = session;
    this.#readBytes = readBytes;
    this.#now = now;
  }

  /** Up to `length` bytes at `position` (an empty buffer at the end of the file), as a direct read would answer. */
  async read(position: number, length: number): Promise<Buffer> {
    const sequential = position === this.#next;
    this.#next = position + length;
    const index = Math.floor(position / BLOCK_BYTES);
    const offset = position - index * BLOCK_BYTES;
    if (this.#closed || length <= 0 || offset + length > BLOCK_BYTES) return this.#direct(position, length);
    let block = this.#blocks.find((candidate) => candidate.index === index && this.#now() - candidate.readAt <= FRESH_MS);
    if (!block && sequential) block = this.#start(index);
    if (!block) return this.#direct(position, length);
    const data = await block.data;
    // A failed block, or a READ that starts beyond the bytes the block saw (the file may have grown since): read directly.
    if (!data || offset >= data.length) {
      if (!data) this.#remove(block);
      return this.#direct(position, length);
    }
    return data.subarray(offset, Math.min(offset + length, data.length));
  }

  /** Drops this reader's blocks. */
  drop(): void {
    this.#session.give(this.#blocks.length);
    this.#blocks = [];
  }

  /** The handle was closed: no more blocks. */
  close(): void {
    this.#closed = true;
    this.drop();
  }

  #direct(position: number, length: number): Promise<Buffer> {
    this.helperReads++;
    return this.#readBytes(position, length);
  }

  /** Starts reading block `index`, dropping those behind it; undefined when the session holds all it may. */
  #start(index: number): Block | undefined {
    const behind = this.#blocks.filter((block) => block.index < index);
    if (behind.length > 0) {
      this.#blocks = this.#blocks.filter((block) => block.index >= index);
      this.#session.give(behind.length);
    }
    // A stale block of the same index is replaced.
    const stale = this.#blocks.find((block) => block.index === index);
    if (stale) this.#remove(stale);
    if (!this.#session.take()) return undefined;
    this.helperReads++;
    const block: Block = {
      index,
      readAt: this.#now(),
      data: this.#readBytes(index * BLOCK_BYTES, BLOCK_BYTES).catch(() => undefined),
    };
    this.#blocks.push(block);
    return block;
  }

  #remove(block: Block): void {
    const before = this.#blocks.length;
    this.#blocks = this.#blocks.filter((candidate) => candidate !== block);
    this.#session.give(before - this.#blocks.length);
  }
}
