/**
 * Request bodies are JSON only and at most 1 MiB (docs/api.md): another content type on a body is 415, a larger
 * body 413 (refused from `Content-Length` before reading when it is declared), malformed JSON 400.
 */
import type { Middleware } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import { AppError, badRequest } from '../../schema/errors.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The routes whose body is raw bytes (a server file's content), not JSON. */
const RAW_BODY_PATH = /^\/api\/v1\/servers\/[^/]+\/files\/content\/?$/;
/** A resumable upload's PATCH: its body is the next bytes of the file. */
const UPLOAD_PATH = /^\/api\/v1\/servers\/[^/]+\/files\/uploads\/[^/]+\/?$/;

const tooLarge = () => new AppError(413, `Request body is larger than ${BODY_LIMIT_BYTES} bytes`);

function hasBody(ctx: Parameters<Middleware>[0]): boolean {
  const length = ctx.request.length;
  if (length !== undefined) return length > 0;
  return ctx.get('Transfer-Encoding') !== '';
}

export function jsonBody(): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: BODY_LIMIT_BYTES,
    multipart: false,
    urlencoded: false,
    text: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    onError(error) {
      const status = (error as { status?: number }).status;
      if (status === 413) throw tooLarge();
      if (status === 415) throw new AppError(415, 'Unsupported body encoding');
      throw badRequest('Request body is not valid JSON');
    },
  });
  const parseBody: Middleware = async (ctx, next) => {
    // A file upload's body is the file itself, streamed to the agent by its route (docs/files.md), of any type and size.
    if ((ctx.method === 'PUT' && RAW_BODY_PATH.test(ctx.path)) || (ctx.method === 'PATCH' && UPLOAD_PATH.test(ctx.path))) return next();
    if (!ctx.is('application/json', 'application/*+json')) {
      throw new AppError(415, 'Request bodies must be JSON (Content-Type: application/json)');
    }
    if ((ctx.request.length ?? 0) > BODY_LIMIT_BYTES) throw tooLarge();
    await parse(ctx, next);
  };
  // Most requests (every GET) carry no body: nothing to check or parse, and no async layer of their own.
  return function parseJsonBody(ctx, next) {
    return hasBody(ctx) ? parseBody(ctx, next) : next();
  };
}
