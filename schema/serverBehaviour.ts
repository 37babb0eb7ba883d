/**
 * How a CUSTOM server says it is ready, takes console commands and stops (docs/servers.md#custom-servers), for games
 * without a template: ready on an output line, an open port, RCON or at once; console on RCON, standard input or none;
 * stop by a console command or a signal, then the kill. Null on a server: the game's own behaviour.
 */
import { z } from 'zod';
import { linearPatternProblem } from './linearRegExp.ts';
import { isStorableText } from './storable.ts';

export const READY_MODES = ['LINE', 'PORT', 'RCON', 'IMMEDIATE'] as const;
export const CONSOLE_MODES = ['RCON', 'STDIN', 'NONE'] as const;
export const STOP_MODES = ['COMMAND', 'SIGNAL'] as const;
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGHUP', 'SIGUSR1', 'SIGUSR2'] as const;

/** STARTING lasts at most this long by default before the server counts as CRASHED. */
export const DEFAULT_READY_TIMEOUT_SECONDS = 300;
/** A stop by command or signal waits this long before the kill by default. */
export const DEFAULT_STOP_GRACE_SECONDS = 30;
/**
 * The longest each may be: a RESTART (a stop: grace, 30 s to SIGKILL, then a start: its time-out) must end within the
 * 10 minutes a power job lives before it expires.
 */
export const MAX_READY_TIMEOUT_SECONDS = 420;
export const MAX_STOP_GRACE_SECONDS = 120;

const seconds = (what: string, max: number) =>
  z
    .int({ message: `${what} must be a whole number of seconds` })
    .min(1, `${what} must be at least 1`)
    .max(max, `${what} must be at most ${max} seconds (a power job must end within its 10 minutes)`);

/** As the agent receives them (the service checked them; the agent trusts their shape, not their sense). */
export const readySpec = z.object({
  mode: z.enum(READY_MODES),
  pattern: z.string().optional(),
  port: z.int().optional(),
  timeoutSeconds: z.int().optional(),
});
export const stopSpec = z.object({
  mode: z.enum(STOP_MODES),
  command: z.string().optional(),
  signal: z.enum(STOP_SIGNALS).optional(),
  graceSeconds: z.int().optional(),
});
export type ReadySpec = z.infer<typeof readySpec>;
export type StopSpec = z.infer<typeof stopSpec>;
export type ConsoleMode = (typeof CONSOLE_MODES)[number];

const oneLine = (text: string) => ![...text].some((c) => c < ' ' || c === '\u007f');

/** The API's `ready`: checked at the boundary (a pattern that does not compile is a 400, not a server stuck in STARTING). */
export const readyBody = z
  .strictObject({
    mode: z.enum(READY_MODES, { message: `mode must be one of ${READY_MODES.join(', ')}` }),
    pattern: z
      .string()
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      // Stored in jsonb, which refuses them (a 500 otherwise).
      .refine(isStorableText, { message: 'must not contain NUL or lone surrogate characters', abort: true })
      .superRefine((pattern, context) => {
        const problem = linearPatternProblem(pattern);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .meta({
        description:
          'LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`.',
      }),
    port: z
      .int({ message: 'port must be a whole number' })
      .min(1, 'port must be between 1 and 65535')
      .max(65535, 'port must be between 1 and 65535')
      .optional()
      .meta({
        description:
          'PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one).',
      }),
    timeoutSeconds: seconds('timeoutSeconds', MAX_READY_TIMEOUT_SECONDS)
      .optional()
      .meta({
        description: `How long STARTING may last before the server is CRASHED (default ${DEFAULT_READY_TIMEOUT_SECONDS}, at most ${MAX_READY_TIMEOUT_SECONDS}).`,
      }),
  })
  .superRefine((ready, context) => {
    if (ready.mode === 'LINE' && !ready.pattern) context.addIssue({ code: 'custom', path: ['pattern'], message: 'required when mode is LINE' });
    if (ready.mode !== 'LINE' && ready.pattern !== undefined) context.addIssue({ code: 'custom', path: ['pattern'], message: 'only for mode LINE' });
    if (ready.mode !== 'PORT' && ready.port !== undefined) context.addIssue({ code: 'custom', path: ['port'], message: 'only for mode PORT' });
  })
  .nullable()
  .meta({
    description:
      'CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).',
    example: { mode: 'LINE', pattern: 'Server started', timeoutSeconds: 120 },
  });

export const consoleModeBody = z
  .enum(CONSOLE_MODES, { message: `consoleMode must be one of ${CONSOLE_MODES.join(', ')}` })
  .nullable()
  .meta({
    description:
      'CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON.',
  });

export const stopBody = z
  .strictObject({
    mode: z.enum(STOP_MODES, { message: `mode must be one of ${STOP_MODES.join(', ')}` }),
    command: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      .refine(oneLine, 'must be one line without control characters')
      .refine(isStorableText, 'must not contain NUL or lone surrogate characters')
      .optional()
      .meta({ description: 'COMMAND: sent on the console, e.g. `stop`.' }),
    signal: z.enum(STOP_SIGNALS, { message: `signal must be one of ${STOP_SIGNALS.join(', ')}` }).optional(),
    graceSeconds: seconds('graceSeconds', MAX_STOP_GRACE_SECONDS)
      .optional()
      .meta({
        description: `How long the server may take to exit before SIGTERM (default ${DEFAULT_STOP_GRACE_SECONDS}, at most ${MAX_STOP_GRACE_SECONDS}); SIGKILL follows 30 s later.`,
      }),
  })
  .superRefine((stop, context) => {
    if (stop.mode === 'COMMAND' && !stop.command) context.addIssue({ code: 'custom', path: ['command'], message: 'required when mode is COMMAND' });
    if (stop.mode === 'SIGNAL' && !stop.signal) context.addIssue({ code: 'custom', path: ['signal'], message: 'required when mode is SIGNAL' });
    if (stop.mode !== 'COMMAND' && stop.command !== undefined) context.addIssue({ code: 'custom', path: ['command'], message: 'only for mode COMMAND' });
    if (stop.mode !== 'SIGNAL' && stop.signal !== undefined) context.addIssue({ code: 'custom', path: ['signal'], message: 'only for mode SIGNAL' });
  })
  .nullable()
  .meta({
    description:
      'CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.',
    example: { mode: 'SIGNAL', signal: 'SIGINT', graceSeconds: 20 },
  });

/** The first agent version that knows ready, consoleMode and stop (an older one would run the server without them). */
export const BEHAVIOUR_AGENT_VERSION = '0.1.0';

/** Whether an agent's `version` (`x.y.z`) is older than `since`; false when unknown or not of that form. */
export function olderAgent(version: string | null | undefined, since: string = BEHAVIOUR_AGENT_VERSION): boolean {
  const parts = (text: string) => /^(\d+)\.(\d+)\.(\d+)/.exec(text)?.slice(1).map(Number);
  const mine = version ? parts(version) : undefined;
  const wanted = parts(since)!;
  if (!mine) return false;
  const differs = mine.findIndex((part, index) => part !== wanted[index]);
  return differs !== -1 && mine[differs]! < wanted[differs]!;
}

/** Problems with setting these fields (non-null) on a machine whose agent reported `agentVersion`. */
export function agentVersionIssues(agentVersion: string | null | undefined, fields: BehaviourFields): { field: string; message: string }[] {
  if (!olderAgent(agentVersion)) return [];
  return (['ready', 'consoleMode', 'stop'] as const)
    .filter((field) => fields[field] !== undefined && fields[field] !== null)
    .map((field) => ({
      field,
      message: `the machine's agent is version ${agentVersion}, which does not know ${field} (it needs ${BEHAVIOUR_AGENT_VERSION} or newer): update the agent first`,
    }));
}

/** The three settings together, for the checks that need the game type and each other. */
export type BehaviourFields = {
  ready?: unknown;
  consoleMode?: ConsoleMode | null;
  stop?: { mode: string } | null;
  gamePort?: number;
  queryPort?: number;
  rconPort?: number;
};

/** Problems with these settings on a server of `gameType` (only CUSTOM takes them; a stop command needs a console). */
export function behaviourIssues(gameType: string, fields: BehaviourFields): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (gameType !== 'CUSTOM') {
    for (const field of ['ready', 'consoleMode', 'stop'] as const)
      if (fields[field] !== undefined && fields[field] !== null)
        issues.push({ field, message: `only CUSTOM servers take ${field}; a ${gameType} server uses its game's own` });
  } else {
    if (fields.consoleMode === 'NONE' && fields.stop?.mode === 'COMMAND')
      issues.push({ field: 'stop', message: 'a stop command needs a console: consoleMode is NONE' });
    // The agent connects to it as root: only to the server's own ports, not to any service on the machine.
    const port = (fields.ready as { mode?: string; port?: number } | null | undefined)?.port;
    const own = [fields.gamePort, fields.queryPort, fields.rconPort];
    if (port !== undefined && own.every((value) => value !== undefined) && !own.includes(port))
      issues.push({ field: 'ready', message: `port must be one of the server's own ports (gamePort, queryPort, rconPort: ${own.join(', ')})` });
  }
  return issues;
}
