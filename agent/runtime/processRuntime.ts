/**
 * Game servers as child processes (docs/agent.md). The agent talks to a `Runtime` so a container runtime could stand in
 * later; this one spawns each server detached, in its own process group, and signals the whole group: game servers
 * often start through wrapper scripts or fork helpers, and signalling only the leader would leave orphans holding the
 * game's ports, making the next start fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment; nothing is inherited from the agent (see buildLaunch). */
  env: Record<string, string>;
}

export interface ExitInfo {
  exitCode: number | null;
  signal: string | null;
  at: string;
}

/** How stop() ended it: on its own after the graceful step, or by the escalation signal. */
export interface StopInfo extends ExitInfo {
  stoppedBy: 'graceful' | 'SIGTERM' | 'SIGKILL';
}

export interface StopOptions {
  /** E.g. the adapter sending `stop`; not awaited before the timers start, so a hung RCON call cannot stall stop. */
  graceful?: () => Promise<void> | void;
  /** From the start of stop() to SIGTERM. */
  termAfterMs: number;
  /** From the start of stop() (not from SIGTERM) to SIGKILL. */
  killAfterMs: number;
}

export interface ProcessState {
  pid: number;
  running: boolean;
  startedAt: string;
  exitCode: number | null;
  signal: string | null;
}

type Events = { line: [stream: 'stdout' | 'stderr', line: string]; exit: [info: ExitInfo] };

export interface RunningProcess {
  readonly pid: number;
  /** Writes `line` and a newline to stdin (how Minecraft-style servers take console commands). */
  write(line: string): void;
  stop(options: StopOptions): Promise<StopInfo>;
  kill(): Promise<ExitInfo>;
  wait(): Promise<ExitInfo>;
  inspect(): ProcessState;
  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this;
  off<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this;
}

export interface Runtime {
  start(spec: LaunchSpec): Promise<RunningProcess>;
}

/** Longest line kept from a process; the rest up to its newline is dropped, so a newline-less flood is bounded. */
const MAX_LINE_CHARS = 64 * 1024;
/** After the leader exits, how long to let the pipes drain (a surviving grandchild may hold them open). */
const DRAIN_MS = 200;

class ChildProcessHandle extends EventEmitter<Events> implements RunningProcess {
  readonly pid: number;
  readonly #child: ChildProcess;
  readonly #startedAt = new Date().toISOString();
  /** Set as soon as the leader exits; #settled only once its output is drained and wait() resolved. */
  #exitedAt: string | undefined;
  #settled = false;
  readonly #exited: Promise<ExitInfo>;
  #stopping: Promise<StopInfo> | undefined;
  /** The strongest signal this handle sent, so stop() can say what ended the process. */
  #escalation: StopInfo['stoppedBy'] = 'graceful';

  constructor(child: ChildProcess) {
    super();
    this.#child = child;
    this.pid = child.pid!;
    child.stdin!.on('error', () => undefined); // EPIPE when writing to a process that just died
    const drained = [this.#readLines(child.stdout!, 'stdout'), this.#readLines(child.stderr!, 'stderr')];
    this.#exited = new Promise((resolve) => {
      child.once('exit', (exitCode, signal) => {
        this.#exitedAt = new Date().toISOString();
        // Whatever the leader left behind in its group goes too, even if it ignored SIGTERM.
        this.#signalGroup('SIGKILL');
        const info: ExitInfo = { exitCode, signal, at: this.#exitedAt };
        const settle = () => {
          if (this.#settled) return;
          this.#settled = true;
          this.emit('exit', info);
          resolve(info);
        };
        // Wait for the last lines so wait() callers see all output; bounded in case the pipes stay open.
        void Promise.all(drained).then(settle);
        setTimeout(settle, DRAIN_MS).unref();
      });
    });
  }

  #readLines(stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr'): Promise<void> {
    const decoder = new StringDecoder('utf8'); // a multi-byte character may straddle two chunks
    let pending = '';
    let dropping = false;
    const emitLine = (line: string) => this.emit('line', name, line.endsWith('\r') ? line.slice(0, -1) : line);
    stream.on('data', (chunk: Buffer) => {
      const parts = (pending + decoder.write(chunk)).split('\n');
      pending = parts.pop()!;
      for (const part of parts) {
        if (!dropping) emitLine(part);
        dropping = false;
      }
      if (pending.length > MAX_LINE_CHARS) {
        if (!dropping) emitLine(pending.slice(0, MAX_LINE_CHARS));
        pending = '';
        dropping = true;
      }
    });
    return new Promise((resolve) => {
      const end = () => {
        pending += decoder.end();
        if (pending !== '' && !dropping) emitLine(pending);
        pending = '';
        resolve();
      };
      stream.once('end', end);
      stream.once('error', end);
    });
  }

  /** Signals sent to end a running process; remembered for stop()'s answer. */
  #escalate(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.#exitedAt !== undefined) return;
    if (this.#escalation !== 'SIGKILL') this.#escalation = signal;
    this.#signalGroup(signal);
  }

  #signalGroup(signal: NodeJS.Signals): void {
    try {
      // A negative pid addresses the process group, which detached spawn made the child lead.
      process.kill(process.platform === 'win32' ? this.pid : -this.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  write(line: string): void {
    if (this.#exitedAt !== undefined || !this.#child.stdin!.writable) {
      throw new Error(`process ${this.pid} is not running`);
    }
    this.#child.stdin!.write(`${line}\n`);
  }

  wait(): Promise<ExitInfo> {
    return this.#exited;
  }

  kill(): Promise<ExitInfo> {
    this.#escalate('SIGKILL');
    return this.#exited;
  }

  stop(options: StopOptions): Promise<StopInfo> {
    // Two STOP requests racing share one escalation instead of doubling the signals.
    this.#stopping ??= this.#runStop(options);
    return this.#stopping;
  }

  async #runStop({ graceful, termAfterMs, killAfterMs }: StopOptions): Promise<StopInfo> {
    const timers = [setTimeout(() => this.#escalate('SIGTERM'), termAfterMs), setTimeout(() => this.#escalate('SIGKILL'), Math.max(killAfterMs, termAfterMs))];
    if (graceful && this.#exitedAt === undefined) {
      // A failing graceful step (RCON refused) only means the signals do the work.
      Promise.resolve()
        .then(graceful)
        .catch(() => undefined);
    }
    const info = await this.#exited;
    for (const timer of timers) clearTimeout(timer);
    return { ...info, stoppedBy: this.#escalation };
  }

  inspect(): ProcessState {
    return {
      pid: this.pid,
      running: this.#exitedAt === undefined,
      startedAt: this.#startedAt,
      exitCode: this.#child.exitCode,
      signal: this.#child.signalCode,
    };
  }
}

/** The child-process runtime. start() rejects with a readable message instead of emitting an unhandled 'error'. */
export class ProcessRuntime implements Runtime {
  async start(spec: LaunchSpec): Promise<RunningProcess> {
    // spawn reports a missing cwd as ENOENT for the command, which would blame the wrong thing.
    const cwd = await stat(spec.cwd).catch(() => undefined);
    if (!cwd?.isDirectory()) throw new Error(`working directory not found: ${spec.cwd}`);

    let child: ChildProcess;
    try {
      child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: 'pipe' });
    } catch (error) {
      throw new Error(`cannot start ${spec.command}: ${(error as Error).message}`, { cause: error }); // e.g. a NUL in an argument
    }
    if (child.pid === undefined) {
      // Spawning failed; the reason follows as an 'error' event on the next tick.
      const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
      const reason =
        error.code === 'ENOENT'
          ? 'command not found'
          : error.code === 'EACCES'
            ? 'command not executable (permission denied)'
            : `cannot start (${error.message})`;
      throw new Error(`${reason}: ${spec.command}`);
    }
    child.on('error', () => undefined); // later errors (a failed kill) must not crash the agent
    // No await between spawning and the handle's listeners on output and exit: a game may print its ready line, or
    // exit, at once, and whoever calls start() attaches its own listeners before any of that is delivered.
    return new ChildProcessHandle(child);
  }
}
