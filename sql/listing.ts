/**
 * SQL pieces every list shares: ORDER BY from a validated sort (with the stable tie-break on id that docs/api.md
 * requires) and LIMIT/OFFSET from a page.
 */
import { sql, type CommonQueryMethods, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { listAnswer, type Page, type Sort } from '../schema/http.ts';

/** `ORDER BY <column> ASC|DESC, <idColumn> ASC|DESC` for a sort over `columns` (field name → SQL column). */
export function orderBy<F extends string>(sort: Sort<F>, columns: Record<F, FragmentSqlToken>, idColumn: FragmentSqlToken): FragmentSqlToken {
  const direction = sort.descending ? sql.fragment`DESC` : sql.fragment`ASC`;
  return sql.fragment`ORDER BY ${columns[sort.field]} ${direction} NULLS LAST, ${idColumn} ${direction}`;
}

export const pageClause = (page: Page): FragmentSqlToken => sql.fragment`LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}`;

const countRow = z.object({ count: z.number() });

/**
 * One page of a list and its total, answered in the list envelope: `SELECT <columns> FROM <from> <order> LIMIT …`
 * and `SELECT count(*) FROM <from>`, where `from` holds the joins and the WHERE clause.
 */
export async function fetchPage<S extends z.ZodType<Record<string, unknown>>>(
  connection: CommonQueryMethods,
  query: { schema: S; columns: FragmentSqlToken; from: FragmentSqlToken; order: FragmentSqlToken; page: Page },
) {
  const [rows, total] = await Promise.all([
    connection.any(sql.type(query.schema)`SELECT ${query.columns} FROM ${query.from} ${query.order} ${pageClause(query.page)}`),
    connection.oneFirst(sql.type(countRow)`SELECT count(*)::int AS count FROM ${query.from}`),
  ]);
  return listAnswer([...rows] as z.output<S>[], total, query.page);
}
