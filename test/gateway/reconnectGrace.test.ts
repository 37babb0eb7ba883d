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

/** Longer than the silence of three 1 s heartbeats, so a silent machine's grace outlasts its sweep. */
const GRACE = 6;
let app: GatewayApp;
let owner: TestUser;
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, reconnectGraceSeconds: GRACE });
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
  return { agent, connect, status, machineStatus, machineId, serverId: server.id as string };
}

test('an agent back within the grace: the machine was OFFLINE meanwhile, its server never left ONLINE', async (t) => {
  const { agent, connect, status, machineStatus } = await onlineServer();
  agent.close();
  await until(async () => (await machineStatus()) === 'OFFLINE', 'machine OFFLINE at once', 1_500);
  t.is(await status(), 'ONLINE');
  const again = await connect();
  await until(async () => (await machineStatus()) === 'ONLINE', 'machine ONLINE');
  await new Promise((resolve) => setTimeout(resolve, GRACE * 1000 + 1_000)); // past the grace
  t.is(await status(), 'ONLINE');
  again.close();
});

test('an agent that stays away: its servers are UNKNOWN once the grace is over, saying why', async (t) => {
  const { agent, status, machineId, serverId } = await onlineServer();
  const closedAt = Date.now();
  agent.close();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.is(await status(), 'ONLINE', 'within the grace');
  await until(async () => (await status()) === 'UNKNOWN', 'UNKNOWN after the grace', GRACE * 1000 + 5_000);
  t.true(Date.now() - closedAt >= GRACE * 1000);
  t.is(String(await app.pool.oneFirst(sql.unsafe`SELECT status_reason FROM servers WHERE id = ${serverId}`)), "the machine's agent is not connected");
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT servers_unknown_at FROM machines WHERE id = ${machineId}`), null);
});

test('a machine swept OFFLINE for its silence keeps its servers for the grace from its last sign of life, then UNKNOWN', async (t) => {
  // As while its orchestrator is replaced (or died): ONLINE in the database, nobody connected, nobody marking it.
  const silent = await onlineServer();
  const long = await onlineServer();
  silent.agent.close();
  long.agent.close();
  await until(async () => (await silent.machineStatus()) === 'OFFLINE' && (await long.machineStatus()) === 'OFFLINE', 'both disconnected');
  // Seen 3.1 s ago (past the silence of three beats, within the grace) and 60 s ago (past both).
  const leftOnline = (seconds: number, machine: typeof silent) =>
    app.pool.transaction(async (tx) => {
      await tx.query(sql.unsafe`UPDATE servers SET status = 'ONLINE' WHERE id = ${machine.serverId}`);
      await tx.query(sql.unsafe`
        UPDATE machines SET status = 'ONLINE', servers_unknown_at = NULL, last_seen_at = now() - make_interval(secs => ${seconds})
         WHERE id = ${machine.machineId}`);
    });
  await leftOnline(3.1, silent);
  await leftOnline(60, long);
  await until(async () => (await silent.machineStatus()) === 'OFFLINE', 'swept OFFLINE', 3_000);
  // One snapshot: the sweep set the machine's grace from its last sign of life, and left its server as it was.
  const swept = await app.pool.one(sql.unsafe`
    SELECT s.status, extract(epoch FROM m.servers_unknown_at - m.last_seen_at)::float8 AS grace
      FROM machines m JOIN servers s ON s.machine_id = m.id WHERE m.id = ${silent.machineId}`);
  t.deepEqual(swept, { status: 'ONLINE', grace: GRACE });
  await until(async () => (await long.machineStatus()) === 'OFFLINE', 'swept OFFLINE', 3_000);
  t.is(await long.status(), 'UNKNOWN', 'its grace was over when it was swept: at once');
  await until(async () => (await silent.status()) === 'UNKNOWN', 'UNKNOWN once the grace is over', 10_000);
  t.is(
    String(
      await app.pool.oneFirst(
        sql.unsafe`SELECT count(*) FROM machines WHERE servers_unknown_at IS NOT NULL AND id = ANY(${sql.array([silent.machineId, long.machineId], 'uuid')})`,
      ),
    ),
    '0',
  );
});
