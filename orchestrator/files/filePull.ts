/**
 * Pulling a file from a URL into a server's directory (docs/files.md#archives-and-pulls): a FILE_PULL job the
 * orchestrator runs itself (the graphile-worker task `files__pull`), because the webhooks' SSRF guard
 * (orchestrator/webhooks/addresses.ts, fetch.ts `openGuarded`) applies where the request is made: http(s) only, no
 * credentials in the URL, no private or reserved address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS), redirects followed
 * only to addresses that pass the same check, at most FILES_PULL_MAX_BYTES. The bytes stream to the server's agent
 * like an upload (written beside the target, renamed over it at the end, as the server's account).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { Task } from 'graphile-worker';
import type { Config } from '../../schema/config.ts';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { AppError } from '../../schema/errors.ts';
import { recordAudit } from '../audit.ts';
import { acceptServerJob } from '../jobs/serverJobs.ts';
import { endRun, markRunStarted, setServiceJobProgress } from '../jobs/taskRuns.ts';
import { configuredResolver, type HostResolver } from '../webhooks/addresses.ts';
import { openGuarded, type OpenedResponse } from '../webhooks/fetch.ts';
import { agentFiles, fileServer, recordFileVersion, uploadAtomic, type FileServer } from './serverFiles.ts';

export const PULL_TASK = 'files__pull';
/** How long the URL has to answer with its headers. */
const HEADERS_TIMEOUT_MS = 30_000;
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

export type PullSettings = {
  allowPrivate: boolean;
  maxBytes: number;
  idleMs: number;
  maxMs: number;
  userAgent: string;
  /** The webhooks' resolver (WEBHOOK_DNS_SERVERS, WEBHOOK_DNS_TIMEOUT_MS): a silent name server cannot hold a pull. */
  resolve: HostResolver;
};

/** The pull's settings from the service's configuration. */
export const pullSettings = (
  config: Pick<
    Config,
    | 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'
    | 'WEBHOOK_DNS_SERVERS'
    | 'WEBHOOK_DNS_TIMEOUT_MS'
    | 'FILES_PULL_MAX_BYTES'
    | 'FILES_PULL_IDLE_SECONDS'
    | 'FILES_PULL_MAX_SECONDS'
  >,
  version: string,
): PullSettings => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  maxBytes: config.FILES_PULL_MAX_BYTES,
  idleMs: config.FILES_PULL_IDLE_SECONDS * 1000,
  maxMs: config.FILES_PULL_MAX_SECONDS * 1000,
  userAgent: `GameServerManager-FilePull/${version}`,
  resolve: configuredResolver(config),
});

/** A URL as stored in results and the audit log: its query string, fragment and credentials (secrets, often) left out. */
export function redactedUrl(text: string): string {
  try {
    const url = new URL(text);
    const hidden = url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '';
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return hidden ? `${url.toString()}?…` : url.toString();
  } catch {
    return '(not a URL)';
  }
}

/** Accepts a pull (the job, its run on the orchestrator, the audit entry) in the caller's transaction. */
export async function requestFilePull(tx: CommonQueryMethods, origin: Origin, server: FileServer, request: { url: string; path: string }): Promise<Job> {
  const created = await acceptServerJob(tx, origin, {
    serverId: server.id,
    clusterId: server.clusterId,
    type: 'FILE_PULL',
    params: { url: request.url, path: request.path },
    desired: null,
    requireRunning: false,
    dispatch: false,
  });
  await tx.query(sql.unsafe`SELECT graphile_worker.add_job(${PULL_TASK}, json_build_object('jobId', ${created.id}::text), max_attempts => 1)`);
  await recordAudit(tx, origin, {
    clusterId: server.clusterId,
    action: 'server.file_pull',
    target: { type: 'server', id: server.id },
    details: { path: `/${request.path}`, url: redactedUrl(request.url), jobId: created.id },
  });
  return created;
}

const pullRow = z.object({
  id: z.string(),
  serverId: z.string(),
  status: z.string(),
  params: z.object({ url: z.string(), path: z.string() }),
  createdByKind: z.string(),
  createdById: z.string().nullable(),
});

/** A failure of the pull with its code (the job's `error.code`). */
class PullError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

async function pull(pool: DatabasePool, settings: PullSettings, jobId: string): Promise<void> {
  const row = await pool.maybeOne(sql.type(pullRow)`
    SELECT id, server_id AS "serverId", status, params, created_by_kind AS "createdByKind", created_by_id AS "createdById" FROM jobs
     WHERE id = ${jobId} AND type = 'FILE_PULL'`);
  if (!row || row.status !== 'QUEUED') return; // ended (cancelled, expired) or already taken
  await markRunStarted(pool, jobId);
  const started = Date.now();
  const controller = new AbortController();
  // A cancel (POST /api/v1/jobs/<id>/cancel) ends the job's row; the download notices at its next progress write.
  let size = 0;
  let declared: number | null = null;
  let lastWrite = 0;
  const progress = async (force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < PROGRESS_EVERY_MS) return;
    lastWrite = now;
    const percent = declared ? Math.min(100, Math.floor((size / declared) * 100)) : null;
    const still = await setServiceJobProgress(pool, jobId, { percent, message: `${size} bytes received` });
    if (!still) controller.abort();
  };
  try {
    const server = await fileServer(pool, row.serverId);
    const opened: OpenedResponse = await openGuarded(row.params.url, {
      allowPrivate: settings.allowPrivate,
      timeoutMs: HEADERS_TIMEOUT_MS,
      userAgent: settings.userAgent,
      signal: controller.signal,
      resolve: settings.resolve,
    });
    if (!opened.ok) throw new PullError('URL_REFUSED', opened.error);
    const length = Number(opened.response.headers['content-length']);
    declared = Number.isFinite(length) && length >= 0 ? length : null;
    if (declared !== null && declared > settings.maxBytes) {
      opened.response.destroy();
      throw new PullError('TOO_LARGE', `the file is ${declared} bytes, more than the limit of ${settings.maxBytes} (FILES_PULL_MAX_BYTES)`);
    }
    const parent = row.params.path.includes('/') ? row.params.path.slice(0, row.params.path.lastIndexOf('/')) : '';
    if (parent !== '')
      await agentFiles(server, 'mkdir', { path: parent, recursive: true }).catch((error: unknown) => {
        opened.response.destroy();
        throw error;
      });
    const response = opened.response;
    // The body is bounded by an idle time-out (only while waiting for the URL, not while the agent writes) and an
    // overall cap from the start of the pull.
    const overall = setTimeout(
      () => response.destroy(new PullError('TIMEOUT', `the download took longer than ${settings.maxMs / 1000} s (FILES_PULL_MAX_SECONDS)`)),
      Math.max(0, started + settings.maxMs - Date.now()),
    );
    const counted = (async function* () {
      const chunks = (response as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      for (;;) {
        const idle = setTimeout(
          () => response.destroy(new PullError('TIMEOUT', `the URL sent nothing for ${settings.idleMs / 1000} s (FILES_PULL_IDLE_SECONDS)`)),
          settings.idleMs,
        );
        const step = await chunks.next().finally(() => clearTimeout(idle));
        if (step.done) return;
        const chunk = step.value;
        size += chunk.length;
        await progress();
        if (controller.signal.aborted) throw new PullError('CANCELLED', 'cancelled');
        yield chunk;
      }
    })();
    const written = await uploadAtomic(server, row.params.path, counted, { maxBytes: settings.maxBytes }).finally(() => {
      clearTimeout(overall);
      response.destroy();
    });
    // Audited and kept in the config history (a text file of at most 1 MiB) like a write through the API.
    const origin = actorOrigin(row);
    const version = await pool.transaction(async (tx) => {
      await recordAudit(tx, origin, {
        clusterId: server.clusterId,
        action: 'server.file_write',
        target: { type: 'server', id: server.id },
        details: { path: `/${row.params.path}`, size: written.size, via: 'pull', url: redactedUrl(row.params.url), jobId },
      });
      return written.text !== undefined
        ? recordFileVersion(tx, origin, { serverId: server.id, path: row.params.path, content: written.text, via: 'api' })
        : undefined;
    });
    await endRun(pool, jobId, {
      status: 'SUCCEEDED',
      result: { path: `/${row.params.path}`, size: written.size, url: redactedUrl(opened.url), versionId: version?.id ?? null },
      error: null,
    });
  } catch (error) {
    const failure =
      error instanceof PullError
        ? { code: error.code, message: error.message }
        : error instanceof AppError
          ? { code: String((error.extra as { code?: string } | undefined)?.code ?? 'FAILED'), message: error.message }
          : { code: 'FAILED', message: (error as Error).message };
    await endRun(pool, jobId, { status: failure.code === 'CANCELLED' ? 'CANCELLED' : 'FAILED', result: {}, error: failure });
  }
}

const actorOrigin = (row: z.infer<typeof pullRow>): Origin => ({
  actor: { kind: row.createdByKind as Origin['actor']['kind'], id: row.createdById, name: null },
  userId: row.createdByKind === 'USER' ? row.createdById : null,
  ip: null,
  requestId: null,
});

/** The `files__pull` task: runs one FILE_PULL job once (a pull that failed is failed, not retried). */
export const pullTask =
  (deps: { pool: DatabasePool; filePull?: PullSettings }): Task =>
  async (payload) => {
    const { jobId } = z.object({ jobId: z.string() }).parse(payload);
    if (!deps.filePull) throw new Error('files__pull has no settings');
    await pull(deps.pool, deps.filePull, jobId);
  };
