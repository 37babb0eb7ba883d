/**
 * The service as `startService` (main.ts) runs it for each role, in this process on a test database: what each role starts,
 * checks and logs.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../main.ts';
import { loadConfig, type Role } from '../../schema/config.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { captureLogs } from '../support/logs.ts';
import { CLOSED_REDIS_URL } from '../support/redis.ts';
import { WebSocket } from 'ws';

async function start(t: import('ava').ExecutionContext, role: Role, env: Record<string, string> = {}, shared?: TestDatabase) {
  const database = shared ?? (await createTestDatabase());
  if (!shared) t.teardown(() => database.drop());
  const dir = await mkdtemp(join(tmpdir(), 'gsm-roles-'));
  await chmod(dir, 0o755);
  const { logger, lines } = captureLogs();
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    METRICS_LISTEN: '127.0.0.1:0',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const service = await startService(config, logger, role);
  t.teardown(() => service.stop());
  return { service, lines, database, base: `http://127.0.0.1:${service.port}` };
}

test('a normal start of every part logs no warning about the worker pools', async (t) => {
  const { lines, service } = await start(t, 'all');
  await service.stop();
  const warnings = lines().filter((line) => Number(line.level) >= 40);
  t.deepEqual(
    warnings.filter((line) => /maxPoolSize|concurrency|pool/i.test(String(line.msg))),
    [],
  );
});

test('an orchestrator is ready while Redis is down: it does not use Redis', async (t) => {
  const { base } = await start(t, 'orchestrator', { REDIS_URL: CLOSED_REDIS_URL, RATE_LIMIT: 'on' });
  const ready = await fetch(`${base}/readyz`);
  t.is(ready.status, 200);
  t.deepEqual(((await ready.json()) as { checks: unknown }).checks, { database: 'ok', migrations: 'ok' });
});

test('a web process with Redis down is not ready, naming Redis', async (t) => {
  const { base } = await start(t, 'web', { REDIS_URL: CLOSED_REDIS_URL, RATE_LIMIT: 'on' });
  const ready = await fetch(`${base}/readyz`);
  t.is(ready.status, 503);
  t.deepEqual(((await ready.json()) as { details: unknown }).details, [{ field: 'redis', message: 'unreachable' }]);
});

test('web processes that sign sessions with different keys: the second to start warns that PASETO_KEY must be shared', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const sessionKeyWarnings = (lines: () => Record<string, unknown>[]) => lines().filter((line) => String(line.msg).includes('PASETO_KEY'));
  // PASETO_KEY unset: each process generates its own key in its own DATA_DIR.
  const first = await start(t, 'web', {}, database);
  t.deepEqual(sessionKeyWarnings(first.lines), []);
  const second = await start(t, 'web', {}, database);
  t.is(sessionKeyWarnings(second.lines).length, 1);
  t.is(sessionKeyWarnings(second.lines)[0]!.level, 40);

  // Shared PASETO_KEY: no warning once they agree.
  const key = generatePasetoKey();
  await start(t, 'web', { PASETO_KEY: key }, database);
  const agreeing = await start(t, 'web', { PASETO_KEY: key }, database);
  t.deepEqual(sessionKeyWarnings(agreeing.lines), []);
});

/** The files of ours that `entry` imports, directly or not, as dependency-cruiser resolves them. */
async function moduleGraph(entry: string): Promise<string[]> {
  const child = spawn(process.execPath, [
    'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'json',
    entry,
  ]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`dependency-cruiser exited with ${code}: ${output}`);
  return (JSON.parse(output) as { modules: { source: string }[] }).modules.map((module) => module.source);
}

/** The orchestrator role's own machinery: its starter, the gateway's connections, the job runners and their tasks. */
const ORCHESTRATOR_ROLE =
  /^orchestrator\/(service\.ts$|worker\/|jobs\/deliverySweep\.ts$|gateway\/(?!notifications\.ts$)|tasks\/runner\.ts$|webhooks\/deliverer\.ts$)/;

test('the web side (api/service.ts) imports nothing of the orchestrator role: no gateway, no job runner', async (t) => {
  const [web, orchestrator] = await Promise.all([moduleGraph('api/service.ts'), moduleGraph('orchestrator/service.ts')]);
  t.deepEqual(
    web.filter((source) => ORCHESTRATOR_ROLE.test(source)),
    [],
  );
  // The pattern names what the orchestrator role really is made of.
  t.true(orchestrator.includes('orchestrator/gateway/gateway.ts'));
  t.true(orchestrator.includes('orchestrator/worker/worker.ts'));
  t.true(orchestrator.includes('orchestrator/jobs/deliverySweep.ts'));
  t.false(orchestrator.some((source) => source.startsWith('api/')));
});

test('a web process has no agent gateway: an agent connecting to /ws is not answered', async (t) => {
  const { service } = await start(t, 'web');
  const socket = new WebSocket(`ws://127.0.0.1:${service.port}/ws`);
  const outcome = await new Promise<string>((resolve) => {
    socket.on('open', () => resolve('open'));
    socket.on('unexpected-response', (_request, response) => resolve(`HTTP ${response.statusCode}`));
    socket.on('error', () => resolve('error'));
  });
  socket.terminate();
  t.not(outcome, 'open');

  // The same request to an orchestrator is an agent connection.
  const orchestrator = await start(t, 'orchestrator');
  const agent = new WebSocket(`ws://127.0.0.1:${orchestrator.service.port}/ws`);
  const opened = await new Promise<string>((resolve) => {
    agent.on('open', () => resolve('open'));
    agent.on('error', () => resolve('error'));
  });
  agent.terminate();
  t.is(opened, 'open');
});
