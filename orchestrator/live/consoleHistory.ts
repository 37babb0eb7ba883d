/**
 * The recent console of every server: its last HISTORY_LINES lines, what a viewer sees first when opening the console
 * (`GET /api/v1/servers/<id>/console`, a `/live` console subscription). With REDIS_URL it is a Redis list per server,
 * so any API process reads what the orchestrator process holding the agent wrote; without, it is kept in this
 * process's memory (a single-process installation).
 *
 * Writing never waits and never fails the gateway: while Redis is away, lines still reach live viewers and only the
 * history misses them.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../schema/logger.ts';
import { serviceUnavailable } from '../../schema/errors.ts';
import type { ConsoleLine } from './relay.ts';

export const HISTORY_LINES = 1_000;
/** A server silent this long has its history dropped from Redis (a deleted server's key goes away by itself). */
const HISTORY_TTL_SECONDS = 7 * 24 * 3600;

export type ConsoleHistory = {
  append: (serverId: string, lines: ConsoleLine[]) => void;
  /** The last `n` lines (at most HISTORY_LINES), oldest first. */
  recent: (serverId: string, n: number) => Promise<ConsoleLine[]>;
  close: () => Promise<void>;
};

export function createMemoryHistory(): ConsoleHistory {
  const byServer = new Map<string, ConsoleLine[]>();
  const lastAppend = new Map<string, number>();
  // As the Redis keys expire: a server silent for HISTORY_TTL_SECONDS (a deleted one, for instance) is forgotten.
  const pruner = setInterval(() => {
    const cutoff = Date.now() - HISTORY_TTL_SECONDS * 1000;
    for (const [serverId, at] of lastAppend)
      if (at < cutoff) {
        lastAppend.delete(serverId);
        byServer.delete(serverId);
      }
  }, 3_600_000);
  pruner.unref();
  return {
    append(serverId, lines) {
      lastAppend.set(serverId, Date.now());
      let kept = byServer.get(serverId);
      if (!kept) byServer.set(serverId, (kept = []));
      kept.push(...lines.slice(-HISTORY_LINES));
      // Trimmed in steps, not per line: the array stays within 1.25 × HISTORY_LINES.
      if (kept.length > HISTORY_LINES * 1.25) kept.splice(0, kept.length - HISTORY_LINES);
    },
    recent: async (serverId, n) => (byServer.get(serverId) ?? []).slice(-Math.min(n, HISTORY_LINES)),
    close: async () => {
      clearInterval(pruner);
      byServer.clear();
    },
  };
}

export function createRedisHistory(client: RedisClientType, options: { prefix: string; logger: Logger }): ConsoleHistory {
  const key = (serverId: string) => `${options.prefix}console:${serverId}`;
  let failing = false;
  return {
    append(serverId, lines) {
      if (!client.isReady) return;
      const values = lines.slice(-HISTORY_LINES).map((line) => JSON.stringify(line));
      client
        .multi()
        .rPush(key(serverId), values)
        .lTrim(key(serverId), -HISTORY_LINES, -1)
        .expire(key(serverId), HISTORY_TTL_SECONDS)
        .exec()
        .then(
          () => void (failing = false),
          (error: unknown) => {
            if (!failing) options.logger.warn({ err: error }, 'could not keep console history in Redis; live viewers still get the lines');
            failing = true;
          },
        );
    },
    async recent(serverId, n) {
      const values = await client.lRange(key(serverId), -Math.min(n, HISTORY_LINES), -1).catch((error: unknown) => {
        options.logger.warn({ err: error }, 'could not read console history from Redis');
        throw serviceUnavailable('The console history is unavailable right now (Redis cannot be reached); live lines still arrive');
      });
      return values.flatMap((value) => {
        try {
          return [JSON.parse(value) as ConsoleLine];
        } catch {
          return [];
        }
      });
    },
    close: async () => undefined,
  };
}
