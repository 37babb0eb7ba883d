/**
 * Port allocations (docs/servers.md#ports-and-allocations): a machine's port ranges, and the named ports a server
 * holds on its machine. Ports are given explicitly or picked free from the machine's ranges (from the game's default
 * port upwards on a machine without ranges), honouring the game's offsets where they fit. Picks and claims on one
 * machine run one at a time (a transaction-scoped advisory lock), and `server_ports`' primary key (machine, port)
 * makes two servers holding one port impossible whatever happens.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { AppError, notFound, validationFailed, type ErrorDetail } from '../../schema/errors.ts';
import type { PortPlan, PortProtocol } from '../../schema/gamePorts.ts';
import type { Origin } from '../../schema/origin.ts';
import { machineAllocation, portRange, type machineAllocations } from '../../schema/servers.ts';
import { recordAudit } from '../audit.ts';

export type PortRange = { firstPort: number; lastPort: number };
export type Allocation = { name: string; port: number; protocol: PortProtocol };

const MIN_PORT = 1024;
const MAX_PORT = 65535;

/** The field of the request body that names a port (the seed's three, else `ports.<name>`). */
export const portField = (name: string) => (name === 'game' ? 'gamePort' : name === 'query' ? 'queryPort' : name === 'rcon' ? 'rconPort' : `ports.${name}`);

/** Serialises port picks and claims on one machine until the transaction ends. */
export async function lockMachinePorts(tx: CommonQueryMethods, machineId: string): Promise<void> {
  await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(hashtextextended('gsm_machine_ports:' || ${machineId}, 0))`);
}

export const machineRanges = (connection: CommonQueryMethods, machineId: string): Promise<readonly PortRange[]> =>
  connection.any(sql.type(z.object({ firstPort: z.number(), lastPort: z.number() }))`
    SELECT first_port AS "firstPort", last_port AS "lastPort" FROM machine_port_ranges WHERE machine_id = ${machineId} ORDER BY first_port`);

/** The ports of `machineId` held by servers other than `exceptServerId` (or reserved for a transfer), with who holds each. */
async function heldPorts(tx: CommonQueryMethods, machineId: string, exceptServerId: string | null) {
  const rows = await tx.any(sql.type(z.object({ port: z.number(), name: z.string(), serverId: z.string(), serverName: z.string() }))`
    SELECT p.port, p.name, s.id AS "serverId", s.name AS "serverName"
      FROM server_ports p JOIN servers s ON s.id = p.server_id
     WHERE p.machine_id = ${machineId} AND p.server_id IS DISTINCT FROM ${exceptServerId}::uuid
    UNION ALL
    -- Reserved for a server moving here (docs/transfers.md) until its switch.
    SELECT r.port, r.name, s.id, s.name
      FROM transfer_ports r JOIN transfers t ON t.job_id = r.job_id JOIN servers s ON s.id = t.server_id
     WHERE r.machine_id = ${machineId}`);
  return new Map(rows.map((row) => [row.port, row]));
}

const inRanges = (ranges: readonly PortRange[], port: number) => ranges.some((range) => port >= range.firstPort && port <= range.lastPort);

/**
 * The ports a server holds after a create or a change: `requested` (explicit ports by name) wins, `current` (what it
 * holds now) stays, the rest are picked. Explicit ports taken by another server are a 409 naming the holder; outside
 * the machine's ranges (when it has any) a 400. `extras` names a server's own extra ports to keep holding though not
 * in `requested` (a PATCH of `gamePort` alone, a transfer): each keeps its `current` port, or is picked. Call under
 * lockMachinePorts.
 */
export async function assignPorts(
  tx: CommonQueryMethods,
  input: {
    machineId: string;
    serverId: string | null;
    plan: PortPlan;
    requested: Record<string, number | undefined>;
    current?: Record<string, number>;
    extras?: readonly string[];
  },
): Promise<Allocation[]> {
  const { machineId, serverId, plan, requested } = input;
  const ranges = await machineRanges(tx, machineId);
  const held = await heldPorts(tx, machineId, serverId);
  const names = [
    ...new Set([
      ...plan.ports.map((port) => port.name),
      ...Object.keys(requested).filter((name) => !plan.ports.some((port) => port.name === name)),
      ...(input.extras ?? []),
    ]),
  ];
  const protocolOf = (name: string): PortProtocol => plan.ports.find((port) => port.name === name)?.protocol ?? 'BOTH';

  // Explicit ports first: taken (409 naming the holder), outside the ranges (400), or twice in one server (400).
  const chosen = new Map<string, number>();
  const outside: ErrorDetail[] = [];
  for (const name of names) {
    const port = requested[name];
    if (port === undefined) continue;
    const holder = held.get(port);
    if (holder)
      throw new AppError(
        409,
        `Port ${port} is already used by another server on the same machine: "${holder.serverName}" (${holder.serverId}) holds it as its ${holder.name} port`,
        {
          extra: { port, holder: { serverId: holder.serverId, serverName: holder.serverName, name: holder.name } },
        },
      );
    // A port the server already holds stays valid even if the ranges changed since.
    if (ranges.length > 0 && !inRanges(ranges, port) && input.current?.[name] !== port)
      outside.push({ field: portField(name), message: `port ${port} is outside this machine's port ranges (${describeRanges(ranges)})` });
    chosen.set(name, port);
  }
  if (outside.length > 0) throw validationFailed(outside);
  const duplicates = [...chosen].filter(([name, port]) => [...chosen].some(([other, otherPort]) => other !== name && otherPort === port));
  if (duplicates.length > 0) throw validationFailed(duplicates.map(([name]) => ({ field: portField(name), message: 'the ports of a server must differ' })));

  // Ports kept from before, unless one now collides with an explicit one.
  for (const name of names) {
    const kept = input.current?.[name];
    if (!chosen.has(name) && kept !== undefined && ![...chosen.values()].includes(kept)) chosen.set(name, kept);
  }

  const missing = names.filter((name) => !chosen.has(name));
  if (missing.length === 0) return names.map((name) => ({ name, port: chosen.get(name)!, protocol: protocolOf(name) }));

  const usable = (port: number) =>
    port >= MIN_PORT && port <= MAX_PORT && !held.has(port) && ![...chosen.values()].includes(port) && (ranges.length === 0 || inRanges(ranges, port));
  // A port without an offset (a template's port with neither default nor offset) takes any free port.
  const offsets = new Map(plan.ports.flatMap((port) => (port.offset === undefined ? [] : [[port.name, port.offset] as const])));
  const candidates = ranges.length > 0 ? ranges.map((range) => [range.firstPort, range.lastPort] as const) : [[plan.defaultGamePort, MAX_PORT] as const];
  const gameKnown = chosen.get('game');

  // Best: one game port from which every missing port sits at its game's offset (query = game + 1 …).
  const fitsAt = (game: number) => missing.every((name) => (name === 'game' ? usable(game) : !offsets.has(name) || usable(game + offsets.get(name)!)));
  let base = gameKnown;
  if (base === undefined) {
    outer: for (const [first, last] of candidates)
      for (let game = first; game <= last; game++)
        if (usable(game) && fitsAt(game)) {
          base = game;
          break outer;
        }
  }
  const nextFree = (): number | undefined => {
    for (const [first, last] of candidates) for (let port = first; port <= last; port++) if (usable(port)) return port;
    return undefined;
  };
  for (const name of missing) {
    const offset = name === 'game' ? 0 : offsets.get(name);
    const preferred = base === undefined || offset === undefined ? undefined : base + offset;
    const port = preferred !== undefined && usable(preferred) ? preferred : nextFree();
    if (port === undefined)
      throw new AppError(409, `No free port left on this machine for the ${name} port${ranges.length > 0 ? ` (its ranges: ${describeRanges(ranges)})` : ''}`);
    chosen.set(name, port);
    if (name === 'game') base ??= port;
  }
  return names.map((name) => ({ name, port: chosen.get(name)!, protocol: protocolOf(name) }));
}

const describeRanges = (ranges: readonly PortRange[]) => ranges.map((range) => `${range.firstPort}-${range.lastPort}`).join(', ');

/** Replaces the server's rows in server_ports with `allocations` (a port taken meanwhile is the primary key's 409). */
export async function claimPorts(tx: CommonQueryMethods, serverId: string, machineId: string, allocations: readonly Allocation[]): Promise<void> {
  await tx.query(sql.unsafe`DELETE FROM server_ports WHERE server_id = ${serverId}`);
  await tx.query(sql.unsafe`
    INSERT INTO server_ports (machine_id, server_id, port, name, protocol)
    SELECT ${machineId}, ${serverId}, * FROM unnest(${sql.array(
      allocations.map((allocation) => allocation.port),
      'int4',
    )}::int4[], ${sql.array(
      allocations.map((allocation) => allocation.name),
      'text',
    )}::text[], ${sql.array(
      allocations.map((allocation) => allocation.protocol),
      'text',
    )}::text[])`);
}

/** The named ports a server holds now. */
export async function serverAllocations(connection: CommonQueryMethods, serverId: string): Promise<Record<string, number>> {
  const rows = await connection.any(sql.type(z.object({ name: z.string(), port: z.number() }))`
    SELECT name, port FROM server_ports WHERE server_id = ${serverId}`);
  return Object.fromEntries(rows.map((row) => [row.name, row.port]));
}

// ---- a machine's addresses and ranges (api/routes/allocations.ts)

const RANGE_COLUMNS = sql.fragment`id, first_port AS "firstPort", last_port AS "lastPort", created_at AS "createdAt"`;

/** A machine's addresses, its ranges, and every port its servers hold (by port). */
export async function machineAllocationsOf(connection: CommonQueryMethods, machineId: string): Promise<z.output<typeof machineAllocations>> {
  const machine = await connection.one(sql.type(z.object({ addresses: z.array(z.string()), reportedAddresses: z.array(z.string()) }))`
    SELECT addresses, reported_addresses AS "reportedAddresses" FROM machines WHERE id = ${machineId}`);
  const ranges = await connection.any(sql.type(portRange)`
    SELECT ${RANGE_COLUMNS} FROM machine_port_ranges WHERE machine_id = ${machineId} ORDER BY first_port`);
  const allocations = await connection.any(sql.type(machineAllocation)`
    SELECT p.name, p.port, p.protocol, s.id AS "serverId", s.name AS "serverName"
      FROM server_ports p JOIN servers s ON s.id = p.server_id
     WHERE p.machine_id = ${machineId} ORDER BY p.port`);
  const held = allocations.filter((allocation) => inRanges(ranges, allocation.port)).length;
  const size = ranges.reduce((sum, range) => sum + range.lastPort - range.firstPort + 1, 0);
  return { ...machine, ranges: [...ranges], allocations: [...allocations], freePorts: size - held };
}

export async function setMachineAddresses(tx: CommonQueryMethods, origin: Origin, clusterId: string, machineId: string, addresses: string[]): Promise<void> {
  await tx.query(sql.unsafe`UPDATE machines SET addresses = ${sql.array(addresses, 'text')}, updated_at = now() WHERE id = ${machineId}`);
  await recordAudit(tx, origin, { clusterId, action: 'machine.addresses_update', target: { type: 'machine', id: machineId } });
}

/** Adds a range; one overlapping a range of the machine is a 409 naming it (checked under the machine's port lock). */
export async function addPortRange(tx: CommonQueryMethods, origin: Origin, clusterId: string, machineId: string, range: PortRange) {
  await lockMachinePorts(tx, machineId);
  const overlap = await tx.maybeOne(sql.type(z.object({ firstPort: z.number(), lastPort: z.number() }))`
    SELECT first_port AS "firstPort", last_port AS "lastPort" FROM machine_port_ranges
     WHERE machine_id = ${machineId} AND first_port <= ${range.lastPort} AND last_port >= ${range.firstPort} LIMIT 1`);
  if (overlap) throw new AppError(409, `The range ${range.firstPort}-${range.lastPort} overlaps this machine's range ${overlap.firstPort}-${overlap.lastPort}`);
  const added = await tx.one(sql.type(portRange)`
    INSERT INTO machine_port_ranges (machine_id, first_port, last_port) VALUES (${machineId}, ${range.firstPort}, ${range.lastPort})
    RETURNING ${RANGE_COLUMNS}`);
  await recordAudit(tx, origin, { clusterId, action: 'machine.port_range_create', target: { type: 'machine', id: machineId } });
  return added;
}

/** Removes a range (servers holding ports in it keep them); 404 when the machine has no such range. */
export async function removePortRange(tx: CommonQueryMethods, origin: Origin, clusterId: string, machineId: string, rangeId: string): Promise<void> {
  // Under the port lock: a pick running meanwhile never chooses from a range that is going away.
  await lockMachinePorts(tx, machineId);
  const removed = await tx.maybeOneFirst(sql.type(z.object({ id: z.string() }))`
    DELETE FROM machine_port_ranges WHERE id = ${rangeId} AND machine_id = ${machineId} RETURNING id`);
  if (!removed) throw notFound('No such port range on this machine');
  await recordAudit(tx, origin, { clusterId, action: 'machine.port_range_delete', target: { type: 'machine', id: machineId } });
}
