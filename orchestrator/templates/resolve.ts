/**
 * A template resolved for one server (docs/templates.md#how-a-server-runs-its-template): the server's variables
 * (else the defaults) and ports put into the start command, environment, stop and console commands, RCON password,
 * config-file values and install steps. `{{SERVER_DIR}}` and `{{MEMORY_MB}}` are the agent's to fill (it knows the
 * directory and the memory it gives), as are a command's own `{{PLAYER_ID}}`, `{{PLAYER_NAME}}`, `{{REASON}}` and
 * `{{MESSAGE}}`. Pure and cheap: it runs for every server of a machine at each `servers:sync`.
 */
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { CommandLineError, quoteWord, splitCommandLine } from '../../schema/commandLine.ts';
import type { ReadySpec, StopSpec } from '../../schema/serverBehaviour.ts';
import { PLACEHOLDER, portPlaceholder, type InstallStep, type ResolvedTemplate, type TemplateDocument } from '../../schema/template.ts';

/** What resolution needs of the server. */
export type ResolvableServer = Pick<
  ServerConfig,
  'id' | 'name' | 'gamePort' | 'queryPort' | 'rconPort' | 'rconPassword' | 'maxPlayers' | 'version' | 'acceptEula' | 'startCommand' | 'env' | 'ports'
> & {
  variables?: Record<string, string> | null;
  /** The values the server stores as secrets (a secret stays one whatever its template now says): hidden from what an install says. */
  secretVariables?: Record<string, string> | null;
};

/** The server's fields a template decides (over what the server row says), with `template` for the rest. */
export type Resolved = Pick<ServerConfig, 'startCommand' | 'env' | 'ready' | 'consoleMode' | 'stop' | 'rconPort' | 'rconPassword' | 'fileDenyList'> & {
  template: ResolvedTemplate;
};

/**
 * The start command with its values filled in per word: split first, each word filled, then each written back quoted,
 * so a value with spaces, quotes or `;` stays one argument and never becomes shell syntax (the agent splits it again
 * the same way and fills `{{SERVER_DIR}}`/`{{MEMORY_MB}}` in each word).
 */
export function renderCommandLine(command: string, render: (text: string) => string): string {
  try {
    return splitCommandLine(command)
      .map((word) => quoteWord(render(word)))
      .join(' ');
  } catch (error) {
    // Refused when the template is written (templateIssues); a stored one from before: the agent says why at launch.
    if (error instanceof CommandLineError) return command;
    throw error;
  }
}

/** Left in place for the agent. */
const AGENT_FILLS = new Set(['SERVER_DIR', 'MEMORY_MB', 'PLAYER_ID', 'PLAYER_NAME', 'REASON', 'MESSAGE']);

/**
 * The port numbers of a template's named ports for this server: game, query and rcon are the server's own, the others
 * those it holds (its allocations), else where the template places them.
 */
export function portsOf(template: TemplateDocument, server: Pick<ResolvableServer, 'gamePort' | 'queryPort' | 'rconPort' | 'ports'>): Map<string, number> {
  const ports = new Map<string, number>();
  for (const port of template.ports) {
    const own =
      port.name === 'game'
        ? server.gamePort
        : port.name === 'query'
          ? server.queryPort
          : port.name === 'rcon'
            ? server.rconPort
            : server.ports?.find((held) => held.name === port.name)?.port;
    ports.set(port.name, own ?? (port.offset !== undefined ? server.gamePort + port.offset : (port.default ?? server.gamePort)));
  }
  return ports;
}

export function resolveTemplate(template: TemplateDocument, server: ResolvableServer): Resolved {
  const ports = portsOf(template, server);
  const values = new Map<string, string>([
    ['SERVER_ID', server.id],
    ['SERVER_NAME', server.name],
    ['GAME_PORT', String(server.gamePort)],
    ['QUERY_PORT', String(server.queryPort)],
    ['RCON_PORT', String(server.rconPort)],
    ['RCON_PASSWORD', server.rconPassword],
    ['MAX_PLAYERS', String(server.maxPlayers)],
    ['VERSION', server.version ?? ''],
    ['ACCEPT_EULA', server.acceptEula ? 'true' : 'false'],
  ]);
  for (const [name, port] of ports) values.set(portPlaceholder(name), String(port));
  for (const variable of template.variables) values.set(variable.name, server.variables?.[variable.name] ?? variable.default);
  const render = (text: string) => text.replace(PLACEHOLDER, (whole, name: string) => (AGENT_FILLS.has(name) ? whole : (values.get(name) ?? whole)));
  const renderAll = (record: Record<string, string> | undefined) =>
    record && Object.fromEntries(Object.entries(record).map(([key, value]) => [key, render(value)]));
  const steps = (list: InstallStep[]): InstallStep[] =>
    list.map(
      (step) =>
        Object.fromEntries(
          Object.entries(step).map(([key, value]) => [
            key,
            // A script's own text is the script's (its `$VAR`s read the environment); its `env` values are rendered.
            typeof value === 'string' && key !== 'script' ? render(value) : key === 'env' ? renderAll(value as Record<string, string>) : value,
          ]),
        ) as InstallStep,
    );

  const ready: ReadySpec = (() => {
    const timeoutSeconds = template.ready.timeoutSeconds;
    const at = timeoutSeconds === undefined ? {} : { timeoutSeconds };
    switch (template.ready.mode) {
      case 'LINE':
        return { mode: 'LINE', pattern: template.ready.pattern, ...at };
      case 'PORT':
        return { mode: 'PORT', port: ports.get(template.ready.port)!, ...at };
      case 'QUERY':
        // Until the agent queries games itself: RCON when the game has it, else as soon as the process runs.
        return { mode: template.console.mode === 'RCON' ? 'RCON' : 'IMMEDIATE', ...at };
      default:
        return { mode: template.ready.mode, ...at };
    }
  })();
  const stop: StopSpec =
    template.stop.mode === 'COMMAND'
      ? { mode: 'COMMAND', command: render(template.stop.command), ...(template.stop.graceSeconds ? { graceSeconds: template.stop.graceSeconds } : {}) }
      : { mode: 'SIGNAL', signal: template.stop.signal, ...(template.stop.graceSeconds ? { graceSeconds: template.stop.graceSeconds } : {}) };
  const rcon = template.console.rcon;
  const commands: ResolvedTemplate['commands'] = {};
  for (const [name, command] of Object.entries(template.console.commands))
    if (command) (commands as Record<string, unknown>)[name] = { ...command, command: render(command.command) };
  const env = { ...renderAll(template.start.env), ...(server.env ?? {}) };
  return {
    // The server's own command wins (an operator's override); else the template's.
    startCommand: server.startCommand ?? renderCommandLine(template.start.command, render),
    env: Object.keys(env).length > 0 ? env : null,
    ready,
    consoleMode: template.console.mode,
    stop,
    rconPort: rcon ? (ports.get(rcon.port) ?? server.rconPort) : server.rconPort,
    rconPassword: rcon ? render(rcon.password) : server.rconPassword,
    // What members may not read or write through the files API and SFTP (the agent's file helper enforces it).
    fileDenyList: template.files.deny,
    template: {
      id: template.id,
      version: template.version,
      players: template.players,
      commands,
      ...(template.console.quoteArguments === undefined ? {} : { quoteArguments: template.console.quoteArguments }),
      configFiles: template.configFiles
        .filter((file) => file.when === undefined || render(file.when) === 'true')
        .map((file) => ({
          // `{{SERVER_ID}}`, the one placeholder a path takes (Rust's config folder is named after it).
          path: file.path.replaceAll('{{SERVER_ID}}', server.id),
          format: file.format,
          ...(file.set ? { set: renderAll(file.set) } : {}),
          ...(file.replace ? { replace: file.replace.map((entry) => ({ find: render(entry.find), replace: render(entry.replace) })) } : {}),
        })),
      wipe: template.files.wipe,
      ...(template.files.backupSkip.length > 0 ? { backupSkip: template.files.backupSkip } : {}),
      ...(template.start.workingDirectory ? { workingDirectory: template.start.workingDirectory } : {}),
      // The server's stored secrets (whatever the template declares now) and the template's secret variables' values.
      secrets: [
        ...new Set([
          ...Object.values(server.secretVariables ?? {}),
          ...template.variables.filter((variable) => variable.secret).map((variable) => values.get(variable.name)!),
        ]),
      ].filter((value) => value !== ''),
      ...(template.install ? { install: { ...template.install, steps: steps(template.install.steps) } } : {}),
      ...(template.update ? { update: { ...template.update, steps: steps(template.update.steps) } } : {}),
    },
  };
}
