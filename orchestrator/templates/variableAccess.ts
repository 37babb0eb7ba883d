/**
 * Who sees and changes a server's template variables (docs/templates.md#variables): OWNER and ADMIN every one;
 * members below them only those the template marks `userViewable`, and may change (PATCH) only those it marks
 * `userEditable`. Secret values are never shown to anyone; a template's secret defaults are not shown either.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { forbidden } from '../../schema/errors.ts';
import { can, ROLES, type Role } from '../../schema/roles.ts';
import type { TemplateDocument } from '../../schema/template.ts';
import { findTemplate } from './store.ts';

type WithVariables = {
  clusterId: string;
  templateId: string | null;
  variables: Record<string, string>;
  secretVariables: Record<string, boolean>;
};

/** Whether a member of this role sees and changes every variable. */
export const seesAllVariables = (role: Role | undefined): boolean => role !== undefined && can(role, 'servers.manage');

/**
 * The records as a member sees them: for a role below OWNER/ADMIN in the record's cluster, the variables (and secret
 * flags) its template does not mark `userViewable` are left out. Templates are read once per cluster and id.
 */
export async function variablesAsSeenBy<T extends WithVariables>(
  connection: CommonQueryMethods,
  records: readonly T[],
  roleIn: (clusterId: string) => Role | undefined,
): Promise<T[]> {
  const documents = new Map<string, Promise<TemplateDocument | undefined>>();
  return Promise.all(
    records.map(async (record) => {
      if (record.templateId === null || seesAllVariables(roleIn(record.clusterId))) return record;
      const key = `${record.clusterId}/${record.templateId}`;
      if (!documents.has(key))
        documents.set(
          key,
          findTemplate(connection, [record.clusterId], record.templateId).then((found) => found?.document),
        );
      const document = await documents.get(key)!;
      // A template gone (it cannot be deleted while used, but be safe): nothing is shown.
      const viewable = new Set(document?.variables.filter((variable) => variable.userViewable).map((variable) => variable.name) ?? []);
      const only = <V>(values: Record<string, V>) => Object.fromEntries(Object.entries(values).filter(([name]) => viewable.has(name)));
      return { ...record, variables: only(record.variables), secretVariables: only(record.secretVariables) };
    }),
  );
}

const membership = z.object({ clusterId: z.string(), role: z.enum(ROLES) });

/** The caller's role in each of its clusters. */
export async function rolesOf(connection: CommonQueryMethods, userId: string): Promise<Map<string, Role>> {
  const rows = await connection.any(sql.type(membership)`SELECT cluster_id::text AS "clusterId", role FROM cluster_members WHERE user_id = ${userId}`);
  return new Map(rows.map((row) => [row.clusterId, row.role]));
}

/**
 * A PATCH by a member below OWNER/ADMIN: only `variables`, and only those the template marks `userEditable` (and
 * `userViewable`); anything else is a 403 saying what they may change.
 */
export function checkMemberChange(document: TemplateDocument | undefined, body: Record<string, unknown>): void {
  const others = Object.keys(body).filter((field) => field !== 'variables' && body[field] !== undefined);
  if (others.length > 0)
    throw forbidden(
      `Only OWNER and ADMIN may change ${others.join(', ')}: other members may change only the variables the server's template marks userEditable`,
    );
  const names = Object.keys((body.variables as Record<string, string> | undefined) ?? {});
  const editable = new Set(document?.variables.filter((variable) => variable.userEditable && variable.userViewable).map((variable) => variable.name) ?? []);
  const refused = names.filter((name) => !editable.has(name));
  if (refused.length > 0) throw forbidden(`Only OWNER and ADMIN may change ${refused.join(', ')}: the server's template does not mark it userEditable`);
}

/**
 * A template's document as the API shows it: secret variables without their `default` (a PATCH that omits it keeps
 * the stored one), and the names of those that have one.
 */
export function withoutSecretDefaults(document: TemplateDocument): { document: Record<string, unknown>; secretDefaults: string[] } {
  const secretDefaults = document.variables.filter((variable) => variable.secret && variable.default !== '').map((variable) => variable.name);
  if (!document.variables.some((variable) => variable.secret)) return { document: document as unknown as Record<string, unknown>, secretDefaults };
  const variables = document.variables.map((variable) => {
    if (!variable.secret) return variable;
    const { default: _hidden, ...shown } = variable;
    return shown;
  });
  return { document: { ...document, variables }, secretDefaults };
}
