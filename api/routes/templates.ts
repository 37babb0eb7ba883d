/**
 * Game templates (docs/templates.md): the built-in catalogue and each cluster's own, listed and read by every member;
 * a cluster's own are created, replaced and deleted by its OWNER and ADMIN (audited).
 */
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { notFound } from '../../schema/errors.ts';
import { listAnswer, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import {
  clusterTemplateListQuery,
  clusterTemplateParams,
  templateBody,
  templateListQuery,
  templateParams,
  templateRecord,
  templateSummary,
} from '../../schema/templates.ts';
import { principalOf } from '../identity/principal.ts';
import { originOf } from '../identity/origin.ts';
import {
  createClusterTemplate,
  deleteClusterTemplate,
  findTemplate,
  listTemplates,
  memberClusterIds,
  updateClusterTemplate,
  type FoundTemplate,
} from '../../orchestrator/templates/store.ts';
import { withoutSecretDefaults } from '../../orchestrator/templates/variableAccess.ts';

export const summaryOf = (found: FoundTemplate) => ({
  id: found.id,
  clusterId: found.clusterId,
  builtIn: found.clusterId === null,
  slug: found.document.id,
  name: found.document.name,
  version: found.document.version,
  description: found.document.description ?? null,
  gameType: found.document.gameType,
  tags: found.document.tags,
  platforms: found.document.platforms,
  createdAt: found.createdAt,
  updatedAt: found.updatedAt,
});
export const recordOf = (found: FoundTemplate) => ({ ...summaryOf(found), ...withoutSecretDefaults(found.document) });

export function installTemplateRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;

  /** The clusters whose templates the caller sees: its memberships (an API token: those of its scope). */
  function visibleClusters(ctx: Parameters<typeof principalOf>[0]): Promise<string[]> {
    const principal = principalOf(ctx);
    return memberClusterIds(pool, principal.user.id, principal.kind === 'TOKEN' ? principal.clusterIds : null);
  }

  const page = <T>(items: T[], query: { page: number; limit: number }) =>
    listAnswer(items.slice((query.page - 1) * query.limit, query.page * query.limit), items.length, query);

  api.route({
    method: 'get',
    path: '/api/v1/templates',
    summary: 'List game templates',
    description:
      'The built-in catalogue (first, by id), then the templates of your clusters (an API token: its scope). Filters: `name` (part of the name or id), `tag`, `clusterId`.',
    tags: ['Templates'],
    auth: 'user',
    query: templateListQuery,
    responses: { 200: { description: 'Templates (without their documents)', schema: listOf(templateSummary) } },
    handler: async (ctx, { query }) => page((await listTemplates(pool, await visibleClusters(ctx), query)).map(summaryOf), query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/templates/:id',
    summary: 'Get a game template',
    tags: ['Templates'],
    auth: 'user',
    params: templateParams,
    responses: { 200: { description: 'The template with its document', schema: templateRecord }, 404: { description: 'No such template you can see' } },
    handler: async (ctx, { params }) => {
      const found = await findTemplate(pool, await visibleClusters(ctx), params.id.toLowerCase());
      if (!found) throw notFound('Template not found');
      return recordOf(found);
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/templates',
    summary: "List a cluster's own templates",
    tags: ['Templates'],
    auth: 'user',
    params: clusterIdParams,
    query: clusterTemplateListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Templates (without their documents)', schema: listOf(templateSummary) } },
    handler: async (_ctx, { params, query }) =>
      page((await listTemplates(pool, [params.clusterId], { ...query, clusterId: params.clusterId })).map(summaryOf), query),
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/templates',
    summary: 'Create a cluster template',
    description:
      'The document is checked whole (docs/templates.md): a pattern that does not compile for the linear-time engine, an unknown placeholder or a port named but not declared is a 400 naming its field.',
    tags: ['Templates'],
    auth: 'user',
    params: clusterIdParams,
    body: templateBody,
    permission: { action: 'templates.manage', cluster: 'clusterId' },
    status: 201,
    responses: { 201: { description: 'The template', schema: templateRecord }, 409: { description: 'The cluster has a template with that id (slug) already' } },
    handler: async (ctx, { params, body }) => {
      const created = await pool.transaction((tx) => createClusterTemplate(tx, originOf(ctx), params.clusterId, body));
      ctx.set('Location', `/api/v1/clusters/${params.clusterId}/templates/${created.id}`);
      return recordOf(created);
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/templates/:id',
    summary: 'Get a cluster template',
    tags: ['Templates'],
    auth: 'user',
    params: clusterTemplateParams,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'The template with its document', schema: templateRecord } },
    handler: async (_ctx, { params }) => {
      const found = await findTemplate(pool, [params.clusterId], params.id);
      if (!found || found.clusterId !== params.clusterId) throw notFound('Template not found');
      return recordOf(found);
    },
  });

  api.route({
    method: 'patch',
    path: '/api/v1/clusters/:clusterId/templates/:id',
    summary: 'Replace a cluster template',
    description: 'The body is the whole new document; the version grows by one. Servers running it keep the version they started with until their next start.',
    tags: ['Templates'],
    auth: 'user',
    params: clusterTemplateParams,
    body: templateBody,
    permission: { action: 'templates.manage', cluster: 'clusterId' },
    responses: { 200: { description: 'The template', schema: templateRecord } },
    handler: async (ctx, { params }) =>
      // The body as sent (validated, defaults not applied): a secret variable without `default` keeps its stored one.
      recordOf(await pool.transaction((tx) => updateClusterTemplate(tx, originOf(ctx), params.clusterId, params.id, ctx.request.body))),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/clusters/:clusterId/templates/:id',
    summary: 'Delete a cluster template',
    tags: ['Templates'],
    auth: 'user',
    params: clusterTemplateParams,
    permission: { action: 'templates.manage', cluster: 'clusterId' },
    responses: { 204: { description: 'Deleted' }, 409: { description: 'Servers use it' } },
    handler: async (ctx, { params }) => {
      await pool.transaction((tx) => deleteClusterTemplate(tx, originOf(ctx), params.clusterId, params.id));
      ctx.status = 204;
    },
  });
}
