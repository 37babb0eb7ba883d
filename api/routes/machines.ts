/**
 * Machines: hosts that run the agent. Registering one answers its agent token once, with where the gateway is and the
 * install line, which carries a single-use registration code instead of the token (api/agentInstallCodes.ts);
 * status, version, hardware facts and metrics come from the agent.
 */
import type { Context } from 'koa';
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { conflict } from '../../schema/errors.ts';
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
import { recordAudit } from '../../orchestrator/audit.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { originOf } from '../identity/origin.ts';
import { installCommand, installHashes } from '../agentPackage.ts';
import { issueInstallCode, lockMachine, redeemInstallCode } from '../agentInstallCodes.ts';

/** Where agents connect (docs/agent-protocol.md; also served at /agent/ws and /ws/agent). */
export const GATEWAY_PATH = '/ws';

const MACHINE_COLUMNS = sql.fragment`
  m.id, m.cluster_id AS "clusterId", m.name, m.status, m.hostname, m.os, m.agent_version AS "agentVersion",
  m.cpu_count AS "cpuCount", m.memory_bytes AS "memoryBytes", m.metrics, m.last_seen_at AS "lastSeenAt",
  CASE WHEN m.sftp_port IS NULL THEN NULL ELSE json_build_object('port', m.sftp_port, 'hostKeyFingerprint', m.sftp_host_key_fingerprint) END AS sftp,
  m.created_at AS "createdAt", m.updated_at AS "updatedAt"`;
const SORT = { name: sql.fragment`lower(m.name)`, createdAt: sql.fragment`m.created_at`, lastSeenAt: sql.fragment`m.last_seen_at` };

const machineParams = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });

/** A new install line for `machineId` yielding `agentToken`, audited (the code it carries is never stored). */
async function newInstallLine(tx: DatabaseTransactionConnection, ctx: Context, clusterId: string, machineId: string, agentToken: string, publicUrl: string) {
  const { code, expiresAt } = await issueInstallCode(tx, machineId, agentToken);
  await recordAudit(tx, originOf(ctx), { clusterId, action: 'machine.install_code_create', target: { type: 'machine', id: machineId } });
  const hashes = await installHashes();
  return { command: installCommand(publicUrl, code, hashes), upgradeCommand: installCommand(publicUrl, null, hashes), expiresAt };
}

const getMachine = (connection: CommonQueryMethods, machineId: string) =>
  connection.one(sql.type(machine)`SELECT ${MACHINE_COLUMNS} FROM machines m WHERE m.id = ${machineId}`);

export function installMachineRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  const connect = () => ({ url: config.publicUrl, path: GATEWAY_PATH });
  const byMachine = clusterOfParam(pool, 'machines');

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
    handler: (_ctx, { params, query }) =>
      fetchPage(pool, {
        schema: machine,
        columns: MACHINE_COLUMNS,
        from: sql.fragment`machines m WHERE m.cluster_id = ${params.clusterId} ${query.status ? sql.fragment`AND m.status = ${query.status}` : sql.fragment``}`,
        order: orderBy(query.sort, SORT, sql.fragment`m.id`),
        page: query,
      }),
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
        const machineId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO machines (cluster_id, name, agent_token_hash) VALUES (${params.clusterId}, ${body.name}, ${sql.binary(hashSecret(agentToken))})
          RETURNING id`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'machine.create', target: { type: 'machine', id: machineId } });
        return {
          ...(await getMachine(tx, machineId)),
          agentToken,
          connect: connect(),
          install: await newInstallLine(tx, ctx, params.clusterId, machineId, agentToken, config.publicUrl),
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
    handler: (_ctx, { params }) => getMachine(pool, params.id),
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
      await pool.transaction(async (tx) => {
        // Lock, then count: a server create holds the machine FOR SHARE until it commits, so this waits for it and
        // counts its server; a create that comes later waits for this delete and finds no machine. Counting first
        // would let a server committed in between be cascaded away unseen.
        await tx.query(sql.unsafe`SELECT 1 FROM machines WHERE id = ${params.id} FOR UPDATE`);
        const hosted = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM servers WHERE machine_id = ${params.id} ORDER BY id`);
        if (hosted.length > 0 && !query.force) throw conflict(`The machine hosts ${hosted.length} server(s); remove them first or use ?force=true`);
        // Each server removed with the machine gets its own entry, as a server deleted on its own would.
        for (const serverId of hosted) {
          await recordAudit(tx, originOf(ctx), { clusterId: ctx.state.clusterId as string, action: 'server.delete', target: { type: 'server', id: serverId } });
        }
        await tx.query(sql.unsafe`DELETE FROM machines WHERE id = ${params.id}`);
        await notifyAgent(tx, { type: 'machine_removed', machineId: params.id });
        await recordAudit(tx, originOf(ctx), {
          clusterId: ctx.state.clusterId as string,
          action: 'machine.delete',
          target: { type: 'machine', id: params.id },
        });
      });
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
        await lockMachine(tx, params.id);
        // A token still pending from an install-code exchange goes too: only the new one works from now on.
        await tx.query(sql.unsafe`
          UPDATE machines SET agent_token_hash = ${sql.binary(hashSecret(agentToken))}, pending_token_hash = NULL, updated_at = now() WHERE id = ${params.id}`);
        await notifyAgent(tx, { type: 'token_rotated', machineId: params.id });
        await recordAudit(tx, originOf(ctx), {
          clusterId: ctx.state.clusterId as string,
          action: 'machine.rotate_token',
          target: { type: 'machine', id: params.id },
        });
        const install = await newInstallLine(tx, ctx, ctx.state.clusterId as string, params.id, agentToken, config.publicUrl);
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
        const install = await newInstallLine(tx, ctx, ctx.state.clusterId as string, params.id, generateSecret('agent'), config.publicUrl);
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
        const origin = originOf(ctx);
        // The machine first, then the code, as a rotation or a new line does: the same lock order cannot deadlock.
        const owner = await tx.maybeOneFirst(sql.type(z.object({ machineId: z.string() }))`
          SELECT machine_id AS "machineId" FROM agent_install_codes WHERE code_hash = ${sql.binary(hashSecret(body.code))}`);
        if (owner) await lockMachine(tx, owner);
        const { machineId, clusterId, agentToken } = await redeemInstallCode(tx, body.code, origin.ip);
        // A code from an install-code request carries a new token. It is pending until it first authenticates at the
        // gateway (orchestrator/gateway/machineStore.ts), which then drops the old one: should this answer be lost or
        // the install fail, the agent running with the old token stays connected. A registration's or rotation's code
        // yields the current token and changes nothing.
        const tokenHash = sql.binary(hashSecret(agentToken));
        await tx.query(sql.unsafe`
          UPDATE machines SET pending_token_hash = ${tokenHash}, updated_at = now() WHERE id = ${machineId} AND agent_token_hash <> ${tokenHash}`);
        await recordAudit(tx, origin, { clusterId, action: 'machine.install_code_use', target: { type: 'machine', id: machineId } });
        return { machineId, agentToken, connect: connect() };
      }),
  });
}
