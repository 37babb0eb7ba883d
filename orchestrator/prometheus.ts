/**
 * The domain in Prometheus (docs/operations.md#metrics). Cluster-wide figures come from the database (servers by
 * status, players online per cluster, machines online, jobs created and ended with their latency histogram, kept by
 * triggers, and events numbered); a scrape reads them in one round trip, cached for 10 s, so scraping stays cheap
 * with thousands of servers; every process answers the same values for them. Per-process figures (console lines
 * relayed and dropped by this gateway, webhook attempts by this orchestrator) come from the process itself.
 *
 * Players online is one figure unless `clusterLabels` is on: a label per cluster tells whoever reads the metrics every
 * cluster's id and audience, which an installation shared by several tenants may not want to show its scraper.
 */
import type { Registry } from 'prom-client';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../sql/pool.ts';

const CACHE_MS = 10_000;

type Value = { labels: Record<string, string | number>; value: number; metricName?: string };
export type DomainSources = {
  console?: () => { relayed: number; dropped: number };
  webhooks?: () => Record<string, number>;
};

const snapshot = z.object({
  servers: z.array(z.object({ status: z.string(), n: z.number() })),
  players: z.array(z.object({ clusterId: z.string(), n: z.number() })),
  machinesOnline: z.number(),
  jobs: z.array(z.object({ type: z.string(), status: z.string(), n: z.number() })),
  latency: z.array(z.object({ type: z.string(), bucket: z.number(), n: z.number(), seconds: z.number() })),
  bounds: z.array(z.number()),
  events: z.number(),
});
type Snapshot = z.infer<typeof snapshot>;

export type DomainMetrics = { attach: (more: DomainSources) => void };

export function registerDomainMetrics(
  registry: Registry,
  options: { pool: DatabasePool; sources?: DomainSources; /** Default false. */ clusterLabels?: boolean },
): DomainMetrics {
  const sources: DomainSources = { ...options.sources };
  let cached: { at: number; value: Promise<Snapshot> } | undefined;
  const read = (): Promise<Snapshot> => {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
    const value = options.pool.one(sql.type(snapshot)`
      SELECT
        (SELECT coalesce(json_agg(json_build_object('status', status, 'n', n)), '[]') FROM (SELECT status, count(*)::int AS n FROM servers GROUP BY status) s) AS servers,
        (SELECT coalesce(json_agg(json_build_object('clusterId', cluster_id, 'n', n)), '[]')
           FROM (SELECT cluster_id, sum(players_online)::int AS n FROM servers GROUP BY cluster_id HAVING sum(players_online) > 0) p) AS players,
        (SELECT count(*)::int FROM machines WHERE status = 'ONLINE') AS "machinesOnline",
        (SELECT coalesce(json_agg(json_build_object('type', type, 'status', status, 'n', n)), '[]') FROM (SELECT type, status, sum(n)::float8 AS n FROM job_counters GROUP BY 1, 2) j) AS jobs,
        (SELECT coalesce(json_agg(json_build_object('type', type, 'bucket', bucket, 'n', n, 'seconds', seconds)), '[]')
           FROM (SELECT type, bucket, sum(n)::float8 AS n, sum(seconds) AS seconds FROM job_latency GROUP BY 1, 2) l) AS latency,
        to_json(gsm_job_latency_bounds()) AS bounds,
        (SELECT coalesce(max(position), 0)::float8 FROM events) AS events`);
    cached = { at: Date.now(), value };
    value.catch(() => (cached = undefined));
    return value;
  };

  const metric = (name: string, help: string, type: 'gauge' | 'counter' | 'histogram', values: (data: Snapshot) => Value[]) =>
    registry.registerMetric({ name, help, type, get: async () => ({ name, help, type, values: values(await read()), aggregator: 'sum' }) } as never);

  metric('gsm_servers', 'Game servers by status', 'gauge', (data) => data.servers.map((row) => ({ labels: { status: row.status }, value: row.n })));
  if (options.clusterLabels)
    metric('gsm_players_online', 'Players online per cluster (clusters with none are left out)', 'gauge', (data) =>
      data.players.map((row) => ({ labels: { cluster_id: row.clusterId }, value: row.n })),
    );
  else
    metric('gsm_players_online', 'Players online on every cluster together', 'gauge', (data) => [
      { labels: {}, value: data.players.reduce((sum, row) => sum + row.n, 0) },
    ]);
  metric('gsm_machines_online', 'Machines whose agent is connected', 'gauge', (data) => [{ labels: {}, value: data.machinesOnline }]);
  metric('gsm_jobs_created_total', 'Jobs created, by type', 'counter', (data) =>
    data.jobs.filter((row) => row.status === 'CREATED').map((row) => ({ labels: { type: row.type }, value: row.n })),
  );
  metric('gsm_jobs_ended_total', 'Jobs ended, by type and final status', 'counter', (data) =>
    data.jobs.filter((row) => row.status !== 'CREATED').map((row) => ({ labels: { type: row.type, status: row.status }, value: row.n })),
  );
  metric('gsm_job_duration_seconds', 'Time from a job accepted to its end, by type', 'histogram', (data) => {
    const types = [...new Set(data.latency.map((row) => row.type))];
    return types.flatMap((type): Value[] => {
      const rows = data.latency.filter((row) => row.type === type);
      let cumulative = 0;
      const buckets = data.bounds.map((le, index): Value => {
        cumulative += rows.filter((row) => row.bucket === index + 1).reduce((sum, row) => sum + row.n, 0);
        return { metricName: 'gsm_job_duration_seconds_bucket', labels: { le, type }, value: cumulative };
      });
      const count = rows.reduce((sum, row) => sum + row.n, 0);
      return [
        ...buckets,
        { metricName: 'gsm_job_duration_seconds_bucket', labels: { le: '+Inf', type }, value: count },
        { metricName: 'gsm_job_duration_seconds_sum', labels: { type }, value: rows.reduce((sum, row) => sum + row.seconds, 0) },
        { metricName: 'gsm_job_duration_seconds_count', labels: { type }, value: count },
      ];
    });
  });
  metric('gsm_events_total', 'Events recorded and relayed to streams and webhooks (numbered)', 'counter', (data) => [{ labels: {}, value: data.events }]);

  registry.registerMetric({
    name: 'gsm_console_lines_total',
    help: 'Console lines this process relayed to viewers, and dropped by the per-server throttle',
    type: 'counter',
    get: () => {
      const counts = sources.console?.() ?? { relayed: 0, dropped: 0 };
      return {
        name: 'gsm_console_lines_total',
        help: 'Console lines this process relayed to viewers, and dropped by the per-server throttle',
        type: 'counter',
        values: [
          { labels: { outcome: 'relayed' }, value: counts.relayed },
          { labels: { outcome: 'dropped' }, value: counts.dropped },
        ],
        aggregator: 'sum',
      };
    },
  } as never);
  registry.registerMetric({
    name: 'gsm_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this process, by outcome (delivered, retrying, failed)',
    type: 'counter',
    get: () => ({
      name: 'gsm_webhook_deliveries_total',
      help: 'Webhook delivery attempts made by this process, by outcome (delivered, retrying, failed)',
      type: 'counter',
      values: Object.entries(sources.webhooks?.() ?? { delivered: 0, retrying: 0, failed: 0 }).map(([outcome, value]) => ({ labels: { outcome }, value })),
      aggregator: 'sum',
    }),
  } as never);

  /** Connects the per-process sources once they exist (the gateway and the worker start after the app). */
  return {
    attach(more: DomainSources) {
      Object.assign(sources, more);
    },
  };
}
