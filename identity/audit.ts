/**
 * The audit log. Every state-changing request writes one entry in the same transaction as its change, so the log
 * can neither miss a change nor record one that was rolled back.
 */
import type { Context } from 'koa';
import { sql, type CommonQueryMethods } from 'slonik';
import type { Principal } from './principal.ts';

export type Actor = { kind: 'USER' | 'TOKEN' | 'TASK' | 'SYSTEM' | 'ANONYMOUS'; id: string | null; name: string | null };

export type AuditEntry = {
  clusterId: string | null;
  /** `<resource>.<verb>`, for example `cluster.update`, `member.remove`, `token.create`. */
  action: string;
  target: { type: string; id: string | null };
};

export const actorOf = (principal: Principal | undefined): Actor => {
  if (!principal) return { kind: 'ANONYMOUS', id: null, name: null };
  return principal.kind === 'TOKEN'
    ? { kind: 'TOKEN', id: principal.tokenId, name: `${principal.user.displayName} (token ${principal.tokenName})` }
    : { kind: 'USER', id: principal.user.id, name: principal.user.displayName };
};

/** Records `entry` for the request `ctx` (actor, address, request id) on `connection` (the change's transaction). */
export async function recordAudit(connection: CommonQueryMethods, ctx: Context, entry: AuditEntry, actor: Actor = actorOf(ctx.state.principal)): Promise<void> {
  await connection.query(sql.unsafe`
    INSERT INTO audit_log (cluster_id, actor_kind, actor_id, actor_name, action, target_type, target_id, ip, request_id)
    VALUES (${entry.clusterId}, ${actor.kind}, ${actor.id}, ${actor.name}, ${entry.action}, ${entry.target.type},
            ${entry.target.id}, ${ctx.ip || null}, ${(ctx.state.requestId as string | undefined) ?? null})`);
}
