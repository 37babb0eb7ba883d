/**
 * The pipe between the agent and a file helper (docs/agent.md#server-files): frames of
 * `u32 length of the rest | u32 request id | u32 JSON length | JSON | bytes`. The agent sends requests (`{ op, … }`,
 * bytes for a write), the helper answers each with the same id (`{ ok: true, … }` or `{ error: { code, message } }`,
 * bytes for a read), in any order: several requests may be in flight.
 */
import type { Writable } from 'node:stream';

/** Largest frame either side accepts (a read or a write carries at most MAX_CHUNK bytes). */
export const MAX_FRAME = 2 * 1024 * 1024;
/** Largest read or write of one request. */
export const MAX_CHUNK = 1024 * 1024;

export type Frame = { id: number; json: Record<string, unknown>; data?: Buffer };

/** A frame's head and JSON: the whole frame but its bytes (`dataLength` of them, counted in the frame's length). */
function frameHead(id: number, json: unknown, dataLength: number): Buffer {
  const text = Buffer.from(JSON.stringify(json), 'utf8');
  const head = Buffer.allocUnsafe(12 + text.length);
  head.writeUInt32BE(8 + text.length + dataLength, 0);
  head.writeUInt32BE(id >>> 0, 4);
  head.writeUInt32BE(text.length, 8);
  text.copy(head, 12);
  return head;
}

export function encodeFrame(id: number, json: unknown, data?: Buffer): Buffer {
  const head = frameHead(id, json, data?.length ?? 0);
  return data && data.length > 0 ? Buffer.concat([head, data]) : head;
}

/** Streams corked for the current turn of the event loop (corkForTurn). */
const corked = new WeakSet<Writable>();

/**
 * Corks `stream` until the current turn of the event loop is over (uncorked on the next tick), unless it already is:
 * what is written meanwhile goes out in one system call, as Node's HTTP server does with a response. Used for the file
 * helper's pipe (writeFrame) and the agent's SSH connections (agent/sftp/sftpServer.ts).
 */
export function corkForTurn(stream: Writable): void {
  if (corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork();
  });
}

/**
 * Writes a frame to `stream` without copying its bytes: the head and JSON, then the bytes as they are (a read or write
 * of up to 1 MiB is not joined into a new buffer first). The frames written in one turn of the event loop go out in one
 * `writev` when the turn ends (corkForTurn): each write to a pipe wakes the process at the other end. `data` must not
 * change until it is written. Answers what `write` answers (false: wait for 'drain').
 */
export function writeFrame(stream: Writable, id: number, json: unknown, data?: Buffer): boolean {
  corkForTurn(stream);
  if (!data || data.length === 0) return stream.write(frameHead(id, json, 0));
  stream.write(frameHead(id, json, data.length));
  return stream.write(data);
}

/** Splits a byte stream into frames; throws on a frame too large or malformed (the pipe is then closed). */
export class FrameReader {
  #buffered: Buffer[] = [];
  #size = 0;
  /** The length of the frame being read, once its first 4 bytes are in (so a big frame is put together once). */
  #length: number | undefined;

  push(chunk: Buffer): Frame[] {
    this.#buffered.push(chunk);
    this.#size += chunk.length;
    const frames: Frame[] = [];
    for (;;) {
      if (this.#length === undefined) {
        if (this.#size < 4) break;
        if (this.#buffered[0]!.length < 4) this.#buffered = [Buffer.concat(this.#buffered)];
        const length = this.#buffered[0]!.readUInt32BE(0);
        if (length < 8 || length > MAX_FRAME) throw new Error(`bad frame length ${length}`);
        this.#length = length;
      }
      const length = this.#length;
      if (this.#size < 4 + length) break;
      // The whole frame is here: joined once (pipe reads come in 64 KiB pieces; joining on every piece made a 1 MiB
      // frame cost 8 MiB of copying).
      const all = this.#buffered.length === 1 ? this.#buffered[0]! : Buffer.concat(this.#buffered, this.#size);
      const id = all.readUInt32BE(4);
      const jsonLength = all.readUInt32BE(8);
      if (jsonLength > length - 8) throw new Error('bad frame JSON length');
      const json = JSON.parse(all.subarray(12, 12 + jsonLength).toString('utf8')) as Record<string, unknown>;
      // The bytes are a view of the joined buffer, which holds at most this frame and the start of the next.
      const data = length - 8 > jsonLength ? all.subarray(12 + jsonLength, 4 + length) : undefined;
      frames.push({ id, json, ...(data ? { data } : {}) });
      const rest = all.subarray(4 + length);
      this.#buffered = rest.length > 0 ? [rest] : [];
      this.#size = rest.length;
      this.#length = undefined;
    }
    return frames;
  }
}

/** What went wrong, as the helper says it (the service maps each to an HTTP status). */
export type FileErrorCode =
  | 'INVALID_PATH' // NUL, `..`, absolute, a name with control characters
  | 'OUTSIDE' // resolves (through a link) outside the server's directory
  | 'DENIED' // the deny list
  | 'NOT_FOUND'
  | 'EXISTS'
  | 'NOT_A_DIRECTORY'
  | 'IS_A_DIRECTORY'
  | 'NOT_EMPTY'
  | 'NOT_A_FILE' // a FIFO, socket or device
  | 'LINK_REFUSED' // chmod of a link, a write through a file with several hard links
  | 'PERMISSION' // the kernel refused the server's account
  | 'PRECONDITION_FAILED' // If-Match
  | 'NO_SPACE'
  | 'TOO_LARGE'
  | 'INVALID'
  | 'HELPER_GONE'
  | 'SERVER_BUSY' // the server's files are held for a transfer
  | 'FAILED';

export class FileOpError extends Error {
  readonly code: FileErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: FileErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    if (details) this.details = details;
  }
}

export type FileType = 'file' | 'directory' | 'symlink' | 'other';

/** One entry of a listing, or a stat. Times are ISO strings; `etag` only for regular files. */
export type FileInfo = {
  name: string;
  type: FileType;
  size: number;
  mode: number;
  modifiedAt: string;
  /** A symbolic link's target as written (never followed by a listing). */
  linkTarget?: string;
  /** The name on disk is not valid UTF-8: `name` shows each byte of it that is not as `\xHH`. */
  invalidName?: boolean;
  etag?: string;
  uid?: number;
  gid?: number;
  links?: number;
};

export type OpenFlags = {
  read?: boolean;
  write?: boolean;
  create?: boolean;
  truncate?: boolean;
  exclusive?: boolean;
  append?: boolean;
  /**
   * Write a new file next to the target and rename it over the target on `close(…, { commit: true })` (same mode as the
   * file it replaces): readers never see half a file, and a hard link's other names are never written through.
   */
  atomic?: boolean;
  /** Mode of a new file (default 0644 for files). */
  mode?: number;
  /** Refuse (PRECONDITION_FAILED) unless the target's current ETag is this (`*`: it exists; `none`: it does not). */
  ifMatch?: string;
};

export type SearchOptions = {
  path?: string;
  /** A case-insensitive substring (or `*`/`?` glob) of names. */
  name?: string;
  /** A substring of text files' contents (files with a NUL in their first 8 KiB are skipped). */
  content?: string;
  maxDepth?: number;
  maxFiles?: number;
  maxBytes?: number;
  maxResults?: number;
  timeoutMs?: number;
};
export type SearchMatch = { path: string; type: FileType; size: number; line?: number; text?: string };
export type SearchResult = {
  matches: SearchMatch[];
  scannedFiles: number;
  scannedBytes: number;
  stoppedEarly?: 'depth' | 'files' | 'bytes' | 'results' | 'time';
};
