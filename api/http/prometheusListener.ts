/**
 * Prometheus metrics on their own listener (docs/operations.md, "Health and metrics"): METRICS_LISTEN, loopback by
 * default, so the figures are not served on the API port that users (and everyone else) reach. With METRICS_TOKEN a
 * scrape must carry `Authorization: Bearer <METRICS_TOKEN>`, here and on the API port's `/metrics`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { statusName } from '../../schema/errors.ts';
import type { Logger } from '../../schema/logger.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `token` as its bearer token (compared in constant time). */
export function metricsTokenMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

export type MetricsListener = { host: string; port: number; close: () => Promise<void> };

const answerError = (response: ServerResponse, statusCode: number, message: string, headers: Record<string, string> = {}) => {
  response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify({ statusCode, message, error: statusName(statusCode) }));
};

export class MetricsListenError extends Error {
  override name = 'MetricsListenError';
}

export async function startMetricsListener(options: {
  registry: Registry;
  host: string;
  port: number;
  token?: string;
  logger: Logger;
}): Promise<MetricsListener> {
  const { registry, token, logger } = options;
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return answerError(response, 404, 'Only /metrics is served here');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answerError(response, 405, 'Use GET', { allow: 'GET, HEAD' });
    if (token && !metricsTokenMatches(request.headers.authorization, token))
      return answerError(response, 401, 'Authorization: Bearer <METRICS_TOKEN> is required', { 'www-authenticate': 'Bearer' });
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'metrics could not be read');
        answerError(response, 503, 'Metrics unavailable; try again');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new MetricsListenError(
          `METRICS_LISTEN ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the address is in use (give each process on this host its own port, or off)' : error.message}`,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    host: options.host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
