/**
 * Reading the metrics history (docs/metrics.md). Steps under an hour read minute points; an hour and over read hourly
 * points up to the last rolled-up hour and minute points after it, so the latest hour is never missing. Points are
 * grouped into `step`-wide buckets from the Unix epoch (days are UTC days); a bucket without samples (a server that
 * was not running) is absent, not zero.
 */
import { sql, type CommonQueryMethods, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { STEPS, type MetricsQuery } from '../../schema/metricsHistory.ts';

const HOUR_S = 3_600;

const bucketRow = z.object({
  at: z.string(),
  cpuAvg: z.number(),
  cpuMax: z.number(),
  memoryAvg: z.number(),
  memoryMax: z.number(),
  thirdAvg: z.number(),
  thirdMax: z.number(),
});

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The rows of `table` (minute or hour) for `filter` in [from, to), with the hour/minute split for coarse steps. */
function rows(kind: 'server' | 'machine', filter: FragmentSqlToken, query: MetricsQuery, third: 'players' | 'disk'): FragmentSqlToken {
  const columns = sql.fragment`${sql.identifier([`${kind}_id`])} AS owner, at, samples, cpu_sum, cpu_max, memory_sum, memory_max, ${sql.identifier([`${third}_sum`])} AS third_sum, ${sql.identifier([`${third}_max`])} AS third_max`;
  const minute = sql.identifier([`${kind}_metrics_minute`]);
  const hour = sql.identifier([`${kind}_metrics_hour`]);
  const from = query.from.toISOString();
  const to = query.to.toISOString();
  if (STEPS[query.step] < HOUR_S) {
    return sql.fragment`SELECT ${columns} FROM ${minute} WHERE ${filter} AND at >= ${from}::timestamptz AND at < ${to}::timestamptz`;
  }
  return sql.fragment`
    SELECT ${columns} FROM ${hour}, rolled WHERE ${filter} AND at >= ${from}::timestamptz AND at < least(${to}::timestamptz, rolled.through)
    UNION ALL
    SELECT ${columns} FROM ${minute}, rolled WHERE ${filter} AND at >= greatest(${from}::timestamptz, rolled.through) AND at < ${to}::timestamptz`;
}

/** Buckets of one server's or machine's points. */
async function buckets(connection: CommonQueryMethods, kind: 'server' | 'machine', id: string, query: MetricsQuery, third: 'players' | 'disk') {
  const filter = kind === 'server' ? sql.fragment`server_id = ${id}` : sql.fragment`machine_id = ${id}`;
  const step = `${STEPS[query.step]} seconds`;
  if (query.step === '1m') {
    // A minute point is its own bucket: no grouping.
    return connection.any(sql.type(bucketRow)`
      SELECT at, cpu_sum / samples AS "cpuAvg", cpu_max::float8 AS "cpuMax", memory_sum / samples AS "memoryAvg", memory_max::float8 AS "memoryMax",
             third_sum / samples AS "thirdAvg", third_max::float8 AS "thirdMax"
        FROM (${rows(kind, filter, query, third)}) points ORDER BY at`);
  }
  return connection.any(sql.type(bucketRow)`
    WITH rolled AS (SELECT coalesce(max(hour) + interval '1 hour', '-infinity'::timestamptz) AS through FROM metrics_rollups)
    SELECT date_bin(${step}::interval, at, TIMESTAMPTZ 'epoch') AS at,
           sum(cpu_sum) / sum(samples) AS "cpuAvg", max(cpu_max)::float8 AS "cpuMax",
           sum(memory_sum) / sum(samples) AS "memoryAvg", max(memory_max)::float8 AS "memoryMax",
           sum(third_sum) / sum(samples) AS "thirdAvg", max(third_max)::float8 AS "thirdMax"
      FROM (${rows(kind, filter, query, third)}) points
     GROUP BY 1 ORDER BY 1`);
}

const envelope = (query: MetricsQuery) => ({ step: query.step, from: query.from.toISOString(), to: query.to.toISOString() });

/** A server's points (`playersOnline`) or a machine's (`diskUsedBytes`), in the answer's shape. */
async function history(connection: CommonQueryMethods, kind: 'server' | 'machine', id: string, query: MetricsQuery) {
  const found = await buckets(connection, kind, id, query, kind === 'server' ? 'players' : 'disk');
  return {
    ...envelope(query),
    points: found.map((row) => ({
      at: new Date(row.at).toISOString(),
      cpuPercent: { avg: round1(row.cpuAvg), max: round1(row.cpuMax) },
      memoryBytes: { avg: Math.round(row.memoryAvg), max: row.memoryMax },
      ...(kind === 'server'
        ? { playersOnline: { avg: round1(row.thirdAvg), max: row.thirdMax } }
        : { diskUsedBytes: { avg: Math.round(row.thirdAvg), max: row.thirdMax } }),
    })),
  };
}

export const serverHistory = (connection: CommonQueryMethods, serverId: string, query: MetricsQuery) => history(connection, 'server', serverId, query);
export const machineHistory = (connection: CommonQueryMethods, machineId: string, query: MetricsQuery) => history(connection, 'machine', machineId, query);

/**
 * A cluster's players online: per bucket, the sum over its servers of each one's average (and of each one's maximum,
 * an upper bound of the cluster's true maximum when servers peak at different moments of a bucket).
 */
export async function clusterPlayers(connection: CommonQueryMethods, clusterId: string, query: MetricsQuery) {
  const step = `${STEPS[query.step]} seconds`;
  const filter = sql.fragment`server_id IN (SELECT id FROM servers WHERE cluster_id = ${clusterId})`;
  const found = await connection.any(sql.type(z.object({ at: z.string(), avg: z.number(), max: z.number() }))`
    WITH rolled AS (SELECT coalesce(max(hour) + interval '1 hour', '-infinity'::timestamptz) AS through FROM metrics_rollups),
         per_server AS (
           SELECT date_bin(${step}::interval, at, TIMESTAMPTZ 'epoch') AS bucket, owner,
                  sum(third_sum) / sum(samples) AS avg, max(third_max) AS max
             FROM (${rows('server', filter, query, 'players')}) points
            GROUP BY 1, 2)
    SELECT bucket AS at, sum(avg)::float8 AS avg, sum(max)::float8 AS max FROM per_server GROUP BY 1 ORDER BY 1`);
  return { ...envelope(query), points: found.map((row) => ({ at: new Date(row.at).toISOString(), playersOnline: { avg: round1(row.avg), max: row.max } })) };
}
