/**
 * A real local HTTP receiver for webhook tests: keeps every request (method, path, headers, raw body, arrival time)
 * and answers what the test asks for (a status per request, or hanging).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './wait.ts';

export type Received = { path: string; headers: IncomingHttpHeaders; raw: string; body: any; at: number };

export type Receiver = {
  url: string;
  received: Received[];
  /** Answers for the coming requests, in order: a status, or 'hang' (no answer); then 200. */
  answers: (number | 'hang')[];
  /** Waits until `count` requests have arrived. */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: (number | 'hang')[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      received.push({ path: request.url ?? '', headers: request.headers, raw, body, at: Date.now() });
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') return;
      if (answer >= 300 && answer < 400) response.setHeader('Location', '/elsewhere');
      response.statusCode = answer;
      response.end(answer >= 400 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    waitFor: async (count, timeoutMs = 15_000) => {
      await until(async () => received.length >= count, `${count} webhook requests (got ${received.length})`, timeoutMs);
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
