/**
 * The file jobs of a server (docs/files.md#archives-and-pulls): compress, extract and pull a URL, 202 with the job (FILE_COMPRESS,
 * FILE_EXTRACT) and `Location` of it; `GET /api/v1/jobs/<id>` shows its progress and result. `files.write`.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { id } from '../../schema/http.ts';
import { job } from '../../schema/jobs.ts';
import { compressBody, extractBody, pullBody } from '../../schema/files.ts';
import { badRequest } from '../../schema/errors.ts';
import { agentFiles, fileServer } from '../../orchestrator/files/serverFiles.ts';
import { requestFileJob } from '../../orchestrator/files/fileJobs.ts';
import { requestFilePull } from '../../orchestrator/files/filePull.ts';
import { configuredResolver, targetProblem } from '../../orchestrator/webhooks/addresses.ts';
import { originOf } from '../identity/origin.ts';

const params = z.object({ id });
const TAGS = ['Server files'];
const server = { param: 'id' } as const;

export function installFileJobRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  // The webhooks' resolver (c-ares, within WEBHOOK_DNS_TIMEOUT_MS): a name server that never answers cannot hold a request.
  const resolve = configuredResolver(config);

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/compress',
    summary: 'Compress files into an archive',
    description:
      "A FILE_COMPRESS job: the agent writes `archive` (.tar.gz, .tgz or .zip, replaced atomically if it exists) from `paths` (files and directories of one directory, named in the archive relative to it), as the server's account. Symbolic links and special files are left out (the result's `skipped`); deny-listed entries are not read. A zip is at most 65,535 entries and 4 GiB (use .tar.gz beyond). 202 with the job; its `progress` and `result` (`entries`, `bytes`, `skipped`, `archive`) follow on `GET /api/v1/jobs/<id>`.",
    tags: TAGS,
    auth: 'user',
    params,
    body: compressBody,
    permission: { action: 'files.write', server },
    status: 202,
    responses: { 202: { description: 'The FILE_COMPRESS job, accepted', schema: job, headers: { Location: 'The job' } } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const where = await fileServer(pool, serverId);
      const created = await pool.transaction((tx) =>
        requestFileJob(tx, originOf(ctx), where, { type: 'FILE_COMPRESS', params: { sources: body.paths, archive: body.archive } }),
      );
      ctx.set('Location', `/api/v1/jobs/${created.id}`);
      return created;
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/extract',
    summary: 'Extract an archive',
    description:
      "A FILE_EXTRACT job: the agent checks the whole archive (.tar.gz, .tgz or .zip) before writing anything — links (symbolic or hard), absolute names, names with `..` or NUL and special files are refused; the entry count and the total uncompressed size must be within FILES_EXTRACT_MAX_ENTRIES and FILES_EXTRACT_MAX_BYTES; a zip's methods must be stored or deflate; a file must not land where a directory is, in the archive or on the server, or the reverse; the free space must hold it — then writes it into a staging directory inside `destination` (`.gsm-extract-<hex>`, as the server's account), verifying every entry (a zip's CRC-32, actual sizes), and only when all of it is written moves the files into place (existing files of the same names are replaced). An archive that fails a check, a damaged entry or a cancel leaves nothing of it in place (the staging directory is removed; one a killed helper left is removed by the next extraction into that directory once 24 hours old); only a failure while the checked files are being moved into place (the disk, a permission) can leave those moved before it. The job fails with the refusal's code (LINK_REFUSED, INVALID_PATH, TOO_LARGE, NO_SPACE, IS_A_DIRECTORY, NOT_A_DIRECTORY, INVALID). 202 with the job.",
    tags: TAGS,
    auth: 'user',
    params,
    body: extractBody,
    permission: { action: 'files.write', server },
    status: 202,
    responses: { 202: { description: 'The FILE_EXTRACT job, accepted', schema: job, headers: { Location: 'The job' } } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const where = await fileServer(pool, serverId);
      // The archive must be there now (404 at once, not a failed job), and its size goes into the audit entry.
      const info = (await agentFiles(where, 'stat', { path: body.path })).info as { size: number; type: string };
      const destination = body.destination ?? (body.path.includes('/') ? body.path.slice(0, body.path.lastIndexOf('/')) : '');
      const created = await pool.transaction((tx) =>
        requestFileJob(tx, originOf(ctx), where, {
          type: 'FILE_EXTRACT',
          params: { archive: body.path, destination, maxBytes: config.FILES_EXTRACT_MAX_BYTES, maxEntries: config.FILES_EXTRACT_MAX_ENTRIES },
          archiveSize: info.size,
        }),
      );
      ctx.set('Location', `/api/v1/jobs/${created.id}`);
      return created;
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/files/pull',
    summary: 'Pull a file from a URL',
    description:
      "A FILE_PULL job: the service downloads `url` into `path` (written beside it and renamed over it at the end, as the server's account), under the webhooks' address rules: http(s) without credentials, never a private, loopback, link-local or reserved address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS), redirects followed (at most 5) only to addresses that pass the same check, at most FILES_PULL_MAX_BYTES (default 1 GiB). Names are resolved as webhooks' are (c-ares at WEBHOOK_DNS_SERVERS or the system's name servers, within WEBHOOK_DNS_TIMEOUT_MS). A URL refused at once is 400 (without WEBHOOK_ALLOW_PRIVATE_NETWORKS its name is resolved then, and a name that does not resolve in time is refused too); one refused later (its name resolving to a private address, a redirect) fails the job with `URL_REFUSED`; a larger file with `TOO_LARGE`; a URL that sends nothing for FILES_PULL_IDLE_SECONDS (default 60), or a download longer than FILES_PULL_MAX_SECONDS (default 3600), with `TIMEOUT` (30 s for the headers). 202 with the job; its `progress` follows the download, its `result` is `{ path, size, url, versionId }` (a text file of at most 1 MiB is kept in the config history like a write; `versionId` null otherwise).",
    tags: TAGS,
    auth: 'user',
    params,
    body: pullBody,
    permission: { action: 'files.write', server },
    status: 202,
    responses: { 202: { description: 'The FILE_PULL job, accepted', schema: job, headers: { Location: 'The job' } } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const problem = await targetProblem(body.url, config.WEBHOOK_ALLOW_PRIVATE_NETWORKS, resolve);
      if (problem) throw badRequest(`The URL cannot be pulled: it ${problem}`);
      const where = await fileServer(pool, serverId);
      const created = await pool.transaction((tx) => requestFilePull(tx, originOf(ctx), where, { url: body.url, path: body.path }));
      ctx.set('Location', `/api/v1/jobs/${created.id}`);
      return created;
    },
  });
}
