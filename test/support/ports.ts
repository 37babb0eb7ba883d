/**
 * Ports for the tests' game servers, agents and listeners that must be named before they are bound.
 *
 * Asking the kernel for port 0 and releasing it hands out a port from the ephemeral range, which the kernel gives to
 * the next outgoing connection (the tests open thousands: Postgres, Redis, HTTP) or to another test file running at
 * the same time; a game started on it then fails with PORT_IN_USE, now and then. So a port here is taken below the
 * ephemeral range, is bindable on every address as both TCP and UDP (a game's query answers on UDP), and is claimed
 * for this process with a file under the system's temporary folder, so two test files running at once never get the
 * same one. A claim whose process has exited is taken over.
 */
import { createSocket } from 'node:dgram';
import { mkdirSync, openSync, closeSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../sql/embedded.ts';

const FIRST = 20_000;
const LAST = 32_000; // Linux's ephemeral range starts at 32768 (ip_local_port_range)
const CLAIMS = join(tmpdir(), 'gsm-test-ports');
const mine = new Set<number>();
process.once('exit', () => {
  for (const port of mine) rmSync(join(CLAIMS, String(port)), { force: true });
});

/** Claims `port` for this process: false when a live process holds its claim. */
function claim(port: number): boolean {
  mkdirSync(CLAIMS, { recursive: true });
  const file = join(CLAIMS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch {
      let holder: number;
      try {
        holder = Number(readFileSync(file, 'utf8'));
      } catch {
        continue; // removed meanwhile: try again
      }
      // A claim being written reads empty: its writer is alive.
      if (!Number.isInteger(holder) || holder <= 0 || isAlive(holder)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => {
      const udp = createSocket('udp4');
      udp.once('error', () => server.close(() => resolve(false)));
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
