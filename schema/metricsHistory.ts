/**
 * Metrics history queries (docs/metrics.md): `from`, `to` (ISO 8601; default the last 24 hours) and `step`
 * (`1m, 5m, 15m, 1h, 6h, 1d`; default the finest giving at most 1,500 points).
 */
import { z } from 'zod';
import { timestamp } from './http.ts';

export const STEPS = { '1m': 60, '5m': 300, '15m': 900, '1h': 3_600, '6h': 21_600, '1d': 86_400 } as const;
export type Step = keyof typeof STEPS;
export const MAX_POINTS = 1_500;
const DAY_MS = 86_400_000;

/** An instant Postgres can store, in years 1970..9999. */
const instant = z.iso
  .datetime({ offset: true, message: 'expected an ISO 8601 timestamp, e.g. 2026-11-24T18:00:00Z' })
  .transform((value) => new Date(value))
  .refine((date) => date.getUTCFullYear() >= 1970 && date.getUTCFullYear() <= 9999, 'expected a year from 1970 to 9999');

export const metricsQuery = z
  .object({
    from: instant.optional(),
    to: instant.optional(),
    step: z.enum(Object.keys(STEPS) as [Step, ...Step[]], { message: `expected one of ${Object.keys(STEPS).join(', ')}` }).optional(),
  })
  .strict()
  .transform((query, context) => {
    const to = query.to ?? new Date();
    const from = query.from ?? new Date(to.getTime() - DAY_MS);
    if (from.getTime() >= to.getTime()) {
      context.addIssue({ code: 'custom', path: ['from'], message: 'expected from to be before to' });
      return z.NEVER;
    }
    const spanSeconds = (to.getTime() - from.getTime()) / 1000;
    const step = query.step ?? (Object.keys(STEPS) as Step[]).find((candidate) => spanSeconds / STEPS[candidate] <= MAX_POINTS) ?? '1d';
    if (Math.ceil(spanSeconds / STEPS[step]) > MAX_POINTS) {
      context.addIssue({
        code: 'custom',
        path: ['step'],
        message: `${step} over this range would be more than ${MAX_POINTS} points; choose a coarser step or a shorter range`,
      });
      return z.NEVER;
    }
    return { from, to, step };
  });
export type MetricsQuery = z.output<typeof metricsQuery>;

const pair = z.object({ avg: z.number(), max: z.number() });

export const serverMetrics = z
  .object({
    step: z.enum(Object.keys(STEPS) as [Step, ...Step[]]),
    from: timestamp,
    to: timestamp,
    points: z.array(z.object({ at: timestamp, cpuPercent: pair, memoryBytes: pair, playersOnline: pair })),
  })
  .meta({ id: 'ServerMetrics' });

export const machineMetricsHistory = z
  .object({
    step: z.enum(Object.keys(STEPS) as [Step, ...Step[]]),
    from: timestamp,
    to: timestamp,
    points: z.array(z.object({ at: timestamp, cpuPercent: pair, memoryBytes: pair, diskUsedBytes: pair })),
  })
  .meta({ id: 'MachineMetricsHistory' });

export const clusterPlayersOnline = z
  .object({
    step: z.enum(Object.keys(STEPS) as [Step, ...Step[]]),
    from: timestamp,
    to: timestamp,
    points: z.array(z.object({ at: timestamp, playersOnline: pair })),
  })
  .meta({ id: 'ClusterPlayersOnline' });
