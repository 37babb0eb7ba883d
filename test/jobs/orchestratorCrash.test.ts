/**
 * The orchestrator as its own process (`node main.ts --role=orchestrator`) beside the API, killed with SIGKILL right
 * after a job is accepted and started again: the job is neither lost nor run twice.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { sql } from 'slonik';
import { until } from '../support/wait.ts';
import { body, useTestApp } from '../support/app.ts';
import { signUp } from '../support/identity.ts';
import { freePorts } from '../support/agentProcess.ts';
import { createWorld } from '../support/world.ts';

const app = useTestApp(test);

test('an orchestrator killed mid-dispatch and restarted: the job ends once', async (t) => {
  const [port] = await freePorts(1);
  const startOrchestrator = () => {
    const child = spawn(process.execPath, ['main.ts', '--role=orchestrator'], {
      env: { ...process.env, DATABASE_URL: app().database.url, PORT: String(port), AGENT_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
  };
  let orchestrator = startOrchestrator();
  t.teardown(() => void orchestrator.child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 'orchestrator ready', 60_000);

  const owner = await signUp(app());
  const { machineId, serverId, rconPort, agent } = await createWorld(app(), owner, { gatewayUrl: url });
  t.teardown(() => void agent!.stop());
  await until(async () => String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`)) === 'ONLINE', 'machine ONLINE');

  const job = await body(await app().request(`/api/v1/servers/${serverId}/start`, { method: 'POST', headers: owner.auth }));
  orchestrator.child.kill('SIGKILL');
  await orchestrator.exited;
  orchestrator = startOrchestrator();

  const ended = await body(await app().request(`/api/v1/jobs/${job.id}?wait=45`, { headers: owner.auth }));
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended));
  t.is(String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`)), 'ONLINE');
  // Run once: one game server holds the RCON port and answers.
  const { SourceRconClient } = await import('../../agent/rcon/sourceRcon.ts');
  const client = new SourceRconClient({ host: '127.0.0.1', port: rconPort, password: 'fake-password' });
  t.is(await client.command('echo once'), 'once');
  await client.close();
  await agent!.stop();
});
