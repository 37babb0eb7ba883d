/**
 * A server's console output: every line goes to `<logDir>/console.log` (so it survives the agent and can be
 * read on the machine) and the newest lines stay in memory for `tail(n)` (what a user opening the console sees
 * first). The file is capped: past `maxBytes` it becomes `console.log.1`, replacing the previous old file, so a
 * chatty server can use at most about twice the cap on disk.
 */
import { createWriteStream, openSync, renameSync, type WriteStream } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningProcess } from './processRuntime.ts';

export interface OutputLogOptions {
  /** Rotate when the file would grow past this; default 5 MiB. */
  maxBytes?: number;
  /** Lines kept in memory for tail(); default 1000. */
  keepLines?: number;
}

/** Longest line stored, in UTF-8 bytes; longer ones are cut and marked, as no console shows them usefully anyway. */
export const MAX_LINE_BYTES = 8 * 1024;
const TRUNCATED = ' [truncated]';

export function truncateLine(line: string): string {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit, so most lines need no encoding at all.
  if (line.length * 3 <= MAX_LINE_BYTES) return line;
  const bytes = Buffer.from(line);
  if (bytes.length <= MAX_LINE_BYTES) return line;
  // Cutting mid-character leaves a replacement character at the end; drop it.
  return (
    bytes
      .subarray(0, MAX_LINE_BYTES)
      .toString()
      .replace(/\uFFFD$/, '') + TRUNCATED
  );
}

export class OutputLog {
  readonly path: string;
  readonly #maxBytes: number;
  readonly #ring: string[];
  #next = 0; // ring slot for the next line
  #count = 0;
  #size: number;
  #stream: WriteStream;
  /** The last write error (disk full, directory removed); logging never throws into the process handling. */
  lastError: Error | undefined;

  /** Creates `dir` and appends to an existing console.log in it (its size counts towards the cap). */
  static async open(dir: string, options: OutputLogOptions = {}): Promise<OutputLog> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // The console may show what players typed, and tokens a game printed: the agent's alone (an older agent's files too).
    await chmod(dir, 0o700);
    const path = join(dir, 'console.log');
    await chmod(path, 0o600).catch(() => undefined);
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    return new OutputLog(path, size, options);
  }

  private constructor(path: string, size: number, options: OutputLogOptions) {
    this.path = path;
    this.#maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.#ring = new Array<string>(Math.max(1, options.keepLines ?? 1000));
    this.#size = size;
    this.#stream = this.#openStream();
  }

  /**
   * The file is opened synchronously so that a rotation right after it renames the file this stream already holds
   * (its queued writes then land in console.log.1, in order). This happens once per `maxBytes`, not per line.
   */
  #openStream(): WriteStream {
    let stream: WriteStream;
    try {
      stream = createWriteStream(this.path, { fd: openSync(this.path, 'a', 0o600) });
    } catch {
      // E.g. the logs directory was deleted under us: let the stream try by path and report through lastError.
      stream = createWriteStream(this.path, { flags: 'a', mode: 0o600 });
    }
    stream.on('error', (error) => (this.lastError = error));
    return stream;
  }

  /** Records one line (without its newline). Appends are buffered by the stream, never synchronous. */
  /** Lines appended since the log was opened (to tell one run's lines from the previous run's). */
  appended = 0;

  append(line: string): void {
    this.appended += 1;
    const text = truncateLine(line);
    this.#ring[this.#next] = text;
    this.#next = (this.#next + 1) % this.#ring.length;
    this.#count = Math.min(this.#count + 1, this.#ring.length);

    const bytes = Buffer.byteLength(text) + 1;
    if (this.#size > 0 && this.#size + bytes > this.#maxBytes) this.#rotate();
    this.#size += bytes;
    this.#stream.write(`${text}\n`);
  }

  #rotate(): void {
    try {
      renameSync(this.path, `${this.path}.1`);
    } catch (error) {
      this.lastError = error as Error; // e.g. the log directory was deleted; keep writing where we can
    }
    this.#stream.end();
    this.#stream = this.#openStream();
    this.#size = 0;
  }

  /** The newest `n` lines (at most keepLines), oldest first. */
  tail(n: number = this.#ring.length): string[] {
    const take = Math.max(0, Math.min(n, this.#count));
    const lines: string[] = [];
    for (let i = take; i > 0; i--) lines.push(this.#ring[(this.#next - i + this.#ring.length) % this.#ring.length]);
    return lines;
  }

  /** Logs every stdout and stderr line of `proc`, and the agent's notices about it; returns the function that stops doing so. */
  attach(proc: RunningProcess): () => void {
    const listener = (_stream: 'stdout' | 'stderr', line: string) => this.append(line);
    const notice = (line: string) => this.append(line);
    proc.on('line', listener);
    proc.on('notice', notice);
    return () => {
      proc.off('line', listener);
      proc.off('notice', notice);
    };
  }

  /** Flushes and closes the file; the in-memory tail stays readable. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stream.closed) return resolve();
      this.#stream.end(() => resolve());
      this.#stream.once('error', () => resolve());
    });
  }
}
