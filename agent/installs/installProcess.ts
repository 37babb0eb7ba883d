/**
 * The one runner of an install's own programs (a template's `script` step, a CUSTOM server's `installCommand`): as the
 * server's account, in its directory, in a process group of its own. It ends when the program exits, not when its
 * output closes (a child it left behind may hold that open for ever). Then, and at its time-out or a cancel, whatever
 * it started goes: with an account of the server's own, every process of that account (the server is held stopped
 * during an install, so all of them are the install's: a child that left the group with `setsid` too); without one
 * (an agent that is not root runs installs as itself), the processes still in its group, each checked by its start
 * time before it is signalled.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { endProcessesOf } from '../servers/accounts.ts';
import { killGroupMembers } from '../runtime/processRuntime.ts';
import type { InstallContext } from './context.ts';
import { InstallError } from './download.ts';

/** Lines of output kept for a failed job's consoleTail. */
const TAIL = 20;
/** How long the output may go on after the program and what it left are ended (what was written is still read). */
const OUTPUT_DRAIN_MS = 2_000;

export type InstallProcess = {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** What it is, in messages: `the install script`, `installCommand`. */
  what: string;
  timeoutMs?: number;
};

/** Runs it to its end; throws an InstallError (with the output's last lines) when it fails, times out or is cancelled. */
export async function runInstallProcess(context: InstallContext, spec: InstallProcess): Promise<void> {
  const child = spawn(spec.command, [...spec.args], {
    cwd: context.dir,
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(context.account ? { uid: context.account.uid, gid: context.account.gid } : {}),
  });
  const tail: string[] = [];
  const onLine = (line: string) => {
    context.line(line);
    tail.push(line);
    if (tail.length > TAIL) tail.shift();
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let exited = false;
  // While it runs its pid (the group's number) is still its own: the group is signalled whole. Once it exited, only
  // processes checked one by one (killGroupMembers), or the account's.
  const endAll = async () => {
    if (context.account) await endProcessesOf(context.account);
    else if (!exited && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    } else if (child.pid !== undefined) killGroupMembers(child.pid);
  };
  let timedOut = false;
  let ending: Promise<void> | undefined;
  const end = () => {
    ending = endAll().catch(() => undefined);
  };
  const timer =
    spec.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          end();
        }, spec.timeoutMs);
  context.signal.addEventListener('abort', end, { once: true });
  if (context.signal.aborted) end();
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('exit', (code, signal) => {
      // Reaped: from here on its number may be given to another process.
      exited = true;
      resolve({ code, signal });
    });
  });
  clearTimeout(timer);
  context.signal.removeEventListener('abort', end);
  await ending;
  let leftover: Error | undefined;
  if (!ended.error) {
    // What it left running goes now; an account whose processes cannot be ended fails the install (it must not go on).
    await endAll().catch((error: Error) => (leftover = error));
    let drain: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise<void>((resolve) => (drain = setTimeout(resolve, OUTPUT_DRAIN_MS)))]);
    clearTimeout(drain);
    child.stdout.destroy();
    child.stderr.destroy();
  }
  if (context.signal.aborted) throw new InstallError('CANCELLED', 'cancelled');
  if (ended.error) {
    const missing = (ended.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new InstallError('INSTALL_FAILED', missing ? `command not found: ${spec.command}` : `${spec.what} could not run: ${ended.error.message}`, tail);
  }
  if (timedOut) throw new InstallError('INSTALL_FAILED', `${spec.what} did not end within ${Math.round(spec.timeoutMs! / 1000)} s`, tail);
  if (ended.code !== 0)
    throw new InstallError('INSTALL_FAILED', `${spec.what} ${ended.signal ? `ended on ${ended.signal}` : `exited with code ${ended.code}`}`, tail);
  if (leftover) throw new InstallError('INSTALL_FAILED', `${spec.what} left processes that could not be ended: ${leftover.message}`, tail);
}
