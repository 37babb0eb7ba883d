/**
 * The event log of a cluster (docs/events.md): a list (`GET /clusters/<id>/events`) and a Server-Sent Events stream
 * (`GET /clusters/<id>/events/stream`) that resumes after `Last-Event-ID` (or `?after=`) from the durable log and goes
 * on live with no gap and no duplicate. Every member may read.
 */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { clusterEvent, cursorOf, eventListQuery, eventStreamQuery, LIVE_EVENT_TYPES, matches, streamCursor, type EventFilter } from '../../schema/events.ts';

type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];
import { validationFailed } from '../../schema/errors.ts';
import { envelopeOf, eventFramesAfter, lastPosition, listEvents, type StoredEvent } from '../../orchestrator/events/store.ts';
import { authorize } from '../identity/access.ts';
import { createAuthenticator } from '../identity/principal.ts';
import { followConsole } from '../../orchestrator/live/consoleFollower.ts';
import { onlyServer, type LiveEvent } from '../../orchestrator/live/relay.ts';

/** Where a stream resumes: after an event position, and (on a stream with the console) after a console line. */
type StreamStart = { position: bigint; console: number | null };

/** A comment line this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/** How often a stream checks that its caller may still read the cluster (token revoked, membership removed). */
export const ACCESS_RECHECK_MS = 4_000;
/** Events read per catch-up query. */
const CATCH_UP_BATCH = 2_000;
/** How soon a stream's client (SSE or `/live`) of a process that shuts down is asked to connect again, elsewhere. */
export const SHUTDOWN_RECONNECT_MS = 500;
/**
 * Bytes a stream may hold for a client that does not read: past this it is ended, and the client resumes from its
 * last event id (so a stalled reader costs bounded memory and loses nothing).
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * While catching up: live events held back at most (beyond, they are let go and the log is read once more before going
 * live), and how long the reader may stop reading.
 */
const MAX_WAITING_EVENTS = 10_000;
const CATCH_UP_STALL_MS = 30_000;

const frame = (id: string, type: string, data: unknown) => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

export function installEventRoutes(api: Api, deps: AppDeps) {
  const { pool, eventFeed, logger } = deps;
  const authenticator = createAuthenticator(deps);

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/events',
    summary: "A cluster's events",
    description:
      'Durable events, oldest first. Filters: `types` (comma list; `type` is accepted too), `serverId`, `after` (an event id: the events after it). ' +
      'Events are kept EVENT_RETENTION_DAYS (default 7).',
    tags: ['Events'],
    auth: 'user',
    params: clusterIdParams,
    query: eventListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Events', schema: listOf(clusterEvent) } },
    handler: (_ctx, { params, query }) =>
      listEvents(pool, { clusterId: params.clusterId, types: query.types, serverId: query.serverId }, query.after ?? 0n, query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/events/stream',
    summary: "A cluster's events, live (Server-Sent Events)",
    description:
      'Each event is sent as `id:` (the cursor), `event:` (the type) and `data:` (the event JSON). Resumes after the ' +
      '`Last-Event-ID` header (or `?after=`) from the durable log, then goes on live with no gap and no duplicate; ' +
      'without either it starts with the events that come next. ' +
      `Filters: \`types\` (comma list; \`type\` is accepted too), \`serverId\`. A comment line every ${HEARTBEAT_MS / 1000} s keeps proxies open. ` +
      'The stream ends when the caller loses access to the cluster (checked every few seconds).',
    tags: ['Events'],
    auth: 'user',
    params: clusterIdParams,
    query: eventStreamQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'An event stream (text/event-stream)' } },
    handler: async (ctx, { params, query }) => {
      const lastEventId = ctx.get('Last-Event-ID');
      let after: StreamStart | null = query.after ?? null;
      if (lastEventId) {
        const parsed = streamCursor.safeParse(lastEventId);
        if (!parsed.success) throw validationFailed([{ field: 'Last-Event-ID', message: parsed.error.issues[0]!.message }]);
        after = parsed.data;
      }
      const live = (query.types ?? []).filter((type): type is LiveEventType => (LIVE_EVENT_TYPES as readonly string[]).includes(type));
      const durable = query.types?.filter((type) => !live.includes(type as LiveEventType));
      // Only live types asked for: no durable event matches (an empty list is "none", not "all").
      stream(ctx, { clusterId: params.clusterId, types: query.types ? durable : undefined, serverId: query.serverId }, after, live);
    },
  });

  /** `after` null: from the events that come next (the reader subscribes first, so none falls between). */
  function stream(ctx: Context, filter: EventFilter, after: StreamStart | null, liveTypes: LiveEventType[]) {
    const out = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    ctx.status = 200;
    ctx.body = out;
    // Sent at once: the client sees the answer's headers now, not with the first event or heartbeat.
    out.write(': connected\n\n');

    let position = after?.position ?? 0n;
    // With the console: the sequence of its last line sent, so that every id resumes both (`<event id>:<sequence>`).
    let consoleLast: number | null = null;
    const streamId = (eventId = cursorOf(position)) => (consoleLast === null ? eventId : `${eventId}:${consoleLast}`);
    let live = false;
    const waiting: StoredEvent[] = [];
    /** How many times live events were let go while catching up (a read that began before one must be done again). */
    let overflows = 0;
    let ended = false;
    let wakeCatchUp = () => undefined as void;
    const send = (event: StoredEvent) => {
      if (ended || event.position <= position) return;
      position = event.position;
      if (!matches(filter, event)) return;
      out.write(frame(streamId(event.id), event.type, envelopeOf(event)));
      // While catching up the stream waits for the client (below); once live, a client that stops reading is let go.
      if (live && out.writableLength > MAX_BUFFERED_BYTES) end('the client is not reading');
    };
    const unsubscribe = eventFeed.subscribe(
      filter.clusterId,
      (event) => {
        if (live) return send(event);
        // Events that come while catching up wait their turn, up to a point: past it they are let go, and the
        // catch-up reads the log once more before going live (they were stored before that read began).
        if (waiting.push(event) > MAX_WAITING_EVENTS) {
          waiting.length = 0;
          overflows += 1;
        }
      },
      () => {
        // The process is going away: the client is told so and how soon to connect again (`retry:` sets EventSource's
        // reconnection time); it resumes from its last id on another process behind the balancer.
        if (!ended)
          out.write(
            `retry: ${SHUTDOWN_RECONNECT_MS}\nevent: stream.reconnect\ndata: ${JSON.stringify({ reason: 'shutting down', retryMs: SHUTDOWN_RECONNECT_MS })}\n\n`,
          );
        end('shutting down');
      },
    );
    const serverId = filter.serverId?.toLowerCase();
    const writeLive = (event: LiveEvent) => {
      if (ended || event.clusterId !== filter.clusterId) return;
      if (event.type === 'server.console') {
        consoleLast = event.data.seq + event.data.lines.length - 1;
        out.write(frame(streamId(), event.type, event));
      } else out.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      if (live && out.writableLength > MAX_BUFFERED_BYTES) end('the client is not reading');
    };
    // Stats of the one server asked for: no id line, as they cannot be resumed. Its console comes through a follower
    // (below), which starts it from the history.
    const unsubscribeLive = liveTypes.includes('server.stats')
      ? deps.live.relay.subscribe((event) => {
          if (event.type === 'server.stats' && event.data.serverId === serverId) writeLive(event);
        }, onlyServer(serverId!))
      : () => undefined;
    let stopConsole = () => undefined as void;
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const recheck = setInterval(() => void stillAllowed(), ACCESS_RECHECK_MS);
    const authorization = ctx.get('Authorization');

    function end(why: string) {
      if (ended) return;
      ended = true;
      wakeCatchUp();
      clearInterval(heartbeat);
      clearInterval(recheck);
      unsubscribe();
      unsubscribeLive();
      stopConsole();
      logger.debug({ clusterId: filter.clusterId, why }, 'event stream ended');
      out.end();
    }
    async function stillAllowed() {
      try {
        const { principal } = await authenticator.resolve(authorization);
        await authorize(pool, principal, filter.clusterId, 'cluster.read');
      } catch (error) {
        // A refused credential ends the stream; a database that does not answer leaves it for the next check.
        if ((error as { status?: number }).status !== undefined) end('access lost');
      }
    }
    ctx.res.on('close', () => end('client gone'));
    out.on('error', () => end('write failed'));

    void (async () => {
      try {
        if (liveTypes.includes('server.console')) await followServerConsole(serverId!);
        if (after === null) {
          position = await lastPosition(pool);
          // The resume point before any event comes: a client cut off before the first event resumes from here
          // (an `id:` line alone sets the Last-Event-ID of EventSource and our clients, and dispatches nothing).
          if (!ended) out.write(`id: ${streamId()}\n\n`);
        }
        // Each page's read is started before the previous page is written: Postgres makes the next page while this
        // process sends the last one. A read remembers how many overflows it began after. One the stream does not wait
        // for (it ended meanwhile) must not leave an unhandled rejection.
        const read = (after: bigint) => {
          const frames = eventFramesAfter(pool, filter, after, CATCH_UP_BATCH);
          frames.catch(() => undefined);
          return { overflowsBefore: overflows, frames };
        };
        // Only live types asked for: no stored event can match, so there is nothing to read.
        let next = filter.types?.length === 0 ? null : read(position);
        while (next) {
          const { overflowsBefore } = next;
          // A page is one write: its frames as Postgres made them (the envelope's JSON), in position order.
          const frames = await next.frames;
          next = null;
          if (ended) break;
          const last = frames.at(-1)?.position;
          // The end of the log, unless live events were let go during this read (then they may be after it).
          const atEnd = frames.length < CATCH_UP_BATCH && overflows === overflowsBefore;
          if (!atEnd) next = read(last !== undefined && last > position ? last : position);
          let page = '';
          for (const event of frames) {
            if (event.position <= position) continue;
            position = event.position;
            page += `id: ${streamId(event.id)}\nevent: ${event.type}\ndata: ${event.json}\n\n`;
          }
          if (page) out.write(page);
          if (atEnd) break;
          // A client catching up on a long log reads at its own pace: the next page waits until it has taken this one.
          if (out.writableLength > MAX_BUFFERED_BYTES) {
            const drained = await new Promise<boolean>((resolve) => {
              const timer = setTimeout(() => resolve(false), CATCH_UP_STALL_MS);
              wakeCatchUp = () => (clearTimeout(timer), resolve(false));
              out.once('drain', () => (clearTimeout(timer), resolve(true)));
            });
            if (!drained) return end('the client is not reading');
          }
        }
        live = true;
        for (const event of waiting.splice(0)) send(event);
      } catch (error) {
        logger.warn({ err: error }, 'event stream catch-up failed');
        end('catch-up failed');
      }
    })();

    /**
     * The console: resumed after the sequence of the client's id (the kept lines after it come first, `replay: true`),
     * otherwise from the lines that come next; either way no line is lost or repeated between the two. Without the
     * history (Redis away) the live lines still come, from now.
     */
    async function followServerConsole(consoleOf: string) {
      const resumeAfter = after?.console ?? null;
      const follower = await followConsole(deps.live, consoleOf, resumeAfter === null ? { last: 1 } : { after: resumeAfter }).catch(() => null);
      if (!follower) {
        const unsubscribeConsole = deps.live.relay.subscribe((event) => {
          if (event.type === 'server.console' && event.data.serverId === consoleOf) writeLive(event);
        }, onlyServer(consoleOf));
        stopConsole = unsubscribeConsole;
        if (ended) unsubscribeConsole();
        return;
      }
      stopConsole = follower.stop;
      if (ended) return follower.stop();
      consoleLast = follower.last();
      const lines = follower.replay;
      // A gap is said even without lines (the history could not be read on a resume).
      if (resumeAfter !== null && (lines.length > 0 || follower.gap)) {
        const replay = { serverId: consoleOf, lines, replay: true, after: resumeAfter, ...(follower.gap && { gap: true }) };
        if (lines.length > 0) consoleLast = lines.at(-1)!.seq;
        const at = lines.at(-1)?.at ?? new Date().toISOString();
        out.write(frame(streamId(), 'server.console', { type: 'server.console', clusterId: filter.clusterId, at, data: replay }));
      }
      follower.live(writeLive);
    }
  }
}
