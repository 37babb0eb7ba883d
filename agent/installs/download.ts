/**
 * Downloads for installs (docs/installs-and-backups.md): every file goes to a temporary name in a directory only the
 * agent can write (`<data-dir>/staging`), is checked (size and SHA-1 or SHA-256 when known), and only then renamed into
 * place, so a failed or tampered download never replaces a working file. Network failures and 5xx answers are retried
 * with a back-off; a full disk fails at once, saying so.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export type InstallErrorCode =
  'DOWNLOAD_FAILED' | 'CHECKSUM_MISMATCH' | 'DISK_FULL' | 'VERSION_NOT_FOUND' | 'INSTALL_FAILED' | 'STEAMCMD_FAILED' | 'NOT_INSTALLABLE' | 'CANCELLED';

/** Fails an INSTALL or UPDATE with `code`; `consoleTail` holds the installer's last output lines when there is one. */
export class InstallError extends Error {
  readonly code: InstallErrorCode;
  readonly consoleTail: string[] | undefined;
  constructor(code: InstallErrorCode, message: string, consoleTail?: string[]) {
    super(message);
    this.name = 'InstallError';
    this.code = code;
    this.consoleTail = consoleTail;
  }
}

export type DownloadOptions = {
  sha1?: string;
  sha256?: string;
  size?: number;
  /** Attempts after the first (default 3). */
  retries?: number;
  /** First back-off; doubled each attempt (default 1 s). */
  backoffMs?: number;
  signal?: AbortSignal;
  onProgress?: (receivedBytes: number, totalBytes: number | undefined) => void;
};

/** A failure worth another attempt (the network, the server's 5xx or 429), as opposed to one that would repeat. */
class Transient extends Error {}

const isDiskFull = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOSPC' || (error as NodeJS.ErrnoException)?.code === 'EDQUOT';

/** Whether the URL can be fetched by this agent: http and https only (a `file:` URL is no download). */
function checkUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InstallError('DOWNLOAD_FAILED', `not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InstallError('DOWNLOAD_FAILED', `not an http(s) URL: ${url}`);
  return parsed;
}

/** Runs `attempt` until it succeeds, retrying transient failures with a doubling back-off. */
async function withRetries<T>(what: string, options: DownloadOptions, attempt: () => Promise<T>): Promise<T> {
  const retries = options.retries ?? 3;
  let delay = options.backoffMs ?? 1_000;
  for (let tried = 0; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (options.signal?.aborted) throw new InstallError('CANCELLED', `${what}: cancelled`);
      if (!(error instanceof Transient) || tried >= retries) {
        if (error instanceof InstallError) throw error;
        throw new InstallError('DOWNLOAD_FAILED', `${what}: ${(error as Error).message}${tried > 0 ? ` (after ${tried + 1} attempts)` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}

async function get(url: string, signal: AbortSignal | undefined): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(checkUrl(url), { signal, redirect: 'follow' });
  } catch (error) {
    if (error instanceof InstallError) throw error;
    throw new Transient(`could not reach ${url}: ${((error as Error).cause as Error)?.message ?? (error as Error).message}`);
  }
  if (response.ok) return response;
  await response.body?.cancel().catch(() => undefined);
  const message = `${url} answered ${response.status}`;
  if (response.status >= 500 || response.status === 429 || response.status === 408) throw new Transient(message);
  throw new InstallError('DOWNLOAD_FAILED', message);
}

/** A JSON document (a version manifest), retried like a download. */
export function fetchJson(url: string, options: DownloadOptions = {}): Promise<unknown> {
  return withRetries(`downloading ${url}`, options, async () => {
    const response = await get(url, options.signal);
    try {
      return (await response.json()) as unknown;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new Transient(`${url} is not valid JSON: ${(error as Error).message}`);
    }
  });
}

/**
 * Downloads `url` to `dest`: streamed to `dest.partial` with its hashes taken on the way, checked, then renamed. On
 * any failure nothing is left at `dest.partial` and `dest` is as it was.
 */
export async function download(url: string, dest: string, options: DownloadOptions = {}): Promise<{ sizeBytes: number; sha1: string; sha256: string }> {
  const partial = `${dest}.partial`;
  try {
    return await withRetries(`downloading ${url}`, options, async () => {
      const response = await get(url, options.signal);
      const header = Number(response.headers.get('content-length'));
      const total = options.size ?? (Number.isFinite(header) && header > 0 ? header : undefined);
      const sha1 = createHash('sha1');
      const sha256 = createHash('sha256');
      let received = 0;
      let reported = 0;
      const tally = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sha1.update(chunk);
          sha256.update(chunk);
          received += chunk.length;
          if (options.onProgress && (received - reported >= 1 << 20 || received === total)) {
            reported = received;
            options.onProgress(received, total);
          }
          done(null, chunk);
        },
      });
      try {
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), tally, createWriteStream(partial, { mode: 0o600 }), {
          signal: options.signal,
        });
      } catch (error) {
        if (isDiskFull(error)) throw new InstallError('DISK_FULL', `no space left on the machine's disk while downloading ${url}`);
        if (options.signal?.aborted) throw new InstallError('CANCELLED', `downloading ${url}: cancelled`);
        throw new Transient(`the download of ${url} broke off: ${(error as Error).message}`);
      }
      const digest = { sizeBytes: received, sha1: sha1.digest('hex'), sha256: sha256.digest('hex') };
      // A short body is the network's doing (try again); a wrong hash of a whole body is the file's (refused).
      if (options.size !== undefined && received !== options.size) throw new Transient(`${url}: got ${received} bytes, expected ${options.size}`);
      if (options.sha1 && digest.sha1 !== options.sha1.toLowerCase())
        throw new InstallError('CHECKSUM_MISMATCH', `${url}: SHA-1 ${digest.sha1} is not the expected ${options.sha1}; the file was not installed`);
      if (options.sha256 && digest.sha256 !== options.sha256.toLowerCase())
        throw new InstallError('CHECKSUM_MISMATCH', `${url}: SHA-256 ${digest.sha256} is not the expected ${options.sha256}; the file was not installed`);
      await rename(partial, dest);
      return digest;
    });
  } finally {
    await rm(partial, { force: true });
  }
}
