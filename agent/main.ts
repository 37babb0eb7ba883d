/**
 * The reference agent: `npm run agent -- --url <service> --machine-id <id> --token <agent token> --data-dir <dir>`
 * (or GSM_URL, GSM_MACHINE_ID, GSM_AGENT_TOKEN, GSM_DATA_DIR). It connects to the gateway over Socket.IO,
 * authenticates, heartbeats, runs the servers `servers:sync` assigns to this machine, and reconnects with exponential
 * back-off and jitter when the connection drops. `--url` may list several gateways (comma-separated): a failed
 * attempt moves on to the next one (connection/gatewayAddresses.ts). A refused token or version ends it (exit 2):
 * retrying cannot help; the service's own failure (`UNAVAILABLE`, e.g. its database is away) is retried.
 * Job results and server statuses are re-sent until the service acknowledges them (connection/untilAcked.ts).
 * SIGINT/SIGTERM stop its game servers gracefully, then the agent.
 */
import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { io, type Socket } from 'socket.io-client';
import { z } from 'zod';
import { createLogger } from '../schema/logger.ts';
import { authenticatedEvent, errorEvent, serversSyncEvent } from '../schema/agentEvents.ts';
import { ProcessRuntime } from './runtime/processRuntime.ts';
import { ServerSupervisor } from './servers/serverSupervisor.ts';
import { createMetricsSampler } from './machineMetrics.ts';
import { JOB_TYPES, JobRunner, type AgentJob } from './jobs/jobRunner.ts';
import { createExecutor } from './jobs/executor.ts';
import { killLeftovers } from './servers/leftovers.ts';
import { Supervisors } from './servers/supervisors.ts';
import { GatewayAddresses } from './connection/gatewayAddresses.ts';
import { UntilAcked, type Delivery } from './connection/untilAcked.ts';

export const AGENT_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'machine-id': { type: 'string' },
    token: { type: 'string' },
    'data-dir': { type: 'string' },
    path: { type: 'string' },
    'stop-timeout-ms': { type: 'string' },
    'report-interval-ms': { type: 'string' },
  },
  strict: true,
});

const settings = z
  .object({
    /** One gateway or several, comma-separated: tried in turn when a connection fails. */
    url: z
      .string({ message: 'expected the service URL, e.g. http://localhost:3000 (several: comma-separated)' })
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      )
      .pipe(z.array(z.url({ message: 'expected the service URL, e.g. http://localhost:3000 (several: comma-separated)' })).min(1, 'expected the service URL')),
    machineId: z.uuid({ message: 'expected the machine id' }),
    token: z.string().regex(/^gsm_agent_[0-9A-Za-z]{43}$/, 'expected the agent token (gsm_agent_…)'),
    dataDir: z.string().min(1),
    path: z.string().startsWith('/').default('/ws'),
    /** Graceful stop: SIGTERM after this, SIGKILL after twice this (default 30 s and 60 s). */
    stopTimeoutMs: z.coerce.number().int().positive().default(30_000),
    /** How often running servers' stats and player lists are reported (default 10 s and 30 s). */
    reportIntervalMs: z.coerce.number().int().positive().optional(),
  })
  .safeParse({
    url: values.url ?? process.env.GSM_URL,
    machineId: values['machine-id'] ?? process.env.GSM_MACHINE_ID,
    token: values.token ?? process.env.GSM_AGENT_TOKEN,
    dataDir: values['data-dir'] ?? process.env.GSM_DATA_DIR ?? './agent-data',
    path: values.path ?? process.env.GSM_GATEWAY_PATH,
    stopTimeoutMs: values['stop-timeout-ms'] ?? process.env.GSM_STOP_TIMEOUT_MS,
    reportIntervalMs: values['report-interval-ms'] ?? process.env.GSM_REPORT_INTERVAL_MS,
  });
if (!settings.success) {
  process.stderr.write(`Invalid agent settings:\n${settings.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}\n`);
  process.exit(2);
}
const { url: urls, machineId, token, path, stopTimeoutMs, reportIntervalMs } = settings.data;
const dataDir = resolve(settings.data.dataDir);
await mkdir(dataDir, { recursive: true });

const logger = createLogger((process.env.LOG_LEVEL as 'info' | undefined) ?? 'info').child({ component: 'agent', machineId });
await killLeftovers(dataDir, logger);
const runtime = new ProcessRuntime();
const metrics = createMetricsSampler(dataDir);
const supervisors = new Supervisors();

const gateways = new GatewayAddresses(urls);
/** How long one connection attempt may take before it counts as failed (and the next address is tried). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long the service has to acknowledge a result or a status before it is sent again. */
const ACK_TIMEOUT_MS = 10_000;

/** The current connection; replaced by a new one for every attempt (possibly to another gateway). */
let socket: Socket | undefined;
let authenticated = false;
let heartbeat: NodeJS.Timeout | undefined;
let reconnectTimer: NodeJS.Timeout | undefined;
let sentHost = false;
let stopping = false;

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
  send: (report) => sendAcked('server:status', report, (answer) => answer.accepted === true),
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
  if (authenticated) socket?.emit(event, data);
};

async function beat(): Promise<void> {
  report('heartbeat', { metrics: await metrics.sample(), uptime: Math.round(process.uptime()), ...(sentHost ? {} : { host: metrics.host() }) });
  sentHost = true;
}

const jobs = new JobRunner({
  dataDir,
  executor: createExecutor({ supervisor: (serverId, timeoutMs, signal) => supervisors.waitFor(serverId, timeoutMs, signal), stopTimeoutMs }),
  send(event, data) {
    if (event === 'job:result') return results.put((data as { jobId: string }).jobId, data as { jobId: string });
    if (authenticated) socket?.emit(event, data);
  },
  onError: (error) => logger.error({ err: error }, 'job runner error'),
});
await jobs.init();

const jobEvent = z.object({
  jobId: z.uuid(),
  type: z.enum(JOB_TYPES),
  serverId: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  deadline: z.string(),
});

/** Applies one `servers:sync`; syncs are applied one after the other, in the order they came. */
async function applySync(data: unknown): Promise<void> {
  const parsed = serversSyncEvent.safeParse(data);
  if (!parsed.success) return logger.error('malformed servers:sync');
  const wanted = new Map(parsed.data.servers.map((server) => [server.id, server]));
  // Every server is set up before any is reconciled (which can take a while): a job waiting for one runs at once.
  for (const config of wanted.values()) {
    const existing = supervisors.get(config.id);
    if (existing) {
      existing.config = config;
      continue;
    }
    const supervisor = new ServerSupervisor(config, {
      dataDir,
      runtime,
      report,
      termAfterMs: stopTimeoutMs,
      killAfterMs: stopTimeoutMs * 2,
      statsIntervalMs: reportIntervalMs,
      snapshotIntervalMs: reportIntervalMs,
    });
    supervisors.set(config.id, supervisor);
  }
  // Every server's status goes out again with each sync: a new one's first status, and the others' because the
  // service sends a sync when it may have lost them (it marked the machine's servers UNKNOWN while the agent stayed
  // connected, e.g. after a database outage). The service keeps the newest per server, so repeats change nothing.
  for (const serverId of wanted.keys()) supervisors.get(serverId)?.reportStatus();
  for (const [id, supervisor] of [...supervisors.entries()]) {
    if (!wanted.has(id)) {
      supervisors.delete(id);
      await supervisor.dispose().catch((error: unknown) => logger.error({ err: error, serverId: id }, 'could not stop a removed server'));
    }
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
  const current = io(url, { path, transports: ['websocket'], reconnection: false, forceNew: true, timeout: CONNECT_TIMEOUT_MS });
  socket = current;
  /** Whether this connection ever worked (authenticated); an attempt that did not counts as failed. */
  let worked = false;
  const mine = () => socket === current && !stopping;

  current.on('connect', () => {
    if (!mine()) return;
    authenticated = false;
    current.emit('auth', { token, machineId, version: AGENT_VERSION });
  });

  current.on('connect_error', (error: Error) => {
    if (!mine()) return;
    logger.warn({ url, err: error.message }, 'could not connect to the gateway');
    end(current, true);
  });

  current.on('job', (data: unknown, ack?: (answer: Record<string, unknown>) => void) => {
    const parsed = jobEvent.safeParse(data);
    if (!parsed.success) return ack?.({ accepted: false, reason: 'malformed job' });
    ack?.(jobs.receive(parsed.data as AgentJob));
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
    gateways.connected();
    sentHost = false;
    logger.info({ url, clusterId: parsed.data.clusterId }, 'authenticated');
    clearInterval(heartbeat);
    heartbeat = setInterval(() => void beat(), parsed.data.heartbeatSeconds * 1000);
    void beat();
    // The service marked the servers UNKNOWN while the agent was away: their statuses go out again, and every
    // result it has not acknowledged.
    for (const supervisor of supervisors.values()) supervisor.reportStatus();
    jobs.resendOutbox();
    statuses.online();
    results.online();
  });

  current.on('servers:sync', (data: unknown) => {
    syncing = syncing.then(() => applySync(data)).catch((error: unknown) => logger.error({ err: error }, 'servers:sync failed'));
  });

  current.on('error', (data: unknown) => {
    const parsed = errorEvent.safeParse(data);
    if (!parsed.success) return;
    logger.error({ code: parsed.data.code }, parsed.data.message);
    if (parsed.data.code === 'AUTH_FAILED' || parsed.data.code === 'UNSUPPORTED_VERSION') void shutdown(2);
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
  authenticated = false;
  clearInterval(heartbeat);
  statuses.offline();
  results.offline();
  ended.removeAllListeners();
  ended.close();
  if (socket === ended) socket = undefined;
  if (stopping) return;
  const next = gateways.next(failed);
  logger.info({ url: next.url, delayMs: next.delayMs }, 'reconnecting');
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(() => open(next.url), next.delayMs);
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(heartbeat);
  clearTimeout(reconnectTimer);
  statuses.offline();
  results.offline();
  await Promise.all([...supervisors.values()].map((supervisor) => supervisor.dispose().catch(() => undefined)));
  socket?.close();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

logger.info({ urls, path, version: AGENT_VERSION, dataDir }, 'agent starting');
open(gateways.current);
