/**
 * SQL pieces every list shares: ORDER BY from a validated sort (with the stable tie-break on id that SPEC section 1
 * requires) and LIMIT/OFFSET from a page.
 */
import { sql, type FragmentSqlToken } from 'slonik';
import type { Page, Sort } from '../schema/http.ts';

/** `ORDER BY <column> ASC|DESC, <idColumn> ASC|DESC` for a sort over `columns` (field name → SQL column). */
export function orderBy<F extends string>(sort: Sort<F>, columns: Record<F, FragmentSqlToken>, idColumn: FragmentSqlToken): FragmentSqlToken {
  const direction = sort.descending ? sql.fragment`DESC` : sql.fragment`ASC`;
  return sql.fragment`ORDER BY ${columns[sort.field]} ${direction} NULLS LAST, ${idColumn} ${direction}`;
}

export const pageClause = (page: Page): FragmentSqlToken => sql.fragment`LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}`;
