/**
 * The request's Origin (who acts, from where, under which request id), built at the edge from what the middleware
 * stack put on the context: the authenticated principal, the client address and the request id.
 */
import type { Context } from 'koa';
import type { Actor, Origin } from '../../schema/origin.ts';
import type { Principal } from './principal.ts';

export const actorOf = (principal: Principal | undefined): Actor => {
  if (!principal) return { kind: 'ANONYMOUS', id: null, name: null };
  return principal.kind === 'TOKEN'
    ? { kind: 'TOKEN', id: principal.tokenId, name: `${principal.user.displayName} (token ${principal.tokenName})` }
    : { kind: 'USER', id: principal.user.id, name: principal.user.displayName };
};

export function originOf(ctx: Context): Origin {
  const principal = ctx.state.principal as Principal | undefined;
  return {
    actor: actorOf(principal),
    userId: principal?.user.id ?? null,
    ip: ctx.ip || null,
    requestId: (ctx.state.requestId as string | undefined) ?? null,
    idempotencyKey: (ctx.state.idempotencyKey as string | undefined) ?? null,
  };
}
