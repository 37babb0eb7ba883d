/** The fallback query: the port accepts a TCP connection (LinuxGSM's last resort). Nothing but the latency is known. */
import { connect } from 'node:net';
import { describe } from './minecraft.ts';
import { guard, QueryError, type QueryAnswer } from './types.ts';

export function queryTcp(host: string, port: number, timeoutMs: number): Promise<QueryAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ host, port });
    const finish = (error: Error | null) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else
        resolve({
          players: null,
          playerNames: null,
          maxPlayers: null,
          map: null,
          version: null,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
        });
    };
    const timer = setTimeout(() => finish(new QueryError('no answer (timed out)')), timeoutMs);
    socket.once(
      'connect',
      guard(finish, () => finish(null)),
    );
    socket.once('error', (error: NodeJS.ErrnoException) => finish(new QueryError(describe(error))));
  });
}
