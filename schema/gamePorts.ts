/**
 * Which named ports a server needs, where they sit relative to its game port, and how the game is queried
 * (docs/servers.md#ports-and-allocations). The one source of a game's named ports and offsets is its template (a
 * built-in of catalogue/ or a cluster's): `templatePortPlan`. `portPlanOf` is the plan of a server without one (CUSTOM):
 * the seed's three ports, and its game type's query.
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
  /** Where the port sits: the game port plus this (the game port itself: 0); absent: any free port. */
  offset?: number;
};

export type PortPlan = {
  /** The game's default game port, where a machine without port ranges starts looking for free ports. */
  defaultGamePort: number;
  /** game (offset 0), query, rcon, then the game's extras. */
  ports: NamedPort[];
  /** How the game is queried and on which of its named ports; null: never queried (no liveness either). */
  query: { protocol: QueryProtocol; port: string } | null;
};

/**
 * What each game type says without a template: where a machine without port ranges starts looking for its game port,
 * and how the game is queried (the agent's answer when the service sends no query target). Which named ports a game
 * has, and their offsets, come from its template (catalogue/): the seed's three are placed by SEED_PORT_FALLBACK
 * only where a template leaves one out or puts it on another of the three.
 */
const GAME_DEFAULTS: Record<GameType, Pick<PortPlan, 'defaultGamePort' | 'query'>> = {
  // Server List Ping answers on the game port (TCP).
  MINECRAFT: { defaultGamePort: 25565, query: { protocol: 'MINECRAFT', port: 'game' } },
  RUST: { defaultGamePort: 28015, query: { protocol: 'A2S', port: 'query' } },
  ARK_SURVIVAL_EVOLVED: { defaultGamePort: 7777, query: { protocol: 'A2S', port: 'query' } },
  // A2S answers on the game port itself.
  CS2: { defaultGamePort: 27015, query: { protocol: 'A2S', port: 'game' } },
  VALHEIM: { defaultGamePort: 2456, query: { protocol: 'A2S', port: 'query' } },
  CUSTOM: { defaultGamePort: 27015, query: null },
};

/** The protocol of a seed port no template declares (a CUSTOM server's, or one its template leaves out). */
const SEED_PORT_FALLBACK: Record<(typeof SEED_PORT_NAMES)[number], PortProtocol> = { game: 'BOTH', query: 'BOTH', rcon: 'TCP' };

/**
 * The seed's three ports at `offsets` (game 0; a missing one: the lowest offset from +1 that no other port of the
 * plan takes), followed by `extras`.
 */
function seedPorts(declared: Partial<Record<(typeof SEED_PORT_NAMES)[number], NamedPort>>, extras: NamedPort[]): NamedPort[] {
  const taken = new Set<number>([...Object.values(declared), ...extras].flatMap((port) => (port?.offset === undefined ? [] : [port.offset])));
  const seeds = SEED_PORT_NAMES.map((name) => {
    const own = declared[name];
    if (own?.offset !== undefined) return own;
    let offset = name === 'game' ? 0 : 1;
    while (name !== 'game' && taken.has(offset)) offset += 1;
    taken.add(offset);
    return { name, protocol: own?.protocol ?? SEED_PORT_FALLBACK[name], offset };
  });
  return [...seeds, ...extras];
}

/**
 * The named ports and query of a server of `gameType`; `queryProtocol` is the server's own choice (CUSTOM servers:
 * A2S on their query port, MINECRAFT or TCP on their game port), overriding the game's.
 */
export function portPlanOf(gameType: GameType, queryProtocol?: QueryProtocol | null): PortPlan {
  const { defaultGamePort, query } = GAME_DEFAULTS[gameType];
  const plan: PortPlan = { defaultGamePort, ports: seedPorts({}, []), query };
  if (queryProtocol === undefined) return plan;
  if (queryProtocol === null) return { ...plan, query: null };
  // The game's own query port for its own protocol; else A2S on the query port, Server List Ping and TCP on the game port.
  const port = query?.protocol === queryProtocol ? query.port : queryProtocol === 'A2S' ? 'query' : 'game';
  return { ...plan, query: { protocol: queryProtocol, port } };
}

/** What templatePortPlan reads of a game template (schema/template.ts `ports` and `query`). */
export type TemplatePorts = {
  ports: readonly { name: string; protocol: 'tcp' | 'udp' | 'tcp+udp'; default?: number | undefined; offset?: number | undefined }[];
  query?: { protocol: string; port: string } | undefined;
};

const TEMPLATE_PROTOCOLS = { tcp: 'TCP', udp: 'UDP', 'tcp+udp': 'BOTH' } as const;

/**
 * The port plan of a server that runs a template (built-in or a cluster's): the template's named ports with their
 * protocols and offsets from the game port (a port given by its `default` sits at default − the game's default; one
 * with neither: any free port), its `query` mapped onto QUERY_PROTOCOLS (A2S and MINECRAFT as they are — Server List
 * Ping needs a TCP port, so the game port when the named one is UDP only —, any other protocol a TCP connect on a
 * TCP port, else not queried; no `query`: not queried). The seed's game, query and rcon ports are always held: where
 * the template leaves one out, or places it where another of the three already is (CS2's A2S and RCON answer on the
 * game port), it takes the lowest offset from +1 that no port of the plan takes. `queryProtocol` is the server's own
 * choice, as in portPlanOf.
 */
export function templatePortPlan(gameType: GameType, template: TemplatePorts, queryProtocol?: QueryProtocol | null): PortPlan {
  const declaredGame = template.ports.find((port) => port.name === 'game');
  const defaultGamePort = declaredGame?.default ?? GAME_DEFAULTS[gameType].defaultGamePort;
  const offsetOf = (port: TemplatePorts['ports'][number]) =>
    port.name === 'game' ? 0 : port.offset !== undefined ? port.offset : port.default !== undefined ? port.default - defaultGamePort : undefined;
  const isSeed = (name: string) => (SEED_PORT_NAMES as readonly string[]).includes(name);
  // The seed's three where the template puts them, unless on one of the three already placed.
  const declared: Partial<Record<(typeof SEED_PORT_NAMES)[number], NamedPort>> = {};
  const placed = new Set<number>();
  for (const name of SEED_PORT_NAMES) {
    const port = template.ports.find((entry) => entry.name === name);
    if (!port) continue;
    const offset = offsetOf(port);
    const free = offset !== undefined && !placed.has(offset);
    if (free) placed.add(offset);
    declared[name] = { name, protocol: TEMPLATE_PROTOCOLS[port.protocol], ...(free ? { offset } : {}) };
  }
  const extras = template.ports
    .filter((port) => !isSeed(port.name))
    .map((port): NamedPort => {
      const offset = offsetOf(port);
      return { name: port.name, protocol: TEMPLATE_PROTOCOLS[port.protocol], ...(offset === undefined ? {} : { offset }) };
    });
  const ports = seedPorts(declared, extras);

  const protocolOf = (name: string) => ports.find((port) => port.name === name)?.protocol;
  const tcp = (name: string) => protocolOf(name) !== 'UDP';
  let query: PortPlan['query'] = null;
  if (queryProtocol !== undefined) {
    if (queryProtocol !== null) {
      const own = template.query?.protocol === queryProtocol && (queryProtocol === 'A2S' || tcp(template.query.port)) ? template.query.port : undefined;
      query = { protocol: queryProtocol, port: own ?? (queryProtocol === 'A2S' ? 'query' : 'game') };
    }
  } else if (template.query) {
    const { protocol, port } = template.query;
    if (protocol === 'A2S') query = { protocol: 'A2S', port };
    else if (protocol === 'MINECRAFT') query = { protocol: 'MINECRAFT', port: tcp(port) ? port : 'game' };
    else if (tcp(port)) query = { protocol: 'TCP', port };
  }
  return { defaultGamePort, ports, query };
}
