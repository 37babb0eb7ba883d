/**
 * One process's feed of new events: when the sequencer announces new positions (`gsm_events`), the feed reads the
 * events after the last one it delivered, once for every reader in the process, and hands each to the readers of its
 * cluster. A reader catching up from a cursor subscribes first and reads the database after (see the event stream),
 * so nothing falls between the two. The feed reads every new event even with no reader (a reader arriving later must
 * not depend on where the feed had stopped); events of clusters nobody reads are dropped at once.
 */
import type { Logger } from '../../schema/logger.ts';
import { listen } from '../../sql/listen.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { eventsAfter, lastPosition, type StoredEvent } from './store.ts';

/** Events read per query. */
const READ_BATCH = 1_000;
/** A read without an announcement: covers announcements missed while the listening connection was re-opened. */
const POLL_MS = 1_000;
const RETRY_MS = 1_000;

export type EventReader = (event: StoredEvent) => void;

export type EventFeed = {
  /**
   * Hands every new event of `clusterId` to `reader` until the answered function is called; `onClose` is called if the
   * feed closes first (the process shutting down: a stream ends so that its client reconnects elsewhere).
   */
  subscribe: (clusterId: string, reader: EventReader, onClose?: () => void) => () => void;
  /** Subscriptions open now (tests, metrics). */
  size: () => number;
  /** Stops reading and ends every subscription (idempotent). */
  close: () => Promise<void>;
};

export async function startEventFeed(options: { pool: DatabasePool; databaseUrl: string; logger: Logger }): Promise<EventFeed> {
  const readers = new Map<string, Set<EventReader>>();
  const closers = new Map<EventReader, () => void>();
  let delivered = await lastPosition(options.pool);
  let closed = false;
  let reading: Promise<void> | undefined;
  let again = false;

  const deliver = (event: StoredEvent) => {
    for (const reader of readers.get(event.clusterId) ?? []) {
      try {
        reader(event);
      } catch (error) {
        options.logger.error({ err: error }, 'an event reader failed');
      }
    }
  };
  const readNew = async () => {
    try {
      for (;;) {
        const events = await eventsAfter(options.pool, null, delivered, READ_BATCH);
        for (const event of events) {
          delivered = event.position;
          deliver(event);
        }
        if (events.length < READ_BATCH || closed) return;
      }
    } catch (error) {
      options.logger.warn({ err: error }, 'reading new events failed; retrying');
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  const kick = () => {
    if (closed) return;
    if (reading !== undefined) {
      again = true;
      return;
    }
    reading = (async () => {
      do {
        again = false;
        await readNew();
      } while (again && !closed);
      reading = undefined;
    })();
  };

  const listener = await listen({
    databaseUrl: options.databaseUrl,
    channel: 'gsm_events',
    logger: options.logger,
    onPayload: (payload) => {
      if (/^\d+$/.test(payload) && BigInt(payload) <= delivered) return;
      kick();
    },
  });
  const poll = setInterval(kick, POLL_MS);

  return {
    size: () => [...readers.values()].reduce((sum, set) => sum + set.size, 0),
    subscribe(clusterId, reader, onClose) {
      let set = readers.get(clusterId);
      if (!set) readers.set(clusterId, (set = new Set()));
      set.add(reader);
      if (onClose) closers.set(reader, onClose);
      return () => {
        set.delete(reader);
        closers.delete(reader);
        if (set.size === 0 && readers.get(clusterId) === set) readers.delete(clusterId);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      for (const onClose of [...closers.values()]) onClose();
      closers.clear();
      readers.clear();
      await listener.close();
      await reading;
    },
  };
}
