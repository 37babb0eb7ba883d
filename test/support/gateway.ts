/**
 * A real app with the agent gateway on the same HTTP server (as in the all-in-one process), with short heartbeat and
 * auth time-outs, plus real agent-side clients: Socket.IO (socket.io-client) and plain WebSocket (ws).
 */
import { io as connectSocketIo, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import { createGateway, type Gateway } from '../../orchestrator/gateway/gateway.ts';
import { startWorker, type Worker } from '../../orchestrator/worker/worker.ts';
import { pullSettings } from '../../orchestrator/files/filePull.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { startTestApp, type TestApp } from './app.ts';
import { startTcpProxy, type TcpProxy } from './tcpProxy.ts';
import { VERSION } from '../../api/service.ts';

export type GatewayApp = TestApp & {
  gateway: Gateway;
  wsUrl: string;
  databaseProxy: TcpProxy | undefined;
  /** The gateway's own pool (through `databaseProxy` when there is one). */
  gatewayPool: DatabasePool;
  /** The orchestrator's workers, with `worker`. */
  worker: Worker | undefined;
};

/**
 * The app with its gateway and, with `worker`, the job runner (graphile-worker) as an orchestrator runs them. With
 * `databaseProxy`, the gateway's queries go through a TCP proxy in front of Postgres (`databaseProxy.down()` is a
 * database outage for the gateway only; the test reads and the API keep their direct pool, and the gateway's LISTEN
 * connection stays direct so announcements still arrive).
 */
export async function startGatewayApp(
  options: {
    heartbeatSeconds?: number;
    /** Tests see UNKNOWN at once on a disconnect unless they ask for the service's grace. */
    reconnectGraceSeconds?: number;
    authTimeoutMs?: number;
    worker?: boolean;
    databaseProxy?: boolean;
    env?: Record<string, string>;
    /** The webhook deliverer's retry schedule (tests shorten it). */
    webhookRetryDelaysMs?: number[];
    webhookTimeoutMs?: number;
  } = {},
): Promise<GatewayApp> {
  const app = await startTestApp(options.env);
  let databaseProxy: TcpProxy | undefined;
  let gatewayPool: DatabasePool = app.pool;
  if (options.databaseProxy) {
    const direct = new URL(app.database.url);
    databaseProxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(app.database.url);
    proxied.port = String(databaseProxy.port);
    // Short statement time-out: a query the outage cut must fail, not wait (as the production pool's would, later).
    gatewayPool = await createDatabasePool(proxied.toString(), { maxPoolSize: 5, statementTimeoutMs: 5_000 });
  }
  const gateway = await createGateway(app.httpServer, {
    pool: gatewayPool,
    databaseUrl: app.database.url,
    logger: app.deps.logger,
    heartbeatSeconds: options.heartbeatSeconds ?? 1,
    reconnectGraceSeconds: options.reconnectGraceSeconds ?? 0,
    authTimeoutMs: options.authTimeoutMs ?? 3_000, // long enough for a loaded CI machine (1.5 s was not, once), short enough to test the time-out
    minVersion: '0.1.0',
    serviceVersion: VERSION,
    relay: app.deps.live.relay,
    history: app.deps.live.history,
    sftpPasswords: app.config.SFTP_PASSWORD_SIGN_IN,
  });
  const worker = options.worker
    ? await startWorker({
        databaseUrl: app.database.url,
        logger: app.deps.logger,
        tasks: { pool: app.pool, jobWaiters: app.deps.jobWaiters, filePull: pullSettings(app.config, 'test') },
        eventRetentionDays: app.config.EVENT_RETENTION_DAYS,
        webhooks: {
          allowPrivate: app.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
          userAgent: 'gsm-test',
          retryDelaysMs: options.webhookRetryDelaysMs,
          timeoutMs: options.webhookTimeoutMs,
        },
      })
    : undefined;
  app.deps.domainMetrics.attach({ console: gateway.live.counters, ...(worker ? { webhooks: worker.deliverer.outcomes } : {}) });
  const close = app.close;
  return {
    ...app,
    gateway,
    databaseProxy,
    gatewayPool,
    worker,
    wsUrl: app.url.replace(/^http/, 'ws'),
    close: async () => {
      await worker?.stop();
      await databaseProxy?.up().catch(() => undefined);
      await gateway.close();
      if (gatewayPool !== app.pool) await gatewayPool.end();
      await databaseProxy?.close();
      await close();
    },
  };
}

export type Received = { event: string; data: any };

/** An agent-side connection with a log of what the service sent, whatever the framing. */
export type TestAgent = {
  send: (event: string, data: unknown) => void;
  /** Resolves with the next received event of that name (or rejects after `timeoutMs`). */
  next: (event: string, timeoutMs?: number) => Promise<any>;
  received: Received[];
  closed: Promise<void>;
  isClosed: () => boolean;
  close: () => void;
};

function recorder() {
  const received: Received[] = [];
  const waiters: { event: string; resolve: (data: unknown) => void }[] = [];
  let consumed = 0;
  const push = (event: string, data: unknown) => {
    received.push({ event, data });
    const index = waiters.findIndex((waiter) => waiter.event === event);
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(data);
  };
  const next = (event: string, timeoutMs = 10_000) =>
    new Promise<any>((resolve, reject) => {
      const found = received.slice(consumed).findIndex((entry) => entry.event === event);
      if (found >= 0) {
        consumed += found + 1;
        return resolve(received[consumed - 1]!.data);
      }
      const timer = setTimeout(
        () => reject(new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(received.map((entry) => entry.event))}`)),
        timeoutMs,
      );
      waiters.push({
        event,
        resolve: (data) => {
          clearTimeout(timer);
          consumed = received.length;
          resolve(data);
        },
      });
    });
  return { received, push, next };
}

export async function socketIoAgent(app: GatewayApp, path = '/ws'): Promise<TestAgent> {
  const { received, push, next } = recorder();
  const socket: Socket = connectSocketIo(app.url, { path, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.onAny((event: string, data: unknown) => push(event, data));
  let closed = false;
  const closedPromise = new Promise<void>((resolve) => socket.on('disconnect', () => ((closed = true), resolve())));
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', resolve);
    socket.on('connect_error', reject);
  });
  return {
    send: (event, data) => void socket.emit(event, data),
    next,
    received,
    closed: closedPromise,
    isClosed: () => closed,
    close: () => void socket.disconnect(),
  };
}

export async function plainAgent(app: GatewayApp, path = '/ws'): Promise<TestAgent & { ws: WebSocket; closeCode: Promise<number> }> {
  const { received, push, next } = recorder();
  const ws = new WebSocket(`${app.wsUrl}${path}`);
  ws.on('message', (raw) => {
    const frame = JSON.parse(String(raw)) as Received;
    push(frame.event, frame.data);
  });
  let closed = false;
  const closeCode = new Promise<number>((resolve) => ws.on('close', (code) => ((closed = true), resolve(code))));
  await new Promise<void>((resolve, reject) => {
    ws.on('open', resolve);
    ws.on('error', reject);
  });
  return {
    ws,
    closeCode,
    send: (event, data) => ws.send(JSON.stringify({ event, data })),
    next,
    received,
    closed: closeCode.then(() => undefined),
    isClosed: () => closed,
    close: () => ws.close(),
  };
}

export const AGENTS = { 'Socket.IO': socketIoAgent, 'plain WebSocket': plainAgent } as const;
