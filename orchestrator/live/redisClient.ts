/**
 * A Redis connection for live data (console history, the Socket.IO adapter): answers once connected or after
 * CONNECT_TIMEOUT_MS, whichever comes first, so a Redis that is down at start-up does not stop the service; it keeps
 * reconnecting in the background. While disconnected, commands fail at once unless `queueOffline` (see below).
 */
import { createClient, type RedisClientType } from 'redis';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../../schema/logger.ts';

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * Commands waiting to be written or answered, at most, per connection: past this (Redis stalled with the connection
 * still up) a command fails at once instead of queueing in memory.
 */
export const MAX_QUEUED_COMMANDS = 10_000;

/**
 * The client for publishing without node-redis's per-command timeout. That timeout covers only the wait before a
 * command is written, but it arms an `AbortSignal.timeout` that cannot be cleared: every publish, long answered, still
 * fired a timer and built a DOMException five seconds later (a tenth of the orchestrator's CPU relaying a busy
 * console). A publish that cannot be written is bounded by MAX_QUEUED_COMMANDS instead; reads keep the timeout.
 */
export const withoutCommandTimeout = (client: RedisClientType): RedisClientType => client.withCommandOptions({ timeout: 0 }) as RedisClientType;
const RECONNECT_MAX_MS = 5_000;

/**
 * `queueOffline`: commands wait for the connection instead of failing. A subscriber needs it (its subscriptions,
 * made once, must take effect when Redis comes back); a publisher must not (publishes would pile up in memory).
 */
export async function connectRedis(url: string, logger: Logger, name: string, options: { queueOffline?: boolean } = {}): Promise<RedisClientType> {
  const client: RedisClientType = createClient({
    url,
    disableOfflineQueue: !options.queueOffline,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, RECONNECT_MAX_MS) },
  });
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    logger.warn({ err: error, redis: name }, 'Redis connection lost; retrying');
  });
  client.on('ready', () => {
    if (down) logger.info({ redis: name }, 'Redis connection back');
    down = false;
  });
  const connected = client.connect().then(
    () => undefined,
    () => undefined,
  );
  await Promise.race([connected, delay(CONNECT_TIMEOUT_MS, undefined, { ref: false })]);
  return client;
}

/** Ends a client at once, whether connected, reconnecting or never connected (a graceful close would wait on Redis). */
export async function endRedis(client: RedisClientType): Promise<void> {
  if (client.isReady) await client.close().catch(() => client.destroy());
  else if (client.isOpen) client.destroy();
}
