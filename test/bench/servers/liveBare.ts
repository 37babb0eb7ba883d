/**
 * The baseline of `npm run bench -- live`: bare Socket.IO servers with the Redis adapter carrying the same console
 * messages, with nothing of ours (no authentication, validation, throttling, history or access checks).
 *
 * `node liveBare.ts hub <redisUrl> <key>`: agents connect on path /ws and emit `console { serverId, lines, at }`; each
 * batch is broadcast to the room `console:<serverId>` of namespace /live across every process through the adapter.
 * `node liveBare.ts edge <redisUrl> <key>`: viewers connect to /live and `subscribe { serverId }` (acknowledged).
 * Prints `PORT <n>` on standard error once it listens.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';

const [role, redisUrl, key] = process.argv.slice(2) as ['hub' | 'edge', string, string];
const pub = createClient({ url: redisUrl });
const sub = pub.duplicate();
await Promise.all([pub.connect(), sub.connect()]);
const http = createServer();
const io = new Server(http, { serveClient: false, path: role === 'hub' ? '/ws' : '/socket.io' });
io.adapter(createAdapter(pub, sub, { key }));
const live = io.of('/live');

if (role === 'hub') {
  io.on('connection', (socket) => {
    socket.on('console', (frame: { serverId: string; lines: string[]; at: string }) => {
      live.to(`console:${frame.serverId}`).emit('event', {
        type: 'server.console',
        clusterId: 'bare',
        at: frame.at,
        data: { serverId: frame.serverId, lines: frame.lines.map((line) => ({ at: frame.at, line })) },
      });
    });
  });
} else {
  live.on('connection', (socket) => {
    socket.on('subscribe', (body: { serverId: string }, ack: (answer: unknown) => void) => {
      void socket.join(`console:${body.serverId}`);
      ack({ ok: true });
    });
  });
}

http.listen(0, '127.0.0.1', () => process.stderr.write(`PORT ${(http.address() as { port: number }).port}\n`));
process.on('SIGTERM', () => {
  void io.close();
  void Promise.allSettled([pub.close(), sub.close()]).then(() => process.exit(0));
});
