/**
 * One agent's conversation with the gateway (docs/agent-protocol.md), whatever the framing:
 * - `auth` first, within the auth time-out; anything else, a bad, rotated or foreign token, a token of another machine
 *   or a user API token is `error AUTH_FAILED` and the connection closes; an old agent is `UNSUPPORTED_VERSION`;
 * - a failure of ours while authenticating (the database is away or does not answer the token lookup within the auth
 *   time-out) is `error UNAVAILABLE` and the connection closes: the agent backs off and tries again. AUTH_FAILED is
 *   final for an agent, so it only ever means a refused credential;
 * - then `authenticated`, `servers:sync` (always before any job), and reports, each validated; an invalid one is
 *   `error INVALID_EVENT` and changes nothing; a valid one the database could not take is acknowledged
 *   `{ accepted: false, retry: true }` so the agent sends it again;
 * - liveness: three missed heartbeats mark the machine OFFLINE and close the connection.
 */
import type { MetricsRecorder } from '../metricsHistory/store.ts';
import type { LiveConsole } from '../live/liveConsole.ts';
import type { z } from 'zod';
import type { Logger } from '../../schema/logger.ts';
import { AGENT_EVENTS, authEvent, SERVICE_FEATURES, type AgentEventName } from '../../schema/agentEvents.ts';
import type { Ack, AgentLink } from './links.ts';
import type { ConsoleMark, MachineStore } from './machineStore.ts';
import { ACK_WINDOW_MS } from '../jobs/delivery.ts';
import type { PlayerEvent, PlayerIngest } from '../players/ingest.ts';
import type { AgentNotification } from './notifications.ts';
import { isRefusedValue } from '../../sql/refusedValue.ts';
import type { SftpAuthAnswer, SftpAuthEvent, SftpCheckAnswer } from '../../schema/agentEvents.ts';
import { agentVersionRefusal } from '../../schema/agentVersions.ts';

/** SFTP sign-ins and checks of open sessions (orchestrator/sftp/access.ts), answered over the agent's connection. */
export type SftpGate = {
  authenticate: (machineId: string, attempt: SftpAuthEvent) => Promise<SftpAuthAnswer>;
  recheck: (machineId: string, sessions: z.infer<(typeof AGENT_EVENTS)['sftp:check']>['sessions']) => Promise<SftpCheckAnswer>;
  listening: (machineId: string, port: number, hostKeyFingerprint: string | null) => Promise<void>;
  /** Records a change made over SFTP; false when the server is not on this machine. */
  changed: (machineId: string, change: z.infer<(typeof AGENT_EVENTS)['sftp:changed']>) => Promise<boolean>;
};

export type SessionOptions = {
  store: MachineStore;
  /** Where player joins, leaves and snapshots go. */
  players: PlayerIngest;
  /** Console lines and stats: throttled, kept and relayed to viewers (orchestrator/live/liveConsole.ts). */
  live: LiveConsole;
  /** Per-minute history of servers' and machines' figures. */
  metrics?: MetricsRecorder;
  /** SFTP sign-ins (docs/sftp.md). */
  sftp: SftpGate;
  logger: Logger;
  heartbeatSeconds: number;
  authTimeoutMs: number;
  minVersion: string;
  /** The service's own version: agents of another major version are refused (the protocol may change between them). */
  serviceVersion: string;
  /** Registers the authenticated session; the registry closes an older session of the same machine. */
  claim: (session: AgentSession) => void;
  /** Whether this session is still the machine's registered one (a replaced session must not mark it offline). */
  owns: (session: AgentSession) => boolean;
  release: (session: AgentSession) => void;
  /** Tells every orchestrator process (including this one). */
  announce: (notification: AgentNotification) => Promise<void>;
  /**
   * Console marks of connections that ended in this process, by machine: exact even when the agent is back before the
   * ended connection's mark is written to the database.
   */
  consoleMarks: Map<string, ConsoleMark>;
};

/** How soon numbered console frames are confirmed to the agent (`console:seen`). */
export const CONSOLE_SEEN_MS = 250;

/** Joins and leaves stored in one call at most (they are batched while more frames wait). */
const MAX_PLAYER_BATCH = 500;

/** Heartbeats a machine may miss before it counts as gone. */
const MISSED_BEATS = 3;

/** The answer to a valid report the service could not store: the agent keeps it and sends it again. */
const STORE_FAILED = { accepted: false, retry: true, reason: 'the service could not store it now; send it again' } as const;

/** Error codes an agent reads (schema/agentEvents.ts); UNAVAILABLE is retryable, the others are final. */
type Refusal = 'AUTH_FAILED' | 'UNSUPPORTED_VERSION' | 'UNAVAILABLE';

export class AgentSession {
  readonly link: AgentLink;
  machineId: string | null = null;
  clusterId: string | null = null;
  /** This connection's generation (machines.connection_generation) once authenticated. */
  generation = 0;
  readonly #options: SessionOptions;
  #authTimer: NodeJS.Timeout | undefined;
  #livenessTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Frames are handled one at a time in arrival order, so reports are stored in the order the agent sent them. */
  #queue: Promise<void> = Promise.resolve();
  /** When last_seen_at was last brought up to date on a frame's arrival. */
  #touchedAt = Date.now();
  /** Frames received and not yet handled. */
  #pending = 0;
  /**
   * Joins and leaves waiting to be stored together: while more frames wait behind them they are collected, and stored
   * in one call before anything else is handled (so the order of reports is kept) or when the queue runs empty.
   */
  #playerBatch: (PlayerEvent & { ack: Ack | undefined })[] = [];
  /** Settles once the first `servers:sync` is sent (or the session ends): no job goes out before it. */
  readonly #synced: Promise<void>;
  /** The agent process whose numbered console frames this connection carries, and the last number that arrived. */
  #consoleRun: string | undefined;
  #consoleN = 0;
  #consoleConfirmed = 0;
  #consoleTimer: NodeJS.Timeout | undefined;
  /** Set once this connection's mark is taken: later frames are not relayed (the agent sends them again). */
  #consoleMarked = false;
  #consoleMark: ConsoleMark | undefined;
  #consoleMarkSaved = false;
  /** What of the agent's output reached the service before this connection, for its first `servers:sync`. */
  #consoleSeen: ConsoleMark[] = [];
  #markSynced: () => void = () => undefined;
  #isSynced = false;
  /**
   * The machine's server ids as last sent in `servers:sync`: reports that are only relayed, never stored (`console`,
   * `server:stats`), are checked against it without a query per frame. Refreshed with every sync, which is also how
   * the agent learns of a server: the cache is never older than what the agent knows.
   */
  #serverIds = new Set<string>();
  /** Whether a sync round runs (see sync()), and the round asked for since it started, with its callers' promise. */
  #syncing = false;
  #nextSync: PromiseWithResolvers<void> | null = null;

  constructor(link: AgentLink, options: SessionOptions) {
    this.link = link;
    this.#options = options;
    this.#synced = new Promise((resolve) => {
      this.#markSynced = () => {
        this.#isSynced = true;
        resolve();
      };
    });
    this.#authTimer = setTimeout(() => this.#refuse('AUTH_FAILED', `no auth message within ${options.authTimeoutMs} ms`), options.authTimeoutMs);
    link.onFrame((event, data, ack) => {
      // Any frame shows the agent is alive, when it arrives: a heartbeat queued behind a backlog of reports must not
      // make the machine look gone, here (liveness) or to the sweepers of other processes (last_seen_at).
      if (this.authenticated && !this.#closed) {
        this.#armLiveness();
        if (Date.now() - this.#touchedAt >= options.heartbeatSeconds * 1000) {
          this.#touchedAt = Date.now();
          options.store
            .touch(this.machineId!)
            .catch((error: unknown) => options.logger.warn({ err: error, machineId: this.machineId }, 'could not record the agent as alive'));
        }
      }
      // Console and stats are relayed, never stored: they do not wait behind the database writes of other frames (a
      // slow database would delay every console line and pile frames up in memory).
      // SFTP sign-ins and checks are answered at once too: someone waits for them, and they store nothing in order.
      if (this.authenticated && !this.#closed && (event === 'console' || event === 'server:stats' || event === 'sftp:auth' || event === 'sftp:check')) {
        this.#handle(event, data, ack).catch((error: unknown) =>
          options.logger.error({ err: error, machineId: this.machineId, event }, 'agent event handling failed'),
        );
        return;
      }
      this.#pending++;
      this.#queue = this.#queue
        .then(() => (this.#pending--, this.#handle(event, data, ack)))
        // Whatever the frame was (even an invalid one), collected joins and leaves do not wait for another frame.
        .then(() => (this.#pending === 0 ? this.#flushPlayers() : undefined))
        .catch((error: unknown) => {
          // The frame was valid (an invalid one is answered before anything is stored): not the agent's fault.
          options.logger.error({ err: error, machineId: this.machineId, event }, 'agent event handling failed');
          // A value Postgres refused (what validation missed) is the report's own fault: answered, never a silence.
          if (isRefusedValue(error)) this.#invalid(`invalid ${String(event).slice(0, 64)}: the service cannot store it`, ack);
          else ack?.(STORE_FAILED);
        });
    });
    // In turn with the frames, so that one right behind `auth` is judged once the auth is.
    link.onMalformed((reason) => {
      this.#queue = this.#queue.then(() => this.#malformed(reason));
    });
    link.onClose(() => void this.#onClose());
  }

  get authenticated(): boolean {
    return this.machineId !== null;
  }

  send(event: string, data: unknown): void {
    this.link.send(event, data);
  }

  /** Sends the machine its servers (after auth, and whenever they change). */
  sync(): Promise<void> {
    this.#nextSync ??= Promise.withResolvers<void>();
    const wanted = this.#nextSync.promise;
    if (!this.#syncing) void this.#syncRounds();
    return wanted;
  }

  /**
   * One sync at a time: two overlapping syncs could answer out of order, and the older one's servers (without a server
   * created in between) would then be the last sent and kept. Each call waits for the next round that starts after it
   * (at most the one under way and one more), and a round's failure is only its own callers': a round asked for
   * meanwhile still runs.
   */
  async #syncRounds(): Promise<void> {
    this.#syncing = true;
    try {
      while (this.#nextSync) {
        const round = this.#nextSync;
        this.#nextSync = null;
        await this.#syncOnce().then(round.resolve, round.reject);
      }
    } finally {
      this.#syncing = false;
    }
  }

  async #syncOnce(): Promise<void> {
    if (!this.machineId || this.#closed) return;
    const [servers, deleted] = await Promise.all([this.#options.store.serverConfigs(this.machineId), this.#options.store.deletedServerIds(this.machineId)]);
    this.#serverIds = new Set(servers.map((server) => server.id));
    const consoleSeen = this.#consoleSeen;
    this.#consoleSeen = [];
    this.send('servers:sync', { servers, deleted, ...(consoleSeen.length > 0 ? { consoleSeen } : {}) });
  }

  /**
   * Sends one job and waits for the agent's acknowledgement; marks it DISPATCHED when accepted. A missing or refused
   * ack (a refusal is logged at warn), or a database that does not answer, leaves it QUEUED for the delivery sweep
   * (jobs/deliverySweep.ts) to announce again. A job whose row cannot make a job message has been ended UNDELIVERABLE
   * (jobs/delivery.ts): logged at warn, nothing sent. Never rejects: deliveries run unawaited (after authentication),
   * where a rejection would end the process.
   */
  async deliver(jobId: string): Promise<void> {
    if (!this.machineId || this.#closed) return;
    // The agent sets a server up from servers:sync: a job must not overtake the configuration it needs. (Awaited only
    // while that is so: the job announced with its content is read synchronously below, gateway.ts forgets it next.)
    if (!this.#isSynced) await this.#synced;
    if (this.#closed) return;
    try {
      const found = await this.#options.store.jobForAgent(this.machineId, jobId);
      if (!found) return;
      if ('undeliverable' in found) {
        this.#options.logger.warn(
          { machineId: this.machineId, jobId, reason: found.undeliverable },
          'job cannot be sent to its agent; it ended FAILED (UNDELIVERABLE)',
        );
        return;
      }
      const { cancelRequested, job } = found;
      // A cancel asked for while the agent was away goes out instead of the job.
      if (cancelRequested) return this.send('job:cancel', { jobId });
      const answer = await this.link.request('job', job, ACK_WINDOW_MS);
      if (answer.accepted === true) {
        const status = await this.#options.store.markDispatched(jobId);
        // Cancelled while it was on its way: the agent must not run it.
        if (status === 'CANCELLED') this.send('job:cancel', { jobId });
      } else this.#options.logger.warn({ machineId: this.machineId, jobId, reason: answer.reason }, 'agent refused a job');
    } catch (error) {
      this.#options.logger.info({ err: error, machineId: this.machineId, jobId }, 'job not delivered; the delivery sweep sends it again');
    }
  }

  /** Ends the session with an error the agent can read. */
  close(code: Refusal, message: string): void {
    this.#refuse(code, message);
  }

  #refuse(code: Refusal, message: string): void {
    if (this.#closed) return;
    this.#options.logger.info({ machineId: this.machineId, code, message, remote: this.link.remoteAddress }, 'agent connection refused');
    this.link.closeWith('error', { code, message });
    this.#closed = true;
    this.#stopTimers();
    this.#markSynced();
  }

  #invalid(message: string, ack?: Ack): void {
    this.send('error', { code: 'INVALID_EVENT', message });
    ack?.({ accepted: false, reason: message });
  }

  /** A frame that is not `{ event, data }`: before auth it is not auth, so the connection is refused like any other. */
  #malformed(reason: string): void {
    if (this.#closed) return;
    if (this.authenticated) this.#invalid(reason);
    else this.#refuse('AUTH_FAILED', `the first message must be auth (${reason})`);
  }

  async #handle(event: string, data: unknown, ack: Ack | undefined): Promise<void> {
    if (this.#closed) return;
    if (!this.authenticated) return this.#authenticate(event, data);
    // Console and stats are relayed, not stored: they do not wait for the collected joins and leaves, so they are
    // handled in the order they came (a console frame overtaken by the next one would be left out of the mark).
    if (event !== 'player:join' && event !== 'player:leave' && event !== 'console' && event !== 'server:stats') await this.#flushPlayers();
    if (event === 'auth') return this.#invalid('already authenticated', ack);
    const schema = AGENT_EVENTS[event as AgentEventName];
    if (!schema) return this.#invalid(`unknown event ${JSON.stringify(event).slice(0, 80)}`, ack);
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`).slice(0, 5);
      return this.#invalid(`invalid ${event}: ${details.join('; ')}`, ack);
    }
    await this.#report(event as AgentEventName, parsed.data, ack);
  }

  async #authenticate(event: string, data: unknown): Promise<void> {
    if (event !== 'auth') return this.#refuse('AUTH_FAILED', 'the first message must be auth');
    const parsed = authEvent.safeParse(data);
    if (!parsed.success) return this.#refuse('AUTH_FAILED', 'auth needs { token, machineId, version }');
    const { token, machineId, version } = parsed.data;
    if (!token.startsWith('gsm_agent_')) return this.#refuse('AUTH_FAILED', 'invalid agent token: user tokens cannot authenticate agents');
    // The auth message came in time; what is left is ours: a lookup that does not answer within the same time-out
    // is our failure, not a bad credential.
    clearTimeout(this.#authTimer);
    this.#authTimer = setTimeout(
      () => this.#refuse('UNAVAILABLE', `the service could not check the agent token within ${this.#options.authTimeoutMs} ms; try again later`),
      this.#options.authTimeoutMs,
    );
    let machine: Awaited<ReturnType<MachineStore['byToken']>>;
    try {
      machine = await this.#options.store.byToken(token);
    } catch (error) {
      return this.#unavailable(error);
    }
    if (this.#closed) return;
    if (!machine) return this.#refuse('AUTH_FAILED', 'invalid agent token');
    if (machine.id !== machineId.toLowerCase()) return this.#refuse('AUTH_FAILED', 'invalid agent token: it belongs to another machine');
    const refusal = agentVersionRefusal(version, this.#options);
    if (refusal) return this.#refuse('UNSUPPORTED_VERSION', refusal);
    this.machineId = machine.id;
    this.clusterId = machine.clusterId;
    this.#options.claim(this);
    try {
      const online = await this.#options.store.markOnline(machine.id, version);
      this.generation = online.generation;
      // Both when they differ: the one here may be newer than the database's (its write still under way), or older.
      const here = this.#options.consoleMarks.get(machine.id);
      const consoleSeen = [online.consoleMark, here].filter(
        (mark, index, marks): mark is ConsoleMark => mark != null && (index === 0 || marks[0]?.run !== mark.run || marks[0].n !== mark.n),
      );
      if (this.#closed) {
        // Refused (time-out) while being marked ONLINE: nobody else will mark this connection's end.
        await this.#options.store.markOffline(machine.id, this.generation);
        return;
      }
      clearTimeout(this.#authTimer);
      // A connection of this machine held by another orchestrator process is replaced too.
      await this.#options.announce({ type: 'session_replaced', machineId: machine.id, generation: this.generation });
      this.send('authenticated', {
        machineId: machine.id,
        clusterId: machine.clusterId,
        heartbeatSeconds: this.#options.heartbeatSeconds,
        serverTime: new Date().toISOString(),
        features: SERVICE_FEATURES,
      });
      // For the first servers:sync after `authenticated` (a sync sent before it would be one the agent does not read).
      this.#consoleSeen = consoleSeen;
      this.#options.logger.info({ machineId: machine.id, version, framing: this.link.framing }, 'agent authenticated');
      this.#armLiveness();
      await this.sync();
      this.#markSynced();
      // Jobs accepted while the agent was away go out at once, after the servers they are for.
      for (const jobId of await this.#options.store.pendingJobIds(machine.id)) void this.deliver(jobId);
    } catch (error) {
      // The connection closes; its end marks the machine OFFLINE again (onClose). Pending jobs are swept meanwhile.
      this.#unavailable(error);
    }
  }

  /** Our failure while authenticating: the agent is told to try again later, and the connection closes. */
  #unavailable(error: unknown): void {
    this.#options.logger.error({ err: error, machineId: this.machineId }, 'could not authenticate an agent: database unavailable');
    this.#refuse('UNAVAILABLE', 'the service is temporarily unavailable; try again later');
  }

  async #report(event: AgentEventName, data: unknown, ack: Ack | undefined): Promise<void> {
    const { store } = this.#options;
    const machineId = this.machineId!;
    const notHere = (serverId: string) => this.#invalid(`server ${serverId} is not on this machine`, ack);
    switch (event) {
      case 'heartbeat':
        this.#armLiveness();
        // Swept OFFLINE while still connected (its beats could not be stored, e.g. a database outage): its servers
        // are UNKNOWN now; a servers:sync makes the agent report each one's status again.
        this.#options.metrics?.machine(machineId, (data as z.infer<(typeof AGENT_EVENTS)['heartbeat']>).metrics);
        if (await store.recordHeartbeat(machineId, data as z.infer<(typeof AGENT_EVENTS)['heartbeat']>)) await this.sync();
        break;
      case 'server:status': {
        const report = data as z.infer<(typeof AGENT_EVENTS)['server:status']>;
        if (!(await store.recordServerStatus(machineId, report, this.generation))) return notHere(report.serverId);
        break;
      }
      case 'server:query': {
        const report = data as z.infer<(typeof AGENT_EVENTS)['server:query']>;
        if (!(await store.recordServerQuery(machineId, report))) return notHere(report.serverId);
        break;
      }
      case 'players:snapshot': {
        const snapshot = data as z.infer<(typeof AGENT_EVENTS)['players:snapshot']>;
        if (!(await this.#options.players.snapshot(machineId, snapshot))) return notHere(snapshot.serverId);
        break;
      }
      case 'player:join':
      case 'player:leave': {
        const report = data as z.infer<(typeof AGENT_EVENTS)['player:join']>;
        this.#playerBatch.push({ kind: event === 'player:join' ? 'join' : 'leave', report, ack });
        if (this.#pending === 0 || this.#playerBatch.length >= MAX_PLAYER_BATCH) await this.#flushPlayers();
        return;
      }
      case 'job:progress': {
        const progress = data as z.infer<(typeof AGENT_EVENTS)['job:progress']>;
        if (!(await store.markRunning(machineId, progress.jobId, progress))) return this.#invalid(`job ${progress.jobId} is not this machine's`, ack);
        break;
      }
      case 'console':
      case 'server:stats': {
        // Relayed to viewers, never queued: another machine's server is refused as elsewhere (checked against the
        // last servers:sync, without a query per frame).
        const { serverId } = data as { serverId: string };
        if (event === 'console' && !this.#consoleMarked) {
          const { run, n } = data as { run?: string; n?: number };
          if (run !== undefined && n !== undefined) this.#consoleArrived(run, n);
        }
        if (!this.#serverIds.has(serverId.toLowerCase()) || !this.clusterId) return notHere(serverId);
        if (event === 'console') {
          const frame = data as z.infer<(typeof AGENT_EVENTS)['console']>;
          // Past this connection's mark: not relayed, so that the agent's sending it again shows it once.
          if (this.#consoleMarked) return;
          this.#options.live.console(this.clusterId, serverId.toLowerCase(), frame.lines, frame.at);
        } else {
          const sample = data as z.infer<(typeof AGENT_EVENTS)['server:stats']>;
          this.#options.live.stats(this.clusterId, { ...sample, serverId: serverId.toLowerCase() });
          this.#options.metrics?.server(serverId, sample);
        }
        break;
      }
      case 'sftp:auth': {
        const attempt = data as z.infer<(typeof AGENT_EVENTS)['sftp:auth']>;
        const answer = await this.#options.sftp.authenticate(machineId, attempt).catch((error: unknown) => {
          this.#options.logger.error({ err: error, machineId }, 'could not check an SFTP sign-in');
          return { allowed: false as const, reason: 'the service could not check the sign-in now; try again' };
        });
        if (!answer.allowed)
          this.#options.logger.info({ machineId, username: attempt.username, address: attempt.address, reason: answer.reason }, 'SFTP sign-in refused');
        ack?.(answer);
        return;
      }
      case 'sftp:check': {
        const { sessions } = data as z.infer<(typeof AGENT_EVENTS)['sftp:check']>;
        // Not answered when the database cannot say: the agent counts that against the session (it ends sessions
        // it cannot have checked for a while).
        ack?.(await this.#options.sftp.recheck(machineId, sessions));
        return;
      }
      case 'sftp:changed': {
        // Recorded while the next frames are handled: keeping the version of a text file reads it back from this
        // agent, whose answer must not wait behind this frame.
        const change = data as z.infer<(typeof AGENT_EVENTS)['sftp:changed']>;
        void this.#options.sftp.changed(machineId, change).then(
          (mine) => (mine ? ack?.({ accepted: true }) : notHere(change.serverId)),
          (error: unknown) => {
            this.#options.logger.error({ err: error, machineId }, 'could not record an SFTP change');
            ack?.(STORE_FAILED);
          },
        );
        return;
      }
      case 'sftp:listening': {
        const listening = data as z.infer<(typeof AGENT_EVENTS)['sftp:listening']>;
        await this.#options.sftp.listening(machineId, listening.port, listening.hostKeyFingerprint);
        break;
      }
      case 'job:result': {
        const result = data as z.infer<(typeof AGENT_EVENTS)['job:result']>;
        // Stored while the next frames are handled (results of different jobs do not depend on each other, and the
        // store writes those that arrive together in one statement); acknowledged only once stored: the agent then
        // drops it from its outbox. Not stored (the database is away): not acknowledged, so the agent sends it again.
        // Refused by Postgres for a value of its own (what validation missed): INVALID_EVENT, as sending it again
        // would change nothing.
        void store.storeResult(machineId, result).then(
          (mine) => (mine ? ack?.({ accepted: true, stored: true }) : this.#invalid(`job ${result.jobId} is not this machine's`, ack)),
          (error: unknown) => {
            this.#options.logger.error({ err: error, machineId, jobId: result.jobId }, 'could not store a job result');
            if (isRefusedValue(error)) this.#invalid(`invalid job:result: the service cannot store it (${(error as Error).message.slice(0, 200)})`, ack);
            else ack?.(STORE_FAILED);
          },
        );
        return;
      }
    }
    ack?.({ accepted: true });
  }

  /** Stores the collected joins and leaves in one call; each is acknowledged (or refused) once stored. */
  async #flushPlayers(): Promise<void> {
    if (this.#playerBatch.length === 0 || !this.machineId) return;
    const batch = this.#playerBatch;
    this.#playerBatch = [];
    let known: boolean[];
    try {
      known = await this.#options.players.events(this.machineId, batch);
    } catch (error) {
      // One report must not fail the others stored with it: each again on its own, answered on its own.
      if (batch.length > 1) for (const item of batch) await this.#storePlayers([item]);
      else this.#playersNotStored(batch, error);
      return;
    }
    batch.forEach((item, index) =>
      known[index] ? item.ack?.({ accepted: true }) : this.#invalid(`server ${item.report.serverId} is not on this machine`, item.ack),
    );
  }

  async #storePlayers(batch: (PlayerEvent & { ack: Ack | undefined })[]): Promise<void> {
    try {
      const [known] = await this.#options.players.events(this.machineId!, batch);
      if (known) batch[0]!.ack?.({ accepted: true });
      else this.#invalid(`server ${batch[0]!.report.serverId} is not on this machine`, batch[0]!.ack);
    } catch (error) {
      this.#playersNotStored(batch, error);
    }
  }

  #playersNotStored(batch: (PlayerEvent & { ack: Ack | undefined })[], error: unknown): void {
    this.#options.logger.error({ err: error, machineId: this.machineId, reports: batch.length }, 'could not store player reports');
    for (const item of batch) {
      if (isRefusedValue(error)) this.#invalid(`invalid player:${item.kind}: the service cannot store it`, item.ack);
      // Not the agent's fault (the frames were valid): refuse these, keep handling the others.
      else item.ack?.({ accepted: false, reason: 'could not store the report; it is covered by the next player list' });
    }
  }

  /** (Re)starts the countdown to OFFLINE: three heartbeat periods without a beat. */
  #armLiveness(): void {
    clearTimeout(this.#livenessTimer);
    const limitMs = this.#options.heartbeatSeconds * 1000 * MISSED_BEATS;
    this.#livenessTimer = setTimeout(() => {
      this.#options.logger.warn({ machineId: this.machineId }, `no heartbeat for ${limitMs} ms: machine is OFFLINE`);
      this.link.close();
      void this.#onClose();
    }, limitMs);
  }

  #stopTimers(): void {
    clearTimeout(this.#authTimer);
    clearTimeout(this.#livenessTimer);
    clearTimeout(this.#consoleTimer);
  }

  /** A numbered console frame arrived: confirmed to the agent within CONSOLE_SEEN_MS, with those after it. */
  #consoleArrived(run: string, n: number): void {
    if (run !== this.#consoleRun) {
      this.#consoleRun = run;
      this.#consoleN = 0;
      this.#consoleConfirmed = 0;
    }
    if (n > this.#consoleN) this.#consoleN = n;
    if (this.#consoleTimer) return;
    this.#consoleTimer = setTimeout(() => {
      this.#consoleTimer = undefined;
      if (this.#closed || this.#consoleMarked || this.#consoleN <= this.#consoleConfirmed) return;
      this.#consoleConfirmed = this.#consoleN;
      this.send('console:seen', { n: this.#consoleN });
    }, CONSOLE_SEEN_MS);
    this.#consoleTimer.unref();
  }

  /**
   * Ends this connection's console: what arrived so far is its mark (kept in this process and answered for the
   * database to keep), and later frames are not relayed. Undefined when no numbered frame came; the same mark when
   * taken before.
   */
  takeConsoleMark(): ConsoleMark | undefined {
    if (this.#consoleMarked) return this.#consoleMark;
    this.#consoleMarked = true;
    clearTimeout(this.#consoleTimer);
    this.#consoleTimer = undefined;
    if (this.#consoleRun === undefined || this.machineId === null) return undefined;
    this.#consoleMark = { run: this.#consoleRun, n: this.#consoleN };
    this.#options.consoleMarks.set(this.machineId, this.#consoleMark);
    return this.#consoleMark;
  }

  /** Takes the console mark (unless taken before) and writes it to the database, once (logged, never thrown). */
  async saveConsoleMark(): Promise<void> {
    const mark = this.takeConsoleMark();
    if (!mark || this.#consoleMarkSaved) return;
    this.#consoleMarkSaved = true;
    await this.#options.store
      .recordConsoleMark(this.machineId!, mark)
      .catch((error: unknown) => this.#options.logger.warn({ err: error, machineId: this.machineId }, 'could not record the console mark'));
  }

  async #onClose(): Promise<void> {
    const wasOwner = this.machineId !== null && this.#options.owns(this);
    this.#closed = true;
    this.#stopTimers();
    this.#markSynced();
    // Whatever ends the connection, what of the console arrived is kept for the next one (a replaced connection too);
    // the mark is taken now (later frames are not relayed), its write runs beside the rest.
    const savingMark = this.saveConsoleMark();
    // Joins and leaves received before the end are stored (also when a newer connection replaced this one).
    if (!wasOwner) {
      await this.#flushPlayers().catch(() => undefined);
      return void (await savingMark);
    }
    this.#options.release(this);
    try {
      // Joins and leaves received before the end are stored before the machine's sessions are closed.
      await this.#flushPlayers();
      await this.#options.store.markOffline(this.machineId!, this.generation);
    } catch (error) {
      this.#options.logger.error({ err: error, machineId: this.machineId }, 'could not mark the machine offline');
    }
    await savingMark;
  }
}
