/**
 * The audit log. Every state-changing request writes one entry in the same transaction as its change, so the log
 * can neither miss a change nor record one that was rolled back.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import type { Origin } from '../schema/origin.ts';

export type AuditEntry = {
  clusterId: string | null;
  /** `<resource>.<verb>`, for example `cluster.update`, `member.remove`, `token.create`. */
  action: string;
  target: { type: string; id: string | null };
};

/** Records `entry` by `origin` (actor, address, request id) on `connection` (the change's transaction). */
export async function recordAudit(connection: CommonQueryMethods, origin: Origin, entry: AuditEntry): Promise<void> {
  const { actor } = origin;
  await connection.query(sql.unsafe`
    INSERT INTO audit_log (cluster_id, actor_kind, actor_id, actor_name, action, target_type, target_id, ip, request_id)
    VALUES (${entry.clusterId}, ${actor.kind}, ${actor.id}, ${actor.name}, ${entry.action}, ${entry.target.type},
            ${entry.target.id}, ${origin.ip}, ${origin.requestId})`);
}
