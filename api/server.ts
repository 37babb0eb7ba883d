/**
 * The HTTP server around the Koa app, with a graceful close: stop accepting connections, let in-flight requests
 * finish (closing idle keep-alive connections at once), and cut what is still open after the timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export type HttpServer = { server: Server; port: number; close: (timeoutMs: number) => Promise<void> };

/** Keep-alive longer than common load balancers' idle timeout (60 s), so they never reuse a closed connection. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How often a closing server closes connections whose last request has finished. */
const IDLE_SWEEP_MS = 50;

export async function startHttpServer(koa: Koa, options: { port: number; host: string }): Promise<HttpServer> {
  const handle = koa.callback();
  // Koa answers and logs its own errors: the promise a request handler returns is not Node's to await.
  const server = createServer((request, response) => void handle(request, response));
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

  return {
    server,
    port,
    close: (timeoutMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        force.unref();
        // A keep-alive connection becomes idle when its in-flight request ends; close those as they appear, or they
        // would hold close() open until the keep-alive timeout.
        const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
