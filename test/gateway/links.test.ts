/**
 * The Socket.IO agent link's requests: however many wait for their ack, the connection holds one `disconnect` listener
 * for them (no MaxListenersExceededWarning past 10), and all of them are rejected when it closes.
 */
import test from 'ava';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io } from 'socket.io-client';
import { socketIoLink } from '../../orchestrator/gateway/links.ts';

test('twenty pending requests add one disconnect listener, and are all rejected when the connection closes', async (t) => {
  const http = createServer();
  const server = new Server(http, { transports: ['websocket'] });
  t.teardown(() => void server.close());
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const connected = once(server, 'connection') as Promise<[Socket]>;
  const client = io(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'], reconnection: false, forceNew: true });
  t.teardown(() => void client.close());
  const [socket] = await connected;
  const before = socket.listenerCount('disconnect');
  const link = socketIoLink(socket);
  // The client never answers: every request waits.
  const requests = Array.from({ length: 20 }, (_, index) => link.request('agent:upgrade', { index }, 60_000));
  t.true(socket.listenerCount('disconnect') - before <= 1, `${socket.listenerCount('disconnect') - before} listeners added`);
  client.close();
  const settled = await Promise.allSettled(requests);
  t.true(settled.every((result) => result.status === 'rejected' && /closed before the ack/.test(String(result.reason))));
});
