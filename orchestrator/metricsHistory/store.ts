/**
 * Metrics history (docs/metrics.md). The gateway adds every `server:stats` and heartbeat to per-minute sums and
 * maxima in memory and writes them every minute in one statement per table (a point written by several gateways, or
 * by several flushes of one minute, merges: sums add, maxima take the greatest). Points are timed by the service's
 * clock when the report arrives, never the agent's. The orchestrator's maintenance (every minute) keeps partitions
 * ahead, rolls completed hours up into hourly points and drops partitions past the retention.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { Logger } from '../../schema/logger.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { repeatEvery, type Repeating } from '../periodicWork.ts';

/** How often the gateway writes: each point then carries about six samples per server (stats every 10 s). */
const FLUSH_MS = 60_000;
/** CPU above this (1,024 cores at 100 %) is a broken report: clamped, so one agent cannot fail another's points. */
const CPU_MAX = 102_400;

type Point = { samples: number; cpuSum: number; cpuMax: number; memorySum: number; memoryMax: number; thirdSum: number; thirdMax: number };

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

function add(points: Map<string, Point>, key: string, cpu: number, memory: number, third: number): void {
  const point = points.get(key);
  const cpuValue = Math.min(Math.max(cpu, 0), CPU_MAX);
  if (!point) {
    points.set(key, { samples: 1, cpuSum: cpuValue, cpuMax: cpuValue, memorySum: memory, memoryMax: memory, thirdSum: third, thirdMax: third });
    return;
  }
  point.samples += 1;
  point.cpuSum += cpuValue;
  point.cpuMax = Math.max(point.cpuMax, cpuValue);
  point.memorySum += memory;
  point.memoryMax = Math.max(point.memoryMax, memory);
  point.thirdSum += third;
  point.thirdMax = Math.max(point.thirdMax, third);
}

function merge(into: Map<string, Point>, from: Map<string, Point>): void {
  for (const [key, point] of from) {
    const existing = into.get(key);
    if (!existing) into.set(key, point);
    else {
      existing.samples += point.samples;
      existing.cpuSum += point.cpuSum;
      existing.cpuMax = Math.max(existing.cpuMax, point.cpuMax);
      existing.memorySum += point.memorySum;
      existing.memoryMax = Math.max(existing.memoryMax, point.memoryMax);
      existing.thirdSum += point.thirdSum;
      existing.thirdMax = Math.max(existing.thirdMax, point.thirdMax);
    }
  }
}

/** What differs between the server and the machine tables: the owner and the third figure (players, disk). */
const KINDS = {
  server: {
    minute: 'server_metrics_minute',
    hour: 'server_metrics_hour',
    id: 'server_id',
    owners: 'servers',
    thirdSum: 'players_sum',
    thirdMax: 'players_max',
    thirdMaxType: 'int4',
  },
  machine: {
    minute: 'machine_metrics_minute',
    hour: 'machine_metrics_hour',
    id: 'machine_id',
    owners: 'machines',
    thirdSum: 'disk_sum',
    thirdMax: 'disk_max',
    thirdMaxType: 'int8',
  },
} as const;
type Kind = keyof typeof KINDS;

const name = (identifier: string) => sql.identifier([identifier]);
/** The columns of a point table, in order. */
const columnsOf = (kind: Kind) => {
  const spec = KINDS[kind];
  return ['at', 'samples', 'cpu_sum', 'cpu_max', 'memory_sum', 'memory_max', spec.thirdSum, spec.thirdMax].reduce(
    (list, column) => sql.fragment`${list}, ${name(column)}`,
    sql.fragment`${name(spec.id)}`,
  );
};
/** On a second write of a point: sums add, maxima take the greatest (`merge`), or the new values replace (`replace`). */
const onConflict = (kind: Kind, how: 'merge' | 'replace') => {
  const spec = KINDS[kind];
  const sums = ['samples', 'cpu_sum', 'memory_sum', spec.thirdSum].map((column) =>
    how === 'merge' ? sql.fragment`${name(column)} = t.${name(column)} + EXCLUDED.${name(column)}` : sql.fragment`${name(column)} = EXCLUDED.${name(column)}`,
  );
  const maxima = ['cpu_max', 'memory_max', spec.thirdMax].map((column) =>
    how === 'merge'
      ? sql.fragment`${name(column)} = greatest(t.${name(column)}, EXCLUDED.${name(column)})`
      : sql.fragment`${name(column)} = EXCLUDED.${name(column)}`,
  );
  return sql.fragment`ON CONFLICT (${name(spec.id)}, at) DO UPDATE SET ${sql.join([...sums, ...maxima], sql.fragment`, `)}`;
};

/** One multi-row upsert of `points` (key `<id>|<minute ms>`) into a minute table, for owners that still exist. */
function upsert(connection: CommonQueryMethods, kind: Kind, points: [string, Point][]) {
  const spec = KINDS[kind];
  const column = (pick: (point: Point) => number) => points.map(([, point]) => pick(point));
  const arrays = [
    sql.array(
      points.map(([key]) => key.slice(0, 36)),
      'uuid',
    ),
    sql.array(
      points.map(([key]) => new Date(Number(key.slice(37))).toISOString()),
      'timestamptz',
    ),
    sql.array(
      column((p) => p.samples),
      'int4',
    ),
    sql.array(
      column((p) => p.cpuSum),
      'float8',
    ),
    sql.array(
      column((p) => p.cpuMax),
      'float4',
    ),
    sql.array(
      column((p) => p.memorySum),
      'float8',
    ),
    sql.array(
      column((p) => Math.round(p.memoryMax)),
      'int8',
    ),
    sql.array(
      column((p) => p.thirdSum),
      'float8',
    ),
    sql.array(
      column((p) => Math.round(p.thirdMax)),
      spec.thirdMaxType,
    ),
  ];
  return connection.query(sql.unsafe`
    INSERT INTO ${name(spec.minute)} AS t (${columnsOf(kind)})
    SELECT v.* FROM unnest(${sql.join(arrays, sql.fragment`, `)}) v (${columnsOf(kind)})
      JOIN ${name(spec.owners)} o ON o.id = v.${name(spec.id)}
    ${onConflict(kind, 'merge')}`);
}

/** The hour starting at `at` of one kind's minute points, as hourly points (written again if they were). */
const rollUp = (connection: CommonQueryMethods, kind: Kind, at: string) => {
  const spec = KINDS[kind];
  return connection.query(sql.unsafe`
    INSERT INTO ${name(spec.hour)} AS t (${columnsOf(kind)})
    SELECT ${name(spec.id)}, ${at}::timestamptz, sum(samples), sum(cpu_sum), max(cpu_max), sum(memory_sum), max(memory_max),
           sum(${name(spec.thirdSum)}), max(${name(spec.thirdMax)})
      FROM ${name(spec.minute)} WHERE at >= ${at}::timestamptz AND at < ${at}::timestamptz + interval '1 hour' GROUP BY 1
    ${onConflict(kind, 'replace')}`);
};

export type MetricsRecorder = {
  server: (serverId: string, sample: { cpuPercent: number; memoryBytes: number; playersOnline?: number }) => void;
  machine: (machineId: string, metrics: { cpuPercent: number; memoryUsedBytes: number; diskUsedBytes: number }) => void;
  /** Writes what is waiting (also on close); points that could not be written wait for the next flush. */
  flush: () => Promise<void>;
  /** Samples taken since start (for /metrics and the benchmark). */
  samples: () => number;
  close: () => Promise<void>;
};

export function createMetricsRecorder(options: { pool: DatabasePool; logger: Logger; flushMs?: number; now?: () => number }): MetricsRecorder {
  const now = options.now ?? Date.now;
  let servers = new Map<string, Point>();
  let machines = new Map<string, Point>();
  let taken = 0;
  let flushing: Promise<void> = Promise.resolve();

  const write = async (table: Kind, points: Map<string, Point>): Promise<Map<string, Point>> => {
    if (points.size === 0) return points;
    const rows = [...points];
    try {
      await upsert(options.pool, table, rows);
      return new Map();
    } catch (error) {
      if (/no partition of relation/.test((error as Error).message)) {
        await options.pool.query(sql.unsafe`SELECT gsm_metrics_partitions(now())`).catch(() => undefined);
      }
      // One row Postgres refuses must not cost the others their points: one at a time, the refused one dropped.
      const left = new Map<string, Point>();
      for (const row of rows) {
        try {
          await upsert(options.pool, table, [row]);
        } catch (rowError) {
          if (/connect|terminat|ECONN|timeout/i.test((rowError as Error).message)) left.set(row[0], row[1]);
          else options.logger.warn({ err: rowError, key: row[0] }, 'a metrics point was refused');
        }
      }
      return left;
    }
  };

  const flushOnce = async () => {
    const [serverPoints, machinePoints] = [servers, machines];
    servers = new Map();
    machines = new Map();
    const [serverLeft, machineLeft] = await Promise.all([write('server', serverPoints), write('machine', machinePoints)]);
    merge(servers, serverLeft);
    merge(machines, machineLeft);
  };
  const flush = () => (flushing = flushing.then(flushOnce).catch((error: unknown) => options.logger.warn({ err: error }, 'could not write metrics points')));
  const timer = setInterval(() => void flush(), options.flushMs ?? FLUSH_MS);
  timer.unref();

  return {
    server(serverId, sample) {
      taken += 1;
      add(servers, `${serverId.toLowerCase()}|${minuteOf(now())}`, sample.cpuPercent, sample.memoryBytes, sample.playersOnline ?? 0);
    },
    machine(machineId, metrics) {
      taken += 1;
      add(machines, `${machineId.toLowerCase()}|${minuteOf(now())}`, metrics.cpuPercent, metrics.memoryUsedBytes, metrics.diskUsedBytes);
    },
    flush,
    samples: () => taken,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** Creates the partitions around `now` (idempotent). */
export const ensurePartitions = (pool: DatabasePool, now: Date) => pool.query(sql.unsafe`SELECT gsm_metrics_partitions(${now.toISOString()}::timestamptz)`);

/** Drops the partitions past the retention at `now`; answers how many. */
export const expirePartitions = (pool: DatabasePool, now: Date, minuteDays: number, hourDays: number) =>
  pool.oneFirst(
    sql.type(z.object({ dropped: z.number() }))`SELECT gsm_metrics_expire(${now.toISOString()}::timestamptz, ${minuteDays}, ${hourDays}) AS dropped`,
  );

/** Hours rolled up per round (a fresh install has up to 14 days of hours to mark). */
const ROLLUP_BATCH = 24;

/**
 * Rolls up the completed hours not yet rolled (oldest first, each in its own transaction, claimed once across every
 * orchestrator); answers whether more are waiting. An hour is complete two minutes after its end (the gateways write
 * every minute).
 */
export async function rollUpHours(pool: DatabasePool, now: Date, minuteDays: number): Promise<boolean> {
  const due = await pool.anyFirst(sql.type(z.object({ hour: z.string() }))`
    SELECT h AS hour FROM generate_series(
        date_trunc('hour', ${now.toISOString()}::timestamptz - make_interval(days => ${minuteDays})),
        date_trunc('hour', ${now.toISOString()}::timestamptz - interval '62 minutes'), interval '1 hour') h
     WHERE NOT EXISTS (SELECT 1 FROM metrics_rollups r WHERE r.hour = h)
     ORDER BY h LIMIT ${ROLLUP_BATCH}`);
  for (const hour of due) {
    const at = hour;
    await pool.transaction(async (tx) => {
      const claimed = await tx.maybeOneFirst(sql.unsafe`INSERT INTO metrics_rollups (hour) VALUES (${at}) ON CONFLICT DO NOTHING RETURNING hour`);
      if (claimed === null) return;
      await rollUp(tx, 'server', at);
      await rollUp(tx, 'machine', at);
    });
  }
  return due.length === ROLLUP_BATCH;
}

/** One maintenance round at `now`: partitions ahead, hours rolled up, old partitions dropped. */
export async function maintainMetrics(pool: DatabasePool, now: Date, retention: { minuteDays: number; hourDays: number }): Promise<boolean> {
  await ensurePartitions(pool, now);
  const more = await rollUpHours(pool, now, retention.minuteDays);
  await expirePartitions(pool, now, retention.minuteDays, retention.hourDays);
  return more;
}

export const startMetricsMaintenance = (options: { pool: DatabasePool; logger: Logger; minuteDays: number; hourDays: number }): Repeating =>
  repeatEvery({
    everyMs: 60_000,
    logger: options.logger,
    what: 'metrics maintenance',
    round: () => maintainMetrics(options.pool, new Date(), options),
  });
