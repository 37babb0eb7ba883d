/**
 * The reconnect grace (AGENT_RECONNECT_GRACE_SECONDS): a disconnected agent's machine is OFFLINE at once, but its
 * servers keep their status for the grace (an agent restart or upgrade leaves the game servers running); an agent
 * back within it changes nothing, one that stays away leaves its servers UNKNOWN.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { registerMachine } from '../support/agentProcess.ts';
import { socketIoAgent, startGatewayApp, type GatewayApp } from '../support/gateway.ts';

let app: GatewayApp;
let owner: TestUser;
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, reconnectGraceSeconds: 2 });
  owner = await signUp(app);
});
test.after.always(() => app?.close());

async function onlineServer() {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 'EU', gameType: 'RUST', machineId, gamePort: 28015, queryPort: 28016, rconPort: 28017 }, { headers: owner.auth }),
    ),
  );
  const connect = async () => {
    const agent = await socketIoAgent(app);
    agent.send('auth', { token, machineId, version: '0.1.0' });
    await agent.next('authenticated');
    agent.send('server:status', { serverId: server.id, status: 'ONLINE', at: new Date().toISOString() });
    return agent;
  };
  const agent = await connect();
  const status = async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${server.id}`));
  const machineStatus = async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`));
  await until(async () => (await status()) === 'ONLINE', 'ONLINE');
  return { agent, connect, status, machineStatus };
}

test('an agent back within the grace: the machine was OFFLINE meanwhile, its server never left ONLINE', async (t) => {
  const { agent, connect, status, machineStatus } = await onlineServer();
  agent.close();
  await until(async () => (await machineStatus()) === 'OFFLINE', 'machine OFFLINE at once', 1_500);
  t.is(await status(), 'ONLINE');
  const again = await connect();
  await until(async () => (await machineStatus()) === 'ONLINE', 'machine ONLINE');
  await new Promise((resolve) => setTimeout(resolve, 3_000)); // past the grace
  t.is(await status(), 'ONLINE');
  again.close();
});

test('an agent that stays away: its servers are UNKNOWN once the grace is over, saying why', async (t) => {
  const { agent, status } = await onlineServer();
  const closedAt = Date.now();
  agent.close();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.is(await status(), 'ONLINE', 'within the grace');
  await until(async () => (await status()) === 'UNKNOWN', 'UNKNOWN after the grace', 6_000);
  t.true(Date.now() - closedAt >= 2_000);
  t.is(
    String(await app.pool.oneFirst(sql.unsafe`SELECT status_reason FROM servers WHERE status = 'UNKNOWN' ORDER BY updated_at DESC LIMIT 1`)),
    "the machine's agent is not connected",
  );
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM machines WHERE servers_unknown_at IS NOT NULL`)), '0');
});
