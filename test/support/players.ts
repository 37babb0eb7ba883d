/**
 * A cluster with one machine and some RUST servers, made through the API by a new user (players tests).
 */
import { body, json, type TestApp } from './app.ts';
import { createCluster, signUp } from './identity.ts';

let nextPort = 20_000;

export async function clusterWithServers(app: TestApp, servers: number, options: { names?: (index: number) => string; maxPlayers?: number } = {}) {
  const user = await signUp(app);
  const clusterId = await createCluster(app, user);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: user.auth })));
  const serverIds: string[] = [];
  for (let index = 0; index < servers; index++) {
    const ports = { gamePort: nextPort++, queryPort: nextPort++, rconPort: nextPort++ };
    const name = options.names?.(index) ?? `s${index + 1}`;
    const created = await body(
      await app.request(
        `/api/v1/clusters/${clusterId}/servers`,
        json(
          { name, gameType: 'RUST', machineId: machine.id, autoInstall: false, ...ports, ...(options.maxPlayers ? { maxPlayers: options.maxPlayers } : {}) },
          { headers: user.auth },
        ),
      ),
    );
    serverIds.push(created.id);
  }
  return { user, clusterId, serverIds, machineId: machine.id as string, agentToken: machine.agentToken as string };
}
