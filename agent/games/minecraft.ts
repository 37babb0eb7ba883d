/**
 * MINECRAFT, vanilla console semantics (docs/agent.md): commands over standard input, answers read from the output; ready
 * on the `Done (` line; players from `<name> joined the game` / `<name> left the game` and from `list`. A player's
 * `steamId` is its name (offline mode) — a UUID where the server prints one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { oneLine, type GameAdapter, type PlayerInfo } from './adapter.ts';

const NAME = '([A-Za-z0-9_]{1,16})';
const JOINED = new RegExp(`\\]: ${NAME} joined the game$|^${NAME} joined the game$`);
const LEFT = new RegExp(`\\]: ${NAME} left the game$|^${NAME} left the game$`);
const LIST = /There are (\d+) of a max(?: of)? (\d+) players online:?(.*)$/;

/** Writes the ports and player limit into server.properties before each start, keeping every other key. */
export async function writeServerProperties(serverDir: string, server: ServerConfig): Promise<void> {
  const file = join(serverDir, 'server.properties');
  const existing = await readFile(file, 'utf8').catch(() => '');
  const managed: Record<string, string> = {
    'server-port': String(server.gamePort),
    'query.port': String(server.queryPort),
    'enable-query': 'true',
    'max-players': String(server.maxPlayers),
  };
  const lines = existing.split('\n').filter((line) => line !== '' && !(line.split('=')[0]! in managed));
  await writeFile(file, `${[...lines, ...Object.entries(managed).map(([key, value]) => `${key}=${value}`)].join('\n')}\n`);
}

export const minecraft: GameAdapter & { prepare: typeof writeServerProperties } = {
  gameType: 'MINECRAFT',
  channel: 'stdin',
  defaultStartCommand: 'java -Xmx{{MEMORY_MB}}M -jar server.jar nogui',
  startTimeoutMs: 5 * 60_000,
  readyPattern: /\bDone \(/,
  wipePaths: ['world', 'world_nether', 'world_the_end'],
  prepare: writeServerProperties,
  parsePlayerLine(line) {
    const joined = JOINED.exec(line);
    if (joined) {
      const name = joined[1] ?? joined[2]!;
      return { kind: 'join', steamId: name, username: name };
    }
    const left = LEFT.exec(line);
    if (left) {
      const name = left[1] ?? left[2]!;
      return { kind: 'leave', steamId: name, username: name };
    }
    return null;
  },
  stop: async (channel) => void (await channel.command('stop', /Stopping/)),
  async listPlayers(channel): Promise<PlayerInfo[]> {
    const match = LIST.exec(await channel.command('list', LIST));
    if (!match) throw new Error('the server did not answer list');
    return match[3]!
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => ({ steamId: name, username: name }));
  },
  kick: async (channel, player, reason) => void (await channel.command(`kick ${player.username} ${oneLine(reason)}`.trim())),
  ban: async (channel, player, reason) => void (await channel.command(`ban ${player.username} ${oneLine(reason)}`.trim())),
  unban: async (channel, player) => void (await channel.command(`pardon ${player.username}`)),
  broadcast: async (channel, message) => void (await channel.command(`say ${oneLine(message)}`)),
};
