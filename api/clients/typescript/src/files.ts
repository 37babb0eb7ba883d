/**
 * A server's files through the API (docs/files.md), for the dashboard, `gsm files` and scripts: listing (every page),
 * text read and written with `If-Match`, downloads streamed with `Range`, and resumable uploads that go on after a
 * break from the offset the service has (`POST …/uploads`, `PATCH` with `Upload-Offset`, `GET` for the offset).
 */
import { ApiError, type GsmClient, type Schemas } from './client.ts';

export type FileEntry = Schemas['FileEntry'];
export type FileList = Schemas['FileList'];
export type FileText = Schemas['FileText'];
export type FileUpload = Schemas['FileUpload'];
export type FileVersion = Schemas['FileVersion'];
export type FileVersionContent = Schemas['FileVersionContent'];
export type FileWriteResult = Schemas['FileWriteResult'];

/**
 * Where an unfinished upload's id is kept between attempts (the dashboard: `localStorage`, so a reload resumes; `gsm`:
 * its config directory, so running `gsm files put` again resumes), under a key naming the file and its target.
 */
export type UploadMemory = {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, id: string): void | Promise<void>;
  delete(key: string): void | Promise<void>;
};

export type UploadOptions = {
  /** Bytes per PATCH (default 8 MiB): progress is reported after each, and a break loses at most the one under way. */
  chunkBytes?: number;
  /** Called with the bytes the service has after every chunk (and at the start, when resuming). */
  onProgress?: (sent: number, size: number) => void;
  signal?: AbortSignal;
  /** Replace the target only while it still has this ETag (412 otherwise). */
  ifMatch?: string;
  /** Keeps the upload's id under `key` so that a later attempt resumes it. */
  memory?: UploadMemory;
  key?: string;
  /** Failed chunks in a row tried again (network errors, 5xx, 429) before giving up (default 8). */
  retries?: number;
  /** First wait before a retry, doubled each time up to 30 s (default 500 ms). */
  backoffMs?: number;
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });

/** The answer's JSON, or undefined when it has none. */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return { message: text.slice(0, 200) };
  }
}

const retryable = (status: number) => status === 429 || status >= 500;

export class ServerFiles {
  readonly client: GsmClient;
  readonly serverId: string;
  constructor(client: GsmClient, serverId: string) {
    this.client = client;
    this.serverId = serverId;
  }

  #url(suffix = '') {
    return `/api/v1/servers/${encodeURIComponent(this.serverId)}/files${suffix}`;
  }

  /** One page of a directory (`limit` ≤ 10,000, after the previous page's `next`). */
  list(path: string, options: { after?: string; limit?: number } = {}): Promise<FileList> {
    return this.client.get<FileList>(this.#url(), { path, after: options.after, limit: options.limit });
  }

  /** Every entry of a directory, page after page. */
  async *entries(path: string, limit = 1000): AsyncGenerator<FileEntry> {
    let after: string | undefined;
    for (;;) {
      const page = await this.list(path, { after, limit });
      yield* page.entries;
      if (!page.next) return;
      after = page.next;
    }
  }

  stat(path: string): Promise<FileEntry> {
    return this.client.get<FileEntry>(this.#url('/stat'), { path });
  }

  /** A UTF-8 text file of at most 1 MiB with its ETag (413 larger, 415 binary). */
  readText(path: string): Promise<FileText> {
    return this.client.get<FileText>(this.#url('/content'), { path, format: 'text' });
  }

  /**
   * Writes `content` as the file, atomically. `ifMatch`: the ETag it was read with; a file changed since is refused
   * with an ApiError 412 whose body's `etag` is the current one. `ifNoneMatch: '*'`: only when it does not exist yet.
   */
  async write(
    path: string,
    content: RequestInit['body'] & {},
    options: { ifMatch?: string; ifNoneMatch?: '*'; signal?: AbortSignal } = {},
  ): Promise<FileWriteResult> {
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream', accept: 'application/json' };
    if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
    if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch;
    const response = await this.client.raw('put', this.#url('/content'), { query: { path }, headers, body: content, signal: options.signal });
    const body = await jsonOf(response);
    if (!response.ok) throw new ApiError(response.status, body);
    return body as FileWriteResult;
  }

  /**
   * The file's bytes from `start` (a `Range` request when not 0): the Response with its body to stream. Refusals
   * (404, 416, …) are thrown as ApiError.
   */
  async download(path: string, options: { start?: number; end?: number; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (options.start || options.end !== undefined) headers.range = `bytes=${options.start ?? 0}-${options.end ?? ''}`;
    const response = await this.client.raw('get', this.#url('/content'), { query: { path }, headers, signal: options.signal });
    if (!response.ok) throw new ApiError(response.status, await jsonOf(response));
    return response;
  }

  mkdir(path: string): Promise<FileEntry> {
    return this.client.post<FileEntry>(this.#url('/directories'), { path, recursive: true });
  }

  rename(from: string, to: string, overwrite = false): Promise<FileEntry> {
    return this.client.post<FileEntry>(this.#url('/rename'), { from, to, overwrite });
  }

  copy(from: string, to: string): Promise<FileEntry> {
    return this.client.post<FileEntry>(this.#url('/copy'), { from, to });
  }

  remove(path: string, recursive = false): Promise<unknown> {
    return this.client.request('delete', this.#url(), { query: { path, recursive } });
  }

  chmod(path: string, mode: number): Promise<FileEntry> {
    return this.client.post<FileEntry>(this.#url('/chmod'), { path, mode });
  }

  /** The config history of a text file, newest first. */
  async versions(path: string): Promise<FileVersion[]> {
    return (await this.client.get<{ data: FileVersion[] }>(this.#url('/versions'), { path })).data;
  }

  version(versionId: string): Promise<FileVersionContent> {
    return this.client.get<FileVersionContent>(this.#url(`/versions/${encodeURIComponent(versionId)}`));
  }

  /** A unified diff from the version to the file as it is (`current`) or to another version. */
  diff(versionId: string, against = 'current'): Promise<Schemas['FileDiff']> {
    return this.client.get<Schemas['FileDiff']>(this.#url(`/versions/${encodeURIComponent(versionId)}/diff`), { against });
  }

  restore(versionId: string, ifMatch?: string): Promise<FileWriteResult> {
    return this.client.post<FileWriteResult>(this.#url(`/versions/${encodeURIComponent(versionId)}/restore`), ifMatch === undefined ? {} : { ifMatch });
  }

  /** An upload's state (the offset to go on from). */
  uploadState(uploadId: string): Promise<FileUpload> {
    return this.client.get<FileUpload>(this.#url(`/uploads/${encodeURIComponent(uploadId)}`));
  }

  cancelUpload(uploadId: string): Promise<unknown> {
    return this.client.request('delete', this.#url(`/uploads/${encodeURIComponent(uploadId)}`));
  }

  /**
   * Uploads `source` (a browser's File, or Node's `fs.openAsBlob`) to `path` with the resumable protocol: a chunk per
   * PATCH; after a break (a network error, a 5xx, a 429) it asks the service for the offset and goes on from there,
   * `retries` failures in a row at most. With `memory` and `key`, an upload of the same file left unfinished by an
   * earlier attempt is resumed instead of started again. Answers the completed upload (its `entry` is the new file).
   */
  async upload(path: string, source: Blob, options: UploadOptions = {}): Promise<FileUpload> {
    const { signal, memory, key } = options;
    const chunk = Math.max(1, options.chunkBytes ?? 8 * 1024 * 1024);
    const size = source.size;
    let state: FileUpload | undefined;
    const remembered = memory && key ? await memory.get(key) : undefined;
    if (remembered) {
      try {
        const found = await this.uploadState(remembered);
        if (found.size === size && found.path === `/${path.replace(/^\/+/, '')}`) state = found;
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
        // expired, cancelled or completed: start a new one
      }
      if (!state) await memory!.delete(key!);
    }
    if (!state) {
      state = await this.client.post<FileUpload>(
        this.#url('/uploads'),
        options.ifMatch === undefined ? { path, size } : { path, size, ifMatch: options.ifMatch },
        { signal },
      );
      if (memory && key) await memory.set(key, state.id);
    }
    const id = state.id;
    let offset = state.offset;
    options.onProgress?.(offset, size);
    let failures = 0;
    let backoff = options.backoffMs ?? 500;
    const retries = options.retries ?? 8;
    for (;;) {
      const end = Math.min(offset + chunk, size);
      try {
        const response = await this.client.raw('patch', this.#url(`/uploads/${encodeURIComponent(id)}`), {
          headers: { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', accept: 'application/json' },
          body: source.slice(offset, end),
          signal,
        });
        const body = (await jsonOf(response)) as (FileUpload & { offset?: number }) | undefined;
        if (response.ok && body) {
          offset = body.offset;
          failures = 0;
          backoff = options.backoffMs ?? 500;
          options.onProgress?.(offset, size);
          if (body.complete) {
            if (memory && key) await memory.delete(key);
            return body;
          }
          continue;
        }
        if (response.status === 409 && typeof body?.offset === 'number') {
          offset = body.offset; // the service has more (or less) than this attempt thought: go on from its offset
          continue;
        }
        const error = new ApiError(response.status, body);
        if (!retryable(response.status)) {
          if (memory && key && response.status !== 409) await memory.delete(key);
          throw error;
        }
        throw Object.assign(error, { retry: true });
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof ApiError && !(error as ApiError & { retry?: boolean }).retry) throw error;
        if (++failures > retries) throw error;
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 30_000);
        try {
          offset = (await this.uploadState(id)).offset;
        } catch (stateError) {
          if (stateError instanceof ApiError && stateError.statusCode < 500 && stateError.statusCode !== 429) throw stateError;
          // still away: the next round tries the chunk (and the offset) again
        }
      }
    }
  }
}
