/**
 * How the service reads rows, on the slonik pool and in the prepared reads alike: the type parsers (timestamps as
 * ISO 8601 strings with milliseconds, bigint counts as numbers) and the check of a row against its query's schema.
 */
import { createTypeParserPreset, SchemaValidationError, type QueryResultRow, type QuerySqlToken } from 'slonik';

/** Length of Postgres's `YYYY-MM-DD HH:MM:SS+00`, and with up to six digits of fraction after a dot. */
const UTC_TEXT_LENGTHS = [22, 29] as const;

/**
 * A timestamptz as Postgres writes it, as ISO 8601 with milliseconds (the fraction cut, not rounded, as `Date` does).
 * In a UTC session (`…+00`, a four-digit year) it is rewritten as text: about 50 ns against 800 for `Date.parse`
 * and `toISOString`, which every other form (another zone, BC, a five-digit year) still takes.
 */
export const toIsoTimestamp = (value: string): string | null => {
  const length = value.length;
  if (
    length >= UTC_TEXT_LENGTHS[0] &&
    length <= UTC_TEXT_LENGTHS[1] &&
    value.charCodeAt(4) === 45 /* - */ &&
    value.charCodeAt(10) === 32 /* space */ &&
    value.endsWith('+00') &&
    (length === UTC_TEXT_LENGTHS[0] || value.charCodeAt(19) === 46) /* . */
  ) {
    const fraction = length === UTC_TEXT_LENGTHS[0] ? '000' : `${value.slice(20, length - 3)}00`.slice(0, 3);
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${fraction}Z`;
  }
  if (value === 'infinity' || value === '-infinity') return null;
  return new Date(Date.parse(value)).toISOString();
};

const replaced = new Set(['timestamptz', 'timestamp', 'int8']);

/** How the service reads Postgres's types, by type name: slonik's preset, with our timestamps and counts. */
export const TYPE_PARSERS: readonly { name: string; parse: (value: string) => unknown }[] = [
  ...createTypeParserPreset().filter((parser) => !replaced.has(parser.name)),
  { name: 'timestamptz', parse: toIsoTimestamp },
  // Counts and sums are bigint in Postgres; JSON has no bigint, and our values stay far below 2^53.
  { name: 'int8', parse: (value: string) => Number(value) },
  // Columns without a zone are read as UTC.
  { name: 'timestamp', parse: (value: string) => toIsoTimestamp(`${value}Z`) },
];

/**
 * A row checked against the query's schema (`sql.type` / `sql.prepared`), as the service pool's interceptor and the
 * prepared reads both do. Synchronous on purpose: slonik runs an asynchronous row hook through a queue of promises
 * per query (a p-queue and a promise per row: about 3 % of the service's CPU profile under load). Our row schemas are
 * synchronous zod schemas; an asynchronous one is refused loudly rather than skipped.
 */
export function checkedRow(schema: QuerySqlToken['parser'], query: Pick<QuerySqlToken, 'sql' | 'values'>, row: QueryResultRow): QueryResultRow {
  const result = schema['~standard'].validate(row);
  if (result instanceof Promise) throw new Error('row schemas must be synchronous (no async refinements)');
  if (result.issues) throw new SchemaValidationError(query, row, result.issues);
  return result.value as QueryResultRow;
}
