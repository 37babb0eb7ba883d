/**
 * The `/live` Socket.IO namespace of this origin (docs/events.md): one socket per page, authenticated with the
 * session's access token (renewed on the socket with `auth:refresh` when the session refreshes). The service keeps one
 * subscription per cluster and one per server (a second `subscribe` replaces the first, an `unsubscribe` ends it), so
 * the parts of a page that follow the same cluster or server share one: what they ask is merged (every type any of them
 * wants, the console if any wants it), and it ends when the last one goes. After a reconnection every subscription is
 * made again and each handler is told (`RESUMED`), so a page reads again what changed in the gap; a console resumes
 * after the last line the page has (`after`, its sequence), so no line is lost or shown twice. A subscription the
 * service refuses or ends (access lost) is dropped and the handlers are told (`ENDED`): the page reads again and shows
 * the API's answer. When
 * the service ends the socket itself (an expired token, a deploy, a viewer too slow to keep up), it connects again
 * with backoff, refreshing the session first when the token was the reason.
 */
import { useEffect, useRef } from 'preact/hooks';
import { io, type Socket } from 'socket.io-client';
import { refresh, session } from './session.ts';

export type LiveEvent = { id?: string; type: string; clusterId: string; at: string; data: Record<string, unknown> };
export type Subscription = { clusterId: string; types?: string[] } | { serverId: string; console?: boolean; stats?: boolean; after?: number };
type Ack = { ok: boolean; statusCode?: number; message?: string; jobId?: string; retryAfter?: number };

let socket: Socket | null = null;
/** Per the service's key (`cluster:<id>`, `server:<id>`): what each part of the page asked, and what was last sent. */
type Entry = { parts: Map<string, { body: Subscription; count: number }>; sent: string | null };
const subscriptions = new Map<string, Entry>();
const handlers = new Set<(event: LiveEvent) => void>();
/** Per server key: the sequence of the last console line received, where its console resumes after a reconnection. */
const consoleSeen = new Map<string, number>();

/** Notes the last console line of a `server.console` event (a live batch numbers its lines from `seq`). */
function noteConsole(event: LiveEvent) {
  if (event.type !== 'server.console') return;
  const data = event.data as { serverId: string; seq?: number; lines: { seq?: number }[] };
  const last = data.lines.at(-1)?.seq ?? (data.seq === undefined ? undefined : data.seq + data.lines.length - 1);
  if (last !== undefined) consoleSeen.set(`server:${data.serverId.toLowerCase()}`, last);
}

/** Told to every handler when the socket is back after a break: events of the gap were missed, read the page again. */
export const RESUMED = 'live.resumed';
/** Told to every handler when the service refused or ended a subscription (`data`: its key, statusCode, message). */
export const ENDED = 'live.ended';

const serviceKey = (body: Subscription) => ('clusterId' in body ? `cluster:${body.clusterId}` : `server:${body.serverId.toLowerCase()}`);

/** One body for the service that covers every part's. */
function merged(entry: Entry): Subscription {
  const bodies = [...entry.parts.values()].map((part) => part.body);
  const first = bodies[0]!;
  if ('clusterId' in first) {
    const types = bodies.map((body) => ('types' in body ? body.types : undefined));
    if (types.some((list) => !list)) return { clusterId: first.clusterId };
    return { clusterId: first.clusterId, types: [...new Set(types.flatMap((list) => list!))].sort() };
  }
  const wants = (flag: 'console' | 'stats') => bodies.some((body) => 'serverId' in body && body[flag] === true);
  return { serverId: first.serverId, ...(wants('console') && { console: true }), ...(wants('stats') && { stats: true }) };
}

function tell(event: LiveEvent) {
  for (const handler of handlers) handler(event);
}

/** Dropped (refused or ended by the service): not made again after a reconnection. The handlers read again. */
function ended(key: string, answer: { statusCode?: number; message?: string }) {
  subscriptions.delete(key);
  tell({ type: ENDED, clusterId: '', at: new Date().toISOString(), data: { key, statusCode: answer.statusCode, message: answer.message } });
}

/** Sends the service what `key`'s parts now ask (with `force`, even when it was sent before: a new connection). */
function sync(live: Socket, key: string, force = false) {
  const entry = subscriptions.get(key);
  if (!entry) return;
  if (entry.parts.size === 0) {
    subscriptions.delete(key);
    consoleSeen.delete(key);
    if (live.connected && entry.sent !== null) live.emit('unsubscribe', JSON.parse(entry.sent) as Subscription);
    return;
  }
  const body = merged(entry);
  const json = JSON.stringify(body);
  if (!live.connected || (!force && json === entry.sent)) return;
  entry.sent = json;
  // Made again on a new connection: the console goes on after the last line this page has.
  const seen = consoleSeen.get(key);
  const request = force && 'serverId' in body && body.console && seen !== undefined ? { ...body, after: seen } : body;
  if (!('serverId' in body && body.console)) consoleSeen.delete(key);
  live.emit('subscribe', request, (answer: Ack | undefined) => {
    if (!answer || answer.ok || subscriptions.get(key) !== entry || entry.sent !== json) return; // a newer body was sent since
    // The service could not check (a database blip, 5xx), or the session's request budget is spent for now (429, many
    // tabs subscribing at once after a deploy): asked again when it says, still wanted.
    const limited = answer.statusCode === 429;
    if (!answer.statusCode || answer.statusCode >= 500 || limited)
      return void setTimeout(
        () => {
          if (subscriptions.get(key) !== entry || entry.sent !== json) return;
          entry.sent = null;
          sync(live, key);
        },
        limited ? Math.max(1, answer.retryAfter ?? 5) * 1_000 : 5_000,
      );
    ended(key, answer); // refused: no access, no such server, too many
  });
}

function connect(): Socket {
  if (socket) return socket;
  // The token the socket holds now (the handshake's, then each `auth:refresh`'s).
  let sent = '';
  const live = io('/live', { auth: (callback) => callback({ token: (sent = session.accessToken) }), transports: ['websocket', 'polling'] });
  let connectedBefore = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // 1 s doubling to 30 s, ±50 % so that the dashboards a deploy disconnected do not all come back at once; back to 1 s
  // only once a connection has lasted a minute (a socket the service keeps ending, such as a viewer too slow for a busy
  // console, must not reconnect, and reload its page, every second).
  let backoff = 1_000;
  let connectedAt = 0;
  // The service ended the socket (a token that expired, a deploy, a viewer that fell behind) or refused it: Socket.IO
  // does not reconnect by itself then. Refresh the session when the token was the reason, then connect again.
  const reconnect = (refreshFirst: boolean) => {
    clearTimeout(retry);
    if (!session.signedIn) return;
    if (connectedAt && Date.now() - connectedAt > 60_000) backoff = 1_000;
    connectedAt = 0;
    retry = setTimeout(
      () => {
        void (async () => {
          if (!session.signedIn || live.connected || live.active) return;
          if (refreshFirst && sent === session.accessToken && !(await refresh())) return reconnect(refreshFirst);
          live.connect();
        })();
      },
      backoff * (0.5 + Math.random()),
    );
    backoff = Math.min(backoff * 2, 30_000);
  };
  live.on('event', (event: LiveEvent) => {
    noteConsole(event);
    tell(event);
  });
  live.on('connect', () => {
    connectedAt = Date.now();
    for (const key of [...subscriptions.keys()]) sync(live, key, true);
    if (connectedBefore) tell({ type: RESUMED, clusterId: '', at: new Date().toISOString(), data: {} });
    connectedBefore = true;
  });
  live.on('subscription:ended', (answer: { clusterId?: string; serverId?: string; statusCode?: number; message?: string }) => {
    const key = serviceKey(answer.serverId ? { serverId: answer.serverId } : { clusterId: answer.clusterId ?? '' });
    if (subscriptions.has(key)) ended(key, answer);
  });
  let expired = false;
  live.on('auth:expired', () => void (expired = true));
  live.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') reconnect(expired);
    expired = false;
  });
  live.on('connect_error', (error: Error & { data?: { statusCode?: number } }) => {
    // A refused handshake is not retried by Socket.IO; an expired token is refreshed first.
    if (!live.active) reconnect(error.data?.statusCode === 401);
  });
  // A minute before the token expires: hand the socket the session's newer token, or refresh the session.
  live.on('auth:expiring', () => {
    if (sent !== session.accessToken) renew();
    else void refresh();
  });
  const renew = () => {
    sent = session.accessToken;
    live.emit('auth:refresh', { token: sent });
  };
  session.subscribe(() => {
    if (!session.signedIn) {
      clearTimeout(retry);
      return void live.disconnect();
    }
    // Signed in again after signing out (the socket was closed then), or a new token for the open socket.
    if (!live.connected && !live.active) live.connect();
    else if (live.connected && sent !== session.accessToken) renew();
  });
  socket = live;
  return live;
}

/** Subscribes while the calling component is mounted (null: nothing); `onEvent` sees every event of the socket. */
export function useLive(subscription: Subscription | null, onEvent: (event: LiveEvent) => void) {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  const part = subscription ? JSON.stringify(subscription) : null;
  useEffect(() => {
    if (!subscription || !part) return;
    const live = connect();
    const handler = (event: LiveEvent) => latest.current(event);
    handlers.add(handler);
    const key = serviceKey(subscription);
    let entry = subscriptions.get(key);
    if (!entry) subscriptions.set(key, (entry = { parts: new Map(), sent: null }));
    const mine = entry;
    const existing = mine.parts.get(part);
    if (existing) existing.count += 1;
    else mine.parts.set(part, { body: subscription, count: 1 });
    sync(live, key);
    return () => {
      handlers.delete(handler);
      const counted = mine.parts.get(part);
      if (counted && --counted.count === 0) mine.parts.delete(part);
      // The service ended it meanwhile (and a later part may have made a new one): only this entry is ours to change.
      if (subscriptions.get(key) === mine) sync(live, key);
    };
  }, [part]);
}

/** Runs a console command on the live socket (a durable RCON job); resolves with the job's id or throws the API's message. */
export async function sendConsoleCommand(serverId: string, command: string): Promise<string> {
  const answer = (await connect().timeout(10_000).emitWithAck('console:command', { serverId, command })) as Ack;
  if (!answer.ok) throw new Error(answer.message ?? 'The command was refused');
  return answer.jobId!;
}
