/**
 * Fleet upgrades of agents (docs/upgrades.md#upgrading-the-agents), routes of the machines resource: start a roll of a
 * cluster's machines to the service's own agent package, read it, list the latest, cancel it. The orchestrator drives
 * the roll (orchestrator/machines/upgradeRoll.ts).
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { agentUpgrade, agentUpgradeParams, startAgentUpgradeBody } from '../../schema/agentUpgrades.ts';
import { cancelAgentUpgrade, getAgentUpgrade, listAgentUpgrades, startAgentUpgrade } from '../../orchestrator/machines/agentUpgrades.ts';
import { originOf } from '../identity/origin.ts';
import { agentVersionRefusal, minimumAgentVersion } from '../../schema/agentVersions.ts';
import { conflict } from '../../schema/errors.ts';

export function installAgentUpgradeRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/machines/upgrade',
    summary: "Upgrade the cluster's agents",
    description:
      "Starts a roll that upgrades the agents of the cluster's machines to the service's own agent package (`GET /agent/package.tgz`), `batchSize` machines at a time. Each agent downloads the package, checks its SHA-256 and version, replaces itself and restarts; its game servers keep running and are adopted. The next batch starts only when every machine of this one is back ONLINE (a new connection) on the new version and its new agent has reported every server the machine was running as running in the same process (same pid and start time, adopted, not restarted). A machine that is not (within `timeoutSeconds`), whose agent refuses, whose server was restarted or lost, or whose agent came back on its old version after accepting (rolled back) or after the command was sent over three connections without an answer, stops the roll, and the roll's `reason` says which and why. One roll at a time per cluster (409). Answers the roll; follow it with `GET /api/v1/clusters/{clusterId}/machines/upgrades/{upgradeId}`.",
    tags: ['Machines'],
    auth: 'user',
    params: clusterIdParams,
    body: startAgentUpgradeBody,
    permission: { action: 'machines.manage', cluster: 'clusterId' },
    status: 202,
    responses: {
      202: { description: 'The roll, started', schema: agentUpgrade },
      409: {
        description: "A roll of the cluster is running, no machine has an older agent, or the service's own version policy would refuse the package's agent",
      },
    },
    handler: async (ctx, { params, body }) => {
      const pkg = await deps.agentPackage.get();
      // A roll must not install an agent this very service would then refuse (UNSUPPORTED_VERSION).
      const refusal = agentVersionRefusal(pkg.version, {
        serviceVersion: deps.version,
        minVersion: minimumAgentVersion(deps.version, config.MIN_AGENT_VERSION),
      });
      if (refusal) throw conflict(`The service's agent package would be refused by this service: ${refusal}; fix AGENT_PACKAGE_FILE or MIN_AGENT_VERSION`);
      // Agents fetch the package from the public address when there is one, else from the origin of their gateway.
      const url = config.PUBLIC_URL ? `${config.publicUrl}/agent/package.tgz` : null;
      return pool.transaction((tx) => startAgentUpgrade(tx, originOf(ctx), params.clusterId, body, { version: pkg.version, sha256: pkg.sha256, url }));
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/machines/upgrades',
    summary: "List the cluster's agent upgrades",
    description: 'The latest 20 rolls, the newest first.',
    tags: ['Machines'],
    auth: 'user',
    params: clusterIdParams,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Rolls', schema: z.object({ data: z.array(agentUpgrade) }) } },
    handler: async (_ctx, { params }) => ({ data: await listAgentUpgrades(pool, params.clusterId) }),
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/machines/upgrades/:upgradeId',
    summary: 'Get an agent upgrade',
    tags: ['Machines'],
    auth: 'user',
    params: agentUpgradeParams,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'The roll and each machine’s result', schema: agentUpgrade } },
    handler: (_ctx, { params }) => getAgentUpgrade(pool, params.clusterId, params.upgradeId),
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/machines/upgrades/:upgradeId/cancel',
    summary: 'Cancel an agent upgrade',
    description:
      'No further machine is upgraded. An agent already told to upgrade may still finish (its machine is marked CANCELLED, saying so). 409 when the roll has ended.',
    tags: ['Machines'],
    auth: 'user',
    params: agentUpgradeParams,
    permission: { action: 'machines.manage', cluster: 'clusterId' },
    responses: { 200: { description: 'The roll, cancelled', schema: agentUpgrade }, 409: { description: 'The roll has ended' } },
    handler: (ctx, { params }) => pool.transaction((tx) => cancelAgentUpgrade(tx, originOf(ctx), params.clusterId, params.upgradeId)),
  });
}
