/**
 * Per-server accounts in tests (CI runs as root): a test prefix of its own for the agent's accounts (`GSM_USER`), and
 * their removal afterwards; and an agent with one fake server whose files it serves.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './app.ts';
import type { TestUser } from './identity.ts';
import { createFakeServer, startAgent, type AgentProcess } from './agentProcess.ts';
import { until } from './wait.ts';

export const isRoot = process.getuid?.() === 0;

/** A fresh prefix for the accounts an agent makes (`gsmt` and 4 hex digits: a user name the system accepts). */
export const accountPrefix = (): string => `gsmt${randomBytes(2).toString('hex')}`;

/** Ends the processes of, and removes, the accounts and groups made under `prefixes` (nothing unless root). */
export function removeTestAccounts(...prefixes: string[]): void {
  if (!isRoot) return;
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const name = line.split(':')[0]!;
    if (!prefixes.some((prefix) => name === prefix || name.startsWith(`${prefix}-`))) continue;
    spawnSync('pkill', ['-KILL', '-u', name]);
    spawnSync('userdel', [name]);
  }
  for (const prefix of prefixes) spawnSync('groupdel', [prefix]);
}

/**
 * The real agent of a registered machine, with per-server accounts under `prefix` when root, and one fake server on it,
 * once the agent serves that server's files.
 */
export async function startFilesAgent(
  app: TestApp,
  owner: TestUser,
  machine: { clusterId: string; machineId: string; token: string },
  options: { prefix?: string; env?: Record<string, string> } = {},
): Promise<{ agent: AgentProcess; serverId: string; serverDir: string }> {
  const env = { ...(options.prefix ? { GSM_USER: options.prefix } : {}), ...options.env };
  const agent = await startAgent({ url: app.url, machineId: machine.machineId, token: machine.token, accounts: isRoot && !!options.prefix, env });
  const serverId = (await createFakeServer(app, owner, machine.clusterId, machine.machineId)).id as string;
  await until(async () => (await app.request(`/api/v1/servers/${serverId}/files`, { headers: owner.auth })).status === 200, 'the agent serves files', 20_000);
  return { agent, serverId, serverDir: join(agent.dataDir, 'servers', serverId) };
}
