/**
 * A machine's port allocations (docs/servers.md#ports-and-allocations): its addresses, its port ranges (1024..65535,
 * at most 10,000 ports each, never overlapping) and which server holds which port. OWNER and ADMIN change them
 * (`machines.manage`); every member reads them.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id } from '../../schema/http.ts';
import { machineAddressesBody, machineAllocations, portRange, portRangeBody } from '../../schema/servers.ts';
import { addPortRange, machineAllocationsOf, removePortRange, setMachineAddresses } from '../../orchestrator/servers/ports.ts';
import { originOf } from '../identity/origin.ts';

const machineParams = z.object({ id });
const rangeParams = z.object({ id, rangeId: id });
const success = z.object({ success: z.literal(true), message: z.string() });

export function installAllocationRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const byMachine = clusterOfParam(pool.reads, 'machines');

  api.route({
    method: 'get',
    path: '/api/v1/machines/:id/allocations',
    summary: "A machine's addresses, port ranges and the ports its servers hold",
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    permission: { action: 'cluster.read', cluster: byMachine },
    responses: { 200: { description: 'Its allocations', schema: machineAllocations } },
    handler: (_ctx, { params }) => machineAllocationsOf(pool, params.id),
  });

  api.route({
    method: 'put',
    path: '/api/v1/machines/:id/addresses',
    summary: "Set a machine's addresses",
    description: 'The addresses players reach the machine at, shown with its servers’ ports. Its agent reports its own beside them (`reportedAddresses`).',
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    body: machineAddressesBody,
    permission: { action: 'machines.manage', cluster: byMachine },
    responses: { 200: { description: 'Its allocations', schema: machineAllocations } },
    handler: async (ctx, { params, body }) => {
      await pool.transaction((tx) => setMachineAddresses(tx, originOf(ctx), ctx.state.clusterId as string, params.id, body.addresses));
      return machineAllocationsOf(pool, params.id);
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/machines/:id/port-ranges',
    summary: 'Add a port range to a machine',
    description:
      'Ports 1024..65535, at most 10,000 in a range; a range overlapping another of the machine is refused (409). Servers created without ports get free ones from the ranges, and explicit ports must then lie in them.',
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    body: portRangeBody,
    permission: { action: 'machines.manage', cluster: byMachine },
    status: 201,
    responses: { 201: { description: 'The range', schema: portRange }, 409: { description: 'It overlaps a range of the machine' } },
    handler: (ctx, { params, body }) => pool.transaction((tx) => addPortRange(tx, originOf(ctx), ctx.state.clusterId as string, params.id, body)),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/machines/:id/port-ranges/:rangeId',
    summary: 'Remove a port range from a machine',
    description: 'Servers holding ports in it keep them; no new port is picked from it.',
    tags: ['Machines'],
    auth: 'user',
    params: rangeParams,
    permission: { action: 'machines.manage', cluster: byMachine },
    responses: { 200: { description: 'Removed', schema: success } },
    handler: async (ctx, { params }) => {
      await pool.transaction((tx) => removePortRange(tx, originOf(ctx), ctx.state.clusterId as string, params.id, params.rangeId));
      return { success: true as const, message: 'Port range removed' };
    },
  });
}
