/**
 * The first step of a stop: on SIGTERM a process answers 503 on /readyz (`details` naming `shutdown`) for
 * SHUTDOWN_READY_DELAY_MS while it still accepts connections and serves every other request, so a balancer's health
 * check takes it out before it stops accepting; then it stops as before and exits 0.
 */
import test from 'ava';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../support/database.ts';
import { baseUrl, startMain } from '../support/mainProcess.ts';
import { until } from '../support/wait.ts';

test('SIGTERM: /readyz answers 503 for the ready delay while everything else is still served, then the process stops', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const dir = await mkdtemp(join(tmpdir(), 'gsm-drain-'));
  await chmod(dir, 0o755);
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Long enough for the checks below on a loaded machine; the test ends when the process exits.
  const started = await startMain({ DATABASE_URL: database.url, DATA_DIR: dir, HOST: '127.0.0.1', RATE_LIMIT: 'off', SHUTDOWN_READY_DELAY_MS: '8000' }, [
    '--role=web',
  ]);
  t.teardown(() => void started.child.kill('SIGKILL'));
  const base = baseUrl(started);
  const ready = await fetch(`${base}/readyz`);
  t.is(ready.status, 200);
  await ready.body?.cancel();

  started.child.kill('SIGTERM');
  let exited = false;
  void started.exited.then(() => (exited = true));
  let drained: { status: number; body: any } | undefined;
  await until(async () => {
    const answer = await fetch(`${base}/readyz`, { headers: { Connection: 'close' } });
    drained = { status: answer.status, body: await answer.json() };
    return answer.status === 503;
  }, '/readyz answering 503');
  t.like(drained!.body, { error: 'Service Unavailable', details: [{ field: 'shutdown', message: 'this process is stopping' }] });
  // Still accepting and serving: liveness, the API (a 401 is an answer), new connections each time.
  const health = await fetch(`${base}/healthz`, { headers: { Connection: 'close' } });
  t.is(health.status, 200);
  t.like(await health.json(), { status: 'ok' });
  const api = await fetch(`${base}/api/v1/clusters`, { headers: { Connection: 'close' } });
  t.is(api.status, 401);
  await api.body?.cancel();
  t.false(exited, 'the process was still up during its not-ready period');

  t.is(await started.exited, 0, 'then it stops as before and exits 0');
  t.true(
    started.lines.some((line) => line.includes('readyDelayMs') && line.includes('8000')),
    'the stop logs its ready delay',
  );
});
