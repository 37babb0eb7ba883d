/**
 * The event log's records and queries (docs/events.md). An event is `{ id, type, clusterId, at, data }`; `id` is an
 * opaque cursor that sorts (as a string) in the order readers must see events.
 */
import { z } from 'zod';
import { id, paginationQuery, timestamp } from './http.ts';

/** Durable types: written with the change they describe and kept EVENT_RETENTION_DAYS. */
export const DURABLE_EVENT_TYPES = [
  'server.status',
  'machine.status',
  'job.updated',
  'player.joined',
  'player.left',
  'ban.created',
  'ban.revoked',
  'task.run.finished',
] as const;
export type DurableEventType = (typeof DURABLE_EVENT_TYPES)[number];

/** Digits of a cursor: positions are zero-padded so that cursors sort as strings in position order. */
const CURSOR_DIGITS = 16;

export const cursorOf = (position: bigint | number | string): string => String(position).padStart(CURSOR_DIGITS, '0');

/** A cursor as a client sends it back (`after`, `Last-Event-ID`): digits only; answers the position. */
export const cursor = z
  .string()
  .regex(/^\d{1,16}$/, 'expected an event id (a cursor from an earlier event)')
  .transform((value) => BigInt(value))
  .meta({ type: 'string', description: 'An event id: answers the events after it.' });

export const clusterEvent = z
  .object({
    id: z.string().describe('Cursor: sorts as a string in the order events must be read'),
    type: z.string(),
    clusterId: z.string(),
    at: timestamp,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });
export type ClusterEvent = z.infer<typeof clusterEvent>;

/** `type=a,b` (any case): a comma list of durable types. */
export const eventTypesFilter = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()))
  .pipe(z.array(z.enum(DURABLE_EVENT_TYPES, { message: `expected a comma list of ${DURABLE_EVENT_TYPES.join(', ')}` })).min(1))
  .meta({ type: 'string', description: `Comma list of: ${DURABLE_EVENT_TYPES.join(', ')}` });

export const eventListQuery = z
  .object({
    ...paginationQuery,
    type: eventTypesFilter.optional(),
    serverId: id.optional(),
    after: cursor.optional(),
  })
  .strict();

export const eventStreamQuery = z
  .object({
    types: eventTypesFilter.optional(),
    serverId: id.optional(),
    after: cursor.optional(),
  })
  .strict();

export type EventFilter = { clusterId: string; types?: readonly string[]; serverId?: string };

/** Whether `event` passes `filter` (the same test the queries make in SQL). */
export const matches = (filter: EventFilter, event: ClusterEvent & { serverId: string | null }): boolean =>
  event.clusterId === filter.clusterId && (!filter.types || filter.types.includes(event.type)) && (!filter.serverId || event.serverId === filter.serverId);
