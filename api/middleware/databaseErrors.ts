/**
 * Postgres failures mapped to HTTP in one place: SQLSTATE classes and slonik's error types become AppErrors.
 * Constraint names carry their own client-facing message (see `CONSTRAINT_MESSAGES`), so a unique violation explains
 * itself without leaking SQL.
 */
import {
  ConnectionError,
  ForeignKeyIntegrityConstraintViolationError,
  NotFoundError,
  UniqueIntegrityConstraintViolationError,
  CheckIntegrityConstraintViolationError,
  BackendTerminatedError,
  BackendTerminatedUnexpectedlyError,
  StatementTimeoutError,
} from 'slonik';
import { AppError } from '../../schema/errors.ts';

/** Client-facing messages for named constraints. Later issues add theirs next to their migrations. */
export const CONSTRAINT_MESSAGES: Record<string, string> = {};

const constraintOf = (error: unknown): string | undefined => {
  const cause = (error as { cause?: { constraint?: string } }).cause;
  return cause?.constraint ?? (error as { constraint?: string }).constraint;
};

/** Network-level failures to reach Postgres (refused, reset, DNS). */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P03', '53300']);

export function fromDatabaseError(error: unknown): AppError | undefined {
  if (error instanceof NotFoundError) return new AppError(404, 'Not found', { cause: error });
  if (error instanceof UniqueIntegrityConstraintViolationError) {
    const constraint = constraintOf(error);
    return new AppError(409, (constraint && CONSTRAINT_MESSAGES[constraint]) ?? 'A record with these values already exists', { cause: error });
  }
  if (error instanceof ForeignKeyIntegrityConstraintViolationError) {
    const constraint = constraintOf(error);
    return new AppError(409, (constraint && CONSTRAINT_MESSAGES[constraint]) ?? 'The record is referenced by, or refers to, another record', { cause: error });
  }
  if (error instanceof CheckIntegrityConstraintViolationError) {
    const constraint = constraintOf(error);
    return new AppError(400, (constraint && CONSTRAINT_MESSAGES[constraint]) ?? 'A value is out of range', { cause: error });
  }
  if (
    error instanceof ConnectionError ||
    error instanceof BackendTerminatedError ||
    error instanceof BackendTerminatedUnexpectedlyError ||
    error instanceof StatementTimeoutError
  ) {
    return new AppError(503, 'Database unavailable', { cause: error });
  }
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  // Text Postgres cannot store (a NUL character, in text or in JSON).
  if (code === '22021' || code === '22P05') return new AppError(400, 'Text must not contain NUL characters', { cause: error });
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return new AppError(503, 'Database unavailable', { cause: error });
  // A deadlock or serialization failure: the transaction was rolled back whole, and the same request sent again
  // normally succeeds. Not the client's fault, and not a bug to report as 500.
  if (code === '40P01' || code === '40001') {
    return new AppError(503, 'The request collided with a concurrent change and was undone; retry it', { headers: { 'Retry-After': '1' }, cause: error });
  }
  return undefined;
}
