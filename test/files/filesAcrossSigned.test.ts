/**
 * File requests across processes over a real Redis (docs/files.md#limits): a request or an answer that is not signed
 * with the installation's key, stale or repeated is ignored; an answered request keeps nothing (no entry, no timer, so
 * no upload chunk) once it is answered; a failure on the holder keeps its meaning (agent gone: unreachable, 503; a
 * time-out: may have been applied, 504).
 */
import test from 'ava';
import { createHook } from 'node:async_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { addFileChannelResolver, AgentUnreachableError, fileChannelOf } from '../../orchestrator/files/agentChannels.ts';
import { acrossCodec, forwardAgentFileRequests, FRESH_MS, type Head } from '../../orchestrator/files/agentRequestsAcross.ts';
import { createLogger } from '../../schema/logger.ts';
import { REDIS_URL, useTestRedis } from '../support/redis.ts';
import { until } from '../support/wait.ts';

const redis = useTestRedis(test);
const logger = createLogger('silent');

/** A Redis connection of the test's own that subscribes to `channel` and keeps what arrives. */
async function listen(t: { teardown: (fn: () => Promise<void>) => void }, channel: string): Promise<Buffer[]> {
  const client: RedisClientType = createClient({ url: REDIS_URL });
  client.on('error', () => undefined);
  await client.connect();
  t.teardown(async () => void (await client.close()));
  const received: Buffer[] = [];
  await client.subscribe(channel, (message) => void received.push(message), true);
  return received;
}

test.serial('a request or an answer on Redis that is not signed with the installation key, stale or repeated is ignored', async (t) => {
  const prefix = `${redis.prefix}forged:`;
  const key = randomBytes(32);
  const forwarding = await forwardAgentFileRequests({ redisUrl: REDIS_URL, prefix, key, logger });
  t.teardown(forwarding.stop);
  const requests = `${prefix}agent-files:requests`;
  const replyTo = `${prefix}agent-files:replies:test`;
  const codec = acrossCodec(key);
  const stranger = acrossCodec(randomBytes(32));

  // An agent connected to this process: what reaches it is what the forwarding took.
  const machineId = randomUUID();
  const reached: Record<string, unknown>[] = [];
  t.teardown(
    addFileChannelResolver((machine, event) =>
      machine === machineId && event === 'files' ? async (payload) => (reached.push(payload), { ok: true }) : undefined,
    ),
  );
  const replies = await listen(t, replyTo);
  const request = (id: string, op: string) => ({ kind: 'request', id, replyTo, machineId, timeoutMs: 5_000, payload: { serverId: randomUUID(), op } }) as const;
  const publisher = redis.client();

  // Unsigned (the format without a MAC), signed with another key, stale, and a genuine one published twice.
  const unsigned = Buffer.from(JSON.stringify({ ...request(randomUUID(), 'delete'), at: Date.now() }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(unsigned.length);
  await publisher.publish(requests, Buffer.concat([length, unsigned]));
  await publisher.publish(requests, stranger.encode(requests, request(randomUUID(), 'delete')));
  await publisher.publish(requests, codec.encode(requests, request(randomUUID(), 'delete'), undefined, Date.now() - FRESH_MS - 5_000));
  // Signed for another channel (an answer's), published as a request.
  await publisher.publish(requests, codec.encode(replyTo, request(randomUUID(), 'delete')));
  const genuine = codec.encode(requests, request('first', 'list'));
  await publisher.publish(requests, genuine);
  await publisher.publish(requests, genuine);
  await publisher.publish(requests, codec.encode(requests, request('last', 'stat')));

  // One connection publishes in order and one receives in order: once the last is answered, all were handled.
  const answered = () => replies.map((message) => codec.decode(replyTo, message)?.head).filter((head): head is Head => head?.kind === 'answer');
  await until(async () => answered().some((head) => head.id === 'last'), 'the last genuine request is answered');
  t.deepEqual(
    reached.map((payload) => payload.op),
    ['list', 'stat'],
  );
  t.deepEqual(
    answered().map((head) => head.id),
    ['first', 'last'],
  );

  // The other way: this process asks for an agent it does not hold; a forged answer is ignored, the genuine one taken.
  const elsewhere = randomUUID();
  const asked = await listen(t, requests);
  const answer = fileChannelOf(elsewhere)!({ serverId: randomUUID(), op: 'list' }, 5_000);
  await until(async () => asked.some((message) => codec.decode(requests, message)?.head.kind === 'request'), 'the request is published');
  const head = asked.map((message) => codec.decode(requests, message)?.head).find((one) => one?.kind === 'request' && one.machineId === elsewhere);
  if (head?.kind !== 'request') return t.fail('no request for the other machine');
  await publisher.publish(head.replyTo, stranger.encode(head.replyTo, { kind: 'answer', id: head.id, answer: { entries: ['forged'] } }));
  await publisher.publish(head.replyTo, codec.encode(head.replyTo, { kind: 'answer', id: head.id, answer: { entries: ['genuine'] } }));
  t.deepEqual(await answer, { entries: ['genuine'] });
});

test.serial('an answered forwarded request keeps no timer and no entry (its upload chunk is free)', async (t) => {
  const prefix = `${redis.prefix}timers:`;
  const key = randomBytes(32);
  const forwarding = await forwardAgentFileRequests({ redisUrl: REDIS_URL, prefix, key, logger });
  t.teardown(forwarding.stop);
  const requests = `${prefix}agent-files:requests`;
  const codec = acrossCodec(key);

  // The test is the process holding the agent: it answers each request, signed.
  const holder: RedisClientType = createClient({ url: REDIS_URL });
  holder.on('error', () => undefined);
  await holder.connect();
  const publisher = holder.duplicate();
  publisher.on('error', () => undefined);
  await publisher.connect();
  t.teardown(async () => void (await Promise.all([holder.close(), publisher.close()])));
  await holder.subscribe(
    requests,
    (message) => {
      const head = codec.decode(requests, message)?.head;
      if (head?.kind !== 'request') return;
      void publisher.publish(head.replyTo, codec.encode(head.replyTo, { kind: 'taken', id: head.id }));
      void publisher.publish(head.replyTo, codec.encode(head.replyTo, { kind: 'answer', id: head.id, answer: { written: 1 } }));
    },
    true,
  );

  // The timers each call makes, until they are cleared or fire.
  const live = new Set<number>();
  let capturing = false;
  const hook = createHook({
    init: (asyncId, type) => void (capturing && type === 'Timeout' && live.add(asyncId)),
    destroy: (asyncId) => void live.delete(asyncId),
  }).enable();
  t.teardown(() => void hook.disable());

  const machineId = randomUUID();
  const calls: Promise<Record<string, unknown>>[] = [];
  for (let index = 0; index < 100; index++) {
    capturing = true;
    calls.push(fileChannelOf(machineId)!({ serverId: randomUUID(), op: 'write', handle: 1, position: 0, data: randomBytes(128 * 1024) }, 60_000));
    capturing = false;
  }
  t.true(live.size >= 100);
  for (const answer of await Promise.all(calls)) t.is(answer.written, 1);
  t.is(forwarding.pending(), 0);
  // Cleared timers are reported destroyed on a later turn of the event loop; a forgotten one would live 63 s.
  await until(async () => live.size === 0, 'every timer of the answered calls is cleared');
  t.is(live.size, 0);
});

test.serial('a forwarded failure keeps its meaning: the agent gone is unreachable (503), a time-out may have been applied (504)', async (t) => {
  const prefix = `${redis.prefix}failures:`;
  const key = randomBytes(32);
  const forwarding = await forwardAgentFileRequests({ redisUrl: REDIS_URL, prefix, key, logger });
  t.teardown(forwarding.stop);
  const requests = `${prefix}agent-files:requests`;
  const codec = acrossCodec(key);
  const holder: RedisClientType = createClient({ url: REDIS_URL });
  holder.on('error', () => undefined);
  await holder.connect();
  const publisher = holder.duplicate();
  publisher.on('error', () => undefined);
  await publisher.connect();
  t.teardown(async () => void (await Promise.all([holder.close(), publisher.close()])));
  await holder.subscribe(
    requests,
    (message) => {
      const head = codec.decode(requests, message)?.head;
      if (head?.kind !== 'request') return;
      const code = head.payload.op === 'gone' ? 'unavailable' : 'timeout';
      void publisher.publish(head.replyTo, codec.encode(head.replyTo, { kind: 'failed', id: head.id, code, message: `failed: ${code}` }));
    },
    true,
  );
  const channel = fileChannelOf(randomUUID())!;
  const gone = await t.throwsAsync(channel({ serverId: randomUUID(), op: 'gone' }, 5_000));
  t.true(gone instanceof AgentUnreachableError);
  const late = await t.throwsAsync(channel({ serverId: randomUUID(), op: 'slow' }, 5_000));
  t.false(late instanceof AgentUnreachableError);
  t.regex(late!.message, /may have been applied/);
});
