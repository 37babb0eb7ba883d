/**
 * The relay of live events between processes over Redis (orchestrator/live/redisRelay.ts), with two processes' worth of
 * live state in this test process on the test Redis: events reach the listeners of the servers they want, in order,
 * once; a process reads none of the events nobody there wants, nor its own back from Redis.
 */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { createClient } from 'redis';
import { createLive, type Live } from '../../orchestrator/live/live.ts';
import { connectRedis, endRedis, MAX_QUEUED_COMMANDS } from '../../orchestrator/live/redisClient.ts';
import { createRedisHistory } from '../../orchestrator/live/consoleHistory.ts';
import { followConsole } from '../../orchestrator/live/consoleFollower.ts';
import { createLocalRelay } from '../../orchestrator/live/relay.ts';
import type { LiveEvent } from '../../orchestrator/live/relay.ts';
import { captureLogs } from '../support/logs.ts';
import { REDIS_ADDRESS, REDIS_URL, useTestRedis } from '../support/redis.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { AppError } from '../../schema/errors.ts';

const redis = useTestRedis(test);
const CLUSTER = '00000000-0000-4000-8000-000000000001';
const SERVER_A = '00000000-0000-4000-8000-00000000000a';
const SERVER_B = '00000000-0000-4000-8000-00000000000b';
const PROBE = '00000000-0000-4000-8000-0000000000ff';

const consoleEvent = (serverId: string, line: string, seq: number): LiveEvent => ({
  type: 'server.console',
  clusterId: CLUSTER,
  at: new Date().toISOString(),
  data: { serverId, lines: [{ at: new Date().toISOString(), line }], seq },
});

async function twoProcesses(t: { teardown: (fn: () => Promise<void>) => void }, prefix: string, logger = captureLogs().logger): Promise<[Live, Live]> {
  const lives = [
    await createLive({ redisUrl: REDIS_URL, redisPrefix: prefix, logger }),
    await createLive({ redisUrl: REDIS_URL, redisPrefix: prefix, logger }),
  ];
  t.teardown(async () => void (await Promise.all(lives.map((live) => live.close()))));
  // Each listens once its pattern subscription is in place: a probe from each reaches the other.
  for (const [from, to] of [lives, [...lives].reverse()] as [Live, Live][]) {
    let heard = false;
    const stop = to.relay.subscribe(
      () => (heard = true),
      (serverId) => serverId === PROBE,
    );
    for (let tries = 0; !heard; tries++) {
      if (tries > 100) throw new Error('the relay never subscribed');
      from.relay.publish(consoleEvent(PROBE, 'probe', 1));
      await delay(50);
    }
    stop();
  }
  return lives as [Live, Live];
}

const delay = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** Waits (at most 10 s) until `done` holds, then a little longer for anything that should not come. */
async function settled(done: () => boolean = () => true) {
  for (let waited = 0; !done() && waited < 10_000; waited += 20) await delay(20);
  await delay(200);
}

const lines = (events: LiveEvent[]) => events.map((event) => (event.type === 'server.console' ? event.data.lines[0]!.line : event.type));

test('events reach the listeners of other processes that want their server, in order, and the publisher once', async (t) => {
  const [orchestrator, web] = await twoProcesses(t, `${redis.prefix}relay:`);
  const onA: LiveEvent[] = [];
  const onB: LiveEvent[] = [];
  const everything: LiveEvent[] = [];
  const own: LiveEvent[] = [];
  web.relay.subscribe(
    (event) => onA.push(event),
    (serverId) => serverId === SERVER_A,
  );
  web.relay.subscribe(
    (event) => onB.push(event),
    (serverId) => serverId === SERVER_B,
  );
  web.relay.subscribe(
    (event) => everything.push(event),
    () => true,
  );
  orchestrator.relay.subscribe(
    (event) => own.push(event),
    () => true,
  );

  const published: LiveEvent[] = [];
  for (let seq = 1; seq <= 50; seq++) {
    published.push(consoleEvent(seq % 5 === 0 ? SERVER_B : SERVER_A, `line ${seq}`, seq));
    orchestrator.relay.publish(published.at(-1)!);
  }
  await settled(() => everything.length >= 50);

  const expectedA = Array.from({ length: 50 }, (_, index) => index + 1).filter((seq) => seq % 5 !== 0);
  t.deepEqual(
    lines(onA),
    expectedA.map((seq) => `line ${seq}`),
  );
  t.deepEqual(
    lines(onB),
    [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map((seq) => `line ${seq}`),
  );
  t.deepEqual(everything, published);
  // The publisher's own listeners got each event once (locally), not again from Redis.
  t.is(own.length, 50);
});

test('an interest is asked per event, so a listener that starts wanting a server gets its next events', async (t) => {
  const [orchestrator, web] = await twoProcesses(t, `${redis.prefix}interest:`);
  const watched = new Set<string>();
  const got: LiveEvent[] = [];
  const stop = web.relay.subscribe(
    (event) => got.push(event),
    (serverId) => watched.has(serverId),
  );
  orchestrator.relay.publish(consoleEvent(SERVER_A, 'before', 1));
  // A probe published after it, on the same connection, arrives after it: once the probe is here, 'before' was passed by.
  let probed = false;
  const stopProbe = web.relay.subscribe(
    () => (probed = true),
    (serverId) => serverId === PROBE,
  );
  orchestrator.relay.publish(consoleEvent(PROBE, 'probe', 2));
  await settled(() => probed);
  stopProbe();
  watched.add(SERVER_A);
  orchestrator.relay.publish(consoleEvent(SERVER_A, 'after', 2));
  await settled(() => got.length >= 1);
  stop();
  orchestrator.relay.publish(consoleEvent(SERVER_A, 'stopped', 3));
  await settled();
  t.deepEqual(lines(got), ['after']);
});

test('a process parses no event that none of its listeners wants (a malformed one on a server nobody watches is never read)', async (t) => {
  const prefix = `${redis.prefix}unread:`;
  const { logger, lines: logged } = captureLogs();
  const [, web] = await twoProcesses(t, prefix, logger);
  const got: LiveEvent[] = [];
  web.relay.subscribe(
    (event) => got.push(event),
    (serverId) => serverId === SERVER_A,
  );
  const raw = createClient({ url: REDIS_URL });
  await raw.connect();
  t.teardown(() => raw.close());
  // Another process's messages, written by hand: one unparsable on a server nobody here watches, then a good one.
  await raw.publish(`${prefix}live#elsewhere#${SERVER_B}`, '{not json');
  await raw.publish(`${prefix}live#elsewhere#${SERVER_A}`, JSON.stringify(consoleEvent(SERVER_A, 'good', 1)));
  await settled(() => got.length >= 1);
  t.deepEqual(lines(got), ['good']);
  // Read, it would have been reported as a relay failure.
  t.deepEqual(
    logged().filter((entry) => entry.level !== 'debug'),
    [],
  );
  // The same bytes on a watched server are read, and reported.
  await raw.publish(`${prefix}live#elsewhere#${SERVER_A}`, '{not json');
  await settled(() => logged().some((entry) => String(entry.msg).includes('live events')));
  t.is(logged().filter((entry) => String(entry.msg).includes('live events')).length, 1);
});

test('a key prefix with glob characters matches its own channels only', async (t) => {
  const [orchestrator, web] = await twoProcesses(t, `${redis.prefix}g*:`);
  const [otherOrchestrator] = await twoProcesses(t, `${redis.prefix}gab:`);
  const got: LiveEvent[] = [];
  web.relay.subscribe(
    (event) => got.push(event),
    () => true,
  );
  otherOrchestrator.relay.publish(consoleEvent(SERVER_A, 'another installation', 1));
  orchestrator.relay.publish(consoleEvent(SERVER_A, 'this installation', 1));
  await settled(() => got.length >= 1);
  t.deepEqual(lines(got), ['this installation']);
});

test('events a process of the previous release relays (Socket.IO serverSideEmit) still reach the listeners that want them', async (t) => {
  // During a rolling upgrade the API processes are new while the orchestrators are still the previous release.
  const [previousRelease, web] = await twoProcesses(t, `${redis.prefix}previous:`);
  const got: LiveEvent[] = [];
  web.relay.subscribe(
    (event) => got.push(event),
    (serverId) => serverId === SERVER_A,
  );
  const wanted = consoleEvent(SERVER_A, 'from the previous release', 1);
  previousRelease.io.of('/live').serverSideEmit('gsm:live', consoleEvent(SERVER_B, 'not watched', 1));
  previousRelease.io.of('/live').serverSideEmit('gsm:live', wanted);
  await settled(() => got.length >= 1);
  t.deepEqual(got, [wanted]);
});

/**
 * A TCP proxy in front of the test Redis that can be frozen: Redis's answers stop coming while the connection stays
 * up (a stalled Redis, a black-holed network).
 */
async function freezableRedis(t: { teardown: (fn: () => void) => void }) {
  const target = new URL(REDIS_URL);
  const links: [Socket, Socket][] = [];
  let frozen = false;
  const proxy = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    client.pipe(upstream);
    if (!frozen) upstream.pipe(client);
    links.push([client, upstream]);
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  t.teardown(() => {
    for (const [client, upstream] of links) {
      client.destroy();
      upstream.destroy();
    }
    proxy.close();
  });
  return {
    url: `redis://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    freeze: () => {
      frozen = true;
      for (const [client, upstream] of links) upstream.unpipe(client);
    },
    thaw: () => {
      frozen = false;
      for (const [client, upstream] of links) upstream.pipe(client);
    },
  };
}

test('with Redis stalled (connection up, no answers), publishing is refused past a bound instead of queueing in memory', async (t) => {
  const redisBehind = await freezableRedis(t);
  const { logger, lines: logged } = captureLogs();
  const live = await createLive({ redisUrl: redisBehind.url, redisPrefix: `${redis.prefix}stalled:`, logger });
  t.teardown(async () => {
    redisBehind.thaw();
    await live.close();
  });
  const heard: LiveEvent[] = [];
  live.relay.subscribe(
    (event) => heard.push(event),
    () => true,
  );
  const refused = () => logged().filter((entry) => String(entry.msg).includes('live events could not reach'));
  /** 24 rounds of 500 publishes 50 ms apart (a busy console over about a second). */
  const publishRounds = async (from: number) => {
    for (let round = 0; round < 24; round++) {
      for (let index = 0; index < 500; index++) live.relay.publish(consoleEvent(SERVER_A, 'line', from + round * 500 + index));
      await delay(50);
    }
  };
  // Answered: nothing waits long, nothing is refused.
  await publishRounds(1);
  await settled();
  t.deepEqual(refused(), []);
  // Stalled: the publishes written and never answered reach the bound, and the next are refused (and reported).
  redisBehind.freeze();
  await publishRounds(100_000);
  await settled(() => refused().length > 0);
  t.regex(JSON.stringify(refused()[0]), /queue is full/i);
  // This process's own listeners still got every event.
  t.is(heard.length, 24_000);
});

test('a console history append refused part-way (its connection full) leaves the connection usable', async (t) => {
  const { logger } = captureLogs();
  const client = await connectRedis(REDIS_URL, logger, 'test-history');
  t.teardown(() => endRedis(client));
  const history = createRedisHistory(client, { prefix: `${redis.prefix}full:`, logger });
  const at = new Date().toISOString();
  // In one turn of the event loop: the connection's queue one short of its bound, then an append (its push fits, the
  // rest of it is refused). A transaction cut that way would hold every later command of the connection.
  const filler = Array.from({ length: MAX_QUEUED_COMMANDS - 1 }, () => client.publish(`${redis.prefix}nobody`, 'x').catch(() => 'refused'));
  history.append({ serverId: SERVER_A, lines: [{ at, line: 'first' }], seq: 1 });
  await Promise.all(filler);
  history.append({ serverId: SERVER_A, lines: [{ at, line: 'second' }], seq: 2 });
  await delay(200);
  t.deepEqual(
    (await history.recent(SERVER_A, 10)).map((line) => line.line),
    ['first', 'second'],
  );
  t.is(await client.ping(), 'PONG');
});

/** A console history on a Redis connection through a TCP proxy the test can hang; reads time out after 500 ms. */
async function historyBehindProxy(t: ExecutionContext, name: string) {
  const { logger } = captureLogs();
  const proxy = await startTcpProxy(REDIS_ADDRESS);
  t.teardown(() => proxy.close());
  const client = await connectRedis(`redis://127.0.0.1:${proxy.port}`, logger, `test-${name}`);
  t.teardown(() => endRedis(client));
  return { proxy, history: createRedisHistory(client, { prefix: `${redis.prefix}${name}:`, logger, readTimeoutMs: 500 }) };
}

test('a console history read with Redis stalled (its connection up, no answer) is a 503 within the read time-out, and the next read after Redis is back answers', async (t) => {
  const { proxy, history } = await historyBehindProxy(t, 'stalled');
  history.append({ serverId: SERVER_A, lines: [{ at: new Date().toISOString(), line: 'kept' }], seq: 1 });
  await delay(200);
  t.deepEqual(
    (await history.recent(SERVER_A, 10)).map((line) => line.line),
    ['kept'],
  );
  proxy.hang();
  const started = performance.now();
  const error = await t.throwsAsync(history.since(SERVER_A, 0));
  const waited = performance.now() - started;
  t.true(error instanceof AppError && error.status === 503, String(error));
  t.true(waited >= 450 && waited < 5_000, `answered after ${Math.round(waited)} ms`);
  proxy.resume();
  // The stalled command's answer comes first on the connection; the next read gets its own.
  t.deepEqual(
    (await history.recent(SERVER_A, 10)).map((line) => line.line),
    ['kept'],
  );
});

test('a console viewer whose history read times out (Redis stalled) still gets the batches that came meanwhile and the next ones', async (t) => {
  const { proxy, history } = await historyBehindProxy(t, 'follower');
  const relay = createLocalRelay();
  const batch = (seq: number, line: string): LiveEvent => ({
    type: 'server.console',
    clusterId: SERVER_A,
    at: new Date().toISOString(),
    data: { serverId: SERVER_A, lines: [{ at: new Date().toISOString(), line }], seq },
  });
  proxy.hang();
  for (const start of [{ last: 10 }, { after: 4 }] as const) {
    const following = followConsole({ relay, history }, SERVER_A, start);
    await delay(100);
    relay.publish(batch(4, 'four, while the history is read'));
    relay.publish(batch(5, 'five, while the history is read'));
    const follower = await following;
    t.deepEqual(follower.replay, []);
    t.is(follower.gap, 'after' in start, 'a resume may have missed lines: a gap');
    const seen: string[] = [];
    follower.live((event) => seen.push(...(event.data as { lines: { line: string }[] }).lines.map((line) => line.line)));
    relay.publish(batch(6, 'six, live'));
    t.deepEqual(seen, [...('after' in start ? [] : ['four, while the history is read']), 'five, while the history is read', 'six, live']);
    follower.stop();
  }
  proxy.resume();
});
