/**
 * A game described by a template (docs/templates.md), resolved by the service: its join and leave lines, its console
 * commands and how their answers read, its wipe paths. Start command, ready, console mode and stop travel in the
 * server's own fields and are run by the supervisor as for any server.
 */
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { linearRegExp } from '../../schema/linearRegExp.ts';
import type { ListParse, ResolvedTemplate } from '../../schema/template.ts';
import { oneLine, quote, type CommandChannel, type GameAdapter, type PlayerInfo, type PlayerLine } from './adapter.ts';

/** Players remembered from `identify` lines until they join; bounded, as a login may never join. */
const MAX_REMEMBERED = 1_000;

type Fill = { PLAYER_ID?: string; PLAYER_NAME?: string; REASON?: string; MESSAGE?: string };

/** A command template with a command's own placeholders filled (one line each; quoted when the template says so). */
export function fillCommand(template: string, fill: Fill, quoteArguments = false): string {
  return template
    .replace(/\{\{(PLAYER_ID|PLAYER_NAME|REASON|MESSAGE)\}\}/g, (_whole, name: keyof Fill) => {
      const value = oneLine(fill[name] ?? '');
      return quoteArguments ? quote(value) : value;
    })
    .trim();
}

/** Reads a `list` answer into players, as the template's `parse` says. */
export function parsePlayerList(answer: string, parse: ListParse): PlayerInfo[] {
  if (parse.format === 'JSON') {
    let node: unknown = JSON.parse(answer || '[]');
    for (const key of parse.path) node = (node as Record<string, unknown> | null)?.[key];
    if (!Array.isArray(node)) return [];
    return node
      .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
      .filter((item) => !(parse.skip && item[parse.skip] === true) && item[parse.id] !== undefined && item[parse.id] !== null)
      .map((item) => {
        const ping = parse.ping === undefined ? undefined : Number(item[parse.ping]);
        const id = String(item[parse.id]);
        return {
          steamId: id,
          username: item[parse.name] === undefined ? id : String(item[parse.name]),
          ...(ping !== undefined && Number.isFinite(ping) ? { ping } : {}),
        };
      });
  }
  const entry = linearRegExp(parse.entry);
  let entries = answer.split('\n').map((line) => line.trim());
  if (parse.answer) {
    const pattern = linearRegExp(parse.answer);
    const found = entries.map((line) => pattern.exec(line)).find((match) => match !== null);
    if (!found) throw new Error('the server did not answer the player list');
    entries = (found.groups?.players ?? '').split(parse.separator ?? ',').map((item) => item.trim());
  }
  return entries
    .map((line) => entry.exec(line)?.groups)
    .filter((groups): groups is Record<string, string> => groups !== undefined && (groups.id !== undefined || groups.name !== undefined))
    .map((groups) => ({
      steamId: groups.id ?? groups.name!,
      username: groups.name ?? groups.id!,
      ...(groups.ping === undefined ? {} : { ping: Number(groups.ping) }),
    }));
}

export function templateAdapter(config: ServerConfig & { template: ResolvedTemplate }): GameAdapter {
  const spec = config.template;
  const compile = (pattern: string | undefined) => (pattern === undefined ? undefined : linearRegExp(pattern));
  const join = compile(spec.players.join);
  const leave = compile(spec.players.leave);
  const identify = compile(spec.players.identify);
  const ignoreId = compile(spec.players.ignoreId);
  const byName = spec.players.identity === 'name';
  const identity = (name: string, id: string | undefined) => (byName || id === undefined || id === '' || ignoreId?.test(id) ? name : id);
  const send = async (channel: CommandChannel, name: keyof ResolvedTemplate['commands'], fill: Fill): Promise<string> => {
    const command = spec.commands[name];
    if (!command) throw new Error(`this game's template has no ${name} command`);
    return channel.command(fillCommand(command.command, fill, spec.quoteArguments), compile(command.expect));
  };
  return {
    gameType: config.gameType,
    channel: config.consoleMode === 'STDIN' ? 'stdin' : 'rcon',
    defaultStartCommand: config.startCommand,
    startTimeoutMs: (config.ready?.timeoutSeconds ?? 300) * 1000,
    readyPattern: null,
    wipePaths: spec.wipe,
    playerLineParser() {
      const ids = new Map<string, string>();
      return (line): PlayerLine | null => {
        const known = identify?.exec(line)?.groups;
        if (known?.name !== undefined && known.id !== undefined) {
          ids.delete(known.name);
          ids.set(known.name, known.id);
          if (ids.size > MAX_REMEMBERED) ids.delete(ids.keys().next().value!);
          return null;
        }
        for (const [kind, pattern] of [
          ['join', join],
          ['leave', leave],
        ] as const) {
          const groups = pattern?.exec(line)?.groups;
          if (groups?.name === undefined) continue;
          const steamId = identity(groups.name, groups.id ?? ids.get(groups.name));
          if (kind === 'leave') ids.delete(groups.name);
          return { kind, steamId, username: groups.name };
        }
        return null;
      };
    },
    stop: async (channel) => void (await channel.command(config.stop?.command ?? 'quit').catch(() => '')),
    async listPlayers(channel) {
      const list = spec.commands.list;
      if (!list) throw new Error("this game's template has no list command");
      return parsePlayerList(await channel.command(list.command, compile(list.expect)), list.parse).map((player) => ({
        ...player,
        steamId: identity(player.username, player.steamId === player.username ? undefined : player.steamId),
      }));
    },
    kick: async (channel, player, reason) => void (await send(channel, 'kick', { PLAYER_ID: player.steamId, PLAYER_NAME: player.username, REASON: reason })),
    ban: async (channel, player, reason) => void (await send(channel, 'ban', { PLAYER_ID: player.steamId, PLAYER_NAME: player.username, REASON: reason })),
    unban: async (channel, player) => void (await send(channel, 'unban', { PLAYER_ID: player.steamId, PLAYER_NAME: player.username })),
    broadcast: async (channel, message) => void (await send(channel, 'broadcast', { MESSAGE: message })),
  };
}
