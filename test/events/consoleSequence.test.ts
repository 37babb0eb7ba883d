/**
 * Console sequences and resume (docs/events.md, "Console sequence and resume"): lines published continuously while a
 * viewer subscribes reach it exactly once and in order (the replay and the first live lines meet without a gap or a
 * duplicate), and a viewer that comes back with its last sequence resumes where it stopped: on `/live`, on the SSE
 * stream (`Last-Event-ID`) and in GET /console?after=. The history is in Redis, as with several processes, and its
 * reads are slowed so that lines surely come while a viewer reads it.
 */
import test from 'ava';
import { body, json } from '../support/app.ts';
import { createCluster, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer } from '../support/agentProcess.ts';
import { connectViewer, type LiveViewer } from '../support/liveClient.ts';
import { openSse } from '../support/sse.ts';
import { until } from '../support/wait.ts';
import { REDIS_URL, useTestRedis } from '../support/redis.ts';
import { serviceUnavailable } from '../../schema/errors.ts';

const redis = useTestRedis(test);
/** How long each history read is held back: lines published meanwhile must neither be lost nor come twice. */
const SLOW_READ_MS = 150;

let app: GatewayApp;
let owner: TestUser;

test.before(async () => {
  app = await startGatewayApp({ env: { REDIS_URL, REDIS_KEY_PREFIX: redis.prefix } });
  owner = await signUp(app);
  const history = app.deps.live.history;
  const slow =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await read(...args);
      await new Promise((done) => setTimeout(done, SLOW_READ_MS));
      return answer;
    };
  history.recent = slow(history.recent);
  history.since = slow(history.since);
});
test.after.always(async () => {
  await app?.close();
});

async function setup() {
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const server = await createFakeServer(app, owner, clusterId, machine.id);
  return { clusterId, serverId: server.id as string };
}

/** Prints numbered lines `line <n>` for the server, a few every millisecond or two, as an agent's console would arrive. */
function printer(clusterId: string, serverId: string) {
  let next = 0;
  const timer = setInterval(() => {
    const lines = Array.from({ length: 1 + (next % 3) }, () => `line ${next++}`);
    app.gateway.live.console(clusterId, serverId, lines, new Date().toISOString());
  }, 2);
  return { printed: () => next, stop: () => clearInterval(timer) };
}

type Batch = { lines: { line: string; seq?: number }[]; seq?: number; replay?: boolean; after?: number; gap?: boolean };

/** The numbers of the printed lines in `batches`, in the order they came, and the sequence of the last line. */
function received(batches: Batch[]) {
  const numbers: number[] = [];
  let last = 0;
  for (const batch of batches)
    batch.lines.forEach((line, index) => {
      numbers.push(Number(/^line (\d+)$/.exec(line.line)![1]));
      const seq = line.seq ?? batch.seq! + index;
      if (seq <= last) throw new Error(`sequence ${seq} after ${last}`);
      last = seq;
    });
  return { numbers, last };
}

/** Every number from the first on, once each, in order. */
const consecutive = (numbers: number[]) => numbers.every((number, index) => index === 0 || number === numbers[index - 1]! + 1);

const consoleBatches = (viewer: LiveViewer): Batch[] => viewer.events.filter((event) => event.type === 'server.console').map((event) => event.data);

test.serial('/live: a viewer subscribing while lines pour in sees each once and in order; with `after` it resumes without a gap', async (t) => {
  const { clusterId, serverId } = await setup();
  const print = printer(clusterId, serverId);
  t.teardown(print.stop);
  await until(async () => print.printed() > 300, 'lines in the history');

  const first = await connectViewer(app.url, owner.accessToken);
  t.teardown(() => first.close());
  t.deepEqual(await first.request('subscribe', { serverId, console: true }), { ok: true });
  const target = print.printed() + 200;
  await until(async () => received(consoleBatches(first)).numbers.at(-1)! >= target, 'live lines after the replay');
  first.close();
  const seen = received(consoleBatches(first));
  t.true(consoleBatches(first)[0]!.replay, 'the replay comes first');
  t.is(consoleBatches(first)[0]!.lines.length, 100, 'the last 100 lines are replayed');
  t.true(consecutive(seen.numbers), `every line once, in order (${seen.numbers.length} lines)`);

  // Lines go on while the viewer is away; it comes back with the sequence of the last line it has.
  await until(async () => print.printed() > seen.numbers.at(-1)! + 300, 'lines printed while away');
  const again = await connectViewer(app.url, owner.accessToken);
  t.teardown(() => again.close());
  t.deepEqual(await again.request('subscribe', { serverId, console: true, after: seen.last }), { ok: true });
  const resumeTarget = print.printed() + 200;
  await until(async () => (received(consoleBatches(again)).numbers.at(-1) ?? -1) >= resumeTarget, 'live lines after the resume');
  const resumed = consoleBatches(again);
  t.like(resumed[0], { replay: true, after: seen.last });
  t.false(resumed[0]!.gap === true, 'nothing was missed: the history still held the lines');
  const continued = received(resumed).numbers;
  t.is(continued[0], seen.numbers.at(-1)! + 1, 'it resumes right after the last line it had');
  t.true(consecutive(continued), `every line once, in order (${continued.length} lines)`);

  t.like(await again.request('subscribe', { serverId, after: 5 }), { ok: false, statusCode: 400 });
  t.like(await again.request('subscribe', { serverId, console: true, after: -1 }), { ok: false, statusCode: 400 });
});

test.serial('SSE: the stream id carries the console sequence, and Last-Event-ID resumes the console without a gap or a duplicate', async (t) => {
  const { clusterId, serverId } = await setup();
  const print = printer(clusterId, serverId);
  t.teardown(print.stop);
  await until(async () => print.printed() > 100, 'lines in the history');
  const url = `${app.url}/api/v1/clusters/${clusterId}/events/stream?types=server.console&serverId=${serverId}`;

  const first = await openSse(url, owner.auth);
  t.teardown(() => first.close());
  const target = print.printed() + 200;
  const batchesOf = (frames: typeof first.frames) => frames.filter((frame) => frame.event === 'server.console').map((frame) => frame.data.data as Batch);
  await until(async () => (received(batchesOf(first.frames)).numbers.at(-1) ?? -1) >= target, 'live lines on the stream');
  first.close();
  const seen = received(batchesOf(first.frames));
  t.true(consecutive(seen.numbers), `every line once, in order (${seen.numbers.length} lines)`);
  const lastId = first.frames.at(-1)!.id!;
  t.regex(lastId, /^\d{16}:\d+$/);
  t.is(Number(lastId.split(':')[1]), seen.last, "the id's console part is the last line's sequence");

  await until(async () => print.printed() > seen.numbers.at(-1)! + 300, 'lines printed while away');
  const again = await openSse(url, { ...owner.auth, 'Last-Event-ID': lastId });
  t.teardown(() => again.close());
  const resumeTarget = print.printed() + 200;
  await until(async () => (received(batchesOf(again.frames)).numbers.at(-1) ?? -1) >= resumeTarget, 'live lines after the resume');
  again.close();
  const batches = batchesOf(again.frames);
  t.like(batches[0], { replay: true, after: seen.last });
  const continued = received(batches).numbers;
  t.is(continued[0], seen.numbers.at(-1)! + 1, 'it resumes right after the last line it had');
  t.true(consecutive(continued), `every line once, in order (${continued.length} lines)`);

  const refused = await app.request(`/api/v1/clusters/${clusterId}/events/stream?types=server.console&serverId=${serverId}`, {
    headers: { ...owner.auth, 'Last-Event-ID': '12:x' },
  });
  t.is(refused.status, 400);
});

test.serial('GET /console: lines carry their sequence; `after` answers the lines after it, page by page', async (t) => {
  const { clusterId, serverId } = await setup();
  for (let batch = 0; batch < 10; batch++)
    app.gateway.live.console(
      clusterId,
      serverId,
      Array.from({ length: 10 }, (_, index) => `line ${batch * 10 + index}`),
      new Date().toISOString(),
    );
  const read = async (query: string) => {
    const response = await app.request(`/api/v1/servers/${serverId}/console${query}`, { headers: owner.auth });
    t.is(response.status, 200, query);
    return body(response) as Promise<{ lines: { line: string; seq: number }[]; seq: number | null; gap: boolean }>;
  };
  // The history is written before the batch goes out, on the connection the reads take: the lines are there.
  const recent = await read('?lines=100');
  t.is(recent.lines.length, 100);
  t.true(consecutive(recent.lines.map((line) => Number(line.line.split(' ')[1]))));
  t.true(recent.lines.every((line, index) => index === 0 || line.seq > recent.lines[index - 1]!.seq));
  t.is(recent.seq, recent.lines.at(-1)!.seq);
  t.false(recent.gap);

  const page = await read(`?after=${recent.lines[29]!.seq}&lines=20`);
  t.deepEqual(
    page.lines.map((line) => line.line),
    Array.from({ length: 20 }, (_, index) => `line ${30 + index}`),
  );
  const next = await read(`?after=${page.seq}`);
  t.is(next.lines[0]!.line, 'line 50');
  t.is(next.lines.length, 50);
  const none = await read(`?after=${next.seq}`);
  t.deepEqual(none, { serverId, lines: [], seq: next.seq, gap: false });

  for (const bad of ['?after=-1', '?after=abc', '?after=99999999999999999', '?after=1.5'])
    t.is((await app.request(`/api/v1/servers/${serverId}/console${bad}`, { headers: owner.auth })).status, 400, bad);
});

test.serial('a resume while the history cannot be read (Redis away) says gap, without lines, on /live and on SSE; live lines still come', async (t) => {
  const { clusterId, serverId } = await setup();
  const print = printer(clusterId, serverId);
  t.teardown(print.stop);
  await until(async () => print.printed() > 50, 'lines in the history');
  // What the history answers when Redis cannot be reached or does not answer in time (consoleHistory.ts).
  const history = app.deps.live.history;
  const since = history.since;
  history.since = async () => {
    throw serviceUnavailable('The console history is unavailable right now (Redis cannot be reached); live lines still arrive');
  };
  t.teardown(() => void (history.since = since));

  const viewer = await connectViewer(app.url, owner.accessToken);
  t.teardown(() => viewer.close());
  t.deepEqual(await viewer.request('subscribe', { serverId, console: true, after: 10 }), { ok: true });
  const target = print.printed() + 100;
  await until(async () => (received(consoleBatches(viewer).slice(1)).numbers.at(-1) ?? -1) >= target, 'live lines on /live');
  viewer.close();
  t.like(consoleBatches(viewer)[0], { replay: true, after: 10, gap: true, lines: [] });
  t.true(consecutive(received(consoleBatches(viewer).slice(1)).numbers), 'the live lines once each, in order');

  const url = `${app.url}/api/v1/clusters/${clusterId}/events/stream?types=server.console&serverId=${serverId}`;
  const stream = await openSse(url, { ...owner.auth, 'Last-Event-ID': `${'0'.repeat(16)}:10` });
  t.teardown(() => stream.close());
  const batchesOf = () => stream.frames.filter((frame) => frame.event === 'server.console').map((frame) => frame.data.data as Batch);
  const streamTarget = print.printed() + 100;
  await until(async () => (received(batchesOf().slice(1)).numbers.at(-1) ?? -1) >= streamTarget, 'live lines on the stream');
  stream.close();
  t.like(batchesOf()[0], { replay: true, after: 10, gap: true, lines: [] });
  t.true(consecutive(received(batchesOf().slice(1)).numbers), 'the live lines once each, in order');
});
