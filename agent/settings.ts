/**
 * The agent's settings (docs/agent.md#settings): a configuration file (JSON, mode 0600, written by
 * `gsm-agent install`; default /etc/gsm-agent/config.json), environment variables and options, later ones winning.
 * The token belongs in the file or in GSM_AGENT_TOKEN: an option would show it in the process list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { USER_NAME } from './servers/accounts.ts';
import { s3TargetSchema } from './backups/s3Client.ts';
import { DEFAULT_MANIFEST_URL } from './installs/minecraft.ts';
import { DEFAULT_STEAMCMD_URL } from './installs/steam.ts';
import { DEFAULT_PIDS_MAX } from './runtime/cgroups.ts';

export const DEFAULT_CONFIG_PATH = '/etc/gsm-agent/config.json';
export const TOKEN_PATTERN = /^gsm_agent_[0-9A-Za-z]{43}$/;

const urlMessage = 'expected the service URL, e.g. http://localhost:3000 (several: comma-separated)';
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1')]);

export const settingsSchema = z.object({
  /** One gateway or several (comma-separated or a list): tried in turn when a connection fails. */
  url: z
    .union([z.string({ message: urlMessage }), z.array(z.string())], { message: urlMessage })
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((part) => part.trim()).filter((part) => part.length > 0))
    .pipe(z.array(z.url({ message: urlMessage })).min(1, 'expected the service URL')),
  machineId: z.uuid({ message: 'expected the machine id' }),
  token: z.string({ message: 'expected the agent token (gsm_agent_…)' }).regex(TOKEN_PATTERN, 'expected the agent token (gsm_agent_…)'),
  dataDir: z
    .string()
    .min(1)
    .transform((dir) => resolve(dir)),
  path: z.string().startsWith('/').default('/ws'),
  /** Graceful stop: SIGTERM after this, SIGKILL after twice this (default 30 s and 60 s). */
  stopTimeoutMs: z.coerce.number().int().positive().default(30_000),
  /** How long a running MINECRAFT world may take to flush (`save-all flush`) before its backup fails (default 2 min). */
  flushTimeoutMs: z.coerce.number().int().positive().default(120_000),
  /** How often running servers' stats and player lists are reported (default 10 s and 30 s). */
  reportIntervalMs: z.coerce.number().int().positive().optional(),
  /** How often a server's disk usage is measured for its stats (default 5 min; docs/files.md#disk-usage). */
  diskUsageIntervalMs: z.coerce.number().int().min(1000, 'expected at least 1000 ms').default(300_000),
  /** How often ONLINE servers with a query protocol are queried (default 15 s; docs/agent.md#query). */
  queryIntervalMs: z.coerce.number().int().min(100, 'expected at least 100 ms').default(15_000),
  /** The group of the servers' accounts, and the prefix of their names (agent running as root). */
  user: z.string().regex(USER_NAME, 'expected a user name (lower-case letters, digits, _ and -; at most 19 characters)').default('gsm'),
  /** Run game servers as root when the agent is root (not recommended). */
  allowRoot: flag.default(false),
  /** Most processes and threads one server may have (cgroup v2 `pids.max`, where the agent manages cgroups). */
  serverPidsMax: z.coerce.number().int().min(64, 'expected at least 64').max(4_194_304).default(DEFAULT_PIDS_MAX),
  /** Stop every game server when the agent exits (by default they keep running and the next agent adopts them). */
  stopServersOnExit: flag.default(false),
  /** Serve SFTP (default on). */
  sftp: flag.default(true),
  /** The SFTP service's port (default 2022; 0: any free port, for tests). */
  sftpPort: z.coerce.number().int().min(0).max(65535).default(2022),
  /** How often open SFTP sessions are checked again with the service (default 15 s; changes are also pushed at once). */
  sftpRecheckMs: z.coerce.number().int().min(500).max(600_000).default(15_000),
  /** The address the SFTP service listens on (default every address). */
  sftpAddress: z.string().min(1).max(255).default('0.0.0.0'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where MINECRAFT installs read the version manifest (default Mojang's). */
  minecraftManifestUrl: z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' }).default(DEFAULT_MANIFEST_URL),
  /** Where SteamCMD is downloaded from on first use (default Valve's). */
  steamcmdUrl: z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' }).default(DEFAULT_STEAMCMD_URL),
  /** Backups go to this S3-compatible storage instead of staying on the machine (a JSON object in GSM_BACKUP_S3). */
  backupS3: z
    .union([z.string().transform((text, context) => parseJson(text, context)), z.record(z.string(), z.unknown())])
    .pipe(s3TargetSchema)
    .optional(),
});

function parseJson(text: string, context: z.RefinementCtx): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.addIssue({ code: 'custom', message: 'expected a JSON object: endpoint, bucket, region, accessKeyId, secretAccessKey, prefix' });
    return z.NEVER;
  }
}
export type AgentSettings = z.output<typeof settingsSchema>;

/** The configuration file's fields (a subset of the settings; unknown keys are refused, catching typos). */
const fileSchema = z
  .object({
    url: z.unknown(),
    machineId: z.unknown(),
    token: z.unknown(),
    dataDir: z.unknown(),
    path: z.unknown(),
    stopTimeoutMs: z.unknown(),
    flushTimeoutMs: z.unknown(),
    reportIntervalMs: z.unknown(),
    diskUsageIntervalMs: z.unknown(),
    queryIntervalMs: z.unknown(),
    user: z.unknown(),
    allowRoot: z.unknown(),
    serverPidsMax: z.unknown(),
    stopServersOnExit: z.unknown(),
    sftp: z.unknown(),
    sftpPort: z.unknown(),
    sftpAddress: z.unknown(),
    sftpRecheckMs: z.unknown(),
    logLevel: z.unknown(),
    minecraftManifestUrl: z.unknown(),
    steamcmdUrl: z.unknown(),
    backupS3: z.unknown(),
  })
  .partial()
  .strict();

export type SettingsInput = { [K in keyof AgentSettings]?: unknown } & { config?: string };

/** Reads the configuration file; an explicit path must exist, the default one may not. */
export function readConfigFile(path: string | undefined): Record<string, unknown> {
  const file = path ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : undefined);
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the configuration file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const checked = fileSchema.safeParse(parsed);
  if (!checked.success)
    throw new Error(
      `the configuration file ${file} is not valid: ${checked.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ')}`,
    );
  return checked.data;
}

/** Options over environment over the configuration file; undefined values do not override. */
export function loadSettings(options: SettingsInput, env: NodeJS.ProcessEnv = process.env): { settings?: AgentSettings; errors: string[] } {
  let file: Record<string, unknown>;
  try {
    file = readConfigFile(options.config ?? env.GSM_CONFIG);
  } catch (error) {
    return { errors: [(error as Error).message] };
  }
  const fromEnv: Record<string, unknown> = {
    url: env.GSM_URL,
    machineId: env.GSM_MACHINE_ID,
    token: env.GSM_AGENT_TOKEN,
    dataDir: env.GSM_DATA_DIR,
    path: env.GSM_GATEWAY_PATH,
    stopTimeoutMs: env.GSM_STOP_TIMEOUT_MS,
    flushTimeoutMs: env.GSM_FLUSH_TIMEOUT_MS,
    reportIntervalMs: env.GSM_REPORT_INTERVAL_MS,
    diskUsageIntervalMs: env.GSM_DISK_USAGE_INTERVAL_MS,
    queryIntervalMs: env.GSM_QUERY_INTERVAL_MS,
    user: env.GSM_USER,
    allowRoot: env.GSM_ALLOW_ROOT,
    serverPidsMax: env.GSM_SERVER_PIDS_MAX,
    stopServersOnExit: env.GSM_STOP_SERVERS_ON_EXIT,
    sftp: env.GSM_SFTP,
    sftpPort: env.GSM_SFTP_PORT,
    sftpAddress: env.GSM_SFTP_ADDRESS,
    sftpRecheckMs: env.GSM_SFTP_RECHECK_MS,
    logLevel: env.LOG_LEVEL,
    minecraftManifestUrl: env.GSM_MINECRAFT_MANIFEST_URL ?? env.MINECRAFT_MANIFEST_URL,
    steamcmdUrl: env.GSM_STEAMCMD_URL ?? env.STEAMCMD_URL,
    backupS3: env.GSM_BACKUP_S3,
  };
  const merged: Record<string, unknown> = { dataDir: './agent-data' };
  for (const layer of [file, fromEnv, options as Record<string, unknown>])
    for (const [key, value] of Object.entries(layer)) if (value !== undefined && key !== 'config') merged[key] = value;
  const parsed = settingsSchema.safeParse(merged);
  if (!parsed.success) return { errors: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  return { settings: parsed.data, errors: [] };
}
