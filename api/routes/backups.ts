/**
 * Backups of a server (docs/installs-and-backups.md): OWNER and ADMIN make one (a BACKUP job), restore one onto the
 * stopped server (a RESTORE job) and delete one; every member lists and reads them.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { job } from '../../schema/jobs.ts';
import { backup, backupListQuery, createBackupBody } from '../../schema/backups.ts';
import { backupPage, deleteBackup, getBackup, requestBackup, requestRestore } from '../../orchestrator/backups/store.ts';
import { originOf } from '../identity/origin.ts';

const params = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });
const TAGS = ['Installs and backups'];

export function installBackupRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const byServer = clusterOfParam(pool.reads, 'servers');
  const byBackup = clusterOfParam(pool.reads, 'backups');

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/backups',
    summary: 'Back up a server',
    description:
      "A BACKUP job and its PENDING backup: the agent archives the server's directory (a running MINECRAFT server is flushed with saving paused meanwhile; other running games are archived live, `consistent: false`), records its size and SHA-256, and keeps it on the machine or in its S3-compatible storage. When it completes, the oldest completed backups beyond the server's `backupRetention` are deleted. 202 with the Job (`params.backupId` names the backup) and `Location` of the backup.",
    tags: TAGS,
    auth: 'user',
    params,
    body: createBackupBody,
    permission: { action: 'servers.manage', cluster: byServer },
    status: 202,
    responses: { 202: { description: 'The BACKUP job, accepted', schema: job, headers: { Location: 'The backup' } } },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      const { job: created, backupId } = await pool.transaction((tx) =>
        requestBackup(tx, originOf(ctx), {
          serverId,
          name: body.name,
          clusterId: ctx.state.clusterId as string,
          audit: true,
          requireConsistent: body.requireConsistent,
        }),
      );
      ctx.set('Location', `/api/v1/backups/${backupId}`);
      return created;
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/backups',
    summary: "List a server's backups",
    description: 'Newest first by default; filter `status`.',
    tags: TAGS,
    auth: 'user',
    params,
    query: backupListQuery,
    permission: { action: 'cluster.read', cluster: byServer },
    responses: { 200: { description: 'Backups', schema: listOf(backup) } },
    handler: (_ctx, { params: { id: serverId }, query }) => backupPage(pool, serverId, query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/backups/:id',
    summary: 'Get a backup',
    tags: TAGS,
    auth: 'user',
    params,
    permission: { action: 'cluster.read', cluster: byBackup },
    responses: { 200: { description: 'The backup', schema: backup } },
    handler: (_ctx, { params: { id: backupId } }) => getBackup(pool, backupId),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/backups/:id',
    summary: 'Delete a backup',
    description:
      'Deletes the backup; its agent removes the archive (at once when connected, else when it next connects). 409 while it is being made or restored.',
    tags: TAGS,
    auth: 'user',
    params,
    permission: { action: 'servers.manage', cluster: byBackup },
    responses: { 200: { description: 'Deleted', schema: success }, 409: { description: 'Being made or restored' } },
    handler: async (ctx, { params: { id: backupId } }) => {
      await deleteBackup(pool, originOf(ctx), backupId);
      return { success: true as const, message: 'Backup deleted' };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/backups/:id/restore',
    summary: 'Restore a backup',
    description:
      "A RESTORE job: the agent checks the archive's SHA-256 while it extracts it beside the server's directory, then swaps the two; the old directory is kept until the restore succeeded, and a failed restore leaves it as it was. The server must be stopped (409 otherwise), and the backup COMPLETED (409 otherwise). 202 with the Job and `Location`.",
    tags: TAGS,
    auth: 'user',
    params,
    permission: { action: 'servers.manage', cluster: byBackup },
    status: 202,
    responses: {
      202: { description: 'The RESTORE job, accepted', schema: job, headers: { Location: 'The job' } },
      409: { description: 'The server runs, or the backup is not completed' },
    },
    handler: async (ctx, { params: { id: backupId } }) => {
      const created = await requestRestore(pool, originOf(ctx), backupId);
      ctx.set('Location', `/api/v1/jobs/${created.id}`);
      return created;
    },
  });
}
