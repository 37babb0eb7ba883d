/**
 * `npm run bench -- dashboard`: the dashboard as a browser gets it, from the real service (`node main.ts`, every role,
 * its own database, Redis) in headless Chromium, each figure beside its baseline in the same run:
 *
 * 1. First-load bytes: the page, script and style sheet as sent compressed (Brotli; gzip also printed), beside the
 *    budget (300 KB of compressed script) and the API reference page's own script (Swagger UI) as a known panel.
 * 2. Time to interactive of the servers page with 500 servers (fresh browser context each time: nothing cached):
 *    navigation start → the 500 rows shown and the main thread idle, median of BENCH_LOADS (5); beside a bare page on the
 *    same origin that fetches the same pages of the API with `fetch` and writes the table with `innerHTML`.
 * 3. Frame times on the server page while its console receives 1,000 lines/s (a simulated agent on the agent gateway
 *    sends 50 lines every 50 ms) for BENCH_CONSOLE_SECONDS (10): every requestAnimationFrame interval is recorded;
 *    target: none over 50 ms; beside the same page with an idle console.
 */
import type { Browser, Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { startBrowser } from '../support/browser.ts';
import { PASSWORD } from '../support/identity.ts';
import { createTestDatabase } from '../support/database.ts';
import { baseUrl, startMain, type Started } from '../support/mainProcess.ts';

const SERVERS = 500;
const LOADS = Number(process.env.BENCH_LOADS ?? 5);
const CONSOLE_SECONDS = Number(process.env.BENCH_CONSOLE_SECONDS ?? 10);
const LINES_PER_SECOND = 1_000;
const BATCH_MS = 50;
const BUDGET_BYTES = 300 * 1024;
const FRAME_TARGET_MS = 50;
const ADMIN = { email: 'bench@example.test', password: PASSWORD };

const database = await createTestDatabase();
let service: Started | undefined;
let browser: Browser | undefined;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** The browser's globals used in page functions (this file is type-checked with Node's, not the DOM's; each function reaches them through globalThis, as it runs in the page). */
type InPage = {
  document: { querySelectorAll: (selector: string) => { length: number }; querySelector: (selector: string) => { childElementCount: number } | null };
  requestAnimationFrame: (callback: (now: number) => void) => void;
};

try {
  service = await startMain({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `bench-dashboard-${Date.now()}:`,
    PASETO_KEY: generatePasetoKey(),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info',
  });
  const base = baseUrl(service);
  const call = async (method: string, path: string, payload?: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, any>>;
  };
  const pair = await call('POST', '/auth/login', ADMIN);
  const token = pair.accessToken as string;
  const cluster = await call('POST', '/api/v1/clusters', { name: 'bench' }, token);
  const machine = await call('POST', `/api/v1/clusters/${cluster.id}/machines`, { name: 'host' }, token);
  const serverIds: string[] = [];
  for (let index = 0; index < SERVERS; index += 25)
    serverIds.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(25, SERVERS - index) }, async (_, offset) => {
          const port = 20_000 + (index + offset) * 3;
          const server = await call(
            'POST',
            `/api/v1/clusters/${cluster.id}/servers`,
            {
              name: `server ${String(index + offset).padStart(3, '0')}`,
              gameType: 'CUSTOM',
              machineId: machine.id,
              gamePort: port,
              queryPort: port + 1,
              rconPort: port + 2,
              startCommand: 'true',
              autoInstall: false,
            },
            token,
          );
          return server.id as string;
        }),
      )),
    );

  // 1. First-load bytes.
  const html = await (await fetch(`${base}/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)].map((match) => match[1]!);
  const sizeOf = async (path: string, encoding: string) =>
    (await (await fetch(`${base}${path}`, { headers: { 'accept-encoding': encoding } })).arrayBuffer()).byteLength;
  const compressed = async (path: string, encoding: string) => {
    // fetch decompresses; the raw size on the wire is read from a request that keeps the encoding.
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': encoding } });
    const length = response.headers.get('content-length');
    return length ? Number(length) : (await response.arrayBuffer()).byteLength;
  };
  const brotli = await Promise.all(assets.map((path) => compressed(path, 'br')));
  const gzip = await Promise.all(assets.map((path) => compressed(path, 'gzip')));
  const plain = await Promise.all(assets.map((path) => sizeOf(path, 'identity')));
  // The first load's script: the entry and the chunks the page preloads (pages loaded on demand are not in it).
  const scripts = (sizes: number[]) => assets.reduce((sum, path, index) => sum + (path.endsWith('.js') ? sizes[index]! : 0), 0);
  const swaggerScript = await compressed('/api/docs/assets/swagger-ui-bundle.js', 'gzip').catch(() => NaN);

  browser = (await startBrowser()).browser;
  const session = JSON.stringify({ accessToken: token, refreshToken: pair.refreshToken, expiresAt: Date.now() + 86_400_000 });
  const fresh = async (): Promise<Page> => {
    const context = await browser!.newContext();
    await context.addInitScript((value) => localStorage.setItem('gsm.session', value), session);
    // The bare baseline page, served on the service's own origin so its calls are same-origin as the dashboard's.
    await context.route(`${base}/bench-baseline`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><table><tbody id="rows"></tbody></table><script>
(async () => {
  const rows = [];
  for (let page = 1; ; page++) {
    const answer = await (await fetch('/api/v1/clusters/${cluster.id}/servers?limit=100&sort=name&page=' + page, { headers: { authorization: 'Bearer ${token}' } })).json();
    rows.push(...answer.data);
    if (page >= answer.meta.totalPages) break;
  }
  document.getElementById('rows').innerHTML = rows.map((s) => '<tr><td><a href="#">' + s.name + '</a></td><td>' + s.gameType + '</td><td>' + s.status + '</td><td>' + s.playersOnline + ' / ' + s.maxPlayers + '</td></tr>').join('');
})();
</script>`,
      }),
    );
    return context.newPage();
  };
  /** Milliseconds from navigation start until 500 rows are shown and a long task has not run for 100 ms. */
  const timeToInteractive = async (url: string) => {
    const page = await fresh();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction((count) => (globalThis as unknown as InPage).document.querySelectorAll('tbody tr').length >= count, SERVERS, {
      timeout: 60_000,
      polling: 'raf',
    });
    const shown = await page.evaluate(() => performance.now());
    // Idle: two animation frames 100 ms apart without a long gap between them.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          let last = performance.now();
          let quietSince = last;
          const tick = () => {
            const now = performance.now();
            if (now - last > 50) quietSince = now;
            last = now;
            if (now - quietSince >= 100) resolve();
            else (globalThis as unknown as InPage).requestAnimationFrame(tick);
          };
          (globalThis as unknown as InPage).requestAnimationFrame(tick);
        }),
    );
    const idle = await page.evaluate(() => performance.now() - 100);
    await page.context().close();
    return { shown, interactive: Math.max(shown, idle) };
  };
  const dashboardLoads: number[] = [];
  const bareLoads: number[] = [];
  await timeToInteractive(`${base}/#/c/${cluster.id}/servers`); // warm-up (the service's caches, not the browser's)
  for (let load = 0; load < LOADS; load++) {
    dashboardLoads.push((await timeToInteractive(`${base}/#/c/${cluster.id}/servers`)).interactive);
    bareLoads.push((await timeToInteractive(`${base}/bench-baseline`)).interactive);
  }

  // 3. Frame times while the console receives 1,000 lines/s.
  const agent = await new Promise<Socket>((resolve, reject) => {
    const socket = io(base, { path: '/ws', transports: ['websocket'], reconnection: false, forceNew: true });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
  const synced = new Promise((resolve) => agent.once('servers:sync', resolve));
  agent.emit('auth', { token: machine.agentToken, machineId: machine.id, version: '0.1.0' });
  await synced;
  const beat = setInterval(() => agent.emit('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 }), 1_000);
  const serverId = serverIds[0]!;
  const frames = async (flood: boolean) => {
    const page = await fresh();
    await page.goto(`${base}/#/c/${cluster.id}/servers/${serverId}`);
    await page.getByRole('heading', { name: 'Console' }).waitFor();
    await page.waitForTimeout(1_000);
    let printer: ReturnType<typeof setInterval> | undefined;
    let sent = 0;
    if (flood) {
      const started = Date.now();
      printer = setInterval(() => {
        const due = Math.floor(((Date.now() - started) / 1000) * LINES_PER_SECOND);
        const lines = Array.from({ length: due - sent }, (_, index) => `[bench] line ${sent + index} ${'x'.repeat(60)}`);
        sent = due;
        if (lines.length) agent.emit('console', { serverId, lines, at: new Date().toISOString() });
      }, BATCH_MS);
    }
    const intervals = await page.evaluate(
      (seconds) =>
        new Promise<number[]>((resolve) => {
          const gaps: number[] = [];
          let last = performance.now();
          const end = last + seconds * 1000;
          const tick = (now: number) => {
            gaps.push(now - last);
            last = now;
            if (now < end) (globalThis as unknown as InPage).requestAnimationFrame(tick);
            else resolve(gaps);
          };
          (globalThis as unknown as InPage).requestAnimationFrame(tick);
        }),
      CONSOLE_SECONDS,
    );
    clearInterval(printer);
    const shownLines = await page.evaluate(() => (globalThis as unknown as InPage).document.querySelector('.console')?.childElementCount ?? 0);
    await page.context().close();
    return { intervals, sent, shownLines };
  };
  const idle = await frames(false);
  const flooded = await frames(true);
  clearInterval(beat);
  agent.close();

  console.log(`Dashboard benchmark: ${SERVERS} servers, Chromium ${browser.version()} headless, this machine\n`);
  console.log('1. First load (page + script + style sheet), as sent');
  assets.forEach((path, index) =>
    console.log(`   ${path.padEnd(40)} ${kb(plain[index]!).padStart(10)} plain  ${kb(gzip[index]!).padStart(9)} gzip  ${kb(brotli[index]!).padStart(9)} br`),
  );
  const total = brotli.reduce((sum, bytes) => sum + bytes, 0) + (await compressed('/', 'br'));
  console.log(`   all of it (with the page): ${kb(total)} Brotli`);
  console.log(
    `   script: ${kb(scripts(brotli))} Brotli / ${kb(scripts(gzip))} gzip vs budget ${kb(BUDGET_BYTES)}: ${scripts(gzip) <= BUDGET_BYTES ? 'met' : 'NOT met'}`,
  );
  console.log(`   for scale, the API reference page's Swagger UI script, as sent: ${kb(swaggerScript)}`);
  console.log(`\n2. Time to interactive, servers page with ${SERVERS} servers (fresh context, median of ${LOADS})`);
  console.log(
    `   dashboard                          ${median(dashboardLoads).toFixed(0).padStart(6)} ms   (${dashboardLoads.map((value) => value.toFixed(0)).join(', ')})`,
  );
  console.log(
    `   bare page (fetch + innerHTML)      ${median(bareLoads).toFixed(0).padStart(6)} ms   (${bareLoads.map((value) => value.toFixed(0)).join(', ')})`,
  );
  console.log(`   ratio ${(median(dashboardLoads) / median(bareLoads)).toFixed(2)}×`);
  console.log(`\n3. Frames on the server page, ${CONSOLE_SECONDS} s`);
  for (const [name, run] of [
    ['idle console', idle],
    [`console at ${LINES_PER_SECOND} lines/s`, flooded],
  ] as const) {
    const over = run.intervals.filter((gap) => gap > FRAME_TARGET_MS).length;
    console.log(
      `   ${name.padEnd(28)} ${run.intervals.length} frames, p50 ${median(run.intervals).toFixed(1)} ms, p99 ${percentile(run.intervals, 99).toFixed(1)} ms, max ${Math.max(...run.intervals).toFixed(1)} ms, over ${FRAME_TARGET_MS} ms: ${over}`,
    );
  }
  console.log(`   lines sent ${flooded.sent}, lines in the console at the end ${flooded.shownLines} (it keeps the last 2,000)`);
  const worst = Math.max(...flooded.intervals);
  console.log(`   target: no frame over ${FRAME_TARGET_MS} ms while flooded: ${worst <= FRAME_TARGET_MS ? 'met' : 'NOT met'}`);
} finally {
  await browser?.close();
  if (service) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await database.drop();
}
