/**
 * Reading players: the list item and detail records, sessions, a server's online players and the cluster statistics
 * (SPEC sections 3 and 5). Stored `playtime` counts closed sessions; open ones add their elapsed time when read.
 */
import { sql, type CommonQueryMethods, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { notFound } from '../api/errors.ts';
import type { Page } from '../schema/http.ts';
import { fetchPage, pageClause } from '../database/listing.ts';
import { listAnswer, type Sort } from '../schema/http.ts';
import { note, playerDetail, playerListItem, playerStats, purchase, serverPlayers, session } from '../schema/players.ts';

/** Seconds of the player's open sessions so far (0 when offline; only online players pay for the lookup). */
const OPEN_SECONDS = sql.fragment`
  CASE WHEN p.open_sessions > 0 THEN coalesce((SELECT sum(greatest(extract(epoch FROM now() - os.joined_at), 0))::bigint
                                                 FROM player_sessions os WHERE os.player_id = p.id AND os.left_at IS NULL), 0)
       ELSE 0 END`;

export const PLAYER_COLUMNS = sql.fragment`
  p.id, p.username, p.steam_id AS "steamId", p.uuid, (p.playtime + ${OPEN_SECONDS})::bigint AS playtime,
  p.first_seen AS "firstSeen", p.last_seen AS "lastSeen", p.current_server_id IS NOT NULL AS online,
  CASE WHEN cs.id IS NULL THEN NULL ELSE json_build_object('id', cs.id, 'name', cs.name) END AS "currentServer",
  p.flags`;
export const PLAYER_FROM = sql.fragment`players p LEFT JOIN servers cs ON cs.id = p.current_server_id`;

const PLAYER_SORT = {
  playtime: sql.fragment`p.playtime`,
  lastSeen: sql.fragment`p.last_seen`,
  firstSeen: sql.fragment`p.first_seen`,
  username: sql.fragment`lower(p.username)`,
};
export type PlayerSortField = keyof typeof PLAYER_SORT;

/** The sort column, then id, in one direction: each sort is one index (cluster_id, column, id) read either way. */
const playerOrder = (sort: Sort<PlayerSortField>) => {
  const direction = sort.descending ? sql.fragment`DESC` : sql.fragment`ASC`;
  return sql.fragment`ORDER BY ${PLAYER_SORT[sort.field]} ${direction}, p.id ${direction}`;
};

/** Players in a cluster, from the trigger-kept counter. */
const playerCount = (connection: CommonQueryMethods, clusterId: string) =>
  connection.oneFirst(sql.type(z.object({ players: z.number() }))`
    SELECT coalesce(sum(players), 0)::int AS players FROM cluster_player_counts WHERE cluster_id = ${clusterId}`);

const SESSION_COLUMNS = sql.fragment`
  s.id, s.server_id AS "serverId", s.server_name AS "serverName", s.joined_at AS "joinedAt", s.left_at AS "leftAt",
  greatest(extract(epoch FROM coalesce(s.left_at, now()) - s.joined_at), 0)::bigint AS duration`;

export const playerRef = z.object({ id: z.string(), clusterId: z.string(), steamId: z.string(), username: z.string(), currentServerId: z.string().nullable() });
export type PlayerRef = z.infer<typeof playerRef>;

/** The few fields moderation needs, or 404. */
export async function findPlayer(connection: CommonQueryMethods, playerId: string, lock = false): Promise<PlayerRef> {
  const row = await connection.maybeOne(sql.type(playerRef)`
    SELECT id, cluster_id AS "clusterId", steam_id AS "steamId", username, current_server_id AS "currentServerId"
      FROM players WHERE id = ${playerId} ${lock ? sql.fragment`FOR UPDATE` : sql.fragment``}`);
  if (!row) throw notFound('Player not found');
  return row;
}

export async function playerListPage(
  connection: CommonQueryMethods,
  clusterId: string,
  query: { search?: string; online?: boolean; serverId?: string; page: Page; sort: Sort<PlayerSortField> },
) {
  const filters: FragmentSqlToken[] = [sql.fragment`p.cluster_id = ${clusterId}`];
  if (query.search) {
    // Partial and case-insensitive on both; the trigram indexes serve it from 3 characters on.
    const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    filters.push(sql.fragment`(lower(p.username) || E'\\x01' || lower(p.steam_id)) LIKE ${pattern}`);
  }
  if (query.online !== undefined) filters.push(query.online ? sql.fragment`p.current_server_id IS NOT NULL` : sql.fragment`p.current_server_id IS NULL`);
  if (query.serverId) {
    filters.push(
      query.online
        ? sql.fragment`EXISTS (SELECT 1 FROM player_sessions ss WHERE ss.player_id = p.id AND ss.server_id = ${query.serverId} AND ss.left_at IS NULL)`
        : sql.fragment`EXISTS (SELECT 1 FROM player_sessions ss WHERE ss.server_id = ${query.serverId} AND ss.player_id = p.id)`,
    );
  }
  const where = sql.join(filters, sql.fragment` AND `);
  if (filters.length === 1) {
    const [rows, total] = await Promise.all([
      connection.any(sql.type(playerListItem)`SELECT ${PLAYER_COLUMNS} FROM ${PLAYER_FROM} WHERE ${where} ${playerOrder(query.sort)} ${pageClause(query.page)}`),
      playerCount(connection, clusterId),
    ]);
    return listAnswer([...rows], total, query.page);
  }
  const count = () => connection.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM players p WHERE ${where}`);
  if (!query.search) {
    const [rows, total] = await Promise.all([
      connection.any(sql.type(playerListItem)`SELECT ${PLAYER_COLUMNS} FROM ${PLAYER_FROM} WHERE ${where} ${playerOrder(query.sort)} ${pageClause(query.page)}`),
      count(),
    ]);
    return listAnswer([...rows], total, query.page);
  }
  // A search: the matches are found once through the trigram index (materialised, so the planner cannot walk a sort
  // index hoping to meet 20 matches early), then sorted, paged and counted together.
  const rows = await connection.any(sql.type(playerListItem.extend({ total: z.number() }))`
    WITH matched AS MATERIALIZED (SELECT p.* FROM players p WHERE ${where})
    SELECT ${PLAYER_COLUMNS}, count(*) OVER ()::int AS total
      FROM matched p LEFT JOIN servers cs ON cs.id = p.current_server_id ${playerOrder(query.sort)} ${pageClause(query.page)}`);
  // A page past the end has no row to carry the total.
  const total = rows[0]?.total ?? (await count());
  return listAnswer(rows.map(({ total: _total, ...row }) => row), total, query.page);
}

/** The detail record: the list fields plus the newest 100 sessions, purchases and notes (newest first). */
export async function playerDetailOf(connection: CommonQueryMethods, playerId: string) {
  const base = await connection.maybeOne(sql.type(playerListItem.extend({ clusterId: z.string(), discordId: z.string().nullable() }))`
    SELECT ${PLAYER_COLUMNS}, p.cluster_id AS "clusterId", p.discord_id AS "discordId" FROM ${PLAYER_FROM} WHERE p.id = ${playerId}`);
  if (!base) throw notFound('Player not found');
  const [sessions, purchases, notes] = await Promise.all([
    connection.any(sql.type(session)`
      SELECT ${SESSION_COLUMNS} FROM player_sessions s WHERE s.player_id = ${playerId} ORDER BY s.joined_at DESC, s.id DESC LIMIT 100`),
    connection.any(sql.type(purchase)`
      SELECT id, product_name AS "productName", amount::float8 AS amount, currency, created_at AS "createdAt"
        FROM player_purchases WHERE player_id = ${playerId} ORDER BY created_at DESC, id DESC`),
    connection.any(sql.type(note)`
      SELECT id, content, created_by AS "createdBy", created_at AS "createdAt"
        FROM player_notes WHERE player_id = ${playerId} ORDER BY created_at DESC, id DESC`),
  ]);
  return playerDetail.parse({ ...base, sessions, purchases, notes });
}

export const sessionPage = (connection: CommonQueryMethods, playerId: string, page: Page) =>
  fetchPage(connection, {
    schema: session,
    columns: SESSION_COLUMNS,
    from: sql.fragment`player_sessions s WHERE s.player_id = ${playerId}`,
    order: sql.fragment`ORDER BY s.joined_at DESC, s.id DESC`,
    page,
  });

/** `{ online, max, players }` of one server, from its open sessions. */
export async function serverPlayersOf(connection: CommonQueryMethods, serverId: string): Promise<z.infer<typeof serverPlayers>> {
  const max = await connection.maybeOneFirst(sql.type(z.object({ max: z.number() }))`SELECT max_players AS max FROM servers WHERE id = ${serverId}`);
  if (max === null) throw notFound('Server not found');
  const players = await connection.any(sql.type(serverPlayers.shape.players.element)`
    SELECT p.id, p.username, p.steam_id AS "steamId", s.joined_at AS "joinedAt", s.ping
      FROM player_sessions s JOIN players p ON p.id = s.player_id
     WHERE s.server_id = ${serverId} AND s.left_at IS NULL ORDER BY s.joined_at, p.id`);
  return { online: players.length, max, players: [...players] };
}

const DAY = 86_400;

/**
 * Statistics over rolling windows (SPEC section 5), from the players table alone: a player's sessions overlap a window
 * exactly when the player is online or was last seen inside it (`last_seen` is the end of the latest session), and a
 * player has a session starting N days after the first exactly when the newest one (`last_joined_at`) does.
 */
export async function playerStatsOf(connection: CommonQueryMethods, clusterId: string, now?: Date): Promise<z.infer<typeof playerStats>> {
  const at = sql.fragment`${(now ?? new Date()).toISOString()}::timestamptz`;
  const since = (column: FragmentSqlToken, days: number) => sql.fragment`${column} >= ${at} - make_interval(secs => ${days * DAY})`;
  // One index range scan from the start of the month window (an OR with "online" would defeat the index).
  const windowCounts = (column: FragmentSqlToken) => sql.fragment`
    SELECT count(*) FILTER (WHERE ${since(column, 1)})::int AS today, count(*) FILTER (WHERE ${since(column, 7)})::int AS week, count(*)::int AS month
      FROM players WHERE cluster_id = ${clusterId} AND ${since(column, 30)}`;
  // Online players whose last report is older than a window start still overlap it (their session is open).
  const onlineBefore = sql.fragment`
    SELECT count(*) FILTER (WHERE NOT ${since(sql.fragment`last_seen`, 1)})::int AS today, count(*) FILTER (WHERE NOT ${since(sql.fragment`last_seen`, 7)})::int AS week,
           count(*) FILTER (WHERE NOT ${since(sql.fragment`last_seen`, 30)})::int AS month
      FROM players WHERE cluster_id = ${clusterId} AND current_server_id IS NOT NULL`;
  const windows = z.object({ today: z.number(), week: z.number(), month: z.number() });
  // New players and the three retention cohorts from one index-only range scan over the last 60 days of first_seen
  // (the index carries last_joined_at).
  const between = (from: number, to: number) =>
    sql.fragment`first_seen >= ${at} - make_interval(secs => ${from * DAY}) AND first_seen < ${at} - make_interval(secs => ${to * DAY})`;
  const retention = (days: number) => sql.fragment`
    coalesce(avg(CASE WHEN last_joined_at >= first_seen + make_interval(secs => ${days * DAY}) THEN 1.0 ELSE 0.0 END)
             FILTER (WHERE ${between(days + 30, days)}), 0)::float8`;
  const firstSeen = z.object({ today: z.number(), week: z.number(), month: z.number(), day1: z.number(), day7: z.number(), day30: z.number() });
  const [total, seen, onlineEarlier, cohorts, top] = await Promise.all([
    playerCount(connection, clusterId),
    connection.one(sql.type(windows)`${windowCounts(sql.fragment`last_seen`)}`),
    connection.one(sql.type(windows)`${onlineBefore}`),
    connection.one(sql.type(firstSeen)`
      SELECT count(*) FILTER (WHERE ${since(sql.fragment`first_seen`, 1)})::int AS today, count(*) FILTER (WHERE ${since(sql.fragment`first_seen`, 7)})::int AS week,
             count(*) FILTER (WHERE ${since(sql.fragment`first_seen`, 30)})::int AS month,
             ${retention(1)} AS day1, ${retention(7)} AS day7, ${retention(30)} AS day30
        FROM players WHERE cluster_id = ${clusterId} AND ${since(sql.fragment`first_seen`, 60)}`),
    // Exact with open sessions counted: an offline player in the true top 10 is also in the top 10 by stored
    // playtime, so the candidates are those and whoever is online.
    connection.any(sql.type(z.object({ id: z.string(), username: z.string(), playtime: z.number() }))`
      SELECT p.id, p.username, (p.playtime + ${OPEN_SECONDS})::bigint AS playtime
        FROM players p
       WHERE p.id IN (SELECT id FROM (SELECT id FROM players WHERE cluster_id = ${clusterId} ORDER BY playtime DESC, id LIMIT 10) top
                      UNION SELECT id FROM players WHERE cluster_id = ${clusterId} AND current_server_id IS NOT NULL)
       ORDER BY 3 DESC, p.id LIMIT 10`),
  ]);
  const { day1, day7, day30, ...fresh } = cohorts;
  const active = { today: seen.today + onlineEarlier.today, week: seen.week + onlineEarlier.week, month: seen.month + onlineEarlier.month };
  return playerStats.parse({ total, active, new: fresh, topPlayers: [...top], retention: { day1, day7, day30 } });
}
