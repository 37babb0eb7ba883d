/**
 * A transfer between two machines whose agents are connected to two different orchestrator processes (`node main.ts
 * --role=…`, one database, one Redis): the process running it reaches the other process's agent through Redis, and
 * the server ends ONLINE on the target with its files identical.
 */
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { body, fetchWithinLimit, json } from '../support/app.ts';
import { startInstallation } from '../support/mainProcess.ts';
import { createFakeServer, freePorts, startAgent } from '../support/agentProcess.ts';
import { useTestRedis } from '../support/redis.ts';
import { until } from '../support/wait.ts';

const redis = useTestRedis(test);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('a transfer between agents held by two orchestrator processes reaches the other one through Redis and ends ONLINE there', async (t) => {
  t.timeout(300_000);
  const { env, bases } = await startInstallation(t, redis.prefix, ['web', 'orchestrator', 'orchestrator']);
  const [web, first, second] = bases as [string, string, string];
  const login = await body(await fetch(`${web}/auth/login`, json({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD })));
  const auth = { Authorization: `Bearer ${login.accessToken}` };
  const call = async (path: string, payload?: unknown) => body(await fetchWithinLimit(`${web}${path}`, json(payload ?? {}, { headers: auth })));
  const get = async (path: string) => body(await fetchWithinLimit(`${web}${path}`, { headers: auth }));
  const cluster = await call('/api/v1/clusters', { name: 'Transfers across nodes' });
  const source = await call(`/api/v1/clusters/${cluster.id}/machines`, { name: 'source' });
  const target = await call(`/api/v1/clusters/${cluster.id}/machines`, { name: 'target' });
  // Each agent on an orchestrator of its own: no process holds both.
  const sourceAgent = await startAgent({ url: first, machineId: source.id, token: source.agentToken });
  t.teardown(() => sourceAgent.stop());
  const targetAgent = await startAgent({ url: second, machineId: target.id, token: target.agentToken });
  t.teardown(() => targetAgent.stop());
  for (const machine of [source, target]) await until(async () => (await get(`/api/v1/machines/${machine.id}`)).status === 'ONLINE', 'machine online', 60_000);

  const server = await createFakeServer({ request: (path, init) => fetchWithinLimit(`${web}${path}`, init) }, { auth }, cluster.id, source.id, {
    autoRestart: false,
  });
  const started = await call(`/api/v1/servers/${server.id}/start?wait=60`);
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
  const world = randomBytes(3 * 1024 * 1024 + 11);
  await writeFile(join(sourceAgent.dataDir, 'servers', server.id, 'world.bin'), world);

  const [game, query, rcon] = await freePorts(3);
  const answer = await fetchWithinLimit(
    `${web}/api/v1/servers/${server.id}/transfer`,
    json({ machineId: target.id, allocations: { game, query, rcon } }, { headers: auth }),
  );
  const job = await body(answer);
  t.is(answer.status, 202, JSON.stringify(job));
  // Long polls and a slow poll: the API's rate limit is on.
  let done: Record<string, any> = {};
  for (let round = 0; round < 8 && !['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'].includes(done.status); round++)
    done = await get(`/api/v1/jobs/${job.id}?wait=30`);
  t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
  // Run by the target's process: the source's copy was removed through the other process.
  t.is(done.result.sourceCleanedUp, true, JSON.stringify(done.result));
  t.false(existsSync(join(sourceAgent.dataDir, 'servers', server.id)), "the source's copy removed");
  const online = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return (await get(`/api/v1/servers/${server.id}`)).status === 'ONLINE';
  };
  await until(online, 'ONLINE on the target', 120_000);
  const moved = await get(`/api/v1/servers/${server.id}`);
  t.is(moved.machineId, target.id, JSON.stringify(moved));
  t.is(sha256(await readFile(join(targetAgent.dataDir, 'servers', server.id, 'world.bin'))), sha256(world));
});
