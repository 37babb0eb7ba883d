/**
 * A TCP proxy in front of a real server, so a test can make that server stop answering (`hang`), go away (`down`)
 * and come back (`resume`, `up`) without touching the server other test files share.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type TcpProxy = {
  port: number;
  /** Holds every byte clients send (the connection stays open, nothing is answered) until `resume`. */
  hang: () => void;
  resume: () => void;
  /** Cuts every connection and stops listening: connections are refused. Ends a hang. */
  down: () => Promise<void>;
  /** Listens again on the same port. */
  up: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let hung = false;
  let server: Server | undefined;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target);
        const pair = { client, upstream };
        pairs.add(pair);
        const drop = () => {
          pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        upstream.pipe(client);
        if (!hung) client.pipe(upstream);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        server = next;
        resolve((next.address() as AddressInfo).port);
      });
    });

  const port = await listen(0);
  const down = async () => {
    const closing = server;
    server = undefined;
    // The server that comes back answers.
    hung = false;
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  return {
    port,
    hang: () => {
      hung = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        client.pause();
      }
    },
    resume: () => {
      hung = false;
      for (const { client, upstream } of pairs) client.pipe(upstream);
    },
    down,
    up: async () => {
      await listen(port);
    },
    close: down,
  };
}
