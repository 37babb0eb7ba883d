/**
 * Everything live in one process: the relay of live-only events (console lines, stats), the console history and the
 * Socket.IO server that the `/live` namespace (api/live/) uses. With REDIS_URL the Socket.IO server uses
 * `@socket.io/redis-adapter` (rooms and broadcasts span every web and orchestrator process), the relay carries live
 * events over Redis channels (redisRelay.ts), and the console history is a Redis list per server; without it, all of it lives in this process (one process serves everything).
 *
 * Redis may go away: publishing then reaches this process's viewers only (the adapter's publish failures are caught
 * here instead of ending the process), the history misses lines, and both recover when Redis is back.
 */
import { Server as SocketIoServer } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { RedisClientType } from 'redis';
import type { Logger } from '../../schema/logger.ts';
import { connectRedis, endRedis, withoutCommandTimeout } from './redisClient.ts';
import { createMemoryHistory, createRedisHistory, type ConsoleHistory } from './consoleHistory.ts';
import { createLocalRelay, type LiveRelay } from './relay.ts';
import { createRedisRelay } from './redisRelay.ts';

export const LIVE_NAMESPACE = '/live';

export type Live = { relay: LiveRelay; history: ConsoleHistory; io: SocketIoServer; close: () => Promise<void> };

/**
 * The client with `methods` that never reject: the adapter calls publish and (un)subscribe without handling their
 * promises, and a rejection (Redis down, the client ended at shutdown) would otherwise be unhandled and end the process.
 */
function guarded(client: RedisClientType, methods: readonly string[], onError: (error: unknown) => void): RedisClientType {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      if (typeof property !== 'string' || !methods.includes(property)) return method;
      return (...args: unknown[]) => {
        try {
          const result = method(...args);
          return result instanceof Promise ? result.catch((error: unknown) => onError(error)) : result;
        } catch (error) {
          onError(error);
          return undefined;
        }
      };
    },
  });
}

/** Closes the Socket.IO server; one never attached to an HTTP server (no API role here) has no engine to close. */
async function closeIo(io: SocketIoServer): Promise<void> {
  if ((io as { engine?: unknown }).engine) {
    await new Promise<void>((resolve) => void io.close(() => resolve()));
    return;
  }
  await Promise.allSettled([...io._nsps.values()].map(async (namespace) => namespace.adapter.close()));
}

export async function createLive(options: {
  redisUrl: string | undefined;
  redisPrefix?: string;
  logger: Logger;
  /** Origins of browser apps on other origins allowed to connect (CORS_ORIGINS; `*`: any). */
  corsOrigins?: readonly string[];
}): Promise<Live> {
  const logger = options.logger.child({ component: 'live' });
  const origins = options.corsOrigins ?? [];
  const io = new SocketIoServer({
    serveClient: false,
    ...(origins.length > 0 ? { cors: { origin: origins.includes('*') ? '*' : [...origins], methods: ['GET', 'POST'] } } : {}),
  });
  const live = (relay: LiveRelay, history: ConsoleHistory, clients: RedisClientType[] = []): Live => ({
    relay,
    history,
    io,
    async close() {
      await relay.close();
      await history.close();
      await closeIo(io);
      await Promise.all(clients.map(endRedis));
    },
  });
  if (!options.redisUrl) return live(createLocalRelay(), createMemoryHistory());
  const prefix = options.redisPrefix ?? 'gsm:';
  let failing = false;
  const onError = (error: unknown) => {
    if (!failing) logger.warn({ err: error }, 'live events could not reach the other processes (Redis); local viewers still get them');
    failing = true;
    setTimeout(() => (failing = false), 10_000).unref();
  };
  const pub = await connectRedis(options.redisUrl, logger, 'live-pub');
  const sub = await connectRedis(options.redisUrl, logger, 'live-sub', { queueOffline: true });
  const publisher = guarded(withoutCommandTimeout(pub), ['publish'], onError);
  const subscriber = guarded(sub, ['subscribe', 'pSubscribe', 'unsubscribe', 'pUnsubscribe'], onError);
  io.adapter(createAdapter(publisher, subscriber, { key: `${prefix}socket.io` }));
  return live(
    createRedisRelay({ pub: publisher, sub: subscriber, prefix, namespace: io.of(LIVE_NAMESPACE), onError }),
    createRedisHistory(pub, { prefix, logger }),
    [pub, sub],
  );
}
