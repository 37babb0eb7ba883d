/**
 * The `/live` Socket.IO namespace of this origin (docs/events.md): one socket per page, authenticated with the
 * session's access token (renewed on the socket with `auth:refresh` when the session refreshes), and subscriptions
 * counted per key, so two parts of a page following the same server share one subscription. After a reconnection every
 * subscription is made again and each handler is told (`RESUMED`), so a page reads again what changed in the gap. When
 * the service ends the socket itself (an expired token, a deploy, a viewer too slow to keep up), it connects again
 * with backoff, refreshing the session first when the token was the reason.
 */
import { useEffect, useRef } from 'preact/hooks';
import { io, type Socket } from 'socket.io-client';
import { refresh, session } from './session.ts';

export type LiveEvent = { id?: string; type: string; clusterId: string; at: string; data: Record<string, unknown> };
export type Subscription = { clusterId: string; types?: string[] } | { serverId: string; console?: boolean; stats?: boolean };
type Ack = { ok: boolean; statusCode?: number; message?: string; jobId?: string };

let socket: Socket | null = null;
const subscriptions = new Map<string, { body: Subscription; count: number }>();
const handlers = new Set<(event: LiveEvent) => void>();

/** Told to every handler when the socket is back after a break: events of the gap were missed, read the page again. */
export const RESUMED = 'live.resumed';

function connect(): Socket {
  if (socket) return socket;
  // The token the socket holds now (the handshake's, then each `auth:refresh`'s).
  let sent = '';
  const live = io('/live', { auth: (callback) => callback({ token: (sent = session.accessToken) }), transports: ['websocket', 'polling'] });
  let connectedBefore = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let backoff = 1_000;
  // The service ended the socket (a token that expired, a deploy, a viewer that fell behind) or refused it: Socket.IO
  // does not reconnect by itself then. Refresh the session when the token was the reason, then connect again.
  const reconnect = (refreshFirst: boolean) => {
    clearTimeout(retry);
    if (!session.signedIn) return;
    retry = setTimeout(() => {
      void (async () => {
        if (!session.signedIn || live.connected || live.active) return;
        if (refreshFirst && sent === session.accessToken && !(await refresh())) return reconnect(refreshFirst);
        live.connect();
      })();
    }, backoff);
    backoff = Math.min(backoff * 2, 30_000);
  };
  live.on('event', (event: LiveEvent) => {
    for (const handler of handlers) handler(event);
  });
  live.on('connect', () => {
    backoff = 1_000;
    for (const { body } of subscriptions.values()) live.emit('subscribe', body);
    if (connectedBefore) for (const handler of handlers) handler({ type: RESUMED, clusterId: '', at: new Date().toISOString(), data: {} });
    connectedBefore = true;
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
  const key = subscription ? JSON.stringify(subscription) : null;
  useEffect(() => {
    if (!subscription || !key) return;
    const live = connect();
    const handler = (event: LiveEvent) => latest.current(event);
    handlers.add(handler);
    const existing = subscriptions.get(key);
    if (existing) existing.count += 1;
    else {
      subscriptions.set(key, { body: subscription, count: 1 });
      if (live.connected) live.emit('subscribe', subscription);
    }
    return () => {
      handlers.delete(handler);
      const entry = subscriptions.get(key);
      if (entry && --entry.count === 0) {
        subscriptions.delete(key);
        if (live.connected) live.emit('unsubscribe', subscription);
      }
    };
  }, [key]);
}

/** Runs a console command on the live socket (a durable RCON job); resolves with the job's id or throws the API's message. */
export async function sendConsoleCommand(serverId: string, command: string): Promise<string> {
  const answer = (await connect().timeout(10_000).emitWithAck('console:command', { serverId, command })) as Ack;
  if (!answer.ok) throw new Error(answer.message ?? 'The command was refused');
  return answer.jobId!;
}
