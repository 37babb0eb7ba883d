/**
 * The files API on a web process while the agent is connected to an orchestrator process (`node main.ts --role=…`,
 * one database and one Redis): listing, writing, reading as text, a download streamed with Range, a large upload,
 * rename and delete all reach the agent through the orchestrator; a machine whose agent no process holds is a 503.
 * A read forwarded asks for at most FORWARDED_READ_CHUNK: an orchestrator of the previous release (frames of 256 KiB)
 * may hold the agent during a rolling upgrade.
 */
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { body, fetchWithinLimit, json } from '../support/app.ts';
import { startInstallation } from '../support/mainProcess.ts';
import { createFakeServer, startAgent } from '../support/agentProcess.ts';
import { createClient } from 'redis';
import { REDIS_URL, useTestRedis } from '../support/redis.ts';
import { FORWARDED_READ_CHUNK, TRANSFER_CHUNK } from '../../orchestrator/files/serverFiles.ts';
import { until } from '../support/wait.ts';

const redis = useTestRedis(test);

test('a web process serves the files API of a server whose agent is connected to the orchestrator process', async (t) => {
  const { env, bases } = await startInstallation(t, redis.prefix, ['web', 'orchestrator']);
  const [web, orchestrator] = bases as [string, string];

  const login = await body(await fetch(`${web}/auth/login`, json({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD })));
  const auth = { Authorization: `Bearer ${login.accessToken}` };
  const call = async (path: string, payload: unknown) => body(await fetchWithinLimit(`${web}${path}`, json(payload, { headers: auth })));
  const cluster = await call('/api/v1/clusters', { name: 'Files across nodes' });
  const machine = await call(`/api/v1/clusters/${cluster.id}/machines`, { name: 'host' });
  const server = await createFakeServer({ request: (path, init) => fetchWithinLimit(`${web}${path}`, init) }, { auth }, cluster.id, machine.id);
  const files = (path = '') => `${web}/api/v1/servers/${server.id}/files${path}`;

  // No agent anywhere yet: a clear 503, from the web process.
  const before = await fetchWithinLimit(files(), { headers: auth });
  t.is(before.status, 503);
  t.is(((await before.json()) as { code: string }).code, 'AGENT_UNAVAILABLE');

  const agent = await startAgent({ url: orchestrator, machineId: machine.id, token: machine.agentToken });
  t.teardown(() => agent.stop());
  await until(async () => (await fetchWithinLimit(files(), { headers: auth })).status === 200, 'the web process lists the files', 30_000);

  const put = (path: string, data: string | Buffer) =>
    fetchWithinLimit(`${files('/content')}?path=${encodeURIComponent(path)}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: data,
    });
  const written = await put('/server.properties', 'motd=across processes\n');
  t.is(written.status, 200, await written.clone().text());
  const serverDir = join(agent.dataDir, 'servers', server.id);
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=across processes\n');
  const text = await body(await fetchWithinLimit(`${files('/content')}?path=/server.properties&format=text`, { headers: auth }));
  t.is(text.content, 'motd=across processes\n');
  const listed = await body(await fetchWithinLimit(files(), { headers: auth }));
  t.true(listed.entries.some((entry: { name: string }) => entry.name === 'server.properties'));

  // The reads the web process asks of the orchestrator, as they cross Redis (`u32 length | JSON head | …`).
  const reads: number[] = [];
  const listener = createClient({ url: REDIS_URL });
  listener.on('error', () => undefined);
  await listener.connect();
  t.teardown(async () => void (await listener.close()));
  await listener.subscribe(
    `${redis.prefix}agent-files:requests`,
    (message: Buffer) => {
      const head = JSON.parse(message.subarray(4, 4 + message.readUInt32BE(0)).toString('utf8')) as { payload?: { op?: string; length?: number } };
      if (head.payload?.op === 'read') reads.push(head.payload.length!);
    },
    true,
  );

  // A large file both ways, streamed in chunks through both processes.
  const data = randomBytes(5 * 1024 * 1024 + 77);
  t.is((await put('/world.bin', data)).status, 200);
  const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  t.is(digest(await readFile(join(serverDir, 'world.bin'))), digest(data));
  const whole = await fetchWithinLimit(`${files('/content')}?path=/world.bin`, { headers: auth });
  t.is(whole.status, 200);
  t.is(digest(Buffer.from(await whole.arrayBuffer())), digest(data));
  // The requests reach this listener on a connection of their own: the last may come a moment after the answer's end.
  const expectedReads = Math.ceil(data.length / FORWARDED_READ_CHUNK);
  await until(async () => reads.length >= expectedReads, 'every forwarded read seen', 5_000).catch(() => undefined);
  t.true(reads.length >= expectedReads, `${reads.length} reads forwarded`);
  t.is(Math.max(...reads), FORWARDED_READ_CHUNK, `not ${TRANSFER_CHUNK}, which an older orchestrator's gateway would refuse`);
  const part = await fetchWithinLimit(`${files('/content')}?path=/world.bin`, { headers: { ...auth, range: 'bytes=1000-300999' } });
  t.is(part.status, 206);
  t.true(Buffer.from(await part.arrayBuffer()).equals(data.subarray(1000, 301000)));

  // Changes and refusals keep their meaning.
  t.is((await fetchWithinLimit(files('/rename'), json({ from: '/world.bin', to: '/world-old.bin' }, { headers: auth }))).status, 200);
  const missing = await fetchWithinLimit(`${files('/content')}?path=/world.bin`, { headers: auth });
  t.is(missing.status, 404);
  t.is((await fetchWithinLimit(`${files()}?path=/world-old.bin`, { method: 'DELETE', headers: auth })).status, 200);
  t.is((await fetchWithinLimit(`${files('/content')}?path=../etc/passwd`, { headers: auth })).status, 400);
});
