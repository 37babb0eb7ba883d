/** A UDP "name server" that reads every query and never answers (a resolver must give up within its bound). */
import { createSocket } from 'node:dgram';

export async function silentNameServer() {
  const socket = createSocket('udp4');
  let queries = 0;
  socket.on('message', () => (queries += 1));
  await new Promise<void>((done) => socket.bind(0, '127.0.0.1', done));
  return { address: `127.0.0.1:${socket.address().port}`, queries: () => queries, close: () => new Promise<void>((done) => socket.close(() => done())) };
}
