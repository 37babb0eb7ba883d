/**
 * The agent gateway alone in its process (as in an orchestrator), or — with `bare` — a bare Socket.IO server that
 * answers `auth` with `authenticated` and ignores heartbeats. `GET /stats` answers the process's memory and CPU time.
 */
import { createServer } from 'node:http';
import { Server as SocketIoServer } from 'socket.io';
import { createDatabasePool } from '../../../sql/pool.ts';
import { createLogger } from '../../../schema/logger.ts';
import { createGateway } from '../../../orchestrator/gateway/gateway.ts';
import { VERSION } from '../../../api/service.ts';

const [mode, databaseUrl] = process.argv.slice(2);
const server = createServer((request, response) => {
  if (request.url !== '/stats') return void response.writeHead(404).end();
  global.gc?.();
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ memory: process.memoryUsage(), cpu: process.cpuUsage() }));
});

if (mode === 'bare') {
  const io = new SocketIoServer(server, { path: '/ws', transports: ['websocket'], serveClient: false });
  io.on('connection', (socket) => {
    socket.on('auth', (data: { machineId: string }) =>
      socket.emit('authenticated', { machineId: data.machineId, clusterId: '', heartbeatSeconds: 10, serverTime: new Date().toISOString() }),
    );
    socket.on('heartbeat', () => undefined);
  });
} else {
  const pool = await createDatabasePool(databaseUrl!, { maxPoolSize: 10 });
  await createGateway(server, {
    pool,
    databaseUrl: databaseUrl!,
    logger: createLogger('warn'),
    heartbeatSeconds: 10,
    authTimeoutMs: 60_000,
    minVersion: '0.1.0',
    serviceVersion: VERSION,
  });
}
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.error(`PORT ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
