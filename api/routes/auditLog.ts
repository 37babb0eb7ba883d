/**
 * The audit log of a cluster (OWNER and ADMIN): who changed what, from where, with which request id.
 */
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { listOf } from '../../schema/http.ts';
import { auditEntry, auditListQuery, clusterIdParams } from '../../schema/identity.ts';
import { auditLogPage } from '../../orchestrator/audit.ts';

export function installAuditLogRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/audit-log',
    summary: "A cluster's audit log",
    description: 'Filters: `action` (exact, e.g. `member.update`), `actorId`, `targetId`. Newest first by default.',
    tags: ['Audit'],
    auth: 'user',
    params: clusterIdParams,
    query: auditListQuery,
    permission: { action: 'audit.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Audit entries', schema: listOf(auditEntry) } },
    handler: async (_ctx, { params, query }) => {
      return auditLogPage(pool, params.clusterId, query);
    },
  });
}
