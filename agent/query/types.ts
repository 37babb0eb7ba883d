/**
 * What a query of a game server finds (docs/agent.md#query). The protocols are this agent's own small
 * implementations (no query library: the agent is one bundle and gamedig brings dozens of packages).
 */
export type QueryAnswer = {
  players: number | null;
  /** Names of the players online, where the game gives them (null: it does not). */
  playerNames: string[] | null;
  maxPlayers: number | null;
  map: string | null;
  version: string | null;
  latencyMs: number;
};

export class QueryError extends Error {}

/** Game text cut to what the service stores: no NUL or other control characters, at most `max` characters. */
export function cleanText(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]|[\ud800-\udfff]/g, '').slice(0, max);
}

/**
 * A socket listener that can never throw: whatever it throws (a bug, an answer no parser foresaw) fails the query
 * through `fail` instead of escaping into the event loop, where it would end the agent.
 */
export function guard<A extends unknown[]>(fail: (error: Error) => void, listener: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      listener(...args);
    } catch (error) {
      fail(error instanceof QueryError ? error : new QueryError(`unreadable answer: ${(error as Error)?.message ?? String(error)}`));
    }
  };
}
