/**
 * The agent's command line (docs/agent.md): `gsm-agent run|install|uninstall|status|--version`. Without a command,
 * options alone mean `run` (as `npm run agent -- --url …` always did).
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { AGENT_VERSION } from './version.ts';
import { DEFAULT_CONFIG_PATH, TOKEN_PATTERN, loadSettings, readConfigFile, settingsSchema } from './settings.ts';
import { DEFAULT_DATA_DIR, install, uninstall } from './selfInstall/systemUnit.ts';
import { runFileHelper } from './files/helperMain.ts';
import { tuneGarbageCollector } from '../schema/garbageCollection.ts';

const USAGE = `gsm-agent ${AGENT_VERSION}: runs game servers on this machine for the game server manager.

Usage:
  gsm-agent run [--config FILE] [options]     run in the foreground
  gsm-agent install --url URL [--machine-id ID] [--config FILE] [--data-dir DIR] [--user NAME] [--no-start]
                                              an install line's registration code, or with --machine-id
                                              the agent token on standard input (or --token-file FILE)
  gsm-agent uninstall [--config FILE] [--purge]
  gsm-agent status [--config FILE] [--json]
  gsm-agent --version

Default configuration file: ${DEFAULT_CONFIG_PATH}. See the service's docs/agent.md.
`;

const fail = (message: string, code = 2): never => {
  process.stderr.write(`gsm-agent: ${message}\n`);
  process.exit(code);
};

const RUN_OPTIONS = {
  config: { type: 'string' },
  url: { type: 'string' },
  'machine-id': { type: 'string' },
  token: { type: 'string' },
  'data-dir': { type: 'string' },
  path: { type: 'string' },
  'stop-timeout-ms': { type: 'string' },
  'flush-timeout-ms': { type: 'string' },
  'report-interval-ms': { type: 'string' },
  'disk-usage-interval-ms': { type: 'string' },
  'query-interval-ms': { type: 'string' },
  user: { type: 'string' },
  'allow-root': { type: 'boolean' },
  'stop-servers-on-exit': { type: 'boolean' },
  'no-sftp': { type: 'boolean' },
  'sftp-port': { type: 'string' },
  'sftp-address': { type: 'string' },
} as const;

function parse<T extends ParseArgsOptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`);
  }
}

/** The configuration file's settings; nothing when it is missing or unreadable (install replaces it anyway). */
function configOrNothing(path: string): Record<string, unknown> {
  try {
    return readConfigFile(path);
  } catch {
    return {};
  }
}

async function run(args: string[]): Promise<void> {
  const values = parse(args, RUN_OPTIONS);
  tuneGarbageCollector();
  if (values.token !== undefined)
    process.stderr.write('gsm-agent: warning: --token shows the token in the process list; use the configuration file or GSM_AGENT_TOKEN\n');
  const { settings, errors } = loadSettings({
    config: values.config,
    url: values.url,
    machineId: values['machine-id'],
    token: values.token,
    dataDir: values['data-dir'],
    path: values.path,
    stopTimeoutMs: values['stop-timeout-ms'],
    flushTimeoutMs: values['flush-timeout-ms'],
    reportIntervalMs: values['report-interval-ms'],
    diskUsageIntervalMs: values['disk-usage-interval-ms'],
    queryIntervalMs: values['query-interval-ms'],
    user: values.user,
    allowRoot: values['allow-root'],
    stopServersOnExit: values['stop-servers-on-exit'],
    sftp: values['no-sftp'] ? false : undefined,
    sftpPort: values['sftp-port'],
    sftpAddress: values['sftp-address'],
  });
  if (!settings) return fail(`invalid agent settings:\n${errors.map((error) => `  ${error}`).join('\n')}`);
  const { runAgent } = await import('./run.ts');
  await runAgent(settings);
}

const INSTALL_CODE_PATTERN = /^gsm_install_[0-9A-Za-z]{43}$/;

/**
 * What --token-file, else standard input (not a terminal), else the existing configuration holds: an agent token, or
 * a registration code from an install line (`gsm_install_…`, exchanged below).
 */
async function readSecret(tokenFile: string | undefined, existing: unknown): Promise<{ token: string } | { code: string }> {
  let text: string | undefined;
  if (tokenFile !== undefined) text = await readFile(tokenFile, 'utf8').catch(() => fail(`cannot read ${tokenFile}`));
  else if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  }
  const secret = text?.trim() || (typeof existing === 'string' ? existing : '');
  if (INSTALL_CODE_PATTERN.test(secret)) return { code: secret };
  if (!TOKEN_PATTERN.test(secret))
    fail(
      secret === ''
        ? "the agent token is missing: pass it (or an install line's registration code) on standard input, e.g. printf '%s\\n' 'gsm_agent_…' | gsm-agent install …"
        : 'that is neither an agent token (gsm_agent_ followed by 43 letters and digits) nor a registration code (gsm_install_…)',
    );
  return { token: secret };
}

/**
 * Trades an install line's single-use code for the machine's id and agent token (POST /agent/register on the first
 * URL). No redirect is followed (the code goes only where the line says). The service's refusal (used, replaced,
 * expired, unknown) is printed as it says it; a 429 or 5xx is "try again later" (the code may still be good); exit
 * status 1 either way. `savedToken` (an earlier configuration's) is named as the way back when the code is spent.
 */
async function exchangeCode(url: string, code: string, saved: { path: string; token: boolean }): Promise<{ machineId: string; token: string }> {
  const endpoint = `${url.replace(/\/+$/, '')}/agent/register`;
  let response: Response;
  try {
    response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }), redirect: 'error' });
  } catch (error) {
    return fail(`could not reach ${endpoint} to exchange the registration code: ${(error as Error).cause ?? (error as Error).message}`, 1);
  }
  const answer = (await response.json().catch(() => ({}))) as { message?: string; machineId?: string; agentToken?: string };
  if (response.status === 429 || response.status >= 500)
    return fail(
      `the service could not take the registration code now (${response.status}): ${answer.message ?? response.statusText}; the code was not used: try the same line again later`,
      1,
    );
  if (!response.ok) {
    const recover =
      response.status === 410 && saved.token
        ? `\n${saved.path} already holds an agent token for this machine: to reinstall with it, run the install script without a code (nothing on standard input), or \`gsm-agent install --url ${url}\` as root; it keeps the saved token`
        : '';
    return fail(`the service refused the registration code (${response.status}): ${answer.message ?? response.statusText}${recover}`, 1);
  }
  if (typeof answer.machineId !== 'string' || typeof answer.agentToken !== 'string' || !TOKEN_PATTERN.test(answer.agentToken))
    return fail(`${endpoint} did not answer a machine and an agent token`, 1);
  return { machineId: answer.machineId, token: answer.agentToken };
}

async function installCommand(args: string[]): Promise<void> {
  const values = parse(args, {
    config: { type: 'string' },
    url: { type: 'string' },
    'machine-id': { type: 'string' },
    'token-file': { type: 'string' },
    'data-dir': { type: 'string' },
    path: { type: 'string' },
    user: { type: 'string' },
    'unit-dir': { type: 'string' },
    'allow-root': { type: 'boolean' },
    'no-start': { type: 'boolean' },
    'credentials-to': { type: 'string' },
  });
  const configPath = values.config ?? (process.env.GSM_CONFIG || DEFAULT_CONFIG_PATH);
  const existing = configOrNothing(configPath);
  const secret = await readSecret(values['token-file'], existing.token);
  const settings = {
    ...existing,
    url: values.url ?? existing.url,
    machineId: values['machine-id'] ?? existing.machineId,
    token: 'token' in secret ? secret.token : `gsm_agent_${'0'.repeat(43)}`,
    dataDir: values['data-dir'] ?? (process.env.GSM_DATA_DIR || undefined) ?? existing.dataDir ?? DEFAULT_DATA_DIR,
    path: values.path ?? existing.path,
    user: values.user ?? existing.user,
    allowRoot: values['allow-root'] ?? existing.allowRoot,
  };
  // Everything else is checked before a code is spent: a refused setting must not cost the operator a new line.
  const checked = settingsSchema.safeParse(
    'code' in secret ? { ...settings, machineId: settings.machineId ?? '00000000-0000-4000-8000-000000000000' } : settings,
  );
  if (!checked.success) return fail(`invalid settings:\n${checked.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  if ('code' in secret) {
    const exchanged = await exchangeCode(checked.data.url[0], secret.code, { path: configPath, token: typeof existing.token === 'string' });
    Object.assign(settings, { machineId: exchanged.machineId, token: exchanged.token });
    process.stdout.write(`gsm-agent: registration code exchanged for machine ${exchanged.machineId}'s agent token\n`);
  }
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) return fail(`invalid settings:\n${parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  const credentialsTo = values['credentials-to'];
  if (credentialsTo !== undefined) {
    // install.sh resolves the credentials with the new package before it replaces the installed one (a refused code
    // leaves the machine as it was), then installs from these files: the token in a file, never on a command line.
    await writeFile(join(credentialsTo, 'token'), `${parsed.data.token}\n`, { mode: 0o600, flag: 'wx' });
    await writeFile(join(credentialsTo, 'machine-id'), `${parsed.data.machineId}\n`, { mode: 0o600, flag: 'wx' });
    return;
  }
  await install({
    configPath,
    settings: parsed.data,
    unitDir: values['unit-dir'] ?? (process.env.GSM_UNIT_DIR || undefined),
    start: !values['no-start'],
    print: (line) => process.stdout.write(`${line}\n`),
  });
}

async function uninstallCommand(args: string[]): Promise<void> {
  const values = parse(args, { config: { type: 'string' }, 'unit-dir': { type: 'string' }, purge: { type: 'boolean' } });
  const configPath = values.config ?? (process.env.GSM_CONFIG || DEFAULT_CONFIG_PATH);
  const file = configOrNothing(configPath);
  await uninstall({
    configPath,
    dataDir: typeof file.dataDir === 'string' ? file.dataDir : DEFAULT_DATA_DIR,
    user: typeof file.user === 'string' ? file.user : 'gsm',
    unitDir: values['unit-dir'] ?? (process.env.GSM_UNIT_DIR || undefined),
    purge: values.purge ?? false,
    print: (line) => process.stdout.write(`${line}\n`),
  }).catch((error: Error) => fail(error.message, 1));
}

type AgentStatus = {
  pid: number;
  version: string;
  startedAt: string;
  updatedAt: string;
  machineId: string;
  connected: boolean;
  url: string | null;
  limits: string;
  servers: { id: string; name: string; status: string }[];
};

/** Exit status: 0 running and connected, 1 running but not connected, 3 not running (as LSB init scripts answer). */
async function statusCommand(args: string[]): Promise<void> {
  const values = parse(args, { config: { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' } });
  let file: Record<string, unknown> = {};
  try {
    file = readConfigFile(values.config);
  } catch (error) {
    fail((error as Error).message);
  }
  const dataDir = values['data-dir'] ?? (typeof file.dataDir === 'string' ? file.dataDir : (process.env.GSM_DATA_DIR ?? './agent-data'));
  let state: AgentStatus | undefined;
  try {
    state = JSON.parse(readFileSync(join(dataDir, 'agent-status.json'), 'utf8')) as AgentStatus;
  } catch {
    state = undefined;
  }
  let running = false;
  if (state) {
    try {
      process.kill(state.pid, 0);
      running = true;
    } catch (error) {
      running = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  const code = !running ? 3 : state?.connected ? 0 : 1;
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ version: AGENT_VERSION, running, ...(state ?? {}), connected: running && (state?.connected ?? false) }, null, 2)}\n`,
    );
    process.exit(code);
  }
  const lines = [`gsm-agent ${AGENT_VERSION}`];
  if (!state || !running) lines.push(`agent: not running${state ? ` (last seen ${state.updatedAt}, pid ${state.pid})` : ` (no status in ${dataDir})`}`);
  else {
    lines.push(`agent: running, pid ${state.pid}, version ${state.version}, since ${state.startedAt}`);
    lines.push(`connection: ${state.connected ? `connected to ${state.url}` : 'not connected (retrying)'}`);
  }
  if (state) {
    lines.push(`machine: ${state.machineId}`, `limits: ${state.limits}`, `servers: ${state.servers.length}`);
    for (const server of state.servers) lines.push(`  ${server.id}  ${server.status.padEnd(10)}  ${server.name}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(code);
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case '--version':
  case '-v':
  case 'version':
    process.stdout.write(`${AGENT_VERSION}\n`);
    break;
  case '--help':
  case '-h':
  case 'help':
    process.stdout.write(USAGE);
    break;
  case 'run':
    await run(rest);
    break;
  case 'install':
    await installCommand(rest);
    break;
  case 'uninstall':
    await uninstallCommand(rest);
    break;
  case 'status':
    await statusCommand(rest);
    break;
  case '__files-helper':
    // The file helper (agent/files/): the agent starts it as a server's account; not a command for people.
    await runFileHelper(rest[0] ?? '', rest[1] ?? '[]').catch((error: unknown) => fail(`file helper: ${(error as Error).message}`, 1));
    break;
  default:
    if (command === undefined || command.startsWith('-')) await run(process.argv.slice(2));
    else fail(`unknown command ${command}\n\n${USAGE}`);
}
