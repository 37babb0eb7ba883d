/**
 * The world the end-to-end job tests play in, set up one way: a new cluster of the owner's with one machine, a fake game
 * server (CUSTOM, the fake game of fakeGame.ts with Source RCON) on it, the real agent process of that machine
 * connected to a gateway, and the server started through the API when asked.
 */
import { body, type TestApp } from './app.ts';
import type { TestUser } from './identity.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from './agentProcess.ts';

export type FakeServer = { id: string; rconPort: number };

export type World = {
  clusterId: string;
  machineId: string;
  /** The first fake server. */
  serverId: string;
  rconPort: number;
  /** The connected agent (none with `agent: false` until `connect`). */
  agent: AgentProcess | undefined;
  /** Starts the machine's agent (again), on `dataDir` to keep its state across runs. */
  connect: (dataDir?: string) => Promise<AgentProcess>;
  /** Another fake server on the machine (`fields` override the request's), started by default. */
  addServer: (fields?: Record<string, unknown>, options?: { start?: boolean }) => Promise<FakeServer>;
  /** `POST /servers/:id/start?wait=30`, throwing unless the job succeeded. */
  start: (serverId: string) => Promise<void>;
};

export async function createWorld(
  app: TestApp,
  owner: TestUser,
  options: {
    /** Where the agent connects: the app's own URL by default (an app with a gateway). */
    gatewayUrl?: string;
    /** Whether the agent is started at once (default true). */
    agent?: boolean;
    /** Whether the first server is started through the API once the agent is there (default false). */
    start?: boolean;
    /** Fields of the first server's create request beyond the defaults (`env`, `name`, …). */
    server?: Record<string, unknown>;
    /** Every agent started is pushed here, for the test file to stop them all at the end. */
    agents?: AgentProcess[];
  } = {},
): Promise<World> {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, clusterId, machineId, options.server);

  const connect = async (dataDir?: string) => {
    const agent = await startAgent({ url: options.gatewayUrl ?? app.url, machineId, token, dataDir });
    options.agents?.push(agent);
    return agent;
  };
  const start = async (serverId: string) => {
    const started = await body(await app.request(`/api/v1/servers/${serverId}/start?wait=30`, { method: 'POST', headers: owner.auth }));
    if (started.status !== 'SUCCEEDED') throw new Error(`start failed: ${JSON.stringify(started)}`);
  };
  const addServer = async (fields: Record<string, unknown> = {}, addOptions: { start?: boolean } = {}) => {
    const added = await createFakeServer(app, owner, clusterId, machineId, fields);
    if (addOptions.start ?? true) await start(added.id);
    return added;
  };

  const agent = (options.agent ?? true) ? await connect() : undefined;
  if (agent && options.start) await start(server.id);
  return { clusterId, machineId, serverId: server.id, rconPort: server.rconPort, agent, connect, addServer, start };
}
