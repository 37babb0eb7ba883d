/**
 * The reference agent: `npm run agent -- --url <service> --machine-id <id> --token <agent token> --data-dir <dir>`
 * (or GSM_URL, GSM_MACHINE_ID, GSM_AGENT_TOKEN, GSM_DATA_DIR). It connects to the gateway over Socket.IO,
 * authenticates, heartbeats, runs the servers `servers:sync` assigns to this machine, and reconnects with exponential
 * back-off and jitter when the connection drops. A refused token or version ends it (exit 2): retrying cannot help.
 * SIGINT/SIGTERM stop its game servers gracefully, then the agent.
 */
import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { io } from 'socket.io-client';
import { z } from 'zod';
import { createLogger } from '../schema/logger.ts';
import { authenticatedEvent, errorEvent, serversSyncEvent } from '../schema/agentEvents.ts';
import { ProcessRuntime } from './runtime/processRuntime.ts';
import { ServerSupervisor } from './servers/serverSupervisor.ts';
import { createMetricsSampler } from './machineMetrics.ts';
import { JOB_TYPES, JobRunner, type AgentJob } from './jobs/jobRunner.ts';
import { createExecutor } from './jobs/executor.ts';
import { killLeftovers } from './servers/leftovers.ts';

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
    url: z.url({ message: 'expected the service URL, e.g. http://localhost:3000' }),
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
const { url, machineId, token, path, stopTimeoutMs, reportIntervalMs } = settings.data;
const dataDir = resolve(settings.data.dataDir);
await mkdir(dataDir, { recursive: true });

const logger = createLogger((process.env.LOG_LEVEL as 'info' | undefined) ?? 'info').child({ component: 'agent', machineId });
await killLeftovers(dataDir, logger);
const runtime = new ProcessRuntime();
const metrics = createMetricsSampler(dataDir);
const supervisors = new Map<string, ServerSupervisor>();

const socket = io(url, {
  path,
  transports: ['websocket'],
  autoConnect: false,
  // Exponential back-off with jitter: 1 s, 2 s, 4 s … 30 s, each ±50 %.
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 30_000,
  randomizationFactor: 0.5,
});

let authenticated = false;
let heartbeat: NodeJS.Timeout | undefined;
let sentHost = false;

/** Sends a report while authenticated; otherwise drops it (statuses are reported again after the next auth). */
const report = (event: string, data: Record<string, unknown>) => {
  if (event === 'server:status') logger[data.status === 'CRASHED' ? 'warn' : 'info'](data, `server ${String(data.status)}`);
  if (authenticated) socket.emit(event, data);
};

async function beat(): Promise<void> {
  report('heartbeat', { metrics: await metrics.sample(), uptime: Math.round(process.uptime()), ...(sentHost ? {} : { host: metrics.host() }) });
  sentHost = true;
}

/** How long the service has to confirm a job result before it stays in the outbox for the next attempt. */
const RESULT_ACK_TIMEOUT_MS = 10_000;

const jobs = new JobRunner({
  dataDir,
  executor: createExecutor({ supervisor: (serverId) => supervisors.get(serverId), stopTimeoutMs }),
  send(event, data) {
    if (!authenticated) return;
    if (event !== 'job:result') return void socket.emit(event, data);
    // The result leaves the outbox only once the service confirms it stored it.
    socket
      .timeout(RESULT_ACK_TIMEOUT_MS)
      .emitWithAck(event, data)
      .then(async (answer: { stored?: boolean }) => {
        if (answer?.stored) await jobs.acknowledge((data as { jobId: string }).jobId);
      })
      .catch(() => undefined);
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

socket.on('job', (data: unknown, ack?: (answer: Record<string, unknown>) => void) => {
  const parsed = jobEvent.safeParse(data);
  if (!parsed.success) return ack?.({ accepted: false, reason: 'malformed job' });
  ack?.(jobs.receive(parsed.data as AgentJob));
});

socket.on('job:cancel', (data: { jobId?: unknown }) => {
  if (typeof data?.jobId === 'string') jobs.cancel(data.jobId);
});

socket.on('connect', () => {
  authenticated = false;
  socket.emit('auth', { token, machineId, version: AGENT_VERSION });
});

socket.on('authenticated', (data: unknown) => {
  const parsed = authenticatedEvent.safeParse(data);
  if (!parsed.success) return logger.error('malformed authenticated message');
  authenticated = true;
  sentHost = false;
  logger.info({ clusterId: parsed.data.clusterId }, 'authenticated');
  clearInterval(heartbeat);
  heartbeat = setInterval(() => void beat(), parsed.data.heartbeatSeconds * 1000);
  void beat();
  for (const supervisor of supervisors.values()) supervisor.reportStatus();
  jobs.resendOutbox();
});

socket.on('servers:sync', async (data: unknown) => {
  const parsed = serversSyncEvent.safeParse(data);
  if (!parsed.success) return logger.error('malformed servers:sync');
  const wanted = new Map(parsed.data.servers.map((server) => [server.id, server]));
  for (const [id, supervisor] of supervisors) {
    if (!wanted.has(id)) {
      supervisors.delete(id);
      await supervisor.dispose();
    }
  }
  for (const config of wanted.values()) {
    let supervisor = supervisors.get(config.id);
    if (!supervisor) {
      supervisor = new ServerSupervisor(config, {
        dataDir,
        runtime,
        report,
        termAfterMs: stopTimeoutMs,
        killAfterMs: stopTimeoutMs * 2,
        statsIntervalMs: reportIntervalMs,
        snapshotIntervalMs: reportIntervalMs,
      });
      supervisors.set(config.id, supervisor);
      supervisor.reportStatus();
    }
    supervisor.config = config;
    await supervisor.reconcile().catch((error: unknown) => logger.error({ err: error, serverId: config.id }, 'reconcile failed'));
  }
});

socket.on('error', (data: unknown) => {
  const parsed = errorEvent.safeParse(data);
  if (!parsed.success) return;
  logger.error({ code: parsed.data.code }, parsed.data.message);
  if (parsed.data.code === 'AUTH_FAILED' || parsed.data.code === 'UNSUPPORTED_VERSION') void shutdown(2);
});

socket.on('disconnect', (reason) => {
  authenticated = false;
  clearInterval(heartbeat);
  logger.warn({ reason }, 'disconnected from the gateway');
  // The client reconnects by itself after a lost transport; after the gateway closed the session (replaced, or
  // missed heartbeats) it does not, so reconnect here with the same back-off.
  if (reason === 'io server disconnect' && !stopping) setTimeout(() => socket.connect(), 1_000 + Math.random() * 1_000);
});

socket.io.on('reconnect_attempt', (attempt) => logger.info({ attempt }, 'reconnecting'));

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(heartbeat);
  await Promise.all([...supervisors.values()].map((supervisor) => supervisor.dispose().catch(() => undefined)));
  socket.close();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

logger.info({ url, path, version: AGENT_VERSION, dataDir }, 'agent starting');
socket.connect();
