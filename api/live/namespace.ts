/**
 * The `/live` Socket.IO namespace for browsers and tools (docs/events.md, "Socket.IO"): the handshake's
 * `auth: { token }` carries a session or API token (the same rules as REST); `subscribe`, `unsubscribe` and
 * `console:command` are acknowledged `{ ok: true, … }` or `{ ok: false, statusCode, message }`; events arrive as `event`
 * (the envelope). Durable events come from this process's event feed, live-only ones (console, stats) from the relay,
 * which with REDIS_URL carries them from whichever orchestrator process holds the server's agent.
 *
 * Access is checked per subscription and again every ACCESS_RECHECK_MS: a revoked token or an ended session
 * disconnects the socket, a lost membership ends the subscriptions of that cluster. A session token's socket is told
 * `auth:expiring` a minute before the token expires and is disconnected at expiry unless `auth:refresh` brought a
 * fresh token of the same user. A viewer that does not read is disconnected rather than buffered for.
 *
 * The rate limits apply as in REST (admission.ts), and `subscribe` and `console:command` check the credential again
 * before acting, so a revoked token or an ended session cannot act between two re-checks.
 */
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { AppError, badRequest, notFound } from '../../schema/errors.ts';
import { id } from '../../schema/http.ts';
import { eventTypesFilter, type ClusterEvent } from '../../schema/events.ts';
import { rconBody } from '../../schema/jobs.ts';
import { createAuthenticator, type Principal } from '../identity/principal.ts';
import { actorOf } from '../identity/origin.ts';
import { authorize, authorizeResource } from '../identity/access.ts';
import { acceptServerJob } from '../../orchestrator/jobs/serverJobs.ts';
import { envelopeOf } from '../../orchestrator/events/store.ts';
import { LIVE_NAMESPACE } from '../../orchestrator/live/live.ts';
import { followConsole } from '../../orchestrator/live/consoleFollower.ts';
import { consoleSequence } from '../../schema/console.ts';
import type { LiveEvent } from '../../orchestrator/live/relay.ts';
import { ACCESS_RECHECK_MS, SHUTDOWN_RECONNECT_MS } from '../routes/events.ts';
import { addressOf, connectError, createAdmission, handshakeToken } from './admission.ts';

/** Console lines replayed when a console subscription starts. */
export const CONSOLE_REPLAY_LINES = 100;
/** Warning ahead of a session token's expiry. */
export const EXPIRY_WARNING_MS = 60_000;
/** Bytes waiting to be written to one viewer; past this the viewer is disconnected (it reconnects and resubscribes). */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** Subscriptions one socket may hold at once. */
export const MAX_SUBSCRIPTIONS = 100;

/** `types` as in REST (a comma list) or as an array of type names. */
const typesList = z.preprocess((value) => (Array.isArray(value) ? value.join(',') : value), eventTypesFilter);
const clusterSubscription = z.object({ clusterId: id, types: typesList.optional() }).strict();
const serverSubscription = z
  .object({ serverId: id, console: z.boolean().optional(), stats: z.boolean().optional(), after: consoleSequence.optional() })
  .strict()
  .refine((body) => body.after === undefined || body.console === true, { message: '`after` resumes the console: it needs `console: true`', path: ['after'] });
const subscription = z.union([clusterSubscription, serverSubscription]);
const consoleCommand = rconBody.extend({ serverId: id }).strict();
const refreshBody = z.object({ token: z.string().min(1).max(1024) }).strict();

type Ack = (answer: Record<string, unknown>) => void;
type Subscription = { key: string; clusterId: string; serverId: string | null; types: readonly string[] | null; stop: () => void };

const failure = (error: unknown) => {
  // `retryAfter` (seconds) comes with a 429 of the rate limits.
  if (error instanceof AppError && error.status < 500) return { ok: false, statusCode: error.status, message: error.message, ...error.extra };
  if (error instanceof z.ZodError)
    return {
      ok: false,
      statusCode: 400,
      message: `Validation failed: ${error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')}`,
    };
  return { ok: false, statusCode: 503, message: 'The service could not do this now; try again' };
};

/**
 * A socket's handlers: each body validated, the answer or the failure acknowledged, never an exception out of one;
 * and run one at a time in the order they arrived, so an `unsubscribe` sent after a `subscribe` always ends it (it is
 * not overtaken by the subscribe's access check).
 */
function handlers() {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(schema: z.ZodType<T>, work: (body: T) => Promise<Record<string, unknown>>) =>
    (body: unknown, ack?: unknown) => {
      const reply: Ack = typeof ack === 'function' ? (ack as Ack) : () => undefined;
      let parsed: T;
      try {
        parsed = schema.parse(body);
      } catch (error) {
        return reply(failure(error));
      }
      chain = chain.then(() =>
        work(parsed).then(
          (answer) => reply({ ok: true, ...answer }),
          (error: unknown) => reply(failure(error)),
        ),
      );
    };
}

export type LiveNamespace = { close: () => void };

export function attachLiveNamespace(httpServer: HttpServer, deps: AppDeps): LiveNamespace {
  const { pool, eventFeed, logger, accessTokens } = deps;
  const { io, relay, history } = deps.live;
  io.attach(httpServer, { serveClient: false, maxHttpBufferSize: 64 * 1024, pingInterval: 10_000, pingTimeout: 20_000 });
  const namespace = io.of(LIVE_NAMESPACE);
  const authenticator = createAuthenticator(deps);
  const admission = createAdmission(deps);

  /** The principal of a token, and when the token expires (null for API tokens, whose end is a revocation). */
  async function authenticate(token: string): Promise<{ principal: Principal; expiresAt: number | null }> {
    const { principal } = await authenticator.resolve(`Bearer ${token}`);
    const expiresAt = principal.kind === 'USER' ? ((await accessTokens.verify(token))?.expiresAt ?? null) : null;
    return { principal, expiresAt };
  }

  namespace.use((socket, next) => {
    void (async () => {
      const address = addressOf(socket, deps.config.TRUST_PROXY);
      const { token, principal, expiresAt } = await admission.guard(address, async () => {
        const token = handshakeToken(socket);
        return { token, ...(await authenticate(token)) };
      });
      await admission.spend(principal);
      const release = await admission.hold(socket.id, principal);
      // A client gone during these awaits never becomes a connection, so no 'disconnect' would release its place.
      if (socket.conn.readyState === 'open') socket.conn.once('close', release);
      else release();
      socket.data = { principal, token, expiresAt, address, release };
      next();
    })().catch((cause: unknown) => next(connectError(cause)));
  });

  /** Whether a viewer has stopped reading (unsent bytes past MAX_PENDING_BYTES): it is let go. */
  const stalled = (socket: Socket) => {
    const conn = socket.conn as unknown as { writeBuffer: { data?: unknown }[]; transport?: { socket?: { bufferedAmount?: number } } };
    let pending = conn.transport?.socket?.bufferedAmount ?? 0;
    for (const packet of conn.writeBuffer) pending += typeof packet.data === 'string' ? packet.data.length : 64;
    if (pending <= MAX_PENDING_BYTES) return false;
    logger.info({ socketId: socket.id }, 'a /live viewer is not reading; disconnecting it');
    socket.disconnect(true);
    return true;
  };
  const deliver = (socket: Socket, payload: unknown) => {
    if (!stalled(socket)) socket.emit('event', payload);
  };
  // Console and stats viewers get live events as a room broadcast (encoded once for all of them); the ones that stopped
  // reading are found by this sweep instead of a check per packet.
  const sweep = setInterval(() => {
    for (const socket of namespace.sockets.values()) stalled(socket);
  }, 1_000);
  sweep.unref();

  // Access is checked again for every viewer in one sweep every ACCESS_RECHECK_MS, not on a timer per socket: within a
  // sweep a token is resolved once and a membership read once per token and cluster, however many sockets share them
  // (a timer per socket cost a resolve and a database read per viewer every few seconds, most of an idle process's CPU).
  const rechecks = new Set<(round: RecheckRound) => Promise<void>>();
  const recheckSweep = setInterval(() => {
    const principals = new Map<string, Promise<Principal>>();
    const allowed = new Map<string, Promise<unknown>>();
    const round: RecheckRound = {
      principal: (token) => once(principals, token, async () => (await authenticator.resolve(`Bearer ${token}`)).principal),
      readable: (token, principal, clusterId) => once(allowed, `${token}\u0000${clusterId}`, () => authorize(pool, principal, clusterId, 'cluster.read')),
    };
    for (const recheck of rechecks) void recheck(round);
  }, ACCESS_RECHECK_MS);
  recheckSweep.unref();

  // Live-only events reach the rooms of this process's viewers: the relay hands this process the events of the servers
  // it has viewers of, and an event goes out (encoded once for its room) only when its room has viewers here.
  const rooms = namespace.adapter.rooms;
  const stopRelay = relay.subscribe(
    (event: LiveEvent) => {
      const room = `${event.type === 'server.console' ? 'console' : 'stats'}:${event.data.serverId}`;
      if (rooms.has(room)) namespace.local.to(room).emit('event', event);
    },
    (serverId) => rooms.has(`console:${serverId}`) || rooms.has(`stats:${serverId}`),
  );

  namespace.on('connection', (socket) => {
    const subscriptions = new Map<string, Subscription>();
    const handle = handlers();
    const state = socket.data as { principal: Principal; token: string; expiresAt: number | null; address: string; release: () => void };
    const timers = new Set<NodeJS.Timeout>();

    const later = (ms: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    };
    /** Warns a minute ahead, disconnects at expiry; a refresh in between moves both. */
    const watchExpiry = () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (state.expiresAt === null) return;
      const expiresAt = state.expiresAt;
      later(Math.max(0, expiresAt - EXPIRY_WARNING_MS - Date.now()), () => socket.emit('auth:expiring', { expiresAt: new Date(expiresAt).toISOString() }));
      later(Math.max(0, expiresAt - Date.now()), () => {
        if (state.expiresAt === expiresAt) {
          socket.emit('auth:expired', { message: 'The access token expired; connect again with a fresh one' });
          socket.disconnect(true);
        }
      });
    };
    watchExpiry();

    const end = (sub: Subscription) => {
      sub.stop();
      subscriptions.delete(sub.key);
      if (sub.serverId) {
        void socket.leave(`console:${sub.serverId}`);
        void socket.leave(`stats:${sub.serverId}`);
      }
    };

    const durable = (clusterId: string, serverId: string | null, types: readonly string[] | null) =>
      eventFeed.subscribe(clusterId, (event) => {
        if (serverId && event.serverId !== serverId) return;
        if (types && !types.includes(event.type)) return;
        deliver(socket, envelopeOf(event) satisfies ClusterEvent);
      });

    // A handler that awaited must not act for a socket that went away meanwhile, nor for a subscription that was
    // replaced or ended meanwhile (an unsubscribe, a lost membership): it would leave a listener or a room behind.
    let closed = false;
    const current = (sub: Subscription) => !closed && subscriptions.get(sub.key) === sub;

    /** Tells the socket its credential is gone and lets it go (after the acknowledgement under way, if any). */
    const expire = (message: string) => {
      setImmediate(() => {
        socket.emit('auth:expired', { message });
        socket.disconnect(true);
      });
    };
    /**
     * Before acting: one request of the principal's budget (spent first, so a flood past it costs no query), then the
     * credential again (the query REST runs for every request): a revoked token or an ended session acts no more.
     */
    const recheckBeforeActing = async () => {
      await admission.spend(state.principal);
      try {
        state.principal = (await authenticator.resolve(`Bearer ${state.token}`)).principal;
      } catch (error) {
        if (error instanceof AppError && error.status === 401) expire(error.message);
        throw error;
      }
    };

    socket.on(
      'subscribe',
      handle(subscription, async (body) => {
        const key = 'clusterId' in body ? `cluster:${body.clusterId}` : `server:${body.serverId.toLowerCase()}`;
        if (!subscriptions.has(key) && subscriptions.size >= MAX_SUBSCRIPTIONS)
          throw new AppError(429, `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`);
        await recheckBeforeActing();
        if (closed) return {};
        if ('clusterId' in body) {
          await authorize(pool, state.principal, body.clusterId, 'cluster.read');
          if (closed) return {};
          const existing = subscriptions.get(key);
          if (existing) end(existing);
          const types = body.types ?? null;
          subscriptions.set(key, { key, clusterId: body.clusterId, serverId: null, types, stop: durable(body.clusterId, null, types) });
          return {};
        }
        const serverId = body.serverId.toLowerCase();
        const access = await authorizeResource(pool, state.principal, { kind: 'server', id: serverId }, 'cluster.read');
        if (closed) return {};
        const existing = subscriptions.get(key);
        if (existing) end(existing);
        const sub: Subscription = { key, clusterId: access.clusterId, serverId, types: null, stop: durable(access.clusterId, serverId, null) };
        subscriptions.set(key, sub);
        if (body.console) {
          // The kept lines first (the last ones, or those after `after`), then the batches that came meanwhile, then
          // the room: all in one turn of the event loop, so no line falls between or comes twice. Without the history
          // (Redis away) the live lines still come.
          const start = body.after === undefined ? { last: CONSOLE_REPLAY_LINES } : { after: body.after };
          const follower = await followConsole({ relay, history }, serverId, start).catch(() => null);
          if (!current(sub)) {
            follower?.stop();
            return {};
          }
          if (follower) {
            const lines = follower.replay;
            // A gap is said even without lines (the history could not be read on a resume).
            if (lines.length > 0 || follower.gap)
              socket.emit('event', {
                type: 'server.console',
                clusterId: access.clusterId,
                at: lines.at(-1)?.at ?? new Date().toISOString(),
                data: { serverId, lines, replay: true, ...('after' in start && { after: start.after }), ...(follower.gap && { gap: true }) },
              });
            follower.live((event) => socket.emit('event', event));
            follower.stop();
          }
          void socket.join(`console:${serverId}`);
        }
        if (body.stats && current(sub)) await socket.join(`stats:${serverId}`);
        return {};
      }),
    );

    socket.on(
      'unsubscribe',
      handle(subscription, async (body) => {
        const key = 'clusterId' in body ? `cluster:${body.clusterId}` : `server:${body.serverId.toLowerCase()}`;
        const existing = subscriptions.get(key);
        if (!existing) throw notFound('No such subscription');
        end(existing);
        return {};
      }),
    );

    socket.on(
      'console:command',
      handle(consoleCommand, async (body) => {
        // A console command is a request like POST /servers/<id>/rcon.
        await recheckBeforeActing();
        const access = await authorizeResource(pool, state.principal, { kind: 'server', id: body.serverId }, 'servers.manage');
        const job = await acceptServerJob(
          pool,
          { actor: actorOf(state.principal), userId: state.principal.user.id, ip: state.address || null, requestId: null },
          {
            serverId: body.serverId,
            type: 'RCON',
            params: { command: body.command },
            desired: null,
            requireRunning: true,
            clusterId: access.clusterId,
            audit: { action: 'server.rcon' },
          },
        );
        return { jobId: job.id };
      }),
    );

    socket.on(
      'auth:refresh',
      handle(refreshBody, async (body) => {
        const fresh = await admission.guard(state.address, () => authenticate(body.token));
        if (fresh.principal.user.id !== state.principal.user.id) throw badRequest('The new token belongs to another user');
        Object.assign(state, { principal: fresh.principal, token: body.token, expiresAt: fresh.expiresAt });
        watchExpiry();
        return { expiresAt: fresh.expiresAt === null ? null : new Date(fresh.expiresAt).toISOString() };
      }),
    );

    // Access again at every round of the sweep (above): the token (revoked, session ended) and each subscription's membership.
    const recheck = async (round: RecheckRound) => {
      try {
        const token = state.token;
        const principal = await round.principal(token);
        if (state.token === token) state.principal = principal;
      } catch (error) {
        if (error instanceof AppError && error.status < 500) expire(error.message);
        return;
      }
      // A room without its subscription (it cannot happen; if it ever did, nothing else would take the socket out).
      for (const room of socket.rooms) {
        const serverId = /^(?:console|stats):(.+)$/.exec(room)?.[1];
        if (serverId && !subscriptions.has(`server:${serverId}`)) void socket.leave(room);
      }
      // A cluster refused once in a round is refused for every subscription of it (the round answers it once).
      for (const sub of [...subscriptions.values()]) {
        try {
          await round.readable(state.token, state.principal, sub.clusterId);
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) continue;
          if (!current(sub)) continue; // replaced or ended while this check awaited: the newer one is checked next time
          end(sub);
          socket.emit('subscription:ended', {
            ...(sub.serverId ? { serverId: sub.serverId } : { clusterId: sub.clusterId }),
            statusCode: error.status,
            message: error.message,
          });
        }
      }
    };
    rechecks.add(recheck);

    socket.on('disconnect', () => {
      closed = true;
      state.release();
      rechecks.delete(recheck);
      for (const timer of timers) clearTimeout(timer);
      for (const sub of [...subscriptions.values()]) end(sub);
    });
  });

  return {
    close() {
      clearInterval(sweep);
      clearInterval(recheckSweep);
      stopRelay();
      // This process's viewers only (through the Redis adapter, a plain disconnectSockets reaches every node's): each is
      // told first that the process is going away, so it connects again (to another process behind the balancer).
      namespace.local.emit('service:reconnect', { reason: 'shutting down', retryMs: SHUTDOWN_RECONNECT_MS });
      namespace.local.disconnectSockets(true);
    },
  };
}

/** What one round of the access sweep shares between the sockets it checks. */
type RecheckRound = {
  principal: (token: string) => Promise<Principal>;
  /** Whether the token's principal may read the cluster (rejects with the 403/404 otherwise). */
  readable: (token: string, principal: Principal, clusterId: string) => Promise<unknown>;
};

/** The promise of `key` in `memo`, made by `make` the first time. */
function once<T>(memo: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let promise = memo.get(key);
  if (!promise) memo.set(key, (promise = make()));
  return promise;
}

/** How many `/live` viewers this process has (for /metrics and tests). */
export const countViewers = (deps: AppDeps) => deps.live.io.of(LIVE_NAMESPACE).sockets.size;
