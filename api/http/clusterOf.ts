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

const clusterRow = z.object({ clusterId: z.string() });

/**
 * Prepared, one statement per table (give it `pool.reads`): every request naming such a resource asks it, a script
 * polling a job each time.
 */
export async function clusterOf(connection: Pick<CommonQueryMethods, 'maybeOne'>, table: keyof typeof RESOURCES, id: string): Promise<string> {
  const row = await connection.maybeOne(sql.prepared(`gsm_cluster_of_${table}`, clusterRow)`
    SELECT cluster_id AS "clusterId" FROM ${sql.identifier([table])} WHERE id = ${id}::uuid`);
  if (!row) throw notFound(`${RESOURCES[table]} not found`);
  return row.clusterId;
}

/** A route's `permission.cluster` for a path `/<resource>/:id` (the id validated: a UUID). */
export const clusterOfParam =
  (connection: Pick<CommonQueryMethods, 'maybeOne'>, table: keyof typeof RESOURCES) =>
  ({ params }: { params: { id: string } }): Promise<string> =>
    clusterOf(connection, table, params.id);
