/**
 * The service's slonik pool. Two interceptors make rows trustworthy: `sql.type(schema)` really validates every row
 * (slonik 49 does not by itself), and timestamps come back as ISO 8601 strings with milliseconds (docs/api.md)
 * instead of slonik's default epoch milliseconds. bigint columns (counts) are plain numbers.
 */
import { createPool, createTypeParserPreset, SchemaValidationError, type DatabasePool, type Interceptor } from 'slonik';

export type { DatabasePool };

const toIsoTimestamp = (value: string): string | null => {
  if (value === 'infinity' || value === '-infinity') return null;
  return new Date(Date.parse(value)).toISOString();
};

/**
 * Synchronous on purpose: slonik runs an asynchronous row hook through a queue of promises per query (a p-queue and
 * a promise per row: about 3 % of the service's CPU profile under load). Our row schemas are synchronous zod
 * schemas; an asynchronous one is refused loudly rather than skipped.
 */
const resultParser: Interceptor = {
  name: 'result-parser',
  transformRow: (queryContext, query, row) => {
    const schema = queryContext.resultParser;
    if (!schema) return row;
    const result = schema['~standard'].validate(row);
    if (result instanceof Promise) throw new Error('row schemas must be synchronous (no async refinements)');
    if (result.issues) throw new SchemaValidationError(query, row, result.issues);
    return result.value as typeof row;
  },
};

export type PoolOptions = { maxPoolSize?: number; statementTimeoutMs?: number };

/**
 * The URL with `-c jit=off` added to its connection options. Postgres JIT-compiles any plan whose estimated cost
 * passes jit_above_cost; our statements are short, and compiling costs more than it saves (the player statistics:
 * 147 ms of compilation for 20 ms of work).
 */
export function withoutJit(url: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ? `${options} ` : ''}-c jit=off`);
  return parsed.toString();
}

export async function createDatabasePool(url: string, options: PoolOptions = {}): Promise<DatabasePool> {
  const replaced = new Set(['timestamptz', 'timestamp', 'int8']);
  const typeParsers = createTypeParserPreset().filter((parser) => !replaced.has(parser.name));
  return createPool(withoutJit(url), {
    maxPoolSize: options.maxPoolSize ?? 10,
    statementTimeout: options.statementTimeoutMs ?? 30_000,
    // A request waiting longer than this for a connection fails with 503 instead of piling up.
    connectionTimeout: 10_000,
    interceptors: [resultParser],
    // slonik runs DISCARD ALL whenever a connection goes back to the pool: a round trip per query, and it throws away
    // prepared plans. We keep no session state (only SET LOCAL inside transactions), so there is nothing to reset.
    resetConnection: async () => undefined,
    typeParsers: [
      ...typeParsers,
      { name: 'timestamptz', parse: toIsoTimestamp },
      // Counts and sums are bigint in Postgres; JSON has no bigint, and our values stay far below 2^53.
      { name: 'int8', parse: (value: string) => Number(value) },
      // Columns without a zone are read as UTC.
      { name: 'timestamp', parse: (value: string) => toIsoTimestamp(`${value}Z`) },
    ],
  });
}
