/**
 * The console's records (docs/events.md, "Console sequence and resume"): every line a server's console relays has a
 * sequence number, per server, larger than every one before it; a client resumes after the last one it has.
 */
import { z } from 'zod';

/** A console sequence as a socket body carries it (a JSON number). */
export const consoleSequence = z
  .number({ message: 'expected a console sequence (a whole number)' })
  .int('expected a whole number')
  .min(0, 'expected a console sequence ≥ 0')
  .max(Number.MAX_SAFE_INTEGER, 'expected a console sequence');

/** A console sequence in a query string. */
export const consoleSequenceQuery = z
  .string()
  .regex(/^\d{1,16}$/, 'expected a console sequence (a whole number)')
  .transform(Number)
  .pipe(consoleSequence)
  .meta({ type: 'integer', description: 'A console sequence: the lines after it' });

export const consoleLine = z
  .object({ at: z.string(), line: z.string(), seq: z.number().int().describe('The line’s sequence: per server, larger than every earlier line’s') })
  .meta({ id: 'ConsoleLine', example: { at: '2026-11-24T03:00:00.000Z', line: '[12:00:00] [Server thread/INFO]: Done (4.2s)!', seq: 1_795_000_000_000_000 } });
