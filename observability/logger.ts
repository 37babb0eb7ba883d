/**
 * JSON logs (pino). Every line written while a request is being handled carries that request's id: the id lives in
 * an AsyncLocalStorage store that the request-id middleware opens, and pino's mixin reads it for every line.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger, type LevelWithSilent, type LoggerOptions } from 'pino';

export type LogContext = { requestId: string };

export const logContext = new AsyncLocalStorage<LogContext>();

/** Header and body fields whose values must never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.refreshToken',
  '*.accessToken',
  '*.agentToken',
  '*.rconPassword',
];

export function createLogger(level: LevelWithSilent = 'info', destination: DestinationStream = pino.destination(1)): Logger {
  const options: LoggerOptions = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin() {
      const context = logContext.getStore();
      return context ? { requestId: context.requestId } : {};
    },
  };
  return pino(options, destination);
}

export type { Logger };
