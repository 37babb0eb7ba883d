/**
 * The audit log. Every state-changing request writes one entry in the same transaction as its change, so the log
 * can neither miss a change nor record one that was rolled back.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { Origin } from '../schema/origin.ts';
import { auditEntry, type auditListQuery } from '../schema/identity.ts';
import { fetchPage, orderBy } from '../sql/listing.ts';

export type AuditEntry = {
  clusterId: string | null;
  /** `<resource>.<verb>`, for example `cluster.update`, `member.remove`, `token.create`. */
  action: string;
  target: { type: string; id: string | null };
  /** What the change touched beyond its target (a file change: `path`, `size`, …). */
  details?: Record<string, unknown>;
};

/** Records `entry` by `origin` (actor, address, request id) on `connection` (the change's transaction). */
export async function recordAudit(connection: CommonQueryMethods, origin: Origin, entry: AuditEntry): Promise<void> {
  const { actor } = origin;
  await connection.query(sql.unsafe`
    INSERT INTO audit_log (cluster_id, actor_kind, actor_id, actor_name, action, target_type, target_id, ip, request_id, details)
    VALUES (${entry.clusterId}, ${actor.kind}, ${actor.id}, ${actor.name}, ${entry.action}, ${entry.target.type},
            ${entry.target.id}, ${origin.ip}, ${origin.requestId}, ${entry.details ? sql.jsonb(entry.details as never) : null})`);
}

const entryRow = z.object({
  id: z.string(),
  clusterId: z.string().nullable(),
  actorKind: auditEntry.shape.actor.shape.kind,
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetName: z.string().nullable(),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  at: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

/**
 * A target's name as it is today, looked up with the page (a scalar lookup by primary key per entry), so that people
 * read "server Main" and not an id. Only records of the entry's own cluster are named; a webhook is named by its
 * description, never its URL (a Discord URL carries its secret).
 */
const TARGET_NAME = sql.fragment`CASE a.target_type
  WHEN 'server' THEN (SELECT t.name FROM servers t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'machine' THEN (SELECT t.name FROM machines t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'player' THEN (SELECT t.username FROM players t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'ban' THEN (SELECT p.username FROM bans t JOIN players p ON p.id = t.player_id WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'task' THEN (SELECT t.name FROM tasks t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'backup' THEN (SELECT t.name FROM backups t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'invitation' THEN (SELECT t.email FROM invitations t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'webhook' THEN (SELECT t.description FROM webhooks t WHERE t.id = a.target_id AND t.cluster_id = a.cluster_id)
  WHEN 'cluster' THEN (SELECT t.name FROM clusters t WHERE t.id = a.target_id AND t.id = a.cluster_id)
  WHEN 'user' THEN (SELECT t.display_name FROM users t WHERE t.id = a.target_id)
END`;

/** One page of `clusterId`'s audit log, filtered and sorted as asked, each target named as it is today. */
export async function auditLogPage(connection: CommonQueryMethods, clusterId: string, query: z.output<typeof auditListQuery>) {
  const filters = [
    sql.fragment`a.cluster_id = ${clusterId}`,
    ...(query.action ? [sql.fragment`a.action = ${query.action}`] : []),
    ...(query.actorId ? [sql.fragment`a.actor_id = ${query.actorId}`] : []),
    ...(query.targetId ? [sql.fragment`a.target_id = ${query.targetId}`] : []),
  ];
  const where = sql.join(filters, sql.fragment` AND `);
  const page = await fetchPage(connection, {
    schema: entryRow,
    columns: sql.fragment`
      a.id, a.cluster_id AS "clusterId", a.actor_kind AS "actorKind", a.actor_id AS "actorId", a.actor_name AS "actorName",
      a.action, a.target_type AS "targetType", a.target_id AS "targetId", ${TARGET_NAME} AS "targetName", a.ip, a.request_id AS "requestId", a.at, a.details`,
    from: sql.fragment`audit_log a WHERE ${where}`,
    order: orderBy(query.sort, { at: sql.fragment`a.at` }, sql.fragment`a.id`),
    page: query,
  });
  const data = page.data.map((row) => ({
    id: row.id,
    clusterId: row.clusterId,
    actor: { kind: row.actorKind, id: row.actorId, name: row.actorName },
    action: row.action,
    target: { type: row.targetType, id: row.targetId, name: row.targetName },
    ip: row.ip,
    requestId: row.requestId,
    at: row.at,
    ...(row.details ? { details: row.details } : {}),
  }));
  return { ...page, data };
}
