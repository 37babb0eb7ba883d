/**
 * Schemas of scheduled tasks (docs/api.md). Request bodies are strict; a step carries exactly the fields
 * its type uses (`command` for RCON, `message` for BROADCAST).
 */
import { z } from 'zod';
import { booleanQuery, id, name, paginationQuery, sortQuery, timestamp, wholeNumber } from './http.ts';
import { rconCommand } from './jobs.ts';
import { canonicalTimezone, checkSchedule, ScheduleError } from './schedule.ts';

export const STEP_TYPES = ['START', 'STOP', 'RESTART', 'RCON', 'BROADCAST', 'WIPE', 'BACKUP'] as const;
export type StepType = (typeof STEP_TYPES)[number];
/**
 * `lastRunStatus`: the last run's outcome (SUCCEEDED, FAILED, CANCELLED, EXPIRED), RUNNING while one is under way,
 * MISSED (the service was down for more than a period at that occurrence) or SKIPPED (the previous run was still
 * under way when the occurrence came).
 */
export const LAST_RUN_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED', 'MISSED', 'SKIPPED'] as const;
export type LastRunStatus = (typeof LAST_RUN_STATUSES)[number];

export const MAX_STEPS = 20;
export const MAX_SERVERS = 100;
export const MAX_DELAY_SECONDS = 3600;

const description = z.string().trim().max(500, 'must be at most 500 characters').nullable();

/** Why `schedule` is not usable in `timezone`, or null when it is. */
export function scheduleProblem(schedule: string, timezone: string): string | null {
  try {
    checkSchedule(schedule, timezone);
    return null;
  } catch (error) {
    if (error instanceof ScheduleError) return error.message;
    throw error;
  }
}

// Whether an expression parses and ever fires does not depend on the time zone: it is checked on the field, so that
// its problem is reported together with every other bad field.
const schedule = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .superRefine((value, context) => {
    const problem = scheduleProblem(value, 'UTC');
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: '5-field cron: minute hour day-of-month month day-of-week (names like `mon` and `jan` allowed).', example: '0 4 * * *' });

const timezone = z
  .string()
  .transform((value, context) => {
    const canonical = canonicalTimezone(value);
    if (!canonical) context.addIssue({ code: 'custom', message: 'expected an IANA time zone such as Europe/Berlin' });
    return canonical ?? value;
  })
  .meta({ type: 'string', description: 'IANA time zone the schedule is read in (default UTC).', example: 'Europe/Berlin' });

const stepType = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(STEP_TYPES, { message: `expected one of ${STEP_TYPES.join(', ')}` }))
  .meta({ type: 'string', enum: [...STEP_TYPES] });

export const step = z
  .object({
    type: stepType,
    command: rconCommand.optional().meta({ description: 'RCON steps: the console command.' }),
    message: z
      .string()
      .min(1, 'must not be empty')
      .max(1024, 'must be at most 1024 characters')
      .optional()
      .meta({ description: 'BROADCAST steps: the message players see.' }),
    delaySeconds: z
      .int({ message: 'expected a whole number' })
      .min(0, 'must be at least 0')
      .max(MAX_DELAY_SECONDS, `must be at most ${MAX_DELAY_SECONDS}`)
      .default(0)
      .meta({ description: 'Seconds to wait after the previous step before this one (0..3600).' }),
    continueOnFailure: z.boolean().default(false).meta({ description: 'Go on with the next step when this one fails on some server.' }),
  })
  .strict()
  .superRefine((value, context) => {
    const needs = value.type === 'RCON' ? 'command' : value.type === 'BROADCAST' ? 'message' : null;
    if (needs && value[needs] === undefined) context.addIssue({ code: 'custom', path: [needs], message: `required for ${value.type} steps` });
    for (const field of ['command', 'message'] as const) {
      if (field !== needs && value[field] !== undefined) context.addIssue({ code: 'custom', path: [field], message: `not used by ${value.type} steps` });
    }
  })
  .meta({ id: 'TaskStep' });
export type Step = z.output<typeof step>;

/** A step as stored and answered: defaults filled, only the fields its type uses. */
export const storedStep = z.object({
  type: z.enum(STEP_TYPES),
  command: z.string().optional(),
  message: z.string().optional(),
  delaySeconds: z.int(),
  continueOnFailure: z.boolean(),
});

export const task = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    schedule: z.string(),
    timezone: z.string(),
    serverIds: z.array(z.string()),
    steps: z.array(storedStep),
    onlyWhenOnline: z.boolean(),
    enabled: z.boolean(),
    nextRunAt: timestamp.nullable().meta({ description: 'The pending occurrence; null while disabled.' }),
    lastRunAt: timestamp.nullable(),
    lastRunStatus: z.enum(LAST_RUN_STATUSES).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof task>;

/** `GET /api/v1/tasks/schedule-preview`: the next runs of a schedule, as a form shows them before saving. */
export const schedulePreviewQuery = z
  .object({
    schedule,
    timezone: timezone.optional().default('UTC'),
    count: wholeNumber('count')
      .pipe(z.number().min(1, 'count must be at least 1').max(20, 'count must be at most 20'))
      .optional()
      .default(5)
      .meta({ type: 'integer', description: 'How many runs (1..20, default 5).' }),
  })
  .strict();

export const schedulePreview = z
  .object({
    schedule: z.string(),
    timezone: z.string(),
    runs: z.array(timestamp).meta({ description: 'The next runs, oldest first (UTC instants; show them in `timezone`).' }),
  })
  .meta({ id: 'SchedulePreview' });

const serverIds = z
  .array(id)
  .min(1, 'name at least one server')
  .max(MAX_SERVERS, `at most ${MAX_SERVERS} servers`)
  .refine((ids) => new Set(ids).size === ids.length, 'each server at most once');
const steps = z.array(step).min(1, 'give at least one step').max(MAX_STEPS, `at most ${MAX_STEPS} steps`);

export const createTaskBody = z
  .object({
    name,
    description: description.optional(),
    schedule,
    timezone: timezone.optional(),
    serverIds,
    steps,
    onlyWhenOnline: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

/** PATCH: any field of the create body. */
export const updateTaskBody = z
  .object({
    name: name.optional(),
    description: description.optional(),
    schedule: schedule.optional(),
    timezone: timezone.optional(),
    serverIds: serverIds.optional(),
    steps: steps.optional(),
    onlyWhenOnline: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'give at least one field to change');

export const taskListQuery = z
  .object({
    ...paginationQuery,
    sort: sortQuery(['name', 'createdAt', 'nextRunAt', 'lastRunAt'], 'createdAt'),
    enabled: booleanQuery.optional(),
  })
  .strict();
