/**
 * Server files (docs/files.md): list, read and download (Range), write and upload atomically (If-Match), mkdir,
 * rename, copy, delete, chmod, search and the config history, carried to the server's agent and run there as the
 * server's account. `files.read` (OWNER, ADMIN, MODERATOR) reads, `files.write` (OWNER, ADMIN) changes; every change
 * is in the audit log with its path and size.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { id } from '../../schema/http.ts';
import { AppError, badRequest } from '../../schema/errors.ts';
import {
  chmodBody,
  contentQuery,
  createUploadBody,
  uploadState,
  copyBody,
  deleteQuery,
  diffQuery,
  fileDiff,
  fileEntry,
  fileList,
  fileListQuery,
  fileVersionSchema,
  fileVersionWithContent,
  mkdirBody,
  pathQuery,
  renameBody,
  restoreBody,
  searchQuery,
  searchResult,
  textContent,
  writeQuery,
  writeResult,
} from '../../schema/files.ts';
import {
  agentFiles,
  appendUpload,
  auditFileChange,
  createUpload,
  endUpload,
  getUpload,
  uploadOffset,
  downloadStream,
  fileServer,
  getFileVersion,
  HISTORY_MAX_BYTES,
  listFileVersions,
  publicInfo,
  readText,
  recordFileVersion,
  unifiedDiff,
  uploadAtomic,
  type FileServer,
} from '../../orchestrator/files/serverFiles.ts';
import { adminOnlyList, checkAdminOnly, keptFromAdminOnly } from '../../orchestrator/files/adminOnly.ts';
import type { Role } from '../../schema/roles.ts';
import { originOf } from '../identity/origin.ts';

const params = z.object({ id });
const versionParams = z.object({ id, versionId: id });
const uploadParams = z.object({ id, uploadId: id });
const TAGS = ['Server files'];
const server = { param: 'id' } as const;
const success = z.object({ success: z.literal(true), message: z.string() });

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; undefined: the whole file; 'unsatisfiable': 416. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** RFC 6266 `attachment` with the name in ASCII (others as `_`) and in UTF-8 (`filename*`). */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function installFileRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  const transfers = new Map<string, number>();

  /** Counts a transfer of the server; 429 beyond FILES_MAX_TRANSFERS at once. Answers its release. */
  function beginTransfer(serverId: string): () => void {
    const running = transfers.get(serverId) ?? 0;
    if (running >= config.FILES_MAX_TRANSFERS)
      throw new AppError(429, `This server already has ${running} transfers running; try again when one has ended`, { headers: { 'Retry-After': '5' } });
    transfers.set(serverId, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (transfers.get(serverId) ?? 1) - 1;
      if (now <= 0) transfers.delete(serverId);
      else transfers.set(serverId, now);
    };
  }

  /** The server's files as the caller may reach them: without `servers.manage`, its template's adminOnly files are denied. */
  const target = async (serverId: string, ctx?: Context): Promise<FileServer> => {
    const server = await fileServer(pool, serverId);
    if (ctx && keptFromAdminOnly(ctx.state.role as Role)) return { ...server, adminOnly: await adminOnlyList(pool, serverId) };
    return server;
  };

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files',
    summary: 'List a directory of a server',
    description:
      "Entries sorted by name (byte order), `limit` (≤ 10,000) per page after `after` (the previous page's `next`: a cursor, the last name, or for a name that is not UTF-8 `/` and its bytes in base64url); `total` counts the directory's entries. Links are shown, never followed; entries on the deny list are left out. A name that is not valid UTF-8 on disk is shown with `invalidName` and each such byte as `\\xHH`.",
    tags: TAGS,
    auth: 'user',
    params,
    query: fileListQuery,
    permission: { action: 'files.read', server },
    responses: { 200: { description: 'A page of the directory', schema: fileList } },
    handler: async (ctx, { params: { id: serverId }, query }) => {
      const answer = await agentFiles(await target(serverId, ctx), 'list', {
        path: query.path,
        limit: query.limit,
        ...(query.after !== undefined ? { after: query.after } : {}),
      });
      const entries = (answer.entries as Record<string, unknown>[]).map(publicInfo);
      return { path: `/${query.path}`, entries, total: answer.total as number, next: (answer.next as string | undefined) ?? null };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/stat',
    summary: 'Get a file or directory of a server',
    description: 'The entry, links followed (inside the server directory only).',
    tags: TAGS,
    auth: 'user',
    params,
    query: pathQuery,
    permission: { action: 'files.read', server },
    responses: { 200: { description: 'The entry', schema: fileEntry } },
    handler: async (ctx, { params: { id: serverId }, query }) =>
      publicInfo((await agentFiles(await target(serverId, ctx), 'stat', { path: query.path })).info as never),
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/content',
    summary: "Read or download a server's file",
    description:
      '`format=raw` (default): the bytes as a download (`Content-Disposition: attachment`, `ETag`, `Accept-Ranges`; `Range: bytes=a-b` answers 206), streamed from the agent a chunk at a time. `format=text`: JSON with the content of a UTF-8 text file of at most 1 MiB (415 for binary, 413 for larger files: download them).',
    tags: TAGS,
    auth: 'user',
    params,
    query: contentQuery,
    permission: { action: 'files.read', server },
    responses: {
      200: { description: 'The file (bytes), or its text (JSON)', schema: textContent },
      206: { description: 'A range of the file' },
      413: { description: 'Too large to show as text' },
      415: { description: 'Not text' },
      416: { description: 'The range is outside the file' },
    },
    handler: async (ctx: Context, { params: { id: serverId }, query }) => {
      const where = await target(serverId, ctx);
      if (query.format === 'text') {
        const read = await readText(where, query.path, HISTORY_MAX_BYTES);
        if (read.info.type !== 'file') throw new AppError(409, `/${query.path} is not a file`);
        if (read.text === undefined && read.info.size > HISTORY_MAX_BYTES) throw new AppError(413, `/${query.path} is larger than 1 MiB: download it`);
        if (read.text === undefined) throw new AppError(415, `/${query.path} is not UTF-8 text: download it`);
        ctx.set('ETag', read.info.etag ?? '');
        return { path: `/${query.path}`, content: read.text, size: read.info.size, etag: read.info.etag ?? '', modifiedAt: read.info.modifiedAt };
      }
      const release = beginTransfer(serverId);
      try {
        const stat = publicInfo((await agentFiles(where, 'stat', { path: query.path })).info as never);
        if (stat.type !== 'file') throw new AppError(409, `/${query.path} is not a file`);
        const range = parseRange(ctx.get('Range') || undefined, stat.size);
        if (range === 'unsatisfiable') {
          ctx.set('Content-Range', `bytes */${stat.size}`);
          throw new AppError(416, 'The range is outside the file');
        }
        const { info, stream } = await downloadStream(where, query.path, range ?? {});
        ctx.set('ETag', info.etag ?? '');
        ctx.set('Accept-Ranges', 'bytes');
        ctx.set('Content-Disposition', disposition(query.path.split('/').at(-1)!));
        ctx.set('Cache-Control', 'private, no-store');
        ctx.type = 'application/octet-stream';
        if (range) {
          ctx.status = 206;
          ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
          ctx.length = range.end - range.start + 1;
        } else {
          ctx.status = 200;
          ctx.length = info.size;
        }
        // The slot is the client's download, not the agent's read: it is held until the response itself closes
        // (sent whole, or the client gone), however much of the file sits in buffers meanwhile.
        ctx.res.once('close', release);
        stream.once('error', release);
        ctx.body = stream;
        return undefined;
      } catch (error) {
        release();
        throw error;
      }
    },
  });

  api.route({
    method: 'put',
    path: '/api/v1/servers/:id/files/content',
    summary: "Write or upload a server's file",
    description:
      "The request body (any content type, up to FILES_MAX_UPLOAD_BYTES, default 1 GiB) becomes the file, atomically: written beside it, then renamed over it with the old file's mode, so readers never see half a file and an interrupted upload changes nothing. `If-Match: <ETag>` (from a read) refuses with 412 (the current `etag` in the body) when the file changed meanwhile; `If-Match: *` requires it to exist, `If-None-Match: *` requires it not to. Text files of at most 1 MiB are kept in the config history. The new file belongs to the server's account.",
    tags: TAGS,
    auth: 'user',
    params,
    query: writeQuery,
    permission: { action: 'files.write', server },
    responses: {
      200: { description: 'Written', schema: writeResult },
      412: { description: 'The file changed since the version in If-Match' },
      413: { description: 'Larger than the upload limit' },
    },
    handler: async (ctx: Context, { params: { id: serverId }, query }) => {
      const declared = ctx.request.length;
      if (declared !== undefined && declared > config.FILES_MAX_UPLOAD_BYTES)
        throw new AppError(413, `The file is larger than the limit of ${config.FILES_MAX_UPLOAD_BYTES} bytes`);
      const ifMatch = ctx.get('If-Match') || undefined;
      const ifNoneMatch = ctx.get('If-None-Match') || undefined;
      if (ifNoneMatch !== undefined && ifNoneMatch !== '*') throw badRequest('If-None-Match takes only * here');
      if (ifMatch !== undefined && !/^(\*|"[^"\s]{1,190}")$/.test(ifMatch)) throw badRequest('If-Match must be * or one strong ETag');
      const where = await target(serverId, ctx);
      const release = beginTransfer(serverId);
      let written: Awaited<ReturnType<typeof uploadAtomic>>;
      try {
        written = await uploadAtomic(where, query.path, ctx.req, {
          maxBytes: config.FILES_MAX_UPLOAD_BYTES,
          ...(ifMatch !== undefined ? { ifMatch } : ifNoneMatch === '*' ? { ifMatch: 'none' } : {}),
        });
      } finally {
        release();
      }
      const origin = originOf(ctx);
      const version = await pool.transaction(async (tx) => {
        await auditFileChange(tx, origin, where, 'server.file_write', { path: `/${query.path}`, size: written.size });
        return written.text !== undefined ? recordFileVersion(tx, origin, { serverId, path: query.path, content: written.text, via: 'api' }) : undefined;
      });
      ctx.set('ETag', written.info.etag ?? '');
      return { entry: written.info, size: written.size, versionId: version?.id ?? null };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/directories',
    summary: 'Create a directory on a server',
    description: 'With `recursive` (default true) the directories above it are made too, and an existing directory is fine.',
    tags: TAGS,
    auth: 'user',
    params,
    body: mkdirBody,
    permission: { action: 'files.write', server },
    status: 201,
    responses: { 201: { description: 'The directory', schema: fileEntry } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const where = await target(serverId, ctx);
      const info = publicInfo((await agentFiles(where, 'mkdir', { path: body.path, recursive: body.recursive })).info as never);
      await auditFileChange(pool, originOf(ctx), where, 'server.file_mkdir', { path: `/${body.path}` });
      return info;
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/rename',
    summary: 'Rename or move a file or directory on a server',
    description:
      'Refuses an existing target unless `overwrite`; a directory holding an entry on the deny list cannot be moved (nor anything moved onto a denied name).',
    tags: TAGS,
    auth: 'user',
    params,
    body: renameBody,
    permission: { action: 'files.write', server },
    responses: { 200: { description: 'The entry at its new path', schema: fileEntry } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const where = await target(serverId, ctx);
      const info = publicInfo((await agentFiles(where, 'rename', { from: body.from, to: body.to, overwrite: body.overwrite })).info as never);
      await auditFileChange(pool, originOf(ctx), where, 'server.file_rename', { path: `/${body.from}`, to: `/${body.to}`, size: info.size });
      return info;
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/copy',
    summary: 'Copy a file or directory on a server',
    description: 'Directories are copied whole; links are copied as links (never followed). The target must not exist.',
    tags: TAGS,
    auth: 'user',
    params,
    body: copyBody,
    permission: { action: 'files.write', server },
    status: 201,
    responses: { 201: { description: 'The copy', schema: fileEntry } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const where = await target(serverId, ctx);
      const info = publicInfo((await agentFiles(where, 'copy', { from: body.from, to: body.to })).info as never);
      await auditFileChange(pool, originOf(ctx), where, 'server.file_copy', { path: `/${body.from}`, to: `/${body.to}`, size: info.size });
      return info;
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/servers/:id/files',
    summary: 'Delete a file or directory on a server',
    description: 'A link is removed itself, never its target. A directory that is not empty needs `recursive=true` (409 otherwise).',
    tags: TAGS,
    auth: 'user',
    params,
    query: deleteQuery,
    permission: { action: 'files.write', server },
    responses: { 200: { description: 'Deleted', schema: success } },
    handler: async (ctx, { params: { id: serverId }, query }) => {
      const where = await target(serverId, ctx);
      const before = await agentFiles(where, 'lstat', { path: query.path });
      await agentFiles(where, 'remove', { path: query.path, recursive: query.recursive });
      const info = before.info as { size?: number; type?: string };
      await auditFileChange(pool, originOf(ctx), where, 'server.file_delete', { path: `/${query.path}`, size: info.size ?? 0, type: info.type ?? null });
      return { success: true as const, message: 'Deleted' };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/chmod',
    summary: "Change a server's file mode",
    description: 'Modes 0–0777 (no setuid, setgid or sticky bits). A symbolic link is refused (409), never followed.',
    tags: TAGS,
    auth: 'user',
    params,
    body: chmodBody,
    permission: { action: 'files.write', server },
    responses: { 200: { description: 'The entry', schema: fileEntry } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const where = await target(serverId, ctx);
      const info = publicInfo((await agentFiles(where, 'chmod', { path: body.path, mode: body.mode })).info as never);
      await auditFileChange(pool, originOf(ctx), where, 'server.file_chmod', { path: `/${body.path}`, mode: body.mode.toString(8) });
      return info;
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/search',
    summary: "Search a server's files by name or content",
    description:
      'Bounded: depth (`maxDepth`), entries looked at (`maxFiles`), results (`maxResults`), 256 MiB of content and 10 s; `stoppedEarly` says which bound ended it. Links are not followed; binary files are skipped by a content search; denied entries are left out.',
    tags: TAGS,
    auth: 'user',
    params,
    query: searchQuery,
    permission: { action: 'files.read', server },
    responses: { 200: { description: 'Matches', schema: searchResult } },
    handler: async (ctx, { params: { id: serverId }, query }) => {
      const answer = await agentFiles(await target(serverId, ctx), 'search', { options: query });
      const result = answer.result as z.infer<typeof searchResult>;
      return { ...result, stoppedEarly: result.stoppedEarly ?? null };
    },
  });

  /** The config history keeps contents in the database: an adminOnly file's versions are refused like the file. */
  async function checkHistoryPath(ctx: Context, serverId: string, path: string): Promise<void> {
    if (keptFromAdminOnly(ctx.state.role as Role)) checkAdminOnly(await adminOnlyList(pool, serverId), path);
  }

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/versions',
    summary: "List a text file's kept versions",
    description: 'The config history: the last 20 versions of a text file (≤ 1 MiB) written through the API or SFTP, newest first.',
    tags: TAGS,
    auth: 'user',
    params,
    query: pathQuery,
    permission: { action: 'files.read', server },
    responses: { 200: { description: 'Versions', schema: z.object({ data: z.array(fileVersionSchema) }) } },
    handler: async (ctx, { params: { id: serverId }, query }) => {
      await checkHistoryPath(ctx, serverId, query.path);
      return { data: await listFileVersions(pool, serverId, query.path) };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/versions/:versionId',
    summary: 'Get a kept version of a file',
    tags: TAGS,
    auth: 'user',
    params: versionParams,
    permission: { action: 'files.read', server },
    responses: { 200: { description: 'The version and its content', schema: fileVersionWithContent } },
    handler: async (ctx, { params: { id: serverId, versionId } }) => {
      const version = await getFileVersion(pool, serverId, versionId);
      await checkHistoryPath(ctx, serverId, version.path);
      return version;
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/versions/:versionId/diff',
    summary: 'Compare a kept version with the file or another version',
    description: 'A unified diff from the version to `against` (`current`: the file as it is now on the server; or another version id).',
    tags: TAGS,
    auth: 'user',
    params: versionParams,
    query: diffQuery,
    permission: { action: 'files.read', server },
    responses: { 200: { description: 'The diff', schema: fileDiff } },
    handler: async (ctx, { params: { id: serverId, versionId }, query }) => {
      const version = await getFileVersion(pool, serverId, versionId);
      await checkHistoryPath(ctx, serverId, version.path);
      let after: string;
      let to: string;
      if (query.against === 'current') {
        const read = await readText(await target(serverId, ctx), version.path, HISTORY_MAX_BYTES);
        if (read.text === undefined) throw new AppError(409, `/${version.path} is no longer a text file of at most 1 MiB`);
        after = read.text;
        to = 'current';
      } else {
        if (!z.uuid().safeParse(query.against).success) throw badRequest('against must be current or a version id');
        const other = await getFileVersion(pool, serverId, query.against);
        if (other.path !== version.path) throw badRequest('the two versions are of different files');
        after = other.content;
        to = other.id;
      }
      return { from: version.id, to, diff: unifiedDiff(version.content, after, { from: `a/${version.path}`, to: `b/${version.path}` }) };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/versions/:versionId/restore',
    summary: 'Restore a kept version of a file',
    description: 'Writes the version back atomically (`ifMatch`: the ETag the file must still have, 412 otherwise); the restore is itself kept as a version.',
    tags: TAGS,
    auth: 'user',
    params: versionParams,
    body: restoreBody,
    permission: { action: 'files.write', server },
    responses: { 200: { description: 'Written', schema: writeResult }, 412: { description: 'The file changed' } },
    handler: async (ctx, { params: { id: serverId, versionId }, body }) => {
      const version = await getFileVersion(pool, serverId, versionId);
      const where = await target(serverId, ctx);
      const written = await uploadAtomic(where, version.path, [Buffer.from(version.content, 'utf8')], {
        maxBytes: HISTORY_MAX_BYTES,
        ...(body.ifMatch !== undefined ? { ifMatch: body.ifMatch } : {}),
      });
      const origin = originOf(ctx);
      const kept = await pool.transaction(async (tx) => {
        await auditFileChange(tx, origin, where, 'server.file_restore', { path: `/${version.path}`, size: written.size, versionId });
        return recordFileVersion(tx, origin, { serverId, path: version.path, content: version.content, via: 'restore' });
      });
      return { entry: written.info, size: written.size, versionId: kept?.id ?? null };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/uploads',
    summary: 'Start a resumable upload',
    description:
      "For large files and unreliable connections (docs/files.md#resumable-uploads): answers the upload's `id` and `offset` 0; send the bytes with `PATCH …/uploads/<id>` (`Upload-Offset: <offset>`), as one body or many; after a break, `GET …/uploads/<id>` says the offset to go on from. The file replaces its target atomically once all `size` bytes arrived. Unfinished uploads expire after 24 hours.",
    tags: TAGS,
    auth: 'user',
    params,
    body: createUploadBody,
    permission: { action: 'files.write', server },
    status: 201,
    responses: {
      201: { description: 'The upload', schema: uploadState, headers: { Location: 'The upload' } },
      413: { description: 'Larger than the upload limit' },
    },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      if (body.size > config.FILES_MAX_UPLOAD_BYTES) throw new AppError(413, `The file is larger than the limit of ${config.FILES_MAX_UPLOAD_BYTES} bytes`);
      const where = await target(serverId, ctx);
      const upload = await createUpload(pool, originOf(ctx), where, {
        path: body.path,
        size: body.size,
        ...(body.ifMatch !== undefined ? { ifMatch: body.ifMatch } : {}),
      });
      ctx.set('Location', `/api/v1/servers/${serverId}/files/uploads/${upload.id}`);
      ctx.set('Upload-Offset', '0');
      return { id: upload.id, path: `/${upload.path}`, size: upload.size, offset: 0, complete: false, expiresAt: upload.expiresAt, entry: null };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/files/uploads/:uploadId',
    summary: 'Get an upload’s offset',
    description: 'The bytes received so far (also in `Upload-Offset`): where the next PATCH goes on from.',
    tags: TAGS,
    auth: 'user',
    params: uploadParams,
    permission: { action: 'files.write', server },
    responses: { 200: { description: 'The upload', schema: uploadState } },
    handler: async (ctx, { params: { id: serverId, uploadId } }) => {
      const upload = await getUpload(pool, serverId, uploadId);
      const offset = await uploadOffset(await target(serverId, ctx), upload);
      ctx.set('Upload-Offset', String(offset));
      ctx.set('Cache-Control', 'no-store');
      return { id: upload.id, path: `/${upload.path}`, size: upload.size, offset, complete: false, expiresAt: upload.expiresAt, entry: null };
    },
  });

  api.route({
    method: 'patch',
    path: '/api/v1/servers/:id/files/uploads/:uploadId',
    summary: 'Send the next bytes of an upload',
    description:
      'The body (any content type) is appended at `Upload-Offset`, which must be the bytes received so far (409 with the current `offset` otherwise). A body cut short keeps what arrived. When the upload is complete the file is put in place (If-Match of the upload checked again: 412), audited and, for text ≤ 1 MiB, kept in the config history; `complete` and `entry` say so.',
    tags: TAGS,
    auth: 'user',
    params: uploadParams,
    permission: { action: 'files.write', server },
    responses: {
      200: { description: 'The upload after these bytes', schema: uploadState },
      409: { description: 'Upload-Offset is not the current offset' },
      412: { description: 'The target changed meanwhile' },
    },
    handler: async (ctx: Context, { params: { id: serverId, uploadId } }) => {
      const header = ctx.get('Upload-Offset');
      if (!/^\d{1,16}$/.test(header)) throw badRequest('Upload-Offset (a whole number of bytes) is required');
      const upload = await getUpload(pool, serverId, uploadId);
      const where = await target(serverId, ctx);
      const release = beginTransfer(serverId);
      let done: Awaited<ReturnType<typeof appendUpload>>;
      try {
        done = await appendUpload(where, upload, Number(header), ctx.req);
      } finally {
        release();
      }
      ctx.set('Upload-Offset', String(done.offset));
      if (!done.entry)
        return { id: upload.id, path: `/${upload.path}`, size: upload.size, offset: done.offset, complete: false, expiresAt: upload.expiresAt, entry: null };
      const origin = originOf(ctx);
      await pool.transaction(async (tx) => {
        await endUpload(tx, where, upload, { removePart: false });
        await auditFileChange(tx, origin, where, 'server.file_write', { path: `/${upload.path}`, size: upload.size, upload: upload.id });
      });
      return { id: upload.id, path: `/${upload.path}`, size: upload.size, offset: done.offset, complete: true, expiresAt: upload.expiresAt, entry: done.entry };
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/servers/:id/files/uploads/:uploadId',
    summary: 'Cancel an upload',
    description: 'Its received bytes are removed; the target is left as it was.',
    tags: TAGS,
    auth: 'user',
    params: uploadParams,
    permission: { action: 'files.write', server },
    responses: { 200: { description: 'Cancelled', schema: success } },
    handler: async (ctx, { params: { id: serverId, uploadId } }) => {
      const upload = await getUpload(pool, serverId, uploadId);
      await endUpload(pool, await target(serverId, ctx), upload, { removePart: true });
      return { success: true as const, message: 'Upload cancelled' };
    },
  });
}
