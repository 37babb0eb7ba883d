/**
 * Runs the jobs the service sends (docs/api.md and docs/servers.md and docs/agent-protocol.md) exactly once in effect over an at-least-once channel:
 * - A job id is run at most once: while it is queued or running a re-delivery is only acknowledged again, and once
 *   it finished its stored result (outbox.ts) is re-sent instead of running it again, also after an agent restart.
 * - Jobs of one server run one at a time in arrival order (one PQueue per server, concurrency 1), because power
 *   jobs must never overlap. KILL is the exception: it runs at once, aborts the running job of its server, and the
 *   next queued job of that server waits until the KILL is done.
 * - Every result is on disk before it is sent, and stays there until the service acknowledges it.
 *
 * A job that was running when the agent died has no record after the restart: it is unknown, so the service's delivery
 * retry brings it again and it runs again. That is safe because executors' actions are idempotent requests for a
 * state (START on an online server succeeds at once), and the service drops any duplicate result by job id.
 */
import { join } from 'node:path';
import PQueue from 'p-queue';
import { storableJson } from '../../schema/storable.ts';
import { readJobEvent, SAFE_JOB_ID, type AgentJobType, type JobEvent } from '../../schema/agentEvents.ts';
import { Outbox, type JobResultEvent } from './outbox.ts';

export type { JobResultEvent } from './outbox.ts';

/** The job types an agent runs: the service's, but TASK_RUN, which the orchestrator runs itself. */
export type JobType = AgentJobType;
/**
 * A job as the service sends it (`job`, schema/agentEvents.ts), with `acceptedAt`: when an agent of this machine first
 * accepted it (from the message's `acceptedAgoMs`), when the service said so, in this process's monotonic clock
 * (`performance.now()`: below 0, before this process started; no wall-clock step changes it).
 */
export type AgentJob = JobEvent & { acceptedAt?: number };

/** Thrown by executors for a FAILED result with this code (e.g. `NOT_RUNNING`); any other error is `AGENT_ERROR`. */
export class JobError extends Error {
  readonly code: string;
  /** The game's last console lines, when the game itself failed the job (it crashed, or never started). */
  readonly consoleTail: string[] | undefined;
  constructor(code: string, message: string, consoleTail?: string[]) {
    super(message);
    this.name = 'JobError';
    this.code = code;
    this.consoleTail = consoleTail;
  }
}

/** Reports how far a long job is (installs, backups): sent as `job:progress`, at most one a second. */
export type Progress = (percent: number | null, message: string) => void;

export interface JobExecutor {
  /** Does the job; should stop early when `signal` aborts (cancel, or a KILL of the same server). */
  execute(job: AgentJob, signal: AbortSignal, progress: Progress): Promise<Record<string, unknown>>;
}

/** The least time between two progress reports of one job; the last one waiting is sent when it is up. */
const PROGRESS_INTERVAL_MS = 1_000;

export interface JobRunnerOptions {
  dataDir: string;
  executor: JobExecutor;
  /** Fire and forget: the connection may be down, `resendOutbox()` after the next authentication covers that. */
  send: (event: 'job:progress' | 'job:result', data: object) => void;
  now?: () => number;
  /** Errors nobody awaits (a failed disk write, a throwing `send`); by default ignored. */
  onError?: (error: unknown) => void;
}

type Outcome = Omit<JobResultEvent, 'jobId' | 'finishedAt'>;

/** Console lines a job that the game failed carries (`error.consoleTail`). */
export const CONSOLE_TAIL_LINES = 20;
type Entry = { job: AgentJob; controller: AbortController; settled: boolean };

/** The service's schema caps these (agentEvents.ts); a longer one would be refused, and so re-sent forever. */
const failed = (code: string, message: string, consoleTail?: string[]): Outcome => ({
  status: 'FAILED',
  error: {
    code: code.slice(0, 64),
    message: message.slice(0, 2000),
    ...(consoleTail ? { consoleTail: consoleTail.slice(-CONSOLE_TAIL_LINES).map((line) => line.slice(0, 8192)) } : {}),
  },
});
const NO_SERVER = '\0none'; // queue key of jobs with serverId null: no real server id can collide with it

export class JobRunner {
  readonly #options: JobRunnerOptions;
  readonly #now: () => number;
  #outbox: Outbox | undefined;
  /** Queued or running, until their result is stored. */
  readonly #active = new Map<string, Entry>();
  readonly #queues = new Map<string, PQueue>();
  /** The job each server's queue is running now (what a KILL aborts). */
  readonly #running = new Map<string, Entry>();
  /** KILLs in progress per server: the queue waits for them before starting its next job. */
  readonly #killing = new Map<string, Promise<void>>();
  #busy = 0;
  #idleWaiters: (() => void)[] = [];
  /** Stopping (drain): no job is taken or started any more; the running ones finish and store their results. */
  #draining = false;
  /** The stop gave up waiting: what still runs ends with the process, and no result of it is stored or sent. */
  #abandoned = false;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async init(): Promise<void> {
    this.#outbox = await Outbox.open(join(this.#options.dataDir, 'jobs'), { now: this.#now });
  }

  /** Takes a `job` message as it arrived (checked here against its schema); answers the ack. */
  receive(data: unknown): { accepted: true } | { accepted: false; reason: string } {
    const outbox = this.#outbox;
    if (!outbox) return { accepted: false, reason: 'agent is starting' };
    // Checked against its schema (the id strictly: it becomes a file name), and what runs is what was parsed.
    const { job, refusal } = readJobEvent(data);
    if (refusal !== undefined) return { accepted: false, reason: refusal };
    // Stopping: only a KILL is taken (it may be what ends a job the stop waits for).
    if (this.#draining && job.type !== 'KILL') return { accepted: false, reason: 'agent is stopping' };
    if (this.#active.has(job.jobId)) return { accepted: true };
    if (outbox.has(job.jobId)) {
      this.#track(this.#resend(outbox, job.jobId));
      return { accepted: true };
    }
    const acceptedAt = typeof job.acceptedAgoMs === 'number' ? performance.now() - job.acceptedAgoMs : undefined;
    const entry: Entry = { job: acceptedAt === undefined ? job : { ...job, acceptedAt }, controller: new AbortController(), settled: false };
    this.#active.set(job.jobId, entry);
    const key = job.serverId ?? NO_SERVER;
    const queue = this.#queues.get(key) ?? this.#queues.set(key, new PQueue({ concurrency: 1 })).get(key)!;
    if (job.type === 'KILL') this.#kill(key, entry);
    else this.#track(queue.add(() => this.#lane(key, entry)));
    return { accepted: true };
  }

  /**
   * Queued: dropped with a CANCELLED result. Running: aborted, CANCELLED unless it finished first. Finished (in the
   * outbox): its stored result is sent again. Not known here at all: the service still counts it as this machine's (it
   * was accepted by an earlier agent process that stopped before running it, or it is on its way), so a CANCELLED
   * result is stored and sent; the job, should it arrive later, is answered with that result and never run.
   */
  cancel(jobId: string): void {
    const entry = this.#active.get(jobId);
    if (entry) return this.#abort(entry, 'cancelled by the service');
    const outbox = this.#outbox;
    if (!outbox || this.#abandoned || !SAFE_JOB_ID.test(jobId)) return;
    if (outbox.has(jobId)) return this.#track(this.#resend(outbox, jobId));
    this.#track(this.#store(jobId, failed('CANCELLED', 'cancelled by the service before this agent ran it')));
  }

  async acknowledge(jobId: string): Promise<void> {
    await this.#outbox?.acknowledge(jobId);
  }

  resendOutbox(): void {
    // Written by an older agent, a result may still hold what the service cannot store.
    for (const event of this.#outbox?.pending() ?? []) this.#send('job:result', storableJson(event));
  }

  idle(): Promise<void> {
    return this.#busy === 0 ? Promise.resolve() : new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * The agent is stopping: takes no more jobs and starts none of those queued (they have not run: the next agent is
   * given them again), and waits up to `timeoutMs` for the running ones to end with their results stored, so the next
   * agent answers them from its outbox instead of running them again. Answers whether every running job ended.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    this.#draining = true;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([this.idle().then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
    clearTimeout(timer);
    return ended;
  }

  /**
   * The stop waited long enough: jobs still running are torn down with the process (their helpers and RCON close
   * under them), so whatever they end with is not their result. Nothing more is stored or sent; the next agent is
   * given them again and runs them.
   */
  abandon(): void {
    this.#abandoned = true;
  }

  async #lane(key: string, entry: Entry): Promise<void> {
    for (let kill = this.#killing.get(key); kill; kill = this.#killing.get(key)) await kill;
    // Queued when the agent began to stop: left unrun and unrecorded (the service delivers it again).
    if (this.#draining && !entry.settled) {
      this.#active.delete(entry.job.jobId);
      return;
    }
    this.#running.set(key, entry);
    try {
      await this.#run(entry);
    } finally {
      this.#running.delete(key);
    }
  }

  #kill(key: string, entry: Entry): void {
    const running = this.#running.get(key);
    if (running) this.#abort(running, `aborted by KILL job ${entry.job.jobId}`);
    const done: Promise<void> = Promise.all([this.#killing.get(key), this.#run(entry)]).then(() => {
      if (this.#killing.get(key) === done) this.#killing.delete(key);
    });
    this.#killing.set(key, done);
    this.#track(done);
  }

  #abort(entry: Entry, message: string): void {
    if (entry.settled) return;
    entry.controller.abort(new JobError('CANCELLED', message));
    // Reported now rather than when the executor gives up, so a cancel answers promptly; the queue still waits for it.
    this.#track(this.#finish(entry, failed('CANCELLED', message)));
  }

  async #run(entry: Entry): Promise<void> {
    const { job, controller } = entry;
    if (entry.settled) return; // cancelled while queued
    if (!(Date.parse(job.deadline) > this.#now())) {
      return this.#finish(entry, failed('EXPIRED', `deadline ${job.deadline} passed before the job started`));
    }
    this.#send('job:progress', { jobId: job.jobId, status: 'RUNNING' });
    const progress = this.#progress(entry);
    let outcome: Outcome;
    try {
      const result = await this.#options.executor.execute(job, controller.signal, progress.report);
      outcome = { status: 'SUCCEEDED', result: result ?? {} };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcome = error instanceof JobError ? failed(error.code, message, error.consoleTail) : failed('AGENT_ERROR', message);
    }
    progress.end();
    await this.#finish(entry, outcome);
  }

  /** A job's progress reporter: the first report goes at once, later ones at most once per PROGRESS_INTERVAL_MS. */
  #progress(entry: Entry): { report: Progress; end: () => void } {
    let lastSent = 0;
    let waiting: { percent: number | null; message: string } | undefined;
    let timer: NodeJS.Timeout | undefined;
    const send = () => {
      timer = undefined;
      if (!waiting || entry.settled) return;
      const { percent, message } = waiting;
      waiting = undefined;
      lastSent = this.#now();
      const rounded = percent === null ? null : Math.round(Math.min(100, Math.max(0, percent)) * 10) / 10;
      this.#send('job:progress', storableJson({ jobId: entry.job.jobId, status: 'RUNNING', percent: rounded, message: message.slice(0, 2000) }));
    };
    return {
      report: (percent, message) => {
        waiting = { percent, message };
        if (timer) return;
        const wait = lastSent + PROGRESS_INTERVAL_MS - this.#now();
        if (wait <= 0) send();
        else timer = setTimeout(send, wait);
      },
      // The last report waiting goes before the result (the service keeps a job's progress only while it runs).
      end: () => {
        clearTimeout(timer);
        send();
      },
    };
  }

  /** Stores then sends the result, once per job whichever of executor, cancel or KILL gets here first. */
  async #finish(entry: Entry, outcome: Outcome): Promise<void> {
    if (entry.settled) return;
    entry.settled = true;
    if (this.#abandoned) return;
    await this.#store(entry.job.jobId, outcome);
  }

  async #store(jobId: string, outcome: Outcome): Promise<void> {
    // Game output is free text: a NUL or half a surrogate pair in it would make the service refuse the result, and the
    // outbox would send it again after every reconnect. Made storable before it is written (the service does too).
    const event: JobResultEvent = storableJson({ jobId, ...outcome, finishedAt: new Date(this.#now()).toISOString() });
    try {
      await this.#outbox!.put(event);
    } catch (error) {
      this.#options.onError?.(error); // still pending in memory: sent now and re-sent while this process lives
    }
    // Removed from #active only now, so a re-delivery always finds the job either active or in the outbox.
    this.#active.delete(jobId);
    this.#send('job:result', event);
  }

  async #resend(outbox: Outbox, jobId: string): Promise<void> {
    const stored = await outbox.get(jobId);
    // The record exists but its file is unreadable: say so rather than leave the service waiting, and never re-run.
    const lost = failed('RESULT_LOST', 'the job already ran; its stored result is unreadable');
    this.#send('job:result', storableJson(stored ?? { jobId, ...lost, finishedAt: new Date(this.#now()).toISOString() }));
  }

  #send(event: 'job:progress' | 'job:result', data: object): void {
    try {
      this.#options.send(event, data);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  /** Counts work in flight for idle(); nothing tracked may leave an unhandled rejection. */
  #track(work: Promise<unknown>): void {
    this.#busy++;
    work
      .catch((error) => this.#options.onError?.(error))
      .finally(() => {
        if (--this.#busy === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
      });
  }
}
