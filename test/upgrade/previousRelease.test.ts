/**
 * Two versions side by side: the previous release's code (`git archive` of PREVIOUS_RELEASE in test/support/previousRelease.ts,
 * the last release before this round) runs as `node main.ts` against a database migrated by THIS build, and does its smoke: health, a
 * user, a cluster, a machine whose agent connects, a server started through a job, and the read endpoints. A migration
 * of this release that broke the previous release's code fails here. Raise PREVIOUS_RELEASE (and RELEASED_MIGRATIONS
 * in sql/migrationRules.ts) when a release is cut. Without the git history (a tarball of the tree) the test cannot get
 * the old code and is skipped, saying so.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { migrate } from '../../sql/migrate.ts';
import { createTestDatabase } from '../support/database.ts';
import { createFakeServer, startAgent } from '../support/agentProcess.ts';
import { checkoutPreviousRelease, PREVIOUS_RELEASE, previousReleaseMissing } from '../support/previousRelease.ts';

const missing = previousReleaseMissing();
if (missing) console.warn(`previousRelease.test.ts skipped: ${missing}`);

(missing ? test.skip : test)(`the previous release (${PREVIOUS_RELEASE.slice(0, 7)}) runs its smoke on a database migrated by this build`, async (t) => {
  const started = Date.now();
  const oldTree = await checkoutPreviousRelease(t);

  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  await migrate(database.url); // this build's migrations (the template has them; a newer release's would be applied here)
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-previous-data-'));
  await chmod(dataDir, 0o755);
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));

  const child = spawn(process.execPath, ['main.ts'], {
    cwd: oldTree,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_LISTEN: '127.0.0.1:0',
      PASETO_KEY: generatePasetoKey(),
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void child.kill('SIGKILL'));
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
  const docs = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the previous release did not start within 45 s:\n${lines.join('\n')}`)), 45_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const docsUrl = line.startsWith('{') ? (JSON.parse(line) as { docs?: string }).docs : undefined;
      if (docsUrl) {
        clearTimeout(timer);
        resolve(docsUrl);
      }
    });
    child.on('exit', (code) => reject(new Error(`the previous release exited with ${code} on this build's database:\n${lines.join('\n')}`)));
  });
  const url = docs.replace(/\/api\/docs$/, '');
  const request = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, init);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  const health = await request('/healthz');
  t.is(health.status, 200);
  t.is(((await health.json()) as { version: string }).version, '0.1.0');

  const credentials = { email: 'old@example.test', password: 'correct horse battery staple', displayName: 'Old' };
  t.is((await post('/auth/register', credentials)).status, 201);
  const login = await post('/auth/login', { email: credentials.email, password: credentials.password });
  t.is(login.status, 200);
  const auth = { Authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
  const cluster = await post('/api/v1/clusters', { name: 'Old code' }, auth);
  t.is(cluster.status, 201);
  const clusterId = ((await cluster.json()) as { id: string }).id;
  const machine = await post(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' }, auth);
  t.is(machine.status, 201);
  const { id: machineId, agentToken } = (await machine.json()) as { id: string; agentToken: string };
  const server = await createFakeServer({ request }, { auth }, clusterId, machineId);

  // A job end to end: the agent connects to the previous release's gateway and starts the server.
  const agent = await startAgent({ url, machineId, token: agentToken });
  t.teardown(() => agent.stop());
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const current = (await (await request(`/api/v1/machines/${machineId}`, { headers: auth })).json()) as { status?: string };
    if (current.status === 'ONLINE') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const start = await request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST', headers: auth });
  const job = (await start.json()) as { id: string; status: string; error?: unknown };
  t.is(job.status, 'SUCCEEDED', JSON.stringify(job));

  // The read endpoints.
  for (const path of [
    `/api/v1/clusters/${clusterId}`,
    `/api/v1/clusters/${clusterId}/servers`,
    `/api/v1/servers/${server.id}`,
    `/api/v1/jobs/${job.id}`,
    `/api/v1/clusters/${clusterId}/jobs`,
    `/api/v1/clusters/${clusterId}/machines`,
    `/api/v1/clusters/${clusterId}/events`,
    `/api/v1/clusters/${clusterId}/players`,
    `/api/v1/clusters/${clusterId}/audit-log`,
  ]) {
    const answer = await request(path, { headers: auth });
    t.is(answer.status, 200, `${path}: ${await answer.clone().text()}`);
  }
  const running = (await (await request(`/api/v1/servers/${server.id}`, { headers: auth })).json()) as { status: string };
  t.is(running.status, 'ONLINE');

  await agent.stop();
  child.kill('SIGTERM');
  t.is(await exited, 0);
  const failures = lines.filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
  t.deepEqual(failures, [], 'the previous release logged no error');
  t.log(`previous release smoke on this build's database: ${Date.now() - started} ms`);
});
