/**
 * Game servers. Created in a cluster on one of its machines, through `/clusters/<id>/servers` or `/servers` with
 * `clusterId` in the body. Ports are 1024..65535, distinct within a server, and unique per machine (409).
 * `rconPassword` is write-only and generated when absent.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { clusterServerListQuery, createServerBody, createServerVariantBody, server, serverListQuery, updateServerBody } from '../../schema/servers.ts';
import { principalOf } from '../identity/principal.ts';
import { CONSTRAINT_MESSAGES } from '../middleware/databaseErrors.ts';
import { originOf } from '../identity/origin.ts';
import type { Role } from '../../schema/roles.ts';
import { findTemplate } from '../../orchestrator/templates/store.ts';
import { checkMemberChange, rolesOf, seesAllVariables, variablesAsSeenBy } from '../../orchestrator/templates/variableAccess.ts';
import { clusterServerPage, createServer, deleteServer, getServer, updateServer, visibleServerPage } from '../../orchestrator/servers/store.ts';

CONSTRAINT_MESSAGES.server_ports_machine_port_key = 'A port of this server is already used by another server on the same machine';
CONSTRAINT_MESSAGES.servers_ports_distinct = 'The game, query and RCON ports of a server must differ';

const serverParams = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });

export function installServerRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const byServer = clusterOfParam(pool.reads, 'servers');

  async function create(ctx: Context, clusterId: string, body: z.output<typeof createServerBody>) {
    const created = await pool.transaction((tx) => createServer(tx, originOf(ctx), clusterId, body));
    if (created.installJobId) ctx.set('GSM-Install-Job', created.installJobId);
    return created.server;
  }

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/servers',
    summary: 'List servers of a cluster',
    description: 'Filters: `status` and `gameType` (alias `game`) in any case, `machineId`.',
    tags: ['Servers'],
    auth: 'user',
    params: clusterIdParams,
    query: clusterServerListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Servers', schema: listOf(server) } },
    handler: async (ctx, { params, query }) => {
      const page = await clusterServerPage(pool, params.clusterId, query);
      return { ...page, data: await variablesAsSeenBy(pool, page.data, () => ctx.state.role as Role) };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers',
    summary: 'List servers across your clusters',
    description: 'Every server in the clusters you can see (an API token: its scope); `clusterId` narrows to one.',
    tags: ['Servers'],
    auth: 'user',
    query: serverListQuery,
    responses: { 200: { description: 'Servers', schema: listOf(server) } },
    handler: async (ctx, { query }) => {
      const principal = principalOf(ctx);
      const viewer = { userId: principal.user.id, tokenClusterIds: principal.kind === 'TOKEN' ? [...principal.clusterIds] : null };
      const page = await visibleServerPage(pool, viewer, query);
      const roles = await rolesOf(pool, principal.user.id);
      return { ...page, data: await variablesAsSeenBy(pool, page.data, (clusterId) => roles.get(clusterId)) };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/servers',
    summary: 'Create a server',
    tags: ['Servers'],
    auth: 'user',
    params: clusterIdParams,
    body: createServerBody,
    permission: { action: 'servers.manage', cluster: 'clusterId' },
    status: 201,
    responses: {
      201: { description: 'The server', schema: server, headers: { 'GSM-Install-Job': 'The INSTALL job, when the game is installed at once' } },
      409: { description: 'A port is taken on that machine' },
    },
    handler: (ctx, { params, body }) => create(ctx, params.clusterId, body),
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers',
    summary: 'Create a server (variant: clusterId in the body)',
    tags: ['Servers'],
    auth: 'user',
    body: createServerVariantBody,
    permission: { action: 'servers.manage', cluster: ({ body }) => body.clusterId },
    status: 201,
    responses: {
      201: { description: 'The server', schema: server, headers: { 'GSM-Install-Job': 'The INSTALL job, when the game is installed at once' } },
      409: { description: 'A port is taken on that machine' },
    },
    handler: (ctx, { body: { clusterId, ...body } }) => create(ctx, clusterId, body),
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id',
    summary: 'Get a server',
    tags: ['Servers'],
    auth: 'user',
    params: serverParams,
    permission: { action: 'cluster.read', cluster: byServer },
    responses: { 200: { description: 'The server', schema: server } },
    handler: async (ctx, { params }) => (await variablesAsSeenBy(pool, [await getServer(pool, params.id)], () => ctx.state.role as Role))[0],
  });

  api.route({
    method: 'patch',
    path: '/api/v1/servers/:id',
    summary: 'Update a server',
    tags: ['Servers'],
    auth: 'user',
    params: serverParams,
    body: updateServerBody,
    description: "OWNER and ADMIN change any setting; a MODERATOR only `variables` that the server's template marks `userEditable` (anything else: 403).",
    permission: { action: 'servers.variables', cluster: byServer },
    responses: { 200: { description: 'The server', schema: server }, 409: { description: 'A port is taken on that machine' } },
    handler: async (ctx, { params, body }) => {
      const role = ctx.state.role as Role;
      const clusterId = ctx.state.clusterId as string;
      const updated = await pool.transaction(async (tx) => {
        if (!seesAllVariables(role)) {
          const { templateId } = await getServer(tx, params.id);
          checkMemberChange(templateId === null ? undefined : (await findTemplate(tx, [clusterId], templateId))?.document, body);
        }
        return updateServer(tx, originOf(ctx), clusterId, params.id, body);
      });
      return (await variablesAsSeenBy(pool, [updated], () => role))[0];
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/servers/:id',
    summary: 'Delete a server',
    tags: ['Servers'],
    auth: 'user',
    params: serverParams,
    permission: { action: 'servers.manage', cluster: byServer },
    responses: { 200: { description: 'Deleted', schema: success } },
    handler: async (ctx, { params }) => {
      await pool.transaction((tx) => deleteServer(tx, originOf(ctx), ctx.state.clusterId as string, params.id));
      return { success: true, message: 'Server deleted' };
    },
  });
}
