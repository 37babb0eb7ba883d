/**
 * Templates as the service knows them (docs/templates.md): the built-in catalogue (catalogue/*.json beside this file) and each cluster's
 * own (`cluster_templates`), found by id — a built-in's slug, or a cluster template's uuid — listed, created, changed
 * and deleted here; the HTTP routes parse, authorize and call. Every change is audited in its transaction, and tells
 * the agents of the servers that use it (their next start runs the new version).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict, notFound, validationFailed } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import {
  STEAM_ARGUMENT_PATTERN,
  steamArgumentVariables,
  templateDocument,
  type TemplateDocument,
  type TemplateVariable,
  variableValueProblem,
} from '../../schema/template.ts';
import { storableJson } from '../../schema/storable.ts';
import { recordAudit } from '../audit.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { builtInCatalogue } from './catalogue.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A template with where it comes from. */
export type FoundTemplate = {
  id: string;
  clusterId: string | null;
  document: TemplateDocument;
  createdAt: string | null;
  updatedAt: string | null;
};

const row = z.object({ id: z.string(), clusterId: z.string(), version: z.int(), document: z.unknown(), createdAt: z.string(), updatedAt: z.string() });
const COLUMNS = sql.fragment`t.id, t.cluster_id AS "clusterId", t.version, t.document, gsm_iso(t.created_at) AS "createdAt", gsm_iso(t.updated_at) AS "updatedAt"`;

/** Parsed documents by id and version: a stored one was valid when written, parsing it again costs the sync nothing. */
const parsed = new Map<string, TemplateDocument>();
export function storedDocument(id: string, version: number, document: unknown): TemplateDocument {
  const key = `${id}@${version}`;
  let found = parsed.get(key);
  if (!found) {
    found = templateDocument.parse({ ...(document as object), version });
    if (parsed.size > 1_000) parsed.delete(parsed.keys().next().value!);
    parsed.set(key, found);
  }
  return found;
}

const fromRow = (found: z.infer<typeof row>): FoundTemplate => ({
  id: found.id,
  clusterId: found.clusterId,
  document: storedDocument(found.id, found.version, found.document),
  createdAt: found.createdAt,
  updatedAt: found.updatedAt,
});

/** The template `templateId` names for a server of `clusterId` (a built-in, or one of that cluster's own). */
export async function findTemplate(connection: CommonQueryMethods, clusterIds: readonly string[], templateId: string): Promise<FoundTemplate | undefined> {
  const builtIn = builtInCatalogue().templates.get(templateId);
  if (builtIn) return { id: templateId, clusterId: null, document: builtIn, createdAt: null, updatedAt: null };
  if (!UUID.test(templateId) || clusterIds.length === 0) return undefined;
  const found = await connection.maybeOne(
    sql.type(row)`SELECT ${COLUMNS} FROM cluster_templates t WHERE t.id = ${templateId} AND t.cluster_id = ANY(${sql.array([...clusterIds], 'uuid')})`,
  );
  return found ? fromRow(found) : undefined;
}

/** Built-ins first (by id), then the clusters' own (by name), filtered by a name (or id) fragment and a tag. */
export async function listTemplates(
  connection: CommonQueryMethods,
  clusterIds: readonly string[],
  filter: { name?: string; tag?: string; clusterId?: string },
): Promise<FoundTemplate[]> {
  const matches = (document: TemplateDocument) =>
    (!filter.name || `${document.name}\n${document.id}`.toLowerCase().includes(filter.name.toLowerCase())) &&
    (!filter.tag || document.tags.includes(filter.tag));
  const builtIns = filter.clusterId
    ? []
    : [...builtInCatalogue().templates.values()]
        .filter(matches)
        .map((document) => ({ id: document.id, clusterId: null, document, createdAt: null, updatedAt: null }));
  const clusters = filter.clusterId ? clusterIds.filter((id) => id === filter.clusterId) : clusterIds;
  const own =
    clusters.length === 0
      ? []
      : (
          await connection.any(
            sql.type(row)`SELECT ${COLUMNS} FROM cluster_templates t WHERE t.cluster_id = ANY(${sql.array([...clusters], 'uuid')}) ORDER BY t.slug, t.id`,
          )
        )
          .map(fromRow)
          .filter((found) => matches(found.document));
  return [...builtIns, ...own];
}

/** A document from a request: validated, with 400 naming each problem's field. */
export function parseDocument(body: unknown): TemplateDocument {
  // Object keys too (a NUL in one would fail the insert): jsonb refuses what storableJson would change.
  if (JSON.stringify(storableJson(body)) !== JSON.stringify(body))
    throw validationFailed([{ field: 'document', message: 'must not contain NUL or lone surrogate characters' }]);
  const result = templateDocument.safeParse(body);
  if (!result.success) throw validationFailed(result.error.issues.map((issue) => ({ field: issue.path.join('.') || 'document', message: issue.message })));
  return result.data;
}

export async function createClusterTemplate(tx: CommonQueryMethods, origin: Origin, clusterId: string, body: unknown): Promise<FoundTemplate> {
  const document = parseDocument(body);
  const created = await tx.maybeOne(sql.type(row)`
    INSERT INTO cluster_templates AS t (cluster_id, slug, version, document) VALUES (${clusterId}, ${document.id}, 1, ${sql.jsonb(document as never)})
    ON CONFLICT (cluster_id, slug) DO NOTHING
    RETURNING ${COLUMNS}`);
  if (!created) throw conflict(`This cluster already has a template with id ${document.id}`);
  await recordAudit(tx, origin, { clusterId, action: 'template.create', target: { type: 'template', id: created.id } });
  return fromRow(created);
}

/** Replaces a cluster template's document (its version grows by one); its servers run it from their next start. */
export async function updateClusterTemplate(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  templateId: string,
  body: unknown,
): Promise<FoundTemplate> {
  if (!UUID.test(templateId)) throw notFound('Template not found');
  const stored = await tx.maybeOne(
    sql.type(row)`SELECT ${COLUMNS} FROM cluster_templates t WHERE t.id = ${templateId} AND t.cluster_id = ${clusterId} FOR UPDATE`,
  );
  const document = parseDocument(stored ? keepSecretDefaults(fromRow(stored).document, body) : body);
  const updated = await tx.maybeOne(sql.type(row)`
    UPDATE cluster_templates t SET document = ${sql.jsonb(document as never)}, slug = ${document.id}, version = t.version + 1, updated_at = now()
     WHERE t.id = ${templateId} AND t.cluster_id = ${clusterId}
       AND NOT EXISTS (SELECT 1 FROM cluster_templates o WHERE o.cluster_id = ${clusterId} AND o.slug = ${document.id} AND o.id <> ${templateId})
    RETURNING ${COLUMNS}`);
  if (!updated) {
    const exists = await tx.exists(sql.unsafe`SELECT 1 FROM cluster_templates WHERE id = ${templateId} AND cluster_id = ${clusterId}`);
    throw exists ? conflict(`This cluster already has a template with id ${document.id}`) : notFound('Template not found');
  }
  await notifyMachinesOf(tx, templateId);
  await recordAudit(tx, origin, { clusterId, action: 'template.update', target: { type: 'template', id: templateId } });
  return fromRow(updated);
}

/** Deletes a cluster template no server uses (409 naming how many do). */
export async function deleteClusterTemplate(tx: CommonQueryMethods, origin: Origin, clusterId: string, templateId: string): Promise<void> {
  if (!UUID.test(templateId)) throw notFound('Template not found');
  const users = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM servers WHERE template_id = ${templateId}`);
  if (users > 0) throw conflict(`The template is used by ${users} server${users === 1 ? '' : 's'}: change their template first`);
  const deleted = await tx.maybeOneFirst(
    sql.type(z.object({ id: z.string() }))`DELETE FROM cluster_templates WHERE id = ${templateId} AND cluster_id = ${clusterId} RETURNING id`,
  );
  if (!deleted) throw notFound('Template not found');
  await recordAudit(tx, origin, { clusterId, action: 'template.delete', target: { type: 'template', id: templateId } });
}

/**
 * The API never shows a secret variable's default (variableAccess.ts): a new document that leaves it out of a secret
 * variable the stored one has keeps the stored default (an explicit `default` replaces it, `""` removes it).
 */
function keepSecretDefaults(stored: TemplateDocument, body: unknown): unknown {
  const variables = (body as { variables?: unknown } | null)?.variables;
  if (!Array.isArray(variables)) return body;
  const secrets = new Map(
    stored.variables.filter((variable) => variable.secret && variable.default !== '').map((variable) => [variable.name, variable.default]),
  );
  return {
    ...(body as object),
    variables: variables.map((variable: unknown) => {
      if (!variable || typeof variable !== 'object' || 'default' in variable) return variable;
      const { name, secret } = variable as { name?: unknown; secret?: unknown };
      const kept = typeof name === 'string' && secret === true ? secrets.get(name) : undefined;
      return kept === undefined ? variable : { ...variable, default: kept };
    }),
  };
}

async function notifyMachinesOf(tx: CommonQueryMethods, templateId: string): Promise<void> {
  const machines = await tx.anyFirst(sql.type(z.object({ machineId: z.string() }))`
    SELECT DISTINCT machine_id AS "machineId" FROM servers WHERE template_id = ${templateId}`);
  for (const machineId of machines) await notifyAgent(tx, { type: 'servers_changed', machineId });
}

/**
 * A server's variables checked against its template: every name must be one of its variables, every value must pass
 * its validation (400 naming the variable and the rule). Answers them split into plain and secret values.
 */
export function checkVariables(
  document: TemplateDocument,
  values: Record<string, string>,
  field = 'variables',
): { plain: Record<string, string>; secret: Record<string, string> } {
  const byName = new Map<string, TemplateVariable>(document.variables.map((variable) => [variable.name, variable]));
  const steamArguments = steamArgumentVariables(document);
  const issues: { field: string; message: string }[] = [];
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const variable = byName.get(name);
    if (!variable) {
      issues.push({ field: `${field}.${name}`, message: `${document.id} has no variable ${name}` });
      continue;
    }
    if (value.includes('{{')) {
      issues.push({ field: `${field}.${name}`, message: 'must not contain {{' });
      continue;
    }
    const problem =
      variableValueProblem(variable, value) ??
      (value !== '' && steamArguments.has(name) && !STEAM_ARGUMENT_PATTERN.test(value)
        ? 'goes to SteamCMD as a branch or beta password: must be letters, digits, ., _ and - (at most 64)'
        : undefined);
    if (problem) issues.push({ field: `${field}.${name}`, message: `${name} ${problem}` });
    else (variable.secret ? secret : plain)[name] = value;
  }
  if (issues.length > 0) throw validationFailed(issues);
  return { plain, secret };
}

/** Required variables without a value (the server's or the default): 400 naming each. */
export function requireVariables(document: TemplateDocument, values: Record<string, string>, field = 'variables'): void {
  const missing = document.variables.filter((variable) => variable.validation.required && (values[variable.name] ?? variable.default) === '');
  if (missing.length > 0) throw validationFailed(missing.map((variable) => ({ field: `${field}.${variable.name}`, message: `${variable.name} is required` })));
}

/** The clusters `userId` is a member of (within `scope`, an API token's clusters, when given). */
export async function memberClusterIds(connection: CommonQueryMethods, userId: string, scope: ReadonlySet<string> | null): Promise<string[]> {
  const ids = await connection.anyFirst(
    sql.type(z.object({ clusterId: z.string() }))`SELECT cluster_id::text AS "clusterId" FROM cluster_members WHERE user_id = ${userId}`,
  );
  return scope ? ids.filter((id) => scope.has(id)) : [...ids];
}
