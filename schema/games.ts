/**
 * The game types the reference agent has an adapter for (docs/api.md: `gameType` is one of these; anything else is
 * 400), with the defaults the service applies when a server is created. The adapters themselves live beside this file.
 */
export const GAME_TYPES = ['MINECRAFT', 'RUST', 'ARK_SURVIVAL_EVOLVED', 'CS2', 'VALHEIM', 'CUSTOM'] as const;
export type GameType = (typeof GAME_TYPES)[number];

/** maxPlayers when the create request gives none (the docs: the game's default, else 32). */
export const DEFAULT_MAX_PLAYERS: Record<GameType, number> = {
  MINECRAFT: 20,
  RUST: 100,
  ARK_SURVIVAL_EVOLVED: 70,
  CS2: 10,
  VALHEIM: 10,
  CUSTOM: 32,
};

/** Game types without a built-in start command: the server must give `startCommand`. */
export const NEEDS_START_COMMAND: ReadonlySet<GameType> = new Set(['CUSTOM']);
