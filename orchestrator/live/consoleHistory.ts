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
import { withTimeout } from '../../schema/timeouts.ts';
import type { ConsoleBatch, SequencedLine } from './relay.ts';

export const HISTORY_LINES = 1_000;
/** A server silent this long has its history dropped from Redis (a deleted server's key goes away by itself). */
const HISTORY_TTL_SECONDS = 7 * 24 * 3600;

export type ConsoleHistory = {
  append: (batch: ConsoleBatch) => void;
  /** The last `n` lines (at most HISTORY_LINES), oldest first. */
  recent: (serverId: string, n: number) => Promise<SequencedLine[]>;
  /** Every kept line after sequence `after`, oldest first (a resume). */
  since: (serverId: string, after: number) => Promise<Resumed>;
  close: () => Promise<void>;
};

/** `gap`: lines after `after` were numbered but are no longer kept (the history holds the last HISTORY_LINES). */
export type Resumed = { lines: SequencedLine[]; gap: boolean };

/** The lines of a batch, each with its own sequence (at most the last HISTORY_LINES). */
const sequenced = (batch: ConsoleBatch): SequencedLine[] => {
  const from = Math.max(0, batch.lines.length - HISTORY_LINES);
  return batch.lines.slice(from).map((line, index) => ({ at: line.at, line: line.line, seq: batch.seq + from + index }));
};

/** The lines of a kept history after `after`; lines kept before sequences existed count as 0. */
function linesAfter(kept: SequencedLine[], after: number): Resumed {
  let first = kept.length;
  while (first > 0 && (kept[first - 1]!.seq ?? 0) > after) first -= 1;
  // A full history whose oldest line is already past `after` has let go of the lines between.
  const gap = first === 0 && kept.length >= HISTORY_LINES && (kept[0]!.seq ?? 0) > after + 1;
  return { lines: kept.slice(first), gap };
}

export function createMemoryHistory(): ConsoleHistory {
  const byServer = new Map<string, SequencedLine[]>();
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
    append(batch) {
      const serverId = batch.serverId;
      lastAppend.set(serverId, Date.now());
      let kept = byServer.get(serverId);
      if (!kept) byServer.set(serverId, (kept = []));
      kept.push(...sequenced(batch));
      // Trimmed in steps, not per line: the array stays within 1.25 × HISTORY_LINES.
      if (kept.length > HISTORY_LINES * 1.25) kept.splice(0, kept.length - HISTORY_LINES);
    },
    recent: async (serverId, n) => (byServer.get(serverId) ?? []).slice(-Math.min(n, HISTORY_LINES)),
    since: async (serverId, after) => linesAfter((byServer.get(serverId) ?? []).slice(-HISTORY_LINES), after),
    close: async () => {
      clearInterval(pruner);
      byServer.clear();
    },
  };
}

/**
 * How long a read of the history waits for Redis's answer. node-redis bounds only the wait before a command is written:
 * with Redis stalled and its connection still up (a paused process, a hung proxy), an answer would be awaited until
 * the connection breaks, and the request with it.
 */
export const HISTORY_READ_TIMEOUT_MS = 3_000;

export function createRedisHistory(client: RedisClientType, options: { prefix: string; logger: Logger; readTimeoutMs?: number }): ConsoleHistory {
  const key = (serverId: string) => `${options.prefix}console:${serverId}`;
  const readTimeoutMs = options.readTimeoutMs ?? HISTORY_READ_TIMEOUT_MS;
  let failing = false;
  const read = async (serverId: string, n: number): Promise<SequencedLine[]> => {
    const values = await withTimeout(client.lRange(key(serverId), -Math.min(n, HISTORY_LINES), -1), readTimeoutMs, 'the Redis read').catch((error: unknown) => {
      options.logger.warn({ err: error }, 'could not read console history from Redis');
      throw serviceUnavailable('The console history is unavailable right now (Redis cannot be reached); live lines still arrive');
    });
    return values.flatMap((value) => {
      try {
        const line = JSON.parse(value) as SequencedLine;
        return [{ at: line.at, line: line.line, seq: line.seq ?? 0 }];
      } catch {
        return [];
      }
    });
  };
  return {
    append(batch) {
      const serverId = batch.serverId;
      if (!client.isReady) return;
      const values = sequenced(batch).map((line) => JSON.stringify(line));
      // A pipeline, not a transaction: the connection refuses commands past its bound (redisClient.ts), and a MULTI
      // let in without its EXEC would hold every later command of the connection in a transaction that never ends. A
      // reader between the push and the trim sees a few more lines than kept, which it cuts.
      client
        .multi()
        .rPush(key(serverId), values)
        .lTrim(key(serverId), -HISTORY_LINES, -1)
        .expire(key(serverId), HISTORY_TTL_SECONDS)
        .execAsPipeline()
        .then(
          () => void (failing = false),
          (error: unknown) => {
            if (!failing) options.logger.warn({ err: error }, 'could not keep console history in Redis; live viewers still get the lines');
            failing = true;
          },
        );
    },
    recent: (serverId, n) => read(serverId, n),
    since: async (serverId, after) => linesAfter(await read(serverId, HISTORY_LINES), after),
    close: async () => undefined,
  };
}
