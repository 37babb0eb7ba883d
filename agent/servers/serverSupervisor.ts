/**
 * Runs one game server on this machine and reports what happens to it (docs/servers.md and docs/agent.md):
 * OFFLINE → STARTING → ONLINE (ready line, or RCON answering) → STOPPING → OFFLINE; an unasked exit is CRASHED and,
 * with autoRestart, STARTING again after the restart policy's back-off; not ready in time is CRASHED (killed).
 * Output goes to a size-capped log and out as `console` events; joins and leaves seen in the output are reported.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { linearRegExp } from '../../schema/linearRegExp.ts';
import { DEFAULT_READY_TIMEOUT_SECONDS, DEFAULT_STOP_GRACE_SECONDS, type ConsoleMode } from '../../schema/serverBehaviour.ts';
import type { GameAdapter, CommandChannel, PlayerInfo, PlayerLine } from '../games/adapter.ts';
import { ADAPTERS } from '../games/index.ts';
import { minecraft } from '../games/minecraft.ts';
import { templateAdapter } from '../games/template.ts';
import { applyConfigFiles } from './configFiles.ts';
import { RconAuthError, SourceRconClient } from '../rcon/sourceRcon.ts';
import { buildLaunch } from '../runtime/commandLine.ts';
import { OutputLog } from '../runtime/outputLog.ts';
import type { ExitInfo, RunningProcess, Runtime } from '../runtime/processRuntime.ts';
import { RestartPolicy } from '../runtime/restartPolicy.ts';
import { StdinChannel } from './stdinChannel.ts';
import { createProcessSampler, treeMemoryBytes } from './processStats.ts';
import { PendingModeration } from './pendingModeration.ts';
import { endProcessesOf, prepareServerDir, recordedAccounts, type Accounts } from './accounts.ts';
import { launchAccessProblem } from './launchAccess.ts';
import type { Cgroups } from '../runtime/cgroups.ts';
import { portPlanOf, type QueryProtocol } from '../../schema/gamePorts.ts';
import { queryServer, type QueryAnswer } from '../query/index.ts';
import { checkPortsFree, PortInUseError, type PortNeed } from './portCheck.ts';

/** The agent's own user (servers run as it when the agent is not root, or with allowRoot). */
function agentUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

export type Reporter = (event: string, data: Record<string, unknown>) => void;

export type SupervisorOptions = {
  dataDir: string;
  runtime: Runtime;
  report: Reporter;
  /** Graceful stop: the adapter's stop command, then SIGTERM after termAfterMs, SIGKILL after killAfterMs. */
  termAfterMs?: number;
  killAfterMs?: number;
  restartPolicy?: RestartPolicy;
  /** Memory for the default Minecraft command line ({{MEMORY_MB}}). */
  memoryMb?: number;
  /** How often a running server's CPU and memory are reported (`server:stats`); default 10 s. */
  statsIntervalMs?: number;
  /** The last measured disk usage of a server's directory (bytes), sent with its stats (files/diskUsage.ts). */
  diskUsage?: (serverId: string) => number | undefined;
  /** How often an ONLINE server's full player list is reported (`players:snapshot`); default 30 s. */
  snapshotIntervalMs?: number;
  /** Per-server accounts when the agent runs as root (accounts.ts); servers run as the agent's user otherwise. */
  accounts?: Accounts;
  /** Memory and CPU limits with cgroup v2 where available (cgroups.ts); memory is watched otherwise. */
  cgroups?: Cgroups;
  /** How often memory is checked against `memoryLimitMb` where no cgroup enforces it; default 2 s. */
  memoryCheckMs?: number;
  /** How often an ONLINE (or UNRESPONSIVE) server with a query protocol is queried; default 15 s (docs/agent.md#query). */
  queryIntervalMs?: number;
  /** How long one query may take before it counts as failed; default 5 s (at most the interval). */
  queryTimeoutMs?: number;
  /** Skip the bind test of the server's ports before a start (tests of the runtime alone). */
  skipPortCheck?: boolean;
};

/** Failed queries in a row after which an ONLINE server is UNRESPONSIVE, when its configuration does not say. */
const DEFAULT_UNRESPONSIVE_AFTER = 5;
/** Where the agent queries its servers: on this host. */
const QUERY_HOST = '127.0.0.1';

/** What a server's run directory remembers for the next agent: its configuration and last status. */
export const SERVER_FILE = 'server.json';
/**
 * `hold`: why the server must not be started again until someone asks (a START job): its crash restarts were given up
 * on, or it crashed with autoRestart off. Kept across agent restarts, so neither a sync nor a new agent starts it.
 */
export type RememberedServer = { config: ServerConfig; status: ServerStatus; message?: string; hold?: string };

/** `<data-dir>/run/<serverId>`: the agent's own files about a server's process (not the game's to touch). */
export const runDirOf = (dataDir: string, serverId: string) => join(dataDir, 'run', serverId);

/** What an earlier agent left in `runDir` (undefined when nothing, or unreadable). */
export async function rememberedServer(runDir: string): Promise<RememberedServer | undefined> {
  try {
    return JSON.parse(await readFile(join(runDir, SERVER_FILE), 'utf8')) as RememberedServer;
  } catch {
    return undefined;
  }
}

/** How often an RCON game (or a port) is asked whether it answers yet while STARTING without a ready line. */
const READY_POLL_MS = 1_000;
/** How long a port check may take before it counts as not answering. */
const PORT_CHECK_TIMEOUT_MS = 2_000;
/** A ready pattern is tested on this much of a line: a game's line of megabytes costs no more than its start. */
const READY_LINE_CHARS = 256;

/** When a run counts as ready: the server's own `ready` (CUSTOM) or its game's (a ready line, else RCON). */
type Readiness = { mode: 'LINE'; pattern: RegExp } | { mode: 'PORT'; port: number } | { mode: 'RCON' } | { mode: 'IMMEDIATE' };

/** A connection error in a few words: `connection refused` rather than `connect ECONNREFUSED 127.0.0.1:27015`. */
function describeRefusal(error: unknown): string {
  const code = ((error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) as string | undefined;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
    EHOSTUNREACH: 'unreachable',
  };
  return (code && known[code]) ?? (error as Error).message;
}
/** Console lines are batched into one `console` event per this period (a line waits at most this long). */
const CONSOLE_FLUSH_MS = 50;
/** Lines per `console` event (the protocol's limit). */
const CONSOLE_BATCH_LINES = 500;
/** Lines waiting to be sent; past this a flooding server's lines are dropped and counted (a marker line says how many). */
const CONSOLE_PENDING_MAX = 2_000;

export type ServerStatus = 'INSTALLING' | 'INSTALL_FAILED' | 'OFFLINE' | 'STARTING' | 'ONLINE' | 'UNRESPONSIVE' | 'STOPPING' | 'RESTARTING' | 'CRASHED';

/**
 * The fields of a server's configuration its template (or its own settings) decide about a run: they are pinned from
 * the launch to the exit, so a template changed meanwhile reaches the server at its next start (docs/templates.md#versions).
 * Its ports too: the run holds those it started with, and its query (liveness) asks them, not ports changed meanwhile.
 */
const RUN_FIELDS = [
  'startCommand',
  'env',
  'ready',
  'consoleMode',
  'stop',
  'rconPort',
  'rconPassword',
  'template',
  'queryTarget',
  'gamePort',
  'queryPort',
  'ports',
  'queryProtocol',
] as const;
type RunFields = Pick<ServerConfig, (typeof RUN_FIELDS)[number]>;
const runFieldsOf = (config: ServerConfig): RunFields =>
  Object.fromEntries(RUN_FIELDS.filter((field) => field in config).map((field) => [field, config[field]])) as RunFields;

export class ServerSupervisor {
  /** The configuration as the service last sent it: the next start runs it. */
  #latest: ServerConfig;
  /** What the current run was started with (RUN_FIELDS), while it runs. */
  #pinned: RunFields | undefined;
  #config: ServerConfig;
  status: ServerStatus = 'OFFLINE';
  readonly #options: SupervisorOptions;
  /** The game's adapter: its template's (servers:sync's `template`), else the agent's own for its game type; set at each launch. */
  #adapter: GameAdapter;
  readonly #dir: string;
  readonly #runDir: string;
  /** `<data-dir>/logs/<serverId>`: the agent's, outside the game's directory (a game must not redirect what root writes). */
  readonly #logDir: string;
  /** The cgroup of the current run, when limits are enforced by the kernel. */
  #cgroup: string | undefined;
  readonly #policy: RestartPolicy;
  #process: RunningProcess | undefined;
  #log: OutputLog | undefined;
  #rcon: SourceRconClient | undefined;
  #stdin: StdinChannel | undefined;
  /** Set while a stop or kill is under way: the exit that follows is asked for, not a crash. */
  #stopping = false;
  #launching: Promise<void> | undefined;
  #startedAt = 0;
  #timers = new Set<NodeJS.Timeout>();
  #consoleLines: string[] = [];
  #consoleDropped = 0;
  readonly #players = new Map<string, PlayerInfo>();
  readonly #statusListeners = new Set<(status: ServerStatus) => void>();
  /** Set: not started again by a sync, a reconnect or a crash restart until a START job (RememberedServer.hold). */
  #hold: string | undefined;
  /** How the current run becomes ready (set at each launch and adoption). */
  #readiness: Readiness = { mode: 'RCON' };
  /** Failed queries in a row in the current run. */
  #queryFailures = 0;
  /** What the latest query found (players, for a game whose console cannot list them). */
  #lastQuery: QueryAnswer | undefined;
  /** Set while the agent restarts an UNRESPONSIVE server: the exit that follows is that restart, not a crash. */
  #unresponsiveRestart: { reason: string; delayMs: number } | undefined;
  /** The error code of the latest start that failed before its process ran (PORT_IN_USE), for the START job. */
  startFailureCode: string | undefined;

  constructor(config: ServerConfig, options: SupervisorOptions) {
    this.#latest = config;
    this.#config = config;
    this.#options = options;
    try {
      this.#adapter = adapterOf(config);
    } catch {
      // Said at its launch, which fails on it (CRASHED, with the reason).
      this.#adapter = ADAPTERS[config.gameType];
    }
    this.#dir = join(options.dataDir, 'servers', config.id);
    this.#runDir = runDirOf(options.dataDir, config.id);
    this.#logDir = join(options.dataDir, 'logs', config.id);
    this.pendingModeration = new PendingModeration(this.#runDir);
    this.#policy = options.restartPolicy ?? new RestartPolicy();
    if (options.accounts?.enabled)
      void options.accounts.nameOf(config.id).then(
        (name) => (this.#osUser ??= name),
        () => undefined,
      );
    else this.#osUser = agentUser();
  }

  /** Memory for the game, `{{MEMORY_MB}}`: 80 % of its memory limit, else the agent's setting, else 2048. */
  get memoryMb(): number {
    return this.#options.memoryMb ?? (this.config.memoryLimitMb ? Math.max(256, Math.floor(this.config.memoryLimitMb * 0.8)) : 2048);
  }

  /** The configuration in force: the latest one, with the current run's pinned fields over it while it runs. */
  get config(): ServerConfig {
    return this.#config;
  }

  /** A `servers:sync`'s configuration: in force at once, but a running server keeps what it was started with (RUN_FIELDS). */
  set config(next: ServerConfig) {
    this.#latest = next;
    this.#config = this.#pinned ? { ...next, ...this.#pinned } : next;
  }

  /** The configuration as the service last sent it, pinned fields not applied (an install or the next start uses it). */
  get latestConfig(): ServerConfig {
    return this.#latest;
  }

  /** The status the service (or a job) wants, without touching what the run was started with. */
  setDesiredStatus(desiredStatus: ServerConfig['desiredStatus']): void {
    this.#latest = { ...this.#latest, desiredStatus };
    this.#config = { ...this.#config, desiredStatus };
  }

  #pin(): void {
    this.#config = this.#latest;
    this.#pinned = runFieldsOf(this.#latest);
  }

  #unpin(): void {
    this.#pinned = undefined;
    this.#config = this.#latest;
  }

  /** The OS account the server runs as, reported with its status (once known: an account is made at the first start). */
  #osUser: string | undefined;

  get running(): boolean {
    return this.#process?.inspect().running ?? false;
  }

  /** How long ago the running process started (adopted ones too), by the time since boot; undefined when not known. */
  get processAgeMs(): number | undefined {
    return this.#process?.ageMs?.();
  }

  get channel(): CommandChannel {
    if (!this.running) throw new Error('the server is not running');
    const mode = this.consoleMode;
    if (mode === 'NONE') throw new Error('the server has no console (consoleMode NONE)');
    if (mode === 'STDIN') return this.#stdin!;
    return { command: (text) => this.#rconClient().command(text) };
  }

  /** Where console commands go: the server's own `consoleMode` (CUSTOM), else its game's. */
  get consoleMode(): ConsoleMode {
    return this.config.consoleMode ?? (this.#adapter.channel === 'stdin' ? 'STDIN' : 'RCON');
  }

  /** How long STARTING may last: the server's own `ready.timeoutSeconds`, else its game's. */
  get startTimeoutMs(): number {
    if (this.config.ready) return (this.config.ready.timeoutSeconds ?? DEFAULT_READY_TIMEOUT_SECONDS) * 1000;
    return this.#adapter.startTimeoutMs;
  }

  /** Why the server is held stopped until a START job (its crash restarts were given up on), if it is. */
  get hold(): string | undefined {
    return this.#hold;
  }

  get adapter(): GameAdapter {
    return this.#adapter;
  }

  /** `<data-dir>/servers/<serverId>`: everything the agent writes for this server stays inside it. */
  get dir(): string {
    return this.#dir;
  }

  /** Bans and unbans waiting for the server to be online (applied when it is). */
  readonly pendingModeration: PendingModeration;

  /** Set while an install, update or restore changes the server's files: nothing starts the server meanwhile. */
  #maintenance: string | undefined;

  /** What changes the server's files now (INSTALL, UPDATE, RESTORE), if anything. */
  get maintenance(): string | undefined {
    return this.#maintenance;
  }

  /**
   * Runs `work` with the server held stopped (a sync, a crash restart or a START waits until it is done); `status`, when
   * given, is reported meanwhile (INSTALLING). One at a time: the jobs of a server already run one after the other.
   */
  async maintain<T>(what: string, work: () => Promise<T>, status?: ServerStatus): Promise<T> {
    if (this.running || this.#launching) throw new Error(`the server is ${this.status}: stop it first`);
    this.#maintenance = what;
    if (status) this.#setStatus(status, { message: `${what.toLowerCase()} under way` });
    try {
      // Nothing of the server may still run while its files change (a helper its game left behind included).
      const account = await this.#options.accounts?.forServer(this.config.id);
      if (account) {
        this.#osUser = account.name;
        await endProcessesOf(account);
      }
      return await work();
    } finally {
      this.#maintenance = undefined;
    }
  }

  /** Reports a status the server's own process does not decide (after an install: OFFLINE, or INSTALL_FAILED saying why). */
  report(status: ServerStatus, message?: string): void {
    this.#setStatus(status, message === undefined ? {} : { message });
  }

  /** Sends lines that are not the game's own output (an installer's) to whoever watches the console. */
  relayConsole(line: string): void {
    this.#queueConsole(line);
  }

  /** Sends the console lines waiting for the next flush now: an install's last lines go before its job's result. */
  flushConsole(): void {
    this.#flushConsole();
  }

  /** Moves towards the desired status (after every servers:sync and reconnect). */
  async reconcile(): Promise<void> {
    if (this.#maintenance) return;
    // A server held after its crashes, or whose install failed, waits for a person (or a task): a START job.
    const startable = this.status !== 'STARTING' && this.status !== 'INSTALL_FAILED' && this.#hold === undefined;
    if (this.config.desiredStatus === 'RUNNING' && !this.running && startable) await this.start();
    if (this.config.desiredStatus === 'STOPPED' && this.running && !this.#stopping) await this.stop();
  }

  /** Reports the current status again (after a reconnect: the service marked it UNKNOWN meanwhile). */
  reportStatus(): void {
    // The same report again, reason and exit code included (a sync must not wipe why the server is CRASHED).
    this.#setStatus(this.status, this.#statusExtra);
  }

  /**
   * A START job (a person or a task): clears a hold and the restart policy's given-up loop, then starts. The service
   * refuses it while no install has succeeded; INSTALL_FAILED here is a failed UPDATE, whose previous files still run.
   */
  startAsked(): Promise<void> {
    this.#hold = undefined;
    this.#policy.reset();
    return this.start();
  }

  /**
   * After an agent restart, for a server whose process had already ended: keeps what the earlier agent knew (an
   * install failure, a hold after crashes) instead of starting over as OFFLINE.
   */
  restore(remembered: RememberedServer): void {
    if (remembered.status !== 'INSTALL_FAILED' && remembered.hold === undefined) return;
    this.#hold = remembered.hold;
    if (remembered.hold !== undefined) this.#policy.giveUp(remembered.hold);
    this.#setStatus(remembered.status, remembered.message === undefined ? {} : { message: remembered.message });
  }

  /** Starts the server unless it runs or is being launched (a sync and a START job may ask at the same moment). */
  start(): Promise<void> {
    if (this.running) return Promise.resolve();
    if (this.#maintenance) return Promise.reject(new Error(`the server's files are being changed (${this.#maintenance}): it starts once that is done`));
    this.#launching ??= this.#launch().finally(() => (this.#launching = undefined));
    return this.#launching;
  }

  async #launch(): Promise<void> {
    this.#stopping = false;
    this.#memoryStop = undefined;
    this.#pin();
    this.#setStatus('STARTING');
    try {
      const account = await this.#options.accounts?.forServer(this.config.id);
      if (account) {
        this.#osUser = account.name;
        await prepareServerDir(this.#dir, account);
      } else await mkdir(this.#dir, { recursive: true });
      // The template as it is now: a change reaches a server at its next start (a pattern that cannot run fails it here).
      this.#adapter = adapterOf(this.config);
      if (this.config.template) {
        // The new texts wait in the agent's own run directory (root's, 0700) to be piped to the account's helper.
        await mkdir(this.#runDir, { recursive: true, mode: 0o700 });
        await applyConfigFiles(this.#dir, this.config.template.configFiles, account, this.#runDir);
      } else if (this.#adapter === minecraft) await minecraft.prepare(this.#dir, this.config, account);
      const startCommand = this.config.startCommand ?? this.#adapter.defaultStartCommand;
      const launch = buildLaunch({ ...this.config, startCommand }, this.#dir, { MEMORY_MB: String(this.memoryMb) });
      // The template's working directory, inside the server's (its schema refuses `..` and absolute paths).
      const cwd = this.config.template?.workingDirectory ? join(this.#dir, this.config.template.workingDirectory) : this.#dir;
      this.#readiness = this.#readinessOf();
      if (account) launch.env = { ...launch.env, HOME: this.#dir, USER: account.name, LOGNAME: account.name };
      // A file the account cannot read fails later as something else ("Cannot find module"): said plainly, before.
      const denied = account && (await launchAccessProblem(launch, cwd, account));
      if (denied) throw new Error(denied);
      // A port another process holds fails the start here, naming that process, not later as the game's bind error.
      this.startFailureCode = undefined;
      if (!this.#options.skipPortCheck) {
        // A port held by another server's account is said as that server's, not as an account name.
        const owners = this.#options.accounts?.enabled ? await recordedAccounts(this.#options.dataDir).catch(() => ({})) : {};
        await checkPortsFree(this.portNeeds(), owners);
      }
      this.#cgroup = await this.#options.cgroups?.prepare(this.config.id, this.config);
      this.#log ??= await OutputLog.open(this.#logDir);
      this.#runFrom = this.#log.appended;
      // The configuration is on disk before the process exists: an agent killed the moment after can adopt it.
      await mkdir(this.#runDir, { recursive: true, mode: 0o700 });
      this.remember();
      const proc = await this.#options.runtime.start({
        ...launch,
        cwd,
        runDir: this.#runDir,
        // The account is the server's alone: when it stops, every process of the account goes (even one that left its group).
        ...(account ? { user: { uid: account.uid, gid: account.gid }, ownAccount: true } : {}),
        ...(this.#cgroup ? { cgroup: this.#cgroup } : {}),
      });
      this.#startedAt = Date.now();
      this.#attach(proc);
      this.#awaitReady(proc);
    } catch (error) {
      // No run: nothing is pinned.
      if (!this.running) this.#unpin();
      if (error instanceof PortInUseError) {
        // A port may be freed (a process on its way out): the crash policy tries again after its back-off, as for a
        // crash, and gives up after its limit; a START job fails at once with PORT_IN_USE.
        this.startFailureCode = error.code;
        this.#setStatus('CRASHED', { exitCode: null, message: `PORT_IN_USE: ${error.message}` });
        return this.#restartAfterCrash(null, 0);
      }
      // The runtime says it plainly (`command not found: ./RustDedicated`, `working directory not found: …`).
      this.#crashedHeld({ message: (error as Error).message });
    }
  }

  /**
   * No await from here until the process is fully watched: a game may print its ready line at once, and a line
   * emitted while nobody listens is gone (the server would stay STARTING until its start time-out).
   */
  #attach(proc: RunningProcess): void {
    this.#process = proc;
    this.#log!.attach(proc);
    this.#stdin = this.consoleMode === 'STDIN' ? new StdinChannel(proc) : undefined;
    const parsePlayerLine = this.#adapter.playerLineParser();
    proc.on('line', (_stream, line) => this.#onLine(line, parsePlayerLine));
    proc.on('notice', (line) => this.#queueConsole(line));
    this.#watch(proc);
    void proc.wait().then((exit) => this.#onExit(proc, exit));
    proc.resume();
  }

  /**
   * Takes over a process an earlier agent started (still running, checked by the runtime): no restart, the status it
   * had (ONLINE stays ONLINE; STARTING waits for its ready line or RCON again; STOPPING goes on stopping).
   */
  async adopt(proc: RunningProcess, last: ServerStatus): Promise<void> {
    this.#stopping = false;
    // The configuration the previous agent remembered is what this run was started with.
    this.#pin();
    this.#log ??= await OutputLog.open(this.#logDir);
    this.#runFrom = this.#log.appended;
    // Its cgroup is still there; the limits are written again, as they may have changed meanwhile.
    this.#cgroup = await this.#options.cgroups?.prepare(this.config.id, this.config);
    this.#startedAt = Date.now();
    let unready: string | undefined;
    try {
      this.#adapter = adapterOf(this.config);
      this.#readiness = this.#readinessOf();
    } catch (error) {
      unready = (error as Error).message;
    }
    this.#attach(proc);
    if (unready !== undefined) {
      this.#crashedHeld({ message: unready });
      this.#stopping = true;
      return void proc.kill();
    }
    if (last === 'ONLINE' || last === 'UNRESPONSIVE') {
      this.#setStatus('ONLINE', { message: 'adopted from the previous agent' });
      this.#startQueries(proc);
      void this.#applyPendingModeration().then(() => this.snapshotPlayers());
    } else if (last === 'STOPPING') {
      void this.stop();
    } else {
      this.#setStatus('STARTING', { message: 'adopted from the previous agent' });
      this.#awaitReady(proc);
    }
  }

  /** The process an earlier agent started ended while no agent watched it: a crash (unless it was being stopped). */
  orphanEnded(last: ServerStatus): void {
    if (last === 'STOPPING' || last === 'OFFLINE') return void this.#setStatus('OFFLINE', { message: 'stopped' });
    // The agent stopped in the middle of an install: its job comes again (the service re-sends it); nothing to restart.
    if (last === 'INSTALLING' || last === 'INSTALL_FAILED')
      return void this.#setStatus('INSTALL_FAILED', { message: 'the install was interrupted: the agent stopped while it ran' });
    this.#setStatus('CRASHED', { exitCode: null, message: 'exited while no agent was running (exit code unknown)' });
    this.#restartAfterCrash(null, 0);
  }

  async stop(): Promise<void> {
    const proc = this.#process;
    if (!proc || !this.running) return void this.#setStatus('OFFLINE');
    this.#stopping = true;
    this.#setStatus('STOPPING');
    const termAfterMs = this.#options.termAfterMs ?? 30_000;
    const killAfterMs = this.#options.killAfterMs ?? 60_000;
    const own = this.config.stop;
    // No console to send a stop command on: SIGTERM at once rather than a wait for a command that cannot be sent.
    if (!own && this.consoleMode === 'NONE') return void (await proc.stop({ termAfterMs: 0, killAfterMs: Math.max(0, killAfterMs - termAfterMs) }));
    if (!own) return void (await proc.stop({ graceful: () => this.#adapter.stop(this.channel).catch(() => undefined), termAfterMs, killAfterMs }));
    // The server's own way (CUSTOM): its command or signal, graceSeconds to exit, then SIGTERM and SIGKILL as usual.
    const graceMs = (own.graceSeconds ?? DEFAULT_STOP_GRACE_SECONDS) * 1000;
    await proc.stop({
      graceful: async () => {
        if (own.mode === 'SIGNAL') proc.signal(own.signal ?? 'SIGTERM');
        else await this.channel.command(own.command ?? 'quit').catch(() => undefined);
      },
      termAfterMs: graceMs,
      killAfterMs: graceMs + Math.max(0, killAfterMs - termAfterMs),
    });
  }

  async kill(): Promise<void> {
    this.#stopping = true;
    if (this.#process && this.running) await this.#process.kill();
    this.#setStatus('OFFLINE');
  }

  /** Stops watching (the server was removed from this machine): stop it and close its log. */
  async dispose(): Promise<void> {
    await this.stop();
    await this.release();
  }

  /** Stops watching without stopping the server (the agent exits; the next one adopts it). */
  async release(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    await this.#rcon?.close();
    await this.#log?.close();
  }

  /** After a configuration change: a running server's cgroup gets its new limits at once. */
  async applyLimits(): Promise<void> {
    if (this.#cgroup && this.running) await this.#options.cgroups?.prepare(this.config.id, this.config);
  }

  /** Saves the configuration and status for the next agent (adoption after a restart). */
  remember(): void {
    try {
      const remembered: RememberedServer = { config: this.config, status: this.status, message: this.#statusExtra.message, hold: this.#hold };
      // Also before a first launch: an install failure or a hold must outlive the agent. The agent's own directory
      // (root's, 0700), outside the server's tree.
      mkdirSync(this.#runDir, { recursive: true, mode: 0o700 });
      writeFileSync(join(this.#runDir, SERVER_FILE), JSON.stringify(remembered), { mode: 0o600 });
    } catch {
      // A full or read-only disk: the next agent starts from the service's configuration instead.
    }
  }

  #rconClient(): SourceRconClient {
    this.#rcon ??= new SourceRconClient({ host: '127.0.0.1', port: this.config.rconPort, password: this.config.rconPassword });
    return this.#rcon;
  }

  /**
   * Resolves with the first status (the current one included) that `done` accepts; rejects when `signal` aborts or
   * `timeoutMs` passes.
   */
  waitForStatus(done: (status: ServerStatus) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<ServerStatus> {
    if (done(this.status)) return Promise.resolve(this.status);
    return new Promise((resolve, reject) => {
      const finish = (error: Error | null, status?: ServerStatus) => {
        clearTimeout(timer);
        this.#statusListeners.delete(listener);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(status!);
      };
      const listener = (status: ServerStatus) => done(status) && finish(null, status);
      const onAbort = () => finish(new Error('cancelled'));
      const timer = setTimeout(() => finish(new Error(`still ${this.status} after ${timeoutMs} ms`)), timeoutMs);
      this.#statusListeners.add(listener);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** What the last status report said beside the status: why (`command not found: ./RustDedicated`) and how the process ended. */
  #statusExtra: { exitCode?: number | null; message?: string } = {};

  /** Why the server is in its status, e.g. `command not found: ./RustDedicated`. */
  get statusMessage(): string | undefined {
    return this.#statusExtra.message;
  }
  /** How the process ended, with the status that says so (CRASHED, OFFLINE); undefined otherwise. */
  get statusExitCode(): number | null | undefined {
    return this.#statusExtra.exitCode;
  }

  /** Where the latest run's lines start in the log. */
  #runFrom = 0;

  /** The last `n` lines the game printed in its latest run (nothing when that run never started). */
  consoleTail(n: number): string[] {
    if (!this.#log) return [];
    return this.#log.tail(Math.min(n, this.#log.appended - this.#runFrom));
  }

  #setStatus(status: ServerStatus, extra: { exitCode?: number | null; message?: string } = {}): void {
    const changed = status !== this.status;
    this.status = status;
    this.#statusExtra = extra;
    if (changed) this.remember();
    for (const listener of [...this.#statusListeners]) listener(status);
    // The process it runs as, while one runs: a fleet upgrade checks the new agent adopted it rather than restarting it.
    const proc = this.#process;
    const running = proc?.inspect();
    this.#options.report('server:status', {
      serverId: this.config.id,
      status,
      at: new Date().toISOString(),
      ...extra,
      ...(this.#osUser ? { osUser: this.#osUser } : {}),
      // What the run was started with (pinned, kept across an agent's restart), not what the service sent since; nothing
      // once the server has been given another template (that one's version is not what runs).
      ...(this.#pinned?.template && this.#pinned.template.id === this.#latest.template?.id
        ? { templateId: this.#pinned.template.id, templateVersion: this.#pinned.template.version }
        : {}),
      ...(proc && running?.running ? { process: { pid: running.pid, startedAt: running.startedAt, adopted: proc.adopted } } : {}),
    });
  }

  #timer(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  #onLine(line: string, parsePlayerLine: (line: string) => PlayerLine | null): void {
    if (this.status === 'STARTING' && this.#readiness.mode === 'LINE' && this.#readiness.pattern.test(line.slice(0, READY_LINE_CHARS))) this.#becameReady();
    const player = parsePlayerLine(line);
    if (player) {
      if (player.kind === 'join') this.#players.set(player.steamId, player);
      else this.#players.delete(player.steamId);
      this.#options.report(player.kind === 'join' ? 'player:join' : 'player:leave', {
        serverId: this.config.id,
        steamId: player.steamId,
        username: player.username,
        at: new Date().toISOString(),
      });
    }
    this.#queueConsole(line);
  }

  #queueConsole(line: string): void {
    if (this.#consoleLines.length >= CONSOLE_PENDING_MAX) {
      this.#consoleDropped += 1;
      return;
    }
    if (this.#consoleLines.push(line.slice(0, 8192)) === 1) this.#timer(() => this.#flushConsole(), CONSOLE_FLUSH_MS);
  }

  #flushConsole(): void {
    if (this.#consoleDropped > 0) {
      this.#consoleLines.push(`[gsm] ${this.#consoleDropped} lines dropped by the agent`);
      this.#consoleDropped = 0;
    }
    // Everything waiting goes, in frames of at most CONSOLE_BATCH_LINES: no line waits past one flush period.
    const at = new Date().toISOString();
    while (this.#consoleLines.length > 0)
      this.#options.report('console', { serverId: this.config.id, lines: this.#consoleLines.splice(0, CONSOLE_BATCH_LINES), at });
  }

  #becameReady(): void {
    this.#setStatus('ONLINE');
    if (this.#process) this.#startQueries(this.#process);
    void this.#applyPendingModeration().then(() => this.snapshotPlayers());
  }

  /** Puts bans and unbans that came while the server was down on the game's own list. */
  async #applyPendingModeration(): Promise<void> {
    await this.pendingModeration.drain(async (action) => {
      if (this.status !== 'ONLINE') throw new Error('not online');
      const player = { steamId: action.steamId, username: action.username };
      if (action.type === 'BAN') await this.#adapter.ban(this.channel, player, action.reason);
      else await this.#adapter.unban(this.channel, player);
    });
  }

  /** Sends the full player list (the truth: joins and leaves are derived from differences by the service). */
  async snapshotPlayers(): Promise<void> {
    if (this.status !== 'ONLINE') return;
    // A CUSTOM game's console other than RCON may not know `players`: its joins and leaves come from its output only.
    // A template says whether its game has a list command.
    if (
      this.config.template ? !this.config.template.commands.list || this.consoleMode === 'NONE' : this.config.consoleMode && this.config.consoleMode !== 'RCON'
    )
      return;
    try {
      // Timed when asked, not when answered: a leave reported while the list was on its way is newer than the list.
      const at = new Date().toISOString();
      const players = await this.#adapter.listPlayers(this.channel);
      this.#players.clear();
      for (const player of players) this.#players.set(player.steamId, player);
      this.#options.report('players:snapshot', {
        serverId: this.config.id,
        players: players.map((player) => ({ steamId: player.steamId, username: player.username, ...(player.ping === undefined ? {} : { ping: player.ping }) })),
        at,
      });
    } catch {
      // The next snapshot will tell; a console that is busy is not a reason to change the status.
    }
  }

  /** Periodic reports while `proc` runs: stats always, the player list while ONLINE. */
  #watch(proc: RunningProcess): void {
    const sample = createProcessSampler(proc.pid);
    const stats = setInterval(() => {
      void sample().then(
        (figures) => {
          if (!figures || this.#process !== proc) return;
          const diskBytes = this.#options.diskUsage?.(this.config.id);
          this.#options.report('server:stats', {
            serverId: this.config.id,
            ...figures,
            ...(diskBytes === undefined ? {} : { diskBytes }),
            ...(this.status === 'ONLINE' || this.status === 'UNRESPONSIVE' ? { playersOnline: this.#playersOnline() } : {}),
            at: new Date().toISOString(),
          });
        },
        () => undefined,
      );
    }, this.#options.statsIntervalMs ?? 10_000);
    const snapshots = setInterval(() => void this.snapshotPlayers(), this.#options.snapshotIntervalMs ?? 30_000);
    // Where no cgroup enforces the memory limit, the agent does: over it, the server is stopped (CRASHED, saying why).
    const memory = setInterval(() => {
      const limitMb = this.config.memoryLimitMb;
      if (!limitMb || this.#cgroup || this.#process !== proc || this.#stopping) return;
      void treeMemoryBytes(proc.pid).then((bytes) => {
        if (bytes === null || bytes <= limitMb * 1024 * 1024 || this.#process !== proc || this.#stopping) return;
        this.#overMemory(proc, Math.round(bytes / 1024 / 1024), limitMb);
      });
    }, this.#options.memoryCheckMs ?? 2_000);
    void proc.wait().then(() => {
      clearInterval(stats);
      clearInterval(snapshots);
      clearInterval(memory);
    });
  }

  /** Stops a server over its memory limit: SIGTERM at once (its own stop command may need memory), SIGKILL after 10 s. */
  #overMemory(proc: RunningProcess, usedMb: number, limitMb: number): void {
    const message = `stopped by the agent: memory use ${usedMb} MiB over its limit of ${limitMb} MiB`;
    this.#memoryStop = message;
    void proc.stop({ termAfterMs: 0, killAfterMs: 10_000 });
  }

  /** Set when the agent stopped the run for its memory: the exit that follows is that crash, not an unasked one. */
  #memoryStop: string | undefined;

  /** Whether the game's console can list its players (else the query's players are the truth). */
  get consoleListsPlayers(): boolean {
    return !(this.config.consoleMode && this.config.consoleMode !== 'RCON');
  }

  #playersOnline(): number {
    if (!this.consoleListsPlayers && this.#lastQuery?.players !== null && this.#lastQuery?.players !== undefined) return this.#lastQuery.players;
    return this.#players.size;
  }

  /** The ports to bind-test before a start: its named ports, else the seed's three (both protocols). */
  portNeeds(): PortNeed[] {
    if (this.config.ports && this.config.ports.length > 0) return this.config.ports;
    return [
      { name: 'game', port: this.config.gamePort, protocol: 'BOTH' },
      { name: 'query', port: this.config.queryPort, protocol: 'BOTH' },
      { name: 'rcon', port: this.config.rconPort, protocol: 'BOTH' },
    ];
  }

  /** How and where the server is queried (undefined: it is not: no query, no liveness). */
  get queryTarget(): { protocol: QueryProtocol; port: number } | undefined {
    const own = this.config.queryProtocol;
    // The service's answer from the server's template, else its game's plan with its own protocol.
    const target =
      this.config.queryTarget !== undefined
        ? this.config.queryTarget
        : portPlanOf(this.config.gameType, own === undefined || own === null ? undefined : own === 'NONE' ? null : own).query;
    if (!target) return undefined;
    const name = target.port;
    const port =
      this.config.ports?.find((entry) => entry.name === name)?.port ??
      (name === 'game' ? this.config.gamePort : name === 'rcon' ? this.config.rconPort : this.config.queryPort);
    return { protocol: target.protocol, port };
  }

  /** Queries the run every queryIntervalMs while it is ONLINE or UNRESPONSIVE (docs/agent.md#query). */
  #startQueries(proc: RunningProcess): void {
    if (!this.queryTarget) return;
    this.#queryFailures = 0;
    const intervalMs = this.#options.queryIntervalMs ?? 15_000;
    const timer = setInterval(() => {
      if (this.#process !== proc || !proc.inspect().running) return clearInterval(timer);
      void this.queryNow(proc);
    }, intervalMs);
    void proc.wait().then(() => clearInterval(timer));
  }

  #querying = false;

  /** One query of the current run, reported (`server:query`), with what it means for liveness. */
  async queryNow(proc: RunningProcess | undefined = this.#process): Promise<void> {
    const target = this.queryTarget;
    if (!target || !proc || this.#querying || (this.status !== 'ONLINE' && this.status !== 'UNRESPONSIVE')) return;
    this.#querying = true;
    const timeoutMs = Math.min(this.#options.queryTimeoutMs ?? 5_000, this.#options.queryIntervalMs ?? 15_000);
    let answer: QueryAnswer | undefined;
    let error: string | null = null;
    try {
      answer = await queryServer(target.protocol, QUERY_HOST, target.port, timeoutMs);
    } catch (failure) {
      error = ((failure as Error).message || 'no answer').slice(0, 500);
    } finally {
      this.#querying = false;
    }
    // The run ended or was stopped meanwhile: what it found is about nothing any more.
    if (this.#process !== proc || (this.status !== 'ONLINE' && this.status !== 'UNRESPONSIVE')) return;
    this.#queryFailures = answer ? 0 : this.#queryFailures + 1;
    if (answer) this.#lastQuery = answer;
    this.#options.report('server:query', {
      serverId: this.config.id,
      protocol: target.protocol,
      answering: answer !== undefined,
      players: answer?.players ?? null,
      playerNames: answer?.playerNames ?? null,
      maxPlayers: answer?.maxPlayers ?? null,
      map: answer?.map ?? null,
      version: answer?.version ?? null,
      latencyMs: answer?.latencyMs ?? null,
      failures: this.#queryFailures,
      error,
      at: new Date().toISOString(),
    });
    if (answer) {
      if (this.status === 'UNRESPONSIVE') this.#setStatus('ONLINE', { message: 'answering queries again' });
      // A game whose console cannot list its players: the query's names open and close their sessions.
      if (!this.consoleListsPlayers && answer.playerNames) this.#snapshotFromQuery(answer.playerNames);
      return;
    }
    const limit = this.config.unresponsiveAfter ?? DEFAULT_UNRESPONSIVE_AFTER;
    if (this.status === 'ONLINE' && this.#queryFailures >= limit)
      this.#becameUnresponsive(proc, `no answer to ${this.#queryFailures} queries in a row (${error})`);
  }

  #snapshotFromQuery(names: string[]): void {
    const unique = [...new Set(names)].slice(0, 1000);
    this.#options.report('players:snapshot', {
      serverId: this.config.id,
      // The query knows names only: a player is known by `query:<name>` (docs/players.md).
      players: unique.map((name) => ({ steamId: `query:${name}`.slice(0, 64), username: name })),
      at: new Date().toISOString(),
    });
  }

  /** UNRESPONSIVE; restarted by the crash policy only when the server asks for it (restartWhenUnresponsive). */
  #becameUnresponsive(proc: RunningProcess, reason: string): void {
    if (!this.config.restartWhenUnresponsive || this.config.desiredStatus !== 'RUNNING') return this.#setStatus('UNRESPONSIVE', { message: reason });
    const decision = this.#policy.recordCrash(Date.now() - this.#startedAt);
    if (!decision.restart) return this.#setStatus('UNRESPONSIVE', { message: `${reason}; not restarted: ${decision.reason}` });
    this.#setStatus('UNRESPONSIVE', { message: reason });
    this.#unresponsiveRestart = { reason, delayMs: decision.delayMs };
    this.#stopping = true;
    this.#setStatus('RESTARTING', { message: `restarted by the agent: unresponsive, ${reason}` });
    // A game that does not answer may not obey its stop command either: SIGTERM at once, SIGKILL after 10 s.
    void proc.stop({ termAfterMs: 0, killAfterMs: 10_000 });
  }

  #readinessOf(): Readiness {
    const own = this.config.ready;
    if (!own) return this.#adapter.readyPattern ? { mode: 'LINE', pattern: this.#adapter.readyPattern } : { mode: 'RCON' };
    // Linear time, or not at all (the service checked it with the same function); else this launch fails, saying why.
    if (own.mode === 'LINE') return { mode: 'LINE', pattern: linearRegExp(own.pattern ?? '') };
    if (own.mode === 'PORT') return { mode: 'PORT', port: own.port ?? this.config.gamePort };
    return { mode: own.mode };
  }

  /** Watches the run until it is ready (or its start time-out), saying in statusReason what it waits for. */
  #awaitReady(proc: RunningProcess): void {
    const timeoutMs = this.startTimeoutMs;
    this.#timer(() => this.#startTimedOut(proc, timeoutMs), timeoutMs);
    const readiness = this.#readiness;
    if (readiness.mode === 'IMMEDIATE') return this.#becameReady();
    if (readiness.mode === 'LINE') return this.#waiting(`waiting for a line matching ${readiness.pattern}`);
    this.#waiting(readiness.mode === 'PORT' ? `waiting for port ${readiness.port} to accept connections` : `waiting for RCON on port ${this.config.rconPort}`);
    this.#pollReady(proc);
  }

  /** STARTING, with what it waits for: reported again only when that changes. */
  #waiting(reason: string): void {
    if (this.status !== 'STARTING' || this.#statusExtra.message === reason) return;
    this.#setStatus('STARTING', { message: reason });
  }

  #pollReady(proc: RunningProcess): void {
    this.#timer(() => void this.#checkReady(proc), READY_POLL_MS);
  }

  async #checkReady(proc: RunningProcess): Promise<void> {
    if (this.#process !== proc || this.status !== 'STARTING') return;
    if (this.#readiness.mode === 'PORT') {
      const port = this.#readiness.port;
      const refused = await portRefusal(port);
      if (this.#process !== proc || this.status !== 'STARTING') return;
      if (refused === undefined) return this.#becameReady();
      this.#waiting(`waiting for port ${port} to accept connections: ${refused}`);
      return this.#pollReady(proc);
    }
    try {
      await this.#rconClient().connect();
      this.#becameReady();
    } catch (error) {
      if (!(error instanceof RconAuthError)) {
        this.#waiting(`waiting for RCON on port ${this.config.rconPort}: ${describeRefusal(error)}`);
        return this.#pollReady(proc);
      }
      // The game answers but refuses the password: waiting longer cannot help, and the operator must be told why.
      this.#crashedHeld({ message: `RCON refused the password (${error.message}); check rconPassword and the start command` });
      this.#stopping = true;
      void proc.kill();
    }
  }

  #startTimedOut(proc: RunningProcess, timeoutMs: number): void {
    if (this.#process !== proc || this.status !== 'STARTING') return;
    const waited = this.#statusExtra.message?.startsWith('waiting for') ? ` (${this.#statusExtra.message})` : '';
    this.#crashedHeld({ message: `not ready within ${timeoutMs / 1000} s${waited}` });
    this.#stopping = true;
    void proc.kill();
  }

  /**
   * CRASHED by a failure starting again would only repeat (not ready in time, a refused password, a command that
   * cannot run): held until a START job, so a sync or a reconnect does not launch it over and over.
   */
  #crashedHeld(extra: { exitCode?: number | null; message: string }): void {
    if (this.config.desiredStatus === 'RUNNING') this.#hold = extra.message;
    this.#setStatus('CRASHED', extra);
    this.remember();
  }

  async #onExit(proc: RunningProcess, exit: ExitInfo): Promise<void> {
    if (this.#process !== proc) return;
    const { exitCode, signal } = exit;
    this.#players.clear();
    void this.#rcon?.close();
    this.#rcon = undefined;
    const cgroup = this.#cgroup;
    const oomKilled = cgroup && !this.#stopping && (await this.#options.cgroups!.oomKills(cgroup)) > 0;
    if (cgroup) await this.#options.cgroups!.remove(cgroup);
    if (this.#process !== proc) return;
    // The run is over: the next one starts with the latest configuration.
    this.#unpin();
    const unresponsiveRestart = this.#unresponsiveRestart;
    this.#unresponsiveRestart = undefined;
    if (unresponsiveRestart && this.config.desiredStatus === 'RUNNING') {
      // Still RESTARTING with its reason; started again after the crash policy's back-off.
      this.#stopping = false;
      return this.#timer(() => {
        if (this.config.desiredStatus === 'RUNNING' && !this.running && !this.#maintenance && this.#hold === undefined) void this.start();
        // Stopped during the back-off (a STOP, a sync): not left RESTARTING for ever.
        else if (this.config.desiredStatus !== 'RUNNING' && !this.running && this.status === 'RESTARTING') this.#setStatus('OFFLINE', { message: 'stopped' });
      }, unresponsiveRestart.delayMs);
    }
    if (this.#stopping) {
      if (this.status !== 'CRASHED') this.#setStatus('OFFLINE', { exitCode, message: 'stopped' });
      return;
    }
    const memoryStop = this.#memoryStop;
    this.#memoryStop = undefined;
    const message = oomKilled
      ? `killed by the kernel: over its memory limit of ${this.config.memoryLimitMb} MiB`
      : memoryStop
        ? memoryStop
        : exit.adopted
          ? 'exited (exit code unknown: it was started by an earlier agent)'
          : signal
            ? `exited on ${signal}`
            : `exited with code ${exitCode}`;
    this.#setStatus('CRASHED', { exitCode, message });
    this.#restartAfterCrash(exitCode, Date.now() - this.#startedAt);
  }

  /** A crash with autoRestart: restarted after the policy's back-off, or left CRASHED saying why not. */
  #restartAfterCrash(exitCode: number | null, ranMs: number): void {
    if (this.config.desiredStatus !== 'RUNNING') return;
    if (!this.config.autoRestart) {
      // Held with the crash's own reason, already reported.
      this.#hold = this.#statusExtra.message ?? 'crashed';
      return this.remember();
    }
    const decision = this.#policy.recordCrash(ranMs);
    if (!decision.restart) return this.#crashedHeld({ exitCode, message: `not restarted: ${decision.reason}` });
    this.#timer(() => {
      if (this.config.desiredStatus === 'RUNNING' && !this.running && !this.#stopping && !this.#maintenance && this.#hold === undefined) void this.start();
    }, decision.delayMs);
  }
}

/** The adapter a server's configuration asks for: its template's, else the agent's own for its game type. */
function adapterOf(config: ServerConfig): GameAdapter {
  return config.template ? templateAdapter({ ...config, template: config.template }) : ADAPTERS[config.gameType];
}

/** undefined when `port` on 127.0.0.1 accepts a TCP connection; else why not, in a few words. */
function portRefusal(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    const done = (reason: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done('timed out'), PORT_CHECK_TIMEOUT_MS);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error) => done(describeRefusal(error)));
  });
}
