/**
 * The server's size at a transfer's request (docs/transfers.md): a server whose size its agent never reported (stats
 * are sent while it runs, so one stopped since it was made has none) would count for its backups alone in the check
 * against the target's free space. Its source agent is asked for its directory's disk usage then (the file helper's
 * walk, as the server's account), over the file requests' channel (forwarded to the process holding the agent when it
 * is another). An agent away, slow or refusing leaves the size unknown, as before: the job's own check decides.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { fileChannelOf } from '../files/agentChannels.ts';

/** How long the request waits for the agent's walk (it stops its own after 10 s and answers what it counted). */
const MEASURE_TIMEOUT_MS = 15_000;

/**
 * Has `serverId`'s source agent measure its directory now when no figure of it is known and the target's free space is
 * (without it nothing is checked at acceptance), and records it as the server's last measured size (what the check
 * reads). Answers the bytes; undefined when nothing was measured.
 */
export async function measureUnknownServerSize(connection: CommonQueryMethods, serverId: string, targetMachineId: string): Promise<number | undefined> {
  const row = await connection.maybeOne(sql.type(z.object({ machineId: z.string(), known: z.boolean(), targetFree: z.boolean() }))`
    SELECT machine_id AS "machineId",
           coalesce((stats ->> 'diskBytes')::bigint, disk_bytes_measured) IS NOT NULL AS known,
           EXISTS (SELECT 1 FROM machines WHERE id = ${targetMachineId} AND metrics ? 'diskFreeBytes') AS "targetFree"
      FROM servers WHERE id = ${serverId}`);
  if (!row || row.known || !row.targetFree) return undefined;
  const channel = fileChannelOf(row.machineId);
  if (!channel) return undefined;
  try {
    const answer = await channel({ serverId, op: 'usage', path: '' }, MEASURE_TIMEOUT_MS);
    const bytes = Number(answer.bytes);
    if (answer.error || !Number.isSafeInteger(bytes) || bytes < 0) return undefined;
    await connection.query(sql.unsafe`UPDATE servers SET disk_bytes_measured = coalesce(disk_bytes_measured, ${bytes}) WHERE id = ${serverId}`);
    return bytes;
  } catch {
    return undefined;
  }
}
