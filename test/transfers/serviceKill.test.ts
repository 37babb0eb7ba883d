/**
 * A transfer survives the service itself (docs/transfers.md#the-copy): the real service process (`npm start`'s command)
 * is killed with SIGKILL during the copy and started again on the same database and port; the agents reconnect, the
 * next process takes the transfer's lease over and the copy resumes from what the target had acknowledged, not from
 * zero, and the server ends ONLINE on the target with its files identical.
 */
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { body, json, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startMain, baseUrl, type Started } from '../support/mainProcess.ts';
import { until } from '../support/wait.ts';
import { createFakeServer, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';

const MiB = 1024 * 1024;
const LONG_MS = 600_000;

let database: TestDatabase;
let pool: DatabasePool;
let service: Started | undefined;
const agents: AgentProcess[] = [];
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await pool?.end();
  await database?.drop();
});

test.serial('the service SIGKILLed during a copy and started again resumes the copy from the last acknowledged chunk', async (t) => {
  t.timeout(LONG_MS);
  database = await createTestDatabase();
  pool = await createDatabasePool(database.url);
  const [port] = await freePorts(1);
  const env = { DATABASE_URL: database.url, PORT: String(port), RATE_LIMIT: 'off' };
  service = await startMain(env);
  const url = baseUrl(service);
  const app = { url, pool, request: (path: string, init?: RequestInit) => fetch(`${url}${path}`, init) } as unknown as TestApp;
  const owner: TestUser = await signUp(app);
  const request = (path: string, payload?: unknown) => app.request(path, json(payload ?? {}, { method: 'POST', headers: owner.auth }));
  const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));

  const first = await registerMachine(app, owner);
  const second = await body(await request(`/api/v1/clusters/${first.clusterId}/machines`, { name: 'target' }));
  for (const [machineId, token] of [
    [first.machineId, first.token],
    [second.id as string, second.agentToken as string],
  ])
    agents.push(await startAgent({ url, machineId: machineId!, token: token! }));
  const [source, target] = agents as [AgentProcess, AgentProcess];
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId, { autoRestart: false });
  t.is((await body(await request(`/api/v1/servers/${server.id}/start?wait=60`))).status, 'SUCCEEDED');
  const dir = join(source.dataDir, 'servers', server.id);
  await writeFile(join(dir, 'world.bin'), randomBytes(64 * MiB));
  const worldSha = createHash('sha256')
    .update(await readFile(join(dir, 'world.bin')))
    .digest('hex');

  const [game, query, rcon] = await freePorts(3);
  const job = await body(
    await request(`/api/v1/servers/${server.id}/transfer`, { machineId: second.id, allocations: { game, query, rcon }, bandwidthLimit: 4 * MiB }),
  );
  t.is(job.type, 'TRANSFER', JSON.stringify(job));
  let seen = 0;
  await until(async () => (seen = (await get(`/api/v1/jobs/${job.id}`)).progress?.bytesDone ?? 0) > 8 * MiB, 'copying', LONG_MS);

  service.child.kill('SIGKILL');
  await service.exited;
  service = await startMain(env);

  let done: Record<string, any> = {};
  await until(async () => ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes((done = await get(`/api/v1/jobs/${job.id}`)).status), 'the transfer ended', LONG_MS);
  t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
  const resumes = done.result.resumes as { fromBytes: number; acknowledgedBefore: number }[];
  t.true(resumes.length >= 1, JSON.stringify(resumes));
  // Not from zero: at least what the job showed as acknowledged before the kill; what is sent again is bounded by
  // what the target had not acknowledged.
  t.true(resumes[0]!.fromBytes >= seen, `resumed from ${resumes[0]!.fromBytes} after ${seen} bytes were shown acknowledged`);
  t.true(resumes[0]!.fromBytes >= resumes[0]!.acknowledgedBefore, 'nothing acknowledged is sent again');
  await until(async () => (await get(`/api/v1/servers/${server.id}`)).status === 'ONLINE', 'ONLINE on the target', 120_000);
  const moved = await readFile(join(target.dataDir, 'servers', server.id, 'world.bin'));
  t.is(createHash('sha256').update(moved).digest('hex'), worldSha);
});
