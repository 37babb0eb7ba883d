/**
 * What the gateway does with a server's console output and stats (docs/events.md, "Live console"): console lines are
 * throttled per server (at most MAX_LINES_PER_SECOND relayed; past that they are counted and dropped, and one marker
 * line `[gsm] N lines dropped` is relayed when the second is over), kept in the console history, and published as
 * `server.console` live events; stats are published as `server.stats` and the latest sample of each server is written
 * on its record at most every STATS_WRITE_MS, all servers in one statement.
 *
 * Everything here is synchronous and bounded: a flooding server costs a counter increment per dropped line and never
 * queues work, so it cannot slow the frames of other servers or delay its own status reports.
 */
import { sql } from 'slonik';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import { storableText } from '../../schema/storable.ts';
import type { ConsoleHistory } from './consoleHistory.ts';
import type { ConsoleLine, LiveRelay } from './relay.ts';

export const MAX_LINES_PER_SECOND = 5_000;
/**
 * Console sequences count from the clock: the first line of a batch is numbered max(the last line's + 1, now in ms ×
 * SEQUENCES_PER_MS). At most MAX_LINES_PER_SECOND lines a second are numbered, far fewer than the clock's million, so
 * the numbers stay within a millisecond of the clock: a restarted process, or another one the agent reconnects to,
 * numbers on above every line numbered before it (given clocks kept in step, as NTP does), with nothing stored.
 */
export const SEQUENCES_PER_MS = 1_000;
const WINDOW_MS = 1_000;
/** How often the latest stats samples are written to the servers' records. */
export const STATS_WRITE_MS = 5_000;

type Window = { clusterId: string; startedAt: number; relayed: number; dropped: number };

export type LiveConsole = {
  console: (clusterId: string, serverId: string, lines: string[], at: string) => void;
  stats: (
    clusterId: string,
    sample: { serverId: string; cpuPercent: number; memoryBytes: number; playersOnline?: number; diskBytes?: number; at: string },
  ) => void;
  /** Totals since start (tests, benchmarks). */
  counters: () => { relayed: number; dropped: number };
  close: () => Promise<void>;
};

export function createLiveConsole(options: {
  relay: LiveRelay;
  history: ConsoleHistory;
  pool: DatabasePool;
  logger: Logger;
  now?: () => number;
  maxLinesPerSecond?: number;
}): LiveConsole {
  const now = options.now ?? Date.now;
  const limit = options.maxLinesPerSecond ?? MAX_LINES_PER_SECOND;
  const windows = new Map<string, Window>();
  /** The next sequence of each server whose numbering ran ahead of the clock (entries go once the clock passes them). */
  const nextSequence = new Map<string, number>();
  const latestStats = new Map<string, { cpuPercent: number; memoryBytes: number; at: string }>();
  let relayed = 0;
  let dropped = 0;

  const emit = (clusterId: string, serverId: string, lines: ConsoleLine[]) => {
    if (lines.length === 0) return;
    relayed += lines.length;
    const seq = Math.max(nextSequence.get(serverId) ?? 0, now() * SEQUENCES_PER_MS);
    nextSequence.set(serverId, seq + lines.length);
    const batch = { serverId, lines, seq };
    // History first: a viewer that receives this batch and then reads the history finds it there (one Redis
    // connection carries both, in this order).
    options.history.append(batch);
    options.relay.publish({ type: 'server.console', clusterId, at: lines[lines.length - 1]!.at, data: batch });
  };
  const marker = (window: Window): ConsoleLine => ({ at: new Date(now()).toISOString(), line: `[gsm] ${window.dropped} lines dropped` });

  /** Closes windows whose second is over: their marker goes out even when the server has gone quiet. */
  const sweep = () => {
    const time = now();
    for (const [serverId, window] of windows) {
      if (time - window.startedAt < WINDOW_MS) continue;
      if (window.dropped > 0) emit(window.clusterId, serverId, [marker(window)]);
      windows.delete(serverId);
    }
    const clock = time * SEQUENCES_PER_MS;
    for (const [serverId, next] of nextSequence) if (next <= clock) nextSequence.delete(serverId);
  };
  const sweeper = setInterval(sweep, WINDOW_MS);
  sweeper.unref();

  const writeStats = async () => {
    if (latestStats.size === 0) return;
    const samples = [...latestStats.entries()];
    latestStats.clear();
    try {
      await options.pool.query(sql.unsafe`
        UPDATE servers s SET stats = v.stats, disk_bytes_measured = coalesce((v.stats ->> 'diskBytes')::bigint, s.disk_bytes_measured)
          FROM unnest(${sql.array(
            samples.map(([id]) => id),
            'uuid',
          )}::uuid[], ${sql.array(
            samples.map(([, sample]) => JSON.stringify(sample)),
            'text',
          )}::jsonb[]) AS v(id, stats)
         WHERE s.id = v.id`);
    } catch (error) {
      options.logger.warn({ err: error, servers: samples.length }, 'could not write server stats; the next samples will');
    }
  };
  let writing: Promise<void> = Promise.resolve();
  const statsTimer = setInterval(() => {
    writing = writing.then(writeStats);
  }, STATS_WRITE_MS);
  statsTimer.unref();

  return {
    console(clusterId, serverId, lines, at) {
      const time = now();
      let window = windows.get(serverId);
      if (window && time - window.startedAt >= WINDOW_MS) {
        if (window.dropped > 0) emit(clusterId, serverId, [marker(window)]);
        window = undefined;
      }
      if (!window) windows.set(serverId, (window = { clusterId, startedAt: time, relayed: 0, dropped: 0 }));
      const room = Math.max(0, limit - window.relayed);
      const taken = lines.length <= room ? lines : lines.slice(0, room);
      window.relayed += taken.length;
      window.dropped += lines.length - taken.length;
      dropped += lines.length - taken.length;
      const stamp = new Date(Date.parse(at) || time).toISOString();
      emit(
        clusterId,
        serverId,
        taken.map((line) => ({ at: stamp, line: storableText(line) })),
      );
    },
    stats(clusterId, sample) {
      const at = new Date(Date.parse(sample.at) || now()).toISOString();
      const figures = {
        cpuPercent: sample.cpuPercent,
        memoryBytes: sample.memoryBytes,
        ...(sample.diskBytes === undefined ? {} : { diskBytes: sample.diskBytes }),
        at,
      };
      latestStats.set(sample.serverId, figures);
      options.relay.publish({
        type: 'server.stats',
        clusterId,
        at,
        data: { serverId: sample.serverId, ...figures, playersOnline: sample.playersOnline ?? null },
      });
    },
    counters: () => ({ relayed, dropped }),
    async close() {
      clearInterval(sweeper);
      clearInterval(statsTimer);
      sweep();
      writing = writing.then(writeStats);
      await writing;
    },
  };
}
