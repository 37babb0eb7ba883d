/**
 * Server files (docs/files.md): the file operations of the API, carried to the server's agent over its connection and
 * run there by a file helper as the server's account; transfers streamed with a bounded window of chunks in flight
 * (more is asked for, or sent, only as the other side takes it: memory stays flat for any size); the config history (the last 20
 * versions of each text file ≤ 1 MiB written through the API or SFTP) and the audit entries of every change.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { AppError, notFound } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import { transferConflict } from '../../schema/transfers.ts';
import { recordAudit } from '../audit.ts';
import type { DenyList } from '../../schema/filePaths.ts';
import { checkAdminOnly, isAdminOnly } from './adminOnly.ts';
import { agentChannelOf, AgentUnreachableError, fileChannelOf, holdsAgentConnections } from './agentChannels.ts';

/**
 * Bytes of one chunk between the service and the agent: the file helper's largest read or write (MAX_CHUNK), inside
 * the gateway's frames (MAX_FRAME_BYTES). Each chunk costs a request and an answer through the service, the agent and
 * the helper, whatever its size: at 192 KiB those per-chunk costs held downloads to 0.40 of a bare file server, at 1 MiB
 * 0.72 (docs/files.md#measured).
 */
export const TRANSFER_CHUNK = 1024 * 1024;
/**
 * Chunks of one transfer in flight at once between the service and the agent: the round trip of each chunk no longer
 * sets the pace, and memory stays bounded (at most this many chunks per transfer, whatever the file's size).
 */
export const TRANSFER_WINDOW = 4;
/**
 * The most one read forwarded to another process asks for (agentRequestsAcross.ts): the process holding the agent may
 * be an orchestrator of the previous release during a rolling upgrade, whose gateway closed an agent's connection on a
 * frame over 256 KiB. A download keeps as many bytes in flight either way (TRANSFER_WINDOW × TRANSFER_CHUNK).
 */
export const FORWARDED_READ_CHUNK = 192 * 1024;

/** How much one read of `server`'s files may ask for: a whole chunk when this process holds its agent. */
const readChunkOf = (server: FileServer): number => (agentChannelOf(server.machineId, 'files') ? TRANSFER_CHUNK : FORWARDED_READ_CHUNK);
/** How long the agent has to answer one file request. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Versions kept per file, and the largest text file kept. */
export const HISTORY_VERSIONS = 20;
export const HISTORY_MAX_BYTES = 1024 * 1024;

const STATUS: Record<string, number> = {
  INVALID_PATH: 400,
  INVALID: 400,
  OUTSIDE: 403,
  DENIED: 403,
  PERMISSION: 403,
  NOT_FOUND: 404,
  EXISTS: 409,
  NOT_A_DIRECTORY: 409,
  IS_A_DIRECTORY: 409,
  NOT_EMPTY: 409,
  NOT_A_FILE: 409,
  LINK_REFUSED: 409,
  PRECONDITION_FAILED: 412,
  TOO_LARGE: 413,
  NO_SPACE: 507,
  HELPER_GONE: 503,
  SERVER_BUSY: 409,
};

export type FileInfo = {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mode: number;
  modifiedAt: string;
  linkTarget?: string;
  invalidName?: boolean;
  etag?: string;
};

/** The agent's answer as an HTTP error (the agent's `code` kept in the body). */
function agentError(error: { code?: string; message?: string; details?: Record<string, unknown> }): AppError {
  const status = STATUS[error.code ?? ''] ?? 502;
  const message = status === 502 ? `The agent could not do it: ${error.message ?? 'unknown error'}` : (error.message ?? 'Refused');
  // 5xx messages are not shown by the error middleware: the agent's own failure becomes a 4xx-free 502 with a fixed text.
  return new AppError(status, message, { extra: { code: error.code ?? 'FAILED', ...(error.details?.etag !== undefined ? { etag: error.details.etag } : {}) } });
}

/** Only what the public listing shows of an entry (no uid, gid or link count). */
export function publicInfo(info: Record<string, unknown>): FileInfo {
  const out: FileInfo = {
    name: String(info.name),
    type: info.type as FileInfo['type'],
    size: Number(info.size),
    mode: Number(info.mode),
    modifiedAt: String(info.modifiedAt),
  };
  if (typeof info.linkTarget === 'string') out.linkTarget = info.linkTarget;
  if (info.invalidName === true) out.invalidName = true;
  if (typeof info.etag === 'string') out.etag = info.etag;
  return out;
}

/** `adminOnly`: for a member kept from the template's adminOnly files (adminOnly.ts), those files' patterns. */
export type FileServer = { id: string; clusterId: string; machineId: string; adminOnly?: DenyList };

/** The server's machine and cluster; 404 when it does not exist, 409 naming the job while it is being transferred. */
export async function fileServer(connection: CommonQueryMethods, serverId: string): Promise<FileServer> {
  const row = await connection.maybeOne(
    sql.type(z.object({ id: z.string(), clusterId: z.string(), machineId: z.string(), transferJobId: z.string().nullable() }))`
      SELECT id, cluster_id AS "clusterId", machine_id AS "machineId",
             (SELECT job_id FROM transfers t WHERE t.server_id = servers.id AND t.finished_at IS NULL LIMIT 1) AS "transferJobId"
        FROM servers WHERE id = ${serverId}`,
  );
  if (!row) throw notFound('Server not found');
  if (row.transferJobId) throw transferConflict(row.transferJobId);
  return { id: row.id, clusterId: row.clusterId, machineId: row.machineId };
}

/** One request to the server's agent; rejects with the HTTP error of a refusal. */
export async function agentFiles(server: FileServer, op: string, args: Record<string, unknown> = {}, data?: Buffer): Promise<Record<string, unknown>> {
  const channel = fileChannelOf(server.machineId);
  if (!channel)
    throw new AppError(
      503,
      holdsAgentConnections()
        ? "The server's agent is not connected (to this service process)"
        : 'File operations reach the agents through the processes holding their connections (the orchestrator role); a web process forwards them over Redis, and this one has no REDIS_URL: set it, or route /api/v1/servers/*/files* to processes running both roles (docs/files.md#limits)',
      { extra: { code: 'AGENT_UNAVAILABLE' } },
    );
  // Paths the caller may not touch are refused before the agent is asked (a search's matches are filtered below).
  for (const key of ['path', 'from', 'to']) checkAdminOnly(server.adminOnly, args[key]);
  if (op === 'search') checkAdminOnly(server.adminOnly, (args.options as { path?: unknown } | undefined)?.path);
  let answer: Record<string, unknown>;
  try {
    answer = await channel({ serverId: server.id, op, ...args, ...(data ? { data } : {}) }, REQUEST_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof AgentUnreachableError)
      throw new AppError(503, "The server's agent is not connected", { cause: error, extra: { code: 'AGENT_UNAVAILABLE' } });
    // The request reached the agent (or the process holding it): a change may have been made all the same.
    throw new AppError(504, "The server's agent did not answer in time; the operation may have been applied", {
      cause: error,
      extra: { code: 'AGENT_TIMEOUT' },
    });
  }
  if (answer.error) throw agentError(answer.error as never);
  const adminOnly = server.adminOnly;
  if (op === 'search' && adminOnly && !adminOnly.empty) {
    const result = answer.result as { matches?: { path: string }[] } | undefined;
    if (result?.matches) answer.result = { ...result, matches: result.matches.filter((match) => !isAdminOnly(adminOnly, match.path)) };
  }
  return answer;
}

const toBuffer = (value: unknown): Buffer =>
  Buffer.isBuffer(value) ? value : value instanceof Uint8Array ? Buffer.from(value) : value instanceof ArrayBuffer ? Buffer.from(value) : Buffer.alloc(0);

/**
 * Opens a file on the agent and answers its state and a stream of bytes `start`..`end` (inclusive), each chunk asked
 * for only when the consumer wants more. The handle is closed at the end, or when the stream is destroyed.
 */
export async function downloadStream(
  server: FileServer,
  path: string,
  range: { start?: number; end?: number } = {},
): Promise<{ info: FileInfo; stream: Readable }> {
  const opened = await agentFiles(server, 'open', { path, flags: { read: true } });
  const handle = opened.handle as number;
  const info = publicInfo(opened.info as Record<string, unknown>);
  const last = range.end ?? info.size - 1;
  let requested = range.start ?? 0;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void agentFiles(server, 'close', { handle }).catch(() => undefined);
  };
  // Reads asked for ahead, in file order (at most TRANSFER_WINDOW chunks' bytes): each is pushed once the consumer wants more.
  const ahead: { length: number; data: Promise<Buffer> }[] = [];
  let aheadBytes = 0;
  const askAhead = () => {
    while (!closed && aheadBytes < TRANSFER_WINDOW * TRANSFER_CHUNK && requested <= last) {
      const length = Math.min(readChunkOf(server), last - requested + 1);
      const data = agentFiles(server, 'read', { handle, position: requested, length }).then((answer) => toBuffer(answer.data));
      data.catch(() => undefined); // awaited in turn below; a failure there destroys the stream
      ahead.push({ length, data });
      aheadBytes += length;
      requested += length;
    }
  };
  let pumping = false;
  const stream: Readable = new Readable({
    highWaterMark: TRANSFER_CHUNK,
    read() {
      if (pumping) return;
      pumping = true;
      void (async () => {
        try {
          for (;;) {
            askAhead();
            const next = ahead.shift();
            if (next) aheadBytes -= next.length;
            if (!next) {
              close();
              stream.push(null);
              return;
            }
            const data = await next.data;
            if (stream.destroyed) return;
            // A short read: the file ended sooner than it was (it shrank meanwhile); what was asked for beyond is dropped.
            if (data.length < next.length) {
              if (data.length > 0) stream.push(data);
              close();
              stream.push(null);
              return;
            }
            if (!stream.push(data)) return;
          }
        } catch (error) {
          close();
          stream.destroy(error as Error);
        } finally {
          pumping = false;
        }
      })();
    },
    destroy(error, callback) {
      close();
      callback(error);
    },
  });
  return { info, stream };
}

/**
 * Writes to an open handle with up to TRANSFER_WINDOW writes in flight (the agent applies them in order, and none after
 * one that failed). `write` waits while the window is full, so the source is read at the agent's pace; `written` is
 * the end of what the agent confirmed, contiguous from the start.
 */
function windowedWriter(server: FileServer, handle: number, start: number) {
  const inFlight: Promise<void>[] = [];
  let sent = start;
  let written = start;
  let failure: unknown;
  return {
    async write(data: Buffer) {
      if (failure !== undefined) throw failure;
      if (inFlight.length >= TRANSFER_WINDOW) await inFlight.shift();
      const at = sent;
      sent += data.length;
      const done = agentFiles(server, 'write', { handle, position: at }, data).then(
        () => void (written = Math.max(written, at + data.length)),
        (error: unknown) => {
          failure ??= error;
          throw error;
        },
      );
      done.catch(() => undefined); // awaited in turn (or by drain)
      inFlight.push(done);
    },
    /** Waits for every write in flight; throws the first failure. */
    async drain() {
      await Promise.allSettled(inFlight.splice(0));
      if (failure !== undefined) throw failure;
    },
    get written() {
      return written;
    },
  };
}

/**
 * Writes a whole file atomically from `source` (a window of chunks in flight, the next read only when there is room:
 * the client's upload is slowed to the agent's pace). `ifMatch` is checked when the file is opened and at the rename.
 * Answers the new state, and the content when it is text of at most 1 MiB (for the config history).
 */
export async function uploadAtomic(
  server: FileServer,
  path: string,
  source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
  options: { ifMatch?: string; maxBytes: number },
): Promise<{ info: FileInfo; size: number; text?: string }> {
  const opened = await agentFiles(server, 'open', { path, flags: { atomic: true, ...(options.ifMatch !== undefined ? { ifMatch: options.ifMatch } : {}) } });
  const handle = opened.handle as number;
  let position = 0; // bytes handed to the writer
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const writer = windowedWriter(server, handle, 0);
  const tooLarge = (received: number) => {
    if (received > options.maxBytes)
      throw new AppError(413, `The file is larger than the limit of ${options.maxBytes} bytes`, { extra: { code: 'TOO_LARGE' } });
  };
  try {
    for await (const chunk of transferChunks(source, tooLarge)) {
      if (keptBytes <= HISTORY_MAX_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
      await writer.write(chunk);
      position += chunk.length;
    }
    await writer.drain();
  } catch (error) {
    await writer.drain().catch(() => undefined);
    await agentFiles(server, 'close', { handle }).catch(() => undefined);
    throw error;
  }
  const closed = await agentFiles(server, 'close', { handle, commit: true });
  const info = publicInfo(closed.info as Record<string, unknown>);
  let text: string | undefined;
  if (keptBytes <= HISTORY_MAX_BYTES) {
    const bytes = Buffer.concat(kept);
    const decoded = bytes.toString('utf8');
    if (!bytes.includes(0) && Buffer.from(decoded, 'utf8').equals(bytes)) text = decoded;
  }
  return { info, size: position, ...(text !== undefined ? { text } : {}) };
}

/**
 * The bytes of `source` (a request body, a download) cut into chunks of TRANSFER_CHUNK bytes (the last one shorter),
 * each byte copied at most once: pieces are copied into the chunk being filled (one buffer, however small the pieces:
 * a body trickling in bytes holds no more than that), and whole chunks of a large piece that starts a chunk are
 * passed on as views of it. `check` is called with the bytes received so far as each piece arrives (a size limit
 * throws there). When the source fails or `check` throws, the error is thrown; with `keep`, the bytes already
 * received are first handed on as a last, shorter chunk and `keep.failed` is set before it (a resumable upload keeps
 * what arrived, and its write of that chunk may fail without hiding the error).
 */
export async function* transferChunks(
  source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
  check: (received: number) => void,
  keep?: { failed: boolean },
): AsyncGenerator<Buffer> {
  let filling: Buffer | undefined;
  let filled = 0;
  let received = 0;
  let failure: { error: unknown } | undefined;
  try {
    for await (const piece of source) {
      let bytes =
        typeof piece === 'string' ? Buffer.from(piece) : Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      check(received + bytes.length);
      received += bytes.length;
      while (bytes.length > 0) {
        if (filled === 0 && bytes.length >= TRANSFER_CHUNK) {
          const chunk = bytes.subarray(0, TRANSFER_CHUNK);
          bytes = bytes.subarray(TRANSFER_CHUNK);
          yield chunk;
          continue;
        }
        filling ??= Buffer.allocUnsafe(TRANSFER_CHUNK);
        const copied = bytes.copy(filling, filled, 0, Math.min(bytes.length, TRANSFER_CHUNK - filled));
        filled += copied;
        bytes = bytes.subarray(copied);
        if (filled === TRANSFER_CHUNK) {
          const chunk = filling;
          filling = undefined;
          filled = 0;
          yield chunk;
        }
      }
    }
  } catch (error) {
    failure = { error };
  }
  if (failure && !keep) throw failure.error;
  if (failure && keep) keep.failed = true;
  if (filling && filled > 0) yield filling.subarray(0, filled);
  if (failure) throw failure.error;
}

/** An audit entry of a file change, with the path (and size, target …) in its details. */
export async function auditFileChange(
  connection: CommonQueryMethods,
  origin: Origin,
  server: FileServer,
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(connection, origin, { clusterId: server.clusterId, action, target: { type: 'server', id: server.id }, details });
}

export const fileVersion = z.object({
  id: z.string(),
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  via: z.enum(['api', 'sftp', 'restore']),
  actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  createdAt: z.string(),
});
export type FileVersion = z.infer<typeof fileVersion>;

const versionRow = z.object({
  id: z.string(),
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  via: z.enum(['api', 'sftp', 'restore']),
  actorKind: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  createdAt: z.string(),
});
const VERSION_COLUMNS = sql.fragment`id, path, size, sha256, via, actor_kind AS "actorKind", actor_id AS "actorId", actor_name AS "actorName",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;
const versionOf = (row: z.infer<typeof versionRow>): FileVersion => ({
  id: row.id,
  path: row.path,
  size: row.size,
  sha256: row.sha256,
  via: row.via,
  actor: { kind: row.actorKind, id: row.actorId, name: row.actorName },
  createdAt: row.createdAt,
});

/**
 * Keeps `content` as the newest version of the text file `path` (normalized, without a leading `/`) of server
 * `serverId`, and drops the versions beyond the last 20. The function SFTP calls after a text file written over it is
 * closed (`via: 'sftp'`). Content over 1 MiB, holding NUL or not valid UTF-8 is not kept (answers undefined).
 */
export async function recordFileVersion(
  connection: CommonQueryMethods,
  origin: Origin,
  input: { serverId: string; path: string; content: string; via: 'api' | 'sftp' | 'restore' },
): Promise<FileVersion | undefined> {
  const bytes = Buffer.byteLength(input.content, 'utf8');
  if (bytes > HISTORY_MAX_BYTES || input.content.includes('\0') || !input.content.isWellFormed()) return undefined;
  const path = input.path.replace(/^\/+/, '');
  const row = await connection.one(
    sql.type(versionRow)`
      INSERT INTO file_versions (server_id, path, content, size, sha256, actor_kind, actor_id, actor_name, via)
      VALUES (${input.serverId}, ${path}, ${input.content}, ${bytes}, ${createHash('sha256').update(input.content).digest('hex')},
              ${origin.actor.kind}, ${origin.actor.id}, ${origin.actor.name}, ${input.via})
      RETURNING ${VERSION_COLUMNS}`,
  );
  await connection.query(sql.unsafe`
    DELETE FROM file_versions WHERE server_id = ${input.serverId} AND path = ${path} AND id NOT IN (
      SELECT id FROM file_versions WHERE server_id = ${input.serverId} AND path = ${path} ORDER BY created_at DESC, id DESC LIMIT ${HISTORY_VERSIONS})`);
  return versionOf(row);
}

/** The kept versions of a file, newest first. */
export async function listFileVersions(connection: CommonQueryMethods, serverId: string, path: string): Promise<FileVersion[]> {
  const rows = await connection.any(
    sql.type(versionRow)`SELECT ${VERSION_COLUMNS} FROM file_versions WHERE server_id = ${serverId} AND path = ${path.replace(/^\/+/, '')}
      ORDER BY created_at DESC, id DESC`,
  );
  return rows.map(versionOf);
}

/** One version with its content; 404 when the server has no such version. */
export async function getFileVersion(connection: CommonQueryMethods, serverId: string, versionId: string): Promise<FileVersion & { content: string }> {
  const row = await connection.maybeOne(
    sql.type(
      versionRow.extend({ content: z.string() }),
    )`SELECT ${VERSION_COLUMNS}, content FROM file_versions WHERE server_id = ${serverId} AND id = ${versionId}`,
  );
  if (!row) throw notFound('File version not found');
  return { ...versionOf(row), content: row.content };
}

/**
 * A unified diff (`---`/`+++`, one hunk per change with 3 lines of context) from `before` to `after`. Lines common
 * at both ends are set aside first; the middle is compared line by line (longest common subsequence) when it is at
 * most 4 million line pairs, otherwise shown as replaced whole.
 */
export function unifiedDiff(before: string, after: string, names: { from: string; to: string }): string {
  const lines = (text: string) => {
    const all = text.split('\n');
    if (all.at(-1) === '') all.pop();
    return all;
  };
  const a = lines(before);
  const b = lines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  type Op = { kind: ' ' | '-' | '+'; line: string };
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: ' ', line }));
  if (midA.length * midB.length <= 4_000_000) {
    const n = midA.length;
    const m = midB.length;
    const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) table[i]![j] = midA[i] === midB[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ kind: ' ', line: midA[i]! });
        i++;
        j++;
      } else if (i < n && (j === m || table[i + 1]![j]! >= table[i]![j + 1]!)) ops.push({ kind: '-', line: midA[i++]! });
      else ops.push({ kind: '+', line: midB[j++]! });
    }
  } else {
    ops.push(...midA.map((line) => ({ kind: '-' as const, line })), ...midB.map((line) => ({ kind: '+' as const, line })));
  }
  ops.push(...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })));
  if (!ops.some((op) => op.kind !== ' ')) return '';
  const out = [`--- ${names.from}`, `+++ ${names.to}`];
  const CONTEXT = 3;
  let index = 0;
  const lineA = (k: number) => ops.slice(0, k).filter((op) => op.kind !== '+').length;
  const lineB = (k: number) => ops.slice(0, k).filter((op) => op.kind !== '-').length;
  while (index < ops.length) {
    while (index < ops.length && ops[index]!.kind === ' ') index++;
    if (index >= ops.length) break;
    const start = Math.max(0, index - CONTEXT);
    let end = index;
    let quiet = 0;
    while (end < ops.length && quiet <= CONTEXT * 2) {
      quiet = ops[end]!.kind === ' ' ? quiet + 1 : 0;
      end++;
    }
    end = Math.min(ops.length, end - Math.max(0, quiet - CONTEXT));
    const hunk = ops.slice(start, end);
    const countA = hunk.filter((op) => op.kind !== '+').length;
    const countB = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${lineA(start) + (countA ? 1 : 0)},${countA} +${lineB(start) + (countB ? 1 : 0)},${countB} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    index = end;
  }
  return `${out.join('\n')}\n`;
}

/** Reads a text file of at most `limit` bytes whole (the editor's read, a diff against the current file). */
export async function readText(server: FileServer, path: string, limit: number): Promise<{ info: FileInfo; text?: string }> {
  const { info, stream } = await downloadStream(server, path);
  if (info.size > limit) {
    stream.destroy();
    return { info };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const text = bytes.toString('utf8');
  if (bytes.includes(0) || !Buffer.from(text, 'utf8').equals(bytes)) return { info };
  return { info, text };
}

/** How long an unfinished upload may be resumed. */
export const UPLOAD_TTL_HOURS = 24;

export const uploadRow = z.object({
  id: z.string(),
  serverId: z.string(),
  path: z.string(),
  partPath: z.string(),
  size: z.number(),
  ifMatch: z.string().nullable(),
  expiresAt: z.string(),
});
export type Upload = z.infer<typeof uploadRow>;
const UPLOAD_COLUMNS = sql.fragment`id, server_id AS "serverId", path, part_path AS "partPath", size::float8 AS size, if_match AS "ifMatch",
  to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt"`;

/** Where an upload's bytes wait: beside the target, a hidden name of its own. */
const partPathOf = (path: string, id: string) => {
  const slash = path.lastIndexOf('/');
  const dir = slash === -1 ? '' : `${path.slice(0, slash)}/`;
  const name = path.slice(slash + 1).slice(0, 160);
  return `${dir}.${name}.gsm-upload-${id.slice(-12)}.part`;
};

/** Starts a resumable upload of `size` bytes to `path`: an empty part file is made on the agent (refusals then). */
export async function createUpload(
  connection: CommonQueryMethods,
  origin: Origin,
  server: FileServer,
  input: { path: string; size: number; ifMatch?: string },
): Promise<Upload & { offset: number }> {
  if (input.ifMatch !== undefined) {
    // Checked now too, so a conflict shows before any byte is sent (and again when the upload completes).
    const current = await agentFiles(server, 'stat', { path: input.path }).then(
      (answer) => (answer.info as { etag?: string }).etag,
      (error: unknown) => {
        if (error instanceof AppError && error.status === 404) return undefined;
        throw error;
      },
    );
    const ok = input.ifMatch === '*' ? current !== undefined : input.ifMatch === 'none' ? current === undefined : current === input.ifMatch;
    if (!ok) throw new AppError(412, `/${input.path} changed since that version`, { extra: { code: 'PRECONDITION_FAILED', etag: current ?? null } });
  }
  const row = await connection.one(
    sql.type(uploadRow)`
      INSERT INTO file_uploads (server_id, path, part_path, size, if_match, created_by, expires_at)
      VALUES (${server.id}, ${input.path}, '', ${input.size}, ${input.ifMatch ?? null}, ${origin.actor.id}, now() + make_interval(hours => ${UPLOAD_TTL_HOURS}))
      RETURNING ${UPLOAD_COLUMNS}`,
  );
  const partPath = partPathOf(input.path, row.id);
  await connection.query(sql.unsafe`UPDATE file_uploads SET part_path = ${partPath} WHERE id = ${row.id}`);
  const opened = await agentFiles(server, 'open', { path: partPath, flags: { write: true, create: true, exclusive: true, truncate: true, mode: 0o600 } });
  await agentFiles(server, 'close', { handle: opened.handle });
  return { ...row, partPath, offset: 0 };
}

/** An unfinished, unexpired upload of the server; 404 otherwise. */
export async function getUpload(connection: CommonQueryMethods, serverId: string, uploadId: string): Promise<Upload> {
  const row = await connection.maybeOne(
    sql.type(uploadRow)`SELECT ${UPLOAD_COLUMNS} FROM file_uploads WHERE id = ${uploadId} AND server_id = ${serverId} AND expires_at > now()`,
  );
  if (!row) throw notFound('Upload not found (finished, cancelled or expired)');
  return row;
}

/** The bytes received so far: the part file's size. */
export async function uploadOffset(server: FileServer, upload: Upload): Promise<number> {
  const answer = await agentFiles(server, 'lstat', { path: upload.partPath }).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 404)
      throw new AppError(409, 'The upload’s received bytes are gone from the server; start it again', { extra: { code: 'UPLOAD_LOST' } });
    throw error;
  });
  return Number((answer.info as { size: number }).size);
}

/**
 * Appends `source` to the upload at `offset` (which must be the bytes received so far: 409 with the current offset
 * otherwise), a chunk at a time; when the upload is complete, its part file is renamed over the target (If-Match
 * checked again) and the answer carries the new entry. A body cut short keeps what arrived: resume from the new offset.
 */
export async function appendUpload(
  server: FileServer,
  upload: Upload,
  offset: number,
  source: AsyncIterable<Buffer | Uint8Array | string>,
): Promise<{ offset: number; entry?: FileInfo }> {
  const current = await uploadOffset(server, upload);
  if (offset !== current) throw new AppError(409, `The upload is at offset ${current}`, { extra: { code: 'OFFSET_MISMATCH', offset: current } });
  const opened = await agentFiles(server, 'open', { path: upload.partPath, flags: { write: true } });
  const handle = opened.handle as number;
  const writer = windowedWriter(server, handle, offset);
  const pastEnd = (received: number) => {
    if (offset + received > upload.size)
      throw new AppError(413, `The upload is ${upload.size} bytes; this would write past its end`, { extra: { code: 'TOO_LARGE' } });
  };
  try {
    // What arrived is written even when the body was cut short (transferChunks hands it on before the error); a
    // failure of that last write does not hide why the body ended.
    const body = { failed: false };
    for await (const chunk of transferChunks(source, pastEnd, body))
      await writer.write(chunk).catch((error: unknown) => {
        if (!body.failed) throw error;
      });
    await writer.drain();
  } finally {
    await writer.drain().catch(() => undefined);
    await agentFiles(server, 'close', { handle }).catch(() => undefined);
  }
  // What the agent confirmed (its writes land in order: the part file is exactly that long).
  const position = writer.written;
  if (position < upload.size) return { offset: position };
  if (upload.ifMatch !== null) {
    const now = await agentFiles(server, 'stat', { path: upload.path }).then(
      (answer) => (answer.info as { etag?: string }).etag,
      () => undefined,
    );
    const ok = upload.ifMatch === '*' ? now !== undefined : upload.ifMatch === 'none' ? now === undefined : now === upload.ifMatch;
    if (!ok) throw new AppError(412, `/${upload.path} changed while it was uploaded`, { extra: { code: 'PRECONDITION_FAILED', etag: now ?? null } });
  }
  // The file gets the mode of the one it replaces (0644 for a new one), not the part file's 0600.
  const mode = await agentFiles(server, 'stat', { path: upload.path }).then(
    (answer) => Number((answer.info as { mode: number }).mode) & 0o777,
    () => 0o644,
  );
  await agentFiles(server, 'chmod', { path: upload.partPath, mode });
  const renamed = await agentFiles(server, 'rename', { from: upload.partPath, to: upload.path, overwrite: true });
  return { offset: position, entry: publicInfo(renamed.info as Record<string, unknown>) };
}

/** Forgets an upload (finished or cancelled); a cancelled one's part file is removed. */
export async function endUpload(connection: CommonQueryMethods, server: FileServer, upload: Upload, options: { removePart: boolean }): Promise<void> {
  await connection.query(sql.unsafe`DELETE FROM file_uploads WHERE id = ${upload.id}`);
  if (options.removePart) await agentFiles(server, 'remove', { path: upload.partPath }).catch(() => undefined);
}
