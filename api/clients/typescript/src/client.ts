/**
 * The TypeScript client of the game server manager's REST API, for Node.js (18+) and browsers: standard `fetch`, no
 * dependency. Types come from the API document (schema.d.ts, generated: `npm run generate:client`).
 *
 * - `request(method, path, …)`: one call, typed by the document's paths; errors are `ApiError` with the API's
 *   `{ statusCode, message, error, details }`.
 * - Retries: 429 waits what `Retry-After` says (at most `maxRetryWaitMs`); network errors and 502/503/504 are retried
 *   with a back-off for requests that are safe to repeat: GET, DELETE, and POST, which always carries an
 *   `Idempotency-Key` (made here unless given) so that a repeated POST is answered as the first.
 * - `waitForJob(id)`: long-polls `GET /jobs/<id>?wait=N` until the job has ended.
 * - `paginate(path, query)`: every record of a list, page after page.
 * - `events(clusterId, { after, types, serverId })`: the cluster's event stream (Server-Sent Events) as an async
 *   iterator that reconnects by itself and resumes after the last event it yielded, so none is missed or repeated.
 */
import type { components, paths } from './schema.d.ts';

export type Schemas = components['schemas'];
export type Job = Schemas['Job'];
export type Server = Schemas['Server'];
export type ClusterEvent = Schemas['Event'];

export type ClientOptions = {
  /** The service's origin, e.g. `https://panel.example.org`. */
  baseUrl: string;
  /** A user API token (`gsm_live_…`) or a session access token. */
  token?: string;
  /** Attempts after the first for a retryable failure (default 4). */
  retries?: number;
  /** The longest wait for one 429's `Retry-After` (default 60 s). */
  maxRetryWaitMs?: number;
  /** First back-off for network errors and 5xx, doubled each time (default 500 ms). */
  backoffMs?: number;
  fetch?: typeof fetch;
};

export class ApiError extends Error {
  readonly statusCode: number;
  readonly error: string;
  readonly details: { field: string; message: string }[] | undefined;
  readonly body: unknown;
  constructor(statusCode: number, body: unknown) {
    const record = (body ?? {}) as { message?: string; error?: string; details?: { field: string; message: string }[] };
    super(record.message ?? `HTTP ${statusCode}`);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.error = record.error ?? '';
    this.details = record.details;
    this.body = body;
  }
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
export type RequestOptions = {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Sent as `Idempotency-Key`; a POST gets a new one when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
};

/** Fills `{name}` placeholders of a document path. */
export function pathOf(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

const FINISHED = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED']);
/** A job in this status has ended (what `waitForJob` waits for). */
export const finished = (status: string) => FINISHED.has(status);
/** Sign-in routes: the service keeps no Idempotency-Key for them (there is no principal yet). */
const SIGN_IN = /^\/(api\/v1\/)?auth\//;
const RETRYABLE_STATUS = new Set([502, 503, 504]);
/**
 * A random UUID (v4) for an Idempotency-Key. Browsers offer `crypto.randomUUID` only in secure contexts (HTTPS or
 * localhost); a dashboard opened over plain HTTP on a LAN address has `getRandomValues` alone.
 */
function newKey(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export class GsmClient {
  readonly #options: Required<Omit<ClientOptions, 'token'>> & { token?: string };

  constructor(options: ClientOptions) {
    this.#options = {
      retries: 4,
      maxRetryWaitMs: 60_000,
      backoffMs: 500,
      fetch: globalThis.fetch.bind(globalThis),
      ...options,
      baseUrl: options.baseUrl.replace(/\/$/, ''),
    };
  }

  /** One API call; answers the parsed JSON body (undefined for an empty answer). */
  async request<T = unknown>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.#send(method, path, options)) as T;
  }

  /** Sends the call, retrying what may be retried; answers the parsed body or throws ApiError. */
  async #send(method: Method, path: string, options: RequestOptions): Promise<unknown> {
    const url = new URL(`${this.#options.baseUrl}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    // A POST carries a key: repeating it after a lost answer then cannot make a second job. Sign-in routes (`/auth/…`)
    // keep no keys: repeating one could spend a refresh token twice, so they are never repeated.
    const keyed = method === 'post' && !SIGN_IN.test(path);
    const idempotencyKey = options.idempotencyKey ?? (keyed ? newKey() : undefined);
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const safe = method === 'get' || method === 'delete' || keyed; // a keyed POST always has its key
    let backoff = this.#options.backoffMs;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#options.fetch(url, {
          method: method.toUpperCase(),
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal?.aborted || !safe || attempt >= this.#options.retries) throw error;
        await sleep(backoff, options.signal);
        backoff *= 2;
        continue;
      }
      const text = await response.text();
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      if (response.ok) return body;
      if (attempt < this.#options.retries) {
        if (response.status === 429) {
          const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
          if (wait <= this.#options.maxRetryWaitMs) {
            await sleep(wait, options.signal);
            backoff *= 2;
            continue;
          }
        } else if (safe && RETRYABLE_STATUS.has(response.status)) {
          await sleep(retryAfterMs(response.headers.get('retry-after')) ?? backoff, options.signal);
          backoff *= 2;
          continue;
        }
      }
      throw new ApiError(response.status, body);
    }
  }

  /**
   * One call answered as the `Response` itself (no retries, no JSON): for bodies that are bytes (file downloads and
   * uploads, docs/files.md) and headers that matter (`ETag`, `Upload-Offset`). The caller reads or cancels its body.
   */
  async raw(
    method: Method,
    path: string,
    options: { query?: RequestOptions['query']; headers?: Record<string, string>; body?: RequestInit['body']; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const url = new URL(`${this.#options.baseUrl}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...options.headers };
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    const init: RequestInit & { duplex?: 'half' } = { method: method.toUpperCase(), headers, signal: options.signal };
    if (options.body !== undefined) {
      init.body = options.body;
      // A stream as the body (Node's fetch) must say so; a Blob or bytes need not.
      if (typeof (options.body as ReadableStream).getReader === 'function') init.duplex = 'half';
    }
    return this.#options.fetch(url, init);
  }

  get<T = unknown>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.request<T>('get', path, { query });
  }

  post<T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('post', path, { ...options, body: body ?? {} });
  }

  /** Waits until the job has ended (long polls of at most 60 s each) and answers it. */
  async waitForJob(jobId: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Job> {
    const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const left = Math.ceil((deadline - Date.now()) / 1000);
      const job = await this.request<Job>('get', pathOf('/api/v1/jobs/{id}', { id: jobId }), {
        query: { wait: Math.max(0, Math.min(60, left)) },
        signal: options.signal,
      });
      if (finished(job.status)) return job;
      if (Date.now() >= deadline) throw new Error(`job ${jobId} is still ${job.status}`);
    }
  }

  /** Every record of a list endpoint, fetching page after page (`limit` per page, default 100). */
  async *paginate<T = unknown>(path: string, query: RequestOptions['query'] = {}): AsyncGenerator<T> {
    for (let page = 1; ; page++) {
      const answer = await this.request<{ data: T[]; meta: { totalPages: number } }>('get', path, { query: { limit: 100, ...query, page } });
      yield* answer.data;
      if (page >= answer.meta.totalPages || answer.data.length === 0) return;
    }
  }

  /**
   * The cluster's events, live (Server-Sent Events), resumed after `after` (an event id) and, after every lost
   * connection, after the last event yielded. Ends when `signal` aborts.
   */
  async *events(clusterId: string, options: { after?: string; types?: string[]; serverId?: string; signal?: AbortSignal } = {}): AsyncGenerator<ClusterEvent> {
    let last = options.after;
    let backoff = this.#options.backoffMs;
    while (!options.signal?.aborted) {
      const url = new URL(`${this.#options.baseUrl}${pathOf('/api/v1/clusters/{clusterId}/events/stream', { clusterId })}`);
      if (options.types) url.searchParams.set('types', options.types.join(','));
      if (options.serverId) url.searchParams.set('serverId', options.serverId);
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
      if (last) headers['last-event-id'] = last;
      let response: Response;
      try {
        response = await this.#options.fetch(url, { headers, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted) return;
        void error;
        await sleep(backoff, options.signal).catch(() => undefined);
        backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      if (!response.ok || !response.body) {
        const text = await response.text();
        if (response.status < 500 && response.status !== 429) throw new ApiError(response.status, text ? (JSON.parse(text) as unknown) : undefined);
        await sleep(retryAfterMs(response.headers.get('retry-after')) ?? backoff, options.signal).catch(() => undefined);
        backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      let received = false;
      try {
        for await (const item of readEvents(response.body)) {
          // The stream's `id:` lines are the resume point: its first one comes before any event, stats have none (the
          // last id stays), and on a stream with the console every id also carries the console's sequence.
          if (item.id) last = item.id;
          if (item.event) {
            received = true;
            yield item.event;
          }
        }
      } catch (error) {
        if (options.signal?.aborted) return;
        void error; // the connection broke: resume after the last event
      }
      // A stream that ended gets a pause before the next connection, longer while streams end with nothing in them.
      backoff = received ? this.#options.backoffMs : Math.min(backoff * 2, 30_000);
      await sleep(received ? Math.min(this.#options.backoffMs, 1_000) : backoff, options.signal).catch(() => undefined);
    }
  }
}

/** Parses a Server-Sent Events body: each block's `id:` (when it has one) and its event's JSON (when it has data). */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id?: string; event?: ClusterEvent }> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (data.length > 0 || id !== undefined) yield { id, event: data.length > 0 ? (JSON.parse(data.join('\n')) as ClusterEvent) : undefined };
          data = [];
          id = undefined;
        } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        else if (line.startsWith('id:')) id = line.slice(3).replace(/^ /, '');
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export type { paths, components };
