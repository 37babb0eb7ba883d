/**
 * Clusters: the unit of access. Creating one makes the creator its OWNER; every other operation checks the caller's
 * role there (docs/access.md).
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { listOf } from '../../schema/http.ts';
import { cluster, clusterListQuery, clusterParams, createClusterBody, updateClusterBody } from '../../schema/identity.ts';
import { principalOf, type Principal } from '../identity/principal.ts';
import { originOf } from '../identity/origin.ts';
import { clusterPage, createCluster, deleteCluster, getCluster, updateCluster, type ClusterViewer } from '../../orchestrator/clusters/store.ts';

/** Who the principal is to the cluster store: a user, and for an API token the clusters of its scope. */
const viewerOf = (principal: Principal): ClusterViewer => ({
  userId: principal.user.id,
  tokenClusterIds: principal.kind === 'TOKEN' ? [...principal.clusterIds] : null,
});

export function installClusterRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const clusterOf = 'id';

  api.route({
    method: 'get',
    path: '/api/v1/clusters',
    summary: 'List your clusters',
    tags: ['Clusters'],
    auth: 'user',
    query: clusterListQuery,
    responses: { 200: { description: 'Clusters you are a member of (for an API token: within its scope)', schema: listOf(cluster) } },
    handler: async (ctx, { query }) => {
      const principal = principalOf(ctx);
      return clusterPage(pool, viewerOf(principal), query);
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters',
    summary: 'Create a cluster',
    description:
      "Any user may; the creator becomes its OWNER. An API token's scope never grows: a cluster created with one is reached with a session or a new token.",
    tags: ['Clusters'],
    auth: 'user',
    body: createClusterBody,
    status: 201,
    responses: { 201: { description: 'The new cluster', schema: cluster } },
    handler: (ctx, { body }) => pool.transaction((tx) => createCluster(tx, originOf(ctx), principalOf(ctx).user.id, body)),
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:id',
    summary: 'Get a cluster',
    tags: ['Clusters'],
    auth: 'user',
    params: clusterParams,
    permission: { action: 'cluster.read', cluster: clusterOf },
    responses: { 200: { description: 'The cluster', schema: cluster } },
    handler: (ctx, { params }) => getCluster(pool.reads, params.id, principalOf(ctx).user.id),
  });

  api.route({
    method: 'patch',
    path: '/api/v1/clusters/:id',
    summary: 'Update a cluster',
    tags: ['Clusters'],
    auth: 'user',
    params: clusterParams,
    body: updateClusterBody,
    permission: { action: 'cluster.update', cluster: clusterOf },
    responses: { 200: { description: 'The updated cluster', schema: cluster } },
    handler: (ctx, { params, body }) => pool.transaction((tx) => updateCluster(tx, originOf(ctx), principalOf(ctx).user.id, params.id, body)),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/clusters/:id',
    summary: 'Delete a cluster',
    description: 'Removes the cluster with its members, invitations and token scopes. Its audit log is kept.',
    tags: ['Clusters'],
    auth: 'user',
    params: clusterParams,
    permission: { action: 'cluster.delete', cluster: clusterOf },
    responses: { 200: { description: 'Deleted', schema: z.object({ success: z.literal(true), message: z.string() }) } },
    handler: async (ctx, { params }) => {
      await pool.transaction((tx) => deleteCluster(tx, originOf(ctx), params.id));
      return { success: true, message: 'Cluster deleted' };
    },
  });
}
