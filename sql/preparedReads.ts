/**
 * The hot paths' prepared reads: a bearer token's principal and role, a cluster's GET. Each is one named statement
 * (`sql.prepared(name, schema)`) run on a plain `pg` pool with the service pool's type parsers and row checks, without
 * slonik's per-query bookkeeping (a connection bound and unbound, two child loggers, interceptor loops and half a dozen
 * promises per query): measured, 40–50 µs of the service's CPU per request, a fifth of an authenticated GET's.
 *
 * Only single statements that read, outside any transaction, belong here (one made inside a transaction would read on
 * another connection, without the transaction's changes, and slonik's guard against that does not see it): writes and
 * transactions stay on the slonik pool, which also has the retries and the query logging.
 *
 * Values are parsed as the slonik pool parses them for the types the service reads (test/sql/preparedReads.test.ts);
 * pg's own defaults otherwise (ranges stay text), and a NULL in an array of a parsed type stays NULL. Errors are
 * slonik's where slonik would have given one (connection, time-out, terminated backend, not found), so they are
 * answered as before (api/middleware/databaseErrors.ts).
 */
import pg from 'pg';
import {
  BackendTerminatedError,
  BackendTerminatedUnexpectedlyError,
  ConnectionError,
  DataIntegrityError,
  NotFoundError,
  StatementCancelledError,
  StatementTimeoutError,
  type CommonQueryMethods,
  type QueryResultRow,
  type QuerySqlToken,
} from 'slonik';
import { checkedRow, TYPE_PARSERS } from './rows.ts';
import { createPgPool } from './pgPool.ts';
import type { Logger } from '../schema/logger.ts';

/**
 * `one` (NotFoundError without a row) and `maybeOne` as slonik's, both DataIntegrityError with more than one row, for
 * `sql.prepared` statements only.
 */
export type PreparedReads = Pick<CommonQueryMethods, 'one' | 'maybeOne'> & { end: () => Promise<void> };

/**
 * Built-in types' OIDs and their arrays' (fixed in every Postgres's catalogue; a test checks them against pg_type), for
 * the type names of TYPE_PARSERS.
 */
export const BUILTIN_TYPE_OIDS: Readonly<Record<string, readonly [type: number, array: number]>> = {
  int8: [20, 1016],
  date: [1082, 1182],
  interval: [1186, 1187],
  numeric: [1700, 1231],
  timestamp: [1114, 1115],
  timestamptz: [1184, 1185],
};

const TEXT_ARRAY_OID = 1009;

/** pg's type lookup with TYPE_PARSERS in place of its own, for their types and arrays of them (as slonik's driver does). */
function typeParsers(): pg.CustomTypesConfig {
  const parsers = new Map<number, (value: string) => unknown>();
  const textArray = pg.types.getTypeParser(TEXT_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0]) as (value: string) => (string | null)[];
  for (const { name, parse } of TYPE_PARSERS) {
    const oids = BUILTIN_TYPE_OIDS[name];
    if (!oids) throw new Error(`no OID known for the type ${name}`);
    parsers.set(oids[0], parse);
    parsers.set(oids[1], (value) => textArray(value).map((element) => (element === null ? null : parse(element))));
  }
  const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
    parsers.get(oid) ?? (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format)) as pg.CustomTypesConfig['getTypeParser'];
  return { getTypeParser };
}

/** A statement's failure as slonik's driver reports it, so that it is answered the same way. */
function asSlonikError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = error.message.toLowerCase();
  if (message.includes('connection terminated unexpectedly')) return new BackendTerminatedUnexpectedlyError(error);
  if (message.includes('connection terminated')) return new BackendTerminatedError(error);
  const code = (error as { code?: unknown }).code;
  if (code === '57P01') return new BackendTerminatedError(error);
  if (code === '57014')
    return message.includes('canceling statement due to user request') ? new StatementCancelledError(error) : new StatementTimeoutError(error);
  return error;
}

/** How long a request waits for a connection (on either pool) before it fails with 503 instead of piling up. */
export const CONNECTION_TIMEOUT_MS = 10_000;
/** Attempts at opening a connection before a read fails with ConnectionError (slonik's connectionRetryLimit 3). */
const CONNECT_ATTEMPTS = 3;
/** How pg-pool says that no connection came free within its time-out (the pool is full): not tried again. */
const POOL_FULL = 'timeout exceeded when trying to connect';
/** The reads' connections, by name in pg_stat_activity. */
export const PREPARED_READS_APPLICATION = 'gsm prepared reads';

export function createPreparedReads(url: string, options: { max: number; statementTimeoutMs: number; logger?: Logger | undefined }): PreparedReads {
  const pool = createPgPool(url, {
    max: options.max,
    name: 'prepared-reads',
    logger: options.logger,
    config: {
      statement_timeout: options.statementTimeoutMs,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      application_name: PREPARED_READS_APPLICATION,
      types: typeParsers(),
    },
  });
  // Rejects (with ConnectionError) the reads still waiting for a connection when the pool ends: pg-pool would leave
  // them waiting for their time-out.
  let ended = false;
  const ending = Promise.withResolvers<never>();
  ending.promise.catch(() => undefined);

  /** A connection, or ConnectionError: 503, as on the slonik pool (refused, reset, too many clients, a wrong password). */
  async function connect(): Promise<pg.PoolClient> {
    for (let attempt = 1; ; attempt++) {
      if (ended) throw new ConnectionError('the prepared reads have ended');
      const connecting = pool.connect();
      try {
        return await Promise.race([connecting, ending.promise]);
      } catch (error) {
        // A connection that comes after the pool ended goes back to it (which closes it); a failure is already told.
        connecting.then(
          (client) => client.release(),
          () => undefined,
        );
        const cause = error instanceof Error ? error : new Error(String(error));
        if (ended || attempt >= CONNECT_ATTEMPTS || cause.message.includes(POOL_FULL)) throw new ConnectionError(cause.message, { cause });
        options.logger?.warn({ err: cause, attempt }, 'could not open a connection for a prepared read; trying again');
      }
    }
  }

  async function rows(query: QuerySqlToken): Promise<QueryResultRow[]> {
    const name = query.name;
    if (!name) throw new Error('a prepared read needs a statement name (sql.prepared)');
    const client = await connect();
    let failed: Error | undefined;
    try {
      // pg refuses a name already prepared on the connection with another text ("Prepared statements must be unique").
      return (await client.query<QueryResultRow>({ name, text: query.sql.replaceAll('$slonik_', '$'), values: query.values as unknown[] })).rows;
    } catch (error) {
      // A connection whose statement failed is closed rather than reused (as pg's pool.query does).
      failed = error instanceof Error ? error : new Error(String(error));
      throw asSlonikError(error);
    } finally {
      client.release(failed);
    }
  }

  async function maybeOne(query: QuerySqlToken): Promise<QueryResultRow | null> {
    const found = await rows(query);
    if (found.length > 1) throw new DataIntegrityError('Query returns more than one row.', query);
    const row = found[0];
    return row === undefined ? null : checkedRow(query.parser, query, row);
  }

  async function one(query: QuerySqlToken): Promise<QueryResultRow> {
    const row = await maybeOne(query);
    if (row === null) throw new NotFoundError('Resource not found.', query);
    return row;
  }

  return {
    maybeOne: maybeOne as PreparedReads['maybeOne'],
    one: one as PreparedReads['one'],
    end: () => {
      ended = true;
      ending.reject(new Error('the prepared reads have ended'));
      return pool.end();
    },
  };
}
