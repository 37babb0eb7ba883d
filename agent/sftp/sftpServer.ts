/**
 * The agent's SFTP service (docs/sftp.md), on the `ssh2` package's server (pure JavaScript here: its optional
 * native parts are left out of the agent's bundle).
 *
 * - Sign-in by public key, or by the account's password; the user name is `<handle>.<server short id>`. The service
 *   decides (`authenticate`, over the agent's connection): the agent checks the client's signature itself, the service
 *   whether the key is on the account (or the password is the account's, and password sign-in is on) of a member with
 *   SFTP access to that server, and answers what they may do (read, write). The agent never keeps a password. At most
 *   MAX_AUTH_TRIES refused attempts per connection, as sshd's MaxAuthTries.
 * - Only the `sftp` subsystem: no shell, no commands, no forwarding (ssh2 refuses what nobody listens for).
 * - Every file operation runs through the server's file helper (`files`: a process running as the server's account,
 *   with the path checks and the deny list), so the kernel refuses what the account may not touch.
 * - Open sessions are checked again every `recheckMs` and whenever the service says a user's access changed
 *   (`recheckUser`); a session no longer allowed is closed, one whose permissions changed gets the new ones. A session
 *   that could not be checked for `uncheckedLimitMs` (the service unreachable) is closed too.
 */
import { createSecretKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import ssh2, { type CipherAlgorithm, type Connection, type SFTPWrapper } from 'ssh2';
import type { SftpAuthAnswer, SftpCheckAnswer, SftpPermissions } from '../../schema/agentEvents.ts';
import { checkSshKeyBlob } from '../../schema/sshKeys.ts';
import type { Logger } from '../../schema/logger.ts';
import { SftpFileSystem, type SftpFiles } from './fileSystem.ts';
import { corkForTurn } from '../files/protocol.ts';

const { Server, utils } = ssh2;

/** The sign-in methods offered: keys, and the account's password (the service refuses it when it is off). */
const METHODS: ('publickey' | 'password')[] = ['publickey', 'password'];
/** Refused sign-in attempts one connection may make before it is closed. */
export const MAX_AUTH_TRIES = 6;
/** A connection that has not signed in within this is closed (sshd's LoginGraceTime is 120 s). */
const LOGIN_GRACE_MS = 60_000;

/** What a session signed in with: a key (its id) or the account's password (a stamp of it, for the checks). */
export type SftpCredential = { keyId: string } | { passwordStamp: string };

export type SftpSessionInfo = {
  sessionId: string;
  userId: string;
  serverId: string;
  credential: SftpCredential;
  address: string;
  permissions: SftpPermissions;
};

/** The longest password passed on to the service (longer ones are refused here). */
const MAX_PASSWORD = 1024;

export type SftpServerOptions = {
  port: number;
  host?: string;
  hostKey: Buffer;
  logger: Logger;
  /**
   * Asks the service whether this key may sign in as `username` (`signed`: the client proved it holds the key), or
   * this password.
   */
  authenticate: (
    attempt:
      | { method: 'publickey'; username: string; address: string; algorithm: string; publicKey: string; signed: boolean }
      | { method: 'password'; username: string; address: string; password: string },
  ) => Promise<SftpAuthAnswer>;
  /** Asks the service whether open sessions are still allowed; rejects when it cannot answer. */
  recheck: (sessions: ({ sessionId: string; userId: string; serverId: string } & SftpCredential)[]) => Promise<SftpCheckAnswer>;
  /** The file helper of a server, as its account (started for the session, stopped when it ends). */
  files: (serverId: string) => Promise<SftpFiles & { stop: () => Promise<void> }>;
  /** A file was changed over SFTP (for the audit log and the config history). */
  changed?: (change: SftpChange) => void;
  recheckMs?: number;
  uncheckedLimitMs?: number;
};

export type SftpChange = {
  userId: string;
  serverId: string;
  action: 'write' | 'delete' | 'rename' | 'chmod' | 'mkdir' | 'rmdir';
  path: string;
  toPath?: string;
  size?: number;
  mode?: number;
};

type Session = SftpSessionInfo & { client: Connection; checkedAt: number; systems: Set<SftpFileSystem> };

/** The key type inside a key's wire form (clients name RSA keys by their signature algorithm, rsa-sha2-256…). */
function keyType(blob: Buffer): string {
  if (blob.length < 4) return '';
  const length = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + Math.min(length, 64)).toString('latin1');
}

/** The key fields of ssh2's JavaScript ciphers and deciphers (lib/protocol/crypto.js), each only ever passed to Node's crypto. */
const CIPHER_KEY_FIELDS = ['_encKeyMain', '_encKeyPktLen', '_decKeyMain', '_decKeyPktLen', '_encKey', '_macKey'] as const;

/**
 * Without its optional native addon (the agent ships plain JavaScript), `ssh2` makes new ciphers for every packet
 * (two or three with chacha20-poly1305, one with AES-GCM, an HMAC with the others) from keys held as Buffers. Node.js
 * 24 checks a Buffer key's type by throwing and catching an error inside, about 40 µs a cipher against 6 µs for a
 * prepared key (docs/sftp.md#throughput): the connection's keys are made KeyObjects once, which every one of those
 * calls takes as well. Fields that are not there, or not Buffers (the native addon's classes), are left as they are.
 */
function prepareCipherKeys(client: Connection): void {
  const protocol = (client as unknown as { _protocol?: { _cipher?: Record<string, unknown>; _decipher?: Record<string, unknown> } })._protocol;
  for (const holder of [protocol?._cipher, protocol?._decipher]) {
    if (!holder) continue;
    for (const field of CIPHER_KEY_FIELDS) {
      const key = holder[field];
      if (Buffer.isBuffer(key) && key.length > 0) holder[field] = createSecretKey(key);
    }
  }
}

/**
 * The pieces ssh2 writes in one turn of the event loop (a packet's length, payload and MAC, and the packets of every
 * request answered in that turn) go out in one system call: the socket is corked at the first write of a turn and
 * uncorked once the turn is over, as Node's HTTP server does with a response. Without it each piece is a write of its
 * own.
 */
function coalesceWrites(client: Connection): void {
  const socket = (client as unknown as { _sock?: { write?: unknown; cork?: unknown; uncork?: unknown } })._sock;
  if (!socket || typeof socket.write !== 'function' || typeof socket.cork !== 'function' || typeof socket.uncork !== 'function') return;
  const stream = socket as unknown as Writable & { write: (...args: unknown[]) => boolean };
  const write = stream.write;
  stream.write = function coalescedWrite(this: unknown, ...args: unknown[]): boolean {
    corkForTurn(stream);
    return write.apply(this, args);
  };
}

/** ssh2's own list without chacha20-poly1305 (which OpenSSH's client and most others ask for first). */
const AES_CIPHERS: CipherAlgorithm[] = ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr'];

/**
 * Whether the CPU encrypts AES in hardware, from /proc/cpuinfo (`aes` among x86's flags or ARM's features). Where
 * neither is listed (the file cannot be read, another architecture), only x86-64 and 64-bit ARM are taken to have it
 * (every x86-64 CPU since about 2010 does); RISC-V, POWER and the others keep chacha20-poly1305.
 */
export function hasAesInstructions(cpuinfo?: string, arch: string = process.arch): boolean {
  let text = cpuinfo;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/cpuinfo', 'latin1');
    } catch {
      text = '';
    }
  }
  const lines = text.split('\n').filter((line) => /^(flags|Features)\s*:/.test(line));
  if (lines.length === 0) return arch === 'x64' || arch === 'arm64';
  return lines.some((line) => /\saes(\s|$)/.test(line));
}

/**
 * The ciphers offered: ssh2's own list (AES-GCM, then AES-CTR with an encrypt-then-MAC HMAC-SHA-2), without
 * chacha20-poly1305 on a CPU with AES instructions. The client picks the first of its own list that the server offers,
 * and OpenSSH's client puts chacha20-poly1305 first; without its native addon (the agent ships plain JavaScript)
 * ssh2 computes Poly1305 in WebAssembly and makes two or three ciphers per packet for it, where AES goes to Node's
 * crypto in one call. Measured with OpenSSH's `sftp` against the agent (docs/sftp.md#throughput): `get` 167 MB/s with
 * chacha20-poly1305, 228 with aes128-ctr, 246 with aes128-gcm. Every client that has chacha20-poly1305 has AES-CTR.
 * A CPU without AES instructions keeps chacha20-poly1305, as ssh2 would.
 */
export const sshCiphers = (aes = hasAesInstructions()): CipherAlgorithm[] | undefined => (aes ? AES_CIPHERS : undefined);

export class SftpServer {
  readonly #options: SftpServerOptions;
  readonly #server: InstanceType<typeof Server>;
  readonly #sessions = new Map<string, Session>();
  #timer: NodeJS.Timeout | undefined;
  #checking = false;

  private constructor(options: SftpServerOptions) {
    this.#options = options;
    const cipher = sshCiphers();
    this.#server = new Server({ hostKeys: [options.hostKey], ident: 'gsm-agent', ...(cipher ? { algorithms: { cipher } } : {}) }, (client, info) =>
      this.#accept(client, info.ip),
    );
    this.#server.on('error', (error: Error) => options.logger.warn({ err: error }, 'SFTP server error'));
  }

  static async start(options: SftpServerOptions): Promise<SftpServer> {
    const server = new SftpServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(options.port, options.host ?? '0.0.0.0', () => {
        server.#server.off('error', reject);
        resolve();
      });
    });
    server.#timer = setInterval(() => void server.recheck(), options.recheckMs ?? 15_000);
    server.#timer.unref();
    return server;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The open sessions (one per signed-in connection). */
  sessions(): SftpSessionInfo[] {
    return [...this.#sessions.values()].map(({ sessionId, userId, serverId, credential, address, permissions }) => ({
      sessionId,
      userId,
      serverId,
      credential,
      address,
      permissions,
    }));
  }

  /** Checks the open sessions (of `userId` only, when given) with the service, closing those no longer allowed. */
  async recheck(userId?: string): Promise<void> {
    const sessions = [...this.#sessions.values()].filter((session) => userId === undefined || session.userId === userId);
    if (sessions.length === 0) return;
    // The periodic check skips a turn while one runs; a check for a user whose access changed always goes.
    if (userId === undefined && this.#checking) return;
    if (userId === undefined) this.#checking = true;
    try {
      const answer = await this.#options.recheck(
        sessions.map(({ sessionId, userId: user, serverId, credential }) => ({ sessionId, userId: user, serverId, ...credential })),
      );
      const now = Date.now();
      const verdicts = new Map(answer.sessions.map((verdict) => [verdict.sessionId, verdict]));
      for (const session of sessions) {
        const verdict = verdicts.get(session.sessionId);
        if (!verdict) continue;
        session.checkedAt = now;
        if (!verdict.allowed) this.#close(session, 'access withdrawn');
        else if (verdict.permissions) {
          session.permissions = verdict.permissions;
          for (const system of session.systems) system.permissions = verdict.permissions;
        }
      }
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'could not check the open SFTP sessions with the service');
    } finally {
      if (userId === undefined) this.#checking = false;
    }
    // Sessions nobody could vouch for in a while end: the service may have withdrawn access meanwhile.
    const limit = this.#options.uncheckedLimitMs ?? 120_000;
    for (const session of this.#sessions.values()) if (Date.now() - session.checkedAt > limit) this.#close(session, 'could not be checked with the service');
  }

  /** Closes every session of a server (it was removed from this machine). */
  closeServer(serverId: string, why = 'server removed'): void {
    for (const session of this.#sessions.values()) if (session.serverId === serverId) this.#close(session, why);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    for (const session of this.#sessions.values()) this.#close(session, 'agent stopping');
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #close(session: Session, why: string): void {
    if (!this.#sessions.delete(session.sessionId)) return;
    this.#options.logger.info({ sessionId: session.sessionId, userId: session.userId, serverId: session.serverId, why }, 'SFTP session closed');
    session.client.end();
  }

  #accept(client: Connection, address: string): void {
    const { logger } = this.#options;
    // ssh2 writes each packet in pieces (length, payload, MAC): with Nagle's algorithm the small ones wait for the
    // peer's delayed acknowledgement, tens of milliseconds a round.
    (client as Connection & { setNoDelay: (noDelay: boolean) => void }).setNoDelay(true);
    coalesceWrites(client);
    let refused = 0;
    let session: Session | undefined;
    const grace = setTimeout(() => client.end(), LOGIN_GRACE_MS);
    client.on('error', (error: Error) => logger.debug({ err: error, address }, 'SFTP connection error'));
    client.on('close', () => {
      clearTimeout(grace);
      if (session) {
        this.#sessions.delete(session.sessionId);
        for (const system of session.systems) void system.end();
      }
    });
    client.on('authentication', (context) => {
      const refuse = () => {
        refused++;
        if (refused >= MAX_AUTH_TRIES) {
          context.reject();
          client.end();
        } else context.reject(METHODS);
      };
      /** Asks the service; `final`: the attempt signs in when allowed (not a key's unsigned offer). */
      const decide = (attempt: Parameters<SftpServerOptions['authenticate']>[0], final: boolean) =>
        this.#options
          .authenticate(attempt)
          .then((answer) => {
            if (!answer.allowed) {
              logger.info({ username: context.username, address, method: attempt.method, reason: answer.reason }, 'SFTP sign-in refused');
              return refuse();
            }
            if (!final) return context.accept();
            const credential: SftpCredential | undefined =
              attempt.method === 'password'
                ? answer.passwordStamp
                  ? { passwordStamp: answer.passwordStamp }
                  : undefined
                : answer.keyId
                  ? { keyId: answer.keyId }
                  : undefined;
            if (!credential) return refuse();
            session = {
              sessionId: randomUUID(),
              userId: answer.userId,
              serverId: answer.serverId,
              credential,
              address,
              permissions: answer.permissions,
              client,
              checkedAt: Date.now(),
              systems: new Set(),
            };
            this.#sessions.set(session.sessionId, session);
            logger.info(
              { sessionId: session.sessionId, username: context.username, address, method: attempt.method, permissions: answer.permissions },
              'SFTP session opened',
            );
            context.accept();
          })
          .catch((error: unknown) => {
            logger.warn({ err: error, username: context.username }, 'could not check an SFTP sign-in with the service');
            refuse();
          });
      if (context.method === 'password') {
        const password = context.password;
        if (password.length === 0 || password.length > MAX_PASSWORD) return refuse();
        return void decide({ method: 'password', username: context.username, address, password }, true);
      }
      if (context.method !== 'publickey') return context.reject(METHODS);
      const blob = context.key.data;
      const algorithm = keyType(blob);
      try {
        checkSshKeyBlob(algorithm, blob);
      } catch {
        return refuse();
      }
      const signed = context.signature !== undefined;
      if (signed) {
        const parsed = utils.parseKey(blob);
        const key = parsed instanceof Error ? undefined : Array.isArray(parsed) ? parsed[0] : parsed;
        if (!key || key.verify(context.blob!, context.signature!, context.hashAlgo) !== true) return refuse();
      }
      void decide({ method: 'publickey', username: context.username, address, algorithm, publicKey: blob.toString('base64'), signed }, signed);
    });
    // The keys are set once the key exchange is done (before authentication), and again at every rekeying.
    client.on('rekey', () => prepareCipherKeys(client));
    client.on('ready', () => {
      prepareCipherKeys(client);
      clearTimeout(grace);
      client.on('session', (acceptSession) => {
        const channel = acceptSession();
        channel.on('sftp', (acceptSftp) => {
          if (!session || !this.#sessions.has(session.sessionId)) return client.end();
          const current = session;
          const stream = acceptSftp();
          this.#serve(current, stream);
        });
      });
    });
  }

  #serve(session: Session, stream: SFTPWrapper): void {
    const system = new SftpFileSystem({
      stream,
      permissions: session.permissions,
      files: () => this.#options.files(session.serverId),
      logger: this.#options.logger.child({ sessionId: session.sessionId, serverId: session.serverId }),
      changed: (change) => this.#options.changed?.({ ...change, userId: session.userId, serverId: session.serverId }),
    });
    session.systems.add(system);
    // The client is done (EOF, as `sftp` sends on exit): the channel closes, as sshd's does when sftp-server exits.
    stream.on('end', () => stream.end());
    stream.on('close', () => {
      session.systems.delete(system);
      void system.end();
    });
  }
}
