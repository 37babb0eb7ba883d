/**
 * Which named ports a server of each game needs, where they sit relative to its game port, and how the game is
 * queried (docs/servers.md#ports-and-allocations). One function, `portPlanOf`, so that game templates can supply the
 * same answer later; the defaults below are each game's own.
 */
import type { GameType } from './games.ts';

export const PORT_PROTOCOLS = ['TCP', 'UDP', 'BOTH'] as const;
export type PortProtocol = (typeof PORT_PROTOCOLS)[number];

/** How the agent asks a game whether it answers players (agent/query/). */
export const QUERY_PROTOCOLS = ['A2S', 'MINECRAFT', 'TCP'] as const;
export type QueryProtocol = (typeof QUERY_PROTOCOLS)[number];

/** The names of the three ports every server has (the seed's gamePort, queryPort, rconPort). */
export const SEED_PORT_NAMES = ['game', 'query', 'rcon'] as const;
/** Port names: lower-case letters, digits, `_` and `-`, starting with a letter (at most 32). */
export const PORT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

export type NamedPort = {
  name: string;
  protocol: PortProtocol;
  /** Where the port sits: the game port plus this (the game port itself: 0). */
  offset: number;
};

export type PortPlan = {
  /** The game's default game port, where a machine without port ranges starts looking for free ports. */
  defaultGamePort: number;
  /** game (offset 0), query, rcon, then the game's extras. */
  ports: NamedPort[];
  /** How the game is queried and on which of its named ports; null: never queried (no liveness either). */
  query: { protocol: QueryProtocol; port: string } | null;
};

const PLANS: Record<GameType, PortPlan> = {
  // Server List Ping answers on the game port (TCP); `query` is the GameSpy4 UDP query, rcon 25575 = 25565 + 10.
  MINECRAFT: {
    defaultGamePort: 25565,
    ports: [
      { name: 'game', protocol: 'TCP', offset: 0 },
      { name: 'query', protocol: 'UDP', offset: 1 },
      { name: 'rcon', protocol: 'TCP', offset: 10 },
    ],
    query: { protocol: 'MINECRAFT', port: 'game' },
  },
  // server.port 28015, rcon.port 28016, server.queryport 28017 (A2S), app.port 28082.
  RUST: {
    defaultGamePort: 28015,
    ports: [
      { name: 'game', protocol: 'UDP', offset: 0 },
      { name: 'query', protocol: 'UDP', offset: 2 },
      { name: 'rcon', protocol: 'TCP', offset: 1 },
      { name: 'app', protocol: 'TCP', offset: 67 },
    ],
    query: { protocol: 'A2S', port: 'query' },
  },
  // Port 7777 (and the raw UDP port 7778 = game + 1), QueryPort 27015 (A2S), RCONPort 27020.
  ARK_SURVIVAL_EVOLVED: {
    defaultGamePort: 7777,
    ports: [
      { name: 'game', protocol: 'UDP', offset: 0 },
      { name: 'query', protocol: 'UDP', offset: 19238 },
      { name: 'rcon', protocol: 'TCP', offset: 19243 },
      { name: 'raw', protocol: 'UDP', offset: 1 },
    ],
    query: { protocol: 'A2S', port: 'query' },
  },
  // A2S and RCON answer on the game port itself (27015, UDP and TCP); query and rcon are held beside it.
  CS2: {
    defaultGamePort: 27015,
    ports: [
      { name: 'game', protocol: 'BOTH', offset: 0 },
      { name: 'query', protocol: 'UDP', offset: 1 },
      { name: 'rcon', protocol: 'TCP', offset: 5 },
    ],
    query: { protocol: 'A2S', port: 'game' },
  },
  // 2456 game, 2457 = game + 1 answers A2S; Valheim has no RCON (its port is held for the seed's rconPort).
  VALHEIM: {
    defaultGamePort: 2456,
    ports: [
      { name: 'game', protocol: 'UDP', offset: 0 },
      { name: 'query', protocol: 'UDP', offset: 1 },
      { name: 'rcon', protocol: 'TCP', offset: 2 },
    ],
    query: { protocol: 'A2S', port: 'query' },
  },
  CUSTOM: {
    defaultGamePort: 27015,
    ports: [
      { name: 'game', protocol: 'BOTH', offset: 0 },
      { name: 'query', protocol: 'BOTH', offset: 1 },
      { name: 'rcon', protocol: 'TCP', offset: 2 },
    ],
    query: null,
  },
};

/**
 * The named ports and query of a server of `gameType`; `queryProtocol` is the server's own choice (CUSTOM servers:
 * A2S on their query port, MINECRAFT or TCP on their game port), overriding the game's.
 */
export function portPlanOf(gameType: GameType, queryProtocol?: QueryProtocol | null): PortPlan {
  const plan = PLANS[gameType];
  if (queryProtocol === undefined) return plan;
  if (queryProtocol === null) return { ...plan, query: null };
  // The game's own query port for its own protocol; else A2S on the query port, Server List Ping and TCP on the game port.
  const port = plan.query?.protocol === queryProtocol ? plan.query.port : queryProtocol === 'A2S' ? 'query' : 'game';
  return { ...plan, query: { protocol: queryProtocol, port } };
}
