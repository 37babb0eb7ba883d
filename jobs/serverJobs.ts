/**
 * The accept path of a job on one game server, shared by the power and RCON routes and by scheduled task runs:
 * lock the server (its jobs are accepted in order), set its desired status where the job changes it, and write the
 * job with its delivery — all in the caller's transaction.
 */
import type { Context } from 'koa';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict, notFound } from '../api/errors.ts';
import type { Job, JobType } from '../schema/jobs.ts';
import { createJob, type JobCreator } from './store.ts';

export type DesiredStatus = 'RUNNING' | 'STOPPED';

/** The desired status each power job asks for (RCON, BROADCAST, WIPE and the rest change nothing). */
export const DESIRED_BY_TYPE: Partial<Record<JobType, DesiredStatus>> = { START: 'RUNNING', STOP: 'STOPPED', RESTART: 'RUNNING', KILL: 'STOPPED' };

export type ServerJobRequest = {
  serverId: string;
  type: JobType;
  params: Record<string, unknown>;
  desired: DesiredStatus | null;
  /** RCON needs a running server: anything but ONLINE is a 409. */
  requireRunning: boolean;
  taskId?: string | null;
  createdBy?: JobCreator;
};

const serverRow = z.object({ id: z.string(), clusterId: z.string(), machineId: z.string(), status: z.string() });

export async function acceptServerJob(tx: CommonQueryMethods, ctx: Context | null, request: ServerJobRequest): Promise<Job> {
  const { serverId, desired } = request;
  // Locks the server (jobs of one server are accepted in order) and sets its desired status in one statement.
  const server = await tx.maybeOne(sql.type(serverRow)`
    UPDATE servers SET desired_status = coalesce(${desired}, desired_status), updated_at = CASE WHEN ${desired}::text IS NULL THEN updated_at ELSE now() END
     WHERE id = ${serverId}
    RETURNING id, cluster_id AS "clusterId", machine_id AS "machineId", status`);
  if (!server) throw notFound('Server not found');
  if (request.requireRunning && server.status !== 'ONLINE') throw conflict(`The server is ${server.status}, not running: RCON needs a running server`);
  return createJob(tx, ctx, {
    clusterId: server.clusterId,
    serverId,
    machineId: server.machineId,
    type: request.type,
    params: request.params,
    taskId: request.taskId ?? null,
    createdBy: request.createdBy,
  });
}
