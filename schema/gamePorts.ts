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
 * the template leaves one out, or places it on another seed port (an offset of 0, or the same default), the game
 * type's offset stands. The game type's own extra ports stay unless the template declares a port at that offset.
 * `queryProtocol` is the server's own choice, as in portPlanOf.
 */
export function templatePortPlan(gameType: GameType, template: TemplatePorts, queryProtocol?: QueryProtocol | null): PortPlan {
  const base = PLANS[gameType];
  const declaredGame = template.ports.find((port) => port.name === 'game');
  const defaultGamePort = declaredGame?.default ?? base.defaultGamePort;
  const offsetOf = (port: TemplatePorts['ports'][number]) =>
    port.name === 'game' ? 0 : port.offset !== undefined ? port.offset : port.default !== undefined ? port.default - defaultGamePort : undefined;
  const ports: NamedPort[] = [];
  const taken = new Set<number>();
  for (const name of SEED_PORT_NAMES) {
    const own = base.ports.find((port) => port.name === name)!;
    const declared = template.ports.find((port) => port.name === name);
    const offset = declared && declared.offset !== undefined && !taken.has(declared.offset) ? declared.offset : own.offset!;
    const seed = { name, protocol: declared ? TEMPLATE_PROTOCOLS[declared.protocol] : own.protocol, offset: taken.has(offset) ? own.offset! : offset };
    ports.push(seed);
    taken.add(seed.offset);
  }
  for (const declared of template.ports) {
    if ((SEED_PORT_NAMES as readonly string[]).includes(declared.name)) continue;
    const offset = offsetOf(declared);
    ports.push({ name: declared.name, protocol: TEMPLATE_PROTOCOLS[declared.protocol], ...(offset === undefined ? {} : { offset }) });
    if (offset !== undefined) taken.add(offset);
  }
  for (const extra of base.ports)
    if (!ports.some((port) => port.name === extra.name) && extra.offset !== undefined && !taken.has(extra.offset)) ports.push(extra);

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
