/**
 * A balancing TCP proxy, as a load balancer in front of several web processes does it: each client connection goes to
 * the next backend in turn. A backend that refuses the connection, or drops it before answering a single byte, is
 * skipped for the next one, and what the client sent so far is sent there instead, so the client never sees it. This
 * is what nginx does by default (`proxy_next_upstream error`) and HAProxy with `retry-on conn-failure empty-response`:
 * a process that closes its listening socket refuses new connections, and the kernel resets the few it had queued but
 * not yet accepted (the process never read them).
 */
import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export type Balancer = {
  port: number;
  /**
   * Connections each backend answered (by index); connections a backend refused or dropped before answering, tried
   * again on another (`retried`, and why: `refused`, `reset`); connections that found no backend (`failed`).
   */
  counts: { connected: number[]; retried: number; refused: number; reset: number; failed: number };
  /** The backend (index) the next client connection goes to first. */
  nextBackend: () => number;
  close: () => Promise<void>;
};

/** Rounds over every backend before a client connection is given up; a pause between rounds. */
const ROUNDS = 3;
const ROUND_PAUSE_MS = 100;

export async function startBalancer(backends: { host: string; port: number }[]): Promise<Balancer> {
  const counts = { connected: backends.map(() => 0), retried: 0, refused: 0, reset: 0, failed: 0 };
  const open = new Set<Socket>();
  let next = 0;

  const server = createServer((client) => {
    open.add(client);
    // What the client sent before a backend answered: sent again to the next backend if this one drops it.
    const sent: Buffer[] = [];
    let clientEnded = false;
    let upstream: Socket | undefined;
    /** The upstream once connected: bytes go straight to it (before, they wait in `sent`). */
    let linked: Socket | undefined;
    let answered = false;
    client.on('data', (chunk: Buffer) => {
      if (!answered) sent.push(chunk);
      linked?.write(chunk);
    });
    client.on('end', () => {
      clientEnded = true;
      linked?.end();
    });
    client.on('error', () => client.destroy());
    client.on('close', () => {
      open.delete(client);
      upstream?.destroy();
    });

    const attempt = (index: number, tries: number) => {
      if (client.destroyed) return;
      const socket = connect(backends[index]!);
      upstream = socket;
      open.add(socket);
      let connected = false;
      const retry = (why: 'refused' | 'reset') => {
        socket.destroy();
        open.delete(socket);
        if (upstream === socket) upstream = linked = undefined;
        if (tries + 1 >= backends.length * ROUNDS) {
          counts.failed++;
          return client.destroy();
        }
        counts.retried++;
        counts[why]++;
        const nextIndex = (index + 1) % backends.length;
        const pause = (tries + 1) % backends.length === 0 ? ROUND_PAUSE_MS : 0;
        setTimeout(() => attempt(nextIndex, tries + 1), pause);
      };
      socket.on('connect', () => {
        connected = true;
        linked = socket;
        for (const chunk of sent) socket.write(chunk);
        if (clientEnded) socket.end();
      });
      socket.on('data', (chunk: Buffer) => {
        if (!answered) {
          answered = true;
          sent.length = 0;
          counts.connected[index]!++;
        }
        client.write(chunk);
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return client.destroy();
        retry(!connected && error.code === 'ECONNREFUSED' ? 'refused' : 'reset');
      });
      socket.on('close', () => {
        open.delete(socket);
        if (upstream !== socket) return;
        if (answered) client.end();
        else if (!socket.errored) retry('reset');
      });
    };
    attempt(next++ % backends.length, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    counts,
    nextBackend: () => next % backends.length,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Answer = { status: number; body: any; ms: number };

/** One request on a connection of its own (`Connection: close`), as a client behind a TCP balancer makes it. */
export function call(port: number, method: string, path: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const text = payload === undefined ? undefined : JSON.stringify(payload);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          let body: unknown = raw;
          try {
            body = JSON.parse(raw);
          } catch {
            // not JSON: kept as text for the failure message
          }
          resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
