/**
 * Prometheus metrics: request counts and latency histograms per route, plus the process defaults.
 * Each app gets its own registry so several apps in one process (tests, benchmarks) do not collide.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Latency buckets in seconds, from 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type HttpMetrics = ReturnType<typeof createHttpMetrics>;

export function createHttpMetrics(options: { defaults?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaults ?? true) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return { registry, requests, duration };
}
