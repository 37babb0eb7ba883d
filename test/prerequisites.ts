/**
 * What the tests need besides npm's packages (docs/development.md#what-the-tests-need): a Redis answering, Chromium,
 * Go, Python 3, curl, and a Node.js 20 (the oldest line the agent supports). Each check is a file test, a PATH lookup
 * or one PING, so a machine that has everything pays a few milliseconds.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { connect } from 'node:net';
import { delimiter, join, resolve } from 'node:path';

export type Missing = { what: string; fix: string };

/** Where `npm test` puts a Node.js 20 from npm when the machine has none at /usr/bin/node. */
export const LOCAL_NODE20_PREFIX = resolve('.tmp/node20');
export const LOCAL_NODE20 = join(LOCAL_NODE20_PREFIX, 'node_modules', 'node', 'bin', 'node');
/** The `node` npm package of the Node.js 20 the agent's tests run under, when the machine's own is not 20. */
export const NODE20_PACKAGE = 'node@20.20.2';

/** Every executable `command` on PATH, in PATH's order. */
const allOnPath = (command: string, env: NodeJS.ProcessEnv = process.env) =>
  (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, command))
    .filter((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
const onPath = (command: string, env: NodeJS.ProcessEnv = process.env) => allOnPath(command, env).length > 0;

/** The Node.js 20 builds nvm installed (newest first). */
function nvmNode20s(env: NodeJS.ProcessEnv): string[] {
  const versions = join(env.NVM_DIR || join(env.HOME || homedir(), '.nvm'), 'versions', 'node');
  try {
    return readdirSync(versions)
      .filter((name) => /^v20\./.test(name))
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
      .map((name) => join(versions, name, 'bin', 'node'));
  } catch {
    return [];
  }
}

const majorOf = (node: string): number | null => {
  try {
    return Number(/^v(\d+)\./.exec(execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 }))?.[1]);
  } catch {
    return null;
  }
};

/**
 * A Node.js 20 to run the packed agent with, before anything is downloaded: GSM_TEST_NODE20, any `node` on PATH (npm
 * puts its own first), nvm's, the machine's /usr/bin/node, or the one npm test fetched earlier.
 */
export function findNode20(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const node of [env.GSM_TEST_NODE20, ...allOnPath('node', env), ...nvmNode20s(env), '/usr/bin/node', LOCAL_NODE20])
    if (node && existsSync(node) && majorOf(node) === 20) return node;
  return null;
}

/**
 * The Chromium the page tests drive (test/support/browser.ts), by one rule that .ci/setup follows too: CHROMIUM_PATH
 * when set (and then only it), else `systemDefault`, else `chromium` on PATH.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, systemDefault = '/usr/bin/chromium'): string | null {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  if (existsSync(systemDefault)) return systemDefault;
  return allOnPath('chromium', env)[0] ?? null;
}

/** Whether npm test may install what is missing (.ci/setup, a Node.js 20 from npm): not with GSM_TEST_SETUP=0. */
export const setupAllowed = (env: NodeJS.ProcessEnv = process.env) => env.GSM_TEST_SETUP !== '0';

/** Whether something answers on `url`'s address with a Redis reply (PONG, or NOAUTH from a Redis wanting a password). */
function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    const finish = (answer: boolean) => {
      socket.destroy();
      done(answer);
    };
    socket.setTimeout(3_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(/^(\+PONG|-NOAUTH)/.test(data.toString('utf8'))));
  });
}

/** Everything missing, each with how to get it (one line). Node.js 20 is left to `findNode20`. */
export async function missingPrerequisites(env: NodeJS.ProcessEnv = process.env): Promise<Missing[]> {
  const missing: Missing[] = [];
  const redisUrl = env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(redisUrl)))
    missing.push({ what: `Redis answering at ${redisUrl}`, fix: 'install redis-server and start it, or set TEST_REDIS_URL' });
  if (!findChromium(env))
    missing.push({
      what: env.CHROMIUM_PATH ? `Chromium at ${env.CHROMIUM_PATH}` : 'Chromium (/usr/bin/chromium or chromium on PATH)',
      fix: 'install chromium, or set CHROMIUM_PATH to a Chromium or Chrome',
    });
  if (!onPath('go', env)) missing.push({ what: 'Go 1.19 or newer (go)', fix: 'install golang-go, or Go from https://go.dev/dl/' });
  if (!onPath('python3', env)) missing.push({ what: 'Python 3.9 or newer (python3)', fix: 'install python3' });
  if (!onPath('curl', env)) missing.push({ what: 'curl', fix: 'install curl' });
  return missing;
}

/** Whether `.ci/setup` can install what is missing here: Debian (apt-get), as root. */
export const canSetUp = () => process.getuid?.() === 0 && existsSync('/etc/debian_version') && onPath('apt-get');
