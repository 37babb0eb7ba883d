/**
 * `npm test` on a machine that lacks what the tests need (test/prerequisites.ts): one message naming all of it and how
 * to get it, exit status 1, before any type check or test runs; with GSM_TEST_SETUP=0 it never installs anything. A
 * Node.js 20 already on PATH or from nvm is found before anything is downloaded; Chromium is found by one rule.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { findChromium, findNode20, missingPrerequisites } from '../prerequisites.ts';

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

/** `npm test` (test/run.ts) with `env`: its exit status and everything it printed. */
async function npmTest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['test/run.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString('utf8')));
  child.stderr.on('data', (data: Buffer) => (output += data.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  return { code, output };
}

test('GSM_TEST_SETUP=0: as root on Debian, npm test installs nothing and only names what is missing', async (t) => {
  const { code, output } = await npmTest({
    PATH: process.env.PATH,
    GSM_TEST_SETUP: '0',
    TEST_REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    GSM_TEST_NODE20: findNode20() ?? '',
  });
  t.is(code, 1);
  t.false(output.includes('.ci/setup ('), 'the setup step did not run');
  t.false(output.includes('installing'));
  t.regex(output, /^The tests need what this machine lacks .*\n\s+- Redis answering at redis:\/\/127\.0\.0\.1:\d+: /);
});

test('without GSM_TEST_SETUP=0 npm test says what it installs before it does (a Redis elsewhere is not started here)', async (t) => {
  if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
  // The Redis named is not on this host: .ci/setup installs and starts no local one for it, so the run ends naming it.
  const { code, output } = await npmTest({
    PATH: process.env.PATH,
    TEST_REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    GSM_TEST_NODE20: findNode20() ?? '',
  });
  t.is(code, 1);
  t.regex(output, /Missing for the tests: Redis answering at .*; installing with \.ci\/setup \(apt-get as root; GSM_TEST_SETUP=0 skips this\)/);
  t.false(output.includes('Redis is not answering; starting it'));
});

test('a Node.js 20 on PATH or from nvm is found before any download', async (t) => {
  const node20 = findNode20();
  if (!node20) return t.fail('this machine has a Node.js 20 (npm test provided it)');
  const dir = await mkdtemp(join(tmpdir(), 'gsm-node20-'));
  await mkdir(join(dir, 'bin'));
  await symlink(node20, join(dir, 'bin', 'node'));
  t.is(findNode20({ PATH: join(dir, 'bin'), HOME: dir }), join(dir, 'bin', 'node'), 'node on PATH');
  const nvm = join(dir, 'nvm', 'versions', 'node', 'v20.9.0', 'bin');
  await mkdir(nvm, { recursive: true });
  await symlink(node20, join(nvm, 'node'));
  t.is(findNode20({ PATH: '/nonexistent', NVM_DIR: join(dir, 'nvm') }), join(nvm, 'node'), "nvm's");
});

test('Chromium by one rule: CHROMIUM_PATH (and then only it), else the system one, else chromium on PATH', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-chromium-'));
  const fake = join(dir, 'chromium');
  await writeFile(fake, '#!/bin/sh\n');
  await chmod(fake, 0o755);
  t.is(findChromium({ PATH: dir }, '/nonexistent/chromium'), fake, 'chromium on PATH');
  t.is(findChromium({ PATH: dir }, fake), fake, 'the system one');
  t.is(findChromium({ PATH: dir, CHROMIUM_PATH: '/nonexistent/chrome' }, fake), null, 'CHROMIUM_PATH set: only it counts');
});
