/**
 * Graceful stop of a web process: two real `node main.ts --role=web` processes on one test database behind a
 * balancing TCP proxy that retries refused connections (test/support/balancer.ts). Under a steady load of requests,
 * with long polls waiting on a job, an SSE stream and a `/live` viewer open, one process gets SIGTERM: it stops
 * accepting, answers its long polls at once with the job as it is, tells its SSE and `/live` clients to reconnect,
 * finishes what is in flight and exits 0; not one request through the proxy fails.
 */
import test from 'ava';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { createTestDatabase } from '../support/database.ts';
import { startMain, type Started } from '../support/mainProcess.ts';
import { call, startBalancer } from '../support/balancer.ts';
import { openSse } from '../support/sse.ts';
import { connectViewer } from '../support/liveClient.ts';
import { freePorts } from '../support/agentProcess.ts';

test('SIGTERM to one of two web processes behind a balancer: no request fails, long polls answer at once, streams are told to reconnect', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const key = generatePasetoKey();
  const processes: Started[] = [];
  const start = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gsm-graceful-'));
    await chmod(dir, 0o755);
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const started = await startMain(
      { DATABASE_URL: database.url, DATA_DIR: dir, PASETO_KEY: key, HOST: '127.0.0.1', RATE_LIMIT: 'off', SHUTDOWN_TIMEOUT_MS: '20000' },
      ['--role=web'],
    );
    processes.push(started);
    t.teardown(() => void started.child.kill('SIGKILL'));
    return started;
  };
  const [first, second] = [await start(), await start()];
  const portOf = (started: Started) => Number(new URL(started.docsUrl).port);
  const balancer = await startBalancer([first, second].map((started) => ({ host: '127.0.0.1', port: portOf(started) })));
  t.teardown(() => balancer.close());
  const port = balancer.port;

  // A user, a cluster, a machine (no agent: no orchestrator runs) and a server whose START job stays QUEUED.
  const credentials = { email: 'owner@example.test', password: 'correct horse battery staple', displayName: 'Owner' };
  t.is((await call(port, 'POST', '/auth/register', {}, credentials)).status, 201);
  const login = await call(port, 'POST', '/auth/login', {}, { email: credentials.email, password: credentials.password });
  t.is(login.status, 200);
  const auth = { Authorization: `Bearer ${login.body.accessToken}` };
  const cluster = await call(port, 'POST', '/api/v1/clusters', auth, { name: 'Graceful' });
  t.is(cluster.status, 201);
  const clusterId = cluster.body.id as string;
  const machine = await call(port, 'POST', `/api/v1/clusters/${clusterId}/machines`, auth, { name: 'host' });
  t.is(machine.status, 201);
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const created = await call(port, 'POST', `/api/v1/clusters/${clusterId}/servers`, auth, {
    name: 'fake',
    gameType: 'CUSTOM',
    machineId: machine.body.id,
    gamePort,
    queryPort,
    rconPort,
    rconPassword: 'fake-password',
    startCommand: 'true',
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const server = created.body as { id: string };
  const job = await call(port, 'POST', `/api/v1/servers/${server.id}/start`, auth);
  t.is(job.status, 202);
  const jobId = job.body.id as string;

  // The process to stop holds an SSE stream and a /live viewer (opened on it directly).
  const base = (started: Started) => `http://127.0.0.1:${portOf(started)}`;
  const stream = await openSse(`${base(first)}/api/v1/clusters/${clusterId}/events/stream`, auth);
  t.is(stream.status, 200);
  t.teardown(() => stream.close());
  const viewer = await connectViewer(base(first), login.body.accessToken);
  t.teardown(() => viewer.close());

  // Long polls through the balancer: taken in turn, so two of the four wait on each process.
  const onFirst = (index: number) => (balancer.nextBackend() + index) % 2 === 0;
  const heldByFirst = [0, 1, 2, 3].filter(onFirst);
  const longPolls = Array.from({ length: 4 }, () => call(port, 'GET', `/api/v1/jobs/${jobId}?wait=30`, auth));
  // Each has reached a process once both processes have taken two connections more.
  const before = [...balancer.counts.connected];
  // A steady load: 6 clients, each one request after another on a fresh connection.
  const failures: string[] = [];
  const answered: number[] = [];
  let loading = true;
  const paths = [`/api/v1/clusters/${clusterId}`, `/api/v1/clusters/${clusterId}/servers`, `/api/v1/jobs/${jobId}`, `/api/v1/servers/${server.id}`];
  const loaders = Array.from({ length: 6 }, async (_, index) => {
    for (let round = 0; loading; round++) {
      const path = paths[(index + round) % paths.length]!;
      try {
        const answer = await call(port, 'GET', path, auth);
        if (answer.status !== 200) failures.push(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        else answered.push(Date.now());
      } catch (error) {
        failures.push(`${path}: ${(error as Error).message}`);
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.true(
    balancer.counts.connected.every((count, index) => count >= before[index]!),
    'both processes take connections',
  );

  const stoppedAt = Date.now();
  first.child.kill('SIGTERM');
  // The long polls on the stopping process answer at once with the job as it is (still QUEUED), not after 30 s.
  const early = await Promise.race([
    Promise.all(longPolls.filter((_, index) => heldByFirst.includes(index))),
    new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
  ]);
  t.not(early, null, 'the long polls held by the stopping process answered within 10 s');
  for (const answer of early ?? []) {
    t.is(answer.status, 200);
    t.is(answer.body.id, jobId);
    t.is(answer.body.status, 'QUEUED');
  }
  // SSE: a `stream.reconnect` event, then the end of the stream; /live: `service:reconnect`, then a disconnect.
  await stream.ended;
  t.deepEqual(stream.frames.at(-1), { event: 'stream.reconnect', data: { reason: 'shutting down', retryMs: 500 } });
  t.deepEqual(await viewer.notice('service:reconnect'), { reason: 'shutting down', retryMs: 500 });
  t.is(await viewer.disconnected, 'io server disconnect');

  t.is(await first.exited, 0, 'the stopped process exits 0');
  const exitedAfter = Date.now() - stoppedAt;
  const lastCount = answered.length;
  // The load goes on against the other process alone.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  loading = false;
  await Promise.all(loaders);
  // The long polls on the other process end with it (no job event: their 30 s pass) — they are not failures either.
  second.child.kill('SIGTERM');
  for (const answer of await Promise.all(longPolls)) t.is(answer.status, 200);
  t.is(await second.exited, 0);

  t.deepEqual(failures, [], 'no request failed');
  t.true(answered.length > lastCount, 'requests went on being answered after the process exited');
  t.true(answered.length > 30, `a steady load (${answered.length} requests answered)`);
  t.true(balancer.counts.refused > 0, 'the balancer met refused connections and retried them');
  // Dropped before any answer: only the few connections the kernel had queued for the stopping process when it closed
  // its listening socket (it never read them), not the requests it had taken.
  t.true(balancer.counts.reset <= 10, `${balancer.counts.reset} connections dropped before an answer`);
  // Every request the stopped process read, it answered (its request log: no 5xx, nothing cut).
  const logged = first.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg?: string; status?: number; path?: string });
  const requests = logged.filter((line) => line.msg === 'request');
  t.true(requests.length > 10);
  t.deepEqual(
    requests.filter((line) => !line.status || line.status >= 300),
    [],
  );
  t.log(
    `${answered.length} requests answered; the balancer retried ${balancer.counts.refused} refused connections and ${balancer.counts.reset} dropped unanswered; the stopped process exited ${exitedAfter} ms after SIGTERM`,
  );
  t.is(processes.length, 2);
});
