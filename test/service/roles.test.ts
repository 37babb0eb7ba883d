/**
 * The service as `startService` runs it for each role, in this process on a test database: what each role starts,
 * checks and logs.
 */
import test from 'ava';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../api/service.ts';
import { loadConfig, type Role } from '../../schema/config.ts';
import { createTestDatabase } from '../support/database.ts';
import { captureLogs } from '../support/logs.ts';
import { CLOSED_REDIS_URL } from '../support/redis.ts';

async function start(t: import('ava').ExecutionContext, role: Role, env: Record<string, string> = {}) {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const dir = await mkdtemp(join(tmpdir(), 'gsm-roles-'));
  await chmod(dir, 0o755);
  const { logger, lines } = captureLogs();
  const config = loadConfig({ DATABASE_URL: database.url, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug', ...env });
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
