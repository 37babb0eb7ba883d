/**
 * The agent protocol's events (docs/agent-protocol.md), one zod schema each, used by the gateway to validate every incoming
 * frame and by the reference agent to build its outgoing ones. Event names are `domain:action`.
 */
import { z } from 'zod';
import { GAME_TYPES } from './games.ts';
import { isStorableText, reportTime } from './storable.ts';
import { CONSOLE_MODES, readySpec, stopSpec } from './serverBehaviour.ts';
import { JOB_TYPES, type JobType } from './jobs.ts';

/** Largest frame the gateway accepts; a larger one closes the connection (docs/api.md). */
export const MAX_FRAME_BYTES = 256 * 1024;

/** Report times: checked so that Postgres can store them (storable.ts). */
const iso = reportTime;
/** Agent text that is stored: refused when Postgres could not store it (storable.ts). */
const storedText = (max: number) => z.string().max(max).refine(isStorableText, 'must not contain NUL or lone surrogate characters');
const uuid = z.uuid();
/** Byte counts are stored as bigint: whole, not negative, and exact as JavaScript numbers. */
const byteCount = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Statuses an agent may report (the service's own UNKNOWN is never reported by an agent). */
export const REPORTED_STATUSES = ['INSTALLING', 'INSTALL_FAILED', 'OFFLINE', 'STARTING', 'ONLINE', 'STOPPING', 'RESTARTING', 'CRASHED'] as const;

export const authEvent = z.object({ token: z.string().min(1).max(200), machineId: uuid, version: z.string().min(1).max(64) }).strict();

export const heartbeatEvent = z
  .object({
    metrics: z
      .object({
        cpuPercent: z
          .number()
          .min(0)
          .max(100 * 1024),
        memoryUsedBytes: byteCount,
        diskUsedBytes: byteCount,
      })
      .strict(),
    uptime: z.number().min(0),
    /** Facts about the host, sent with the first heartbeat (or whenever they change). */
    host: z
      .object({ hostname: storedText(255), os: storedText(255), cpuCount: z.int().min(1).max(4096), memoryBytes: byteCount })
      .strict()
      .optional(),
  })
  .strict();

export const serverStatusEvent = z
  .object({
    serverId: uuid,
    status: z.enum(REPORTED_STATUSES),
    at: iso,
    exitCode: z.int().nullable().optional(),
    message: z.string().max(2000).optional(),
    /** The OS account the server runs as (absent: unchanged). */
    osUser: z
      .string()
      .regex(/^[\w.$@-]{1,64}$/)
      .optional(),
  })
  .strict();

export const serverStatsEvent = z
  .object({ serverId: uuid, cpuPercent: z.number().min(0), memoryBytes: byteCount, playersOnline: z.number().int().min(0).max(1_000_000).optional(), at: iso })
  .strict();

const playerFields = {
  steamId: storedText(64).min(1),
  username: storedText(64).min(1),
};

export const playerEvent = z.object({ serverId: uuid, ...playerFields, at: iso, ping: z.number().min(0).optional() }).strict();

export const playersSnapshotEvent = z
  .object({ serverId: uuid, players: z.array(z.object({ ...playerFields, ping: z.number().min(0).optional() }).strict()).max(1000), at: iso })
  .strict();

export const jobProgressEvent = z
  .object({
    jobId: uuid,
    status: z.literal('RUNNING'),
    /** How far the job is (0..100), when the agent knows (installs, updates, backups, restores). */
    percent: z.number().min(0).max(100).nullable().optional(),
    message: storedText(2000).optional(),
  })
  .strict();

export const jobResultEvent = z
  .object({
    jobId: uuid,
    status: z.enum(['SUCCEEDED', 'FAILED']),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z
      .object({ code: z.string().max(64), message: z.string().max(2000), consoleTail: z.array(z.string().max(8192)).max(20).optional() })
      .strict()
      .optional(),
    finishedAt: iso,
  })
  .strict();

export const consoleEvent = z.object({ serverId: uuid, lines: z.array(z.string().max(8192)).max(500), at: iso }).strict();

/** Every event an agent may send after `auth`, by name. */
export const AGENT_EVENTS = {
  heartbeat: heartbeatEvent,
  'server:status': serverStatusEvent,
  'server:stats': serverStatsEvent,
  'player:join': playerEvent,
  'player:leave': playerEvent,
  'players:snapshot': playersSnapshotEvent,
  'job:progress': jobProgressEvent,
  'job:result': jobResultEvent,
  console: consoleEvent,
} as const;
export type AgentEventName = keyof typeof AGENT_EVENTS;

// ---- service → agent

/** What the agent needs to run one server (`servers:sync`). */
export const serverConfig = z.object({
  id: z.string(),
  name: z.string(),
  gameType: z.enum(GAME_TYPES),
  gamePort: z.int(),
  queryPort: z.int(),
  rconPort: z.int(),
  rconPassword: z.string(),
  maxPlayers: z.int(),
  desiredStatus: z.enum(['RUNNING', 'STOPPED']),
  autoRestart: z.boolean(),
  startCommand: z.string().nullable(),
  env: z.record(z.string(), z.string()).nullable(),
  /** Memory limit in MiB (null or absent: none); enforced with cgroup v2 where writable, else watched (docs/agent.md). */
  memoryLimitMb: z.int().positive().nullable().optional(),
  /** CPU limit in percent of one core (150 = one and a half cores; null or absent: none). */
  cpuLimitPercent: z.int().positive().nullable().optional(),
  /** The game version to install (null: the latest release). */
  version: z.string().nullable().optional(),
  /** MINECRAFT: the operator accepted the game's EULA (eula.txt is written only then). */
  acceptEula: z.boolean().optional(),
  /** CUSTOM: the command an INSTALL or UPDATE runs in the server's directory. */
  installCommand: z.string().nullable().optional(),
  /** CUSTOM: when it is ready, where console commands go, how it stops (null or absent: the game's own; schema/serverBehaviour.ts). */
  // A mode a newer service knows and this agent does not is the default (null) here, not a sync refused whole; the
  // agent logs it (agent/run.ts).
  ready: readySpec.nullable().optional().catch(null),
  consoleMode: z.enum(CONSOLE_MODES).nullable().optional().catch(null),
  stop: stopSpec.nullable().optional().catch(null),
  /** The ids of the server's backups that exist (PENDING or finished): the agent removes the files of any other. */
  backups: z.array(z.string()).optional(),
});
export type ServerConfig = z.infer<typeof serverConfig>;

export const serversSyncEvent = z.object({
  servers: z.array(serverConfig),
  /** Servers of this machine deleted in the service (the last 90 days): only these have their files removed by the agent. */
  deleted: z.array(z.string()).optional(),
});

/** The job types an agent runs: every type but TASK_RUN, which the orchestrator runs itself. */
export type AgentJobType = Exclude<JobType, 'TASK_RUN'>;
export const AGENT_JOB_TYPES = JOB_TYPES.filter((type): type is AgentJobType => type !== 'TASK_RUN') as [AgentJobType, ...AgentJobType[]];

/**
 * What a job id may be on the agent, which names files after it (its outbox): the service's ids are UUIDs, and nothing
 * that could leave a directory passes.
 */
export const SAFE_JOB_ID = /^[0-9A-Za-z_-]{1,128}$/;

/**
 * The job message (`job`, service → agent, acknowledged within the ack window), as the agent takes it: the reference
 * agent checks every job it receives against it (agent/run.ts, agent/jobs/jobRunner.ts) and runs what it parsed.
 * `jobId` is the service's UUID (the agent's `job:progress` and `job:result` carry it back, and name a file after it);
 * `deadline` is the job's `expiresAt`.
 */
export const jobEvent = z.object({
  jobId: uuid,
  type: z.enum(AGENT_JOB_TYPES),
  serverId: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  deadline: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be a timestamp'),
});
export type JobEvent = z.infer<typeof jobEvent>;

/**
 * The job message as the service sends it: `jobEvent` with any `type`. Whether a type can be run is the agent's to
 * say (it answers `unsupported job type X`, which the service logs): in a rolling upgrade a job of a type this build
 * does not know, accepted by a newer API, still reaches the agent, which may be newer too. The announcement that
 * carries a just-accepted job to its gateway (orchestrator/gateway/notifications.ts) and the job as the gateway reads
 * it back (orchestrator/jobs/delivery.ts `jobForAgent`, used by gateway/machineStore.ts) are validated against it.
 */
export const jobWireEvent = jobEvent.extend({ type: z.string().min(1).max(64) });
export type JobWireEvent = z.infer<typeof jobWireEvent>;

/**
 * A job message as the agent takes it: the parsed job, or why it is refused (the `reason` of the ack
 * `{ accepted: false, reason }`): the first field that is wrong, in the order of the message (`unsupported job type X`
 * for a type this agent does not know, as from a newer service).
 */
export function readJobEvent(data: unknown): { job: JobEvent; refusal?: undefined } | { job?: undefined; refusal: string } {
  const parsed = jobEvent.safeParse(data);
  if (parsed.success) return { job: parsed.data };
  const field = parsed.error.issues[0]?.path[0];
  if (field === 'type') return { refusal: `unsupported job type ${String((data as { type?: unknown }).type)}` };
  return { refusal: field === undefined ? 'invalid job' : `invalid ${String(field)}` };
}

export const authenticatedEvent = z.object({ machineId: z.string(), clusterId: z.string(), heartbeatSeconds: z.int(), serverTime: z.string() });

/**
 * `UNAVAILABLE` is the service's own failure (its database is away): retry after a back-off. `AUTH_FAILED` and
 * `UNSUPPORTED_VERSION` are final.
 */
export const AGENT_ERROR_CODES = ['AUTH_FAILED', 'INVALID_EVENT', 'UNSUPPORTED_VERSION', 'RATE_LIMITED', 'UNAVAILABLE'] as const;
export const errorEvent = z.object({ code: z.enum(AGENT_ERROR_CODES), message: z.string() });

/** A plain-WebSocket frame: the seed's `{ event, data }`, with `id` when the sender wants an `ack`. */
export const plainFrame = z.object({ event: z.string().min(1).max(64), data: z.unknown(), id: z.union([z.string().max(64), z.int()]).optional() }).strict();
