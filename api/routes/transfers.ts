/**
 * Transfers of a server to another machine (docs/transfers.md): OWNER and ADMIN start one (a TRANSFER job); its
 * progress is the job's, and it is cancelled like any job (POST /api/v1/jobs/<id>/cancel) until its switch.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id } from '../../schema/http.ts';
import { job } from '../../schema/jobs.ts';
import { transferBody } from '../../schema/transfers.ts';
import { startTransfer } from '../../orchestrator/transfers/store.ts';
import { measureUnknownServerSize } from '../../orchestrator/transfers/measure.ts';
import { originOf } from '../identity/origin.ts';

export function installTransferRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const byServer = clusterOfParam(pool.reads, 'servers');

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/transfer',
    summary: 'Move a server to another machine',
    description:
      "A TRANSFER job (docs/transfers.md): the target's ports are reserved at once, and its room checked against its last reported free space (409 otherwise); without `includeBackups` the local backups are deleted at the switch (listed in the job's `params.backupsToDelete`); then the space on the target is checked, the server stopped, its directory archived on the source and copied to the target in checksummed chunks through the service (resuming from the last acknowledged chunk after any crash), its local backups copied (S3 ones re-pointed), and in one transaction the server's machine and ports switched (a `server.transferred` event); it starts on the target if it was running, and the source's copy is removed (kept with `keepSource`). The job's `progress` has the phase and bytes. Cancel it (POST /api/v1/jobs/<id>/cancel) until the switch: the server is back on its source as it was. Power and file actions answer 409 naming the job meanwhile.",
    tags: ['Servers'],
    auth: 'user',
    params: z.object({ id }),
    body: transferBody,
    permission: { action: 'servers.manage', cluster: byServer },
    status: 202,
    responses: {
      202: { description: 'The TRANSFER job, accepted', schema: job, headers: { Location: 'The job' } },
      409: {
        description:
          'A transfer of the server is under way, a job of the server is (`JOB_IN_PROGRESS`), a port asked for is taken on the target, or the target’s last reported free space cannot hold the server, its backups when they follow and the other transfers to it (`NO_SPACE`, with `freeBytes`, `neededBytes`, `reservedBytes`)',
      },
      400: { description: 'The target is not another machine of the server’s cluster' },
    },
    handler: async (ctx, { params: { id: serverId }, body }) => {
      // A server never measured (stopped since it was made) is measured by its agent now, so the room check counts it.
      await measureUnknownServerSize(pool, serverId, body.machineId);
      const created = await pool.transaction((tx) => startTransfer(tx, originOf(ctx), { clusterId: ctx.state.clusterId as string, serverId, body }));
      ctx.set('Location', `/api/v1/jobs/${created.id}`);
      return created;
    },
  });
}
