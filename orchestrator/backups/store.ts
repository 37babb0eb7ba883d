/**
 * Backups as rows (docs/installs-and-backups.md). The agent owns the archives; the service owns the rows. A backup is
 * a row made with its BACKUP job in one transaction (so the job's end always finds it: sql/migrations/000025 completes
 * or fails it, then applies the server's retention); the agent removes the archive of any backup that no longer has a
 * row (servers:sync lists the ids of each server's).
 */
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { backup, type Backup, type backupListQuery } from '../../schema/backups.ts';
import { conflict, notFound } from '../../schema/errors.ts';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { uuidV7 } from '../../sql/uuidV7.ts';
import { recordAudit } from '../audit.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { acceptServerJob } from '../jobs/serverJobs.ts';
import type { JobCreator } from '../jobs/store.ts';

export const BACKUP_COLUMNS = sql.fragment`
  b.id, b.server_id AS "serverId", b.cluster_id AS "clusterId", b.job_id AS "jobId", b.name, b.status, b.size_bytes AS "sizeBytes",
  b.sha256, b.consistent, b.location, b.error, b.created_at AS "createdAt", b.completed_at AS "completedAt"`;

export const getBackup = async (connection: CommonQueryMethods, backupId: string): Promise<Backup> => {
  const found = await connection.maybeOne(sql.type(backup)`SELECT ${BACKUP_COLUMNS} FROM backups b WHERE b.id = ${backupId}`);
  if (!found) throw notFound('Backup not found');
  return found;
};

/** One page of `serverId`'s backups, filtered by status and sorted as asked. */
export const backupPage = (connection: CommonQueryMethods, serverId: string, query: z.output<typeof backupListQuery>) =>
  fetchPage(connection, {
    schema: backup,
    columns: BACKUP_COLUMNS,
    from: sql.fragment`backups b WHERE b.server_id = ${serverId}${query.status ? sql.fragment` AND b.status = ${query.status}` : sql.fragment``}`,
    order: orderBy(query.sort, { createdAt: sql.fragment`b.created_at` }, sql.fragment`b.id`),
    page: query,
  });

/** `backup 2026-11-24 03:00 UTC` */
const defaultName = (at: Date) => `backup ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export type BackupRequest = {
  serverId: string;
  name?: string;
  /** The cluster the caller was authorized in: a server of another cluster is then not found. */
  clusterId?: string;
  taskId?: string | null;
  createdBy?: JobCreator;
  /** Writes the audit entry `server.backup` in the same statement as the job. */
  audit?: boolean;
  /** Fail rather than archive a running server that cannot be flushed (docs/installs-and-backups.md). */
  requireConsistent?: boolean;
};

/** The BACKUP job and its PENDING backup, in the caller's transaction (the job is announced when it commits). */
export async function requestBackup(tx: CommonQueryMethods, origin: Origin, request: BackupRequest): Promise<{ job: Job; backupId: string }> {
  const backupId = uuidV7();
  const name = request.name ?? defaultName(new Date());
  const job = await acceptServerJob(tx, origin, {
    serverId: request.serverId,
    type: 'BACKUP',
    params: { backupId, name, ...(request.requireConsistent ? { requireConsistent: true } : {}) },
    desired: null,
    requireRunning: false,
    clusterId: request.clusterId,
    taskId: request.taskId ?? null,
    createdBy: request.createdBy,
    ...(request.audit ? { audit: { action: 'server.backup' } } : {}),
  });
  await tx.query(sql.unsafe`
    INSERT INTO backups (id, cluster_id, server_id, job_id, name) VALUES (${backupId}, ${job.clusterId}, ${request.serverId}, ${job.id}, ${name})`);
  return { job, backupId };
}

/** A RESTORE job of a completed backup onto its (stopped) server. */
export async function requestRestore(pool: DatabasePool, origin: Origin, backupId: string): Promise<Job> {
  return pool.transaction(async (tx) => {
    const found = await getBackup(tx, backupId);
    if (found.status !== 'COMPLETED') throw conflict(`The backup is ${found.status}: only a completed backup can be restored`);
    return acceptServerJob(tx, origin, {
      serverId: found.serverId,
      type: 'RESTORE',
      params: { backupId, sha256: found.sha256, sizeBytes: found.sizeBytes, location: found.location },
      desired: null,
      requireRunning: false,
      requireStopped: true,
      audit: { action: 'backup.restore' },
    });
  });
}

/** Deletes the row (the agent then removes the archive); refused while it is being made or restored. */
export async function deleteBackup(pool: DatabasePool, origin: Origin, backupId: string): Promise<void> {
  await pool.transaction(async (tx) => {
    const row = await tx.maybeOne(sql.type(
      z.object({ status: z.string(), clusterId: z.string(), serverId: z.string(), machineId: z.string(), restoring: z.boolean() }),
    )`
      SELECT b.status, b.cluster_id AS "clusterId", b.server_id AS "serverId", s.machine_id AS "machineId",
             EXISTS (SELECT 1 FROM jobs j WHERE j.server_id = b.server_id AND j.type = 'RESTORE' AND j.params ->> 'backupId' = b.id::text
                        AND j.status IN ('QUEUED', 'DISPATCHED', 'RUNNING')) AS restoring
        FROM backups b JOIN servers s ON s.id = b.server_id WHERE b.id = ${backupId} FOR UPDATE OF b`);
    if (!row) throw notFound('Backup not found');
    if (row.status === 'PENDING') throw conflict('The backup is still being made: delete it once it has finished');
    if (row.restoring) throw conflict('The backup is being restored: delete it once the restore has finished');
    await tx.query(sql.unsafe`DELETE FROM backups WHERE id = ${backupId}`);
    await notifyAgent(tx, { type: 'servers_changed', machineId: row.machineId });
    await recordAudit(tx, origin, { clusterId: row.clusterId, action: 'backup.delete', target: { type: 'backup', id: backupId } });
  });
}

/** The server's completed backups (a transfer takes them along: docs/transfers.md). */
export const completedBackups = (connection: CommonQueryMethods, serverId: string) =>
  connection.any(sql.type(
    z.object({ id: z.string(), location: z.string().nullable(), sha256: z.string().nullable(), sizeBytes: z.coerce.number().nullable() }),
  )`
    SELECT id, location, sha256, size_bytes AS "sizeBytes" FROM backups WHERE server_id = ${serverId} AND status = 'COMPLETED' ORDER BY created_at, id`);

/**
 * The server's local backups a transfer without `includeBackups` leaves on its source machine: their rows are deleted
 * at its switch (deleteBackupsLeftBehind), never listed as restorable on a machine that does not hold their files.
 */
export const localBackupsOf = (connection: CommonQueryMethods, serverId: string) =>
  connection.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM backups WHERE server_id = ${serverId} AND status = 'COMPLETED' AND location IS DISTINCT FROM 'S3' ORDER BY created_at, id`);

/**
 * Deletes `backupIds` of `serverId` in the switch's transaction, each with its audit entry naming the transfer (their
 * files, on the source, go with its clean up). Answers those that were still there.
 */
export async function deleteBackupsLeftBehind(
  tx: CommonQueryMethods,
  origin: Origin,
  input: { clusterId: string; serverId: string; transferJobId: string; backupIds: readonly string[] },
): Promise<readonly string[]> {
  if (input.backupIds.length === 0) return [];
  const deleted = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`
    DELETE FROM backups WHERE server_id = ${input.serverId} AND id = ANY (${sql.array(input.backupIds, 'uuid')}) RETURNING id`);
  for (const backupId of deleted)
    await recordAudit(tx, origin, {
      clusterId: input.clusterId,
      action: 'backup.delete',
      target: { type: 'backup', id: backupId },
      details: { transferJobId: input.transferJobId, reason: 'left on the source machine by a transfer without includeBackups' },
    });
  return deleted;
}
