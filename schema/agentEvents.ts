/**
 * The agent protocol's events (docs/agent-protocol.md), one zod schema each, used by the gateway to validate every incoming
 * frame and by the reference agent to build its outgoing ones. Event names are `domain:action`.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { GAME_TYPES } from './games.ts';
import { PORT_PROTOCOLS, QUERY_PROTOCOLS } from './gamePorts.ts';
import { isStorableText, reportTime } from './storable.ts';
import { TOOL_NAME } from './tools.ts';
import { CONSOLE_MODES, readySpec, stopSpec } from './serverBehaviour.ts';
import { JOB_TYPES, type JobType } from './jobs.ts';
import { resolvedTemplate } from './template.ts';

/**
 * Largest frame the gateway accepts; a larger one closes the connection (docs/api.md). Room for a file transfer's chunk
 * of 1 MiB (orchestrator/files/serverFiles.ts TRANSFER_CHUNK, the file helper's largest read) with its head.
 */
export const MAX_FRAME_BYTES = 1024 * 1024 + 64 * 1024;

/** Report times: checked so that Postgres can store them (storable.ts). */
const iso = reportTime;
/** Agent text that is stored: refused when Postgres could not store it (storable.ts). */
const storedText = (max: number) => z.string().max(max).refine(isStorableText, 'must not contain NUL or lone surrogate characters');
const uuid = z.uuid();
/** Byte counts are stored as bigint: whole, not negative, and exact as JavaScript numbers. */
const byteCount = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Statuses an agent may report (the service's own UNKNOWN is never reported by an agent). */
export const REPORTED_STATUSES = [
  'INSTALLING',
  'INSTALL_FAILED',
  'OFFLINE',
  'STARTING',
  'ONLINE',
  'UNRESPONSIVE',
  'STOPPING',
  'RESTARTING',
  'CRASHED',
] as const;

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
        /**
         * Bytes free for the agent's data directory (agents from this version on, to a service that announced `diskFree`):
         * a transfer to the machine is checked against it.
         */
        diskFreeBytes: byteCount.optional(),
      })
      .strict(),
    uptime: z.number().min(0),
    /** Facts about the host, sent with the first heartbeat (or whenever they change). */
    host: z
      .object({
        hostname: storedText(255),
        os: storedText(255),
        cpuCount: z.int().min(1).max(4096),
        memoryBytes: byteCount,
        /** The programs of schema/tools.ts found on the agent's PATH (absent from agents before templates). */
        tools: z.array(z.string().regex(TOOL_NAME)).max(256).optional(),
        /** The host's own addresses (its interfaces, loopback and link-local aside). */
        addresses: z
          .array(z.string().refine((value) => isIP(value) !== 0, 'expected an IP address'))
          .max(64)
          .optional(),
      })
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
    /**
     * The process the server runs as, while one runs: its pid, the start time the agent recorded when it started it, and
     * whether this agent adopted it from an earlier one. Sent only to a service that announced `serverProcess`.
     */
    process: z
      .object({
        pid: z
          .int()
          .min(1)
          .max(2 ** 31 - 1),
        startedAt: iso,
        adopted: z.boolean(),
      })
      .strict()
      .optional(),
    /** The OS account the server runs as (absent: unchanged). */
    osUser: z
      .string()
      .regex(/^[\w.$@-]{1,64}$/)
      .optional(),
    /**
     * The template (its id) and version the running process was started with (absent: no run, or no template;
     * unchanged). Stored only for the server's current template, up to its latest version. Sent only to a service that
     * announced `templateVersion`.
     */
    templateId: z.string().min(1).max(64).optional(),
    templateVersion: z.int().min(1).max(1_000_000).optional(),
  })
  .strict();

export const serverStatsEvent = z
  .object({
    serverId: uuid,
    cpuPercent: z.number().min(0),
    memoryBytes: byteCount,
    playersOnline: z.number().int().min(0).max(1_000_000).optional(),
    /** The server directory's disk usage as last measured (agents from this version on). */
    diskBytes: byteCount.optional(),
    at: iso,
  })
  .strict();

const playerFields = {
  steamId: storedText(64).min(1),
  username: storedText(64).min(1),
};

export const playerEvent = z.object({ serverId: uuid, ...playerFields, at: iso, ping: z.number().min(0).optional() }).strict();

export const playersSnapshotEvent = z
  .object({ serverId: uuid, players: z.array(z.object({ ...playerFields, ping: z.number().min(0).optional() }).strict()).max(1000), at: iso })
  .strict();

/** What a query of a server found (docs/agent.md#query); sent after every query of an ONLINE or UNRESPONSIVE server. */
export const serverQueryEvent = z
  .object({
    serverId: uuid,
    protocol: z.enum(QUERY_PROTOCOLS),
    answering: z.boolean(),
    players: z.int().min(0).max(1_000_000).nullable(),
    playerNames: z.array(storedText(64)).max(1000).nullable(),
    maxPlayers: z.int().min(0).max(1_000_000).nullable(),
    map: storedText(128).nullable(),
    version: storedText(128).nullable(),
    latencyMs: z.number().min(0).max(600_000).nullable(),
    /** Failed queries in a row (0 when this one answered). */
    failures: z.int().min(0).max(1_000_000),
    error: storedText(500).nullable(),
    at: iso,
  })
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

/**
 * With the service's `consoleSeen` feature the agent numbers its frames: `run` names the agent process, `n` counts its
 * frames (docs/agent-protocol.md, "Console output across reconnects").
 */
export const consoleEvent = z
  .object({
    serverId: uuid,
    lines: z.array(z.string().max(8192)).max(500),
    at: iso,
    run: z
      .string()
      .regex(/^[0-9A-Za-z_-]{1,64}$/)
      .optional(),
    n: z.int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();

// ---- SFTP (docs/sftp.md): the agent serves it, the service decides who may sign in

/** SFTP user names: `<handle>.<server short id>` (the last 8 hex digits of the server's id) or `<handle>.<server id>`. */
export const SFTP_USERNAME = /^([a-z0-9][a-z0-9_-]{0,31})\.([0-9a-f]{8}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** What a signed-in SFTP user may do on the server's files. */
export const sftpPermissions = z.object({ read: z.boolean(), write: z.boolean() }).strict();
export type SftpPermissions = z.infer<typeof sftpPermissions>;

/**
 * An SFTP client offers a public key for `username` (acked with `sftpAuthAnswer`). `signed` says whether the client
 * proved it holds the private key (the agent checked the signature): an unsigned offer only asks whether the key would
 * do, as SSH clients ask before signing.
 */
export const sftpKeyAuthEvent = z
  .object({
    username: z.string().min(1).max(128),
    /** The client's address, for the throttle per address. */
    address: z.string().min(1).max(64),
    method: z.literal('publickey'),
    algorithm: z.string().min(1).max(64),
    /** The key's wire form, base64. */
    publicKey: z
      .string()
      .min(1)
      .max(8 * 1024)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/),
    signed: z.boolean(),
  })
  .strict();

/** An SFTP client gives the account's password for `username` (docs/sftp.md#password-sign-in); the service checks it. */
export const sftpPasswordAuthEvent = z
  .object({
    username: z.string().min(1).max(128),
    address: z.string().min(1).max(64),
    method: z.literal('password'),
    password: z.string().min(1).max(1024),
  })
  .strict();

export const sftpAuthEvent = z.discriminatedUnion('method', [sftpKeyAuthEvent, sftpPasswordAuthEvent]);
export type SftpAuthEvent = z.infer<typeof sftpAuthEvent>;

/**
 * What an open session was signed in with, as the agent sends it back with each check: the key (its id), or for a
 * password a stamp of the account's password as it was (a changed password ends the session).
 */
const sftpCredential = { keyId: uuid.optional(), passwordStamp: z.string().min(1).max(64).optional() };

export const sftpAuthAnswer = z.union([
  z.object({
    allowed: z.literal(true),
    userId: z.string(),
    serverId: z.string(),
    keyId: z.string().optional(),
    passwordStamp: z.string().optional(),
    permissions: sftpPermissions,
  }),
  z.object({ allowed: z.literal(false), reason: z.string(), retryAfterSeconds: z.int().optional() }),
]);
export type SftpAuthAnswer = z.infer<typeof sftpAuthAnswer>;

/** The agent's open SFTP sessions, checked again (periodically, and when told `sftp:recheck`); acked with `sftpCheckAnswer`. */
export const sftpCheckEvent = z
  .object({
    sessions: z
      .array(
        z
          .object({ sessionId: z.string().min(1).max(64), userId: uuid, serverId: uuid, ...sftpCredential })
          .strict()
          .refine((session) => (session.keyId === undefined) !== (session.passwordStamp === undefined), 'a session has a keyId or a passwordStamp'),
      )
      .max(1000),
  })
  .strict();
export type SftpCheckedSession = z.infer<typeof sftpCheckEvent>['sessions'][number];
export const sftpCheckAnswer = z.object({
  sessions: z.array(z.object({ sessionId: z.string(), allowed: z.boolean(), permissions: sftpPermissions.optional() })),
});
export type SftpCheckAnswer = z.infer<typeof sftpCheckAnswer>;

/** The agent's SFTP service is listening: its port and host key, shown on the machine's record. */
export const sftpListeningEvent = z
  .object({
    port: z.int().min(1).max(65535),
    hostKeyFingerprint: z
      .string()
      .regex(/^SHA256:[A-Za-z0-9+/]{43}$/)
      .nullable(),
  })
  .strict();

/** A change made over SFTP (for the audit log and the config history); acked once recorded. */
export const sftpChangedEvent = z
  .object({
    userId: uuid,
    serverId: uuid,
    action: z.enum(['write', 'delete', 'rename', 'chmod', 'mkdir', 'rmdir']),
    path: storedText(4096).min(1),
    toPath: storedText(4096).min(1).optional(),
    size: byteCount.optional(),
    mode: z.int().min(0).max(0o7777).optional(),
  })
  .strict();
export type SftpChangedEvent = z.infer<typeof sftpChangedEvent>;

/** service → agent: a user's access changed (member removed, role changed, key deleted): check their sessions now. */
export const sftpRecheckEvent = z.object({ userId: z.string() });

/** Every event an agent may send after `auth`, by name. */
export const AGENT_EVENTS = {
  heartbeat: heartbeatEvent,
  'server:status': serverStatusEvent,
  'server:stats': serverStatsEvent,
  'player:join': playerEvent,
  'player:leave': playerEvent,
  'players:snapshot': playersSnapshotEvent,
  'server:query': serverQueryEvent,
  'job:progress': jobProgressEvent,
  'job:result': jobResultEvent,
  console: consoleEvent,
  'sftp:auth': sftpAuthEvent,
  'sftp:check': sftpCheckEvent,
  'sftp:listening': sftpListeningEvent,
  'sftp:changed': sftpChangedEvent,
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
  /**
   * The server's game template, resolved (schema/template.ts): players, commands, config files, wipe paths, install
   * steps. Absent: the agent's own adapter for `gameType`. One this agent cannot read is dropped (logged), not the sync.
   */
  template: resolvedTemplate.nullable().optional().catch(null),
  /** The named ports it holds (absent from an older service: game, query and rcon, both protocols). */
  ports: z.array(z.object({ name: z.string(), port: z.int(), protocol: z.enum(PORT_PROTOCOLS).catch('BOTH') })).optional(),
  /** Its own query protocol (null or absent: its game's; NONE: never queried). */
  queryProtocol: z
    .enum([...QUERY_PROTOCOLS, 'NONE'])
    .nullable()
    .optional()
    .catch(null),
  /**
   * How it is queried, decided by the service from its template's `query` and its own queryProtocol: the protocol and
   * the name of the port in `ports`; null: not queried. Absent (no template, or an older service): from
   * queryProtocol and its game.
   */
  queryTarget: z
    .object({ protocol: z.enum(QUERY_PROTOCOLS), port: z.string() })
    .nullable()
    .optional()
    .catch(undefined),
  /** Failed queries in a row after which it is UNRESPONSIVE (absent: 5). */
  unresponsiveAfter: z.int().min(1).optional(),
  /** Restart it when UNRESPONSIVE (absent: no). */
  restartWhenUnresponsive: z.boolean().optional(),
  /** Gitignore-style patterns of paths the service's users may not read or write (docs/files.md#the-deny-list). */
  fileDenyList: z.array(z.string().max(512)).max(256).optional(),
  /** The ids of the server's backups that exist (PENDING or finished): the agent removes the files of any other. */
  backups: z.array(z.string()).optional(),
});
export type ServerConfig = z.infer<typeof serverConfig>;

export const serversSyncEvent = z.object({
  servers: z.array(serverConfig),
  /** Servers of this machine deleted in the service (the last 90 days): only these have their files removed by the agent. */
  deleted: z.array(z.string()).optional(),
  /**
   * What of the agent's numbered console frames reached the service over its last connections (`run`: the agent
   * process; `n`: its last frame that arrived): frames up to it are not sent again. In the first `servers:sync` of a
   * connection, when known.
   */
  consoleSeen: z.array(z.object({ run: z.string(), n: z.number() })).optional(),
});

/** The job types an agent runs: every type but TASK_RUN, FILE_PULL and TRANSFER, which the orchestrator runs itself. */
export type AgentJobType = Exclude<JobType, 'TASK_RUN' | 'FILE_PULL' | 'TRANSFER'>;
export const AGENT_JOB_TYPES = JOB_TYPES.filter((type): type is AgentJobType => type !== 'TASK_RUN' && type !== 'FILE_PULL' && type !== 'TRANSFER') as [
  AgentJobType,
  ...AgentJobType[],
];

/**
 * What a job id may be on the agent, which names files after it (its outbox): the service's ids are UUIDs, and nothing
 * that could leave a directory passes.
 */
export const SAFE_JOB_ID = /^[0-9A-Za-z_-]{1,128}$/;

/**
 * The job message (`job`, service → agent, acknowledged within the ack window), as the agent takes it: the reference
 * agent checks every job it receives against it (agent/run.ts, agent/jobs/jobRunner.ts) and runs what it parsed.
 * `jobId` is the service's UUID (the agent's `job:progress` and `job:result` carry it back, and name a file after it);
 * `deadline` is the job's `expiresAt`. `acceptedAgoMs`: how long ago an agent of the machine first accepted the job, as
 * the service sends it again (null or absent the first time, and from services before it): an agent that does not have
 * the job learns that a process of its before accepted it (in the agent's own clock: no skew between the two).
 */
export const jobEvent = z.object({
  jobId: uuid,
  type: z.enum(AGENT_JOB_TYPES),
  serverId: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  deadline: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be a timestamp'),
  acceptedAgoMs: z.number().int().min(0).nullable().optional(),
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

/**
 * `agent:upgrade` (service → agent, acknowledged; docs/upgrades.md#upgrading-the-agents): replace this agent with the
 * package at `url` (null: `/agent/package.tgz` at the gateway's origin) if its SHA-256 is `sha256` and its version
 * `version`, then restart. The answer is `{ accepted: true }` (it is on its way, or already runs that version) or
 * `{ accepted: false, reason }`.
 */
export const agentUpgradeEvent = z.object({
  upgradeId: z.string().max(64),
  version: z.string().min(1).max(64),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string().max(2000).nullable(),
});
export type AgentUpgradeEvent = z.infer<typeof agentUpgradeEvent>;

/**
 * What the service takes beyond the first protocol, which an agent may then send (absent from older services):
 * `serverProcess`, the `process` of `server:status`; `templateVersion`, its `templateId` and `templateVersion`;
 * `diskFree`, the `metrics.diskFreeBytes` of `heartbeat`; `consoleSeen`, the `run` and `n` of `console` (the service then
 * confirms them with `console:seen` and says in `servers:sync` what arrived).
 */
export const SERVICE_FEATURES = ['serverProcess', 'templateVersion', 'diskFree', 'consoleSeen'] as const;

export const authenticatedEvent = z.object({
  machineId: z.string(),
  clusterId: z.string(),
  heartbeatSeconds: z.int(),
  serverTime: z.string(),
  features: z.array(z.string()).optional(),
});

/**
 * `UNAVAILABLE` is the service's own failure (its database is away): retry after a back-off. `AUTH_FAILED` and
 * `UNSUPPORTED_VERSION` are final.
 */
export const AGENT_ERROR_CODES = ['AUTH_FAILED', 'INVALID_EVENT', 'UNSUPPORTED_VERSION', 'RATE_LIMITED', 'UNAVAILABLE'] as const;
export const errorEvent = z.object({ code: z.enum(AGENT_ERROR_CODES), message: z.string() });

/** A plain-WebSocket frame: the seed's `{ event, data }`, with `id` when the sender wants an `ack`. */
export const plainFrame = z.object({ event: z.string().min(1).max(64), data: z.unknown(), id: z.union([z.string().max(64), z.int()]).optional() }).strict();
