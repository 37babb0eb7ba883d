/**
 * The agent's own query protocols against real sockets (test/fixtures/fakeQuery.ts), and the port check before a
 * start naming the process that holds a port.
 */
import test from 'ava';
import { createSocket } from 'node:dgram';
import { createServer, type AddressInfo } from 'node:net';
import { queryServer } from '../../agent/query/index.ts';
import { checkPortsFree, PortInUseError } from '../../agent/servers/portCheck.ts';
import { serveA2s, serveMinecraftPing, type QueryState } from '../fixtures/fakeQuery.ts';

const state = (players: string[], extra: Partial<QueryState> = {}): QueryState => ({
  name: 'Fake',
  map: 'Procedural Map',
  version: '2.0.0',
  maxPlayers: 50,
  players: () => players,
  muted: false,
  ...extra,
});

/** A port free right now on 127.0.0.1 (TCP and UDP). */
async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
    await new Promise((resolve) => server.close(resolve));
    const udp = createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    udp.close();
    if (free) return port;
  }
}

test('A2S: info and players, each behind a challenge; names, counts, map, version, latency', async (t) => {
  const port = await freePort();
  const socket = await serveA2s(port, state(['Alice', 'Bob', '']));
  t.teardown(() => socket.close());
  const answer = await queryServer('A2S', '127.0.0.1', port, 2_000);
  t.like(answer, { players: 3, maxPlayers: 50, map: 'Procedural Map', version: '2.0.0' });
  t.deepEqual(answer.playerNames, ['Alice', 'Bob'], 'a player still connecting (no name) is counted, not named');
  t.true(answer.latencyMs >= 0 && answer.latencyMs < 2_000);
});

test('A2S: a split (multi-packet) player list is put back together in order', async (t) => {
  const port = await freePort();
  const names = Array.from({ length: 120 }, (_, index) => `player-with-a-long-name-${index}`);
  const socket = await serveA2s(port, state(names, { splitBytes: 700 }));
  t.teardown(() => socket.close());
  const answer = await queryServer('A2S', '127.0.0.1', port, 2_000);
  t.deepEqual(answer.playerNames, names);
});

test('A2S: a server that does not answer fails within the time-out', async (t) => {
  const port = await freePort();
  const socket = await serveA2s(port, state([], { muted: true }));
  t.teardown(() => socket.close());
  const started = Date.now();
  await t.throwsAsync(queryServer('A2S', '127.0.0.1', port, 300), { message: /no answer \(timed out\)/ });
  t.true(Date.now() - started < 1_500);
});

test('Minecraft Server List Ping: version, players online and max, sample names; nothing listening is refused', async (t) => {
  const port = await freePort();
  const server = await serveMinecraftPing(port, state(['Steve', 'Alex'], { version: '1.21.4', maxPlayers: 20 }));
  t.teardown(() => server.close());
  const answer = await queryServer('MINECRAFT', '127.0.0.1', port, 2_000);
  t.like(answer, { players: 2, maxPlayers: 20, version: '1.21.4', map: null });
  t.deepEqual(answer.playerNames, ['Steve', 'Alex']);
  const closed = await freePort();
  await t.throwsAsync(queryServer('MINECRAFT', '127.0.0.1', closed, 1_000), { message: 'connection refused' });
});

test('TCP fallback: a port that accepts a connection answers (with its latency), a closed one does not', async (t) => {
  const server = createServer((socket) => socket.end());
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  t.teardown(() => server.close());
  const answer = await queryServer('TCP', '127.0.0.1', port, 1_000);
  t.is(answer.players, null);
  t.true(answer.latencyMs >= 0);
  await t.throwsAsync(queryServer('TCP', '127.0.0.1', await freePort(), 1_000), { message: 'connection refused' });
});

test('the port check names the process holding a TCP or UDP port (PORT_IN_USE), and passes free ports', async (t) => {
  const free = await freePort();
  await t.notThrowsAsync(checkPortsFree([{ name: 'game', port: free, protocol: 'BOTH' }]));
  const server = createServer();
  const tcpPort = await new Promise<number>((resolve) => server.listen(0, '0.0.0.0', () => resolve((server.address() as AddressInfo).port)));
  t.teardown(() => server.close());
  const tcp = await t.throwsAsync(checkPortsFree([{ name: 'rcon', port: tcpPort, protocol: 'TCP' }]), { instanceOf: PortInUseError });
  t.is(tcp.code, 'PORT_IN_USE');
  t.regex(tcp.message, new RegExp(`^port ${tcpPort}/TCP \\(its rcon port\\) is in use: held by pid ${process.pid} \\(.*node.* of `));
  // UDP only: a TCP check of the same number passes, a UDP one does not.
  const udpPort = await freePort();
  const udp = createSocket('udp4');
  await new Promise<void>((resolve) => udp.bind(udpPort, '127.0.0.1', () => resolve()));
  t.teardown(() => udp.close());
  await t.notThrowsAsync(checkPortsFree([{ name: 'query', port: udpPort, protocol: 'TCP' }]));
  const udpError = await t.throwsAsync(checkPortsFree([{ name: 'query', port: udpPort, protocol: 'UDP' }]), { instanceOf: PortInUseError });
  t.regex(udpError.message, new RegExp(`^port ${udpPort}/UDP \\(its query port\\) is in use: held by pid ${process.pid} \\(.*node.* of `));
});
