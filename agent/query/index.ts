/** Queries a game server with one of the protocols of schema/gamePorts.ts (docs/agent.md#query). */
import type { QueryProtocol } from '../../schema/gamePorts.ts';
import { queryA2s } from './a2s.ts';
import { queryMinecraft } from './minecraft.ts';
import { queryTcp } from './tcp.ts';
import type { QueryAnswer } from './types.ts';

export { QueryError, type QueryAnswer } from './types.ts';

/** The most player names and the largest count the service takes in one `server:query` report (schema/agentEvents.ts). */
export const MAX_PLAYER_NAMES = 1_000;
export const MAX_PLAYER_COUNT = 1_000_000;

export async function queryServer(protocol: QueryProtocol, host: string, port: number, timeoutMs: number): Promise<QueryAnswer> {
  const answer = await (protocol === 'A2S' ? queryA2s : protocol === 'MINECRAFT' ? queryMinecraft : queryTcp)(host, port, timeoutMs);
  return clip(answer);
}

/** A game's answer cut to what the service accepts, so that one huge server list never loses the whole report. */
export function clip(answer: QueryAnswer): QueryAnswer {
  const count = (value: number | null) => (value === null ? null : Math.min(value, MAX_PLAYER_COUNT));
  return {
    ...answer,
    players: count(answer.players),
    maxPlayers: count(answer.maxPlayers),
    playerNames: answer.playerNames && answer.playerNames.slice(0, MAX_PLAYER_NAMES),
  };
}
