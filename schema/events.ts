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
  'webhook.disabled',
  'server.transferred',
  'webhook.dropped',
] as const;
export type DurableEventType = (typeof DURABLE_EVENT_TYPES)[number];

/** Digits of a cursor: positions are zero-padded so that cursors sort as strings in position order. */
export const CURSOR_DIGITS = 16;

export const cursorOf = (position: bigint | number | string): string => String(position).padStart(CURSOR_DIGITS, '0');

/** A cursor as a client sends it back (`after`, `Last-Event-ID`): digits only; answers the position. */
export const cursor = z
  .string()
  .regex(/^\d{1,16}$/, 'expected an event id (a cursor from an earlier event)')
  .transform((value) => BigInt(value))
  .meta({ type: 'string', description: 'An event id: answers the events after it.' });

/**
 * Where a stream resumes (`after`, `Last-Event-ID`): an event id, or on a stream with the console
 * `<event id>:<console sequence>` (the ids such a stream sends), which resumes the console after that line too.
 */
export const streamCursor = z
  .string()
  .regex(/^\d{1,16}(?::\d{1,16})?$/, 'expected an event id (from an earlier event of the stream)')
  .transform((value, context) => {
    const [position, sequence] = value.split(':');
    const console = sequence === undefined ? null : Number(sequence);
    if (console !== null && !Number.isSafeInteger(console)) {
      context.addIssue({ code: 'custom', message: 'expected an event id (its console sequence is out of range)' });
      return z.NEVER;
    }
    return { position: BigInt(position!), console };
  })
  .meta({ type: 'string', description: 'An event id of the stream: resumes after it (`<id>:<console sequence>` resumes the console too).' });

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

/** `types=a,b` (any case): a comma list of durable types. */
export const eventTypesFilter = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()))
  .pipe(z.array(z.enum(DURABLE_EVENT_TYPES, { message: `expected a comma list of ${DURABLE_EVENT_TYPES.join(', ')}` })).min(1))
  .meta({ type: 'string', description: `Comma list of: ${DURABLE_EVENT_TYPES.join(', ')}` });

/**
 * The event-type filter is `types` on every events route (the list, the stream, /live); the list called it `type`
 * before, and the stream's scripts may have guessed `type` from the list: both names are accepted on both, one at a
 * time (both at once is a 400), and the answer reads `types`.
 */
const typesAlias = (filter: z.ZodType<string[], string>) =>
  filter.optional().meta({ deprecated: true, description: 'The same filter as `types` (another name for it); give one of the two.' });
const oneOfTypeAndTypes = (query: { type?: string[]; types?: string[] }, context: z.RefinementCtx) => {
  if (query.type && query.types) context.addIssue({ code: 'custom', path: ['type'], message: 'give types or type, not both (they are the same filter)' });
};
const mergeTypes = <Q extends { type?: string[]; types?: string[] }>({ type, ...query }: Q): Omit<Q, 'type'> => ({ ...query, types: query.types ?? type });

export const eventListQuery = z
  .object({
    ...paginationQuery,
    types: eventTypesFilter.optional(),
    type: typesAlias(eventTypesFilter),
    serverId: id.optional(),
    after: cursor.optional(),
  })
  .strict()
  .superRefine(oneOfTypeAndTypes)
  .transform(mergeTypes);

/** Live-only types: relayed as they happen, never stored (no id, not resumable). */
export const LIVE_EVENT_TYPES = ['server.console', 'server.stats'] as const;
const STREAM_TYPES = [...DURABLE_EVENT_TYPES, ...LIVE_EVENT_TYPES] as const;

/** `types=a,b` of the stream: durable types, and live-only ones (which need `serverId`). */
export const streamTypesFilter = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()))
  .pipe(z.array(z.enum(STREAM_TYPES, { message: `expected a comma list of ${STREAM_TYPES.join(', ')}` })).min(1))
  .meta({ type: 'string', description: `Comma list of: ${STREAM_TYPES.join(', ')} (the live-only ${LIVE_EVENT_TYPES.join(' and ')} need serverId)` });

export const eventStreamQuery = z
  .object({
    types: streamTypesFilter.optional(),
    type: typesAlias(streamTypesFilter),
    serverId: id.optional(),
    after: streamCursor.optional(),
  })
  .strict()
  .superRefine(oneOfTypeAndTypes)
  .transform(mergeTypes)
  .superRefine((query, context) => {
    if (query.types?.some((type) => (LIVE_EVENT_TYPES as readonly string[]).includes(type)) && !query.serverId)
      context.addIssue({ code: 'custom', path: ['serverId'], message: `is required with the live-only types ${LIVE_EVENT_TYPES.join(', ')}` });
  });

export type EventFilter = { clusterId: string; types?: readonly string[]; serverId?: string };

/** Whether `event` passes `filter` (the same test the queries make in SQL). */
export const matches = (filter: EventFilter, event: ClusterEvent & { serverId: string | null }): boolean =>
  event.clusterId === filter.clusterId && (!filter.types || filter.types.includes(event.type)) && (!filter.serverId || event.serverId === filter.serverId);
