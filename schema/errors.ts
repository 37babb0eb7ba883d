/**
 * One error hierarchy for the HTTP layer. The error middleware turns any AppError into the seed's body
 * `{ statusCode, message, error, details?, retryAfter? }`; anything else is a 500 whose detail stays in the log.
 */
import { STATUS_CODES } from 'node:http';

export type ErrorDetail = { field: string; message: string };

export class AppError extends Error {
  readonly status: number;
  /** Whether `message` may be shown to the client. 5xx messages never are. */
  readonly expose: boolean;
  readonly details?: ErrorDetail[];
  readonly headers: Record<string, string>;
  /** Extra fields merged into the error body (for example `retryAfter`). */
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; extra?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.expose = status < 500;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export const statusName = (status: number): string => STATUS_CODES[status] ?? 'Error';

export const validationFailed = (details: ErrorDetail[]) => new AppError(400, 'Validation failed', { details });
export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError(400, message, { details });
export const unauthorized = (message = 'Authentication required') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to do this') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const serviceUnavailable = (message = 'Service temporarily unavailable') => new AppError(503, message);
