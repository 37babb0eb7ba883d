/**
 * Schemas of machines and game servers (docs/api.md). Request bodies are strict; `rconPassword` is write-only.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { GAME_TYPES, NEEDS_START_COMMAND, type GameType } from './games.ts';
import { PORT_NAME, PORT_PROTOCOLS, QUERY_PROTOCOLS, SEED_PORT_NAMES } from './gamePorts.ts';
import { booleanQuery, enumFilter, id, name, paginationQuery, sortQuery, timestamp } from './http.ts';
import { behaviourIssues, consoleModeBody, readyBody, stopBody, type BehaviourFields } from './serverBehaviour.ts';
import { isStorableText } from './storable.ts';
import { VARIABLE_NAME_PATTERN } from './template.ts';

export const MACHINE_STATUSES = ['ONLINE', 'OFFLINE'] as const;
export const SERVER_STATUSES = [
  'INSTALLING',
  'INSTALL_FAILED',
  'OFFLINE',
  'STARTING',
  'ONLINE',
  'UNRESPONSIVE',
  'STOPPING',
  'RESTARTING',
  'CRASHED',
  'UNKNOWN',
] as const;
export const DESIRED_STATUSES = ['RUNNING', 'STOPPED'] as const;

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

/** Installs and backups (docs/installs-and-backups.md). */
const version = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, 'letters, digits, dots, dashes, underscores and plus signs (e.g. 1.21.4 or latest)')
  .nullable()
  .meta({
    description: 'The game version to install: MINECRAFT a release or snapshot id (e.g. `1.21.4`), `latest` or null for the latest release.',
    example: '1.21.4',
  });
const installCommand = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(1024, 'must be at most 1024 characters')
  .refine((command) => ![...command].some((c) => c < ' ' || c === '\u007f'), 'must be one line without control characters')
  .nullable()
  .meta({
    description: 'CUSTOM servers: the command an INSTALL or UPDATE runs in the server directory (split like a shell command line, not run by a shell).',
  });
const BACKUP_RETENTION_MESSAGE = 'backupRetention must be a whole number between 1 and 100';
const backupRetention = z
  .int({ message: BACKUP_RETENTION_MESSAGE })
  .min(1, BACKUP_RETENTION_MESSAGE)
  .max(100, BACKUP_RETENTION_MESSAGE)
  .meta({ description: 'Completed backups kept (1..100, default 5): the oldest beyond it are deleted when a backup completes.', example: 5 });

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
    agentVersion: z.string().nullable().meta({ description: 'The version its agent reported when it last connected.' }),
    upgradeAvailable: z.boolean().meta({
      description:
        "Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it.",
    }),
    cpuCount: z.int().nullable(),
    memoryBytes: z.number().nullable(),
    metrics: machineMetrics.nullable(),
    addresses: z.array(z.string()).meta({ description: 'The addresses its operators gave it (docs/servers.md#ports-and-allocations).' }),
    reportedAddresses: z.array(z.string()).meta({ description: 'The addresses its agent reported (its network interfaces, loopback aside).' }),
    tools: z
      .array(z.string())
      .nullable()
      .optional()
      .meta({ description: "The programs its agent found on its PATH (of those templates' installs use); null: not reported yet." }),
    sftp: z
      .object({
        port: z
          .int()
          .meta({ description: "The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`." }),
        hostKeyFingerprint: z
          .string()
          .nullable()
          .meta({ description: "SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection." }),
      })
      .nullable()
      .meta({ description: "The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it." }),
    lastSeenAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Machine' });
/** A machine as stored: `upgradeAvailable` is the service's to say (its agent package's version). */
export const machineRow = machine.omit({ upgradeAvailable: true });

export const agentConnect = z.object({
  url: z.string().meta({ description: 'Origin of the agent gateway.' }),
  path: z.string().meta({ description: 'Gateway path (also served at /agent/ws and /ws/agent).' }),
});
export const agentInstall = z.object({
  command: z.string().meta({
    description:
      'One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.',
  }),
  upgradeCommand: z.string().meta({
    description: "The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).",
  }),
  expiresAt: timestamp.meta({ description: "When the line's registration code stops working (one hour after it was made)." }),
});
export const machineRegistered = machine
  .extend({ agentToken: z.string().meta({ description: 'The agent token, shown only in this answer.' }), connect: agentConnect, install: agentInstall })
  .meta({ id: 'MachineRegistered' });
export const agentTokenRotated = z.object({ agentToken: z.string(), connect: agentConnect, install: agentInstall }).meta({ id: 'AgentTokenRotated' });
export const machineInstallCode = z.object({ connect: agentConnect, install: agentInstall }).meta({ id: 'MachineInstallCode' });
export const installCodeExchangeBody = z
  .object({
    code: z
      .string()
      .regex(/^gsm_install_[0-9A-Za-z]{43}$/, 'expected a registration code (gsm_install_ followed by 43 letters and digits)')
      .meta({ description: 'The single-use registration code of an install line.' }),
  })
  .strict();
export const installCodeExchanged = z
  .object({
    machineId: id,
    agentToken: z.string().meta({ description: 'The agent token (`gsm_agent_…`), answered to this one exchange only.' }),
    connect: agentConnect,
  })
  .meta({ id: 'InstallCodeExchanged' });

export const createMachineBody = z.object({ name }).strict();

// ---- port allocations

const address = z
  .string()
  .trim()
  .max(253)
  .refine(
    (value) => isIP(value) !== 0 || /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(value),
    {
      message: 'expected an IPv4 or IPv6 address, or a host name',
    },
  );
export const machineAddressesBody = z
  .object({
    addresses: z
      .array(address)
      .max(32, 'at most 32 addresses')
      .refine((list) => new Set(list).size === list.length, 'addresses must differ')
      .meta({ description: 'The addresses players reach this machine at (IPv4, IPv6 or host names), in the order shown.', example: ['203.0.113.10'] }),
  })
  .strict();
export const MAX_RANGE_PORTS = 10_000;
export const portRangeBody = z
  .object({ firstPort: port, lastPort: port })
  .strict()
  .superRefine((value, context) => {
    if (value.lastPort < value.firstPort) context.addIssue({ code: 'custom', path: ['lastPort'], message: 'lastPort must not be below firstPort' });
    else if (value.lastPort - value.firstPort + 1 > MAX_RANGE_PORTS)
      context.addIssue({ code: 'custom', path: ['lastPort'], message: `a range holds at most ${MAX_RANGE_PORTS} ports` });
  });
export const portRange = z
  .object({ id: z.string(), firstPort: z.int(), lastPort: z.int(), createdAt: timestamp })
  .meta({ id: 'PortRange', example: { id: '01936f0e-0000-7000-8000-000000000001', firstPort: 27000, lastPort: 27999, createdAt: '2026-11-24T03:00:00.000Z' } });
export const serverPort = z
  .object({
    name: z.string().meta({ description: '`game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`).' }),
    port: z.int(),
    protocol: z.enum(PORT_PROTOCOLS),
  })
  .meta({ id: 'ServerPort', example: { name: 'game', port: 28015, protocol: 'UDP' } });
export const machineAllocation = serverPort.extend({ serverId: z.string(), serverName: z.string() }).meta({
  id: 'MachineAllocation',
  description: 'A port of the machine and the server holding it.',
  example: { name: 'game', port: 28015, protocol: 'UDP', serverId: '01936f0e-0000-7000-8000-000000000002', serverName: 'EU #1' },
});
export const machineAllocations = z
  .object({
    addresses: z.array(z.string()),
    reportedAddresses: z.array(z.string()),
    ranges: z.array(portRange),
    allocations: z.array(machineAllocation).meta({ description: 'Every port a server holds on this machine, by port.' }),
    freePorts: z.int().meta({ description: 'Ports of the ranges no server holds (0 without ranges).' }),
  })
  .meta({
    id: 'MachineAllocations',
    example: {
      addresses: ['203.0.113.10'],
      reportedAddresses: ['203.0.113.10', '2001:db8::10'],
      ranges: [{ id: '01936f0e-0000-7000-8000-000000000001', firstPort: 28000, lastPort: 28999, createdAt: '2026-11-24T03:00:00.000Z' }],
      allocations: [
        { name: 'game', port: 28015, protocol: 'UDP', serverId: '01936f0e-0000-7000-8000-000000000002', serverName: 'EU #1' },
        { name: 'query', port: 28016, protocol: 'UDP', serverId: '01936f0e-0000-7000-8000-000000000002', serverName: 'EU #1' },
      ],
      freePorts: 998,
    },
  });
export const machineListQuery = z
  .object({ ...paginationQuery, sort: sortQuery(['name', 'createdAt', 'lastSeenAt'], 'createdAt'), status: enumFilter(MACHINE_STATUSES).optional() })
  .strict();
export const deleteMachineQuery = z.object({ force: booleanQuery.optional() }).strict();

// ---- servers

export const serverStats = z
  .object({
    cpuPercent: z.number(),
    memoryBytes: z.number(),
    diskBytes: z.number().optional().meta({
      description:
        "Bytes the server's directory takes on disk, as last measured by its agent (every 5 minutes by default; absent before the first measurement).",
    }),
    at: timestamp,
  })
  .meta({ id: 'ServerStats', example: { cpuPercent: 37.5, memoryBytes: 2147483648, diskBytes: 3221225472, at: '2026-11-24T03:00:00.000Z' } });

export const serverQuery = z
  .object({
    protocol: z.enum(QUERY_PROTOCOLS),
    answering: z.boolean(),
    players: z.int().nullable(),
    playerNames: z.array(z.string()).nullable().meta({ description: 'Names of the players online, where the game gives them.' }),
    maxPlayers: z.int().nullable(),
    map: z.string().nullable(),
    version: z.string().nullable(),
    latencyMs: z.number().nullable(),
    failures: z.int().meta({ description: 'Failed queries in a row (0 while it answers).' }),
    error: z.string().nullable().meta({ description: 'Why the latest query failed.' }),
    checkedAt: timestamp,
  })
  .meta({
    id: 'ServerQuery',
    example: {
      protocol: 'A2S',
      answering: true,
      players: 2,
      playerNames: ['Alice', 'Bob'],
      maxPlayers: 100,
      map: 'Procedural Map',
      version: '2590',
      latencyMs: 0.8,
      failures: 0,
      error: null,
      checkedAt: '2026-11-24T03:00:00.000Z',
    },
  });

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
    version: z.string().nullable().meta({ description: 'The game version an INSTALL or UPDATE installs (null: the latest release).' }),
    installedVersion: z.string().nullable().meta({ description: 'What the last successful INSTALL or UPDATE installed (null: never installed by the agent).' }),
    installedAt: timestamp.nullable(),
    osUser: z.string().nullable().meta({ description: 'The OS account the server runs as on its machine, as its agent reported it (null: not reported yet).' }),
    acceptEula: z.boolean().meta({ description: "MINECRAFT: you accept Mojang's EULA; the agent writes `eula=true` only then." }),
    installCommand: z.string().nullable(),
    backupRetention: z.int(),
    ready: readyBody,
    consoleMode: consoleModeBody,
    stop: stopBody,
    templateId: z.string().nullable().meta({
      description: "Its game template (docs/templates.md): a built-in's id (`rust`) or a cluster template's id; null: none (a CUSTOM server's own command).",
    }),
    templateVersion: z.int().nullable().meta({
      description:
        'The version of its template its running process (or its last run) was started with, as its agent reports it (a change applies at its next start).',
    }),
    templateLatestVersion: z
      .int()
      .nullable()
      .optional()
      .meta({ description: 'The newest version of its template: its next start runs it (above templateVersion: a newer one is available).' }),
    variables: z
      .record(z.string(), z.string())
      .meta({ description: "Its values of the template's variables (secret ones are never shown: see secretVariables)." }),
    secretVariables: z
      .record(z.string(), z.boolean())
      .meta({ description: 'The secret variables that have a value of their own, each as true (their values are never returned); one not listed has none.' }),
    ports: z.array(serverPort).meta({ description: 'The named ports the server holds on its machine (game, query, rcon, extras), by name.' }),
    queryProtocol: z
      .enum([...QUERY_PROTOCOLS, 'NONE'])
      .nullable()
      .meta({ description: "The server's own query protocol (null: its game's; NONE: never queried)." }),
    query: serverQuery.nullable().meta({ description: 'What the latest query found (null: never queried).' }),
    unresponsiveAfter: z.int().meta({ description: 'Failed queries in a row (15 s apart) after which an ONLINE server is UNRESPONSIVE.' }),
    restartWhenUnresponsive: z.boolean().meta({ description: 'An UNRESPONSIVE server is restarted by its crash policy.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Server' });

/** A template's id: a built-in's slug or a cluster template's uuid. */
const templateId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a template id (GET /api/v1/templates)')
  .meta({ description: "The game template to run (GET /api/v1/templates). Default: the gameType's built-in one (none for CUSTOM)." });
/** Values of the template's variables, by name (checked against its validation). */
const variables = z
  .record(
    z.string().regex(VARIABLE_NAME_PATTERN, 'variable names are upper case letters, digits and _'),
    z
      .string()
      .max(4096, 'must be at most 4096 characters')
      .refine(isStorableText, 'must not contain NUL or lone surrogate characters')
      .refine((value) => ![...value].some((c) => c < ' ' || c === '\u007f'), 'must be one line without control characters'),
  )
  .meta({ description: "Values of the template's variables, by name; each checked against the variable's validation." });
const extraPorts = z
  .record(z.string().regex(PORT_NAME, 'port names are lower-case letters, digits, _ and -, starting with a letter (at most 32)'), port)
  .superRefine((value, context) => {
    if (Object.keys(value).length > 16) context.addIssue({ code: 'custom', message: 'at most 16 extra ports' });
    for (const name of SEED_PORT_NAMES) if (name in value) context.addIssue({ code: 'custom', path: [name], message: `give the ${name} port as ${name}Port` });
  })
  .meta({ description: 'Extra named ports, explicit (e.g. `{"app": 28082}`); those of its game not given here are picked.' });
const queryProtocol = z
  .enum([...QUERY_PROTOCOLS, 'NONE'])
  .nullable()
  .meta({ description: 'How the server is queried: A2S, MINECRAFT (Server List Ping), TCP (connect only), NONE; null: its game’s.' });
const UNRESPONSIVE_MESSAGE = 'unresponsiveAfter must be a whole number between 1 and 100';
const unresponsiveAfter = z
  .int({ message: UNRESPONSIVE_MESSAGE })
  .min(1, UNRESPONSIVE_MESSAGE)
  .max(100, UNRESPONSIVE_MESSAGE)
  .meta({ description: 'Failed queries in a row after which an ONLINE server is UNRESPONSIVE (default 5).', example: 5 });

const serverFields = {
  machineId: id,
  name,
  gameType,
  gamePort: port.optional().meta({ description: 'Absent: picked free from the machine’s port ranges (docs/servers.md#ports-and-allocations).' }),
  queryPort: port.optional(),
  rconPort: port.optional(),
  ports: extraPorts.optional(),
  queryProtocol: queryProtocol.optional(),
  unresponsiveAfter: unresponsiveAfter.optional(),
  restartWhenUnresponsive: z.boolean().optional(),
  maxPlayers: z.int().min(1).max(1000).optional(),
  autoRestart: z.boolean().optional(),
  startCommand: z.string().trim().min(1).max(1024).nullable().optional(),
  env: env.nullable().optional(),
  memoryLimitMb: memoryLimitMb.optional(),
  cpuLimitPercent: cpuLimitPercent.optional(),
  version: version.optional(),
  acceptEula: z.boolean().optional(),
  installCommand: installCommand.optional(),
  backupRetention: backupRetention.optional(),
  ready: readyBody.optional(),
  consoleMode: consoleModeBody.optional(),
  stop: stopBody.optional(),
  templateId: templateId.optional(),
  variables: variables.optional(),
  rconPassword: z
    .string()
    .min(8, 'must be at least 8 characters')
    .max(128)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    // Source games get it in a console config (`rcon_password "…"`), where a `"` would end the value (docs/templates.md).
    .refine((value) => !value.includes('"'), 'must not hold " (a game config file could not quote it)')
    .optional(),
};

type PortFields = { gamePort?: number; queryPort?: number; rconPort?: number };

/** The three ports of one server differ; CUSTOM needs a start command. Reported on the offending field. */
function checkServer(
  value: PortFields &
    BehaviourFields & { gameType?: GameType; startCommand?: string | null; installCommand?: string | null; autoInstall?: boolean; templateId?: string },
  context: z.RefinementCtx,
) {
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
  // A template has its own start command.
  if (value.gameType && NEEDS_START_COMMAND.has(value.gameType) && !value.startCommand && !value.templateId) {
    context.addIssue({ code: 'custom', path: ['startCommand'], message: `required for ${value.gameType} servers` });
  }
  if (value.autoInstall && value.gameType === 'CUSTOM' && !value.installCommand && !value.templateId) {
    context.addIssue({ code: 'custom', path: ['installCommand'], message: 'required to install a CUSTOM server' });
  }
  if (value.gameType)
    for (const issue of behaviourIssues(value.gameType, value)) context.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
}

const autoInstall = z.boolean().optional().meta({
  description:
    "Install the game at once (an INSTALL job). Default: true when the server runs its game's default start command (no startCommand of its own), else false.",
});
export const createServerBody = z
  .object({ ...serverFields, autoInstall })
  .strict()
  .superRefine(checkServer);
export const createServerVariantBody = z
  .object({ clusterId: id, ...serverFields, autoInstall })
  .strict()
  .superRefine(checkServer);
export const updateServerBody = z
  .object({
    name: name.optional(),
    gamePort: port.optional(),
    queryPort: port.optional(),
    rconPort: port.optional(),
    ports: serverFields.ports,
    queryProtocol: serverFields.queryProtocol,
    unresponsiveAfter: serverFields.unresponsiveAfter,
    restartWhenUnresponsive: serverFields.restartWhenUnresponsive,
    maxPlayers: serverFields.maxPlayers,
    autoRestart: serverFields.autoRestart,
    startCommand: serverFields.startCommand,
    env: serverFields.env,
    memoryLimitMb: serverFields.memoryLimitMb,
    cpuLimitPercent: serverFields.cpuLimitPercent,
    version: serverFields.version,
    acceptEula: serverFields.acceptEula,
    installCommand: serverFields.installCommand,
    backupRetention: serverFields.backupRetention,
    ready: serverFields.ready,
    consoleMode: serverFields.consoleMode,
    stop: serverFields.stop,
    rconPassword: serverFields.rconPassword,
    templateId: templateId.nullable().optional(),
    variables: variables.optional().meta({ description: 'Values to set (the others stay as they are); an empty text sets the default again.' }),
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
