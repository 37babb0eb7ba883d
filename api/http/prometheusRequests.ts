/**
 * Prometheus metrics: request counts and latency histograms per route, plus the process defaults (prom-client).
 *
 * The per-request path is a Map lookup and a few array increments: prom-client's own Counter/Histogram hash their
 * label objects on every call, which cost about a tenth of a /healthz request here. The series are handed to
 * prom-client's registry as a custom metric, so the exposition format is still prom-client's.
 * Each app gets its own registry, so several apps in one process (tests, benchmarks) do not collide.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';

type IntervalHistogram = ReturnType<typeof monitorEventLoopDelay>;

/** Latency buckets in seconds, from 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How often the event loop's delay is sampled (ms). prom-client's default, 10 ms, woke every process a hundred times a
 * second at rest (3 ms of CPU a second each, measured in the `live` bench); ten samples a second still give the
 * delay's percentiles between two scrapes.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/** The `nodejs_eventloop_lag_*_seconds` gauges of the delay's distribution, and how each is read from the histogram. */
const DELAY_GAUGES: [suffix: string, help: string, read: (histogram: IntervalHistogram) => number, lessSample: boolean][] = [
  ['min', 'The minimum recorded event loop delay.', (histogram) => histogram.min, true],
  ['max', 'The maximum recorded event loop delay.', (histogram) => histogram.max, true],
  ['mean', 'The mean of the recorded event loop delays.', (histogram) => histogram.mean, true],
  ['stddev', 'The standard deviation of the recorded event loop delays.', (histogram) => histogram.stddev, false],
  ['p50', 'The 50th percentile of the recorded event loop delays.', (histogram) => histogram.percentile(50), true],
  ['p90', 'The 90th percentile of the recorded event loop delays.', (histogram) => histogram.percentile(90), true],
  ['p99', 'The 99th percentile of the recorded event loop delays.', (histogram) => histogram.percentile(99), true],
];

/**
 * prom-client's gauges of the event loop's delay, replaced by ours, read from a histogram sampled every
 * EVENT_LOOP_SAMPLE_MS: Node's histogram records the whole time between two samples, so each figure is given less the
 * sampling interval (an idle process reads 0, as it read 10 ms with prom-client's own at 10 ms).
 */
function eventLoopDelayGauges(registry: Registry): void {
  const histogram = monitorEventLoopDelay({ resolution: EVENT_LOOP_SAMPLE_MS });
  histogram.enable();
  const gauges: Gauge[] = [];
  for (const [suffix, help] of DELAY_GAUGES) {
    const name = `nodejs_eventloop_lag_${suffix}_seconds`;
    registry.removeSingleMetric(name);
    gauges.push(
      new Gauge({
        name,
        help,
        registers: [registry],
        // The first gauge collected reads the histogram for all of them, then starts it again.
        collect:
          gauges.length > 0
            ? undefined
            : () => {
                if (histogram.count > 0)
                  DELAY_GAUGES.forEach(([, , read, lessSample], index) =>
                    gauges[index]!.set(Math.max(0, read(histogram) / 1e9 - (lessSample ? EVENT_LOOP_SAMPLE_MS / 1000 : 0))),
                  );
                histogram.reset();
              },
      }),
    );
  }
}

type RouteSeries = { method: string; route: string; statuses: Map<number, number>; buckets: number[]; sum: number; count: number };

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

export class HttpMetrics {
  readonly registry = new Registry();
  readonly #series = new Map<string, RouteSeries>();

  constructor(options: { defaults?: boolean } = {}) {
    if (options.defaults ?? true) {
      // prom-client's own event-loop monitor feeds only gauges that ours replace: it samples once a minute.
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 60_000 });
      eventLoopDelayGauges(this.registry);
    }
    const series = this.#series;
    this.registry.registerMetric({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      type: 'counter',
      get: () => ({
        name: 'http_requests_total',
        help: 'HTTP requests answered, by method, route and status',
        type: 'counter',
        values: [...series.values()].flatMap(({ method, route, statuses }) =>
          [...statuses].map(([status, value]): MetricValue => ({ labels: { method, route, status }, value })),
        ),
      }),
    } as never);
    this.registry.registerMetric({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency in seconds, by method and route',
      type: 'histogram',
      get: () => ({
        name: 'http_request_duration_seconds',
        help: 'HTTP request latency in seconds, by method and route',
        type: 'histogram',
        values: [...series.values()].flatMap(({ method, route, buckets, sum, count }): MetricValue[] => {
          let cumulative = 0;
          return [
            ...LATENCY_BUCKETS.map((le, index) => {
              cumulative += buckets[index]!;
              return { metricName: 'http_request_duration_seconds_bucket', labels: { le, method, route }, value: cumulative };
            }),
            { metricName: 'http_request_duration_seconds_bucket', labels: { le: '+Inf', method, route }, value: count },
            { metricName: 'http_request_duration_seconds_sum', labels: { method, route }, value: sum },
            { metricName: 'http_request_duration_seconds_count', labels: { method, route }, value: count },
          ];
        }),
      }),
    } as never);
  }

  /** Records one answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let series = this.#series.get(key);
    if (!series) {
      series = { method, route, statuses: new Map(), buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    const bucket = LATENCY_BUCKETS.findIndex((le) => seconds <= le);
    if (bucket >= 0) series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
  }
}

export const createHttpMetrics = (options: { defaults?: boolean } = {}) => new HttpMetrics(options);
