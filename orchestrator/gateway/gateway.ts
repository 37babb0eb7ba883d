/**
 * The agent gateway at `/ws`, `/agent/ws` and `/ws/agent` on the HTTP server's own port (docs/agent-protocol.md). An upgrade
 * request carrying Socket.IO's `EIO` query goes to Socket.IO (WebSocket transport); any other goes to a plain
 * WebSocket server speaking `{ event, data }` frames. Both feed the same AgentSession logic.
 *
 * Changes made elsewhere (servers edited, token rotated, machine removed) arrive as Postgres notifications
 * (notifications.ts), so they reach the session on whichever orchestrator process holds the connection.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server as EngineServer } from 'engine.io';
import { Server as SocketIoServer } from 'socket.io';
import { WebSocketServer } from 'ws';
import type { DatabasePool } from '../../sql/pool.ts';
import { listen } from '../../sql/listen.ts';
import type { Logger } from '../../schema/logger.ts';
import { MAX_FRAME_BYTES, type AgentUpgradeEvent, type JobWireEvent } from '../../schema/agentEvents.ts';
import { recordUpgradeAccepted, recordUpgradeRefused, UPGRADE_ACK_TIMEOUT_MS } from '../machines/agentUpgrades.ts';
import { addFileChannelResolver } from '../files/agentChannels.ts';
import { AgentSession, type SftpGate } from './agentSession.ts';
import { authenticateSftp, recheckSftpSessions, recordSftpChange, recordSftpListening } from '../sftp/access.ts';
import { SftpThrottle } from '../sftp/throttle.ts';
import { createLiveConsole, type LiveConsole } from '../live/liveConsole.ts';
import { createLocalRelay, type LiveRelay } from '../live/relay.ts';
import { createMemoryHistory, type ConsoleHistory } from '../live/consoleHistory.ts';
import { plainLink, socketIoLink, type AgentLink } from './links.ts';
import { createMachineStore, type ConsoleMark } from './machineStore.ts';
import { createMetricsRecorder, type MetricsRecorder } from '../metricsHistory/store.ts';
import { createPlayerIngest } from '../players/ingest.ts';
import { AGENT_CHANNEL, agentNotification, notifyAgent } from './notifications.ts';

export const GATEWAY_PATHS = ['/ws', '/agent/ws', '/ws/agent'] as const;

export type GatewayOptions = {
  /** Whether this process's API answers Socket.IO's `/socket.io` (false: such upgrades are refused here). Default true. */
  servesLive?: boolean;
  pool: DatabasePool;
  databaseUrl: string;
  logger: Logger;
  heartbeatSeconds: number;
  /** How long a disconnected agent has to come back before its servers become UNKNOWN (0: at once). */
  reconnectGraceSeconds?: number;
  authTimeoutMs: number;
  minVersion: string;
  /** The service's own version: agents of another major version are refused. */
  serviceVersion: string;
  /** Where console lines and stats go (default: this process only, which is what most tests need). */
  relay?: LiveRelay;
  history?: ConsoleHistory;
  /** SFTP_PASSWORD_SIGN_IN: whether SFTP also signs in with the account's password (docs/sftp.md). Default false. */
  sftpPasswords?: boolean;
};

export type Gateway = {
  /** The authenticated session of a machine on this process, if any. */
  session: (machineId: string) => AgentSession | undefined;
  /** Console and stats relaying, with its counters. */
  live: LiveConsole;
  /** The metrics history recorder (tests flush it). */
  metrics: MetricsRecorder;
  close: () => Promise<void>;
};

export async function createGateway(httpServer: HttpServer, options: GatewayOptions): Promise<Gateway> {
  const logger = options.logger.child({ component: 'gateway' });
  const store = createMachineStore(options.pool, { reconnectGraceSeconds: options.reconnectGraceSeconds ?? 0 });
  const players = createPlayerIngest(options.pool);
  const metrics = createMetricsRecorder({ pool: options.pool, logger });
  const live = createLiveConsole({
    relay: options.relay ?? createLocalRelay(),
    history: options.history ?? createMemoryHistory(),
    pool: options.pool,
    logger,
  });
  const sessions = new Map<string, AgentSession>();
  /** The console marks of connections that ended here (agentSession.ts), one per machine. */
  const consoleMarks = new Map<string, ConsoleMark>();
  const open = new Set<AgentSession>();
  const sftpThrottle = new SftpThrottle();
  const sftpSignIn = { passwords: options.sftpPasswords ?? false };
  const sftp: SftpGate = {
    authenticate: (machineId, attempt) => authenticateSftp(options.pool, sftpThrottle, machineId, attempt, sftpSignIn),
    recheck: (machineId, checked) => recheckSftpSessions(options.pool, machineId, checked, sftpSignIn),
    listening: (machineId, port, fingerprint) => recordSftpListening(options.pool, machineId, port, fingerprint),
    changed: (machineId, change) => recordSftpChange(options.pool, machineId, change, logger),
  };

  const start = (link: AgentLink) => {
    const session = new AgentSession(link, {
      store,
      players,
      live,
      metrics,
      sftp,
      logger,
      heartbeatSeconds: options.heartbeatSeconds,
      authTimeoutMs: options.authTimeoutMs,
      minVersion: options.minVersion,
      serviceVersion: options.serviceVersion,
      claim: (claimer) => {
        const previous = sessions.get(claimer.machineId!);
        sessions.set(claimer.machineId!, claimer);
        // A second connection for the same machine replaces the first. Its console mark is taken now, before the new
        // connection reads the marks (a plain WebSocket's close completes only after its closing handshake).
        if (previous && previous !== claimer) {
          previous.takeConsoleMark();
          previous.link.close();
        }
      },
      owns: (candidate) => sessions.get(candidate.machineId!) === candidate,
      release: (released) => void sessions.delete(released.machineId!),
      announce: (notification) => notifyAgent(options.pool, notification),
      consoleMarks,
    });
    open.add(session);
    link.onClose(() => open.delete(session));
  };

  // The file routes (orchestrator/files/) and transfers (orchestrator/transfers/) reach the agents connected here over their connection.
  const removeFileChannel = addFileChannelResolver((machineId, event) => {
    const session = sessions.get(machineId);
    return session ? (payload, timeoutMs) => session.link.request(event, payload, timeoutMs) : undefined;
  });

  const engine = new EngineServer({ transports: ['websocket'], maxHttpBufferSize: MAX_FRAME_BYTES, pingInterval: 10_000, pingTimeout: 20_000 });
  const io = new SocketIoServer({ serveClient: false, transports: ['websocket'] });
  io.bind(engine);
  io.on('connection', (socket) => start(socketIoLink(socket)));

  const plain = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  plain.on('connection', (ws, request: IncomingMessage) => start(plainLink(ws, request.socket.remoteAddress ?? '')));

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://gateway');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    // The API's own Socket.IO (`/live`, at /socket.io) answers its upgrades itself; a process without it refuses them.
    if ((path === '/socket.io' || path.startsWith('/socket.io/')) && options.servesLive !== false) return;
    if (!(GATEWAY_PATHS as readonly string[]).includes(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (url.searchParams.has('EIO')) engine.handleUpgrade(request, socket, head);
    else plain.handleUpgrade(request, socket, head, (ws) => plain.emit('connection', ws, request));
  };
  httpServer.on('upgrade', onUpgrade);

  // Jobs being sent from this process and waiting for their ack: a repeated announcement of one of them (the delivery
  // sweep, when this process is slow to get through a backlog) would only send it again and add to the backlog.
  const delivering = new Set<string>();
  const deliver = async (session: AgentSession, jobId: string, job: JobWireEvent | null) => {
    if (delivering.has(jobId)) return;
    delivering.add(jobId);
    // An announcement made as the job was accepted carries it: sent as it is, without reading it back.
    if (job) store.announce(session.machineId!, job);
    const sent = session.deliver(jobId);
    store.forget(jobId);
    try {
      await sent;
    } finally {
      delivering.delete(jobId);
    }
  };

  /**
   * A fleet upgrade's command (machines/upgradeRoll.ts): an agent that refuses it fails its machine at once; one that
   * accepts it is noted (it is not sent again); no answer in time changes nothing (the roll sends it again over the
   * same connection once this wait has passed, or times the machine out).
   */
  const sendUpgrade = async (session: AgentSession, upgrade: AgentUpgradeEvent) => {
    const answer = await session.link.request('agent:upgrade', upgrade, UPGRADE_ACK_TIMEOUT_MS).catch(() => undefined);
    logger.info({ machineId: session.machineId, version: upgrade.version, answer }, 'agent upgrade sent');
    if (answer?.accepted === false) {
      const reason = typeof answer.reason === 'string' ? answer.reason.slice(0, 500) : 'no reason given';
      await recordUpgradeRefused(options.pool, upgrade.upgradeId, session.machineId!, reason);
    } else if (answer?.accepted === true) await recordUpgradeAccepted(options.pool, upgrade.upgradeId, session.machineId!);
  };

  const onNotification = async (payload: string) => {
    const parsed = agentNotification.safeParse(JSON.parse(payload));
    if (!parsed.success) return;
    const session = sessions.get(parsed.data.machineId);
    if (!session) return;
    const { type, jobId, generation } = parsed.data;
    if (type === 'session_replaced') {
      // Another process (or this one) now holds a newer connection of this machine: drop ours quietly.
      if (generation !== undefined && session.generation < generation) {
        sessions.delete(parsed.data.machineId);
        session.link.close();
      }
      return;
    }
    if (type === 'servers_changed') await session.sync();
    else if (type === 'job_dispatch' && jobId) await deliver(session, jobId, parsed.data.job ?? null);
    else if (type === 'job_cancel' && jobId) session.send('job:cancel', { jobId });
    else if (type === 'sftp_recheck' && parsed.data.userId) session.send('sftp:recheck', { userId: parsed.data.userId });
    else if (type === 'agent_upgrade' && parsed.data.upgrade) await sendUpgrade(session, parsed.data.upgrade);
    else if (type === 'token_rotated' || type === 'machine_removed')
      session.close('AUTH_FAILED', type === 'token_rotated' ? 'agent token rotated' : 'machine removed');
  };
  const listener = await listen({
    databaseUrl: options.databaseUrl,
    channel: AGENT_CHANNEL,
    logger,
    onPayload: (payload) => void onNotification(payload).catch((error: unknown) => logger.error({ err: error }, 'agent notification failed')),
  });

  // Machines whose orchestrator died without a word stay ONLINE in the database; every orchestrator sweeps those
  // that have been silent for three heartbeat periods.
  const silenceSeconds = options.heartbeatSeconds * 3;
  const sweeper = setInterval(() => {
    store.sweepSilent(silenceSeconds).catch((error: unknown) => logger.warn({ err: error }, 'could not sweep silent machines'));
    store.sweepUnknown().catch((error: unknown) => logger.warn({ err: error }, 'could not sweep disconnected machines'));
  }, options.heartbeatSeconds * 1000);
  sweeper.unref();

  return {
    session: (machineId) => sessions.get(machineId),
    live,
    metrics,
    async close() {
      removeFileChannel();
      clearInterval(sweeper);
      await live.close();
      await metrics.close();
      httpServer.off('upgrade', onUpgrade);
      await listener.close();
      // Shutting down: the machines connected here are OFFLINE until their agents reconnect (here or elsewhere).
      const held = [...sessions.values()];
      sessions.clear();
      // Their console marks are written before the connections close: the agents reconnect elsewhere only then, and the
      // process they reach finds what of their output arrived here.
      await Promise.all(
        held.flatMap((session) => [store.markOffline(session.machineId!, session.generation).catch(() => undefined), session.saveConsoleMark()]),
      );
      for (const session of open) session.link.close();
      plain.close();
      await new Promise<void>((resolve) => void io.close(() => resolve()));
    },
  };
}
