/** Metrics charts of a server or a machine for the last hour, day or week (`GET …/metrics` with a step to match). */
import { useState } from 'preact/hooks';
import { api } from '../session.ts';
import { Chart, Show, useLoad } from '../ui.tsx';

type Summary = { avg: number; max: number };
type Point = { at: string; cpuPercent?: Summary | null; memoryBytes?: Summary | null; memoryUsedBytes?: Summary | null; playersOnline?: Summary | null };

const PERIODS = [
  { name: '1 h', ms: 3_600_000, step: '1m' },
  { name: '24 h', ms: 86_400_000, step: '15m' },
  { name: '7 d', ms: 7 * 86_400_000, step: '1h' },
] as const;

export function MetricsCharts({ path, kind }: { path: string; kind: 'server' | 'machine' }) {
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>(PERIODS[0]);
  const metrics = useLoad(() => {
    const to = new Date();
    return api.get<{ points: Point[] }>(path, { from: new Date(to.getTime() - period.ms).toISOString(), to: to.toISOString(), step: period.step });
  }, [path, period]);
  const series = (pick: (point: Point) => Summary | null | undefined, scale = 1) =>
    (metrics.data?.points ?? []).map((point) => {
      const value = pick(point);
      return { at: point.at, values: value ? [value.avg / scale, value.max / scale] : [null, null] };
    });
  return (
    <div class="metrics">
      <div class="buttons" role="group" aria-label="Period">
        {PERIODS.map((item) => (
          <button
            key={item.name}
            type="button"
            class={item === period ? 'selected' : 'secondary'}
            aria-pressed={item === period}
            onClick={() => setPeriod(item)}
          >
            {item.name}
          </button>
        ))}
      </div>
      <Show loaded={metrics}>
        {() => (
          <div class="charts">
            <Chart title="CPU" unit="%" series={['average', 'peak']} points={series((point) => point.cpuPercent)} />
            <Chart title="Memory" unit="MiB" series={['average', 'peak']} points={series((point) => point.memoryBytes ?? point.memoryUsedBytes, 1024 * 1024)} />
            {kind === 'server' && <Chart title="Players" unit="" series={['average', 'peak']} points={series((point) => point.playersOnline)} />}
          </div>
        )}
      </Show>
    </div>
  );
}
