/**
 * Conditional GET: answers 304 when the request's `If-None-Match` names `etag` (a quoted strong tag; weak `W/` forms
 * and `*` match too). The caller sets the answer's `ETag` and caching headers itself.
 */
import type { Context } from 'koa';

export function notModified(ctx: Context, etag: string): boolean {
  const tags = (ctx.get('If-None-Match') || '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!tags.includes(etag) && !tags.includes('*')) return false;
  ctx.status = 304;
  return true;
}
