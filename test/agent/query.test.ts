/**
 * The agent's own query protocols against real sockets (test/fixtures/fakeQuery.ts), and the port check before a
 * start naming the process that holds a port.
 */
import test, { type ExecutionContext } from 'ava';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { createServer, type AddressInfo } from 'node:net';
import { clip, queryServer } from '../../agent/query/index.ts';
import { checkPortsFree, PortInUseError } from '../../agent/servers/portCheck.ts';
import { serveA2s, serveMinecraftPing, type QueryState } from '../fixtures/fakeQuery.ts';
import { freePort } from '../support/ports.ts';

const state = (players: string[], extra: Partial<QueryState> = {}): QueryState => ({
  name: 'Fake',
  map: 'Procedural Map',
  version: '2.0.0',
  maxPlayers: 50,
  players: () => players,
  muted: false,
  ...extra,
});

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

/** A hostile A2S server on 127.0.0.1:`port`: every request is answered with `reply(send)`'s datagrams. */
async function hostileA2s(t: ExecutionContext, port: number, answer: (send: (datagram: Buffer) => void, from: RemoteInfo) => void) {
  const socket = createSocket('udp4');
  socket.on('message', (_message, from) => answer((datagram) => socket.send(datagram, from.port, from.address), from));
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', () => resolve()));
  t.teardown(() => socket.close());
}

const splitPart = (total: number, number: number, payload: Buffer = Buffer.alloc(0)) => {
  const header = Buffer.alloc(12);
  header.writeInt32LE(-2, 0);
  header.writeInt32LE(0, 4);
  header.writeUInt8(total, 8);
  header.writeUInt8(number, 9);
  header.writeUInt16LE(1248, 10);
  return Buffer.concat([header, payload]);
};

test('A2S: malformed split answers fail the query (the agent survives): an empty whole, totals that change', async (t) => {
  const empty = await freePort();
  await hostileA2s(t, empty, (send) => send(splitPart(1, 0)));
  await t.throwsAsync(queryServer('A2S', '127.0.0.1', empty, 2_000), { message: 'malformed split A2S answer' });

  // Parts 5-8 of 10, then part 0 of 5: the total is the first part's, the other part is dropped (no answer).
  const changing = await freePort();
  await hostileA2s(t, changing, (send) => {
    for (const number of [5, 6, 7, 8]) send(splitPart(10, number, Buffer.from('xx')));
    for (const number of [0, 1, 2, 3, 4]) send(splitPart(5, number, Buffer.from('yy')));
  });
  await t.throwsAsync(queryServer('A2S', '127.0.0.1', changing, 500), { message: /no answer \(timed out\)/ });

  // A whole that is not an answer (no -1 header) and a single packet with nothing after the kind.
  const garbage = await freePort();
  await hostileA2s(t, garbage, (send) => {
    send(splitPart(2, 1, Buffer.from([0x49])));
    send(splitPart(2, 0, Buffer.from([0x01, 0x02, 0x03])));
  });
  await t.throwsAsync(queryServer('A2S', '127.0.0.1', garbage, 2_000), { message: 'malformed split A2S answer' });
  const short = await freePort();
  await hostileA2s(t, short, (send) => send(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x49, 0x11])));
  await t.throwsAsync(queryServer('A2S', '127.0.0.1', short, 2_000), { message: 'A2S answer cut short' });
});

test('A2S: an answer from another address with the right port is ignored', async (t) => {
  const port = await freePort();
  const other = createSocket('udp4');
  const bound = await new Promise<boolean>((resolve) => {
    other.once('error', () => resolve(false));
    other.bind(port, '127.0.0.2', () => resolve(true));
  });
  t.teardown(() => other.close());
  if (!bound) return t.pass('127.0.0.2 is not usable here');
  await hostileA2s(t, port, (_send, from) => other.send(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x49, 0x11]), from.port, from.address));
  await t.throwsAsync(queryServer('A2S', '127.0.0.1', port, 500), { message: /no answer \(timed out\)/ });
});

test('a query answer is clipped to what the service takes (1,000 names, counts up to 1,000,000)', async (t) => {
  const port = await freePort();
  const names = Array.from({ length: 1_500 }, (_, index) => `p${index}`);
  const server = await serveMinecraftPing(port, state(names, { maxPlayers: 5_000_000 }));
  t.teardown(() => server.close());
  const answer = await queryServer('MINECRAFT', '127.0.0.1', port, 2_000);
  t.is(answer.playerNames!.length, 1_000);
  t.is(answer.players, 1_500);
  t.is(answer.maxPlayers, 1_000_000);
  t.deepEqual(clip({ ...answer, players: 2_000_000, playerNames: null }).players, 1_000_000);
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
  t.regex(tcp.message, new RegExp(`^port ${tcpPort}/TCP \\(its rcon port\\) is in use: held by pid ${process.pid} \\([^ ()]+\\) of `));
  // Never the holder's command line (it can carry another server's RCON password), only pid, process name, account.
  t.false(tcp.message.includes(process.argv.slice(1).join(' ')), tcp.message);
  // An account this agent made for a server is named as that server's.
  const me = (await import('node:os')).userInfo().username;
  const owned = await t.throwsAsync(checkPortsFree([{ name: 'rcon', port: tcpPort, protocol: 'TCP' }], { [me]: 'a-server-id' }), {
    instanceOf: PortInUseError,
  });
  t.regex(owned.message, /\) of the account of server a-server-id$/);
  // UDP only: a TCP check of the same number passes, a UDP one does not.
  const udpPort = await freePort();
  const udp = createSocket('udp4');
  await new Promise<void>((resolve) => udp.bind(udpPort, '127.0.0.1', () => resolve()));
  t.teardown(() => udp.close());
  await t.notThrowsAsync(checkPortsFree([{ name: 'query', port: udpPort, protocol: 'TCP' }]));
  const udpError = await t.throwsAsync(checkPortsFree([{ name: 'query', port: udpPort, protocol: 'UDP' }]), { instanceOf: PortInUseError });
  t.regex(udpError.message, new RegExp(`^port ${udpPort}/UDP \\(its query port\\) is in use: held by pid ${process.pid} \\([^ ()]+\\) of `));
});
