/**
 * Schemas of durable jobs (docs/api.md).
 */
import { z } from 'zod';
import { enumFilter, id, paginationQuery, sortQuery, timestamp } from './http.ts';

export const JOB_TYPES = [
  'START',
  'STOP',
  'RESTART',
  'KILL',
  'RCON',
  'KICK',
  'BAN',
  'UNBAN',
  'BROADCAST',
  'WIPE',
  'TASK_RUN',
  'INSTALL',
  'UPDATE',
  'BACKUP',
  'RESTORE',
  'FILE_COMPRESS',
  'FILE_EXTRACT',
  'FILE_PULL',
  'TRANSFER',
] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_STATUSES = ['QUEUED', 'DISPATCHED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINISHED_STATUSES: ReadonlySet<JobStatus> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED']);

export const job = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    serverId: z.string().nullable(),
    machineId: z.string().nullable(),
    playerId: z.string().nullable(),
    taskId: z.string().nullable(),
    type: z.enum(JOB_TYPES),
    status: z.enum(JOB_STATUSES),
    params: z.record(z.string(), z.unknown()),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        consoleTail: z
          .array(z.string())
          .optional()
          .meta({ description: "The game's last console lines (up to 20), when the game itself failed the job: it crashed or never started." }),
      })
      .nullable(),
    progress: z
      .object({
        percent: z.number().min(0).max(100).nullable().meta({ description: 'How far it is (0..100), or null when not known.' }),
        message: z.string().nullable(),
        phase: z
          .string()
          .optional()
          .meta({ description: "A TRANSFER's phase (docs/transfers.md): CHECK_SPACE, STOP, PACK, COPY, SWITCH, START, CLEAN_UP or ROLL_BACK." }),
        bytesDone: z.number().optional().meta({ description: 'A TRANSFER: bytes copied to the target and acknowledged by it.' }),
        bytesTotal: z.number().nullable().optional().meta({ description: 'A TRANSFER: bytes to copy (the archive and the backups), once known.' }),
      })
      .nullable()
      .meta({ description: 'While it runs, how far it is, from its agent (installs, updates, backups, restores); null before the first report.' }),
    attempts: z.int(),
    createdBy: z.object({ kind: z.enum(['USER', 'TOKEN', 'TASK', 'SYSTEM']), id: z.string().nullable() }),
    idempotencyKey: z.string().nullable(),
    createdAt: timestamp,
    dispatchedAt: timestamp.nullable(),
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    expiresAt: timestamp,
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof job>;

/** `?wait=N`: hold the answer up to N seconds (0..60) until the job ends. */
export const waitSeconds = z
  .string()
  .regex(/^\d{1,2}$/, 'wait must be a whole number of seconds')
  .transform(Number)
  .pipe(z.number().max(60, 'wait must be at most 60 seconds'))
  .meta({ type: 'integer', description: 'Seconds to wait for the job to end (0..60).' });

export const powerQuery = z.object({ wait: waitSeconds.optional() }).strict();

export const rconCommand = z
  .string()
  .min(1, 'must not be empty')
  .max(1024, 'must be at most 1024 characters')
  // One line: a line break would be a second command on a console read line by line; NUL cannot be stored.
  .refine((command) => ![...command].some((c) => (c < ' ' && c !== '\t') || c === '\u007f'), 'must be one line without control characters');
export const rconBody = z.object({ command: rconCommand }).strict();
export const rconExecuteBody = z.object({ serverId: id, command: rconCommand }).strict();
export const rconAnswer = z
  .object({ success: z.boolean(), output: z.string().nullable(), jobId: z.string(), status: z.enum(JOB_STATUSES) })
  .meta({ id: 'RconAnswer' });

export const jobListQuery = z
  .object({
    ...paginationQuery,
    sort: sortQuery(['createdAt'], '-createdAt'),
    status: enumFilter(JOB_STATUSES).optional(),
    type: enumFilter(JOB_TYPES).optional(),
    serverId: id.optional(),
    taskId: id.optional(),
  })
  .strict();
