/**
 * The games whose consoles are reached over Source RCON (docs/agent.md): RUST, ARK_SURVIVAL_EVOLVED, CS2, VALHEIM and
 * CUSTOM. Each names its commands; the shared shape is `sourceRconGame`.
 *
 * Player names are the players' own text and may hold anything a line pattern looks for, so a join or leave line
 * counts only from its start, and the id that counts is the last one on the line (the game prints it after the name).
 */
import { z } from 'zod';
import type { GameType } from '../../schema/games.ts';
import { oneLine, quote, type GameAdapter, type PlayerInfo, type PlayerLine } from './adapter.ts';

type Commands = {
  defaultStartCommand: string | null;
  readyPattern: RegExp | null;
  startTimeoutMs: number;
  wipePaths: string[];
  players: string;
  parsePlayers: (output: string) => PlayerInfo[];
  kick: (player: PlayerInfo, reason: string) => string;
  ban: (player: PlayerInfo, reason: string) => string;
  unban: (player: PlayerInfo) => string;
  say: (message: string) => string;
  stop: string;
  join?: RegExp;
  leave?: RegExp;
};

/** `<name> (<id>)` lines, as our CUSTOM convention and several games print them; whole lines, not chat quoting them. */
const CONNECTED = /^Player connected: (.+) \((\S+)\)$/;
const DISCONNECTED = /^Player disconnected: (.+) \((\S+)\)$/;
/** RUST's chat in its console, `[CHAT] name[steamId] : text` (team chat alike): never a join or leave. */
const RUST_CHAT = String.raw`(?!\[(?:TEAM )?CHAT\] )`;

function sourceRconGame(gameType: GameType, commands: Commands): GameAdapter {
  const playerLine = (pattern: RegExp | undefined, kind: PlayerLine['kind'], line: string): PlayerLine | null => {
    const match = pattern?.exec(line);
    return match ? { kind, username: match[1]!, steamId: match[2]! } : null;
  };
  return {
    gameType,
    channel: 'rcon',
    defaultStartCommand: commands.defaultStartCommand,
    startTimeoutMs: commands.startTimeoutMs,
    readyPattern: commands.readyPattern,
    wipePaths: commands.wipePaths,
    // These games print the player's id on the join line itself: nothing to remember between lines.
    playerLineParser: () => (line) => playerLine(commands.join, 'join', line) ?? playerLine(commands.leave, 'leave', line),
    stop: async (channel) => void (await channel.command(commands.stop).catch(() => '')),
    listPlayers: async (channel) => commands.parsePlayers(await channel.command(commands.players)),
    kick: async (channel, player, reason) => void (await channel.command(commands.kick(player, oneLine(reason)))),
    ban: async (channel, player, reason) => void (await channel.command(commands.ban(player, oneLine(reason)))),
    unban: async (channel, player) => void (await channel.command(commands.unban(player))),
    broadcast: async (channel, message) => void (await channel.command(commands.say(oneLine(message)))),
  };
}

/** RUST's `playerlist` answer (the fields used; more are ignored). */
const rustPlayerList = z.array(z.object({ SteamID: z.string().min(1), DisplayName: z.string(), Ping: z.number().optional() }));

/** CS2's `status_json` answer (the fields used). */
const cs2Status = z.object({
  server: z
    .object({
      clients: z
        .array(z.object({ steamid64: z.string().optional(), name: z.string().optional(), ping: z.number().optional(), bot: z.boolean().optional() }))
        .optional(),
    })
    .optional(),
});

/** `<id> <name…> <ping>` per line (CUSTOM convention: the reply of `players`). */
function parseIdNamePing(output: string): PlayerInfo[] {
  return output
    .split('\n')
    .map((line) => /^(\S+)\s+(.+?)\s+(\d+)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ steamId: match[1]!, username: match[2]!, ping: Number(match[3]) }));
}

export const rust = sourceRconGame('RUST', {
  defaultStartCommand:
    './RustDedicated -batchmode +server.port {{GAME_PORT}} +server.queryport {{QUERY_PORT}} +rcon.port {{RCON_PORT}} ' +
    '+rcon.password "{{RCON_PASSWORD}}" +rcon.web 0 +server.maxplayers {{MAX_PLAYERS}} +server.hostname "{{SERVER_NAME}}" +server.identity "{{SERVER_ID}}"',
  readyPattern: /Server startup complete/,
  startTimeoutMs: 15 * 60_000,
  wipePaths: ['server/*/*.map', 'server/*/*.sav', 'server/*/player.blueprints.*.db'],
  players: 'playerlist',
  parsePlayers: (output) =>
    rustPlayerList.parse(JSON.parse(output || '[]')).map((row) => ({ steamId: row.SteamID, username: row.DisplayName, ping: row.Ping })),
  kick: (player, reason) => `kick ${quote(player.steamId)} ${quote(reason)}`,
  ban: (player, reason) => `banid ${player.steamId} ${quote(player.username)} ${quote(reason)}`,
  unban: (player) => `unban ${player.steamId}`,
  say: (message) => `say ${quote(message)}`,
  stop: 'quit',
  join: new RegExp(String.raw`^${RUST_CHAT}(.+)\[\d+/(\d{17})\] has entered the game$`),
  // The reason in parentheses holds no parentheses, so it cannot carry a second `[…] has disconnected (…)`; a reason
  // that does only loses the leave event, which the next player list makes up for.
  leave: new RegExp(String.raw`^${RUST_CHAT}(.+)\[\d+/(\d{17})\] has disconnected(?: \([^()]*\))?$`),
});

export const ark = sourceRconGame('ARK_SURVIVAL_EVOLVED', {
  defaultStartCommand:
    './ShooterGame/Binaries/Linux/ShooterGameServer TheIsland?listen?Port={{GAME_PORT}}?QueryPort={{QUERY_PORT}}?RCONEnabled=True' +
    '?RCONPort={{RCON_PORT}}?ServerAdminPassword={{RCON_PASSWORD}}?MaxPlayers={{MAX_PLAYERS}} -server -log',
  readyPattern: /Server has completed startup|Full Startup/,
  startTimeoutMs: 20 * 60_000,
  wipePaths: ['ShooterGame/Saved/SavedArks/*'],
  players: 'ListPlayers',
  parsePlayers: (output) =>
    output
      .split('\n')
      .map((line) => /^\d+\.\s+(.+),\s+(\d+)$/.exec(line.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ username: match[1]!, steamId: match[2]! })),
  kick: (player) => `KickPlayer ${player.steamId}`,
  ban: (player) => `BanPlayer ${player.steamId}`,
  unban: (player) => `UnbanPlayer ${player.steamId}`,
  say: (message) => `ServerChat ${message}`,
  stop: 'DoExit',
});

export const cs2 = sourceRconGame('CS2', {
  defaultStartCommand:
    './game/bin/linuxsteamrt64/cs2 -dedicated +port {{GAME_PORT}} +rcon_password {{RCON_PASSWORD}} -maxplayers {{MAX_PLAYERS}} +map de_dust2',
  readyPattern: /Host activate|GC Connection established/,
  startTimeoutMs: 10 * 60_000,
  wipePaths: [],
  players: 'status_json',
  parsePlayers: (output) => {
    const parsed = cs2Status.parse(JSON.parse(output || '{}'));
    return (parsed.server?.clients ?? [])
      .filter((client) => !client.bot && client.steamid64)
      .map((client) => ({ steamId: client.steamid64!, username: client.name ?? client.steamid64!, ping: client.ping }));
  },
  kick: (player, reason) => `kickid ${player.steamId} ${quote(reason)}`,
  ban: (player) => `banid 0 ${player.steamId}; writeid`,
  unban: (player) => `removeid ${player.steamId}; writeid`,
  say: (message) => `say ${message}`,
  stop: 'quit',
});

export const valheim = sourceRconGame('VALHEIM', {
  defaultStartCommand: './valheim_server.x86_64 -nographics -batchmode -port {{GAME_PORT}} -name "{{SERVER_NAME}}" -world "{{SERVER_ID}}" -public 0',
  readyPattern: /Game server connected/,
  startTimeoutMs: 10 * 60_000,
  wipePaths: ['worlds_local/*'],
  players: 'players',
  parsePlayers: parseIdNamePing,
  kick: (player) => `kick ${player.steamId}`,
  ban: (player) => `ban ${player.steamId}`,
  unban: (player) => `unban ${player.steamId}`,
  say: (message) => `say ${message}`,
  stop: 'save; quit',
});

/** CUSTOM: any program with Source RCON and these conventional commands; ready once RCON answers. */
export const custom = sourceRconGame('CUSTOM', {
  defaultStartCommand: null,
  readyPattern: null,
  startTimeoutMs: 5 * 60_000,
  wipePaths: [],
  players: 'players',
  parsePlayers: parseIdNamePing,
  kick: (player, reason) => `kick ${player.steamId} ${reason}`.trim(),
  ban: (player, reason) => `ban ${player.steamId} ${reason}`.trim(),
  unban: (player) => `unban ${player.steamId}`,
  say: (message) => `say ${message}`,
  stop: 'quit',
  join: CONNECTED,
  leave: DISCONNECTED,
});
