/**
 * Schemas shared by every HTTP resource: ids, the error body, the list envelope, pagination, sorting and
 * case-insensitive enum filters (docs/api.md).
 */
import { z } from 'zod';

/** Record ids are UUID v7 strings. A malformed id in a path is answered 404 by the route layer. */
export const id = z.uuid({ message: 'expected an id' }).transform((value) => value.toLowerCase());

/** Timestamps in answers: ISO 8601 UTC with milliseconds. */
export const timestamp = z.iso.datetime({ offset: false, precision: 3 });

export const errorDetail = z.object({ field: z.string(), message: z.string() });

export const errorBody = z
  .object({
    statusCode: z.int().min(400).max(599),
    message: z.string(),
    error: z.string(),
    details: z.array(errorDetail).optional(),
    retryAfter: z.int().optional(),
  })
  .meta({ id: 'Error', description: 'Every error answer has this body.' });

/**
 * C0 and C1 control characters (line breaks, tabs, escape, NEL…) and the Unicode line and paragraph separators: none
 * belongs in a name, and a name with line breaks could write paragraphs of its own into the installation's e-mails.
 */
const LINE_BREAKING = '\\p{Cc}\\u2028\\u2029';
/**
 * Bidi controls (U+061C, U+200E/F, U+202A–E, U+2066–9) and zero-width characters (U+200B–D, U+2060–4, U+FEFF): invisible,
 * they can reorder the text around a name or make two names look alike ("Trojan Source").
 */
const INVISIBLE = '\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF';
export const CONTROL_CHARACTERS = new RegExp(`[${LINE_BREAKING}${INVISIBLE}]`, 'u');
export const ONE_LINE_MESSAGE = 'must be one line without control characters (line breaks, bidi or zero-width characters)';
export const VISIBLE_MESSAGE = 'must contain a visible character';
const LINE_BREAK_RUNS = new RegExp(`[${LINE_BREAKING}]+`, 'gu');
const INVISIBLE_RUNS = new RegExp(`[${INVISIBLE}]+`, 'gu');
const NOT_SEEN = /[\p{Cf}\p{Z}\s]/gu;
/** Whether anything is left to see once format characters, separators and white space are taken out. */
export const hasVisibleCharacter = (text: string) => text.replace(NOT_SEEN, '') !== '';
/**
 * Text from elsewhere (an identity provider, rows older than the check) made one line: each run of line breaks or
 * other control characters becomes a space, and bidi and zero-width characters are dropped so they cannot reorder what
 * follows the text.
 */
export const oneLine = (text: string) => text.replace(LINE_BREAK_RUNS, ' ').replace(INVISIBLE_RUNS, '');

/**
 * The rule of names (docs/api.md#names), up to `max` characters: one line, trimmed, with at least one visible
 * character. The raw value is checked first, so control characters are refused even at the ends (not trimmed away),
 * and what is stored is what was typed.
 */
export const nameOfAtMost = (max: number) =>
  z
    .string()
    .refine((value) => !CONTROL_CHARACTERS.test(value), ONE_LINE_MESSAGE)
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => value === '' || hasVisibleCharacter(value), VISIBLE_MESSAGE);

/** A name people give a thing (cluster, machine, server, task, token, backup) or themselves (display name): 1..64. */
export const name = nameOfAtMost(64);

/** Largest page size a list accepts. */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

/** A query parameter holding a whole number (as text), read as a number. */
export const wholeNumber = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number);

export const paginationQuery = {
  page: wholeNumber('page')
    .pipe(z.number().min(1, 'page must be at least 1'))
    .optional()
    .default(1)
    .meta({ description: 'Page number, from 1.', type: 'integer' }),
  limit: wholeNumber('limit')
    .pipe(z.number().min(1, 'limit must be at least 1').max(MAX_LIMIT, `limit must be at most ${MAX_LIMIT}`))
    .optional()
    .default(DEFAULT_LIMIT)
    .meta({ description: `Page size, 1..${MAX_LIMIT}.`, type: 'integer' }),
};

export type Page = { page: number; limit: number };

export const listMeta = z.object({
  total: z.int(),
  page: z.int(),
  limit: z.int(),
  totalPages: z.int(),
});

/** The list envelope `{ data, meta }` around a record schema. */
export const listOf = <T extends z.ZodType>(record: T) => z.object({ data: z.array(record), meta: listMeta });

export function listAnswer<T>(data: T[], total: number, page: Page) {
  return { data, meta: { total, page: page.page, limit: page.limit, totalPages: Math.ceil(total / page.limit) } };
}

export type Sort<F extends string> = { field: F; descending: boolean };

/**
 * `sort=field` or `sort=-field` over a list's allowed fields; anything else is a 400 naming the allowed ones.
 */
export function sortQuery<const F extends string>(fields: readonly [F, ...F[]], fallback: NoInfer<F> | `-${NoInfer<F>}`) {
  const allowed = new Set<string>(fields);
  const parse = (value: string): Sort<F> => {
    const descending = value.startsWith('-');
    return { field: (descending ? value.slice(1) : value) as F, descending };
  };
  return z
    .string()
    .refine((value) => allowed.has(value.startsWith('-') ? value.slice(1) : value), {
      message: `sort must be one of ${fields.join(', ')}, optionally prefixed with -`,
    })
    .optional()
    .default(fallback)
    .transform(parse)
    .meta({ description: `Sort field (${fields.join(', ')}); a leading - sorts descending.`, type: 'string' });
}

/** An enum filter that accepts any case (`status=online` = `status=ONLINE`); answers are always upper case. */
export function enumFilter<const V extends string>(values: readonly [V, ...V[]]) {
  return z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(values, { message: `expected one of ${values.join(', ')}` }))
    .meta({ type: 'string', enum: [...values] });
}

/** A boolean query flag: `true`/`false` (and 1/0). */
export const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1')
  .meta({ type: 'boolean' });
