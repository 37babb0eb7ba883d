/**
 * A `/live` Socket.IO viewer for tests (socket.io-client, a real socket): every `event` kept, acknowledged requests as
 * promises, and waits for an event that matches.
 */
import { io, type Socket } from 'socket.io-client';

export type LiveViewer = {
  socket: Socket;
  events: any[];
  /** Other server events by name (`auth:expiring`, `subscription:ended`, …), in order. */
  notices: { name: string; data: any }[];
  /** Emits `name` with `payload` and resolves with the acknowledgement. */
  request: (name: string, payload: unknown) => Promise<any>;
  /** Resolves with the first kept or coming `event` that satisfies `match`. */
  waitFor: (match: (event: any) => boolean, what: string, timeoutMs?: number) => Promise<any>;
  /** Resolves with the first kept or coming notice named `name`. */
  notice: (name: string, timeoutMs?: number) => Promise<any>;
  disconnected: Promise<string>;
  close: () => void;
};

/** Connects to `/live` at `url` with `token`; rejects with the `connect_error` (its `data` has statusCode and message). */
export async function connectViewer(url: string, token: string | undefined): Promise<LiveViewer> {
  const socket = io(`${url}/live`, { auth: token === undefined ? {} : { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  const events: any[] = [];
  const notices: { name: string; data: any }[] = [];
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const waker of [...wakers]) waker();
  };
  socket.on('event', (event) => {
    events.push(event);
    wake();
  });
  socket.onAny((name: string, data: unknown) => {
    if (name === 'event') return;
    notices.push({ name, data });
    wake();
  });
  const disconnected = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  const waitUntil = <T>(find: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        clearTimeout(timer);
        wakers.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      wakers.add(check);
      check();
    });
  return {
    socket,
    events,
    notices,
    request: (name, payload) => socket.timeout(10_000).emitWithAck(name, payload),
    waitFor: (match, what, timeoutMs = 15_000) => waitUntil(() => events.find(match), what, timeoutMs),
    notice: (name, timeoutMs = 15_000) => waitUntil(() => notices.find((notice) => notice.name === name)?.data, name, timeoutMs),
    disconnected,
    close: () => void socket.close(),
  };
}

/** The console lines of the kept `server.console` events, in order. */
export const consoleLines = (viewer: LiveViewer): string[] =>
  viewer.events.filter((event) => event.type === 'server.console').flatMap((event) => event.data.lines.map((line: { line: string }) => line.line));
