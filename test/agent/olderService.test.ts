/**
 * The real agent and a service of the previous release, which announces no `features` and refuses any field of
 * `server:status` it does not know: the agent adopts a running game and reports it without `process`, `templateId` and
 * `templateVersion` (as the previous protocol had it), while the current service, which announces `serverProcess` and
 * `templateVersion`, is told them.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'slonik';
import { Server } from 'socket.io';
import { heartbeatEvent, serverStatusEvent } from '../../schema/agentEvents.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';

/** `server:status` as a service before `process` and `templateVersion` validated it (strict: an unknown field is INVALID_EVENT). */
const previousStatusEvent = serverStatusEvent.omit({ process: true, templateId: true, templateVersion: true }).strict();
/** `heartbeat` as a service before `diskFreeBytes` (its metrics strict). */
const previousHeartbeat = heartbeatEvent.extend({ metrics: heartbeatEvent.shape.metrics.omit({ diskFreeBytes: true }).strict() });

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1 });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

test('a service that announced none of serverProcess, templateVersion and diskFree gets statuses and heartbeats without them; the current one gets them', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const first = await startAgent({ url: app.url, machineId, token, keepServers: true });
  agents.push(first);
  // From a template: its agent reports the template's id and version to a service that announced `templateVersion`.
  const template = (await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/templates`,
      json(
        {
          id: 'idle',
          name: 'Idle',
          start: { command: './idle' },
          ready: { mode: 'IMMEDIATE' },
          stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
          console: { mode: 'NONE' },
          ports: [{ name: 'game', protocol: 'udp' }],
        },
        { headers: owner.auth },
      ),
    ),
  )) as { id: string };
  const server = await createFakeServer(app, owner, clusterId, machineId, { templateId: template.id });
  const started = await body(await app.request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST', headers: owner.auth }));
  t.is(started.status, 'SUCCEEDED');
  const { pid } = JSON.parse(await readFile(join(first.dataDir, 'run', server.id, 'process.json'), 'utf8')) as { pid: number };
  t.teardown(() => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT process_pid FROM servers WHERE id = ${server.id}`)) === pid,
    'the current service told the process',
  );
  t.false(await app.pool.oneFirst(sql.unsafe`SELECT process_adopted FROM servers WHERE id = ${server.id}`), 'started by this agent');
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT metrics ? 'diskFreeBytes' FROM machines WHERE id = ${machineId}`)) === true,
    'the current service told the free space',
  );
  await first.stop();

  // The previous release's gateway, as far as the agent can tell: authenticated without features, statuses checked strictly.
  const reports: unknown[] = [];
  const heartbeats: unknown[] = [];
  const http = createServer();
  const older = new Server(http, { path: '/ws', transports: ['websocket'] });
  older.on('connection', (socket) => {
    socket.on('auth', () => socket.emit('authenticated', { machineId, clusterId, heartbeatSeconds: 1, serverTime: new Date().toISOString() }));
    socket.on('heartbeat', (data: unknown) => heartbeats.push(data));
    socket.on('server:status', (data: unknown, ack?: (answer: unknown) => void) => {
      reports.push(data);
      ack?.(previousStatusEvent.safeParse(data).success ? { accepted: true } : { accepted: false, reason: 'invalid server:status' });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void older.close());
  const second = await startAgent({
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    machineId,
    token,
    dataDir: first.dataDir,
    keepServers: true,
  });
  agents.push(second);
  await until(async () => reports.some((report) => (report as { status?: string }).status === 'ONLINE'), 'the adopted server reported');
  await until(async () => second.lines.some((line) => line.includes('adopted a running game server')), 'the adoption logged');
  for (const report of reports) t.true(previousStatusEvent.safeParse(report).success, JSON.stringify(report));
  await until(async () => heartbeats.length >= 2, 'heartbeats');
  for (const beat of heartbeats) t.true(previousHeartbeat.safeParse(beat).success, JSON.stringify(beat));
  await second.stop();
});
