/**
 * The relay between processes (with REDIS_URL): each live event is published on a Redis channel of its own server,
 * `<prefix>live#<origin>#<serverId>`, and every web and orchestrator process of the installation listens to all of
 * them with one pattern subscription. A process reads (parses) an event only when one of its listeners wants that
 * server (its `/live` viewers, its SSE streams, a console being opened), and never its own, which it dispatched
 * locally when it published: so an orchestrator relaying a busy console, or an API process whose viewers watch other
 * servers, pays for the bytes Redis sends it and nothing more (as Socket.IO's Redis adapter skips the rooms a process
 * does not have).
 *
 * One publishing connection carries a process's events in the order published (and the console history before them:
 * consoleHistory.ts), and Redis delivers a channel's messages in that order.
 *
 * During a rolling upgrade from a release that relayed over Socket.IO's `serverSideEmit` (`gsm:live` on `/live`),
 * its orchestrators still publish that way while the API processes are already new (docs/upgrades.md replaces API
 * processes first): those events are taken too, for as long as such a process runs.
 */
import { randomBytes } from 'node:crypto';
import type { Namespace } from 'socket.io';
import type { RedisClientType } from 'redis';
import { createListeners, type LiveEvent, type LiveRelay } from './relay.ts';

/** The event name the release before this one relayed under (`serverSideEmit` on `/live`, through the Socket.IO adapter). */
const PREVIOUS_CHANNEL = 'gsm:live';

/** The pattern that matches every channel under `prefix` (its glob characters escaped). */
const patternOf = (prefix: string) => `${prefix.replace(/[*?[\]\\]/g, '\\$&')}live#*`;

export function createRedisRelay(options: {
  /** The publishing connection (its failures are the caller's to catch: see live.ts, `guarded`). */
  pub: RedisClientType;
  /** A connection in subscriber mode, which queues its subscription while Redis is away. */
  sub: RedisClientType;
  prefix: string;
  /** The `/live` namespace, on whose adapter the previous release's processes publish (see above). */
  namespace: Namespace;
  onError: (error: unknown) => void;
}): LiveRelay {
  const listeners = createListeners(options.onError);
  /** This process: its own events come back from Redis and are skipped unread. */
  const origin = randomBytes(6).toString('hex');
  const base = `${options.prefix}live#`;
  const receive = (message: Buffer, channel: Buffer) => {
    const name = channel.toString();
    if (!name.startsWith(base)) return;
    const separator = name.indexOf('#', base.length);
    if (separator < 0 || name.slice(base.length, separator) === origin) return;
    if (!listeners.wanted(name.slice(separator + 1))) return;
    let event: LiveEvent;
    try {
      event = JSON.parse(message.toString()) as LiveEvent;
    } catch (error) {
      return options.onError(error);
    }
    listeners.dispatch(event);
  };
  const pattern = patternOf(options.prefix);
  void options.sub.pSubscribe(pattern, receive, true);
  const receivePrevious = (event: LiveEvent) => {
    if (listeners.wanted(event.data.serverId)) listeners.dispatch(event);
  };
  options.namespace.on(PREVIOUS_CHANNEL, receivePrevious);
  return {
    publish(event) {
      listeners.dispatch(event);
      try {
        void options.pub.publish(`${base}${origin}#${event.data.serverId}`, JSON.stringify(event));
      } catch (error) {
        options.onError(error);
      }
    },
    subscribe: (listener, wants) => listeners.add(listener, wants),
    close: async () => {
      listeners.clear();
      options.namespace.off(PREVIOUS_CHANNEL, receivePrevious);
      // Not awaited: while Redis is away the unsubscribe waits for it (the connection is ended next anyway).
      if (options.sub.isReady) void options.sub.pUnsubscribe(pattern, receive, true);
    },
  };
}
