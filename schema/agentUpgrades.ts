/**
 * Fleet upgrades of agents (docs/upgrades.md#upgrading-the-agents): a roll replaces the agents of a cluster's machines
 * with the service's own agent package, `batchSize` machines at a time; each must be back ONLINE on the new version with
 * the servers it was running still RUNNING (adopted, not restarted) before the next batch starts. A machine that fails
 * stops the roll, and the roll's `reason` says which and why.
 */
import { z } from 'zod';
import { id, timestamp } from './http.ts';

export const AGENT_UPGRADE_STATES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export const AGENT_UPGRADE_MACHINE_STATES = ['PENDING', 'UPGRADING', 'SUCCEEDED', 'FAILED', 'SKIPPED', 'CANCELLED'] as const;

/** How long a machine has, by default, to come back upgraded with its servers RUNNING. */
export const DEFAULT_UPGRADE_TIMEOUT_SECONDS = 300;

export const startAgentUpgradeBody = z
  .object({
    machineIds: z
      .array(id)
      .min(1, 'machineIds must name at least one machine (omit it for every machine with an older agent)')
      .max(1000)
      .refine((ids) => new Set(ids).size === ids.length, 'machineIds must not repeat a machine')
      .optional()
      .meta({
        description:
          "The machines to upgrade, in this order. Default: every ONLINE machine of the cluster whose agent is older than the service's package, by name.",
      }),
    batchSize: z
      .int({ message: 'batchSize must be a whole number between 1 and 100' })
      .min(1, 'batchSize must be a whole number between 1 and 100')
      .max(100, 'batchSize must be a whole number between 1 and 100')
      .meta({ description: 'Machines upgraded at once; the next batch starts when every machine of this one is back.', example: 1 }),
    timeoutSeconds: z
      .int({ message: 'timeoutSeconds must be a whole number between 10 and 3600' })
      .min(10, 'timeoutSeconds must be a whole number between 10 and 3600')
      .max(3600, 'timeoutSeconds must be a whole number between 10 and 3600')
      .default(DEFAULT_UPGRADE_TIMEOUT_SECONDS)
      .meta({
        description: `How long each machine has to come back ONLINE on the new version with its servers RUNNING (default ${DEFAULT_UPGRADE_TIMEOUT_SECONDS}).`,
      }),
  })
  .strict();

export const agentUpgradeMachine = z.object({
  machineId: z.string(),
  name: z.string(),
  state: z.enum(AGENT_UPGRADE_MACHINE_STATES),
  fromVersion: z.string().nullable().meta({ description: 'The agent version it ran when its upgrade started.' }),
  toVersion: z.string().nullable().meta({ description: 'The agent version it came back with.' }),
  servers: z.int().meta({ description: 'Servers that were RUNNING when its upgrade started (each must be RUNNING again).' }),
  reason: z.string().nullable().meta({ description: 'Why it failed, was skipped or cancelled.' }),
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
});

export const agentUpgrade = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    state: z.enum(AGENT_UPGRADE_STATES),
    version: z.string().meta({ description: "The agent version the machines are upgraded to (the service's package)." }),
    packageSha256: z.string().meta({ description: 'The SHA-256 of the package each agent downloads and checks.' }),
    batchSize: z.int(),
    timeoutSeconds: z.int(),
    reason: z.string().nullable().meta({ description: 'Why the roll failed or was cancelled.' }),
    createdBy: z.string().nullable(),
    machines: z.array(agentUpgradeMachine),
    createdAt: timestamp,
    updatedAt: timestamp,
    finishedAt: timestamp.nullable(),
  })
  .meta({ id: 'AgentUpgrade' });
export type AgentUpgrade = z.infer<typeof agentUpgrade>;

export const agentUpgradeParams = z.object({ clusterId: id, upgradeId: id });
