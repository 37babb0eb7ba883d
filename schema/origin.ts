/**
 * Who acts, from where, under which request: the one value domain functions take to attribute a change (audit entry,
 * a job's `createdBy`, a ban's author). The API builds it once per request from the caller's credentials; the
 * orchestrator passes SYSTEM_ORIGIN or a task's origin. Domain code never sees the HTTP context.
 */

export type ActorKind = 'USER' | 'TOKEN' | 'TASK' | 'SYSTEM' | 'ANONYMOUS';

/** Who the audit log names: a user, one of a user's API tokens, a scheduled task, or the service itself. */
export type Actor = { kind: ActorKind; id: string | null; name: string | null };

export type Origin = {
  actor: Actor;
  /** The user behind the actor (an API token's owner); null for tasks, the service and anonymous callers. */
  userId: string | null;
  /** The client's address, when a request made the change. */
  ip: string | null;
  /** The request's id (`X-Request-Id`), when a request made the change. */
  requestId: string | null;
  /**
   * The request's `Idempotency-Key`, once claimed for it: jobs the request creates record it in the accepting
   * statement, so a retry after a crash finds them (api/middleware/idempotency.ts).
   */
  idempotencyKey?: string | null;
};

/** Changes the service makes by itself (ban expiry, a kick of a banned player who joined). */
export const SYSTEM_ORIGIN: Origin = { actor: { kind: 'SYSTEM', id: null, name: null }, userId: null, ip: null, requestId: null };

/** Changes a scheduled task makes (its runs and their steps' jobs). */
export const taskOrigin = (taskId: string): Origin => ({ actor: { kind: 'TASK', id: taskId, name: null }, userId: null, ip: null, requestId: null });

/** The same origin, attributed to another actor (a sign-in is the signed-in user's doing, not the anonymous caller's). */
export const actingAs = (origin: Origin, actor: Actor, userId: string | null = actor.kind === 'USER' ? actor.id : origin.userId): Origin => ({
  ...origin,
  actor,
  userId,
});
