/**
 * Transfers as rows (docs/transfers.md): the durable state of a TRANSFER job, which the runner (runner.ts) moves from
 * phase to phase. Accepting one reserves the target's ports, writes the job, the row and the audit entry in one
 * transaction; a cancel is remembered on the row (the runner rolls back); the lease says which orchestrator process
 * runs it and until when, so a process that died leaves it to the next one.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { AppError, notFound, validationFailed } from '../../schema/errors.ts';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { BEFORE_SWITCH, TRANSFER_PHASES, transferConflict, type TransferPhase, type transferBody } from '../../schema/transfers.ts';

export { BEFORE_SWITCH, type TransferPhase };
import { uuidV7 } from '../../sql/uuidV7.ts';
import { recordAudit } from '../audit.ts';
import { localBackupsOf } from '../backups/store.ts';
import { acceptTransferJob } from '../jobs/transferJobs.ts';
import { assignPorts, lockMachinePorts, type Allocation } from '../servers/ports.ts';
import { serverPortPlan } from '../servers/store.ts';

const item = z.object({ key: z.string(), kind: z.enum(['server', 'backup']), backupId: z.string().optional(), sizeBytes: z.number(), sha256: z.string() });
export type TransferItem = z.infer<typeof item>;
const allocation = z.object({ name: z.string(), port: z.number(), protocol: z.enum(['TCP', 'UDP', 'BOTH']) });

const transferRow = z.object({
  jobId: z.string(),
  serverId: z.string(),
  clusterId: z.string(),
  sourceMachineId: z.string(),
  targetMachineId: z.string(),
  phase: z.enum(TRANSFER_PHASES),
  keepSource: z.boolean(),
  includeBackups: z.boolean(),
  bandwidthLimit: z.coerce.number().nullable(),
  desiredBefore: z.enum(['RUNNING', 'STOPPED']),
  allocations: z.array(allocation),
  items: z.array(item).nullable(),
  bytesDone: z.coerce.number(),
  bytesTotal: z.coerce.number().nullable(),
  resumes: z.array(z.object({ phase: z.string(), fromBytes: z.number(), acknowledgedBefore: z.number(), at: z.string() })),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  cancelRequested: z.boolean(),
  /** Local backups left on the source (without includeBackups), deleted at the switch: known at the transfer's acceptance. */
  backupsToDelete: z.array(z.string()),
});
export type Transfer = z.infer<typeof transferRow>;

const COLUMNS = sql.fragment`
  job_id AS "jobId", server_id AS "serverId", cluster_id AS "clusterId", source_machine_id AS "sourceMachineId",
  target_machine_id AS "targetMachineId", phase, keep_source AS "keepSource", include_backups AS "includeBackups",
  bandwidth_limit AS "bandwidthLimit", desired_before AS "desiredBefore", allocations, items, bytes_done AS "bytesDone",
  bytes_total AS "bytesTotal", resumes, error, cancel_requested_at IS NOT NULL AS "cancelRequested",
  coalesce((SELECT j.params -> 'backupsToDelete' FROM jobs j WHERE j.id = transfers.job_id), '[]') AS "backupsToDelete"`;

/** The transfer of `serverId` under way (not ended), if any: power and file actions answer 409 naming its job. */
export const activeTransferJob = (connection: CommonQueryMethods, serverId: string): Promise<string | null> =>
  connection.maybeOneFirst(sql.type(z.object({ jobId: z.string() }))`
    SELECT job_id AS "jobId" FROM transfers WHERE server_id = ${serverId} AND finished_at IS NULL LIMIT 1`);

/** Throws the 409 when the server is being transferred. */
export async function refuseDuringTransfer(connection: CommonQueryMethods, serverId: string): Promise<void> {
  const jobId = await activeTransferJob(connection, serverId);
  if (jobId) throw transferConflict(jobId);
}

export const getTransfer = (connection: CommonQueryMethods, jobId: string, options: { forUpdate?: boolean } = {}): Promise<Transfer | null> =>
  connection.maybeOne(
    sql.type(transferRow)`SELECT ${COLUMNS} FROM transfers WHERE job_id = ${jobId} ${options.forUpdate ? sql.fragment`FOR UPDATE` : sql.fragment``}`,
  );

/**
 * Accepts a transfer, on `tx`: the server (of `clusterId`) and the target (another machine of the same cluster) are
 * checked, the target's ports reserved (explicit ones, the rest picked from its ranges), and the job, the row and the
 * audit entry written. 404: no such server; 422: a bad target; 409: a transfer under way, or a port taken.
 */
export async function startTransfer(
  tx: CommonQueryMethods,
  origin: Origin,
  input: { clusterId: string; serverId: string; body: z.output<typeof transferBody> },
): Promise<Job> {
  const { serverId, body } = input;
  const current = await tx.maybeOne(sql.type(z.object({ clusterId: z.string(), machineId: z.string(), desiredStatus: z.string() }))`
    SELECT cluster_id AS "clusterId", machine_id AS "machineId", desired_status AS "desiredStatus" FROM servers
     WHERE id = ${serverId} AND cluster_id = ${input.clusterId} FOR UPDATE`);
  if (!current) throw notFound('Server not found');
  const target = await tx.maybeOne(sql.type(z.object({ clusterId: z.string() }))`SELECT cluster_id AS "clusterId" FROM machines WHERE id = ${body.machineId}`);
  if (!target || target.clusterId !== current.clusterId)
    throw validationFailed([{ field: 'machineId', message: 'no machine of this server’s cluster has this id' }]);
  if (body.machineId === current.machineId) throw validationFailed([{ field: 'machineId', message: 'the server is on this machine already' }]);
  const under = await activeTransferJob(tx, serverId);
  if (under) throw transferConflict(under);
  // A job under way (an install, an update, a backup, a restore, a task) changes the files the copy would archive.
  const open = await tx.maybeOne(sql.type(z.object({ id: z.string(), type: z.string(), status: z.string() }))`
    SELECT id, type, status FROM jobs WHERE server_id = ${serverId} AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING') ORDER BY created_at LIMIT 1`);
  if (open)
    throw new AppError(
      409,
      `The server has a ${open.type} job ${open.status.toLowerCase()} (job ${open.id}): wait for it to end, or cancel it, then transfer`,
      {
        extra: { code: 'JOB_IN_PROGRESS', jobId: open.id },
      },
    );
  // The server's row is changed, not only locked: an action accepted at the same moment waits for this and sees it.
  await tx.query(sql.unsafe`UPDATE servers SET updated_at = now() WHERE id = ${serverId}`);
  // Transfers to one machine are accepted one at a time (this lock): each sees the room the others reserved.
  await lockMachinePorts(tx, body.machineId);
  const space = await checkTargetSpace(tx, { serverId, targetMachineId: body.machineId, includeBackups: body.includeBackups });
  const reservedBytes = space.reservedBytes;
  // Every port the server holds now is planned on the target, its extra named ports (a CUSTOM server's) too.
  const names = await tx.anyFirst(sql.type(z.object({ name: z.string() }))`SELECT name FROM server_ports WHERE server_id = ${serverId}`);
  const allocations: Allocation[] = await assignPorts(tx, {
    machineId: body.machineId,
    serverId,
    plan: await serverPortPlan(tx, serverId),
    requested: { ...Object.fromEntries(names.map((name) => [name, undefined])), ...(body.allocations ?? {}) },
  });
  const jobId = uuidV7();
  // Without includeBackups the local backups stay on the source, where the server no longer is: they are deleted at the
  // switch (each audited), and the answer names them now. None is lost silently.
  const backupsToDelete = body.includeBackups ? [] : await localBackupsOf(tx, serverId);
  const params = {
    machineId: body.machineId,
    sourceMachineId: current.machineId,
    keepSource: body.keepSource,
    includeBackups: body.includeBackups,
    ...(body.includeBackups ? {} : { backupsToDelete }),
    ...(reservedBytes === null ? {} : { reservedBytes }),
    // What the check at acceptance could not know (the job measures both machines before it stops the server).
    ...(space.unknown.length ? { spaceUnknown: space.unknown } : {}),
    ...(body.bandwidthLimit ? { bandwidthLimit: body.bandwidthLimit } : {}),
    allocations,
  };
  const job = await acceptTransferJob(tx, origin, { id: jobId, clusterId: current.clusterId, serverId, params });
  await tx.query(sql.unsafe`
    INSERT INTO transfers (job_id, server_id, cluster_id, source_machine_id, target_machine_id, keep_source, include_backups, bandwidth_limit, desired_before, allocations)
    VALUES (${jobId}, ${serverId}, ${current.clusterId}, ${current.machineId}, ${body.machineId}, ${body.keepSource}, ${body.includeBackups},
            ${body.bandwidthLimit ?? null}, ${current.desiredStatus === 'RUNNING' ? 'RUNNING' : 'STOPPED'}, ${sql.jsonb(allocations)})`);
  await tx.query(sql.unsafe`
    INSERT INTO transfer_ports (machine_id, port, job_id, name)
    SELECT ${body.machineId}, port, ${jobId}, name
      FROM unnest(${sql.array(
        allocations.map((one) => one.port),
        'int4',
      )}::int4[], ${sql.array(
        allocations.map((one) => one.name),
        'text',
      )}::text[]) AS a(port, name)`);
  await recordAudit(tx, origin, { clusterId: current.clusterId, action: 'server.transfer', target: { type: 'server', id: serverId } });
  return job;
}

/** Beside the copy, the target needs room to extract it: the server's size twice, and this much more. */
export const SPACE_MARGIN_BYTES = 64 * 1024 * 1024;

/** Bytes a transfer needs on its target: the archive and its extraction (the server's size twice), its backups, a margin. */
export const spaceNeeded = (serverBytes: number, backupBytes: number) => serverBytes * 2 + backupBytes + SPACE_MARGIN_BYTES;

/** A free-space figure older than this (a few heartbeats), or of a machine not online, is not taken for the truth. */
export const FREE_SPACE_FRESH_SECONDS = 180;

/**
 * The other transfers to `targetMachineId` not yet switched: what they reserved (callers hold the machine's ports
 * lock, lockMachinePorts, so two checks do not count on the same room).
 */
export const reservedOn = (connection: CommonQueryMethods, targetMachineId: string, exceptJobId?: string) =>
  connection.oneFirst(sql.type(z.object({ reservedBytes: z.coerce.number() }))`
    SELECT coalesce(sum((j.params ->> 'reservedBytes')::bigint), 0) AS "reservedBytes" FROM transfers t JOIN jobs j ON j.id = t.job_id
     WHERE t.target_machine_id = ${targetMachineId} AND t.finished_at IS NULL AND t.job_id IS DISTINCT FROM ${exceptJobId ?? null}::uuid
       AND t.phase IN (${sql.join(
         [...BEFORE_SWITCH, 'SWITCH'].map((phase) => sql.fragment`${phase}`),
         sql.fragment`, `,
       )})`);

/**
 * The check at acceptance, against the target's last reported free space (a figure older than a few heartbeats, or of
 * an agent that reports none, is not used: the job checks): the server's size as last measured by its agent (kept
 * when the agent goes away), its local backups when they follow, and what the transfers to the same machine not yet
 * switched reserved. Answers what this one reserves (null: not checked) and what was not known; 409 `NO_SPACE` with
 * the figures when it does not fit.
 */
async function checkTargetSpace(
  tx: CommonQueryMethods,
  input: { serverId: string; targetMachineId: string; includeBackups: boolean },
): Promise<{ reservedBytes: number | null; unknown: string[] }> {
  const figures = await tx.one(sql.type(
    z.object({ freeBytes: z.coerce.number().nullable(), serverBytes: z.coerce.number().nullable(), backupBytes: z.coerce.number() }),
  )`
    SELECT (SELECT (metrics ->> 'diskFreeBytes')::bigint FROM machines
             WHERE id = ${input.targetMachineId} AND status = 'ONLINE'
               AND (metrics ->> 'at')::timestamptz > now() - make_interval(secs => ${FREE_SPACE_FRESH_SECONDS})) AS "freeBytes",
           (SELECT coalesce((stats ->> 'diskBytes')::bigint, disk_bytes_measured) FROM servers WHERE id = ${input.serverId}) AS "serverBytes",
           CASE WHEN ${input.includeBackups}::boolean THEN
             (SELECT coalesce(sum(size_bytes), 0) FROM backups WHERE server_id = ${input.serverId} AND status = 'COMPLETED' AND location IS DISTINCT FROM 'S3')
           ELSE 0 END AS "backupBytes"`);
  const unknown = [
    ...(figures.freeBytes === null ? ["the target's free space (its agent reported none in the last few minutes)"] : []),
    ...(figures.serverBytes === null ? ["the server's size (never measured by its agent)"] : []),
  ];
  if (figures.freeBytes === null) return { reservedBytes: null, unknown };
  const serverBytes = figures.serverBytes ?? 0;
  const reservedBytes = await reservedOn(tx, input.targetMachineId);
  const reserves = serverBytes * 2 + figures.backupBytes;
  const needed = spaceNeeded(serverBytes, figures.backupBytes) + reservedBytes;
  if (!(figures.freeBytes >= needed))
    throw new AppError(
      409,
      `The target machine last reported ${figures.freeBytes} bytes free; the transfer needs about ${needed}: the server's files twice (${serverBytes} bytes as last measured, for the copy and its extraction)${
        figures.backupBytes ? `, its local backups (${figures.backupBytes})` : ''
      }${reservedBytes ? `, what other transfers to that machine reserved (${reservedBytes})` : ''} and a margin`,
      { extra: { code: 'NO_SPACE', freeBytes: figures.freeBytes, neededBytes: needed, reservedBytes } },
    );
  return { reservedBytes: reserves, unknown };
}

// ---- the runner's writes

/** Transfers not ended whose lease is free (no process runs them, or the one that did died). */
export const claimableTransfers = (connection: CommonQueryMethods) =>
  connection.any(
    sql.type(z.object({ jobId: z.string(), sourceMachineId: z.string(), targetMachineId: z.string(), phase: z.string(), cancelRequested: z.boolean() }))`
    SELECT job_id AS "jobId", source_machine_id AS "sourceMachineId", target_machine_id AS "targetMachineId", phase,
           cancel_requested_at IS NOT NULL AS "cancelRequested" FROM transfers
     WHERE finished_at IS NULL AND (lease_until IS NULL OR lease_until < now()) ORDER BY created_at LIMIT 20`,
  );

/** Takes (or renews) the lease; false when another process holds it. */
export async function takeLease(connection: CommonQueryMethods, jobId: string, owner: string, leaseMs: number): Promise<boolean> {
  const taken = await connection.query(sql.unsafe`
    UPDATE transfers SET lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     WHERE job_id = ${jobId} AND finished_at IS NULL AND (lease_until IS NULL OR lease_until < now() OR lease_owner = ${owner})`);
  return taken.rowCount > 0;
}

export async function releaseLease(connection: CommonQueryMethods, jobId: string, owner: string): Promise<void> {
  await connection.query(sql.unsafe`UPDATE transfers SET lease_until = NULL WHERE job_id = ${jobId} AND lease_owner = ${owner}`);
}

/** The lease of a transfer is no longer this process's: it stops working on it. */
export class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`the lease of transfer ${jobId} is held by another process or ran out`);
  }
}

/** Moves the transfer on (only while `owner` holds it), with what changed. */
export async function updateTransfer(
  connection: CommonQueryMethods,
  jobId: string,
  owner: string,
  change: {
    phase?: TransferPhase;
    items?: TransferItem[];
    bytesDone?: number;
    bytesTotal?: number;
    error?: { code: string; message: string } | null;
    resume?: { phase: string; fromBytes: number; acknowledgedBefore: number };
    finished?: boolean;
  },
): Promise<void> {
  const set = [
    sql.fragment`updated_at = now()`,
    ...(change.phase ? [sql.fragment`phase = ${change.phase}`] : []),
    ...(change.items ? [sql.fragment`items = ${sql.jsonb(change.items)}`] : []),
    ...(change.bytesDone !== undefined ? [sql.fragment`bytes_done = ${change.bytesDone}`] : []),
    ...(change.bytesTotal !== undefined ? [sql.fragment`bytes_total = ${change.bytesTotal}`] : []),
    ...(change.error !== undefined ? [sql.fragment`error = ${change.error ? sql.jsonb(change.error) : null}`] : []),
    ...(change.resume ? [sql.fragment`resumes = resumes || ${sql.jsonb([{ ...change.resume, at: new Date().toISOString() }])}`] : []),
    ...(change.finished ? [sql.fragment`finished_at = now(), lease_until = NULL`] : []),
  ];
  // Fenced by the lease: a process whose lease ran out (another took the transfer over) changes nothing, and its
  // transaction (a switch) rolls back.
  const updated = await connection.query(
    sql.unsafe`UPDATE transfers SET ${sql.join(set, sql.fragment`, `)} WHERE job_id = ${jobId} AND lease_owner = ${owner} AND lease_until > now()`,
  );
  if (updated.rowCount === 0) throw new LeaseLost(jobId);
  // The reserved ports go with the end of the transfer (switched, rolled back or failed).
  if (change.finished || change.phase === 'START') await connection.query(sql.unsafe`DELETE FROM transfer_ports WHERE job_id = ${jobId}`);
}
