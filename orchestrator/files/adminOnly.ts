/**
 * Files only members with the server's RCON permission may touch (docs/files.md#files-only-for-admins): its template's
 * `files.adminOnly` (gitignore-style, like the deny list), the files that hold its RCON password. For a member without
 * `servers.manage` (a MODERATOR) they are denied like the deny list's: a 403 with the code DENIED.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { AppError } from '../../schema/errors.ts';
import { DenyList, normalizeFilePath } from '../../schema/filePaths.ts';
import { can, type Role } from '../../schema/roles.ts';
import { builtInCatalogue } from '../templates/catalogue.ts';
import { storedDocument } from '../templates/store.ts';

/** Whether a member of this role is kept out of the adminOnly files: one who may not use the server's RCON. */
export const keptFromAdminOnly = (role: Role): boolean => !can(role, 'servers.manage');

/** The server's adminOnly patterns (its template's `files.adminOnly`); empty without a template. */
export async function adminOnlyList(connection: CommonQueryMethods, serverId: string): Promise<DenyList> {
  const row = await connection.maybeOne(
    sql.type(
      z.object({ templateId: z.string().nullable(), clusterTemplate: z.object({ id: z.string(), version: z.int(), document: z.unknown() }).nullable() }),
    )`
      SELECT s.template_id AS "templateId",
             (SELECT jsonb_build_object('id', t.id, 'version', t.version, 'document', t.document) FROM cluster_templates t
               WHERE t.id = (CASE WHEN s.template_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN s.template_id::uuid END)
                 AND t.cluster_id = s.cluster_id) AS "clusterTemplate"
        FROM servers s WHERE s.id = ${serverId}`,
  );
  if (!row?.templateId) return new DenyList([]);
  const document = row.clusterTemplate
    ? storedDocument(row.clusterTemplate.id, row.clusterTemplate.version, row.clusterTemplate.document)
    : builtInCatalogue().templates.get(row.templateId);
  return new DenyList(document?.files.adminOnly ?? []);
}

/** Whether `path` (as the API takes it: a leading `/` is the server's directory) is one of the list's. */
export function isAdminOnly(list: DenyList, path: string): boolean {
  let normalized: string;
  try {
    normalized = normalizeFilePath(path, { leadingSlash: true });
  } catch {
    return false; // not a path the agent accepts either: it refuses it
  }
  return list.denies(normalized);
}

/** Refuses `path` when it is on the list: the deny list's answer (403, DENIED). */
export function checkAdminOnly(list: DenyList | undefined, path: unknown): void {
  if (!list || list.empty || typeof path !== 'string' || !isAdminOnly(list, path)) return;
  throw new AppError(
    403,
    `/${normalizeFilePath(path, { leadingSlash: true })} holds the server's RCON password: only members who may manage the server (OWNER, ADMIN) may read or change it`,
    { extra: { code: 'DENIED' } },
  );
}
