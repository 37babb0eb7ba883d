/**
 * What Postgres can store, checked (or made so) before a report reaches it. Postgres refuses a NUL character in text,
 * and in jsonb also its escape `\u0000` and a lone UTF-16 surrogate (`\ud800`, which JSON.stringify writes for a
 * JavaScript string holding half a pair); it refuses timestamps of year 0 and time zone offsets beyond ±15:59. One such
 * value fails its whole statement, and the gateway stores the reports of many agents together: so agent text is either
 * refused at the gateway (isStorableText) or made storable (storableJson), and report times are checked
 * (reportTime).
 */
import { z } from 'zod';

/** No NUL and no lone surrogate: text Postgres stores as it is, in a text column or inside jsonb. */
export const isStorableText = (value: string): boolean => !value.includes('\u0000') && value.isWellFormed();

/** The text with NUL characters removed and lone surrogates replaced by U+FFFD (what a UTF-8 decoder shows for them). */
export const storableText = (value: string): string => value.replaceAll('\u0000', '').toWellFormed();

/**
 * A copy of a JSON value whose strings (object keys included) are storable text. Game output is free text: a NUL in
 * an RCON answer is the game's, and must not make an honest result unstorable.
 */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item) => storableJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)])) as T;
  }
  return value;
}

/** Earliest report time accepted: no agent's clock has a reason to be earlier than the Unix epoch. */
export const EARLIEST_REPORT_TIME = Date.UTC(1970, 0, 1);
/** Latest report time accepted (the four-digit years of ISO 8601; later than now is counted as now when stored). */
export const LATEST_REPORT_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** Largest time zone offset Postgres accepts, in minutes (±15:59). */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;

const offsetMinutes = (value: string): number => {
  const offset = /([+-])(\d\d):?(\d\d)$/.exec(value);
  return offset ? Number(offset[2]) * 60 + Number(offset[3]) : 0;
};

/** An ISO 8601 time with an offset, that Postgres can store and within the years an agent can mean. */
export const reportTime = z.iso
  .datetime({ offset: true })
  .refine((value) => offsetMinutes(value) <= MAX_OFFSET_MINUTES, 'time zone offset must be within ±15:59')
  .refine((value) => {
    const at = Date.parse(value);
    return at >= EARLIEST_REPORT_TIME && at <= LATEST_REPORT_TIME;
  }, 'must be between 1970-01-01 and 9999-12-31');
