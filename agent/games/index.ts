/** Every adapter, by game type. */
import type { GameAdapter } from './adapter.ts';
import type { GameType } from '../../schema/games.ts';
import { minecraft } from './minecraft.ts';
import { ark, cs2, custom, rust, valheim } from './sourceRconGames.ts';

export const ADAPTERS: Record<GameType, GameAdapter> = {
  MINECRAFT: minecraft,
  RUST: rust,
  ARK_SURVIVAL_EVOLVED: ark,
  CS2: cs2,
  VALHEIM: valheim,
  CUSTOM: custom,
};
