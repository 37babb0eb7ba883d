/**
 * Game servers as processes that outlive the agent (docs/agent.md). The agent talks to a `Runtime` so a container
 * runtime could stand in later. This one spawns each server detached, in its own process group, and signals the whole
 * group: game servers often start through wrapper scripts or fork helpers, and signalling only the leader would leave
 * orphans holding the game's ports.
 *
 * Nothing ties a game to the agent's own lifetime, so an agent restart (a crash, SIGKILL, an upgrade) never stops it:
 * - its standard input is a named pipe (`<runDir>/stdin`) that the game holds open for reading and writing, so it never
 *   sees end-of-file while no agent writes; any agent opens the pipe to send console commands;
 * - its standard output and error go to a spool file (`<runDir>/output`) that the agent tails; once it has read 1 MiB
 *   more, a hole is punched over what it read (the file keeps its size, the game writes with O_APPEND at its end, and
 *   nothing is lost), or where holes cannot be punched the spool is truncated;
 * - `<runDir>/process.json` names the process by pid, kernel start time and boot id, so the next agent re-adopts it
 *   (`adopt`) and never mistakes a reused pid for it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  read,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
  writeSync,
  type FSWatcher,
} from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';

import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment; nothing is inherited from the agent (see buildLaunch). */
  env: Record<string, string>;
  /** Where the process's pipe, output spool and identity live (the agent's, not the game's); a temporary one if absent. */
  runDir?: string;
  /** Run as this user and group (the agent runs as root); the agent's own otherwise. */
  user?: { uid: number; gid: number };
  /** A cgroup v2 directory the process joins before any of its own code runs (limits, see cgroups.ts). */
  cgroup?: string;
  /** `user` is the server's alone: once it ends, every process of that account ends too (one that left the group too). */
  ownAccount?: boolean;
}

export interface ExitInfo {
  /** null when killed by a signal, or when the process was adopted from an earlier agent (its exit code is unknowable). */
  exitCode: number | null;
  signal: string | null;
  at: string;
  /** The process was adopted: it ended, but how is not known. */
  adopted?: boolean;
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

/**
 * `line`: a line the process wrote. `notice`: a line of the agent's own about the process (`[gsm] …`), for the console
 * and the output log only: it is not the game's output, so readiness patterns, player parsers and stdin answers never
 * read it (a game line handler must not be fooled by the agent's words).
 */
type Events = { line: [stream: 'stdout' | 'stderr', line: string]; notice: [line: string]; exit: [info: ExitInfo] };

export interface RunningProcess {
  readonly pid: number;
  /** Where its pipe, spool and identity live. */
  readonly runDir: string;
  /** Set when this process was started by an earlier agent and adopted by this one. */
  readonly adopted: boolean;
  /** Writes `line` and a newline to stdin (how Minecraft-style servers take console commands). */
  write(line: string): void;
  stop(options: StopOptions): Promise<StopInfo>;
  /** Sends `signal` to its process group (a CUSTOM server's own stop signal); nothing once it has ended. */
  signal(signal: NodeJS.Signals): void;
  kill(): Promise<ExitInfo>;
  wait(): Promise<ExitInfo>;
  inspect(): ProcessState;
  /**
   * How long ago the process started, by the time since boot (the kernel's start time of the process against
   * /proc/uptime: no wall-clock step changes it); undefined when it is not running or that is not known.
   */
  ageMs?(): number | undefined;
  /** Starts delivering output lines (call after attaching `line` listeners; an adopted process waits for it). */
  resume(): void;
  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this;
  off<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this;
}

export interface Runtime {
  start(spec: LaunchSpec): Promise<RunningProcess>;
}

/** Longest line kept from a process; the rest up to its newline is dropped, so a newline-less flood is bounded. */
const MAX_LINE_CHARS = 64 * 1024;
/** What the agent has read of the spool is freed each time it has read this much more. */
const SPOOL_FREE_BYTES = 1024 * 1024;
/** Failed punches in a row after which a spool is truncated instead (no fallocate, a filesystem without holes). */
const PUNCH_ATTEMPTS = 3;
/** After a failed punch, the next try waits this long. */
const PUNCH_RETRY_MS = 10_000;
/** A punch that takes longer (a frozen filesystem) is killed and counts as failed. */
const PUNCH_TIMEOUT_MS = 30_000;
/** Bytes read from the spool per read call. */
const READ_CHUNK_BYTES = 64 * 1024;
/** Reading is triggered by file-change notifications; this poll is the fallback (e.g. on filesystems without them). */
const SPOOL_POLL_MS = 500;
/** How long after a change notification the spool is read (lines are batched for the service every 50 ms anyway). */
const READ_DELAY_MS = 10;
/** How often an adopted process (not the agent's child, so no exit event) is checked for being alive. */
const ADOPTED_POLL_MS = 500;
/** Output an adopted process wrote while no agent read it: at most this much of its tail is replayed. */
const ADOPT_REPLAY_BYTES = 256 * 1024;
/** How often the read position is saved for the next agent. */
const OFFSET_SAVE_MS = 1_000;

export const PROCESS_FILE = 'process.json';
const STDIN_FIFO = 'stdin';
const OUTPUT_SPOOL = 'output';
const OFFSET_FILE = 'output.offset';

/** What names a process uniquely on this machine: a pid is reused, its start time since boot and the boot are not. */
type ProcessIdentity = {
  pid: number;
  startTicks: string;
  bootId: string;
  startedAt: string;
  /** What else ends with it (kept for the next agent, which may be the one that stops it). */
  account?: { uid: number; gid: number };
  cgroup?: string;
};

/** Rounds of freezing and killing before killAccount gives up (each one ends everything an escape left). */
const KILL_ROUNDS = 20;
/** Scans per round for a process of the account still running, each one stopping those it finds. */
const FREEZE_PASSES = 200;

/**
 * Ends every process of an account of a server's own, by root: nothing waits on a helper of the account's (it could
 * be stopped or traced by the account, and hang whoever waits for it). Root stops (SIGSTOP) every process of the uid
 * until one scan finds none still running (a stopped process forks nothing and wakes no other), then kills them all,
 * then has the kernel kill whatever a scan could miss (kill(-1) as the account, bounded by a time-out), and looks
 * again. Each signal goes only to the process the scan saw (same uid, same
 * start time: never a stranger that reused its pid). Rejects when processes of the account are still left after
 * KILL_ROUNDS rounds: whoever asked (a removal, an install) must not go on as if they were gone.
 */
export async function killAccount(account: { uid: number; gid: number }): Promise<void> {
  if (account.uid === 0 || account.uid === process.getuid?.()) return;
  for (let round = 0; round < KILL_ROUNDS; round++) {
    for (let pass = 0; pass < FREEZE_PASSES; pass++) {
      const running = processesOfUid(account.uid).filter((found) => !found.stopped);
      if (running.length === 0) break;
      for (const found of running) signalSame(found, account.uid, 'SIGSTOP');
      // A stopped signal takes effect when the process is next scheduled.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const left = processesOfUid(account.uid);
    for (const found of left) signalSame(found, account.uid, 'SIGKILL');
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // A scan reads /proc one pid at a time: a process that forks and exits in a loop can be missing from every scan.
    // kill(-1) as the account reaches every process of the uid in one pass of the kernel (forks wait for it).
    if (processesOfUid(account.uid).length === 0 && (await killAllAs(account)) && processesOfUid(account.uid).length === 0) return;
  }
  const left = processesOfUid(account.uid);
  if (left.length > 0)
    throw new Error(`processes of the server's account (uid ${account.uid}) could not be ended: ${left.map((found) => found.pid).join(', ')}`);
}

/** How long the kill(-1) helper may take before root kills it (a process of the account could stop it). */
const KILL_ALL_TIMEOUT_MS = 2_000;

/**
 * Runs `kill -s KILL -- -1` as the account: the kernel signals every process of the uid (the helper too) at once.
 * Answers whether it ran to its end; a helper stopped or slowed by the account is killed by root after the time-out,
 * and the caller goes round again (its scans and signals do not depend on the helper).
 */
function killAllAs(account: { uid: number; gid: number }): Promise<boolean> {
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('kill', ['-s', 'KILL', '--', '-1'], { uid: account.uid, gid: account.gid, env: { PATH: '/usr/bin:/bin' }, stdio: 'ignore' });
    } catch {
      return resolve(false);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, KILL_ALL_TIMEOUT_MS);
    child.on('error', () => (clearTimeout(timer), resolve(false)));
    // It signals itself too: ending by SIGKILL is the normal end, unless root's time-out sent it.
    child.on('exit', (code, signal) => (clearTimeout(timer), resolve(!timedOut && (code === 0 || signal === 'SIGKILL'))));
  });
}

type FoundProcess = { pid: number; startTicks: string; stopped: boolean };

/** Reads /proc/<pid> once: its real uid, state, process group and start time; undefined when it is gone or a zombie (it runs nothing). */
function readProcess(pid: number): { uid: string; state: string; group: string; startTicks: string } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0] ?? '';
    if (state === 'Z' || state === 'X') return undefined;
    return { uid: /^Uid:\s+(\d+)/m.exec(status)?.[1] ?? '', state, group: fields[2] ?? '', startTicks: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** Rounds of looking for, and killing, the members of a process group (each one ends what a member forked meanwhile). */
const GROUP_KILL_ROUNDS = 10;

/**
 * Kills the processes still in process group `group` whose leader has exited, each by its pid once /proc shows it is
 * still the same process (same group, same start time): never `kill(-group)`, which would reach a stranger's group
 * should the number have been given again meanwhile.
 */
export function killGroupMembers(group: number): void {
  for (let round = 0; round < GROUP_KILL_ROUNDS; round++) {
    let names: string[];
    try {
      names = readdirSync('/proc');
    } catch {
      return;
    }
    const members = names
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => {
        const info = readProcess(Number(name));
        return info?.group === String(group) ? [{ pid: Number(name), startTicks: info.startTicks }] : [];
      });
    if (members.length === 0) return;
    for (const member of members) {
      const now = readProcess(member.pid);
      if (now?.group !== String(group) || now.startTicks !== member.startTicks) continue;
      try {
        process.kill(member.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
}

/** The processes whose real uid is `uid` (zombies excluded); `stopped`: by a signal or a tracer. */
function processesOfUid(uid: number): FoundProcess[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: FoundProcess[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info?.uid === String(uid)) found.push({ pid: Number(name), startTicks: info.startTicks, stopped: info.state === 'T' || info.state === 't' });
  }
  return found;
}

/** Signals `found` only if /proc still shows the same process (uid and start time) right before. */
function signalSame(found: FoundProcess, uid: number, signal: NodeJS.Signals): void {
  const now = readProcess(found.pid);
  if (now?.uid !== String(uid) || now.startTicks !== found.startTicks) return;
  try {
    process.kill(found.pid, signal);
  } catch {
    // gone meanwhile
  }
}

/** Work the agent runs as an account that the end of its game must not cut short (a backup's tar), by uid. */
const accountWork = new Map<number, Set<Promise<void>>>();

/** Registers `work` run as `uid`: a game of that account that ends meanwhile has its account swept only after it. */
export function trackAccountWork(uid: number, work: Promise<unknown>): void {
  let under = accountWork.get(uid);
  if (!under) accountWork.set(uid, (under = new Set()));
  const done = work.then(
    () => undefined,
    () => undefined,
  );
  under.add(done);
  void done.then(() => {
    under.delete(done);
    if (under.size === 0 && accountWork.get(uid) === under) accountWork.delete(uid);
  });
}

/**
 * Every process of a server: its process group, then its cgroup (`cgroup.kill`) and its own account, if it has them.
 * `afterWork`: the account is swept once the work tracked for it (a backup under way) is done.
 */
async function killEverything(identity: ProcessIdentity, afterWork = false): Promise<void> {
  if (identity.cgroup) {
    try {
      writeFileSync(join(identity.cgroup, 'cgroup.kill'), '1');
    } catch {
      // No cgroup.kill before Linux 5.14, or the cgroup is gone: the account (or the group) is what is left.
    }
  }
  if (!identity.account) return;
  for (let under = accountWork.get(identity.account.uid); afterWork && under && under.size > 0; under = accountWork.get(identity.account.uid)) {
    await Promise.all(under);
  }
  await killAccount(identity.account);
}

const bootId = (() => {
  let cached: string | undefined;
  return () =>
    (cached ??= (() => {
      try {
        return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      } catch {
        return 'unknown';
      }
    })());
})();

/** Whether `identity` still names a live process (the same one: same start time, same boot). */
export function isSameProcess(identity: ProcessIdentity): boolean {
  if (identity.bootId !== bootId()) return false;
  return readProcess(identity.pid)?.startTicks === identity.startTicks;
}

/**
 * Resolves `command` as spawn would (relative to `cwd` when it holds a slash, else on PATH) and says plainly when it
 * cannot run: the process is started through a gate when it joins a cgroup, where a missing command would only be a
 * shell's exit status 127.
 */
async function checkCommand(command: string, cwd: string, env: Record<string, string>, user?: { uid: number; gid: number }): Promise<void> {
  const candidates = command.includes('/')
    ? [resolve(cwd, command)]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(isAbsolute)
        .map((dir) => join(dir, command));
  if (user && user.uid !== process.getuid?.()) {
    // Looked up as the server's user: root follows no name in a tree the account can change, and says nothing of files
    // only root could see. 0: runnable; 2: there but not executable; otherwise not found.
    const checked = spawnSync(
      '/bin/sh',
      ['-c', 'found=1; for c in "$@"; do if [ -f "$c" ]; then [ -x "$c" ] && exit 0; found=2; fi; done; exit $found', 'gsm-check', ...candidates],
      { cwd: '/', env: { PATH: '/usr/bin:/bin' }, stdio: 'ignore', uid: user.uid, gid: user.gid, timeout: 10_000, killSignal: 'SIGKILL' },
    );
    if (checked.status === 0) return;
    throw new Error(`${checked.status === 2 ? 'command not executable (permission denied)' : 'command not found'}: ${command}`);
  }
  let exists = false;
  for (const candidate of candidates) {
    const info = await stat(candidate).catch(() => undefined);
    if (!info?.isFile()) continue;
    exists = true;
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`${exists ? 'command not executable (permission denied)' : 'command not found'}: ${command}`);
}

const readAt = promisify(read);

/** `bytes` without its NUL bytes (native searches and copies, not a callback per byte). */
function withoutNul(bytes: Buffer): Buffer {
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(0); at !== -1; at = bytes.indexOf(0, from)) {
    if (at > from) pieces.push(bytes.subarray(from, at));
    from = at + 1;
  }
  if (from < bytes.length) pieces.push(bytes.subarray(from));
  return Buffer.concat(pieces);
}

class GameProcess extends EventEmitter<Events> implements RunningProcess {
  readonly pid: number;
  readonly runDir: string;
  readonly adopted: boolean;
  readonly #identity: ProcessIdentity;
  /** The spool, opened for reading, for the hole punches (fd 3 of fallocate) and for the fallback truncation. */
  #spool: number | undefined;
  #offset: number;
  /** The spool's first bytes, up to here, are a hole already (see #punchHole). */
  #freed = 0;
  #punching = false;
  #punchFailures = 0;
  #nextPunchAt = 0;
  /** Moves on at every truncation: a punch under way across one no longer says what is freed. */
  #spoolGeneration = 0;
  #savedOffset = -1;
  #stdin: number | undefined;
  #watcher: FSWatcher | undefined;
  #timers: NodeJS.Timeout[] = [];
  #reading: Promise<void> | undefined;
  /** One read buffer per process, kept between reads. */
  #buffer: Buffer | undefined;
  /** A read asked for by a change notification, a few milliseconds later: a game writing often is read in batches. */
  #soon: NodeJS.Timeout | undefined;
  #readAgain = false;
  #resumed = false;
  readonly #decoder = new StringDecoder('utf8'); // a multi-byte character may straddle two reads
  #pending = '';
  #dropping = false;
  /** Set as soon as the leader exits; #settled only once its output is drained and wait() resolved. */
  #exitedAt: string | undefined;
  #exit: ExitInfo | undefined;
  readonly #exited: Promise<ExitInfo>;
  #settle!: (info: ExitInfo) => void;
  #stopping: Promise<StopInfo> | undefined;
  /** The strongest signal this handle sent, so stop() can say what ended the process. */
  #escalation: StopInfo['stoppedBy'] = 'graceful';

  constructor(options: { identity: ProcessIdentity; runDir: string; spool: number; offset: number; child?: ChildProcess }) {
    super();
    this.#identity = options.identity;
    this.pid = options.identity.pid;
    this.runDir = options.runDir;
    this.#spool = options.spool;
    this.#offset = options.offset;
    this.adopted = options.child === undefined;
    this.#exited = new Promise((resolve) => (this.#settle = resolve));
    if (options.child) {
      options.child.once('exit', (exitCode, signal) => this.#onExit({ exitCode, signal, at: new Date().toISOString() }));
    } else {
      const poll = setInterval(() => {
        if (!isSameProcess(this.#identity)) this.#onExit({ exitCode: null, signal: null, at: new Date().toISOString(), adopted: true });
      }, ADOPTED_POLL_MS);
      this.#timers.push(poll);
    }
  }

  resume(): void {
    if (this.#resumed || this.#spool === undefined) return;
    this.#resumed = true;
    try {
      this.#watcher = watch(join(this.runDir, OUTPUT_SPOOL), { persistent: false }, () => {
        this.#soon ??= setTimeout(() => {
          this.#soon = undefined;
          void this.#read();
        }, READ_DELAY_MS);
      });
      this.#watcher.on('error', () => undefined);
    } catch {
      // No change notifications here: the poll below reads on its own.
    }
    this.#timers.push(setInterval(() => void this.#read(), SPOOL_POLL_MS));
    this.#timers.push(setInterval(() => this.#saveOffset(), OFFSET_SAVE_MS));
    void this.#read();
  }

  async #finalRead(): Promise<void> {
    while (this.#reading) await this.#reading;
    await this.#drain();
  }

  /** Reads what the spool holds beyond the offset; one read at a time, another one queued if asked meanwhile. */
  #read(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true;
      return this.#reading;
    }
    this.#reading = this.#drain().finally(() => {
      this.#reading = undefined;
      if (this.#readAgain) {
        this.#readAgain = false;
        void this.#read();
      }
    });
    return this.#reading;
  }

  async #drain(): Promise<void> {
    const buffer = (this.#buffer ??= Buffer.allocUnsafe(READ_CHUNK_BYTES));
    for (;;) {
      const fd = this.#spool;
      if (fd === undefined) return;
      let bytesRead: number;
      try {
        ({ bytesRead } = await readAt(fd, buffer, 0, buffer.length, this.#offset));
        if (bytesRead === 0 && fstatSync(fd).size < this.#offset) {
          this.#offset = 0; // truncated by someone else: read again from the start
          this.#freed = 0;
          this.#spoolGeneration += 1;
          continue;
        }
      } catch {
        return; // closed meanwhile
      }
      if (bytesRead === 0) break;
      this.#offset += bytesRead;
      this.#take(buffer.subarray(0, bytesRead));
      if (bytesRead < buffer.length) break; // the end for now: the next change notification (or poll) reads on
    }
    // Everything is read: free what was read once it is big (not after the process ended: its run directory may
    // be made anew for the next run, and the spool goes then anyway).
    if (this.#spool === undefined || this.#exitedAt !== undefined || this.#punching) return;
    if (this.#offset - this.#freed < SPOOL_FREE_BYTES || performance.now() < this.#nextPunchAt) return;
    if (this.#punchFailures < PUNCH_ATTEMPTS) this.#punchHole();
    else this.#truncate();
  }

  /**
   * Punches a hole over what was read (fallocate(1) from util-linux, on the spool itself: its descriptor, not its
   * path). Its blocks go back to the filesystem while the file keeps its size and the game goes on appending at its
   * end (a punch and an append take the same inode lock), so nothing it writes meanwhile is lost. A failure is tried
   * again later; after PUNCH_ATTEMPTS in a row (no fallocate, a filesystem without holes) this process's spool is
   * truncated instead.
   */
  #punchHole(): void {
    const upTo = this.#offset;
    // Saved first, and only then punched: an agent that adopts the process must not start inside the hole. A save
    // that failed (a full disk) is no sign that holes cannot be punched: tried again later, not counted.
    if (!this.#saveOffset()) {
      this.#nextPunchAt = performance.now() + PUNCH_RETRY_MS;
      return;
    }
    const generation = this.#spoolGeneration;
    this.#punching = true;
    let punch: ChildProcess;
    try {
      punch = spawn('fallocate', ['--punch-hole', '--offset', String(this.#freed), '--length', String(upTo - this.#freed), '/dev/fd/3'], {
        stdio: ['ignore', 'ignore', 'pipe', this.#spool],
      });
    } catch (error) {
      this.#punching = false;
      return this.#punchFailed((error as Error).message); // e.g. ENOMEM: the fork itself failed
    }
    let said = '';
    punch.stderr?.on('data', (chunk: Buffer) => (said = `${said}${chunk.toString()}`.slice(-500)));
    punch.stderr?.on('error', () => undefined);
    let done = false;
    const finish = (failure: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.#punching = false;
      // The spool was truncated meanwhile (by someone else): what this punch freed no longer says where it stands.
      if (generation !== this.#spoolGeneration) return;
      if (failure === null) {
        this.#freed = upTo;
        this.#punchFailures = 0;
      } else this.#punchFailed(failure);
    };
    // A punch that hangs (a frozen filesystem) is given up: killed, and this attempt ends even if the kill cannot.
    const timer = setTimeout(() => {
      punch.kill('SIGKILL');
      finish(`timed out after ${PUNCH_TIMEOUT_MS / 1000} s`);
    }, PUNCH_TIMEOUT_MS);
    punch.once('error', (error) => finish(error.message));
    punch.once('close', (code, signal) => finish(code === 0 ? null : `fallocate ${signal ?? `exited ${code}`}: ${said.trim()}`));
  }

  #punchFailed(reason: string): void {
    this.#punchFailures += 1;
    this.#nextPunchAt = performance.now() + PUNCH_RETRY_MS;
    if (this.#exitedAt !== undefined) return; // nothing to tell once the process has ended
    // Said in the console, where an operator looks (as the service's `[gsm] N lines dropped`).
    const then = this.#punchFailures >= PUNCH_ATTEMPTS ? '; truncating it from now on, which can lose lines' : '; trying again';
    this.emit('notice', `[gsm] could not free the output spool's read part (${reason.slice(0, 300)})${then}`);
  }

  /**
   * The fallback: truncates the spool once everything in it was read. The game writes with O_APPEND and goes on at the
   * new end, but what it writes between the size check and the truncation is lost.
   */
  #truncate(): void {
    try {
      if (fstatSync(this.#spool!).size === this.#offset) {
        ftruncateSync(this.#spool!, 0);
        this.#offset = 0;
        this.#freed = 0;
        this.#spoolGeneration += 1;
        this.#saveOffset();
      }
    } catch {
      // closed meanwhile
    }
  }

  #take(read: Buffer): void {
    // NUL bytes are no console text (the service refuses them), and a hole reads as nothing but them: an agent that
    // adopted the process behind a freed part (its offset lost) skips them rather than showing a line of them.
    const chunk = read.includes(0) ? withoutNul(read) : read;
    const parts = (this.#pending + this.#decoder.write(chunk)).split('\n');
    this.#pending = parts.pop()!;
    for (const part of parts) {
      if (!this.#dropping) this.#emitLine(part);
      this.#dropping = false;
    }
    if (this.#pending.length > MAX_LINE_CHARS) {
      if (!this.#dropping) this.#emitLine(this.#pending.slice(0, MAX_LINE_CHARS));
      this.#pending = '';
      this.#dropping = true;
    }
  }

  #emitLine(line: string): void {
    this.emit('line', 'stdout', line.endsWith('\r') ? line.slice(0, -1) : line);
  }

  /** Saves the read offset for an agent that adopts the process; answers whether it is saved. */
  #saveOffset(): boolean {
    if (this.#savedOffset === this.#offset) return true;
    if (this.#exitedAt !== undefined) return false;
    try {
      // Written aside and renamed: a crash or a full disk never leaves an empty or half-written offset.
      const path = join(this.runDir, OFFSET_FILE);
      writeFileSync(`${path}.new`, String(this.#offset));
      renameSync(`${path}.new`, path);
      this.#savedOffset = this.#offset;
      return true;
    } catch {
      return false; // the next save tries again
    }
  }

  #onExit(info: ExitInfo): void {
    if (this.#exitedAt !== undefined) return;
    this.#exitedAt = info.at;
    this.#exit = info;
    for (const timer of this.#timers) clearInterval(timer);
    clearTimeout(this.#soon);
    this.#watcher?.close();
    // Whatever the leader left behind in its group goes too, even if it ignored SIGTERM, and so does anything of the
    // server's that left the group (setsid): its cgroup, its account.
    this.#signalGroup('SIGKILL');
    // Should some of the account be left (killAccount gave up), the exit is still reported: the next install or
    // removal ends what is left first, or fails saying so.
    // A backup being made as the account goes on to its end first (its tar is a process of the account too).
    const swept = killEverything(this.#identity, true).catch(() => undefined);
    // The last lines, so wait() callers see all output: a read under way (and the one it may have queued) read only
    // what was there when it began, so once they are done the spool is read once more, to its end.
    void Promise.all([swept, this.#finalRead()]).then(() => {
      this.#pending += this.#decoder.end();
      if (this.#pending !== '' && !this.#dropping) this.#emitLine(this.#pending);
      this.#pending = '';
      this.#close();
      // Nothing is left to adopt: the next agent must not mistake a reused pid for this server.
      rmSync(join(this.runDir, PROCESS_FILE), { force: true });
      this.emit('exit', info);
      this.#settle(info);
    });
  }

  #close(): void {
    for (const fd of [this.#spool, this.#stdin]) {
      if (fd !== undefined) {
        try {
          closeSync(fd);
        } catch {
          // already closed
        }
      }
    }
    this.#spool = undefined;
    this.#stdin = undefined;
  }

  /** Signals sent to end a running process; remembered for stop()'s answer. */
  #escalate(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.#exitedAt !== undefined) return;
    if (this.#escalation !== 'SIGKILL') this.#escalation = signal;
    this.#signalGroup(signal);
  }

  #signalGroup(signal: NodeJS.Signals): void {
    // An adopted pid is signalled only while it is still the same process (never a stranger that reused it).
    if (this.adopted && this.#exitedAt === undefined && !isSameProcess(this.#identity)) return;
    try {
      // A negative pid addresses the process group, which detached spawn made the child lead.
      process.kill(-this.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  write(line: string): void {
    if (this.#exitedAt !== undefined) throw new Error(`process ${this.pid} is not running`);
    if (this.#stdin === undefined) {
      try {
        // Non-blocking: a game that stopped reading its console must not stall the agent.
        this.#stdin = openSync(join(this.runDir, STDIN_FIFO), constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (error) {
        throw new Error(`the server's console input cannot be opened (${(error as NodeJS.ErrnoException).code})`, { cause: error });
      }
    }
    try {
      writeSync(this.#stdin, `${line}\n`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(code === 'EAGAIN' ? 'the server is not reading its console (its input is full)' : `cannot write to the server's console (${code})`, {
        cause: error,
      });
    }
  }

  wait(): Promise<ExitInfo> {
    return this.#exited;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.#exitedAt === undefined) this.#signalGroup(signal);
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

  ageMs(): number | undefined {
    // The start time in /proc/<pid>/stat counts clock ticks since boot: USER_HZ, 100 on every Linux architecture.
    const ticks = Number(this.#identity.startTicks);
    if (!this.inspect().running || !Number.isSafeInteger(ticks) || ticks <= 0) return undefined;
    try {
      const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
      return Number.isFinite(uptimeSeconds) ? Math.max(0, uptimeSeconds * 1000 - ticks * 10) : undefined;
    } catch {
      return undefined;
    }
  }

  inspect(): ProcessState {
    return {
      pid: this.pid,
      running: this.#exitedAt === undefined,
      startedAt: this.#identity.startedAt,
      exitCode: this.#exit?.exitCode ?? null,
      signal: this.#exit?.signal ?? null,
    };
  }

  /** Stops watching without touching the process (the agent is exiting and leaves it running). */
  detach(): void {
    this.#saveOffset();
    clearTimeout(this.#soon);
    for (const timer of this.#timers) clearInterval(timer);
    this.#watcher?.close();
    this.#close();
  }
}

/** The process runtime. start() rejects with a readable message instead of emitting an unhandled 'error'. */
export class ProcessRuntime implements Runtime {
  readonly #live = new Set<GameProcess>();

  async start(spec: LaunchSpec): Promise<RunningProcess> {
    // spawn reports a missing cwd as ENOENT for the command, which would blame the wrong thing.
    const cwd = await stat(spec.cwd).catch(() => undefined);
    if (!cwd?.isDirectory()) throw new Error(`working directory not found: ${spec.cwd}`);
    await checkCommand(spec.command, spec.cwd, spec.env, spec.user);
    const runDir = spec.runDir ?? (await mkdtemp(join(tmpdir(), 'gsm-run-')));
    await mkdir(runDir, { recursive: true, mode: 0o700 });
    for (const name of [PROCESS_FILE, STDIN_FIFO, OUTPUT_SPOOL, OFFSET_FILE, `${OFFSET_FILE}.new`]) await rm(join(runDir, name), { force: true });
    const fifo = join(runDir, STDIN_FIFO);
    const made = spawnSync('mkfifo', ['-m', '600', fifo], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`cannot create the console pipe: ${made.error?.message ?? made.stderr.trim()}`);

    // The game holds its end of the pipe for reading and writing, so it never sees end-of-file between agents.
    const stdinFd = openSync(fifo, constants.O_RDWR);
    const outputPath = join(runDir, OUTPUT_SPOOL);
    const outputFd = openSync(outputPath, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
    const spool = openSync(outputPath, constants.O_RDWR);
    const gated = spec.cgroup !== undefined;
    let child: ChildProcess;
    try {
      // With a cgroup, a shell waits on fd 3 until the agent has moved it into the cgroup, then becomes the game
      // (exec: same pid), so nothing the game forks escapes its limits.
      child = gated
        ? spawn('/bin/sh', ['-c', 'read -r _ <&3; exec 3<&-; exec "$@"', 'gsm-start', spec.command, ...spec.args], {
            cwd: spec.cwd,
            env: spec.env,
            detached: true,
            stdio: [stdinFd, outputFd, outputFd, 'pipe'],
            ...spec.user,
          })
        : spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: [stdinFd, outputFd, outputFd], ...spec.user });
    } catch (error) {
      closeSync(spool);
      throw new Error(`cannot start ${spec.command}: ${(error as Error).message}`, { cause: error }); // e.g. a NUL in an argument
    } finally {
      closeSync(stdinFd);
      closeSync(outputFd);
    }
    if (child.pid === undefined) {
      closeSync(spool);
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
    const identity: ProcessIdentity = {
      pid: child.pid,
      startTicks: readProcess(child.pid)?.startTicks ?? '',
      bootId: bootId(),
      startedAt: new Date().toISOString(),
      ...(spec.ownAccount && spec.user ? { account: spec.user } : {}),
      ...(spec.cgroup ? { cgroup: spec.cgroup } : {}),
    };
    writeFileSync(join(runDir, PROCESS_FILE), JSON.stringify(identity), { mode: 0o600 });
    const handle = new GameProcess({ identity, runDir, spool, offset: 0, child });
    this.#track(handle);
    if (gated) {
      const gate = child.stdio[3] as NodeJS.WritableStream;
      gate.on('error', () => undefined);
      try {
        writeFileSync(join(spec.cgroup!, 'cgroup.procs'), String(child.pid));
      } catch (error) {
        // Never run a game without the limits it was given.
        await handle.kill();
        throw new Error(`cannot apply the server's limits (cgroup ${spec.cgroup}): ${(error as Error).message}`, { cause: error });
      }
      gate.end('\n');
    }
    // Output is read from the next turn of the event loop on: the caller attaches its listeners before any line.
    handle.resume();
    return handle;
  }

  /**
   * The process an earlier agent started in `runDir`, if it still runs (same pid, start time and boot): a handle that
   * goes on from where that agent stopped reading its output. 'gone' when it ended meanwhile; undefined when there
   * was none.
   */
  async adopt(runDir: string): Promise<RunningProcess | 'gone' | undefined> {
    const text = await readFile(join(runDir, PROCESS_FILE), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    let identity: ProcessIdentity;
    try {
      identity = JSON.parse(text) as ProcessIdentity;
      if (!Number.isInteger(identity.pid) || identity.pid <= 1 || typeof identity.startTicks !== 'string' || identity.startTicks === '')
        throw new Error('malformed');
    } catch {
      await rm(join(runDir, PROCESS_FILE), { force: true });
      return 'gone';
    }
    let spool: number | undefined;
    try {
      spool = openSync(join(runDir, OUTPUT_SPOOL), constants.O_RDWR);
    } catch {
      spool = undefined;
    }
    if (!isSameProcess(identity) || spool === undefined) {
      if (spool !== undefined) closeSync(spool);
      // It ended while no agent ran: what it left running (in its cgroup, under its own account) ends now, as it would
      // have had an agent seen it end. Should some of it not end, the next install or removal fails saying so.
      if (!isSameProcess(identity)) await killEverything(identity).catch(() => undefined);
      await rm(join(runDir, PROCESS_FILE), { force: true });
      return 'gone';
    }
    const size = fstatSync(spool).size;
    const saved = Number.parseInt(await readFile(join(runDir, OFFSET_FILE), 'utf8').catch(() => '0'), 10);
    const offset = Math.max(Number.isInteger(saved) && saved <= size ? saved : 0, size - ADOPT_REPLAY_BYTES);
    const handle = new GameProcess({ identity, runDir, spool, offset });
    this.#track(handle);
    return handle;
  }

  #track(handle: GameProcess): void {
    this.#live.add(handle);
    void handle.wait().then(() => this.#live.delete(handle));
  }

  /** Stops watching every process without stopping any (the agent exits; the next one adopts them). */
  detachAll(): void {
    for (const handle of this.#live) handle.detach();
    this.#live.clear();
  }
}
