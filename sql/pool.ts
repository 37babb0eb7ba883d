/**
 * The service's slonik pool. Two interceptors make rows trustworthy: `sql.type(schema)` really validates every row
 * (slonik 49 does not by itself), and timestamps come back as ISO 8601 strings with milliseconds (docs/api.md)
 * instead of slonik's default epoch milliseconds. bigint columns (counts) are plain numbers.
 *
 * The pool carries `reads`: the hot paths' prepared reads on a plain `pg` pool, with the same parsers and row checks
 * (sql/preparedReads.ts). Ending the pool ends both.
 */
import { createPool, sql, type DatabasePool as SlonikPool, type Interceptor } from 'slonik';
import { CONNECTION_TIMEOUT_MS, createPreparedReads, type PreparedReads } from './preparedReads.ts';
import { checkedRow, TYPE_PARSERS } from './rows.ts';
import type { Logger } from '../schema/logger.ts';

export type DatabasePool = SlonikPool & {
  /** Prepared single-statement reads outside transactions, without slonik's per-query cost (sql/preparedReads.ts). */
  readonly reads: PreparedReads;
  /**
   * How many notices with this message (one of ours: `gsm: …`) the statements of this pool have received so far. A
   * trigger's notice reaches the connection whose statement fired it: the principal cache learns so that a request
   * changed a principal (api/identity/principal.ts).
   */
  readonly noticesSeen: (message: string) => number;
  /**
   * Whether a notice raised at the pool's start reached it. Not when something between the service and Postgres drops
   * the connection's `options` (some poolers do) and the server sends clients only warnings: then nothing may rely on
   * `noticesSeen`.
   */
  readonly noticesArrive: boolean;
};

/** Notices of ours begin so; others (Postgres's own, an extension's) are not counted. */
const OUR_NOTICES = 'gsm: ';

const resultParser: Interceptor = {
  name: 'result-parser',
  transformRow: (queryContext, query, row) => (queryContext.resultParser ? checkedRow(queryContext.resultParser, query, row) : row),
};

/**
 * Counts our notices, whatever became of their statement: one that failed slonik's row-count check (`one`, `maybeOne`)
 * or lost its connection may still have committed its change; a count too many costs the principal cache one wait.
 */
function noticeCounter(): { interceptor: Interceptor; seen: (message: string) => number } {
  const counts = new Map<string, number>();
  const count = (notices: readonly { message: string }[] | undefined) => {
    for (const notice of notices ?? []) {
      if (notice.message.startsWith(OUR_NOTICES)) counts.set(notice.message, (counts.get(notice.message) ?? 0) + 1);
    }
    return null;
  };
  return {
    interceptor: {
      name: 'notice-counter',
      afterQueryExecution: (_context, _query, result) => count(result.notices),
      dataIntegrityError: (_context, _query, _error, result) => count(result.notices),
      queryExecutionError: (_context, _query, _error, notices) => count(notices),
    },
    seen: (message) => counts.get(message) ?? 0,
  };
}

/** The notice the pool raises once at its start, to learn whether notices reach it (see `noticesArrive`). */
const PROBE_NOTICE = 'gsm: notices arrive';

export type PoolOptions = {
  maxPoolSize?: number;
  statementTimeoutMs?: number;
  /** Where the prepared reads' connection errors are logged (a dropped idle connection, a restart). */
  logger?: Logger;
};

/**
 * The URL with `-c jit=off` added to its connection options. Postgres JIT-compiles any plan whose estimated cost
 * passes jit_above_cost; our statements are short, and compiling costs more than it saves (the player statistics:
 * 147 ms of compilation for 20 ms of work).
 */
export const withoutJit = (url: string): string => withSessionOptions(url, '-c jit=off');

/** The URL with `options` (`-c name=value …`, settings of every session it opens) added to its connection options. */
export function withSessionOptions(url: string, options: string): string {
  const parsed = new URL(url);
  const given = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${given ? `${given} ` : ''}${options}`);
  return parsed.toString();
}

export async function createDatabasePool(url: string, options: PoolOptions = {}): Promise<DatabasePool> {
  const maxPoolSize = options.maxPoolSize ?? 10;
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const notices = noticeCounter();
  // Notices are sent whatever a role or the URL set client_min_messages to: the principal cache counts on them.
  const pool = await createPool(withSessionOptions(withoutJit(url), '-c client_min_messages=notice'), {
    maxPoolSize,
    statementTimeout: statementTimeoutMs,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    interceptors: [resultParser, notices.interceptor],
    // slonik runs DISCARD ALL whenever a connection goes back to the pool: a round trip per query, and it throws away
    // prepared plans. The session state we keep is meant to last as long as the connection: SET LOCAL stays inside
    // transactions, and the job counters' slot (an advisory lock and a setting, sql/functions/gsm_counter_slot.sql)
    // belongs to the connection, not to a query.
    resetConnection: async () => undefined,
    typeParsers: [...TYPE_PARSERS],
  });
  // Half as many connections again, at least two; idle ones close after 10 s.
  const reads = createPreparedReads(withoutJit(url), { max: Math.max(2, Math.ceil(maxPoolSize / 2)), statementTimeoutMs, logger: options.logger });
  const endPool = pool.end;
  let ended: Promise<void> | undefined;
  await pool.query(sql.unsafe`DO $$ BEGIN RAISE NOTICE 'gsm: notices arrive'; END $$`).catch(async (error: unknown) => {
    await Promise.all([pool.end(), reads.end()]);
    throw error;
  });
  return Object.assign(pool, {
    reads,
    noticesSeen: notices.seen,
    noticesArrive: notices.seen(PROBE_NOTICE) > 0,
    end: () => (ended ??= Promise.all([endPool(), reads.end()]).then(() => undefined)),
  });
}
