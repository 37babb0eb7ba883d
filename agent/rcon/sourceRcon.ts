/**
 * Source RCON client (developer.valvesoftware.com/wiki/Source_RCON_Protocol), our own because the npm clients
 * mishandle replies split over several packets and the empty RESPONSE_VALUE that Source servers send before
 * AUTH_RESPONSE.
 *
 * Glossary: a packet is `size` (int32 LE, counting what follows), `id`, `type`, a body and two NUL bytes. A command
 * is one EXECCOMMAND followed by an empty RESPONSE_VALUE, the sentinel: servers answer packets in order and mirror the
 * sentinel, so every body that arrives before the sentinel's reply belongs to the command.
 */
import { once } from 'node:events';
import { connect as tcpConnect, type Socket } from 'node:net';

const SERVERDATA_AUTH = 3;
const SERVERDATA_AUTH_RESPONSE = 2;
const SERVERDATA_EXECCOMMAND = 2;
const SERVERDATA_RESPONSE_VALUE = 0;

/** id + type + two NULs: the size of a packet with an empty body. */
const MIN_PACKET_SIZE = 10;
/** Servers split bodies at 4096 bytes; the 14 spare bytes tolerate servers that count the header differently. */
const MAX_PACKET_SIZE = 4096 + 14;
/** srcds drops incoming packets whose size exceeds 4096. */
const MAX_COMMAND_BYTES = 4096 - MIN_PACKET_SIZE;
const MAX_ID = 0x7fff_ffff;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

export class RconError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
/** The server refused the password. */
export class RconAuthError extends RconError {}
/** Connect, authentication or a command took too long; the connection has been dropped. */
export class RconTimeoutError extends RconError {}
/** The server could not be reached, or the connection broke (or was closed) while waiting for it. */
export class RconConnectionError extends RconError {}

export type SourceRconOptions = {
  host: string;
  port: number;
  password: string;
  /** Bound on the TCP connect, and separately on authentication. Default 5000. */
  connectTimeoutMs?: number;
  /** Bound on one command, from the moment it is sent until its whole reply is in. Default 10000. */
  commandTimeoutMs?: number;
};

type Packet = { id: number; type: number; body: Buffer };
type Waiter = { onPacket: (packet: Packet) => void; fail: (error: Error) => void };

const encode = (id: number, type: number, body: Buffer): Buffer => {
  const packet = Buffer.alloc(4 + MIN_PACKET_SIZE + body.length); // zero-filled: the two NULs are already there
  packet.writeInt32LE(MIN_PACKET_SIZE + body.length, 0);
  packet.writeInt32LE(id, 4);
  packet.writeInt32LE(type, 8);
  body.copy(packet, 12);
  return packet;
};

/** Keeps a long command readable in an error message. */
const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

export class SourceRconClient {
  readonly #options: Required<SourceRconOptions>;
  /** host:port, for messages. */
  readonly #where: string;
  /** The current connection, set from the moment it is opened; `#connecting` is pending until it is authenticated. */
  #socket: Socket | undefined;
  #connecting: Promise<void> | undefined;
  /** What the one exchange in flight (connect, auth or command) is waiting for. */
  #waiter: Waiter | undefined;
  #received: Buffer = Buffer.alloc(0);
  #lastId = 0;
  /** Commands run one at a time: a reply carries no command name, only the order tells them apart. */
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: SourceRconOptions) {
    // Not a spread over the defaults: an explicit `undefined` must still get the default.
    this.#options = {
      ...options,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    };
    this.#where = `${options.host}:${options.port}`;
  }

  /** Opens and authenticates the connection if it is not; `command` calls it, so calling it first is optional. */
  connect(): Promise<void> {
    if (this.#closed) return Promise.reject(new RconConnectionError('RCON client is closed'));
    if (this.#connecting !== undefined) return this.#connecting;
    if (this.#socket) return Promise.resolve();
    this.#connecting = this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  /** Runs a command and answers its whole reply. After a time-out or a broken connection, the next command reconnects. */
  command(text: string): Promise<string> {
    const run = () => this.#run(text);
    const reply = this.#queue.then(run, run);
    this.#queue = reply.catch(() => undefined);
    return reply;
  }

  /** Drops the connection: a command in flight or queued fails with RconConnectionError, and so does any later one. */
  async close(): Promise<void> {
    this.#closed = true;
    const socket = this.#socket;
    if (!socket) return;
    this.#drop(socket, new RconConnectionError('RCON client closed'));
    if (!socket.closed) await once(socket, 'close');
  }

  async #open(): Promise<void> {
    const { host, port, password, connectTimeoutMs } = this.#options;
    const socket = tcpConnect({ host, port });
    this.#socket = socket;
    this.#received = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.#receive(socket, chunk));
    const broken = (reason: string, cause?: unknown) => this.#drop(socket, new RconConnectionError(`RCON connection to ${this.#where} ${reason}`, { cause }));
    socket.on('error', (error) => broken(`failed: ${error.message}`, error));
    socket.on('close', () => broken('closed'));

    await this.#exchange<true>(socket, connectTimeoutMs, `RCON connect to ${this.#where}`, (done) => {
      socket.once('connect', () => done(true));
    });
    const id = this.#nextId();
    await this.#exchange<true>(
      socket,
      connectTimeoutMs,
      `RCON authentication with ${this.#where}`,
      () => socket.write(encode(id, SERVERDATA_AUTH, Buffer.from(password, 'utf8'))),
      (packet) => {
        // Source servers send an empty RESPONSE_VALUE first; only the AUTH_RESPONSE decides.
        if (packet.type !== SERVERDATA_AUTH_RESPONSE) return undefined;
        if (packet.id === -1) throw new RconAuthError('wrong RCON password');
        return packet.id === id ? true : undefined;
      },
    );
  }

  async #run(text: string): Promise<string> {
    const body = Buffer.from(text, 'utf8');
    if (body.length > MAX_COMMAND_BYTES) {
      throw new RconError(`RCON command too long: ${body.length} bytes (at most ${MAX_COMMAND_BYTES})`);
    }
    await this.connect();
    const socket = this.#socket;
    if (!socket) throw new RconConnectionError(`RCON connection to ${this.#where} closed`);
    const id = this.#nextId();
    const sentinel = this.#nextId();
    const parts: Buffer[] = [];
    const request = Buffer.concat([encode(id, SERVERDATA_EXECCOMMAND, body), encode(sentinel, SERVERDATA_RESPONSE_VALUE, Buffer.alloc(0))]);
    const reply = await this.#exchange<Buffer>(
      socket,
      this.#options.commandTimeoutMs,
      `RCON command ${quote(text)}`,
      () => socket.write(request),
      (packet) => {
        if (packet.id === sentinel) return Buffer.concat(parts);
        if (packet.id === id && packet.type === SERVERDATA_RESPONSE_VALUE) parts.push(packet.body);
        return undefined;
      },
    );
    // Decoded once at the end: packets split bodies at byte counts, possibly inside a UTF-8 character.
    return reply.toString('utf8');
  }

  /**
   * One request/answer on `socket`: `start` sends (or calls `done` itself), `handle` sees each packet and returns a
   * value once the answer is complete (or throws to drop the connection). A time-out drops the connection, because
   * the late reply would otherwise be taken for the next command's.
   */
  #exchange<T>(
    socket: Socket,
    timeoutMs: number,
    what: string,
    start: (done: (value: T) => void) => void,
    handle: (packet: Packet) => T | undefined = () => undefined,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => this.#drop(socket, new RconTimeoutError(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        this.#waiter = undefined;
      };
      const done = (value: T) => (settle(), resolve(value));
      this.#waiter = {
        onPacket: (packet) => {
          let value: T | undefined;
          try {
            value = handle(packet);
          } catch (error) {
            this.#drop(socket, error as Error);
            return;
          }
          if (value !== undefined) done(value);
        },
        fail: (error) => (settle(), reject(error)),
      };
      start(done);
    });
  }

  #receive(socket: Socket, chunk: Buffer) {
    if (socket !== this.#socket) return;
    // A chunk can hold part of a packet, or several: keep the rest until the next one.
    this.#received = this.#received.length === 0 ? chunk : Buffer.concat([this.#received, chunk]);
    while (this.#received.length >= 4) {
      const size = this.#received.readInt32LE(0);
      if (size < MIN_PACKET_SIZE || size > MAX_PACKET_SIZE) {
        this.#drop(socket, new RconError(`RCON protocol error from ${this.#where}: packet size ${size}`));
        return;
      }
      if (this.#received.length < 4 + size) return;
      const packet = {
        id: this.#received.readInt32LE(4),
        type: this.#received.readInt32LE(8),
        body: this.#received.subarray(12, 4 + size - 2),
      };
      this.#received = this.#received.subarray(4 + size);
      this.#waiter?.onPacket(packet);
      if (socket !== this.#socket) return; // the packet ended the connection (wrong password)
    }
  }

  /** Ends `socket` if it is still the current connection and fails whatever was waiting on it. */
  #drop(socket: Socket, error: Error) {
    if (socket !== this.#socket) return;
    this.#socket = undefined;
    socket.destroy();
    this.#waiter?.fail(error);
  }

  #nextId(): number {
    // -1 means "wrong password" in AUTH_RESPONSE, so ids stay positive.
    this.#lastId = this.#lastId >= MAX_ID ? 1 : this.#lastId + 1;
    return this.#lastId;
  }
}
