/**
 * The reference agent's `run` (docs/agent.md): it connects to the gateway over Socket.IO, authenticates, heartbeats,
 * runs the servers `servers:sync` assigns to this machine, and reconnects with exponential back-off and jitter when
 * the connection drops. `url` may list several gateways: a failed attempt moves on to the next one
 * (connection/gatewayAddresses.ts). A refused token ends it (exit 2): retrying cannot help; a refused version is tried
 * again only every VERSION_REFUSED_RETRY_MS (its servers keep being looked after); the service's own failure
 * (`UNAVAILABLE`, e.g. its database is away) is retried after the usual back-off. The service may tell it to upgrade
 * itself (selfInstall/upgrade.ts). Job results and server statuses are re-sent until
 * the service acknowledges them (connection/untilAcked.ts).
 *
 * Game servers outlive the agent: on start it re-adopts those an earlier agent left running (runtime/processRuntime.ts),
 * and SIGINT/SIGTERM end the agent alone, unless the machine is shutting down or `stopServersOnExit` is set, when
 * the servers are stopped gracefully first.
 */
import { chmod, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { AGENT_VERSION } from './version.ts';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { createLogger } from '../schema/logger.ts';
import { authenticatedEvent, errorEvent, serversSyncEvent } from '../schema/agentEvents.ts';
import { ProcessRuntime } from './runtime/processRuntime.ts';
import { ServerSupervisor, rememberedServer, runDirOf, type SupervisorOptions } from './servers/serverSupervisor.ts';
import { Accounts, checkDataDirPath } from './servers/accounts.ts';
import { Cgroups } from './runtime/cgroups.ts';
import type { AgentSettings } from './settings.ts';
import { createMetricsSampler } from './machineMetrics.ts';
import { JobRunner } from './jobs/jobRunner.ts';
import { createExecutor } from './jobs/executor.ts';
import { pruneBackups, type BackupSettings } from './backups/backupJobs.ts';
import { recoverInterruptedRestores } from './backups/archiver.ts';
import { claimDataDir, hasTraces, removeServer } from './servers/removal.ts';
import { Supervisors } from './servers/supervisors.ts';
import { FileSessions } from './files/fileSessions.ts';
import { DiskUsage } from './files/diskUsage.ts';
import { TransferRequests } from './transfers/transferRequests.ts';
import { GatewayAddresses } from './connection/gatewayAddresses.ts';
import { UntilAcked, type Delivery } from './connection/untilAcked.ts';
import { transportsFor } from './connection/websocketTransport.ts';
import { startSftpService, type SftpService } from './sftp/service.ts';
import { FileOpError } from './files/fileHelper.ts';
import { HeldConsole, SentConsole, type ConsoleFrame } from './connection/heldConsole.ts';
import { denyListOf } from './sftp/denyList.ts';
import { agentUpgradeEvent, sftpRecheckEvent } from '../schema/agentEvents.ts';
import {
  checkUpgradeAtStartup,
  installStaged,
  restartInPlace,
  RESTART_EXIT_CODE,
  ROLLBACK_AFTER_MS,
  rollBackInstalled,
  stageUpgrade,
  upgradeConfirmed,
  type StagedUpgrade,
  type UpgradeAnswer,
} from './selfInstall/upgrade.ts';

export { AGENT_VERSION };

/** What `gsm-agent status` reads: written by the running agent on every change of connection and each heartbeat. */
export const STATUS_FILE = 'agent-status.json';

/** How long an agent whose version the service refused waits before asking again. */
const VERSION_REFUSED_RETRY_MS = 10 * 60_000;
/** The longest a stopping agent waits for its running jobs (and at most its stop time-out; within TimeoutStopSec). */
const JOB_DRAIN_MAX_MS = 30_000;

/** Whether systemd is taking the machine down (the agent then stops its servers gracefully before exiting). */
function machineShuttingDown(): boolean {
  if (!existsSync('/run/systemd/system')) return false;
  const answer = spawnSync('systemctl', ['is-system-running'], { encoding: 'utf8', timeout: 2_000 });
  return answer.stdout?.trim() === 'stopping';
}

export async function runAgent(settings: AgentSettings): Promise<void> {
  const { url: urls, machineId, token, path, stopTimeoutMs, reportIntervalMs, queryIntervalMs, dataDir, diskUsageIntervalMs } = settings;
  const isRoot = process.getuid?.() === 0;
  await mkdir(dataDir, { recursive: true });
  if (isRoot) {
    if (!settings.allowRoot) await checkDataDirPath(dataDir);
    // Servers' accounts may pass through to their own directories, and see nothing else of the agent's.
    await chmod(dataDir, 0o711);
    await mkdir(join(dataDir, 'servers'), { recursive: true, mode: 0o711 });
    await chmod(join(dataDir, 'servers'), 0o711);
    await mkdir(join(dataDir, 'run'), { recursive: true, mode: 0o700 });
    await chmod(join(dataDir, 'run'), 0o700);
  }
  // Backups, checked-but-not-installed downloads and console logs are the agent's alone.
  for (const own of ['backups', 'staging', 'logs', 'transfers']) {
    await mkdir(join(dataDir, own), { recursive: true, mode: 0o700 });
    await chmod(join(dataDir, own), 0o700);
  }

  const logger = createLogger(settings.logLevel).child({ component: 'agent', machineId });
  const claim = await claimDataDir(dataDir, machineId);
  if (!claim.own)
    logger.error(
      { dataDir, recordedMachineId: claim.recorded },
      'this data directory belongs to another machine: no server’s files will be removed by this agent',
    );
  const recovered = await recoverInterruptedRestores(join(dataDir, 'servers'));
  if (recovered.length > 0) logger.warn({ servers: recovered }, 'put back server directories a restore interrupted by the agent stopping had moved aside');
  const runtime = new ProcessRuntime();
  const accounts = new Accounts({ user: settings.user, enabled: isRoot && !settings.allowRoot, dataDir });
  const cgroups = new Cgroups({ pidsMax: settings.serverPidsMax });
  if (isRoot) await cgroups.setUp(process.env.GSM_CGROUP_ROOT);
  if (isRoot && settings.allowRoot) logger.warn('allowRoot is set: game servers run as root');
  logger.info({ limits: cgroups.available ? 'cgroup v2' : 'memory watched by the agent', reason: cgroups.reason }, 'server limits');
  const metrics = createMetricsSampler(dataDir);
  const supervisors = new Supervisors();
  const files = new FileSessions({
    dataDir,
    accounts,
    denyListOf: (serverId) => {
      const supervisor = supervisors.get(serverId);
      return supervisor ? denyListOf(supervisor.config) : undefined;
    },
  });

  const diskUsage = new DiskUsage(files, diskUsageIntervalMs);
  const transfers = new TransferRequests({
    dataDir,
    accounts,
    supervisors,
    // A transfer's source holds the server's files from its archive on: its SFTP sessions end, its file helpers stop.
    files: {
      hold: async (serverId) => {
        sftp?.closeServer(serverId, 'the server is being transferred to another machine');
        await files.hold(serverId);
      },
      release: (serverId) => files.release(serverId),
      held: (serverId) => files.held(serverId),
    },
  });

  const gateways = new GatewayAddresses(urls);
  /** How long one connection attempt may take before it counts as failed (and the next address is tried). */
  const CONNECT_TIMEOUT_MS = 10_000;
  /** How long the service has to acknowledge a result or a status before it is sent again. */
  const ACK_TIMEOUT_MS = 10_000;

  /** The current connection; replaced by a new one for every attempt (possibly to another gateway). */
  let socket: Socket | undefined;
  let authenticated = false;
  /** Console output that came while no connection took it, sent after the next connection's first `servers:sync`. */
  const heldConsole = new HeldConsole();
  /** Whether this connection takes console output (authenticated, and its first `servers:sync` arrived). */
  let consoleOpen = false;
  /**
   * Console frames sent and not yet confirmed by the service (with its `consoleSeen` feature): numbered, per agent
   * process (`consoleRun`), so that what a connection that ended without a goodbye may have lost is sent again.
   */
  const sentConsole = new SentConsole();
  const consoleRun = randomBytes(8).toString('hex');
  let consoleNumber = 0;
  /** What the service said it takes beyond the first protocol (`authenticated.features`, schema/agentEvents.ts). */
  let serviceFeatures = new Set<string>();
  let heartbeat: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let sentHost: string | null = null;
  let stopping = false;
  /** The last connection was refused for the agent's version: the next attempt waits VERSION_REFUSED_RETRY_MS. */
  let versionRefused = false;

  /** Sends `event` and waits for the service's answer; a lost connection or no answer in time is a retry. */
  async function sendAcked(event: string, data: object, acked: (answer: Record<string, unknown>) => boolean): Promise<Delivery> {
    const current = socket;
    if (!authenticated || !current) return 'retry';
    let answer: Record<string, unknown> | undefined;
    try {
      answer = await current.timeout(ACK_TIMEOUT_MS).emitWithAck(event, data);
    } catch {
      return 'retry';
    }
    if (answer && acked(answer)) return 'acked';
    // Refused for good (the service will never take it, e.g. a server no longer on this machine) or to be sent again.
    if (answer?.accepted === false && answer.retry !== true) return 'refused';
    logger.info(
      { event, ...(data as Record<string, unknown>), reason: answer?.reason },
      `${event === 'job:result' ? 'job result' : event} not stored; sending it again`,
    );
    return 'retry';
  }

  /** Each server's current status, until the service has stored it. */
  const statuses = new UntilAcked<Record<string, unknown>>({
    // A service that did not announce `serverProcess` (an older one) refuses a status with `process`: it goes without;
    // likewise `templateId` and `templateVersion` without `templateVersion`.
    send: ({ process: running, templateId, templateVersion, ...rest }) =>
      sendAcked(
        'server:status',
        {
          ...rest,
          ...(running !== undefined && serviceFeatures.has('serverProcess') ? { process: running } : {}),
          ...(templateVersion !== undefined && serviceFeatures.has('templateVersion') ? { templateId, templateVersion } : {}),
        },
        (answer) => answer.accepted === true,
      ),
    onSettled: (serverId, _report, delivery) => {
      if (delivery === 'refused') logger.warn({ serverId }, 'the service refused a status report');
    },
    onError: (error) => logger.error({ err: error }, 'status report error'),
  });

  /** Results leave the outbox only once the service confirms it stored them. */
  const results = new UntilAcked<{ jobId: string }>({
    send: (result) => sendAcked('job:result', result, (answer) => answer.stored === true),
    onSettled: async (jobId, _result, delivery) => {
      if (delivery === 'acked') await jobs.acknowledge(jobId);
      // A refused one stays in the outbox (sent again after the next reconnect) but is not re-sent on the timer.
      else logger.warn({ jobId }, 'the service refused a job result');
    },
    onError: (error) => logger.error({ err: error }, 'job result error'),
  });

  /** Sends a report while authenticated; otherwise drops it (statuses wait and are sent again, see `statuses`). */
  const report = (event: string, data: Record<string, unknown>) => {
    if (event === 'server:status') {
      logger[data.status === 'CRASHED' ? 'warn' : 'info'](data, `server ${String(data.status)}`);
      return statuses.put(String(data.serverId), data);
    }
    // Console output is what users read: kept while no connection takes it, and sent once one does (the service
    // takes a server's console only once it has sent this connection its servers: until `servers:sync` it refuses it).
    if (event === 'console') {
      if (authenticated && consoleOpen && socket) sendConsole(socket, data as ConsoleFrame);
      else if (!stopping) heldConsole.hold(data as ConsoleFrame);
      return;
    }
    if (authenticated) socket?.emit(event, data);
  };

  /** Sends a console frame, numbered and kept until confirmed when the service confirms them. */
  function sendConsole(on: Socket, frame: ConsoleFrame): void {
    if (!serviceFeatures.has('consoleSeen')) return void on.emit('console', frame);
    const n = ++consoleNumber;
    sentConsole.sent(frame, n);
    on.emit('console', { ...frame, run: consoleRun, n });
  }

  async function beat(): Promise<void> {
    saveStatus();
    // The host's facts go with the first beat, and again whenever they change (a program installed on the machine).
    const host = metrics.host();
    const hostText = JSON.stringify(host);
    // A service that did not announce `diskFree` (an older one) refuses metrics with `diskFreeBytes`: they go without.
    const { diskFreeBytes, ...sampled } = await metrics.sample();
    const sample = diskFreeBytes !== undefined && serviceFeatures.has('diskFree') ? { ...sampled, diskFreeBytes } : sampled;
    report('heartbeat', { metrics: sample, uptime: Math.round(process.uptime()), ...(hostText === sentHost ? {} : { host }) });
    sentHost = hostText;
  }

  const supervisorOptions: SupervisorOptions = {
    dataDir,
    runtime,
    report,
    termAfterMs: stopTimeoutMs,
    killAfterMs: stopTimeoutMs * 2,
    statsIntervalMs: reportIntervalMs,
    snapshotIntervalMs: reportIntervalMs,
    queryIntervalMs,
    accounts,
    cgroups,
    diskUsage: (serverId) => diskUsage.of(serverId),
  };

  /**
   * Game servers an earlier agent left running are taken over as they are (no restart); those that ended while no agent
   * ran are CRASHED and handled by their restart policy. Their configuration is the one last synced; the first
   * `servers:sync` brings it up to date (and stops any server no longer on this machine).
   */
  async function adoptLeftRunning(): Promise<void> {
    const ids = await readdir(join(dataDir, 'run')).catch(() => [] as string[]);
    for (const id of ids) {
      const runDir = runDirOf(dataDir, id);
      const remembered = await rememberedServer(runDir);
      const proc = await runtime.adopt(runDir);
      if (remembered?.config.id === id && proc === undefined && (remembered.hold !== undefined || remembered.status === 'INSTALL_FAILED')) {
        // Ended under the earlier agent and held there (crash restarts given up, an install failed): still held.
        const supervisor = new ServerSupervisor(remembered.config, supervisorOptions);
        supervisors.set(id, supervisor);
        supervisor.restore(remembered);
        continue;
      }
      if (!remembered || remembered.config.id !== id || proc === undefined) {
        // Ours (its identity checked) but not manageable without its configuration: stopped rather than left holding its ports.
        if (proc && proc !== 'gone') {
          logger.warn({ serverId: id, pid: proc.pid }, 'a game server runs without its configuration; stopping it');
          await proc.stop({ termAfterMs: 0, killAfterMs: 10_000 });
        }
        continue;
      }
      const supervisor = new ServerSupervisor(remembered.config, supervisorOptions);
      supervisors.set(id, supervisor);
      if (proc === 'gone') {
        logger.warn({ serverId: id }, 'a game server ended while no agent was running');
        supervisor.orphanEnded(remembered.status);
      } else {
        logger.info({ serverId: id, pid: proc.pid, status: remembered.status }, 'adopted a running game server');
        await supervisor.adopt(proc, remembered.status);
      }
    }
  }

  /** The agent's state for `gsm-agent status` (replaced atomically). */
  let connectedUrl: string | undefined;
  const startedAt = new Date().toISOString();
  async function writeStatus(): Promise<void> {
    const state = {
      pid: process.pid,
      version: AGENT_VERSION,
      startedAt,
      updatedAt: new Date().toISOString(),
      machineId,
      connected: authenticated,
      url: connectedUrl ?? null,
      limits: cgroups.available ? 'cgroup v2' : `memory watched by the agent (${cgroups.reason})`,
      runAsRoot: !accounts.enabled,
      servers: [...supervisors.values()].map((supervisor) => ({ id: supervisor.config.id, name: supervisor.config.name, status: supervisor.status })),
    };
    const file = join(dataDir, STATUS_FILE);
    await writeFile(`${file}.tmp`, JSON.stringify(state, null, 2), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }
  /** One write at a time, and the last state always written last (two overlapping renames could leave an older state). */
  let statusWriting: Promise<void> | undefined;
  let statusDirty = false;
  const saveStatus = (): void => {
    statusDirty = true;
    if (statusWriting) return;
    statusWriting = (async () => {
      while (statusDirty) {
        statusDirty = false;
        await writeStatus().catch((error: unknown) => logger.debug({ err: error }, 'could not write the status file'));
      }
    })().finally(() => (statusWriting = undefined));
  };

  const backups: BackupSettings = { dataDir, flushTimeoutMs: settings.flushTimeoutMs, ...(settings.backupS3 ? { s3: settings.backupS3 } : {}) };
  const jobs = new JobRunner({
    dataDir,
    executor: createExecutor({
      supervisor: (serverId, timeoutMs, signal) => supervisors.waitFor(serverId, timeoutMs, signal),
      stopTimeoutMs,
      installs: { dataDir, manifestUrl: settings.minecraftManifestUrl, steamcmdUrl: settings.steamcmdUrl },
      backups,
      accountFor: async (serverId) => accounts.forServer(serverId),
      files,
    }),
    send(event, data) {
      if (event === 'job:result') return results.put((data as { jobId: string }).jobId, data as { jobId: string });
      if (authenticated) socket?.emit(event, data);
    },
    onError: (error) => logger.error({ err: error }, 'job runner error'),
  });
  await jobs.init();

  /** SFTP (docs/sftp.md): sign-ins are decided by the service, over this connection. */
  const sftp: SftpService | undefined = settings.sftp
    ? await startSftpService({
        dataDir,
        port: settings.sftpPort,
        address: settings.sftpAddress,
        recheckMs: settings.sftpRecheckMs,
        logger,
        request: async (event, data) => {
          const current = socket;
          if (!authenticated || !current) throw new Error('not connected to the service');
          return current.timeout(ACK_TIMEOUT_MS).emitWithAck(event, data) as Promise<unknown>;
        },
        emit: (event, data) => {
          if (authenticated) socket?.emit(event, data);
        },
        // A file helper of its own per session, running as the server's account, following the server's deny list.
        files: async (serverId) => {
          if (!supervisors.get(serverId)) throw new FileOpError('NOT_FOUND', 'this server is not on this machine');
          return files.sessionHelper(serverId);
        },
      })
    : undefined;

  /** Applies one `servers:sync`; syncs are applied one after the other, in the order they came. */
  async function applySync(data: unknown): Promise<void> {
    const parsed = serversSyncEvent.safeParse(data);
    if (!parsed.success) return logger.error('malformed servers:sync');
    parsed.data.servers.forEach((config, index) => {
      const raw = (data as { servers: Record<string, unknown>[] }).servers[index]!;
      for (const field of ['ready', 'consoleMode', 'stop'] as const)
        if (raw[field] !== undefined && raw[field] !== null && config[field] === null)
          logger.warn({ serverId: config.id, field, value: raw[field] }, `${field} is unknown to this agent (a newer service?): the default is used`);
    });
    const wanted = new Map(parsed.data.servers.map((server) => [server.id, server]));
    // Every server is set up before any is reconciled (which can take a while): a job waiting for one runs at once.
    for (const config of wanted.values()) {
      const existing = supervisors.get(config.id);
      if (existing) {
        existing.config = config;
        existing.remember();
        void existing.applyLimits().catch((error: unknown) => logger.warn({ err: error, serverId: config.id }, 'could not apply new limits'));
        continue;
      }
      supervisors.set(config.id, new ServerSupervisor(config, supervisorOptions));
    }
    // A deny list that changed reaches every open file helper (SFTP sessions' too) without stopping work under way.
    void files.denyListsChanged().catch((error: unknown) => logger.warn({ err: error }, 'could not give a file helper its new deny list (it was stopped)'));
    // Every server's status goes out again with each sync: a new one's first status, and the others' because the
    // service sends a sync when it may have lost them (it marked the machine's servers UNKNOWN while the agent stayed
    // connected, e.g. after a database outage). The service keeps the newest per server, so repeats change nothing.
    for (const serverId of wanted.keys()) supervisors.get(serverId)?.reportStatus();
    // Archives of backups the service no longer lists (deleted, or beyond the server's retention) go.
    for (const config of wanted.values()) {
      if (!config.backups) continue;
      void pruneBackups(backups, config.id, new Set(config.backups)).then(
        (removed) => removed.length > 0 && logger.info({ serverId: config.id, backups: removed }, 'removed backups the service no longer has'),
        (error: unknown) => logger.warn({ err: error, serverId: config.id }, 'could not remove old backups'),
      );
    }
    const deleted = new Set(parsed.data.deleted ?? []);
    for (const [id, supervisor] of [...supervisors.entries()]) {
      if (!wanted.has(id)) {
        sftp?.closeServer(id);
        supervisors.delete(id);
        await supervisor.dispose().catch((error: unknown) => logger.error({ err: error, serverId: id }, 'could not stop a removed server'));
        if (!deleted.has(id)) logger.warn({ serverId: id }, 'a server no longer listed for this machine (not deleted in the service): stopped, its files kept');
      }
    }
    // Deleted in the service: its files and account go too (its backups stay); only on this explicit word.
    for (const id of deleted) {
      if (wanted.has(id) || supervisors.has(id) || !(await hasTraces(dataDir, id, accounts))) continue;
      if (!claim.own) {
        logger.error({ serverId: id }, 'not removing a deleted server’s files: this data directory belongs to another machine');
        continue;
      }
      await removeServer(dataDir, id, accounts).then(
        () => logger.info({ serverId: id }, 'removed a deleted server’s files and account'),
        (error: unknown) => logger.error({ err: error, serverId: id }, 'could not remove a deleted server’s files'),
      );
    }
    for (const config of wanted.values()) {
      await supervisors
        .get(config.id)
        ?.reconcile()
        .catch((error: unknown) => logger.error({ err: error, serverId: config.id }, 'reconcile failed'));
    }
  }
  let syncing: Promise<void> = Promise.resolve();

  /** Opens a connection to `url` and speaks the protocol on it; when it ends, the next attempt is scheduled. */
  function open(url: string): void {
    const current = io(url, { path, transports: transportsFor(url), reconnection: false, forceNew: true, timeout: CONNECT_TIMEOUT_MS });
    socket = current;
    /** Whether this connection ever worked (authenticated); an attempt that did not counts as failed. */
    let worked = false;
    const mine = () => socket === current && !stopping;

    current.on('connect', () => {
      if (!mine()) return;
      authenticated = false;
      consoleOpen = false;
      current.emit('auth', { token, machineId, version: AGENT_VERSION });
    });

    current.on('connect_error', (error: Error) => {
      if (!mine()) return;
      logger.warn({ url, err: error.message }, 'could not connect to the gateway');
      end(current, true);
    });

    // Checked against the job message's schema (schema/agentEvents.ts) by the runner, whose answer is the ack.
    current.on('job', (data: unknown, ack?: (answer: Record<string, unknown>) => void) => ack?.(jobs.receive(data)));

    // The service's file operations on a server (docs/agent.md#server-files), answered in the acknowledgement.
    current.on('files', (data: unknown, ack?: (answer: Record<string, unknown>) => void) => {
      if (!ack) return;
      const request = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
      const bytes = Buffer.isBuffer(request.data) ? request.data : request.data instanceof Uint8Array ? Buffer.from(request.data) : undefined;
      void files.handle(request, bytes).then(ack);
    });

    // A transfer between machines, run by the service (docs/transfers.md), answered in the acknowledgement.
    current.on('transfer', (data: unknown, ack?: (answer: Record<string, unknown>) => void) => {
      if (!ack) return;
      const request = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
      const bytes = Buffer.isBuffer(request.data) ? request.data : request.data instanceof Uint8Array ? Buffer.from(request.data) : undefined;
      void transfers.handle(request, bytes).then(ack);
    });

    current.on('job:cancel', (data: { jobId?: unknown }) => {
      if (typeof data?.jobId === 'string') jobs.cancel(data.jobId);
    });

    current.on('authenticated', (data: unknown) => {
      if (!mine()) return;
      const parsed = authenticatedEvent.safeParse(data);
      if (!parsed.success) return logger.error('malformed authenticated message');
      authenticated = true;
      worked = true;
      serviceFeatures = new Set(parsed.data.features ?? []);
      if (upgradePending) {
        upgradePending = false;
        clearTimeout(rollbackTimer);
        void upgradeConfirmed().catch((error: unknown) => logger.warn({ err: error }, 'could not remove the previous agent package'));
      }
      gateways.connected();
      sentHost = null;
      logger.info({ url, clusterId: parsed.data.clusterId }, 'authenticated');
      connectedUrl = url;
      clearInterval(heartbeat);
      heartbeat = setInterval(() => void beat(), parsed.data.heartbeatSeconds * 1000);
      void beat();
      // The service marked the servers UNKNOWN while the agent was away: their statuses go out again, and every
      // result it has not acknowledged.
      for (const supervisor of supervisors.values()) supervisor.reportStatus();
      jobs.resendOutbox();
      sftp?.announce();
      statuses.online();
      results.online();
    });

    // A fleet upgrade (docs/upgrades.md#upgrading-the-agents): answered once the package is downloaded and checked.
    current.on('agent:upgrade', (data: unknown, ack?: (answer: UpgradeAnswer) => void) => {
      void upgradeTo(data, url).then((answer) => ack?.(answer));
    });

    current.on('console:seen', (data: unknown) => {
      const n = (data as { n?: unknown } | null)?.n;
      if (mine() && typeof n === 'number') sentConsole.confirmed(n);
    });

    current.on('sftp:recheck', (data: unknown) => {
      const parsed = sftpRecheckEvent.safeParse(data);
      if (parsed.success) sftp?.recheck(parsed.data.userId);
    });

    current.on('servers:sync', (data: unknown) => {
      // The first of the connection: the service now takes these servers' console, and what was held goes first.
      if (mine() && authenticated && !consoleOpen) {
        consoleOpen = true;
        const servers = (data as { servers?: unknown } | null)?.servers;
        const ids = new Set(Array.isArray(servers) ? servers.map((server) => (server as { id?: unknown } | null)?.id) : []);
        // What of this process's numbered frames reached the service before this connection is not sent again.
        const seen = (data as { consoleSeen?: unknown } | null)?.consoleSeen;
        const arrived = Array.isArray(seen)
          ? Math.max(0, ...seen.map((mark) => (mark?.run === consoleRun && Number.isSafeInteger(mark?.n) ? (mark.n as number) : 0)))
          : 0;
        const held = heldConsole.drain(new Date(), arrived).filter((frame) => ids.has(frame.serverId));
        if (held.length > 0) logger.info({ frames: held.length, arrived }, 'sending the console output held while the connection was away');
        for (const frame of held) sendConsole(current, frame);
      }
      syncing = syncing.then(() => applySync(data)).catch((error: unknown) => logger.error({ err: error }, 'servers:sync failed'));
    });

    current.on('error', (data: unknown) => {
      const parsed = errorEvent.safeParse(data);
      if (!parsed.success) return;
      logger.error({ code: parsed.data.code }, parsed.data.message);
      // A refused token stops the agent for good (exit 2: systemd does not restart it). A gateway that did not see the
      // auth message in time (its event loop, or the network, slower than its time-out) refused nothing the agent
      // can mend by stopping: the connection closes and the agent tries again after the back-off, like UNAVAILABLE.
      if (parsed.data.code === 'AUTH_FAILED' && /^no auth message within/.test(parsed.data.message)) worked = false;
      else if (parsed.data.code === 'AUTH_FAILED') void shutdown(2);
      // Too old (or new) for this service: it goes on running its servers and asks again only after a long wait (an
      // upgraded service, or a lowered MIN_AGENT_VERSION, takes it back then); upgrading the agent restarts it at once.
      if (parsed.data.code === 'UNSUPPORTED_VERSION') {
        versionRefused = true;
        logger.error(
          { version: AGENT_VERSION, retryInMs: VERSION_REFUSED_RETRY_MS },
          `the service does not accept this agent's version (${AGENT_VERSION}); upgrade the agent (the machine's install.upgradeCommand). Trying again in ${VERSION_REFUSED_RETRY_MS / 60_000} minutes`,
        );
      }
      // UNAVAILABLE: the service could not serve this connection (its database is away); the connection closes and
      // the agent tries again after the back-off, at the next address.
      if (parsed.data.code === 'UNAVAILABLE') worked = false;
    });

    current.on('disconnect', (reason) => {
      if (!mine()) return;
      logger.warn({ url, reason }, 'disconnected from the gateway');
      end(current, !worked);
    });
  }

  /** The connection is over: stop what runs on it and try again after the back-off (the next address if it failed). */
  function end(ended: Socket, failed: boolean): void {
    // Sent on this connection and not confirmed: perhaps lost with it. Held (before anything held since: nothing is
    // held while a connection takes the console) with their numbers, for the next connection's mark to sort out.
    const unconfirmed = sentConsole.take();
    if (!stopping) {
      for (const [serverId, count] of unconfirmed.forgotten) heldConsole.unsure(serverId, count);
      for (const { frame, n } of unconfirmed.frames) heldConsole.hold(frame, n);
    }
    authenticated = false;
    consoleOpen = false;
    connectedUrl = undefined;
    saveStatus();
    clearInterval(heartbeat);
    statuses.offline();
    results.offline();
    ended.removeAllListeners();
    ended.close();
    if (socket === ended) socket = undefined;
    if (stopping) return;
    const next = gateways.next(failed);
    const delayMs = versionRefused ? VERSION_REFUSED_RETRY_MS : next.delayMs;
    versionRefused = false;
    logger.info({ url: next.url, delayMs }, 'reconnecting');
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(() => open(next.url), delayMs);
  }

  /** Whether this agent was just installed by a self-upgrade and has not authenticated yet (the previous package waits). */
  let upgradePending = false;
  let rollbackTimer: NodeJS.Timeout | undefined;
  /** The upgrade under way: a repeated command gets the same answer. */
  let upgrading: Promise<UpgradeAnswer> | undefined;
  function upgradeTo(data: unknown, gatewayUrl: string): Promise<UpgradeAnswer> {
    const parsed = agentUpgradeEvent.safeParse(data);
    if (!parsed.success) return Promise.resolve({ accepted: false, reason: 'invalid agent:upgrade command' });
    if (parsed.data.version === AGENT_VERSION) return Promise.resolve({ accepted: true, version: AGENT_VERSION });
    upgrading ??= (async (): Promise<UpgradeAnswer> => {
      logger.info({ version: parsed.data.version, url: parsed.data.url }, 'upgrading the agent');
      try {
        const staged = await stageUpgrade(parsed.data, AGENT_VERSION, gatewayUrl);
        // After the answer has gone: the package replaced, the agent restarted, the game servers left running.
        setImmediate(() => void shutdown(0, undefined, staged));
        return { accepted: true, version: staged.version };
      } catch (error) {
        upgrading = undefined;
        const reason = (error as Error).message;
        logger.error({ version: parsed.data.version, reason }, 'the agent upgrade failed; this version keeps running');
        return { accepted: false, reason };
      }
    })();
    return upgrading;
  }

  /**
   * Ends the agent: with `code`, or after an upgrade was staged, by installing it and starting the new version (the
   * game servers always keep running then, whatever `stopServersOnExit` says).
   */
  async function shutdown(code: number, signal?: string, upgrade?: StagedUpgrade, restart = false): Promise<void> {
    if (stopping) return;
    stopping = true;
    clearTimeout(reconnectTimer);
    statuses.offline();
    results.offline();
    const stopServers = !upgrade && !restart && (settings.stopServersOnExit || (signal !== undefined && machineShuttingDown()));
    // Jobs running now end and store their results first (bounded), so the next agent answers them from its outbox
    // rather than running them again: a RESTART caught by an agent restart or upgrade restarts its game once. Not when
    // the game servers are being stopped (a machine shutting down): the unit's TimeoutStopSec (twice the stop time-out
    // plus 30 s) is for stopping them; a stop that leaves them running takes at most this wait.
    const drainMs = Math.min(stopTimeoutMs, JOB_DRAIN_MAX_MS);
    if (!stopServers && !(await jobs.drain(drainMs))) {
      jobs.abandon();
      logger.warn({ waitedMs: drainMs }, 'exiting with jobs still running: the next agent is given them again');
    }
    clearInterval(heartbeat);
    await files.stopAll();
    if (stopServers) {
      logger.info({ servers: supervisors.size }, 'stopping the game servers before exiting');
      await Promise.all([...supervisors.values()].map((supervisor) => supervisor.dispose().catch(() => undefined)));
    } else {
      // The game servers keep running; the next agent adopts them (their run directories say who they are).
      for (const supervisor of supervisors.values()) supervisor.remember();
      await Promise.all([...supervisors.values()].map((supervisor) => supervisor.release().catch(() => undefined)));
      runtime.detachAll();
      logger.info({ servers: supervisors.size }, 'exiting; the game servers keep running');
    }
    authenticated = false;
    await sftp?.close().catch(() => undefined);
    saveStatus();
    await statusWriting;
    socket?.close();
    if (upgrade) await restartUpgraded(upgrade);
    if (restart) await restartNow();
    process.exit(code);
  }

  /** Installs the staged package and runs it: systemd starts it after this exit, elsewhere the agent executes itself. */
  async function restartUpgraded(upgrade: StagedUpgrade): Promise<void> {
    try {
      await installStaged(upgrade, AGENT_VERSION);
      logger.info({ version: upgrade.version, prefix: upgrade.prefix }, 'installed the new agent; restarting');
    } catch (error) {
      logger.error({ err: error }, 'could not replace the installed agent; restarting the current version');
    }
    await restartNow();
  }

  /**
   * Runs the installed agent afresh: in this process where Node.js can (execve); else exits with RESTART_EXIT_CODE,
   * which the installer's systemd unit (and any service manager that restarts on failure) answers by starting it.
   */
  async function restartNow(): Promise<never> {
    // The process image is replaced without an exit: the buffered log lines go out first.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    restartInPlace();
    logger.warn({ exitCode: RESTART_EXIT_CODE }, 'this Node.js cannot restart the agent in place; exiting for the service manager to start it again');
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    process.exit(RESTART_EXIT_CODE);
  }
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));

  logger.info({ urls, path, version: AGENT_VERSION, dataDir }, 'agent starting');
  // After a self-upgrade: the previous package stays until this agent authenticates, and is put back if it does not.
  const upgradeCheck = await checkUpgradeAtStartup().catch((error: unknown) => {
    logger.error({ err: error }, 'could not check the last agent upgrade');
    return { state: 'none' as const, note: undefined, swept: undefined, sweepError: undefined };
  });
  if (upgradeCheck.swept) logger.warn({ removed: upgradeCheck.swept }, 'removed the staging folders an interrupted agent upgrade left');
  if (upgradeCheck.sweepError) logger.warn({ reason: upgradeCheck.sweepError }, 'could not remove the staging folders an interrupted agent upgrade left');
  if (upgradeCheck.state === 'rollback') {
    logger.error({ reason: upgradeCheck.note }, 'rolled back the agent upgrade; restarting the previous agent');
    await restartNow();
  }
  upgradePending = upgradeCheck.state === 'pending';
  if (upgradePending) {
    rollbackTimer = setTimeout(() => {
      void rollBackInstalled(`agent ${AGENT_VERSION} did not reach the service within ${ROLLBACK_AFTER_MS / 1000} seconds`).then((note) => {
        if (!note || !upgradePending) return;
        logger.error({ reason: note }, 'rolled back the agent upgrade; restarting the previous agent');
        void shutdown(0, undefined, undefined, true);
      });
    }, ROLLBACK_AFTER_MS);
    rollbackTimer.unref();
  }
  await adoptLeftRunning();
  saveStatus();
  open(gateways.current);
}
