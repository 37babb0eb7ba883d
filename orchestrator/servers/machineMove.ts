/**
 * A server's row as a transfer changes it (docs/transfers.md): its desired status (stopped for the copy, given back
 * after), and the switch to the target machine with its new ports in one transaction, the old ports freed and the
 * `server.transferred` event written with it. Each change tells the agents concerned (`servers:sync`).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { appendEvent } from '../events/store.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { claimPorts, lockMachinePorts, type Allocation } from './ports.ts';

export type DesiredStatus = 'RUNNING' | 'STOPPED';

const serverStateRow = z.object({ machineId: z.string(), status: z.string(), desiredStatus: z.string(), statusReason: z.string().nullable() });
export type ServerState = z.infer<typeof serverStateRow>;

/** Where the server is and what it does; null when it was deleted. */
export const serverState = (connection: CommonQueryMethods, serverId: string): Promise<ServerState | null> =>
  connection.maybeOne(sql.type(serverStateRow)`
    SELECT machine_id AS "machineId", status, desired_status AS "desiredStatus", status_reason AS "statusReason" FROM servers WHERE id = ${serverId}`);

/** Sets what the server should do on its machine, and tells its agent. */
export async function setDesiredStatus(tx: CommonQueryMethods, serverId: string, desired: DesiredStatus): Promise<void> {
  const machineId = await tx.maybeOneFirst(sql.type(z.object({ machineId: z.string() }))`
    UPDATE servers SET desired_status = ${desired}, updated_at = now() WHERE id = ${serverId} RETURNING machine_id AS "machineId"`);
  if (machineId) await notifyAgent(tx, { type: 'servers_changed', machineId });
}

/**
 * The switch, on `tx`: the server's machine becomes `targetMachineId` and its ports `allocations` there (its rows on the
 * source go: those ports are free again), its desired status `desired`; the event commits with it.
 */
export async function switchServerMachine(
  tx: CommonQueryMethods,
  input: {
    serverId: string;
    clusterId: string;
    jobId: string;
    sourceMachineId: string;
    targetMachineId: string;
    allocations: readonly Allocation[];
    desired: DesiredStatus;
  },
): Promise<void> {
  await lockMachinePorts(tx, input.targetMachineId);
  const port = (name: string) => input.allocations.find((allocation) => allocation.name === name)?.port ?? null;
  await tx.query(sql.unsafe`
    UPDATE servers SET machine_id = ${input.targetMachineId}, desired_status = ${input.desired}, status = 'UNKNOWN',
           status_reason = 'moved to another machine: waiting for its agent',
           game_port = coalesce(${port('game')}::int, game_port), query_port = coalesce(${port('query')}::int, query_port),
           rcon_port = coalesce(${port('rcon')}::int, rcon_port), updated_at = now()
     WHERE id = ${input.serverId}`);
  await claimPorts(tx, input.serverId, input.targetMachineId, input.allocations);
  await appendEvent(tx, {
    clusterId: input.clusterId,
    serverId: input.serverId,
    type: 'server.transferred',
    data: {
      serverId: input.serverId,
      jobId: input.jobId,
      fromMachineId: input.sourceMachineId,
      toMachineId: input.targetMachineId,
      allocations: input.allocations,
    },
  });
  await notifyAgent(tx, { type: 'servers_changed', machineId: input.sourceMachineId });
  await notifyAgent(tx, { type: 'servers_changed', machineId: input.targetMachineId });
}
