/**
 * Valve's Steam server query, A2S (https://developer.valvesoftware.com/wiki/Server_queries): A2S_INFO and
 * A2S_PLAYER over UDP, each answering a challenge (S2C_CHALLENGE) when the server sends one, with split (multi-packet)
 * answers reassembled. Goldsource's and compressed split answers are not read.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { cleanText, guard, QueryError, type QueryAnswer } from './types.ts';

const SINGLE = -1;
const SPLIT = -2;
const A2S_INFO = Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0x54]), Buffer.from('Source Engine Query\0', 'latin1')]);
const A2S_PLAYER = 0x55;
const S2C_CHALLENGE = 0x41;
const INFO_REPLY = 0x49;
const PLAYER_REPLY = 0x44;

/** Reads a Source answer's fields one after the other. */
class Reader {
  offset = 0;
  readonly buffer: Buffer;
  constructor(buffer: Buffer) {
    this.buffer = buffer;
  }
  byte(): number {
    if (this.offset + 1 > this.buffer.length) throw new QueryError('A2S answer cut short');
    return this.buffer.readUInt8(this.offset++);
  }
  int32(): number {
    if (this.offset + 4 > this.buffer.length) throw new QueryError('A2S answer cut short');
    const value = this.buffer.readInt32LE(this.offset);
    this.offset += 4;
    return value;
  }
  float(): number {
    if (this.offset + 4 > this.buffer.length) throw new QueryError('A2S answer cut short');
    const value = this.buffer.readFloatLE(this.offset);
    this.offset += 4;
    return value;
  }
  short(): number {
    if (this.offset + 2 > this.buffer.length) throw new QueryError('A2S answer cut short');
    const value = this.buffer.readUInt16LE(this.offset);
    this.offset += 2;
    return value;
  }
  string(): string {
    const end = this.buffer.indexOf(0, this.offset);
    if (end < 0) throw new QueryError('A2S answer cut short');
    const value = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return value;
  }
}

/**
 * One request/answer exchange on `socket`, reassembling split answers; resolves with the payload after the -1 header.
 * Only datagrams from `host`:`port` are read; a malformed one fails the query (never throws out of the listener).
 */
function exchange(socket: Socket, request: Buffer, host: string, port: number, deadline: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts = new Map<number, Buffer>();
    // The number of parts, fixed by the first part of a split answer; parts that say otherwise are dropped.
    let total = 0;
    const finish = (error: Error | null, payload?: Buffer) => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      socket.off('error', onError);
      if (error) reject(error);
      else resolve(payload!);
    };
    const onMessage = guard(finish, (message: Buffer, from: RemoteInfo) => {
      if (from.port !== port || !sameHost(from.address, host) || message.length < 5) return;
      const header = message.readInt32LE(0);
      if (header === SINGLE) return finish(null, message.subarray(4));
      if (header !== SPLIT || message.length < 12) return;
      const id = message.readInt32LE(4);
      if (id & 0x80000000) return finish(new QueryError('compressed A2S answers are not supported'));
      const partTotal = message.readUInt8(8);
      const number = message.readUInt8(9);
      if (partTotal === 0 || number >= partTotal) return;
      if (total === 0) total = partTotal;
      else if (partTotal !== total) return;
      parts.set(number, message.subarray(12));
      if (parts.size === total) {
        const whole = Buffer.concat([...Array(total).keys()].map((index) => parts.get(index) ?? Buffer.alloc(0)));
        if (whole.length < 5 || whole.readInt32LE(0) !== SINGLE) return finish(new QueryError('malformed split A2S answer'));
        finish(null, whole.subarray(4));
      }
    });
    const onError = (error: Error) => finish(new QueryError(error.message));
    const timer = setTimeout(() => finish(new QueryError('no answer (timed out)')), Math.max(1, deadline - Date.now()));
    socket.on('message', onMessage);
    socket.on('error', onError);
    socket.send(request, port, host, (error) => error && finish(new QueryError(error.message)));
  });
}

/** Whether a datagram's source address is the queried host (an IPv4 host may answer as ::ffff:a.b.c.d). */
function sameHost(address: string, host: string): boolean {
  if (host === 'localhost') return address === '127.0.0.1' || address === '::1';
  return address === host || address === `::ffff:${host}`;
}

/** Sends `request` (+ challenge) until the server answers with `kind` rather than a challenge (at most 3 rounds). */
async function ask(socket: Socket, build: (challenge: Buffer | null) => Buffer, kind: number, host: string, port: number, deadline: number) {
  let challenge: Buffer | null = null;
  for (let round = 0; round < 3; round++) {
    const payload = await exchange(socket, build(challenge), host, port, deadline);
    if (payload[0] === S2C_CHALLENGE && payload.length >= 5) {
      challenge = payload.subarray(1, 5);
      continue;
    }
    if (payload[0] !== kind) throw new QueryError(`unexpected A2S answer 0x${payload[0]!.toString(16)}`);
    return payload.subarray(1);
  }
  throw new QueryError('the server kept asking for a challenge');
}

/** A2S_INFO, then A2S_PLAYER for the names (a server that answers the first but not the second still counts). */
export async function queryA2s(host: string, port: number, timeoutMs: number): Promise<QueryAnswer> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, () => (socket.off('error', reject), resolve()));
    });
    const info = new Reader(await ask(socket, (challenge) => (challenge ? Buffer.concat([A2S_INFO, challenge]) : A2S_INFO), INFO_REPLY, host, port, deadline));
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    info.byte(); // protocol
    info.string(); // name
    const map = info.string();
    info.string(); // folder
    info.string(); // game
    info.short(); // app id
    const players = info.byte();
    const maxPlayers = info.byte();
    const bots = info.byte();
    info.byte(); // server type
    info.byte(); // environment
    info.byte(); // visibility
    info.byte(); // VAC
    const version = info.string();
    let playerNames: string[] | null = null;
    try {
      const list = new Reader(
        await ask(
          socket,
          (challenge) => Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, A2S_PLAYER]), challenge ?? Buffer.from([0xff, 0xff, 0xff, 0xff])]),
          PLAYER_REPLY,
          host,
          port,
          deadline,
        ),
      );
      const count = list.byte();
      playerNames = [];
      for (let index = 0; index < count; index++) {
        list.byte(); // index
        const name = cleanText(list.string(), 64);
        list.int32(); // score
        list.float(); // duration
        // A player still connecting has no name yet.
        if (name) playerNames.push(name);
      }
    } catch {
      playerNames = null;
    }
    return {
      players: Math.max(0, players - bots),
      playerNames,
      maxPlayers,
      map: cleanText(map, 128) || null,
      version: cleanText(version, 128) || null,
      latencyMs,
    };
  } finally {
    socket.close();
  }
}
