import test, { type ExecutionContext } from 'ava';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobError, JobRunner, type AgentJob, type JobExecutor, type JobType } from '../../agent/jobs/jobRunner.ts';
import { Outbox } from '../../agent/jobs/outbox.ts';

/**
 * Job ids are the service's UUIDs (the agent refuses any other id): each name a test uses stands for one UUID, `id(name)`,
 * read back as the name by `nameOf` so that logs and orders stay legible.
 */
const uuids = new Map<string, string>();
const names = new Map<string, string>();
const id = (name: string): string => {
  if (!uuids.has(name)) {
    const uuid = randomUUID();
    uuids.set(name, uuid);
    names.set(uuid, name);
  }
  return uuids.get(name)!;
};
const nameOf = (jobId: unknown): string => names.get(String(jobId)) ?? String(jobId);

/**
 * A test double of the executor (our own interface). What a job does comes from `params.act`: 'ok' returns at once,
 * 'wait' until `release(jobId)`, 'hang' until its signal aborts, 'jobError' / 'crash' throw. `log` records starts and
 * ends (by name), which also shows whether two jobs ever overlapped; `jobs` keeps each job as the executor got it.
 */
class FakeExecutor implements JobExecutor {
  readonly log: string[] = [];
  readonly signals = new Map<string, AbortSignal>();
  readonly jobs = new Map<string, AgentJob>();
  readonly #gates = new Map<string, PromiseWithResolvers<void>>();
  #gate = (name: string) => this.#gates.get(name) ?? this.#gates.set(name, Promise.withResolvers<void>()).get(name)!;
  started = (jobId: string) => this.#gate(`started ${jobId}`).promise;
  release = (jobId: string) => this.#gate(`release ${jobId}`).resolve();
  runs = (jobId: string) => this.log.filter((line) => line === `start ${jobId}`).length;

  async execute(job: AgentJob, signal: AbortSignal): Promise<Record<string, unknown>> {
    const name = nameOf(job.jobId);
    this.log.push(`start ${name}`);
    this.signals.set(name, signal);
    this.jobs.set(name, job);
    this.#gate(`started ${name}`).resolve();
    try {
      if (job.params.act === 'wait') await this.#gate(`release ${name}`).promise;
      if (job.params.act === 'hang') await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      if (job.params.act === 'jobError') throw new JobError('NOT_RUNNING', 'server is not running');
      if (job.params.act === 'crash') throw new TypeError('boom');
      if (job.params.act === 'nul') return { output: 'a\u0000b \ud800', 'key\u0000': 1 };
      if (job.params.act === 'nulError') throw new JobError('RCON_FAILED', 'lost\u0000 \udfff');
      return { ran: job.jobId };
    } finally {
      this.log.push(`end ${name}`);
    }
  }
}

type Sent = { event: string; data: Record<string, unknown> };

async function setup(t: ExecutionContext, dataDir?: string, now?: () => number) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'gsm-jobs-')));
  if (!dataDir) t.teardown(() => rm(dir, { recursive: true, force: true }));
  const executor = new FakeExecutor();
  const sent: Sent[] = [];
  const send = (event: string, data: object) => sent.push({ event, data: data as Record<string, unknown> });
  const runner = new JobRunner({ dataDir: dir, executor, send, now });
  await runner.init();
  const results = (name?: string) => sent.filter((s) => s.event === 'job:result' && (!name || s.data.jobId === id(name))).map((s) => s.data);
  return { dir, executor, sent, runner, results };
}

const HOUR = 3600_000;
const job = (name: string, serverId: string | null, act = 'ok', type: JobType = 'RESTART', deadline = new Date(Date.now() + HOUR)) =>
  ({ jobId: id(name), type, serverId, params: { act }, deadline: deadline.toISOString() }) satisfies AgentJob;

test('jobs of one server run one at a time in arrival order, each reported RUNNING then with its result', async (t) => {
  const { executor, runner, sent } = await setup(t);
  for (const id of ['a', 'b', 'c']) t.deepEqual(runner.receive(job(id, 's1', 'wait')), { accepted: true });
  await executor.started('a');
  t.deepEqual(executor.log, ['start a']);
  executor.release('a');
  await executor.started('b');
  executor.release('b');
  executor.release('c');
  await runner.idle();
  t.deepEqual(executor.log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  const events = sent.map((s) => `${s.event.slice(4)} ${nameOf(s.data.jobId)}`);
  t.deepEqual(events, ['progress a', 'result a', 'progress b', 'result b', 'progress c', 'result c']);
  t.deepEqual(sent[0].data, { jobId: id('a'), status: 'RUNNING' });
  t.like(sent[1].data, { jobId: id('a'), status: 'SUCCEEDED', result: { ran: id('a') } });
  t.false('error' in sent[1].data);
  t.true(Number.isFinite(Date.parse(sent[1].data.finishedAt as string)));
});

test('two servers run in parallel; jobs without a server have their own queue', async (t) => {
  const { executor, runner, results } = await setup(t);
  runner.receive(job('a', 's1', 'wait'));
  runner.receive(job('b', 's2', 'wait'));
  runner.receive(job('c', null, 'wait'));
  await Promise.all([executor.started('a'), executor.started('b'), executor.started('c')]);
  for (const id of ['a', 'b', 'c']) executor.release(id);
  await runner.idle();
  t.is(results().length, 3);
});

test('drain (the agent stopping): the running job ends and stores its result, a queued one is not started, a new one is refused', async (t) => {
  const { dir, executor, runner, results } = await setup(t);
  runner.receive(job('running', 's1', 'wait'));
  runner.receive(job('queued', 's1', 'ok'));
  await executor.started('running');
  const drained = runner.drain(10_000);
  t.like(runner.receive(job('late', 's2', 'ok')), { accepted: false, reason: 'agent is stopping' });
  executor.release('running');
  t.true(await drained);
  t.deepEqual(executor.log, ['start running', 'end running']);
  t.like(results('running')[0], { status: 'SUCCEEDED' });
  t.is(results('queued').length, 0, 'the queued job neither ran nor has a result');
  // The next agent (same data directory) answers the finished job from its outbox and runs the queued one.
  const next = await setup(t, dir);
  t.deepEqual(next.runner.receive(job('running', 's1', 'wait')), { accepted: true });
  t.deepEqual(next.runner.receive(job('queued', 's1', 'ok')), { accepted: true });
  await next.runner.idle();
  t.deepEqual(next.executor.log, ['start queued', 'end queued']);
  t.like(next.results('running')[0], { status: 'SUCCEEDED' });
});

test('drain gives up after its time-out while a job still runs; abandoned, what it ends with is neither stored nor sent', async (t) => {
  const { dir, executor, runner, results } = await setup(t);
  runner.receive(job('slow', 's1', 'hang'));
  await executor.started('slow');
  t.false(await runner.drain(50));
  runner.abandon();
  // The process tears down under it (here: a KILL, taken while stopping, aborts it).
  t.deepEqual(runner.receive(job('kill', 's1', 'ok', 'KILL')), { accepted: true });
  await runner.idle();
  t.is(results('slow').length, 0);
  const next = await setup(t, dir);
  next.runner.receive(job('slow', 's1', 'ok'));
  await next.runner.idle();
  t.deepEqual(next.executor.log, ['start slow', 'end slow'], 'the next agent runs it again');
});

test('while draining, a KILL is taken and aborts the job the stop waits for', async (t) => {
  const { executor, runner, results } = await setup(t);
  runner.receive(job('stuck', 's1', 'hang'));
  await executor.started('stuck');
  const drained = runner.drain(10_000);
  t.deepEqual(runner.receive(job('kill', 's1', 'ok', 'KILL')), { accepted: true });
  t.true(await drained);
  t.like(results('stuck')[0], { status: 'FAILED', error: { code: 'CANCELLED' } });
  t.like(results('kill')[0], { status: 'SUCCEEDED' });
});

test('a duplicate delivery while queued or running is accepted and runs once', async (t) => {
  const { executor, runner, results } = await setup(t);
  runner.receive(job('a', 's1', 'wait'));
  runner.receive(job('b', 's1', 'ok'));
  await executor.started('a');
  t.deepEqual(runner.receive(job('a', 's1', 'wait')), { accepted: true }); // running
  t.deepEqual(runner.receive(job('b', 's1', 'ok')), { accepted: true }); // queued
  executor.release('a');
  await runner.idle();
  t.deepEqual([executor.runs('a'), executor.runs('b'), results('a').length, results('b').length], [1, 1, 1, 1]);
});

test('a duplicate after finishing re-sends the stored result without running, before and after acknowledge', async (t) => {
  const { executor, runner, results } = await setup(t);
  runner.receive(job('a', 's1', 'jobError'));
  await runner.idle();
  const [first] = results('a');
  t.deepEqual(runner.receive(job('a', 's1', 'jobError')), { accepted: true });
  await runner.idle();
  await runner.acknowledge(id('a'));
  t.deepEqual(runner.receive(job('a', 's1', 'jobError')), { accepted: true });
  await runner.idle();
  t.is(executor.runs('a'), 1);
  t.deepEqual(results('a'), [first, first, first]);
});

test('KILL jumps the queue, aborts the running job, and the next job waits for the KILL', async (t) => {
  const { executor, runner, results } = await setup(t);
  runner.receive(job('stop', 's1', 'hang', 'STOP'));
  runner.receive(job('start', 's1', 'ok', 'START'));
  runner.receive(job('other', 's2', 'wait'));
  await executor.started('stop');
  runner.receive(job('kill', 's1', 'wait', 'KILL'));
  await executor.started('kill');
  t.true(executor.signals.get('stop')!.aborted);
  t.false(executor.signals.get('other')?.aborted ?? false, 'another server is not touched');
  t.is(executor.runs('start'), 0, 'the queued job waits for the KILL');
  executor.release('kill');
  executor.release('other');
  await runner.idle();
  t.like(results('stop')[0], { status: 'FAILED', error: { code: 'CANCELLED' } });
  t.like(results('kill')[0], { status: 'SUCCEEDED' });
  t.like(results('start')[0], { status: 'SUCCEEDED' });
  t.true(executor.log.indexOf('start start') > executor.log.indexOf('end kill'));
});

test('cancel: a queued job is dropped, a running one aborted, a finished one unchanged', async (t) => {
  const { executor, runner, results } = await setup(t);
  runner.receive(job('running', 's1', 'hang'));
  runner.receive(job('queued', 's1', 'ok'));
  runner.receive(job('done', 's2', 'ok'));
  await executor.started('running');
  runner.cancel(id('queued'));
  runner.cancel(id('running'));
  runner.cancel(id('unknown'));
  await runner.idle();
  runner.cancel(id('done'));
  await runner.idle();
  t.true(executor.signals.get('running')!.aborted);
  t.is(executor.runs('queued'), 0);
  t.like(results('running'), [{ status: 'FAILED', error: { code: 'CANCELLED' } }]);
  t.like(results('queued'), [{ status: 'FAILED', error: { code: 'CANCELLED' } }]);
  // A finished job's cancel sends its stored result again (the service still waited for it): never CANCELLED.
  t.is(results('done').length, 2);
  t.true(results('done').every((result) => result.status === 'SUCCEEDED'));
  // A job this agent never had: the service counts it as this machine's, so it is answered CANCELLED, not ignored.
  t.like(results('unknown'), [{ status: 'FAILED', error: { code: 'CANCELLED' } }]);
  t.is(executor.runs('unknown'), 0);
});

test('a job cancelled while its agent was away (accepted by the process before, never run) ends CANCELLED and never runs', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-jobs-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // The process before accepted it and stopped without running it; the service sends the new one only the cancel.
  const { executor, runner, results } = await setup(t, dir);
  runner.cancel(id('accepted-before'));
  await runner.idle();
  t.like(results('accepted-before'), [{ status: 'FAILED', error: { code: 'CANCELLED' } }]);
  // Should the job itself come (its cancel overtook it), it is answered from disk and not run: also after a restart.
  t.deepEqual(runner.receive(job('accepted-before', 's1', 'ok')), { accepted: true });
  await runner.idle();
  const again = await setup(t, dir);
  t.deepEqual(again.runner.receive(job('accepted-before', 's1', 'ok')), { accepted: true });
  await again.runner.idle();
  t.is(executor.runs('accepted-before') + again.executor.runs('accepted-before'), 0);
  t.like(results('accepted-before'), [{ error: { code: 'CANCELLED' } }, { error: { code: 'CANCELLED' } }]);
  t.like(again.results('accepted-before'), [{ error: { code: 'CANCELLED' } }]);
  // An id that could not be a file name is ignored.
  runner.cancel('../../etc/passwd');
  await runner.idle();
  t.deepEqual(await readdir(join(dir, 'jobs', 'outbox')).then((names) => names.filter((name) => !name.startsWith(id('accepted-before')))), []);
});

test('a job past its deadline when it would start fails EXPIRED without running', async (t) => {
  let clock = Date.now();
  const { executor, runner, results } = await setup(t, undefined, () => clock);
  runner.receive(job('late', 's1', 'ok', 'START', new Date(clock - 1)));
  runner.receive(job('a', 's2', 'wait'));
  runner.receive(job('b', 's2', 'ok', 'START', new Date(clock + 1_000))); // expires while it waits its turn
  await executor.started('a');
  clock += 2_000;
  executor.release('a');
  await runner.idle();
  t.is(executor.runs('late') + executor.runs('b'), 0);
  t.like(results('late'), [{ status: 'FAILED', error: { code: 'EXPIRED' } }]);
  t.like(results('b'), [{ status: 'FAILED', error: { code: 'EXPIRED' } }]);
  t.like(results('a'), [{ status: 'SUCCEEDED' }]);
});

test('JobError fails with its code, any other exception with AGENT_ERROR', async (t) => {
  const { runner, results } = await setup(t);
  runner.receive(job('a', 's1', 'jobError'));
  runner.receive(job('b', 's1', 'crash'));
  await runner.idle();
  t.deepEqual(results('a')[0].error, { code: 'NOT_RUNNING', message: 'server is not running' });
  t.deepEqual(results('b')[0].error, { code: 'AGENT_ERROR', message: 'boom' });
  t.false('result' in results('a')[0]);
});

test('malformed jobs are refused, and nothing is accepted before init', async (t) => {
  const { dir, runner, executor } = await setup(t);
  t.deepEqual(runner.receive({ ...job('../../evil', 's1'), jobId: '../../evil' }), { accepted: false, reason: 'invalid jobId' });
  t.like(runner.receive({ ...job('x', 's1'), type: 'TASK_RUN' as JobType }), { accepted: false });
  t.like(runner.receive({ ...job('y', 's1'), deadline: 'soon' }), { accepted: false });
  const early = new JobRunner({ dataDir: dir, executor, send: () => undefined });
  t.like(early.receive(job('z', 's1')), { accepted: false });
  await runner.idle();
  t.deepEqual(executor.log, []);
});

test('a job message is checked against its one schema (schema/agentEvents.ts jobEvent): the refusal names the first wrong field', async (t) => {
  const { runner, executor } = await setup(t);
  const refused = (data: unknown) => runner.receive(data);
  t.deepEqual(refused({ ...job('t', 's1'), type: 'TELEPORT' }), { accepted: false, reason: 'unsupported job type TELEPORT' });
  t.deepEqual(refused({ ...job('t', 's1'), type: 'TASK_RUN' }), { accepted: false, reason: 'unsupported job type TASK_RUN' });
  t.deepEqual(refused({ ...job('s', 's1'), serverId: 7 }), { accepted: false, reason: 'invalid serverId' });
  t.deepEqual(refused({ ...job('p', 's1'), params: null }), { accepted: false, reason: 'invalid params' });
  t.deepEqual(refused({ ...job('d', 's1'), deadline: 'soon' }), { accepted: false, reason: 'invalid deadline' });
  t.deepEqual(refused({ ...job('x', 's1'), jobId: 'x'.repeat(129) }), { accepted: false, reason: 'invalid jobId' });
  // Only the service's UUIDs: the agent's job:progress and job:result carry the id back, and those need a UUID (a job
  // taken under another id would leave its result in the outbox for ever).
  t.deepEqual(refused({ ...job('n', 's1'), jobId: 'not-a-uuid' }), { accepted: false, reason: 'invalid jobId' });
  t.deepEqual(refused({ ...job('n', 's1'), jobId: 'job_1' }), { accepted: false, reason: 'invalid jobId' });
  t.deepEqual(refused(null), { accepted: false, reason: 'invalid job' });
  t.deepEqual(refused('a job'), { accepted: false, reason: 'invalid job' });
  // The service's own message: a UUID, a null server (none needed), an ISO deadline.
  t.deepEqual(refused({ ...job('ban', null, 'ok', 'BAN'), jobId: '0196a1f2-7c3e-7d4a-9b1c-2d3e4f5a6b7c' }), { accepted: true });
  await runner.idle();
  t.deepEqual(executor.log, ['start 0196a1f2-7c3e-7d4a-9b1c-2d3e4f5a6b7c', 'end 0196a1f2-7c3e-7d4a-9b1c-2d3e4f5a6b7c']);
});

test('what runs is the job message as parsed: a field the schema does not know never reaches the executor', async (t) => {
  const { runner, executor } = await setup(t);
  const sent = { ...job('parsed', 's1', 'ok', 'START'), extra: 'not in the job message' };
  t.deepEqual(runner.receive(sent), { accepted: true });
  await runner.idle();
  const { extra, ...message } = sent;
  t.is(extra, 'not in the job message');
  t.deepEqual(executor.jobs.get('parsed'), message);
  t.false('extra' in executor.jobs.get('parsed')!);
});

test('the outbox survives a restart and is re-sent, oldest first, until acknowledged', async (t) => {
  const frozen = Date.now(); // every finishedAt ties: the order must come from the outbox itself, not from the clock
  const first = await setup(t, undefined, () => frozen);
  for (const id of ['z', 'b', 'a']) first.runner.receive(job(id, 's1', id === 'b' ? 'crash' : 'ok'));
  await first.runner.idle();
  await first.runner.acknowledge(id('b'));
  await first.runner.acknowledge(id('b')); // duplicate acks are harmless

  const second = await setup(t, first.dir);
  second.runner.resendOutbox();
  second.runner.resendOutbox();
  t.deepEqual(
    second.results().map((r) => nameOf(r.jobId)),
    ['z', 'a', 'z', 'a'],
  );
  t.deepEqual(second.results('a')[0], first.results('a')[0]);
  await second.runner.acknowledge(id('a'));
  await second.runner.acknowledge(id('z'));
  second.runner.resendOutbox();
  t.is(second.results().length, 4);
  t.deepEqual(await readdir(join(first.dir, 'jobs', 'outbox')), []);
});

test('finished job ids survive a restart: a re-delivery re-sends the stored result and does not run', async (t) => {
  const first = await setup(t);
  first.runner.receive(job('acked', 's1', 'ok'));
  first.runner.receive(job('unacked', 's1', 'jobError'));
  await first.runner.idle();
  await first.runner.acknowledge(id('acked'));

  const second = await setup(t, first.dir);
  second.runner.receive(job('acked', 's1', 'ok'));
  second.runner.receive(job('unacked', 's1', 'jobError'));
  await second.runner.idle();
  t.deepEqual(second.executor.log, []);
  t.deepEqual(second.results('acked'), first.results('acked'));
  t.deepEqual(second.results('unacked'), first.results('unacked'));
});

test('results are written atomically; a .tmp left by a crash mid-write is removed and ignored', async (t) => {
  const first = await setup(t);
  first.runner.receive(job('a', 's1'));
  first.runner.receive(job('b', 's1'));
  await first.runner.idle();
  await first.runner.acknowledge(id('b'));
  for (const sub of ['outbox', 'done']) {
    for (const name of await readdir(join(first.dir, 'jobs', sub))) {
      t.true([`${id('a')}.json`, `${id('b')}.json`].includes(name), name);
      const text = await readFile(join(first.dir, 'jobs', sub, name), 'utf8');
      t.like(JSON.parse(text), { event: { jobId: name.slice(0, -'.json'.length) } });
    }
  }
  // A crash between writing the temp file and renaming it: the partial result was never sent.
  await writeFile(join(first.dir, 'jobs', 'outbox', `${id('c')}.json.tmp`), `{"jobId":"${id('c')}","sta`);
  const second = await setup(t, first.dir);
  t.deepEqual(await readdir(join(first.dir, 'jobs', 'outbox')), [`${id('a')}.json`]);
  second.runner.resendOutbox();
  t.deepEqual(
    second.results().map((r) => nameOf(r.jobId)),
    ['a'],
  );
  second.runner.receive(job('c', 's1')); // unknown, so the service's re-delivery runs it
  await second.runner.idle();
  t.is(second.executor.runs('c'), 1);
});

test('acknowledged records are pruned only when older than the retention and beyond the newest entries', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-outbox-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const outbox = await Outbox.open(dir, { now: () => clock, keepMs: HOUR, keepEntries: 2 });
  for (const id of ['a', 'b', 'c', 'd']) {
    await outbox.put({ jobId: id, status: 'SUCCEEDED', result: {}, finishedAt: new Date(clock).toISOString() });
    await outbox.acknowledge(id);
    clock += 1_000;
  }
  t.true(
    ['a', 'b', 'c', 'd'].every((id) => outbox.has(id)),
    'all younger than keepMs',
  );
  clock += 2 * HOUR;
  const reopened = await Outbox.open(dir, { now: () => clock, keepMs: HOUR, keepEntries: 2 });
  t.deepEqual(
    ['a', 'b', 'c', 'd'].map((id) => reopened.has(id)),
    [false, false, true, true],
  );
  t.deepEqual((await readdir(join(dir, 'done'))).sort(), ['c.json', 'd.json']);
  t.like(await reopened.get('d'), { jobId: 'd', status: 'SUCCEEDED' });
});

test('game output Postgres cannot store (NUL, lone surrogates) is made storable before it enters the outbox', async (t) => {
  const { dir, runner, results } = await setup(t);
  runner.receive(job('nul', 's1', 'nul', 'RCON'));
  runner.receive(job('nulError', 's2', 'nulError', 'RCON'));
  await runner.idle();
  t.like(results('nul')[0], { status: 'SUCCEEDED', result: { output: 'ab \ufffd', key: 1 } });
  t.like(results('nulError')[0], { status: 'FAILED', error: { code: 'RCON_FAILED', message: 'lost \ufffd' } });
  // What is on disk (and so re-sent after every reconnect) is the storable text too.
  for (const name of await readdir(join(dir, 'jobs', 'outbox'))) {
    const text = await readFile(join(dir, 'jobs', 'outbox', name), 'utf8');
    t.false(/\\u0000|\\ud[89a-f]/i.test(text), name);
  }
});

test('job results are root’s alone: jobs/ and its folders 0700, result files 0600, also fixed on an existing installation', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-jobs-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // As an earlier agent left it: folders and files readable by every local account.
  await mkdir(join(dir, 'jobs', 'outbox'), { recursive: true, mode: 0o755 });
  await mkdir(join(dir, 'jobs', 'done'), { recursive: true, mode: 0o755 });
  const old = { seq: 1, event: { jobId: id('old'), status: 'SUCCEEDED', result: {}, finishedAt: new Date().toISOString() } };
  await writeFile(join(dir, 'jobs', 'outbox', `${id('old')}.json`), JSON.stringify(old), { mode: 0o644 });
  await chmod(join(dir, 'jobs'), 0o755);
  const { runner } = await setup(t, dir);
  runner.receive(job('new', 's1'));
  await runner.idle();
  const mode = async (path: string) => (await stat(join(dir, 'jobs', path))).mode & 0o777;
  t.is(await mode('.'), 0o700);
  t.is(await mode('outbox'), 0o700);
  t.is(await mode('done'), 0o700);
  t.is(await mode(`outbox/${id('old')}.json`), 0o600);
  t.is(await mode(`outbox/${id('new')}.json`), 0o600);
});
