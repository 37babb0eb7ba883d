/**
 * The HTTP server around the Koa app, with a graceful close: stop accepting connections, let in-flight requests
 * finish (closing idle keep-alive connections at once, and each other one once its request is answered), and cut what
 * is still open after the timeout.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import type Koa from 'koa';

export type HttpServer = {
  server: Server;
  port: number;
  /**
   * Stops accepting connections (a balancer then meets a refused connection and tries another process) and answers
   * every later request with `Connection: close`, so no client reuses a connection to a process that is going away.
   */
  stopAccepting: () => void;
  /** Stops accepting (if not yet), lets in-flight requests finish, and cuts what is still open after `timeoutMs`. */
  close: (timeoutMs: number) => Promise<void>;
};

/** Keep-alive longer than common load balancers' idle timeout (60 s), so they never reuse a closed connection. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Answers a request itself before Koa sees it (true), or leaves it to Koa (false). */
export type RequestShortcut = (request: IncomingMessage, response: ServerResponse) => boolean;

/** What the server runs: a Koa app, and what is answered ahead of it (createApp's `probe`: GET /healthz). */
export type HttpApp = { koa: Koa; probe?: RequestShortcut | undefined };

/**
 * Whether `shortcut` answered the request. One that throws before answering leaves it to Koa (which answers it as any
 * other request); one that throws halfway through its answer is cut off, and one that throws after answering in full
 * is left as it is: an exception must not escape the server's request listener, where it would end the process.
 */
function answeredAhead(shortcut: RequestShortcut | undefined, request: IncomingMessage, response: ServerResponse): boolean {
  if (!shortcut) return false;
  try {
    return shortcut(request, response);
  } catch {
    if (response.writableEnded) return true; // answered in full: what failed came after (its metrics or log line)
    if (!response.headersSent) return false;
    response.destroy();
    return true;
  }
}

export async function startHttpServer({ koa, probe }: HttpApp, options: { port: number; host: string }): Promise<HttpServer> {
  const handle = koa.callback();
  let draining = false;
  // Per connection: requests in flight and requests answered. A connection that has answered a request and has none in
  // flight is an idle keep-alive one, closed at once when draining; a connection that has not sent its first request
  // yet is left to send it (it was accepted before the listener closed: closing it would fail the request its client
  // is sending), and that request is answered with `Connection: close`.
  const connections = new Map<Socket, { active: number; served: number }>();
  const closeIfIdle = (socket: Socket) => {
    const state = connections.get(socket);
    if (state && state.active === 0 && state.served > 0) socket.end();
  };
  const server = createServer((request, response) => {
    const socket = request.socket;
    const state = connections.get(socket);
    if (state) state.active++;
    if (draining) response.setHeader('Connection', 'close');
    response.once('close', () => {
      if (state) {
        state.active--;
        state.served++;
      }
      if (draining) closeIfIdle(socket);
    });
    // Koa answers and logs its own errors: the promise a request handler returns is not Node's to await.
    if (!answeredAhead(probe, request, response)) void handle(request, response);
  });
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, served: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closed: Promise<void> | undefined;
  const stopAccepting = () => {
    if (closed) return;
    draining = true;
    // net.Server's close, not http.Server's: the latter also closes every connection without a request in flight,
    // including those just accepted whose first request is on its way.
    closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    for (const socket of connections.keys()) closeIfIdle(socket);
  };

  return {
    server,
    port,
    stopAccepting,
    close: async (timeoutMs) => {
      stopAccepting();
      const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
      force.unref();
      try {
        await closed;
      } finally {
        clearTimeout(force);
      }
    },
  };
}
