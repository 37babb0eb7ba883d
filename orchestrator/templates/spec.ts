/**
 * A server's configuration as its agent receives it (`servers:sync`), with its template resolved into it
 * (resolve.ts): the row's fields, then what the template decides over them, and the template's own part.
 */
import { z } from 'zod';
import { serverConfig, type ServerConfig } from '../../schema/agentEvents.ts';
import { templatePortPlan } from '../../schema/gamePorts.ts';
import { builtInCatalogue } from './catalogue.ts';
import { resolveTemplate } from './resolve.ts';
import { storedDocument } from './store.ts';

/** The columns a sync reads beside the configuration (machineStore.ts). */
export const templatedServerRow = serverConfig.extend({
  templateId: z.string().nullable(),
  variables: z.record(z.string(), z.string()),
  secretVariables: z.record(z.string(), z.string()),
  clusterTemplate: z.object({ id: z.string(), version: z.int(), document: z.unknown() }).nullable(),
  /** The cluster's default deny list (docs/files.md#the-deny-list): for servers whose template has none. */
  clusterDenyList: z.array(z.string()).nullable().optional(),
});
export type TemplatedServerRow = z.infer<typeof templatedServerRow>;

export function serverSpec(row: TemplatedServerRow): ServerConfig {
  const { clusterDenyList, ...rest } = row;
  const spec = templatedSpec(rest);
  // The template's own list wins; a template without one (or no template) takes the cluster's default.
  if ((spec.fileDenyList ?? []).length === 0 && clusterDenyList && clusterDenyList.length > 0) return { ...spec, fileDenyList: clusterDenyList };
  return spec;
}

function templatedSpec(row: Omit<TemplatedServerRow, 'clusterDenyList'>): ServerConfig {
  const { templateId, variables, secretVariables, clusterTemplate, ...config } = row;
  if (templateId === null) return config;
  const document = clusterTemplate
    ? storedDocument(clusterTemplate.id, clusterTemplate.version, clusterTemplate.document)
    : builtInCatalogue().templates.get(templateId);
  if (!document) return config;
  const own = config.queryProtocol;
  // Its query from its template (or its own protocol over it), by port name (agents before this field use their game's plan).
  const { query } = templatePortPlan(config.gameType, document, own === undefined || own === null ? undefined : own === 'NONE' ? null : own);
  const resolved = resolveTemplate(document, { ...config, variables: { ...variables, ...secretVariables }, secretVariables });
  // The template as the server names it (a cluster template's id, not its document's slug): what its agent reports back
  // with the version it runs, compared with the server's template there.
  return { ...config, ...resolved, template: { ...resolved.template, id: templateId }, queryTarget: query };
}
