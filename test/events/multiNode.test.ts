/**
 * Live events across nodes, as an installation runs them: two API processes and an orchestrator process (`node
 * main.ts --role=…`) on one database and one Redis. The agent is connected to the orchestrator; a viewer on the other
 * API process sees the server's status changes and console lines, and its console command reaches the game.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { body, json } from '../support/app.ts';
import { startInstallation } from '../support/mainProcess.ts';
import { createFakeServer, startAgent } from '../support/agentProcess.ts';
import { connectViewer, consoleLines } from '../support/liveClient.ts';
import { useTestRedis } from '../support/redis.ts';

const redis = useTestRedis(test);

test('a viewer on one API process sees the status and console of a server whose agent is on the orchestrator process', async (t) => {
  const { env, bases } = await startInstallation(t, redis.prefix, ['web', 'web', 'orchestrator']);
  const [first, second, orchestrator] = bases as [string, string, string];

  const login = await body(await fetch(`${first}/auth/login`, json({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD })));
  const auth = { Authorization: `Bearer ${login.accessToken}` };
  const call = async (path: string, payload?: unknown) =>
    body(await fetch(`${first}${path}`, payload === undefined ? { method: 'POST', headers: auth } : json(payload, { headers: auth })));
  const cluster = await call('/api/v1/clusters', { name: 'Across nodes' });
  const machine = await call(`/api/v1/clusters/${cluster.id}/machines`, { name: 'host' });
  const server = await createFakeServer({ request: (path, init) => fetch(`${first}${path}`, init) }, { auth }, cluster.id, machine.id);
  const agent = await startAgent({ url: orchestrator, machineId: machine.id, token: machine.agentToken });
  t.teardown(() => agent.stop());

  const viewer = await connectViewer(second, login.accessToken);
  t.teardown(() => viewer.close());
  t.deepEqual(await viewer.request('subscribe', { clusterId: cluster.id, types: 'server.status' }), { ok: true });
  t.deepEqual(await viewer.request('subscribe', { serverId: server.id, console: true }), { ok: true });

  const started = await call(`/api/v1/servers/${server.id}/start?wait=30`);
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
  await viewer.waitFor((event) => event.type === 'server.status' && event.data.status === 'ONLINE', 'ONLINE on the other API process');
  await viewer.waitFor(
    (event) => event.type === 'server.console' && event.data.lines.some((line: { line: string }) => line.line === 'Server ready'),
    'the ready line',
  );

  const marker = randomBytes(4).toString('hex');
  const command = await viewer.request('console:command', { serverId: server.id, command: `say across nodes ${marker}` });
  t.true(command.ok, JSON.stringify(command));
  await viewer.waitFor(
    (event) => event.type === 'server.console' && event.data.lines.some((line: { line: string }) => line.line === `[Chat] across nodes ${marker}`),
    'the output of the command',
  );
  t.true(consoleLines(viewer).includes(`[Chat] across nodes ${marker}`));

  // The recent console is the same from every API process (a Redis list under this installation's prefix).
  for (const base of [first, second]) {
    const recent = await body(await fetch(`${base}/api/v1/servers/${server.id}/console?lines=1000`, { headers: auth }));
    t.true(
      recent.lines.some((line: { line: string }) => line.line === `[Chat] across nodes ${marker}`),
      base,
    );
  }
  t.true((await redis.client().keys(`${redis.prefix}*`)).length > 0, 'the live keys carry the installation prefix');
});
