/**
 * MINECRAFT, vanilla console semantics (docs/agent.md): commands over standard input, answers read from the output; ready
 * on the `Done (` line; players from `<name> joined the game` / `<name> left the game` and from `list uuids`. A
 * player's `steamId` is the UUID the server prints for it (`UUID of player <name> is <uuid>`, before the join), so a
 * renamed player stays the same player; in offline mode, where the server prints none, it is the name.
 *
 * Players can make almost any text appear in the console (chat `<name> …`, `say` as `[Server] …`, emotes `* name …`),
 * so only a whole line in the shape the server's own logger gives it counts: the logger's prefix, then exactly the
 * message, with a name a Minecraft account can have.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { oneLine, type GameAdapter, type PlayerInfo, type PlayerLine } from './adapter.ts';
import { readGameFile, writeGameFile, type Owner } from '../servers/gameFiles.ts';

/** A Minecraft username: 3 to 16 letters, digits and underscores (a forged one with spaces or brackets fails). */
const NAME = '[A-Za-z0-9_]{3,16}';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * What the server's logger writes before each message, from the start of the line: vanilla
 * `[12:34:56] [Server thread/INFO]: `; Forge and NeoForge add the logger's name,
 * `[12:34:56] [Server thread/INFO] [minecraft/DedicatedServer]: `; Paper's console `[12:34:56 INFO]: `. Nothing a
 * player sends can start a line: chat has no line breaks.
 */
const PREFIX = String.raw`^(?:\[\d{2}:\d{2}:\d{2}\] \[[^\]]+/INFO\](?: \[[^\]]+\])?|\[\d{2}:\d{2}:\d{2} INFO\]): `;
/** A line of the server's own whose whole message is `message`. */
const serverLine = (message: string) => new RegExp(`${PREFIX}${message}$`);
const JOINED = serverLine(`(${NAME}) joined the game`);
const LEFT = serverLine(`(${NAME}) left the game`);
/** Printed in online mode by the authenticator, before the join. */
const IDENTIFIED = serverLine(`UUID of player (${NAME}) is (${UUID})`);
/** `list uuids`: `There are 2 of a max of 20 players online: Steve (<uuid>), Alex (<uuid>)`; old servers omit the UUIDs. */
const LIST = serverLine(String.raw`There are (\d+) of a max(?: of)? (\d+) players online:(.*)`);
const LIST_ENTRY = new RegExp(String.raw`^(${NAME})(?: \((${UUID})\))?$`);
/** UUIDs of players that logged in but have not left are remembered; bounded, as a login may never join. */
const MAX_REMEMBERED_UUIDS = 1_000;
/** The version digit of a UUID (`xxxxxxxx-xxxx-Vxxx-…`); offline-mode UUIDs are version 3, hashes of the name. */
const UUID_VERSION_AT = 14;

/**
 * The player's `steamId`: its UUID, unless that is an offline one (a hash of the name, so it adds nothing): then the
 * name, as on offline servers that print no UUID, so that joins and player lists agree in both modes.
 */
function identity(name: string, uuid: string | undefined): string {
  return uuid === undefined || uuid[UUID_VERSION_AT] === '3' ? name : uuid;
}

/** One server's joins and leaves; remembers each `UUID of player` line until that player leaves. */
function playerLineParser(): (line: string) => PlayerLine | null {
  const uuids = new Map<string, string>();
  return (line) => {
    const identified = IDENTIFIED.exec(line);
    if (identified) {
      const [, name, uuid] = identified as unknown as [string, string, string];
      uuids.delete(name); // re-inserted as the newest
      uuids.set(name, uuid);
      if (uuids.size > MAX_REMEMBERED_UUIDS) uuids.delete(uuids.keys().next().value!);
      return null;
    }
    const joined = JOINED.exec(line);
    if (joined) return { kind: 'join', steamId: identity(joined[1]!, uuids.get(joined[1]!)), username: joined[1]! };
    const left = LEFT.exec(line);
    if (!left) return null;
    const steamId = identity(left[1]!, uuids.get(left[1]!));
    uuids.delete(left[1]!);
    return { kind: 'leave', steamId, username: left[1]! };
  };
}

/** Writes the ports and player limit into server.properties before each start, keeping every other key. */
export async function writeServerProperties(serverDir: string, server: ServerConfig, owner?: Owner): Promise<void> {
  const file = join(serverDir, 'server.properties');
  const existing = (await readGameFile(file)) ?? '';
  const managed: Record<string, string> = {
    'server-port': String(server.gamePort),
    'query.port': String(server.queryPort),
    'enable-query': 'true',
    'max-players': String(server.maxPlayers),
  };
  const lines = existing.split('\n').filter((line) => line !== '' && !(line.split('=')[0]! in managed));
  await writeGameFile(file, `${[...lines, ...Object.entries(managed).map(([key, value]) => `${key}=${value}`)].join('\n')}\n`, owner);
}

export const minecraft: GameAdapter & { prepare: typeof writeServerProperties } = {
  gameType: 'MINECRAFT',
  channel: 'stdin',
  defaultStartCommand: 'java -Xmx{{MEMORY_MB}}M -jar server.jar nogui',
  startTimeoutMs: 5 * 60_000,
  readyPattern: /\bDone \(/,
  wipePaths: ['world', 'world_nether', 'world_the_end'],
  prepare: writeServerProperties,
  playerLineParser,
  stop: async (channel) => void (await channel.command('stop', /Stopping/)),
  async listPlayers(channel): Promise<PlayerInfo[]> {
    // Only the server's own answer line: a player could chat a line that merely contains one.
    const answer = await channel.command('list uuids', LIST);
    const match = answer
      .split('\n')
      .map((line) => LIST.exec(line))
      .find((found) => found !== null);
    if (!match) throw new Error('the server did not answer list');
    return match[3]!
      .split(',')
      .map((entry) => LIST_ENTRY.exec(entry.trim()))
      .filter((entry): entry is RegExpExecArray => entry !== null)
      .map((entry) => ({ steamId: identity(entry[1]!, entry[2]), username: entry[1]! }));
  },
  kick: async (channel, player, reason) => void (await channel.command(`kick ${player.username} ${oneLine(reason)}`.trim())),
  ban: async (channel, player, reason) => void (await channel.command(`ban ${player.username} ${oneLine(reason)}`.trim())),
  unban: async (channel, player) => void (await channel.command(`pardon ${player.username}`)),
  broadcast: async (channel, message) => void (await channel.command(`say ${oneLine(message)}`)),
};
