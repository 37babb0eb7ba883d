/**
 * Metrics history (docs/metrics.md): a server's or machine's CPU, memory and players (or disk) over time, and a
 * cluster's players online. Every member may read them.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { clusterPlayersOnline, machineMetricsHistory, metricsQuery, serverMetrics } from '../../schema/metricsHistory.ts';
import { clusterPlayers, machineHistory, serverHistory } from '../../orchestrator/metricsHistory/queries.ts';

const params = z.object({ id });
const DESCRIPTION =
  '`from` and `to` are ISO 8601 instants (default: the last 24 hours); `step` is one of 1m, 5m, 15m, 1h, 6h, 1d (default: the finest giving at most 1,500 points; a step giving more is 400). A bucket without samples is absent, not zero. Minute points are kept 14 days, hourly points 400 days.';

export function installMetricsHistoryRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const byServer = clusterOfParam(pool.reads, 'servers');
  const byMachine = clusterOfParam(pool.reads, 'machines');

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/metrics',
    summary: "A server's CPU, memory and players online over time",
    description: DESCRIPTION,
    tags: ['Metrics'],
    auth: 'user',
    params,
    query: metricsQuery,
    permission: { action: 'cluster.read', cluster: byServer },
    responses: { 200: { description: 'Points, oldest first', schema: serverMetrics } },
    handler: (_ctx, { params: { id: serverId }, query }) => serverHistory(pool, serverId, query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/machines/:id/metrics',
    summary: "A machine's CPU, memory and disk over time",
    description: DESCRIPTION,
    tags: ['Metrics'],
    auth: 'user',
    params,
    query: metricsQuery,
    permission: { action: 'cluster.read', cluster: byMachine },
    responses: { 200: { description: 'Points, oldest first', schema: machineMetricsHistory } },
    handler: (_ctx, { params: { id: machineId }, query }) => machineHistory(pool, machineId, query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/players/online',
    summary: "A cluster's players online over time",
    description: `${DESCRIPTION} Per bucket: the sum over the cluster's servers of each one's average and of each one's maximum (an upper bound when servers peak at different moments).`,
    tags: ['Metrics'],
    auth: 'user',
    params: clusterIdParams,
    query: metricsQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Points, oldest first', schema: clusterPlayersOnline } },
    handler: (_ctx, { params: { clusterId }, query }) => clusterPlayers(pool, clusterId, query),
  });
}
