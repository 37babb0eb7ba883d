/**
 * The real service entry point (`npm start`'s command) as a child process: it resolves once the service logged its
 * docs URL, with its output lines kept for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ExecutionContext } from 'ava';
import { createTestDatabase } from './database.ts';
import { REDIS_URL } from './redis.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';

const STARTUP_TIMEOUT_MS = 90_000;
const START_SCRIPT: string = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).scripts.start;

export type Started = { child: ChildProcess; docsUrl: string; lines: string[]; exited: Promise<number | null> };

/**
 * Runs the command of package.json's `start` script (`node main.ts`) with extra arguments. It is run without npm in
 * between, so the signal reaches the service itself and its own exit status is what the test sees.
 */
export async function startMain(env: Record<string, string>, args: string[] = [], cwd?: string): Promise<Started> {
  const [program, ...scriptArgs] = START_SCRIPT.split(' ');
  if (program !== 'node') throw new Error(`unexpected start script: ${START_SCRIPT}`);
  const child = spawn(process.execPath, [...scriptArgs, ...args], {
    cwd,
    // Several services run at once: each its own free port for metrics too.
    // No not-ready period before a stop unless a test asks for one (test/upgrade/readyDrain.test.ts).
    env: { ...process.env, PORT: '0', METRICS_LISTEN: '127.0.0.1:0', DATABASE_URL: '', LOG_LEVEL: 'info', SHUTDOWN_READY_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  const docsUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line within ${STARTUP_TIMEOUT_MS} ms:\n${lines.join('\n')}`)), STARTUP_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { docs?: string };
      if (entry.docs) {
        clearTimeout(timer);
        resolve(entry.docs);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before start-up:\n${lines.join('\n')}`)));
  });
  return { child, docsUrl, lines, exited };
}

/** The service's base URL (its docs URL without the path). */
export const baseUrl = (started: Started) => started.docsUrl.replace(/\/api\/docs$/, '');

/**
 * An installation split into processes (`node main.ts --role=<role>` for each of `roles`) on a new test database and
 * the test Redis (under `redisPrefix`), with a first user; the processes stop and the database goes when the test ends.
 */
export async function startInstallation(
  t: ExecutionContext,
  redisPrefix: string,
  roles: readonly string[],
): Promise<{ env: Record<string, string> & { ADMIN_EMAIL: string; ADMIN_PASSWORD: string }; bases: string[] }> {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    PASETO_KEY: generatePasetoKey(),
    ADMIN_EMAIL: 'ops@example.test',
    ADMIN_PASSWORD: 'correct horse battery staple',
    AGENT_HEARTBEAT_SECONDS: '1',
  };
  const nodes: Started[] = [];
  t.teardown(async () => {
    for (const node of nodes) node.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.exited));
  });
  for (const role of roles) nodes.push(await startMain(env, [`--role=${role}`]));
  return { env, bases: nodes.map(baseUrl) };
}
