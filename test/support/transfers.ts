/**
 * A transfer of a server under way, as a transfer's accept leaves it (its TRANSFER job and its transfers row), for
 * tests of what a transfer refuses without running one (orchestrator/transfers/ runs real ones).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

export type TransferUnderWay = { clusterId: string; serverId: string; sourceMachineId: string; targetMachineId: string };

/** Writes it with `client` (in the caller's transaction, if any); answers the TRANSFER job's id. */
export async function writeTransferUnderWay(client: Pick<pg.ClientBase, 'query'>, transfer: TransferUnderWay, jobId: string = randomUUID()): Promise<string> {
  const { clusterId, serverId, sourceMachineId, targetMachineId } = transfer;
  await client.query(
    `INSERT INTO jobs (id, cluster_id, server_id, machine_id, type, params, created_by_kind, expires_at)
     VALUES ($1, $2, $3, $4, 'TRANSFER', '{}', 'SYSTEM', now() + interval '1 hour')`,
    [jobId, clusterId, serverId, sourceMachineId],
  );
  await client.query(
    `INSERT INTO transfers (job_id, server_id, cluster_id, source_machine_id, target_machine_id, desired_before, allocations)
     VALUES ($1, $2, $3, $4, $5, 'STOPPED', '[]')`,
    [jobId, serverId, clusterId, sourceMachineId, targetMachineId],
  );
  return jobId;
}
