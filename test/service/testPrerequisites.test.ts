/**
 * `npm test` on a machine that lacks what the tests need (test/prerequisites.ts): one message naming all of it and how
 * to get it, exit status 1, before any type check or test runs.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { findNode20, missingPrerequisites } from '../prerequisites.ts';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

test('on this machine nothing is missing (npm test provided it)', async (t) => {
  t.deepEqual(await missingPrerequisites(), []);
  t.truthy(findNode20());
});

test('Redis not answering, a listener that is not Redis, no Chromium, no Go, Python or curl: each named with its fix', async (t) => {
  const env = { PATH: '/nonexistent', TEST_REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, CHROMIUM_PATH: '/nonexistent/chromium' };
  t.deepEqual(
    (await missingPrerequisites(env)).map((item) => item.what),
    [`Redis answering at ${env.TEST_REDIS_URL}`, 'Chromium at /nonexistent/chromium', 'Go 1.19 or newer (go)', 'Python 3.9 or newer (python3)', 'curl'],
  );
  // Something listening that does not speak Redis is not a Redis.
  const http = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  t.teardown(() => http.close());
  const notRedis = `redis://127.0.0.1:${(http.address() as { port: number }).port}`;
  t.is((await missingPrerequisites({ ...process.env, TEST_REDIS_URL: notRedis }))[0]?.what, `Redis answering at ${notRedis}`);
});

test('npm test where they are missing (and apt-get is not at hand): one message, exit status 1, nothing run', async (t) => {
  const env = {
    PATH: '/nonexistent',
    TEST_REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    CHROMIUM_PATH: '/nonexistent/chromium',
    GSM_TEST_NODE20: findNode20() ?? '',
  };
  const child = spawn(process.execPath, ['test/run.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString('utf8')));
  child.stderr.on('data', (data: Buffer) => (output += data.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  t.is(code, 1);
  t.regex(output, /^The tests need what this machine lacks \(on Debian as root, npm test installs it all with \.ci\/setup\):\n/);
  for (const line of [
    /- Redis answering at .*: install redis-server and start it/,
    /- Chromium at \/nonexistent\/chromium: install chromium/,
    /- Go 1\.19/,
    /- Python 3/,
    /- curl/,
  ])
    t.regex(output, line);
  t.false(output.includes('Type check'), 'it stopped before the type check');
});
