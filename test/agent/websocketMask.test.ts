import test from 'ava';
import { createHash } from 'node:crypto';
import { createServer, type AddressInfo, type Socket as NetSocket } from 'node:net';
import { io } from 'socket.io-client';
import { needsMasking, transportsFor } from '../../agent/connection/websocketTransport.ts';

test('frames are masked with random keys only on plain connections to another machine', (t) => {
  t.false(needsMasking('https://gsm.example.com'));
  t.false(needsMasking('wss://gsm.example.com/agent'));
  t.false(needsMasking('http://127.0.0.1:8080'));
  t.false(needsMasking('http://127.3.2.1:8080'));
  t.false(needsMasking('http://[::1]:8080'));
  t.false(needsMasking('http://localhost:8080'));
  t.true(needsMasking('http://gsm.example.com'));
  t.true(needsMasking('http://10.0.0.5:8080'));
  t.true(needsMasking('http://[fd00::1]:8080'));
  t.true(needsMasking('http://128.0.0.1'));
});

/**
 * A WebSocket server in a few lines that answers the upgrade, sends engine.io's open packet, and answers the masking
 * key of the client's first frame (the socket.io connect packet).
 */
async function firstMask(host: string): Promise<{ masked: boolean; key: Buffer }> {
  let socket: NetSocket | undefined;
  let gotFrame!: (frame: Buffer) => void;
  const firstFrame = new Promise<Buffer>((resolve) => (gotFrame = resolve));
  const server = createServer((connection) => {
    socket = connection;
    connection.once('data', (chunk: Buffer) => {
      connection.once('data', gotFrame);
      const head = chunk.toString('latin1');
      const key = /sec-websocket-key: (.+)\r\n/i.exec(head)![1]!.trim();
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      connection.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      const open = Buffer.from('0{"sid":"test","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}');
      connection.write(Buffer.concat([Buffer.from([0x81, open.length]), open]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  const client = io(url, { transports: transportsFor(url) as never, reconnection: false, forceNew: true });
  try {
    const frame = await firstFrame;
    return { masked: (frame[1]! & 0x80) !== 0, key: frame.subarray(2, 6) };
  } finally {
    client.close();
    socket?.destroy();
    server.close();
  }
}

test('to the loopback the agent sends valid masked frames with the all-zero key; the default transport sends random keys', async (t) => {
  const loopback = await firstMask('127.0.0.1');
  t.true(loopback.masked);
  t.deepEqual([...loopback.key], [0, 0, 0, 0]);
  // The same server reached as a non-loopback name would get random keys: checked through the transport choice,
  // since this machine has no other address to listen on for certain.
  t.deepEqual(transportsFor('http://gsm.example.com'), ['websocket']);
});
