/**
 * Clusters as rows: each is read as one of its members sees it (their role and the counts of its machines, servers
 * and members). Every change records an audit entry in the change's transaction.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { cluster, type Cluster, type clusterListQuery, type createClusterBody, type updateClusterBody } from '../../schema/identity.ts';
import type { Origin } from '../../schema/origin.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';
import { notifyAgent } from '../gateway/notifications.ts';

const CLUSTER_COLUMNS = sql.fragment`
  c.id, c.name, c.description, m.role,
  json_build_object(
    'machines', (SELECT count(*) FROM machines WHERE cluster_id = c.id),
    'servers', (SELECT count(*) FROM servers WHERE cluster_id = c.id),
    'members', (SELECT count(*) FROM cluster_members WHERE cluster_id = c.id)) AS counts,
  coalesce(c.file_deny_list, '{}') AS "fileDenyList",
  c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;

const SORT_COLUMNS = { name: sql.fragment`lower(c.name)`, createdAt: sql.fragment`c.created_at` };

/** Who lists clusters: a user sees their memberships; an API token only those of its scope too. */
export type ClusterViewer = { userId: string; tokenClusterIds: readonly string[] | null };

const visible = (viewer: ClusterViewer) =>
  viewer.tokenClusterIds
    ? sql.fragment`m.user_id = ${viewer.userId} AND c.id = ANY(${sql.array([...viewer.tokenClusterIds], 'uuid')})`
    : sql.fragment`m.user_id = ${viewer.userId}`;

/**
 * A cluster as `userId` sees it, in a transaction or, on its own, through the pool's prepared reads (never those inside
 * a transaction: they read on another connection, which does not see the transaction's changes). Prepared (planned
 * once per connection): planning it cost three times running it.
 */
export const getCluster = (connection: Pick<CommonQueryMethods, 'one'>, clusterId: string, userId: string): Promise<Cluster> =>
  connection.one(sql.prepared('gsm_cluster_get', cluster)`
    SELECT ${CLUSTER_COLUMNS} FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id AND m.user_id = ${userId}
     WHERE c.id = ${clusterId}`);

/** One page of the clusters `viewer` can see. */
export const clusterPage = (connection: CommonQueryMethods, viewer: ClusterViewer, query: z.output<typeof clusterListQuery>) =>
  fetchPage(connection, {
    schema: cluster,
    columns: CLUSTER_COLUMNS,
    from: sql.fragment`clusters c JOIN cluster_members m ON m.cluster_id = c.id WHERE ${visible(viewer)}`,
    order: orderBy(query.sort, SORT_COLUMNS, sql.fragment`c.id`),
    page: query,
  });

/** Creates a cluster whose OWNER is `userId`, on `tx` (the request's transaction). */
export async function createCluster(tx: CommonQueryMethods, origin: Origin, userId: string, body: z.output<typeof createClusterBody>): Promise<Cluster> {
  const clusterId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO clusters (name, description) VALUES (${body.name}, ${body.description ?? null}) RETURNING id`);
  await tx.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${userId}, 'OWNER')`);
  await recordAudit(tx, origin, { clusterId, action: 'cluster.create', target: { type: 'cluster', id: clusterId } });
  return getCluster(tx, clusterId, userId);
}

/** Changes a cluster's name and description; answers it as `userId` sees it. */
export async function updateCluster(
  tx: CommonQueryMethods,
  origin: Origin,
  userId: string,
  clusterId: string,
  body: z.output<typeof updateClusterBody>,
): Promise<Cluster> {
  await tx.query(sql.unsafe`
    UPDATE clusters SET
      name = coalesce(${body.name ?? null}, name),
      description = ${body.description === undefined ? sql.fragment`description` : body.description},
      file_deny_list = ${body.fileDenyList === undefined ? sql.fragment`file_deny_list` : sql.array(body.fileDenyList, 'text')},
      updated_at = now()
     WHERE id = ${clusterId}`);
  await recordAudit(tx, origin, {
    clusterId,
    action: 'cluster.update',
    target: { type: 'cluster', id: clusterId },
    ...(body.fileDenyList !== undefined ? { details: { fileDenyList: body.fileDenyList } } : {}),
  });
  // The default deny list reaches the agents with their servers' configuration (their file helpers are given it).
  if (body.fileDenyList !== undefined) {
    const machineIds = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM machines WHERE cluster_id = ${clusterId}`);
    for (const machineId of machineIds) await notifyAgent(tx, { type: 'servers_changed', machineId });
  }
  return getCluster(tx, clusterId, userId);
}

/** Deletes a cluster with its machines, members, invitations and token scopes; its audit log is kept. */
export async function deleteCluster(tx: CommonQueryMethods, origin: Origin, clusterId: string): Promise<void> {
  // Its agents are told (their connections close) before the machines go with the cluster.
  const machineIds = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM machines WHERE cluster_id = ${clusterId}`);
  for (const machineId of machineIds) await notifyAgent(tx, { type: 'machine_removed', machineId });
  await tx.query(sql.unsafe`DELETE FROM clusters WHERE id = ${clusterId}`);
  await recordAudit(tx, origin, { clusterId, action: 'cluster.delete', target: { type: 'cluster', id: clusterId } });
}
