/**
 * File requests across processes (docs/files.md#limits): a web process holds no agent connection, so it publishes each
 * file request of the API on Redis, and the process holding the machine's agent takes it (saying so at once), asks the
 * agent and publishes the agent's answer to the asking process's own channel; the other processes stay silent. A
 * request nobody takes within TAKE_MS is for an agent no process holds (503). Messages are binary (a JSON head and
 * the bytes of a read or a write), and a request carries at most one chunk (TRANSFER_CHUNK) while a transfer keeps at
 * most TRANSFER_WINDOW of them in flight, so downloads and uploads keep their back pressure and bounded memory across
 * processes too. Every message is signed (acrossCodec): a process acts only on its installation's own, fresh ones.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { Logger } from '../../schema/logger.ts';
import { connectRedis, endRedis } from '../live/redisClient.ts';
import { agentChannelOf, AgentUnreachableError, setForwardedFileChannels, type ChannelEvent, type FileChannel } from './agentChannels.ts';

/** How long a request waits for a process to take it (the one holding the agent answers at once). */
const TAKE_MS = 3_000;
/** The longest wait for the agent's answer that a request may ask for. */
const MAX_TIMEOUT_MS = 600_000;
/** A message older than this (or this far in the future: clocks apart) is refused, as is one whose id was seen. */
export const FRESH_MS = 30_000;
const MAC_BYTES = 32;
/** The label of the messages' key, derived from PASETO_KEY (AccessTokens.deriveSubkey). */
export const AGENT_FILES_ACROSS_LABEL = 'gsm agent file requests across processes';

/** Why a request failed on the process holding the agent: `unavailable` is a 503, anything else a time-out (504). */
export type FailureCode = 'unavailable' | 'timeout';

export type Head = { at: number } & (
  | { kind: 'request'; id: string; replyTo: string; machineId: string; timeoutMs: number; payload: Record<string, unknown> }
  | { kind: 'taken'; id: string }
  | { kind: 'answer'; id: string; answer: Record<string, unknown> }
  | { kind: 'failed'; id: string; code: FailureCode; message: string }
);
type HeadOf<K extends Head['kind']> = Omit<Extract<Head, { kind: K }>, 'at'>;
type Unsigned = HeadOf<'request'> | HeadOf<'taken'> | HeadOf<'answer'> | HeadOf<'failed'>;

/**
 * The messages' format: `u32 JSON length | JSON head | bytes | HMAC-SHA256`, the MAC over the channel's name and
 * everything before it, keyed from the installation's PASETO_KEY (every process holds it). A message with a wrong MAC
 * (anyone else who can publish on the Redis) is dropped, as is one older than FRESH_MS; the process also drops a
 * request whose id it has seen (a replay). The bytes are a request's or an answer's `data`.
 */
export function acrossCodec(key: Uint8Array) {
  const mac = (channel: string, parts: Buffer[]) => {
    const hmac = createHmac('sha256', key).update(channel, 'utf8').update('\0');
    for (const part of parts) hmac.update(part);
    return hmac.digest();
  };
  return {
    encode(channel: string, head: Unsigned, data?: Buffer, at = Date.now()): Buffer {
      const json = Buffer.from(JSON.stringify({ ...head, at }), 'utf8');
      const length = Buffer.allocUnsafe(4);
      length.writeUInt32BE(json.length);
      const parts = data ? [length, json, data] : [length, json];
      return Buffer.concat([...parts, mac(channel, parts)]);
    },
    decode(channel: string, message: Buffer, now = Date.now()): { head: Head; data?: Buffer } | undefined {
      try {
        if (message.length < 4 + MAC_BYTES) return undefined;
        const body = message.subarray(0, message.length - MAC_BYTES);
        if (!timingSafeEqual(message.subarray(body.length), mac(channel, [body]))) return undefined;
        const length = body.readUInt32BE(0);
        const head = JSON.parse(body.subarray(4, 4 + length).toString('utf8')) as Head;
        if (typeof head.at !== 'number' || Math.abs(now - head.at) > FRESH_MS || typeof head.id !== 'string') return undefined;
        const data = body.length > 4 + length ? body.subarray(4 + length) : undefined;
        return { head, ...(data ? { data } : {}) };
      } catch {
        return undefined;
      }
    },
  };
}

/** Splits `data` (a Buffer) off a payload or an answer, to travel as raw bytes. */
function splitData(value: Record<string, unknown>): { rest: Record<string, unknown>; data?: Buffer } {
  const { data, ...rest } = value;
  if (Buffer.isBuffer(data)) return { rest, data };
  if (data instanceof Uint8Array) return { rest, data: Buffer.from(data) };
  return { rest: value };
}

type Waiting = {
  taken: boolean;
  resolve: (answer: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  /** Until a process takes the request. */
  take: NodeJS.Timeout;
  /** The last resort once taken: the agent's own time-out and then some (the holder may have gone away). */
  last: NodeJS.Timeout;
};

export type AgentFileForwarding = {
  /** Stops serving and forwarding (pending requests fail). */
  stop: () => Promise<void>;
  /** Requests of this process waiting for an answer (each holds its two timers until it settles). */
  pending: () => number;
};

/**
 * Serves other processes' file requests for the agents connected here, and forwards this process's requests for agents
 * connected elsewhere. `key` signs and checks every message (derived from PASETO_KEY, which all processes share).
 */
export async function forwardAgentFileRequests(options: { redisUrl: string; prefix: string; key: Uint8Array; logger: Logger }): Promise<AgentFileForwarding> {
  const logger = options.logger.child({ component: 'agent-files-across' });
  const codec = acrossCodec(options.key);
  // One request channel per kind of request (a message is signed for its channel): a transfer's requests go where only
  // processes that forward transfers listen, so one of a release before it never takes them for file requests.
  const requestsOf: Record<ChannelEvent, string> = {
    files: `${options.prefix}agent-files:requests`,
    transfer: `${options.prefix}agent-transfers:requests`,
  };
  const replies = `${options.prefix}agent-files:replies:${randomUUID()}`;
  const pub: RedisClientType = await connectRedis(options.redisUrl, logger, 'agent-files-pub');
  const sub: RedisClientType = await connectRedis(options.redisUrl, logger, 'agent-files-sub', { queueOffline: true });
  const waiting = new Map<string, Waiting>();
  /** Request ids seen within FRESH_MS, with when they may be forgotten (in arrival order). */
  const seen = new Map<string, number>();
  let dropped = 0;
  const drop = (channel: string) => {
    // Once, then every 1000th: a flood of forgeries must not flood the log.
    if (dropped++ % 1000 === 0)
      logger.warn({ channel, dropped }, "dropped a file request or answer on Redis that is not signed with this installation's key, stale or repeated");
  };
  const publish = (channel: string, message: Buffer) =>
    pub.publish(channel, message).catch((error: unknown) => logger.warn({ err: error }, 'could not publish a file request or answer on Redis'));
  const reply = (replyTo: string, head: Unsigned, data?: Buffer) => void publish(replyTo, codec.encode(replyTo, head, data));

  const firstSighting = (id: string, now: number): boolean => {
    for (const [old, until] of seen) {
      if (until > now) break;
      seen.delete(old);
    }
    if (seen.has(id)) return false;
    seen.set(id, now + 2 * FRESH_MS);
    return true;
  };

  const onRequestOf = (event: ChannelEvent) => (message: Buffer) => {
    const requests = requestsOf[event];
    const now = Date.now();
    const decoded = codec.decode(requests, message, now);
    if (!decoded || decoded.head.kind !== 'request' || !firstSighting(decoded.head.id, now)) return drop(requests);
    const { id, replyTo, machineId, timeoutMs, payload } = decoded.head;
    if (typeof replyTo !== 'string' || !replyTo.startsWith(`${options.prefix}agent-files:replies:`)) return drop(requests);
    const channel = agentChannelOf(machineId, event);
    if (!channel) return; // not ours: the process holding the agent answers
    reply(replyTo, { kind: 'taken', id });
    channel({ ...payload, ...(decoded.data ? { data: decoded.data } : {}) }, Math.min(Math.max(Number(timeoutMs) || 0, 1), MAX_TIMEOUT_MS)).then(
      (answer) => {
        const { rest, data } = splitData(answer);
        reply(replyTo, { kind: 'answer', id, answer: rest }, data);
      },
      (error: unknown) =>
        reply(replyTo, { kind: 'failed', id, code: error instanceof AgentUnreachableError ? 'unavailable' : 'timeout', message: (error as Error).message }),
    );
  };
  const settle = (id: string): Waiting | undefined => {
    const entry = waiting.get(id);
    if (!entry) return undefined;
    waiting.delete(id);
    clearTimeout(entry.take);
    clearTimeout(entry.last);
    return entry;
  };
  const onReply = (message: Buffer) => {
    const decoded = codec.decode(replies, message);
    if (!decoded || decoded.head.kind === 'request') return drop(replies);
    const { head } = decoded;
    if (head.kind === 'taken') {
      const entry = waiting.get(head.id);
      if (entry) entry.taken = true;
      return;
    }
    const entry = settle(head.id);
    if (!entry) return;
    if (head.kind === 'failed')
      entry.reject(head.code === 'unavailable' ? new AgentUnreachableError(head.message) : new Error(`${head.message} (the operation may have been applied)`));
    else entry.resolve({ ...head.answer, ...(decoded.data ? { data: decoded.data } : {}) });
  };
  // Not awaited: with Redis down at start-up the subscriptions wait for it (queued), and the process starts meanwhile
  // (its requests to other processes' agents answer 503 until then).
  for (const [channel, listener] of [
    [requestsOf.files, onRequestOf('files')],
    [requestsOf.transfer, onRequestOf('transfer')],
    [replies, onReply],
  ] as const)
    sub.subscribe(channel, listener, true).catch((error: unknown) => logger.warn({ err: error, channel }, 'could not subscribe on Redis'));

  /** The answer to request `id`. Its timers hold no payload: an upload's chunk is free once published. */
  const answerOf = (id: string, timeoutMs: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const take = setTimeout(() => {
        if (waiting.get(id)?.taken !== false) return;
        settle(id);
        // Published but not taken: no process holds the agent, or the one that does was too slow to say so.
        reject(
          new AgentUnreachableError(
            `no process holding the server's agent took the request within ${TAKE_MS / 1000} s (should one have taken it late, it may have been applied)`,
          ),
        );
      }, TAKE_MS);
      // Once taken, the agent's own time-out applies (the holder answers `failed` when it passes); this one is the
      // last resort, should the holder go away meanwhile.
      const last = setTimeout(() => {
        if (!settle(id)) return;
        reject(new Error('no answer from the process holding the agent (the operation may have been applied)'));
      }, timeoutMs + TAKE_MS);
      last.unref();
      waiting.set(id, { taken: false, resolve, reject, take, last });
    });

  const channelOf =
    (machineId: string, event: ChannelEvent): FileChannel =>
    (payload, timeoutMs) => {
      const id = randomUUID();
      const { rest, data } = splitData(payload);
      const answer = answerOf(id, timeoutMs);
      const requests = requestsOf[event];
      void publish(requests, codec.encode(requests, { kind: 'request', id, replyTo: replies, machineId, timeoutMs, payload: rest }, data));
      return answer;
    };
  const unset = setForwardedFileChannels(channelOf);

  return {
    pending: () => waiting.size,
    stop: async () => {
      unset();
      for (const id of [...waiting.keys()]) settle(id)?.reject(new Error('the service process is stopping'));
      // Ended, not unsubscribed first: with Redis down an unsubscribe would wait for it.
      await Promise.all([endRedis(pub), endRedis(sub)]);
    },
  };
}
