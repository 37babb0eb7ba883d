/**
 * The `/live` Socket.IO namespace of this origin (docs/events.md): one socket per page, authenticated with the
 * session's access token (renewed on the socket with `auth:refresh` when the session refreshes), and subscriptions
 * counted per key, so two parts of a page following the same server share one subscription. After a reconnection every
 * subscription is made again.
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

function connect(): Socket {
  if (socket) return socket;
  const live = io('/live', { auth: (callback) => callback({ token: session.accessToken }), transports: ['websocket', 'polling'] });
  live.on('event', (event: LiveEvent) => {
    for (const handler of handlers) handler(event);
  });
  live.on('connect', () => {
    for (const { body } of subscriptions.values()) live.emit('subscribe', body);
  });
  live.on('connect_error', (error: Error & { data?: { statusCode?: number } }) => {
    // An expired token: refresh the session, then Socket.IO's own reconnection uses the new one.
    if (error.data?.statusCode === 401) void refresh().then((ok) => ok && live.connect());
  });
  session.subscribe(() => {
    if (!session.signedIn) return void live.disconnect();
    // Signed in again after signing out (the socket was closed then), or a new token for the open socket.
    if (!live.connected && !live.active) live.connect();
    else if (live.connected) live.emit('auth:refresh', { token: session.accessToken });
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
