/**
 * Reading players: the list item and detail records, sessions, a server's online players and the cluster statistics
 * (docs/api.md). Stored `playtime` counts closed sessions; open ones add their elapsed time when read.
 */
import { sql, type CommonQueryMethods, type FragmentSqlToken, type SqlToken } from 'slonik';
import { z } from 'zod';
import { notFound } from '../../schema/errors.ts';
import type { Page } from '../../schema/http.ts';
import { fetchPage, pageClause } from '../../sql/listing.ts';
import { listAnswer, type Sort } from '../../schema/http.ts';
import { playerDetail, playerListItem, playerStats, serverPlayers, session } from '../../schema/players.ts';

/**
 * Seconds of the player's open sessions so far (0 when offline). With one open session (the usual case) that is the
 * time since `current_joined_at`, the newest open session's start, from the row itself; only a player on several
 * servers at once pays for reading the sessions.
 */
const OPEN_SECONDS = sql.fragment`
  CASE WHEN p.open_sessions = 1 AND p.current_joined_at IS NOT NULL THEN greatest(extract(epoch FROM now() - p.current_joined_at), 0)::bigint
       WHEN p.open_sessions > 0 THEN coalesce((SELECT sum(greatest(extract(epoch FROM now() - os.joined_at), 0))::bigint
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

/**
 * The sort column, then id, in one direction: each sort is one index (cluster_id, column, id) read either way (no
 * NULLS LAST as sql/listing.ts's orderBy writes it: these columns are never null, and the index gives this order).
 * A search orders its collected matches by the sort key and id it carried along (`key`, `idColumn`).
 */
const playerOrder = (sort: Sort<PlayerSortField>, key = PLAYER_SORT[sort.field], idColumn = sql.fragment`p.id`) => {
  const direction = sort.descending ? sql.fragment`DESC` : sql.fragment`ASC`;
  return sql.fragment`ORDER BY ${key} ${direction}, ${idColumn} ${direction}`;
};

/** A cluster's players per UTC day (sql/migrations/000010): the folded day rows plus the deltas not folded yet. */
const activityDays = (clusterId: string) => sql.fragment`
  SELECT day, sum(first_seen) AS first_seen, sum(last_seen) AS last_seen,
         sum(returned_1) AS returned_1, sum(returned_7) AS returned_7, sum(returned_30) AS returned_30
    FROM (SELECT day, first_seen, last_seen, returned_1, returned_7, returned_30 FROM player_activity_days WHERE cluster_id = ${clusterId}
          UNION ALL
          SELECT day, first_seen, last_seen, returned_1, returned_7, returned_30 FROM player_activity_changes WHERE cluster_id = ${clusterId}) a
   GROUP BY day`;

/** Players in a cluster: everyone has one first day. */
const playerCount = (connection: CommonQueryMethods, clusterId: string) =>
  connection.oneFirst(sql.type(z.object({ players: z.number() }))`
    SELECT coalesce(sum(first_seen), 0)::int AS players FROM (${activityDays(clusterId)}) days`);

/** A session's seconds (so far, while it is open). */
const SESSION_DURATION = sql.fragment`greatest(extract(epoch FROM coalesce(s.left_at, now()) - s.joined_at), 0)::bigint`;
const SESSION_COLUMNS = sql.fragment`
  s.id, s.server_id AS "serverId", s.server_name AS "serverName", s.joined_at AS "joinedAt", s.left_at AS "leftAt",
  ${SESSION_DURATION} AS duration`;

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
    // Partial and case-insensitive on both: the stored lower-case text (sql/migrations/000011) and its trigram index, which serves
    // it from 3 characters on. The term is lowered as Postgres lowers (lower() of the database), not by JavaScript.
    const pattern = `%${query.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    filters.push(sql.fragment`p.search_text LIKE lower(${pattern})`);
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
  if (query.search) {
    const collected = await searchPage(connection, where, query.page, query.sort);
    if (collected) return collected;
  }
  // No search, or one matching more than SEARCH_COLLECTED_AT_MOST: a page query and a count, each planned by Postgres
  // for its own term (a broad term's frequency shows in the column's statistics, so the page walks the sort index and
  // stops after its rows, and the count scans the table). A cluster's whole count comes from its day rows.
  const [rows, total] = await Promise.all([
    connection.any(sql.type(playerListItem)`SELECT ${PLAYER_COLUMNS} FROM ${PLAYER_FROM} WHERE ${where} ${playerOrder(query.sort)} ${pageClause(query.page)}`),
    filters.length === 1
      ? playerCount(connection, clusterId)
      : connection.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM players p WHERE ${where}`),
  ]);
  return listAnswer([...rows], total, query.page);
}

/**
 * The most matches a search collects to count and page them in one statement. Collecting costs about 0.6 µs per match
 * (the trigram index's bitmap, each match's row, the sort), so this bounds the statement near 12 ms; a term matching
 * more (a few digits every platform id shares) is answered by the plain page query and count instead, whose plans
 * Postgres chooses from the term's frequency, after the collecting statement has spent its ~12 ms finding that out.
 */
export const SEARCH_COLLECTED_AT_MOST = 20_000;

/** A search's rows, or its total alone on a page past the end (`id` null). */
const searchRow = z.union([playerListItem.extend({ total: z.number() }), z.object({ total: z.number(), id: z.null() })]);

/**
 * A search's page and exact total from one statement: the matches are found once through the trigram index with only
 * their id and sort key (materialised, so the planner cannot walk a sort index hoping to meet a page of matches
 * early, which it would do for a rare term it misjudges as common), counted, sorted and paged; only the page's rows
 * are read in full. Null when the term matches more than SEARCH_COLLECTED_AT_MOST players.
 */
async function searchPage(connection: CommonQueryMethods, where: SqlToken, page: Page, sort: Sort<PlayerSortField>) {
  const rows = await connection.any(sql.type(searchRow)`
    WITH matched AS MATERIALIZED (SELECT p.id, ${PLAYER_SORT[sort.field]} AS sort_key FROM players p WHERE ${where} LIMIT ${SEARCH_COLLECTED_AT_MOST + 1}),
         counted AS (SELECT count(*)::int AS total FROM matched)
    SELECT counted.total, rows.*
      FROM counted
      LEFT JOIN (SELECT ${PLAYER_COLUMNS}, page.sort_key
                   FROM (SELECT id, sort_key FROM matched ${playerOrder(sort, sql.fragment`sort_key`, sql.fragment`id`)} ${pageClause(page)}) page
                   JOIN ${PLAYER_FROM} ON p.id = page.id) rows ON true
     ${playerOrder(sort, sql.fragment`rows.sort_key`, sql.fragment`rows.id`)}`);
  const total = rows[0]!.total;
  if (total > SEARCH_COLLECTED_AT_MOST) return null;
  const players = rows.flatMap(({ total: _total, ...row }) => (row.id === null ? [] : [row]));
  return listAnswer(players, total, page);
}

/** A timestamp inside JSON built in SQL, written as the pool writes timestamp columns (ISO 8601, milliseconds, UTC). */
const isoJson = (column: FragmentSqlToken) => sql.fragment`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The detail record: the list fields plus the newest 100 sessions, purchases and notes (newest first), in one
 * statement (one round trip).
 */
export async function playerDetailOf(connection: CommonQueryMethods, playerId: string) {
  const detail = await connection.maybeOne(sql.type(playerDetail)`
    SELECT ${PLAYER_COLUMNS}, p.cluster_id AS "clusterId", p.discord_id AS "discordId",
           coalesce((SELECT json_agg(json_build_object('id', s.id, 'serverId', s.server_id, 'serverName', s.server_name,
                                                       'joinedAt', ${isoJson(sql.fragment`s.joined_at`)}, 'leftAt', ${isoJson(sql.fragment`s.left_at`)},
                                                       'duration', ${SESSION_DURATION})
                                     ORDER BY s.joined_at DESC, s.id DESC)
                       FROM (SELECT * FROM player_sessions s WHERE s.player_id = p.id ORDER BY s.joined_at DESC, s.id DESC LIMIT 100) s), '[]') AS sessions,
           coalesce((SELECT json_agg(json_build_object('id', b.id, 'productName', b.product_name, 'amount', b.amount::float8, 'currency', b.currency,
                                                       'createdAt', ${isoJson(sql.fragment`b.created_at`)}) ORDER BY b.created_at DESC, b.id DESC)
                       FROM player_purchases b WHERE b.player_id = p.id), '[]') AS purchases,
           coalesce((SELECT json_agg(json_build_object('id', n.id, 'content', n.content, 'createdBy', n.created_by,
                                                       'createdAt', ${isoJson(sql.fragment`n.created_at`)}) ORDER BY n.created_at DESC, n.id DESC)
                       FROM player_notes n WHERE n.player_id = p.id), '[]') AS notes
      FROM ${PLAYER_FROM} WHERE p.id = ${playerId}`);
  if (!detail) throw notFound('Player not found');
  return detail;
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
const RETENTION_DAYS = [1, 7, 30] as const;

/**
 * Statistics over rolling windows (docs/api.md). A player's sessions overlap a window exactly when the player is
 * online or was last seen inside it (`last_seen` is the end of the latest session), and a player has a session
 * starting N days after the first exactly when the newest one (`last_joined_at`) does. Counting those over a million
 * players is a scan each, so they come from the per-day rows of sql/migrations/000010: a window adds up the whole UTC days after
 * the one it starts in, and reads only the players of that day from the players indexes.
 */
export async function playerStatsOf(connection: CommonQueryMethods, clusterId: string, now?: Date): Promise<z.infer<typeof playerStats>> {
  const at = sql.fragment`${(now ?? new Date()).toISOString()}::timestamptz`;
  const ago = (seconds: number) => sql.fragment`(${at} - make_interval(secs => ${seconds}))`;
  const dayOf = (moment: FragmentSqlToken) => sql.fragment`(${moment} AT TIME ZONE 'UTC')::date`;
  const startOfDay = (moment: FragmentSqlToken) => sql.fragment`(${dayOf(moment)}::timestamp AT TIME ZONE 'UTC')`;
  const endOfDay = (moment: FragmentSqlToken) => sql.fragment`((${dayOf(moment)} + 1)::timestamp AT TIME ZONE 'UTC')`;
  const column = { first: sql.fragment`first_seen`, last: sql.fragment`last_seen` };
  /** Players whose first/last sighting is at or after `from`. */
  const since = (which: keyof typeof column, from: FragmentSqlToken) => sql.fragment`
    (SELECT coalesce(sum(${column[which]}), 0) FROM days WHERE day > ${dayOf(from)})
    + (SELECT count(*) FROM players WHERE cluster_id = ${clusterId} AND ${column[which]} >= ${from} AND ${column[which]} < ${endOfDay(from)})`;
  // Cohort N: first seen in [at - (N + 30) days, at - N days); returned: newest session at least N days after the first.
  // The edge days are two ranges of the first_seen index (which carries last_joined_at), each read on its own.
  const cohort = (days: number, counted: 'players' | 'returned') => {
    const [from, to] = [ago((days + 30) * DAY), ago(days * DAY)];
    const whole = counted === 'players' ? sql.fragment`first_seen` : sql.identifier([`returned_${days}`]);
    const edge = (range: FragmentSqlToken) => sql.fragment`
      (SELECT count(*) FROM players WHERE cluster_id = ${clusterId} AND ${range}
          ${counted === 'returned' ? sql.fragment`AND last_joined_at >= first_seen + make_interval(secs => ${days * DAY})` : sql.fragment``})`;
    return sql.fragment`
      (SELECT coalesce(sum(${whole}), 0) FROM days WHERE day > ${dayOf(from)} AND day < ${dayOf(to)})
      + ${edge(sql.fragment`first_seen >= ${from} AND first_seen < ${endOfDay(from)}`)}
      + ${edge(sql.fragment`first_seen >= ${startOfDay(to)} AND first_seen < ${to}`)}`;
  };
  const counts = z.object({
    total: z.number(),
    seenToday: z.number(),
    seenWeek: z.number(),
    seenMonth: z.number(),
    newToday: z.number(),
    newWeek: z.number(),
    newMonth: z.number(),
    cohort1: z.number(),
    returned1: z.number(),
    cohort7: z.number(),
    returned7: z.number(),
    cohort30: z.number(),
    returned30: z.number(),
  });
  const windows = z.object({ today: z.number(), week: z.number(), month: z.number() });
  const [figures, onlineEarlier, top] = await Promise.all([
    connection.one(sql.type(counts)`
      WITH days AS MATERIALIZED (${activityDays(clusterId)})
      SELECT (SELECT coalesce(sum(first_seen), 0) FROM days)::int AS total,
             (${since('last', ago(DAY))})::int AS "seenToday", (${since('last', ago(7 * DAY))})::int AS "seenWeek",
             (${since('last', ago(30 * DAY))})::int AS "seenMonth",
             (${since('first', ago(DAY))})::int AS "newToday", (${since('first', ago(7 * DAY))})::int AS "newWeek",
             (${since('first', ago(30 * DAY))})::int AS "newMonth",
             ${sql.join(
               RETENTION_DAYS.map(
                 (days) => sql.fragment`(${cohort(days, 'players')})::int AS ${sql.identifier([`cohort${days}`])},
                                                                (${cohort(days, 'returned')})::int AS ${sql.identifier([`returned${days}`])}`,
               ),
               sql.fragment`, `,
             )}`),
    // Online players whose last report is older than a window start still overlap it (their session is open).
    connection.one(sql.type(windows)`
      SELECT count(*) FILTER (WHERE last_seen < ${ago(DAY)})::int AS today, count(*) FILTER (WHERE last_seen < ${ago(7 * DAY)})::int AS week,
             count(*) FILTER (WHERE last_seen < ${ago(30 * DAY)})::int AS month
        FROM players WHERE cluster_id = ${clusterId} AND current_server_id IS NOT NULL`),
    // Exact with open sessions counted: an offline player in the true top 10 is also in the top 10 by stored
    // playtime, so the candidates are those and whoever is online.
    connection.any(sql.type(z.object({ id: z.string(), username: z.string(), playtime: z.number() }))`
      SELECT p.id, p.username, (p.playtime + ${OPEN_SECONDS})::bigint AS playtime
        FROM players p
       WHERE p.id IN (SELECT id FROM (SELECT id FROM players WHERE cluster_id = ${clusterId} ORDER BY playtime DESC, id LIMIT 10) top
                      UNION SELECT id FROM players WHERE cluster_id = ${clusterId} AND current_server_id IS NOT NULL)
       ORDER BY 3 DESC, p.id LIMIT 10`),
  ]);
  const share = (returned: number, players: number) => (players === 0 ? 0 : returned / players);
  return playerStats.parse({
    total: figures.total,
    active: { today: figures.seenToday + onlineEarlier.today, week: figures.seenWeek + onlineEarlier.week, month: figures.seenMonth + onlineEarlier.month },
    new: { today: figures.newToday, week: figures.newWeek, month: figures.newMonth },
    topPlayers: [...top],
    retention: {
      day1: share(figures.returned1, figures.cohort1),
      day7: share(figures.returned7, figures.cohort7),
      day30: share(figures.returned30, figures.cohort30),
    },
  });
}
