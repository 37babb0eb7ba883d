/**
 * Minecraft's Server List Ping (https://minecraft.wiki/w/Java_Edition_protocol/Server_List_Ping) over TCP: a
 * handshake in the status state, a status request, the JSON answer (version, players online and max, a sample of
 * names), then a ping whose pong gives the latency.
 */
import { connect } from 'node:net';
import { cleanText, guard, QueryError, type QueryAnswer } from './types.ts';

const varint = (value: number): Buffer => {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return Buffer.from(bytes);
};

/** A varint at `offset` of `buffer`: its value and length, or null when it is not all there yet. */
function readVarint(buffer: Buffer, offset: number): { value: number; length: number } | null {
  let value = 0;
  for (let index = 0; index < 5; index++) {
    if (offset + index >= buffer.length) return null;
    const byte = buffer[offset + index]!;
    value |= (byte & 0x7f) << (7 * index);
    if ((byte & 0x80) === 0) return { value, length: index + 1 };
  }
  throw new QueryError('malformed varint in the Minecraft answer');
}

const packet = (id: number, body: Buffer) => {
  const payload = Buffer.concat([varint(id), body]);
  return Buffer.concat([varint(payload.length), payload]);
};

/** The largest status answer read (a server's favicon is a few KiB; this bounds a hostile one). */
const MAX_ANSWER_BYTES = 256 * 1024;

type Status = { version?: { name?: unknown }; players?: { online?: unknown; max?: unknown; sample?: unknown } };

export function queryMinecraft(host: string, port: number, timeoutMs: number): Promise<QueryAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let received = Buffer.alloc(0);
    let status: Status | undefined;
    let pingSentAt = 0;
    const started = performance.now();
    const finish = (error: Error | null, answer?: QueryAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const timer = setTimeout(() => finish(new QueryError('no answer (timed out)')), timeoutMs);
    const answer = (latencyMs: number): QueryAnswer => {
      const players = status?.players;
      const sample = Array.isArray(players?.sample) ? (players.sample as { name?: unknown }[]) : null;
      const names = sample
        ?.map((entry) => (typeof entry?.name === 'string' ? cleanText(entry.name, 64) : ''))
        .filter((name) => name !== '' && name !== 'Anonymous Player');
      return {
        players: typeof players?.online === 'number' ? Math.max(0, Math.trunc(players.online)) : null,
        playerNames: names ?? null,
        maxPlayers: typeof players?.max === 'number' ? Math.max(0, Math.trunc(players.max)) : null,
        map: null,
        version: typeof status?.version?.name === 'string' ? cleanText(status.version.name, 128) || null : null,
        latencyMs: Math.round(latencyMs * 10) / 10,
      };
    };
    socket.on(
      'connect',
      guard(finish, () => {
        const address = Buffer.from(host, 'utf8');
        const portBytes = Buffer.alloc(2);
        portBytes.writeUInt16BE(port);
        // Protocol version -1: "whatever you speak", as clients do when they only ask for the status.
        socket.write(packet(0x00, Buffer.concat([varint(-1), varint(address.length), address, portBytes, varint(1)])));
        socket.write(packet(0x00, Buffer.alloc(0)));
      }),
    );
    socket.on(
      'data',
      guard(finish, (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.length > MAX_ANSWER_BYTES) return finish(new QueryError('Minecraft status answer too large'));
        try {
          for (;;) {
            const length = readVarint(received, 0);
            if (!length || received.length < length.length + length.value) return;
            const body = received.subarray(length.length, length.length + length.value);
            received = received.subarray(length.length + length.value);
            const id = readVarint(body, 0);
            if (!id) throw new QueryError('malformed Minecraft packet');
            if (id.value === 0x00 && !status) {
              const size = readVarint(body, id.length);
              if (!size) throw new QueryError('malformed Minecraft status');
              const text = body.toString('utf8', id.length + size.length, id.length + size.length + size.value);
              status = JSON.parse(text) as Status;
              pingSentAt = performance.now();
              const payload = Buffer.alloc(8);
              payload.writeBigInt64BE(BigInt(Date.now()));
              socket.write(packet(0x01, payload));
            } else if (id.value === 0x01 && status) {
              return finish(null, answer(performance.now() - pingSentAt));
            }
          }
        } catch (error) {
          finish(error instanceof QueryError ? error : new QueryError(`unreadable Minecraft status: ${(error as Error).message}`));
        }
      }),
    );
    // A server that answers the status but closes before the pong (older ones do) still answered.
    socket.on(
      'close',
      guard(finish, () => (status ? finish(null, answer(performance.now() - started)) : finish(new QueryError('connection closed without a status')))),
    );
    socket.on('error', (error: NodeJS.ErrnoException) => finish(new QueryError(describe(error))));
  });
}

export function describe(error: NodeJS.ErrnoException): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
    EHOSTUNREACH: 'unreachable',
  };
  return (error.code && known[error.code]) ?? error.message;
}
