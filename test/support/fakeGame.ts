/**
 * The fake game server (test/fixtures/fakeGameServer.ts) as a child process, with its output lines to wait on.
 */
import type { ExecutionContext } from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const FAKE_SERVER_PATH = fileURLToPath(new URL('../fixtures/fakeGameServer.ts', import.meta.url));
const LINE_TIMEOUT_MS = 10_000;

export type Fake = {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Writes a console command to its standard input. */
  send: (line: string) => void;
  /** Waits for the next line of output (after the last one matched) that equals a string or matches a pattern. */
  line: (pattern: RegExp | string) => Promise<string>;
};

/** Starts it with `env` (over this process's environment, a quick ready delay) and kills it when the test ends. */
export function startFake(t: ExecutionContext, env: Record<string, string>, cwd?: string): Fake {
  const child = spawn(process.execPath, [FAKE_SERVER_PATH], {
    cwd,
    env: { ...process.env, RCON_PORT: '0', FAKE_READY_DELAY_MS: '50', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.teardown(() => void child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  let cursor = 0;
  const matches = (pattern: RegExp | string, line: string) => (typeof pattern === 'string' ? line === pattern : pattern.test(line));
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      for (const listener of listeners) listener();
    });
  }
  const line = (pattern: RegExp | string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const index = lines.findIndex((candidate, at) => at >= cursor && matches(pattern, candidate));
        if (index === -1) return;
        cursor = index + 1;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(lines[index]!);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no line matching ${pattern} within ${LINE_TIMEOUT_MS} ms; output:\n${lines.join('\n')}`));
      }, LINE_TIMEOUT_MS);
      listeners.add(check);
      check();
    });
  return { child, exited, line, send: (text) => child.stdin!.write(`${text}\n`) };
}
