/**
 * Clusters: the unit of access. Creating one makes the creator its OWNER; every other operation checks the caller's
 * role there (docs/access.md).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { listOf } from '../../schema/http.ts';
import { cluster, clusterListQuery, clusterParams, createClusterBody, updateClusterBody, type Cluster } from '../../schema/identity.ts';
import { principalOf, type Principal } from '../identity/principal.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { originOf } from '../identity/origin.ts';

const CLUSTER_COLUMNS = sql.fragment`
  c.id, c.name, c.description, m.role,
  json_build_object(
    'machines', (SELECT count(*) FROM machines WHERE cluster_id = c.id),
    'servers', (SELECT count(*) FROM servers WHERE cluster_id = c.id),
    'members', (SELECT count(*) FROM cluster_members WHERE cluster_id = c.id)) AS counts,
  c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;

const SORT_COLUMNS = { name: sql.fragment`lower(c.name)`, createdAt: sql.fragment`c.created_at` };

/** Clusters the principal can see: its memberships, narrowed to the token's scope for API tokens. */
const visible = (principal: Principal) =>
  principal.kind === 'TOKEN'
    ? sql.fragment`m.user_id = ${principal.user.id} AND c.id = ANY(${sql.array([...principal.clusterIds], 'uuid')})`
    : sql.fragment`m.user_id = ${principal.user.id}`;

export const getCluster = (connection: CommonQueryMethods, clusterId: string, userId: string): Promise<Cluster> =>
  connection.one(sql.type(cluster)`
    SELECT ${CLUSTER_COLUMNS} FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id AND m.user_id = ${userId}
     WHERE c.id = ${clusterId}`);

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
      return fetchPage(pool, {
        schema: cluster,
        columns: CLUSTER_COLUMNS,
        from: sql.fragment`clusters c JOIN cluster_members m ON m.cluster_id = c.id WHERE ${visible(principal)}`,
        order: orderBy(query.sort, SORT_COLUMNS, sql.fragment`c.id`),
        page: query,
      });
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
    handler: (ctx, { body }) => {
      const principal = principalOf(ctx);
      return pool.transaction(async (tx) => {
        const clusterId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO clusters (name, description) VALUES (${body.name}, ${body.description ?? null}) RETURNING id`);
        await tx.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${principal.user.id}, 'OWNER')`);
        await recordAudit(tx, originOf(ctx), { clusterId, action: 'cluster.create', target: { type: 'cluster', id: clusterId } });
        return getCluster(tx, clusterId, principal.user.id);
      });
    },
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
    handler: (ctx, { params }) => getCluster(pool, params.id, principalOf(ctx).user.id),
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
    handler: (ctx, { params, body }) =>
      pool.transaction(async (tx) => {
        await tx.query(sql.unsafe`
          UPDATE clusters SET
            name = coalesce(${body.name ?? null}, name),
            description = ${body.description === undefined ? sql.fragment`description` : body.description},
            updated_at = now()
           WHERE id = ${params.id}`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.id, action: 'cluster.update', target: { type: 'cluster', id: params.id } });
        return getCluster(tx, params.id, principalOf(ctx).user.id);
      }),
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
      await pool.transaction(async (tx) => {
        // Its agents are told (their connections close) before the machines go with the cluster.
        const machineIds = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM machines WHERE cluster_id = ${params.id}`);
        for (const machineId of machineIds) await notifyAgent(tx, { type: 'machine_removed', machineId });
        await tx.query(sql.unsafe`DELETE FROM clusters WHERE id = ${params.id}`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.id, action: 'cluster.delete', target: { type: 'cluster', id: params.id } });
      });
      return { success: true, message: 'Cluster deleted' };
    },
  });
}
