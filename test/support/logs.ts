import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../schema/logger.ts';

/** A real pino logger whose JSON lines are kept in memory, so tests can read what was logged. */
export function captureLogs(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('debug', stream);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
