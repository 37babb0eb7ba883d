/**
 * The audit log of a cluster (OWNER and ADMIN): who changed what, from where, with which request id.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { listOf } from '../../schema/http.ts';
import { auditEntry, auditListQuery, clusterIdParams } from '../../schema/identity.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';

const entryRow = z.object({
  id: z.string(),
  clusterId: z.string().nullable(),
  actorKind: auditEntry.shape.actor.shape.kind,
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  at: z.string(),
});

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
      const filters = [
        sql.fragment`a.cluster_id = ${params.clusterId}`,
        ...(query.action ? [sql.fragment`a.action = ${query.action}`] : []),
        ...(query.actorId ? [sql.fragment`a.actor_id = ${query.actorId}`] : []),
        ...(query.targetId ? [sql.fragment`a.target_id = ${query.targetId}`] : []),
      ];
      const where = sql.join(filters, sql.fragment` AND `);
      const page = await fetchPage(pool, {
        schema: entryRow,
        columns: sql.fragment`
          a.id, a.cluster_id AS "clusterId", a.actor_kind AS "actorKind", a.actor_id AS "actorId", a.actor_name AS "actorName",
          a.action, a.target_type AS "targetType", a.target_id AS "targetId", a.ip, a.request_id AS "requestId", a.at`,
        from: sql.fragment`audit_log a WHERE ${where}`,
        order: orderBy(query.sort, { at: sql.fragment`a.at` }, sql.fragment`a.id`),
        page: query,
      });
      const data = page.data.map((row) => ({
        id: row.id,
        clusterId: row.clusterId,
        actor: { kind: row.actorKind, id: row.actorId, name: row.actorName },
        action: row.action,
        target: { type: row.targetType, id: row.targetId },
        ip: row.ip,
        requestId: row.requestId,
        at: row.at,
      }));
      return { ...page, data };
    },
  });
}
