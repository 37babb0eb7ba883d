import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { logContext } from '../../observability/logger.ts';

/** A client-supplied id is echoed only when it is a sane token, so it cannot inject text into logs. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id: the client's `X-Request-Id` when sane, a new UUID otherwise; sets it on the answer. */
export function requestId(): Middleware {
  return async function assignRequestId(ctx, next) {
    const sent = ctx.get('X-Request-Id');
    const id = CLIENT_ID.test(sent) ? sent : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await logContext.run({ requestId: id }, next);
  };
}
