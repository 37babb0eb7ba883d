/**
 * Schemas of machines and game servers (docs/api.md). Request bodies are strict; `rconPassword` is write-only.
 */
import { z } from 'zod';
import { GAME_TYPES, NEEDS_START_COMMAND, type GameType } from './games.ts';
import { booleanQuery, enumFilter, id, paginationQuery, sortQuery, timestamp } from './http.ts';

export const MACHINE_STATUSES = ['ONLINE', 'OFFLINE'] as const;
export const SERVER_STATUSES = ['INSTALLING', 'OFFLINE', 'STARTING', 'ONLINE', 'STOPPING', 'RESTARTING', 'CRASHED', 'UNKNOWN'] as const;
export const DESIRED_STATUSES = ['RUNNING', 'STOPPED'] as const;

const name = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');
const PORT_MESSAGE = 'port must be between 1024 and 65535';
const port = z.int({ message: 'expected a whole number' }).min(1024, PORT_MESSAGE).max(65535, PORT_MESSAGE);
const gameType = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(GAME_TYPES, { message: `expected one of ${GAME_TYPES.join(', ')}` }))
  .meta({ type: 'string', enum: [...GAME_TYPES] });
/** Environment of the game process: variable names as the shell knows them, string values. */
const env = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'variable names are letters, digits and _'), z.string().max(4096))
  .refine((value) => Object.keys(value).length <= 100, 'at most 100 variables');

/** Resource limits (null: none); the agent enforces them (docs/servers.md#resource-limits). */
const MEMORY_LIMIT_MB = { min: 64, max: 1_048_576 } as const;
const CPU_LIMIT_PERCENT = { min: 1, max: 102_400 } as const;
const MEMORY_LIMIT_MESSAGE = `memoryLimitMb must be a whole number of MiB between ${MEMORY_LIMIT_MB.min} and ${MEMORY_LIMIT_MB.max}, or null`;
const CPU_LIMIT_MESSAGE = `cpuLimitPercent must be a whole number between ${CPU_LIMIT_PERCENT.min} and ${CPU_LIMIT_PERCENT.max}, or null`;
const memoryLimitMb = z
  .int({ message: MEMORY_LIMIT_MESSAGE })
  .min(MEMORY_LIMIT_MB.min, MEMORY_LIMIT_MESSAGE)
  .max(MEMORY_LIMIT_MB.max, MEMORY_LIMIT_MESSAGE)
  .nullable()
  .meta({ description: 'Memory limit of the game process in MiB (64..1048576); null: no limit.', example: 8192 });
const cpuLimitPercent = z
  .int({ message: CPU_LIMIT_MESSAGE })
  .min(CPU_LIMIT_PERCENT.min, CPU_LIMIT_MESSAGE)
  .max(CPU_LIMIT_PERCENT.max, CPU_LIMIT_MESSAGE)
  .nullable()
  .meta({ description: 'CPU limit in percent of one core (1..102400; 150 = one and a half cores); null: no limit.', example: 200 });

// ---- machines

export const machineMetrics = z.object({ cpuPercent: z.number(), memoryUsedBytes: z.number(), diskUsedBytes: z.number(), at: timestamp });

export const machine = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    name: z.string(),
    status: z.enum(MACHINE_STATUSES),
    hostname: z.string().nullable(),
    os: z.string().nullable(),
    agentVersion: z.string().nullable(),
    cpuCount: z.int().nullable(),
    memoryBytes: z.number().nullable(),
    metrics: machineMetrics.nullable(),
    lastSeenAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Machine' });

export const agentConnect = z.object({
  url: z.string().meta({ description: 'Origin of the agent gateway.' }),
  path: z.string().meta({ description: 'Gateway path (also served at /agent/ws and /ws/agent).' }),
});
export const agentInstall = z.object({
  command: z.string().meta({
    description:
      'One line to paste on the machine (Linux, Node.js 20+, as a sudoer): installs the agent package of this service, writes its configuration with this token (mode 0600) and starts it as a systemd service. The token travels on standard input. Shown only in this answer.',
  }),
});
export const machineRegistered = machine
  .extend({ agentToken: z.string().meta({ description: 'The agent token, shown only in this answer.' }), connect: agentConnect, install: agentInstall })
  .meta({ id: 'MachineRegistered' });
export const agentTokenRotated = z.object({ agentToken: z.string(), connect: agentConnect, install: agentInstall }).meta({ id: 'AgentTokenRotated' });

export const createMachineBody = z.object({ name }).strict();
export const machineListQuery = z
  .object({ ...paginationQuery, sort: sortQuery(['name', 'createdAt', 'lastSeenAt'], 'createdAt'), status: enumFilter(MACHINE_STATUSES).optional() })
  .strict();
export const deleteMachineQuery = z.object({ force: booleanQuery.optional() }).strict();

// ---- servers

export const serverStats = z
  .object({ cpuPercent: z.number(), memoryBytes: z.number(), at: timestamp })
  .meta({ id: 'ServerStats', example: { cpuPercent: 37.5, memoryBytes: 2147483648, at: '2026-11-24T03:00:00.000Z' } });

export const server = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    machineId: z.string(),
    name: z.string(),
    gameType: z.enum(GAME_TYPES),
    gamePort: z.int(),
    queryPort: z.int(),
    rconPort: z.int(),
    maxPlayers: z.int(),
    status: z.enum(SERVER_STATUSES),
    desiredStatus: z.enum(DESIRED_STATUSES),
    playersOnline: z.int(),
    autoRestart: z.boolean(),
    startCommand: z.string().nullable(),
    env: z.record(z.string(), z.string()).nullable(),
    memoryLimitMb: z.int().nullable().meta({ description: 'Memory limit of the game process in MiB; null: no limit.' }),
    cpuLimitPercent: z.int().nullable().meta({ description: 'CPU limit in percent of one core (150 = one and a half cores); null: no limit.' }),
    lastStatusAt: timestamp.nullable(),
    statusReason: z
      .string()
      .nullable()
      .meta({ description: 'Why the server is in its status, from its agent: e.g. `command not found: ./RustDedicated`, `exited with code 1`.' }),
    lastExitCode: z.int().nullable().meta({ description: 'How its process last ended (null: never ended, or ended by a signal).' }),
    stats: serverStats.nullable().meta({ description: 'The latest CPU and memory sample, while it runs (null before the first one).' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Server' });

const serverFields = {
  machineId: id,
  name,
  gameType,
  gamePort: port,
  queryPort: port,
  rconPort: port,
  maxPlayers: z.int().min(1).max(1000).optional(),
  autoRestart: z.boolean().optional(),
  startCommand: z.string().trim().min(1).max(1024).nullable().optional(),
  env: env.nullable().optional(),
  memoryLimitMb: memoryLimitMb.optional(),
  cpuLimitPercent: cpuLimitPercent.optional(),
  rconPassword: z
    .string()
    .min(8, 'must be at least 8 characters')
    .max(128)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    .optional(),
};

type PortFields = { gamePort?: number; queryPort?: number; rconPort?: number };

/** The three ports of one server differ; CUSTOM needs a start command. Reported on the offending field. */
function checkServer(value: PortFields & { gameType?: GameType; startCommand?: string | null }, context: z.RefinementCtx) {
  const ports: [keyof PortFields, number | undefined][] = [
    ['gamePort', value.gamePort],
    ['queryPort', value.queryPort],
    ['rconPort', value.rconPort],
  ];
  ports.forEach(([field, portValue], index) => {
    if (portValue !== undefined && ports.slice(0, index).some(([, earlier]) => earlier === portValue)) {
      context.addIssue({ code: 'custom', path: [field], message: 'the game, query and RCON ports of a server must differ' });
    }
  });
  if (value.gameType && NEEDS_START_COMMAND.has(value.gameType) && !value.startCommand) {
    context.addIssue({ code: 'custom', path: ['startCommand'], message: `required for ${value.gameType} servers` });
  }
}

export const createServerBody = z.object(serverFields).strict().superRefine(checkServer);
export const createServerVariantBody = z
  .object({ clusterId: id, ...serverFields })
  .strict()
  .superRefine(checkServer);
export const updateServerBody = z
  .object({
    name: name.optional(),
    gamePort: port.optional(),
    queryPort: port.optional(),
    rconPort: port.optional(),
    maxPlayers: serverFields.maxPlayers,
    autoRestart: serverFields.autoRestart,
    startCommand: serverFields.startCommand,
    env: serverFields.env,
    memoryLimitMb: serverFields.memoryLimitMb,
    cpuLimitPercent: serverFields.cpuLimitPercent,
    rconPassword: serverFields.rconPassword,
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'give at least one field to change');

const serverListFields = {
  ...paginationQuery,
  sort: sortQuery(['name', 'createdAt', 'status', 'gameType', 'playersOnline'], 'createdAt'),
  status: enumFilter(SERVER_STATUSES).optional(),
  gameType: enumFilter(GAME_TYPES).optional(),
  /** Alias of gameType (a variant in the seed's examples). */
  game: enumFilter(GAME_TYPES).optional(),
  machineId: id.optional(),
};
export const clusterServerListQuery = z.object(serverListFields).strict();
export const serverListQuery = z.object({ ...serverListFields, clusterId: id.optional() }).strict();
