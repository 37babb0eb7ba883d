/**
 * Reading the event log (sql/migrations/000016_events.sql): numbered events only, in position order, so a reader
 * resuming after a cursor never misses one and never sees one twice.
 */
import { sql, type CommonQueryMethods, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { CURSOR_DIGITS, cursorOf, type ClusterEvent, type EventFilter } from '../../schema/events.ts';
import type { Page } from '../../schema/http.ts';
import { fetchPage } from '../../sql/listing.ts';
import type { DatabasePool } from '../../sql/pool.ts';

/** An event with what readers filter on beside its envelope. */
export type StoredEvent = ClusterEvent & { serverId: string | null; position: bigint };

const eventRow = z.object({
  position: z.string(),
  type: z.string(),
  clusterId: z.string(),
  serverId: z.string().nullable(),
  at: z.string(),
  data: z.record(z.string(), z.unknown()),
});

const EVENT_COLUMNS = sql.fragment`e.position::text AS position, e.type, e.cluster_id AS "clusterId", e.server_id AS "serverId", e.at, e.data`;

const stored = (row: z.infer<typeof eventRow>): StoredEvent => ({
  id: cursorOf(row.position),
  type: row.type,
  clusterId: row.clusterId,
  at: row.at,
  data: row.data,
  serverId: row.serverId,
  position: BigInt(row.position),
});

/** The envelope a client is sent. */
export const envelopeOf = ({ id, type, clusterId, at, data }: StoredEvent): ClusterEvent => ({ id, type, clusterId, at, data });

function where(filter: EventFilter | null, after: bigint): FragmentSqlToken {
  const conditions = [
    sql.fragment`e.position > ${after.toString()}::bigint`,
    ...(filter ? [sql.fragment`e.cluster_id = ${filter.clusterId}`] : []),
    ...(filter?.types ? [sql.fragment`e.type = ANY(${sql.array([...filter.types], 'text')})`] : []),
    ...(filter?.serverId ? [sql.fragment`e.server_id = ${filter.serverId}`] : []),
  ];
  return sql.fragment`${sql.join(conditions, sql.fragment` AND `)}`;
}

/** `GET /clusters/<id>/events`: one page of the cluster's events after `after` (0: from the oldest kept), oldest first. */
export async function listEvents(connection: CommonQueryMethods, filter: EventFilter, after: bigint, page: Page) {
  const answer = await fetchPage(connection, {
    schema: eventRow,
    columns: EVENT_COLUMNS,
    from: sql.fragment`events e WHERE ${where(filter, after)}`,
    order: sql.fragment`ORDER BY e.position`,
    page,
  });
  return { ...answer, data: answer.data.map((row) => envelopeOf(stored(row))) };
}

/** Up to `limit` events after `after`, in position order: of one filter (a reader catching up) or of every cluster (the feed). */
export async function eventsAfter(connection: CommonQueryMethods, filter: EventFilter | null, after: bigint, limit: number): Promise<StoredEvent[]> {
  // The feed's read (every cluster) runs after every numbering, so it is a prepared statement: planned once per connection.
  const rows = await connection.any(
    filter === null
      ? sql.prepared('gsm_events_feed', eventRow)`
          SELECT ${EVENT_COLUMNS} FROM events e WHERE e.position > ${after.toString()}::bigint ORDER BY e.position LIMIT ${limit}`
      : sql.type(eventRow)`SELECT ${EVENT_COLUMNS} FROM events e WHERE ${where(filter, after)} ORDER BY e.position LIMIT ${limit}`,
  );
  return rows.map(stored);
}

/** A stored event as a stream sends it: its envelope's JSON text, made by Postgres. */
export type EventFrame = { position: bigint; id: string; type: string; json: string };

const frameRow = z.object({ position: z.string(), type: z.string(), json: z.string() });

/**
 * Up to `limit` events of `filter` after `after`, in position order, each with its envelope as JSON text (the
 * envelopeOf shape; `at` in the ISO form the pool gives timestamps): a stream catching up on a long log sends them as
 * they come, with no parsing of `data` and no serialising here (about five times fewer CPU per event). The envelopes
 * are made over the page only (the inner query): with a sort in the plan (a bitmap scan, which the planner takes while
 * the table's statistics do not yet count a burst of new events) Postgres would otherwise make one for every event
 * after the cursor before keeping the first `limit` (100,000 envelopes per page of 2,000: a second a page).
 */
export async function eventFramesAfter(pool: DatabasePool, filter: EventFilter, after: bigint, limit: number): Promise<EventFrame[]> {
  const rows = await pool.transaction(async (tx) => {
    // An index gives the log in this order (by cluster or server, then position): the page is its first `limit`
    // entries. Told so, since with statistics that do not yet count a burst of new events the planner takes a bitmap
    // scan and sorts all the rest of the log for every page (3 times slower over 100,000 events).
    await tx.query(sql.unsafe`SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
    return tx.any(sql.type(frameRow)`
      SELECT e.position::text AS position, e.type,
             json_build_object('id', lpad(e.position::text, ${CURSOR_DIGITS}, '0'), 'type', e.type, 'clusterId', e.cluster_id,
                               'at', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', e.data)::text AS json
        FROM (SELECT * FROM events e WHERE ${where(filter, after)} ORDER BY e.position LIMIT ${limit}) e ORDER BY e.position`);
  });
  return rows.map((row) => ({ position: BigInt(row.position), id: cursorOf(row.position), type: row.type, json: row.json }));
}

/** The highest position given so far: a feed starting now delivers the events after it. */
export const lastPosition = async (connection: CommonQueryMethods): Promise<bigint> =>
  BigInt(await connection.oneFirst(sql.type(z.object({ last: z.string() }))`SELECT last_position::text AS last FROM event_positions`));

/**
 * Writes an event in the caller's transaction (most events are written by the triggers of the rows they are about;
 * this is for a change that is no single row's, such as a transfer's switch). The sequencer numbers it on commit.
 */
export async function appendEvent(
  tx: CommonQueryMethods,
  event: { clusterId: string; serverId: string | null; type: string; data: Record<string, unknown> },
): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO events (cluster_id, type, server_id, data) VALUES (${event.clusterId}, ${event.type}, ${event.serverId}, ${sql.jsonb(event.data as never)})`);
}
