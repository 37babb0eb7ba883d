/**
 * The single error middleware, installed first. Every error answer has the seed's body
 * `{ statusCode, message, error, details?, retryAfter? }`, including unknown routes (404) and wrong methods (405).
 * 5xx answers never carry internal detail; the log line with the same request id does.
 */
import type { Middleware } from 'koa';
import type { Logger } from '../../schema/logger.ts';
import { AppError, statusName } from '../../schema/errors.ts';
import { fromDatabaseError } from './databaseErrors.ts';

export type ErrorBody = {
  statusCode: number;
  message: string;
  error: string;
  details?: { field: string; message: string }[];
  retryAfter?: number;
};

/** Normalises anything thrown into an AppError. Unknown errors become a 500 that exposes nothing. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fromDatabase = fromDatabaseError(error);
  if (fromDatabase) return fromDatabase;
  // Errors from Koa's own stack (http-errors, co-body) carry an HTTP status and whether their message is safe.
  if (error instanceof Error && 'status' in error && typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    const message = 'expose' in error && error.expose ? error.message : statusName(error.status);
    return new AppError(error.status, message, { cause: error });
  }
  return new AppError(500, 'Internal Server Error', { cause: error });
}

export function errorBody(error: AppError): ErrorBody {
  return {
    statusCode: error.status,
    message: error.expose ? error.message : statusName(error.status),
    error: statusName(error.status),
    ...(error.details ? { details: error.details } : {}),
    ...error.extra,
  };
}

export function errorHandler(logger: Logger): Middleware {
  return async function handleErrors(ctx, next) {
    try {
      await next();
      // The router answers unknown paths with an empty 404 and wrong methods with an empty 405 (and `Allow`).
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new AppError(404, `No route for ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405) throw new AppError(405, `Method ${ctx.method} is not allowed on ${ctx.path}`);
        if (ctx.status === 501) throw new AppError(501, `Method ${ctx.method} is not supported by this server`);
      }
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.status >= 500) {
        logger.error({ err: error.cause ?? error, status: error.status }, 'request error');
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.body = errorBody(error);
    }
  };
}
