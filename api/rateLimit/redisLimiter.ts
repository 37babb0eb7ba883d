/**
 * Token buckets in Redis, so every API node spends from one budget per key (REDIS_URL set).
 *
 * A Lua script reads each bucket, refills it from the elapsed time, takes a token and writes it back atomically. The
 * takes (and peeks) asked for in one turn of the event loop go to Redis together, as one script call (up to
 * MAX_BATCH), each answered on its own: under load one round trip, one command to parse and one deadline timer serve
 * many requests. Time comes from Redis (TIME) rather than from the nodes, so nodes with skewed clocks still
 * share one budget. Each bucket is a hash `{ tokens, at }` that expires when it would be full again: an idle key costs
 * nothing. Needs Redis 5 or later (scripts replicate their effects, so TIME may precede writes).
 *
 * A cap is a sorted set per key of its holders, each scored with the end of its lease (LEASE_MS, Redis's clock): this
 * process renews its holders' leases three times a lease, so the holders of a node that died without releasing
 * them drop out within a lease, and a Redis that lost them (restart, flush) gets them back at the next renewal.
 *
 * Fails closed: when Redis is unreachable, or does not answer within COMMAND_TIMEOUT_MS, `take` rejects with
 * RateLimiterUnavailableError and the request is refused (503), never let through unlimited.
 */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '../../schema/logger.ts';
import { decisionFor, RateLimiterUnavailableError, type Decision, type RateLimiter, type Slot } from './limiter.ts';
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
/** How long a holder stays counted without a renewal. */
export const LEASE_MS = 60_000;
/** Renewals per lease: one lost to a brief outage does not drop a holder. */
const RENEWALS_PER_LEASE = 3;
/** How long close() lets owed answers arrive before cutting the connection. */
const CLOSE_WAIT_MS = 1_000;
/** Takes (or peeks) sent to Redis in one script call at most. */
export const MAX_BATCH = 128;

/**
 * Several takes in one call. ARGV[1]: how many takes. ARGV[2]: when the call's caller stops waiting for it, in Redis's
 * time (ms; 0: not known): a call run later (it waited in a stalled Redis's buffers) spends nothing and answers
 * { "expired", now ms }, so requests refused meanwhile (503) do not cost their budget when Redis answers again. Then
 * for each take: its number of buckets `c`, "1" to peek (spend nothing) or "0", and `c` pairs of burst (capacity) and
 * refill per minute; its `c` buckets' hashes are the next `c` of KEYS. Each take spends its buckets in order up to the
 * first that refuses (nothing after it is looked at). A refused bucket (or a peek) writes nothing: the stored state
 * computes the same tokens later, and its expiry stays right.
 * Answers { now ms, then for each take: how many buckets it looked at `d`, and `d` pairs of allowed (1/0), tokens }.
 * Written for Redis's CPU, which shares the machine with the service: each number is formatted once (`%.17g`, as a Lua
 * number returned or passed as it is would be truncated or rounded), the answer filled in place (no table per take).
 * The stored state (`{ tokens, at }`) is the same as before, so processes of two releases share buckets during a roll.
 */
const TAKE_BATCH_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local nowText = string.format('%.17g', now)
local expires = tonumber(ARGV[2])
if expires > 0 and now > expires then
  return { 'expired', nowText }
end
local answer = { nowText }
local a = 3
local k = 1
for _ = 1, tonumber(ARGV[1]) do
  local count = tonumber(ARGV[a])
  local peek = ARGV[a + 1] == '1'
  a = a + 2
  local n = #answer + 1
  answer[n] = 0
  -- Buckets looked at so far; -1 once one refused (the take's later buckets are not looked at).
  local looked = 0
  for _ = 1, count do
    if looked >= 0 then
      local key = KEYS[k]
      local burst = tonumber(ARGV[a])
      local perMinute = tonumber(ARGV[a + 1])
      local state = redis.call('HMGET', key, 'tokens', 'at')
      local tokens = burst
      if state[1] and state[2] then
        tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * perMinute / 60000)
      end
      looked = looked + 1
      answer[n] = looked
      if tokens < 1 then
        answer[n + 2 * looked - 1] = 0
        answer[n + 2 * looked] = string.format('%.17g', tokens)
        looked = -1
      else
        if not peek then tokens = tokens - 1 end
        local text = string.format('%.17g', tokens)
        if not peek then
          redis.call('HSET', key, 'tokens', text, 'at', nowText)
          redis.call('PEXPIRE', key, math.ceil((burst - tokens) * 60000 / perMinute))
        end
        answer[n + 2 * looked - 1] = 1
        answer[n + 2 * looked] = text
      end
    end
    k = k + 1
    a = a + 2
  end
end
return answer
`;

/**
 * KEYS: the caps' sorted sets. ARGV[1]: the holder. ARGV[2]: the lease in ms. ARGV[3…]: each key's cap, or nothing to
 * renew without checking. Answers 0 once the holder is counted in every key, else the (1-based) index of a full key,
 * having counted it nowhere. Expired holders are dropped on the way.
 */
const HOLD_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local cap = tonumber(ARGV[i + 2])
  if cap and not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= cap then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lease, ARGV[1])
  redis.call('PEXPIRE', key, lease)
end
return 0
`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const TAKE_BATCH_SHA = sha1(TAKE_BATCH_SCRIPT);
const HOLD_SHA = sha1(HOLD_SCRIPT);

/** One take (or peek) waiting for its batch: its buckets, and how to answer it. */
type Queued = {
  keys: string[];
  buckets: Bucket[];
  peek: boolean;
  resolve: (decisions: Decision[]) => void;
  reject: (error: unknown) => void;
};

export type RedisLimiterOptions = {
  /** Prepended to every key, so several installations can share one Redis. Default DEFAULT_PREFIX. */
  prefix?: string;
  /** Default COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default LEASE_MS (tests shorten it). */
  leaseMs?: number;
  logger?: Logger;
};

export class RedisLimiter implements RateLimiter {
  readonly #client: RedisClientType;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #leaseMs: number;
  /** Takes waiting for this turn's batch, and whether its sending is scheduled. */
  readonly #queue: Queued[] = [];
  #flushing = false;
  /** This process's holders and the keys each is counted in, renewed together. */
  readonly #held = new Map<string, string[]>();
  readonly #renewer: NodeJS.Timeout;
  #closed = false;
  /** Redis's clock minus this process's monotonic one (`clock()`), null until an answer came back quickly (#learnClock). */
  #clockOffsetMs: number | null = null;
  /** The longest round trip of a quick answer, and the margin taken off each deadline carried to Redis. */
  readonly #quickMs: number;

  /** Takes an unconnected client: its listeners must be in place before it first connects. */
  constructor(client: RedisClientType, options: RedisLimiterOptions = {}) {
    this.#client = client;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#timeoutMs = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
    this.#quickMs = Math.min(CLOCK_SAMPLE_MAX_MS, this.#timeoutMs / 10);
    const logger = options.logger;
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#renewer = setInterval(() => this.#renew(), this.#leaseMs / RENEWALS_PER_LEASE);
    this.#renewer.unref();
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
      client.scriptLoad(TAKE_BATCH_SCRIPT).catch(() => undefined);
      client.scriptLoad(HOLD_SCRIPT).catch(() => undefined);
      // Redis's clock, so the first takes carry their deadline too.
      void this.#sampleClock();
    });
  }

  /** Asks Redis its time until a quick answer teaches its clock (a few tries: the first answers of a connection can be slow). */
  async #sampleClock(): Promise<void> {
    for (let attempt = 0; attempt < CLOCK_SAMPLES && !this.#closed; attempt++) {
      if (attempt > 0) await delay(CLOCK_SAMPLE_PAUSE_MS, undefined, { ref: false });
      const sent = clock();
      const time = await this.#withDeadline((ready) => ready.sendCommand(['TIME'])).catch(() => null);
      if (Array.isArray(time) && this.#learnClock(Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000), sent)) return;
    }
  }

  /**
   * Learns Redis's clock from `redisNow`, read in an answer to a command sent at `sent`; says whether the answer was
   * quick. Redis's clock was `redisNow` between `sent` and now, so the offset lies between `redisNow - now` and
   * `redisNow - sent`: a quick answer gives the middle; a slow one (read late after the event loop was blocked, or a
   * long trip) would teach an offset too small, so it only keeps the offset within those bounds, which still corrects
   * one too small however slow every answer is (an offset too small would make every call expire).
   */
  #learnClock(redisNow: number, sent: number): boolean {
    const received = clock();
    if (!Number.isFinite(redisNow)) return false;
    const low = redisNow - received;
    const high = redisNow - sent;
    const quick = received - sent <= this.#quickMs;
    if (quick) this.#clockOffsetMs = (low + high) / 2;
    else if (this.#clockOffsetMs !== null) this.#clockOffsetMs = Math.min(high, Math.max(low, this.#clockOffsetMs));
    return quick;
  }

  /** The Redis key of a bucket's or a cap's `key`. */
  #keyOf(name: string, key: string): string {
    return `${this.#prefix}${name}:${key}`;
  }

  get isReady(): boolean {
    return this.#client.isReady;
  }

  async take(key: string, bucket: Bucket): Promise<Decision> {
    return (await this.#enqueue([{ key, bucket }], false))[0]!;
  }

  takeAll(targets: readonly { key: string; bucket: Bucket }[]): Promise<Decision[]> {
    return this.#enqueue(targets, false);
  }

  async peek(key: string, bucket: Bucket): Promise<Decision> {
    return (await this.#enqueue([{ key, bucket }], true))[0]!;
  }

  /** Queues a take for the batch of this turn of the event loop (sent once the turn's I/O has been handled). */
  #enqueue(targets: readonly { key: string; bucket: Bucket }[], peek: boolean): Promise<Decision[]> {
    if (targets.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.#queue.push({
        keys: targets.map((target) => this.#keyOf(target.bucket.name, target.key)),
        buckets: targets.map((target) => target.bucket),
        peek,
        resolve,
        reject,
      });
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Sends what is queued, MAX_BATCH takes a script call; each take is answered (or refused) on its own. */
  #flush(): void {
    this.#flushing = false;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      this.#withDeadline((client) => this.#runBatch(client, batch)).then(
        (answers) => batch.forEach((queued, index) => queued.resolve(answers[index]!)),
        (error: unknown) => batch.forEach((queued) => queued.reject(error)),
      );
    }
  }

  async hold(holder: string, slots: readonly Slot[]): Promise<Slot | null> {
    const keys = slots.map((slot) => this.#keyOf(slot.cap.name, slot.key));
    const args = { keys, arguments: [holder, String(this.#leaseMs), ...slots.map((slot) => String(slot.cap.max))] };
    let reply: unknown;
    try {
      reply = await this.#withDeadline((client) => this.#script(client, HOLD_SCRIPT, HOLD_SHA, args));
    } catch (error) {
      // The script may have run even though its answer came too late: a refused holder must not stay counted.
      this.#forget(holder, keys);
      throw error;
    }
    const full = Number(reply);
    if (full > 0) return slots[full - 1] ?? null;
    this.#held.set(holder, [...new Set([...(this.#held.get(holder) ?? []), ...keys])]);
    return null;
  }

  release(holder: string, slots: readonly Slot[]): void {
    const keys = slots.map((slot) => this.#keyOf(slot.cap.name, slot.key));
    const left = (this.#held.get(holder) ?? []).filter((key) => !keys.includes(key));
    if (left.length > 0) this.#held.set(holder, left);
    else this.#held.delete(holder);
    this.#forget(holder, keys);
  }

  /** Best effort: what Redis does not hear of ends with its lease. */
  #forget(holder: string, keys: string[]): void {
    if (this.#closed || !this.#client.isReady) return;
    for (const key of keys) this.#client.zRem(key, holder).catch(() => undefined);
  }

  #renew(): void {
    if (this.#closed || !this.#client.isReady) return;
    for (const [holder, keys] of this.#held) {
      this.#withDeadline((client) => this.#script(client, HOLD_SCRIPT, HOLD_SHA, { keys, arguments: [holder, String(this.#leaseMs)] })).catch(() => undefined);
    }
  }

  async check(): Promise<void> {
    await this.#withDeadline((client) => client.ping());
  }

  /**
   * Settles with `work` (given the client to send its commands on), or rejects with RateLimiterUnavailableError when
   * Redis fails or exceeds the deadline. At the deadline its commands still waiting to be written are dropped (a
   * backlog of megabytes, once the socket's buffers are full). A command handed to the socket cannot be taken back:
   * with Redis stalled that is nearly every one, so the take script itself checks the deadline (TAKE_BATCH_SCRIPT)
   * and spends nothing when Redis runs it too late.
   */
  async #withDeadline<T>(work: (client: RedisClientType) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      const refuse = () => {
        reject(new RateLimiterUnavailableError(`Redis did not answer within ${this.#timeoutMs} ms`));
        controller.abort();
      };
      // After the event loop was blocked, expired timers run before pending socket reads: give an answer that already
      // arrived one turn of I/O to be read before refusing.
      timer = setTimeout(() => setImmediate(refuse), this.#timeoutMs);
    });
    try {
      return await Promise.race([work(this.#client.withAbortSignal(controller.signal) as RedisClientType), deadline]);
    } catch (error) {
      if (error instanceof RateLimiterUnavailableError) throw error;
      throw new RateLimiterUnavailableError('Redis could not answer', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async #script(client: RedisClientType, source: string, sha: string, args: { keys: string[]; arguments: string[] }): Promise<unknown> {
    try {
      return await client.evalSha(sha, args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      // Redis restarted or flushed its scripts since they were loaded: EVAL runs the script and caches it again.
      return await client.eval(source, args);
    }
  }

  async #runBatch(client: RedisClientType, batch: readonly Queued[]): Promise<Decision[][]> {
    // The caller's deadline (#withDeadline's), less a margin: an answer Redis gives just before it must still arrive in
    // time. Carried in Redis's time once Redis's clock is known.
    const deadline = clock() + this.#timeoutMs - this.#quickMs;
    for (let attempt = 1; ; attempt++) {
      const sent = clock();
      const expiresAt = this.#clockOffsetMs === null ? 0 : Math.floor(deadline + this.#clockOffsetMs);
      const reply = await this.#runBatchOnce(client, batch, expiresAt);
      if (reply[0] !== 'expired') {
        this.#learnClock(Number(reply[0]), sent);
        return this.#answers(batch, reply);
      }
      // Run too late by Redis's clock, so nothing was spent. Still before the deadline here, the offset was too small
      // (Redis's clock stepped, a suspended host): set to its upper bound, which a call sent now cannot outrun, and
      // the call sent once more, with the same deadline.
      const redisNow = Number(reply[1]);
      this.#learnClock(redisNow, sent);
      const early = clock() < deadline && Number.isFinite(redisNow);
      const raised = early && (this.#clockOffsetMs === null || this.#clockOffsetMs < redisNow - sent);
      if (raised) this.#clockOffsetMs = redisNow - sent;
      if (attempt > 1 || !raised) {
        throw new RateLimiterUnavailableError(`Redis ran the call after the ${this.#timeoutMs} ms deadline; it spent nothing`);
      }
    }
  }

  async #runBatchOnce(client: RedisClientType, batch: readonly Queued[], expiresAt: number): Promise<unknown[]> {
    const keys = batch.flatMap((queued) => queued.keys);
    const args = [
      String(batch.length),
      String(expiresAt),
      ...batch.flatMap((queued) => [
        String(queued.buckets.length),
        queued.peek ? '1' : '0',
        ...queued.buckets.flatMap((bucket) => [String(bucket.burst), String(bucket.perMinute)]),
      ]),
    ];
    const reply = await this.#script(client, TAKE_BATCH_SCRIPT, TAKE_BATCH_SHA, { keys, arguments: args });
    if (!Array.isArray(reply) || reply.length < 1) throw unexpectedReply(reply);
    return reply as unknown[];
  }

  /** Each take's decisions, from the script's answer. */
  #answers(batch: readonly Queued[], reply: unknown[]): Decision[][] {
    const unexpected = () => unexpectedReply(reply);
    const now = Number(reply[0]);
    let at = 1;
    const answers = batch.map((queued) => {
      const looked = Number(reply[at]);
      if (!Number.isInteger(looked) || looked < 1 || looked > queued.buckets.length || at + 2 * looked >= reply.length) throw unexpected();
      const decisions: Decision[] = [];
      for (let index = 0; index < looked; index++) {
        decisions.push(decisionFor(queued.buckets[index]!, Number(reply[at + 2 + 2 * index]), now, reply[at + 1 + 2 * index] === 1));
      }
      at += 1 + 2 * looked;
      return decisions;
    });
    if (at !== reply.length) throw unexpected();
    return answers;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#renewer);
    this.#held.clear();
    // close() waits for the answers still owed, which a Redis that stopped answering never sends.
    await Promise.race([this.#client.close().catch(() => undefined), delay(CLOSE_WAIT_MS, undefined, { ref: false })]);
    this.#client.destroy();
  }
}

const unexpectedReply = (reply: unknown) => new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply).slice(0, 500)}`);

/** This process's clock for the deadlines carried to Redis: monotonic (a step of the system clock does not move it). */
const clock = () => performance.timeOrigin + performance.now();
/** The longest round trip whose answer teaches Redis's clock (also the margin taken off each deadline). */
const CLOCK_SAMPLE_MAX_MS = 50;
/** Tries to learn Redis's clock when a connection is ready, this far apart (a start-up burst makes answers slow). */
const CLOCK_SAMPLES = 5;
const CLOCK_SAMPLE_PAUSE_MS = 200;

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
    // No node-redis time-out per command: the limiter's own deadline (COMMAND_TIMEOUT_MS) bounds the wait of every
    // call (and drops what is still unwritten), while node-redis's own time-out arms an AbortSignal.timeout per
    // command that cannot be cleared (a timer and a DOMException five seconds after each script call, long answered).
    commandOptions: { timeout: 0 },
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
