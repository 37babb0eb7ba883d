/**
 * Turning a server's `startCommand` into something `spawn` can run (docs/agent.md): the text is split like a POSIX shell
 * command line, but never handed to a shell, so a server name or password with `;`, `$(…)` or spaces cannot inject
 * anything. Placeholders are expanded per argument AFTER splitting, so a value with spaces stays one argument.
 */

import { CommandLineError, splitCommandLine } from '../../schema/commandLine.ts';

export { CommandLineError, splitCommandLine };

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Replaces `{{NAME}}` with `values[NAME]`. Only names present in `values` are known: an unknown or misspelt
 * placeholder is an error rather than being passed through, because a game server started with a literal
 * `{{GAME_PROT}}` as its port fails in confusing, game-specific ways.
 */
export function expandPlaceholders(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.hasOwn(values, name)) {
      const known = Object.keys(values).map((n) => `{{${n}}}`);
      throw new CommandLineError(`unknown placeholder {{${name}}} in startCommand; known: ${known.join(', ')}`);
    }
    return values[name];
  });
}

/** The part of a server's configuration (docs/api.md, Server) needed to launch it. */
export interface ServerLaunchConfig {
  id: string;
  name: string;
  gamePort: number;
  queryPort: number;
  rconPort: number;
  rconPassword: string;
  maxPlayers: number;
  startCommand: string | null;
  env: Record<string, string> | null;
  /** Named ports: each extra one (not game, query, rcon) is `{{PORT_<NAME>}}` and the variable `PORT_<NAME>`. */
  ports?: { name: string; port: number }[];
}

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Variables a game server needs from the agent's own environment to run at all (finding `java`, a home for caches,
 * locale). Everything else is left out on purpose: the agent's environment may hold its machine token.
 */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SYSTEMROOT'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `{ command, args, env }` for `serverDir`. `extra` adds adapter-specific placeholders (e.g. MEMORY_MB for a
 * default Minecraft command). The managed names win over the server's own `env`, so a stray `GAME_PORT` in `env`
 * cannot make the process listen on another port than the one the service reserved for it.
 */
export function buildLaunch(server: ServerLaunchConfig, serverDir: string, extra: Record<string, string> = {}): Launch {
  if (!server.startCommand || server.startCommand.trim() === '') throw new CommandLineError('startCommand is empty');
  const values: Record<string, string> = {
    ...extra,
    GAME_PORT: String(server.gamePort),
    QUERY_PORT: String(server.queryPort),
    RCON_PORT: String(server.rconPort),
    RCON_PASSWORD: server.rconPassword,
    MAX_PLAYERS: String(server.maxPlayers),
    SERVER_NAME: server.name,
    SERVER_ID: server.id,
    SERVER_DIR: serverDir,
  };
  for (const { name, port } of server.ports ?? [])
    if (name !== 'game' && name !== 'query' && name !== 'rcon') values[`PORT_${name.toUpperCase().replace(/-/g, '_')}`] = String(port);
  const [command, ...args] = splitCommandLine(server.startCommand).map((word) => expandPlaceholders(word, values));
  if (command === undefined || command === '') throw new CommandLineError('startCommand has no command to run');

  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(server.env ?? {})) {
    // spawn rejects these anyway, but with a message that does not say which server setting is wrong.
    if (!ENV_NAME.test(name)) throw new CommandLineError(`env name "${name}" is not a valid variable name`);
    if (value.includes('\0')) throw new CommandLineError(`env ${name} contains a NUL character`);
    env[name] = value;
  }
  Object.assign(env, values);
  for (const word of [command, ...args]) {
    if (word.includes('\0')) throw new CommandLineError('startCommand contains a NUL character');
  }
  return { command, args, env };
}
