/**
 * Ports for the tests' game servers, agents and listeners that must be named before they are bound.
 *
 * Asking the kernel for port 0 and releasing it hands out a port from the ephemeral range, which the kernel gives to
 * the next outgoing connection (the tests open thousands: Postgres, Redis, HTTP) or to another test file running at
 * the same time; a game started on it then fails with PORT_IN_USE, now and then. So a port here is taken below the
 * ephemeral range (and below the game ports the tests write out, 25565, 27015, 28015 and the like), is bindable on
 * every address as both TCP and UDP (a game's query answers on UDP), and is claimed for this process with a file
 * under the system's temporary folder, so two test files running at once never get the same one. Claims are removed
 * when their process exits; those of a process that died are swept by the first process to claim after it (one at a
 * time, under a lock file naming the sweeper), never taken over port by port (two processes could take the same one so).
 */
import { createSocket } from 'node:dgram';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../sql/embedded.ts';

const FIRST = 12_000;
const LAST = 19_000;
const CLAIMS = join(tmpdir(), `gsm-test-ports-${process.getuid?.() ?? 'user'}`);
const SWEEP_LOCK = join(CLAIMS, 'sweeping');
const mine = new Set<number>();
let swept = false;
process.once('exit', () => {
  for (const port of mine) rmSync(join(CLAIMS, String(port)), { force: true });
});

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Whether the file names a live process (one being written reads empty: its writer is alive). */
function heldByLiveProcess(file: string): boolean {
  let holder: number;
  try {
    holder = Number(readFileSync(file, 'utf8'));
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
  return !Number.isInteger(holder) || holder <= 0 || isAlive(holder);
}

/** Creates `file` holding this process's pid; false when it exists. */
function createExclusive(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    throw error;
  }
  writeFileSync(fd, String(process.pid));
  closeSync(fd);
  return true;
}

/**
 * Removes the claims of processes that have exited, once per process, one process at a time: the sweep lock is a file
 * naming its sweeper, and only a lock whose sweeper has exited is removed by another (which then sweeps next time).
 */
function sweepDeadClaims(): void {
  if (!createExclusive(SWEEP_LOCK)) {
    if (!heldByLiveProcess(SWEEP_LOCK)) rmSync(SWEEP_LOCK, { force: true });
    return;
  }
  try {
    for (const name of readdirSync(CLAIMS)) {
      if (!/^\d+$/.test(name) || mine.has(Number(name))) continue;
      const file = join(CLAIMS, name);
      if (!heldByLiveProcess(file)) rmSync(file, { force: true });
    }
  } finally {
    rmSync(SWEEP_LOCK, { force: true });
  }
}

/** Claims `port` for this process: false when another process holds a claim on it. */
function claim(port: number): boolean {
  if (!swept) {
    mkdirSync(CLAIMS, { recursive: true, mode: 0o700 });
    sweepDeadClaims();
    swept = true;
  }
  return createExclusive(join(CLAIMS, String(port)));
}

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => {
      const udp = createSocket('udp4');
      udp.once('error', () => {
        try {
          udp.close();
        } catch {
          // not running
        }
        server.close(() => resolve(false));
      });
      udp.bind({ port, address: '0.0.0.0', exclusive: true }, () => udp.close(() => server.close(() => resolve(true))));
    });
  });

/** `count` distinct ports free now as TCP and UDP on every address, never handed out before to a live process. */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let tries = 0; ports.length < count; tries++) {
    if (tries > 10_000) throw new Error(`no free port left between ${FIRST} and ${LAST} (claims under ${CLAIMS})`);
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    if (mine.has(port) || !claim(port)) continue;
    mine.add(port);
    if (await bindable(port)) ports.push(port);
  }
  return ports;
}

/** One port, as `freePorts`. */
export const freePort = async (): Promise<number> => (await freePorts(1))[0]!;
