/**
 * The cluster a resource belongs to, for routes whose path names the resource rather than its cluster (the route
 * layer then checks the caller's role there). A resource that exists nowhere is a 404 naming it.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { notFound } from '../../schema/errors.ts';

const RESOURCES = {
  backups: 'Backup',
  bans: 'Ban',
  jobs: 'Job',
  machines: 'Machine',
  servers: 'Server',
  tasks: 'Task',
  webhooks: 'Webhook',
} as const;

export async function clusterOf(connection: CommonQueryMethods, table: keyof typeof RESOURCES, id: string): Promise<string> {
  const clusterId = await connection.maybeOneFirst(sql.type(z.object({ clusterId: z.string() }))`
    SELECT cluster_id AS "clusterId" FROM ${sql.identifier([table])} WHERE id = ${id}`);
  if (!clusterId) throw notFound(`${RESOURCES[table]} not found`);
  return clusterId;
}

/** A route's `permission.cluster` for a path `/<resource>/:id`. */
export const clusterOfParam =
  (connection: CommonQueryMethods, table: keyof typeof RESOURCES) =>
  ({ params }: { params: { id: string } }): Promise<string> =>
    clusterOf(connection, table, params.id);
