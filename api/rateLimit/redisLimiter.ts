/**
 * Token buckets in Redis, so every API node spends from one budget per key (REDIS_URL set).
 *
 * One request is one round trip: a Lua script reads the bucket, refills it from the elapsed time, takes a token and
 * writes it back atomically. Time comes from Redis (TIME) rather than from the nodes, so nodes with skewed clocks still
 * share one budget. Each bucket is a hash `{ tokens, at }` that expires when it would be full again: an idle key costs
 * nothing. Needs Redis 5 or later (scripts replicate their effects, so TIME may precede writes).
 *
 * Fails closed: when Redis is unreachable, or does not answer within COMMAND_TIMEOUT_MS, `take` rejects with
 * RateLimiterUnavailableError and the request is refused (503), never let through unlimited.
 */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '../../schema/logger.ts';
import { decisionFor, RateLimiterUnavailableError, type Decision, type RateLimiter } from './limiter.ts';
import type { Bucket } from './tiers.ts';

export const DEFAULT_PREFIX = 'gsm:rl:';
/** How long a request waits for Redis (which answers in well under a millisecond) before it is refused. */
export const COMMAND_TIMEOUT_MS = 500;
/** Bounds one connection attempt, and how long createRedisLimiter waits for the first one to succeed. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect attempts back off exponentially from this delay up to the maximum, and never give up. */
const RECONNECT_BASE_MS = 50;
const RECONNECT_MAX_MS = 2_000;
/** Commands already written to a Redis that stopped answering stay queued; past this many, new ones fail at once. */
const MAX_QUEUED_COMMANDS = 10_000;
/** How long close() lets owed answers arrive before cutting the connection. */
const CLOSE_WAIT_MS = 1_000;

/**
 * KEYS[1]: the bucket's hash. ARGV[1]: burst (capacity). ARGV[2]: refill per minute. Answers { allowed, tokens, now ms }.
 * A refused request writes nothing: the stored state computes the same tokens later, and its expiry stays right.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local perMinute = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] and state[2] then
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * perMinute / 60000)
end
local allowed = 0
if tokens >= 1 then
  allowed = 1
  tokens = tokens - 1
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 60000 / perMinute))
end
return { allowed, string.format('%.17g', tokens), string.format('%.17g', now) }
`;

const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

export type RedisLimiterOptions = {
  /** Prepended to every key, so several installations can share one Redis. Default DEFAULT_PREFIX. */
  prefix?: string;
  /** Default COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
  logger?: Logger;
};

export class RedisLimiter implements RateLimiter {
  readonly #client: RedisClientType;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  #closed = false;

  /** Takes an unconnected client: its listeners must be in place before it first connects. */
  constructor(client: RedisClientType, options: RedisLimiterOptions = {}) {
    this.#client = client;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#timeoutMs = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
    const logger = options.logger;
    let reachable = true;
    // node-redis emits 'error' for every failed (re)connect; an emitter without a listener would crash the process.
    // Log the loss once and the recovery once, not every attempt.
    client.on('error', (error: unknown) => {
      if (reachable) logger?.error({ err: error }, 'Redis for rate limits is unreachable: rate-limited requests answer 503');
      reachable = false;
    });
    client.on('ready', () => {
      // node-redis finishes a connection attempt that was under way when the client was closed; cut it, or its
      // socket would keep the process alive.
      if (this.#closed) return client.destroy();
      if (!reachable) logger?.info('Redis for rate limits is reachable again');
      reachable = true;
      // Warms Redis's script cache; a miss is handled by take() anyway.
      client.scriptLoad(TAKE_SCRIPT).catch(() => undefined);
    });
  }

  get isReady(): boolean {
    return this.#client.isReady;
  }

  take(key: string, bucket: Bucket): Promise<Decision> {
    return this.#withDeadline(this.#run(`${this.#prefix}${bucket.name}:${key}`, bucket));
  }

  async check(): Promise<void> {
    await this.#withDeadline(this.#client.ping());
  }

  /** Settles with `work`, or rejects with RateLimiterUnavailableError when Redis fails or exceeds the deadline. */
  async #withDeadline<T>(work: Promise<T>): Promise<T> {
    // node-redis's own command timeout stops counting once a command is written; a Redis that stops answering
    // mid-way needs this deadline.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      const refuse = () => reject(new RateLimiterUnavailableError(`Redis did not answer within ${this.#timeoutMs} ms`));
      // After the event loop was blocked, expired timers run before pending socket reads: give an answer that already
      // arrived one turn of I/O to be read before refusing.
      timer = setTimeout(() => setImmediate(refuse), this.#timeoutMs);
    });
    try {
      return await Promise.race([work, deadline]);
    } catch (error) {
      if (error instanceof RateLimiterUnavailableError) throw error;
      throw new RateLimiterUnavailableError('Redis could not answer', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(key: string, bucket: Bucket): Promise<Decision> {
    const args = { keys: [key], arguments: [String(bucket.burst), String(bucket.perMinute)] };
    let reply: unknown;
    try {
      reply = await this.#client.evalSha(TAKE_SHA, args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      // Redis restarted or flushed its scripts since they were loaded: EVAL runs the script and caches it again.
      reply = await this.#client.eval(TAKE_SCRIPT, args);
    }
    if (!Array.isArray(reply) || reply.length !== 3) throw new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    return decisionFor(bucket, Number(reply[1]), Number(reply[2]), reply[0] === 1);
  }

  async close(): Promise<void> {
    this.#closed = true;
    // close() waits for the answers still owed, which a Redis that stopped answering never sends.
    await Promise.race([this.#client.close().catch(() => undefined), delay(CLOSE_WAIT_MS, undefined, { ref: false })]);
    this.#client.destroy();
  }
}

const reconnectDelay = (retries: number): number => Math.min(RECONNECT_BASE_MS * 2 ** retries, RECONNECT_MAX_MS);

/**
 * Connects to `url` and answers the limiter once connected, or after CONNECT_TIMEOUT_MS: a Redis that is down at
 * start-up does not stop the service. The client keeps reconnecting in the background; until it is back, rate-limited
 * requests answer 503.
 */
export async function createRedisLimiter(options: RedisLimiterOptions & { url: string }): Promise<RedisLimiter> {
  const client = createClient({
    url: options.url,
    // While disconnected, commands fail at once instead of queueing until a reconnect that may never come.
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelay },
  });
  const limiter = new RedisLimiter(client, options);
  // Resolves on the first successful connection however late; failures are reported through 'error'.
  const connected = client.connect().then(
    () => undefined,
    () => undefined,
  );
  await Promise.race([connected, delay(CONNECT_TIMEOUT_MS, undefined, { ref: false })]);
  return limiter;
}
