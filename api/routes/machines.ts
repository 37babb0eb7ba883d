/**
 * Machines: hosts that run the agent. Registering one answers its agent token once, with where the gateway is and the
 * install line, which carries a single-use registration code instead of the token (orchestrator/machines/installCodes.ts);
 * status, version, hardware facts and metrics come from the agent.
 */
import type { Context } from 'koa';
import type { DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import {
  agentTokenRotated,
  createMachineBody,
  deleteMachineQuery,
  installCodeExchangeBody,
  installCodeExchanged,
  machine,
  machineInstallCode,
  machineListQuery,
  machineRegistered,
} from '../../schema/servers.ts';
import { generateSecret } from '../../schema/secretTokens.ts';
import {
  clusterMachinePage,
  createMachine,
  deleteMachine,
  exchangeInstallCode,
  getMachine,
  newInstallCode,
  rotateAgentToken,
} from '../../orchestrator/machines/store.ts';
import { lockMachine } from '../../orchestrator/machines/installCodes.ts';
import { originOf } from '../identity/origin.ts';
import { installCommand, installHashes } from '../agentPackage.ts';
import { upgradeAvailable } from '../../schema/agentVersions.ts';

/** Where agents connect (docs/agent-protocol.md; also served at /agent/ws and /ws/agent). */
export const GATEWAY_PATH = '/ws';

const machineParams = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });

/** A new install line for `machineId` yielding `agentToken`, audited (the code it carries is never stored). */
async function newInstallLine(
  tx: DatabaseTransactionConnection,
  ctx: Context,
  deps: AppDeps,
  clusterId: string,
  machineId: string,
  agentToken: string,
  publicUrl: string,
) {
  const { code, expiresAt } = await newInstallCode(tx, originOf(ctx), clusterId, machineId, agentToken);
  const hashes = await installHashes(deps.agentPackage);
  return { command: installCommand(publicUrl, code, hashes), upgradeCommand: installCommand(publicUrl, null, hashes), expiresAt };
}

export function installMachineRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  /** The machine as answered: whether the service's agent package is newer than its agent. */
  const withUpgrade = async <M extends { agentVersion: string | null }>(machines: M[]) => {
    // A package that cannot be read (AGENT_PACKAGE_FILE replaced by something broken) offers no upgrade; it fails nothing else.
    const latest = await deps.agentPackage.version().catch((error: unknown) => {
      deps.logger.error({ err: error }, "the service's agent package cannot be read; no machine is offered an agent upgrade");
      return null;
    });
    return machines.map((each) => ({ ...each, upgradeAvailable: latest !== null && upgradeAvailable(each.agentVersion, latest) }));
  };
  const answerMachine = async <M extends { agentVersion: string | null }>(found: M) => (await withUpgrade([found]))[0]!;
  const connect = () => ({ url: config.publicUrl, path: GATEWAY_PATH });
  const byMachine = clusterOfParam(pool.reads, 'machines');

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/machines',
    summary: 'List machines',
    tags: ['Machines'],
    auth: 'user',
    params: clusterIdParams,
    query: machineListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Machines', schema: listOf(machine) } },
    handler: async (_ctx, { params, query }) => {
      const page = await clusterMachinePage(pool, params.clusterId, query);
      return { ...page, data: await withUpgrade(page.data) };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/machines',
    summary: 'Register a machine',
    description:
      'Answers the machine with its agent token (`gsm_agent_…`, shown only here), where the agent connects, and the install line, which carries a single-use registration code (one hour) for that token instead of the token itself.',
    tags: ['Machines'],
    auth: 'user',
    params: clusterIdParams,
    body: createMachineBody,
    permission: { action: 'machines.manage', cluster: 'clusterId' },
    status: 201,
    responses: { 201: { description: 'The machine, its agent token and connection hints', schema: machineRegistered } },
    handler: (ctx, { params, body }) => {
      const agentToken = generateSecret('agent');
      return pool.transaction(async (tx) => {
        const machineId = await createMachine(tx, originOf(ctx), params.clusterId, body.name, agentToken);
        return {
          ...(await answerMachine(await getMachine(tx, machineId))),
          agentToken,
          connect: connect(),
          install: await newInstallLine(tx, ctx, deps, params.clusterId, machineId, agentToken, config.publicUrl),
        };
      });
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/machines/:id',
    summary: 'Get a machine',
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    permission: { action: 'cluster.read', cluster: byMachine },
    responses: { 200: { description: 'The machine', schema: machine } },
    handler: async (_ctx, { params }) => answerMachine(await getMachine(pool, params.id)),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/machines/:id',
    summary: 'Remove a machine',
    description: 'Refused (409) while it hosts servers, unless `?force=true`, which removes its servers too.',
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    query: deleteMachineQuery,
    permission: { action: 'machines.manage', cluster: byMachine },
    responses: { 200: { description: 'Removed', schema: success }, 409: { description: 'The machine still hosts servers' } },
    handler: async (ctx, { params, query }) => {
      await pool.transaction((tx) => deleteMachine(tx, originOf(ctx), ctx.state.clusterId as string, params.id, query.force ?? false));
      return { success: true, message: 'Machine removed' };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/machines/:id/token',
    summary: "Rotate a machine's agent token",
    description:
      'The old token stops working at once, and the connection it opened is closed. Answers the new token and an install line whose single-use code yields it; earlier codes stop working.',
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    permission: { action: 'machines.manage', cluster: byMachine },
    responses: { 200: { description: 'The new agent token', schema: agentTokenRotated } },
    handler: (ctx, { params }) => {
      const agentToken = generateSecret('agent');
      return pool.transaction(async (tx) => {
        await rotateAgentToken(tx, originOf(ctx), ctx.state.clusterId as string, params.id, agentToken);
        const install = await newInstallLine(tx, ctx, deps, ctx.state.clusterId as string, params.id, agentToken, config.publicUrl);
        return { agentToken, connect: connect(), install };
      });
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/machines/:id/install-code',
    summary: 'Make a new install line for a machine',
    description:
      "Answers a new install line with a single-use registration code (one hour); earlier unused codes of the machine stop working. The code yields a new agent token: the machine's current token keeps working until an agent first connects with the new one, and then stops.",
    tags: ['Machines'],
    auth: 'user',
    params: machineParams,
    permission: { action: 'machines.manage', cluster: byMachine },
    status: 201,
    responses: { 201: { description: 'The install line', schema: machineInstallCode } },
    handler: (ctx, { params }) =>
      pool.transaction(async (tx) => {
        await lockMachine(tx, params.id);
        const install = await newInstallLine(tx, ctx, deps, ctx.state.clusterId as string, params.id, generateSecret('agent'), config.publicUrl);
        return { connect: connect(), install };
      }),
  });

  api.route({
    method: 'post',
    path: '/agent/register',
    summary: 'Exchange a registration code for the agent token',
    description:
      "What the install script does with the code of an install line: answers the machine's id and agent token, once. A used, replaced or expired code is refused (410) and an unknown one is 404, each with a message saying what to do. No authentication (the code is the credential); limited per address like sign-in.",
    tags: ['Agent'],
    auth: 'signin',
    body: installCodeExchangeBody,
    responses: {
      200: { description: 'The machine and its agent token', schema: installCodeExchanged },
      404: { description: 'Unknown code' },
      410: { description: 'The code was used, replaced or has expired' },
    },
    handler: (ctx, { body }) =>
      pool.transaction(async (tx) => {
        const { machineId, agentToken } = await exchangeInstallCode(tx, originOf(ctx), body.code);
        return { machineId, agentToken, connect: connect() };
      }),
  });
}
