/**
 * Player search on both sides of SEARCH_COLLECTED_AT_MOST (players/store.ts): a term matching that many players is
 * counted and paged in one statement, one matching more by a page query and a count. Either way every sort, page and
 * total must be what sorting the matching players by hand gives, and other clusters' players never count.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { SEARCH_COLLECTED_AT_MOST } from '../../orchestrator/players/store.ts';
import { body } from '../support/app.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { clusterWithServers } from '../support/players.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp();
});
test.after.always(async () => app?.close());

const LIMIT = SEARCH_COLLECTED_AT_MOST;
const EXTRA = 5;

/**
 * LIMIT + EXTRA players named `Hero_<n>`; the first LIMIT have platform ids `SID<n>`, the rest `other<n>`. Sort keys
 * repeat (whole seconds, so JavaScript compares them as Postgres does) and the tie-break on id decides. Every 1,000th
 * player is online.
 */
async function seed(clusterId: string, serverId: string, count: number) {
  await app.pool.query(sql.unsafe`
    INSERT INTO players (cluster_id, steam_id, username, playtime, first_seen, last_seen, last_joined_at, current_server_id, current_joined_at, open_sessions)
    SELECT ${clusterId}, CASE WHEN i <= ${LIMIT} THEN 'SID' ELSE 'other' END || i, 'Hero_' || i, (i * 7919) % 50,
           date_trunc('second', now()) - interval '30 days' + (i % 31) * interval '1 hour',
           date_trunc('second', now()) - (i % 97) * interval '1 second', date_trunc('second', now()) - (i % 97) * interval '1 second',
           CASE WHEN i % 1000 = 0 THEN ${serverId}::uuid END, CASE WHEN i % 1000 = 0 THEN now() END, CASE WHEN i % 1000 = 0 THEN 1 ELSE 0 END
      FROM generate_series(1, ${count}) i`);
}

const row = z.object({
  id: z.string(),
  username: z.string(),
  steamId: z.string(),
  playtime: z.number(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  online: z.boolean(),
});
type Row = z.infer<typeof row>;
const KEYS = {
  playtime: (p: Row) => p.playtime,
  lastSeen: (p: Row) => p.lastSeen,
  firstSeen: (p: Row) => p.firstSeen,
  username: (p: Row) => p.username.toLowerCase(),
};

test('a search answers every sort, page and total exactly on both sides of the collection limit', async (t) => {
  const { user, clusterId, serverIds } = await clusterWithServers(app, 1);
  const other = await clusterWithServers(app, 1);
  await seed(clusterId, serverIds[0]!, LIMIT + EXTRA);
  await seed(other.clusterId, other.serverIds[0]!, 50);
  const everyone = await app.pool.any(sql.type(row)`
    SELECT id, username, steam_id AS "steamId", playtime::int, first_seen AS "firstSeen", last_seen AS "lastSeen", current_server_id IS NOT NULL AS online
      FROM players WHERE cluster_id = ${clusterId}`);

  /** The page sorting the matching players by hand gives, and their number. */
  const expected = (term: string, online: boolean | undefined, field: keyof typeof KEYS, descending: boolean, page: number, limit: number) => {
    const matching = everyone.filter(
      (p) => (p.username.toLowerCase().includes(term) || p.steamId.toLowerCase().includes(term)) && (online === undefined || p.online === online),
    );
    const key = KEYS[field];
    const sign = descending ? -1 : 1;
    const sorted = [...matching].sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { ids: sorted.slice((page - 1) * limit, page * limit).map((p) => p.id), total: matching.length };
  };

  const cases: { term: string; matches: number; online?: boolean }[] = [
    { term: 'SID', matches: LIMIT },
    { term: 'hero_', matches: LIMIT + EXTRA },
    { term: 'HERO_', matches: LIMIT + EXTRA, online: true },
  ];
  for (const { term, matches, online } of cases) {
    for (const field of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
      for (const descending of [false, true]) {
        for (const [page, limit] of [
          [1, 20],
          [2, 20],
          [7, 100],
          [Math.ceil(matches / 100) + 1, 100],
        ] as const) {
          const sort = `${descending ? '-' : ''}${field}`;
          const query = `search=${term}&sort=${sort}&page=${page}&limit=${limit}${online === undefined ? '' : `&online=${online}`}`;
          const answer = await app.request(`/api/v1/clusters/${clusterId}/players?${query}`, { headers: user.auth });
          t.is(answer.status, 200, query);
          const list = await body(answer);
          const want = expected(term.toLowerCase(), online, field, descending, page, limit);
          t.deepEqual(
            list.data.map((p: { id: string }) => p.id),
            want.ids,
            query,
          );
          t.deepEqual(list.meta, { total: want.total, page, limit, totalPages: Math.ceil(want.total / limit) }, query);
        }
      }
    }
    if (online === undefined) t.is(expected(term.toLowerCase(), undefined, 'username', false, 1, 1).total, matches, `${term} matches ${matches} players`);
  }
});
