/**
 * What the agent needs to know about a game: how to start it, how to tell it is ready, how to stop it gracefully, and
 * how to list, kick, ban and unban players and broadcast a message (docs/agent.md). Each game is one adapter.
 */
import type { GameType } from '../../schema/games.ts';

export type PlayerInfo = { steamId: string; username: string; ping?: number };
export type PlayerLine = { kind: 'join' | 'leave'; steamId: string; username: string };

/** How commands reach the game: Source RCON, or the process's standard input (vanilla Minecraft console). */
export interface CommandChannel {
  /**
   * Sends `text` and answers the game's reply: the RCON response, or for a console the output lines that followed,
   * up to the first that matches `expect` (or a short quiet period without one), waiting at most `timeoutMs` (a
   * console's default: 5 s).
   */
  command(text: string, expect?: RegExp, timeoutMs?: number): Promise<string>;
}

export interface GameAdapter {
  readonly gameType: GameType;
  readonly channel: 'rcon' | 'stdin';
  /** The command line when the server has no `startCommand` (placeholders as in docs/agent.md); null: required. */
  readonly defaultStartCommand: string | null;
  /** How long STARTING may last before the server counts as CRASHED. */
  readonly startTimeoutMs: number;
  /** Whether an output line says the server is ready. Null: ready once RCON answers. */
  readonly readyPattern: RegExp | null;
  /** Paths (relative to the server directory, globs with `*`) a WIPE deletes. */
  readonly wipePaths: readonly string[];
  /**
   * A parser of one process's output: answers the join or leave a line announces, if it is one. A new one per start,
   * as it may remember earlier lines (Minecraft prints a player's UUID before the join).
   */
  playerLineParser(): (line: string) => PlayerLine | null;
  stop(channel: CommandChannel): Promise<void>;
  listPlayers(channel: CommandChannel): Promise<PlayerInfo[]>;
  kick(channel: CommandChannel, player: PlayerInfo, reason: string): Promise<void>;
  ban(channel: CommandChannel, player: PlayerInfo, reason: string): Promise<void>;
  unban(channel: CommandChannel, player: PlayerInfo): Promise<void>;
  broadcast(channel: CommandChannel, message: string): Promise<void>;
}

/** Quotes an argument for a game console: double quotes, with quotes and backslashes escaped. */
export const quote = (value: string) => `"${value.replace(/[\\"]/g, (character) => `\\${character}`)}"`;

/** Removes line breaks so a reason or message cannot smuggle in a second console command. */
export const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();
