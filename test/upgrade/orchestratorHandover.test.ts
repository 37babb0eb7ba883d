/**
 * Handing agents over: two `--role=orchestrator` processes behind a balancing TCP proxy (test/support/balancer.ts),
 * a real agent connected to the first. The first gets SIGTERM right after a START job was accepted: it exits 0, its
 * agent reconnects through the proxy to the other orchestrator after its back-off, the job ends SUCCEEDED and ran once
 * (one game server holds the ports), and the machine is ONLINE again.
 */
import test from 'ava';
import { sql } from 'slonik';
import { until } from '../support/wait.ts';
import { body, useTestApp } from '../support/app.ts';
import { signUp } from '../support/identity.ts';
import { freePorts } from '../support/agentProcess.ts';
import { createWorld } from '../support/world.ts';
import { startBalancer } from '../support/balancer.ts';
import { orchestratorReady, startOrchestratorProcess } from '../support/orchestratorProcess.ts';

const app = useTestApp(test);

test('SIGTERM to the orchestrator holding an agent: the agent moves to the other one, the job in flight ends once', async (t) => {
  const ports = await freePorts(2);
  const startOrchestrator = (port: number) => startOrchestratorProcess(t, app().database.url, port);
  const ready = orchestratorReady;
  const balancer = await startBalancer(ports.map((port) => ({ host: '127.0.0.1', port })));
  t.teardown(() => balancer.close());

  // Only the first runs when the agent connects, so the agent is surely on it; then the second starts.
  const first = startOrchestrator(ports[0]!);
  await ready(ports[0]!);
  const owner = await signUp(app());
  const { machineId, serverId, rconPort, agent } = await createWorld(app(), owner, { gatewayUrl: `http://127.0.0.1:${balancer.port}` });
  t.teardown(() => void agent!.stop());
  const machineStatus = async () => String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`));
  await until(async () => (await machineStatus()) === 'ONLINE', 'machine ONLINE');
  const second = startOrchestrator(ports[1]!);
  await ready(ports[1]!);

  const job = await body(await app().request(`/api/v1/servers/${serverId}/start`, { method: 'POST', headers: owner.auth }));
  const stoppedAt = Date.now();
  first.child.kill('SIGTERM');
  t.is(await first.exited, 0, 'the stopped orchestrator exits 0');

  const ended = await body(await app().request(`/api/v1/jobs/${job.id}?wait=45`, { headers: owner.auth }));
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended));
  await until(async () => (await machineStatus()) === 'ONLINE', 'machine ONLINE again, on the other orchestrator');
  const backAfter = Date.now() - stoppedAt;
  t.is(String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`)), 'ONLINE');
  // Run once: one game server holds the RCON port and answers.
  const { SourceRconClient } = await import('../../agent/rcon/sourceRcon.ts');
  const client = new SourceRconClient({ host: '127.0.0.1', port: rconPort, password: 'fake-password' });
  t.is(await client.command('echo once'), 'once');
  await client.close();
  // The agent is served by the second orchestrator now: a STOP goes through it.
  const stop = await body(await app().request(`/api/v1/servers/${serverId}/stop`, { method: 'POST', headers: owner.auth }));
  t.is((await body(await app().request(`/api/v1/jobs/${stop.id}?wait=45`, { headers: owner.auth }))).status, 'SUCCEEDED');
  t.true(balancer.counts.connected[1]! > 0, 'the other orchestrator took connections');
  t.log(`machine ONLINE again ${backAfter} ms after SIGTERM; the balancer retried ${balancer.counts.refused} refused connections`);
  await agent!.stop();
  second.child.kill('SIGTERM');
  t.is(await second.exited, 0);
});
