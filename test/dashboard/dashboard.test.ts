/**
 * The dashboard in a real headless Chromium against the real service and the real agent: sign in; register a machine
 * and see the one-liner; create and start a server and watch its status go ONLINE live; type a console command and
 * see its answer; a player joins, is kicked and banned; an API token is shown once and revoked; a task shows its next
 * runs in its time zone; a VIEWER is offered no power buttons; the session refreshes without losing the page; nothing
 * is fetched from another origin. A screenshot of each page is saved under .tmp/artifacts/dashboard-screenshots/.
 */
import test from 'ava';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { FAKE_SERVER_PATH } from '../support/fakeGame.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';
import { startOAuthProvider, type OAuthProvider } from '../support/oauthProvider.ts';
import { until } from '../support/wait.ts';

const SCREENSHOTS = fileURLToPath(new URL('../../.tmp/artifacts/dashboard-screenshots/', import.meta.url));

let app: GatewayApp;
let browser: TestBrowser;
explainFailures(test, () => browser);
const agents: AgentProcess[] = [];
let provider: OAuthProvider;
test.before(async () => {
  provider = await startOAuthProvider();
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true, env: provider.env });
  // The provider sends the browser back to the installation's public address: here, the test server's own.
  app.config.publicUrl = app.url;
  browser = await startBrowser();
  await mkdir(SCREENSHOTS, { recursive: true });
});
/**
 * Each step of the teardown is given 30 s: once (in one CI run of many) this file's worker never exited after all its
 * tests had passed, with no handle left open, so a step awaited something that never settled. A step that overruns is
 * named on stderr and the next one runs, so the run ends and says which step it was.
 */
async function bounded(step: string, work: () => Promise<unknown> | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`dashboard.test.ts teardown: ${step} did not end within 30 s`);
      resolve();
    }, 30_000);
  });
  try {
    await Promise.race([work(), overrun]);
  } finally {
    clearTimeout(timer);
  }
}

test.after.always(async () => {
  await bounded('the browser', () => browser?.close());
  await bounded('the agents', () => Promise.all(agents.map((agent) => agent.stop())));
  await bounded('the app', () => app?.close());
  await bounded('the OAuth provider', () => provider?.close());
});

const sameOrigin = (requests: string[]) => requests.filter((url) => !url.startsWith(`${app.url}/`) && !url.startsWith(app.url.replace('http', 'ws')));
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });

/** A browser page signed in as `user` through the sign-in form. */
async function signedIn(user: TestUser) {
  const opened = await browser.page();
  const errors: string[] = [];
  opened.page.on('pageerror', (error) => void errors.push(error.message));
  await opened.page.goto(`${app.url}/`);
  await opened.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await opened.page.getByLabel('E-mail').fill(user.email);
  await opened.page.getByLabel('Password').fill(PASSWORD);
  await opened.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await opened.page.getByRole('link', { name: 'Game servers' }).waitFor();
  return { ...opened, errors };
}

/** The access token of the browser's session expires (here: replaced by one the service refuses); the refresh token is good. */
const expireAccessToken = (page: Page) =>
  page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('gsm.session')!) as { accessToken: string };
    stored.accessToken = 'v4.public.expired';
    localStorage.setItem('gsm.session', JSON.stringify(stored));
  });

/** `page` and two more tabs of its browser at `origin`, its access token expired, all three reloaded at once. */
async function threeTabsRefreshing(page: Page, origin: string): Promise<Page[]> {
  const tabs = [page];
  for (let i = 0; i < 2; i++) {
    const tab = await page.context().newPage();
    await tab.goto(`${origin}/`);
    await tab.getByRole('heading', { name: 'Servers' }).waitFor();
    tabs.push(tab);
  }
  await expireAccessToken(page);
  await Promise.all(tabs.map((tab) => tab.reload()));
  return tabs;
}

/** The ids of the sessions of `email` still open on the service. */
const openSessions = async (email: string) =>
  (
    await app.pool.anyFirst(sql.unsafe`
      SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ${email} AND s.revoked_at IS NULL`)
  ).map(String);

/** The page's next refresh reaches the service, and its answer is held until `hold()` resolves; resolves once answered. */
async function holdRefresh(page: Page, hold: () => Promise<unknown>): Promise<{ onItsWay: Promise<void> }> {
  let answered!: () => void;
  const onItsWay = new Promise<void>((resolve) => (answered = resolve));
  await page.route(
    '**/api/v1/auth/refresh',
    async (route) => {
      const response = await route.fetch();
      answered();
      await hold();
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  return { onItsWay };
}

/** Sessions of `email` that the service ended because a spent refresh token was presented again. */
const revokedAsReplayed = async (email: string) =>
  Number(
    await app.pool.oneFirst(sql.unsafe`
      SELECT count(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ${email} AND s.revoked_reason = 'refresh token reused'`),
  );

test.serial('an operator signs in, registers a machine, creates and starts a server, uses its console, kicks and bans a player', async (t) => {
  const owner = await signUp(app, 'operator');
  const clusterId = await createCluster(app, owner, 'Survival EU');
  const { page, requests, errors } = await signedIn(owner);

  // A bad password says why, where the form is.
  const other = await browser.page();
  await other.page.goto(`${app.url}/`);
  await other.page.getByLabel('E-mail').fill(owner.email);
  await other.page.getByLabel('Password').fill('not the password');
  await other.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await other.page
    .getByRole('alert')
    .filter({ hasText: /invalid|incorrect|password/i })
    .waitFor();
  await shot(other.page, 'sign-in-error');

  // The start page is the cluster's servers.
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  t.regex(page.url(), new RegExp(`#/c/${clusterId}/servers$`));
  await page.getByText('No servers yet.').waitFor();

  // Register a machine: the one-liner is shown once; the real agent then connects and the machine goes ONLINE live.
  await page.getByRole('link', { name: 'Machines', exact: true }).click();
  await page.getByLabel("New machine's name").fill('fra-1');
  await page.getByRole('button', { name: 'Register machine' }).click();
  const oneLiner = await page.getByRole('region', { name: 'Install the agent' }).locator('pre').textContent();
  t.regex(oneLiner ?? '', /printf '%s\\n' 'gsm_install_[0-9A-Za-z]{43}'.*mktemp -d.*install\.sh/);
  t.false((oneLiner ?? '').includes('gsm_agent_'), 'the line carries a single-use code, not the agent token');
  await shot(page, 'machines-registered');
  // What the line's installer does with the code: exchange it, once, for the machine and its token.
  const exchanged = await body(await app.request('/agent/register', json({ code: /'(gsm_install_[0-9A-Za-z]{43})'/.exec(oneLiner ?? '')![1] })));
  const { machineId, agentToken } = exchanged as { machineId: string; agentToken: string };
  agents.push(await startAgent({ url: app.url, machineId, token: agentToken }));
  await page.getByRole('table', { name: 'Machines' }).getByText('ONLINE', { exact: true }).waitFor();

  // Create a server through the form, start it, and watch the status go ONLINE without a reload.
  await page.getByRole('link', { name: 'Servers', exact: true }).click();
  await page.getByRole('button', { name: 'New server' }).click();
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  await page.getByLabel('Name', { exact: true }).fill('Main');
  await page.getByLabel('Game', { exact: true }).selectOption('CUSTOM');
  await page.getByLabel('Game port').fill(String(gamePort));
  await page.getByLabel('Query port').fill(String(queryPort));
  await page.getByLabel('RCON port').fill(String(rconPort));
  await page.getByLabel('RCON password').fill('fake-password');
  await page.getByLabel('Start command').fill(`${process.execPath} ${FAKE_SERVER_PATH}`);
  await page.getByRole('button', { name: 'Create server' }).click();
  await page.getByRole('heading', { name: /^Main/ }).waitFor();
  const serverId = page.url().split('/').at(-1)!;
  await page.getByRole('heading', { name: /OFFLINE/ }).waitFor();
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => void navigations.push(frame.url()));
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Start', exact: true }).click();
  await page.getByRole('heading', { name: /ONLINE/ }).waitFor({ timeout: 30_000 });
  t.deepEqual(navigations, [], 'the status changed live, without a reload');
  await page.getByRole('status').filter({ hasText: 'SUCCEEDED' }).waitFor();

  await page.getByRole('link', { name: 'All servers' }).click();
  await page.getByRole('table', { name: 'Servers' }).getByText('ONLINE', { exact: true }).waitFor();
  await shot(page, 'servers');
  await page.getByRole('table', { name: 'Servers' }).getByRole('link', { name: 'Main' }).click();
  // The page names the machine's account the game runs as, as the API reports it.
  const { osUser } = await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth }));
  t.truthy(osUser, 'the agent reported the account');
  await page.locator('dl.facts dt:text-is("Runs as") + dd').getByText(osUser, { exact: true }).waitFor();

  // The console: a command's answer appears under it.
  await page.getByLabel('Command').fill('echo hello from the dashboard');
  await page.getByLabel('Command').press('Enter');
  await page.getByLabel('Console').getByText('> echo hello from the dashboard').waitFor();
  await page.getByLabel('Console').getByText('hello from the dashboard', { exact: true }).waitFor();

  // A player joins (the fake game's own command), shows up live, is kicked, joins again and is banned.
  await page.getByLabel('Command').fill('sim.join 76561198000000001 Alice');
  await page.getByLabel('Command').press('Enter');
  const players = page.getByRole('table', { name: 'Players online' });
  await players.getByText('Alice').waitFor({ timeout: 20_000 });
  await shot(page, 'server');
  await page.getByRole('button', { name: 'Kick Alice' }).click();
  await players.waitFor({ state: 'detached', timeout: 20_000 });
  await page.getByText('Nobody is online.').waitFor();
  await page.getByLabel('Command').fill('sim.join 76561198000000001 Alice');
  await page.getByLabel('Command').press('Enter');
  await page.getByRole('button', { name: 'Ban Alice' }).waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Ban Alice' }).click();
  await page.getByLabel('Reason').fill('Griefing the spawn');
  await page.getByRole('button', { name: 'Ban', exact: true }).click();
  await until(
    async () => Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM bans WHERE cluster_id = ${clusterId} AND reason = 'Griefing the spawn'`)) === 1,
    'the ban',
  );
  await page.getByRole('link', { name: 'Bans', exact: true }).click();
  await page.getByRole('table', { name: 'Bans' }).getByText('Griefing the spawn').waitFor();
  await shot(page, 'bans');

  // Players: search and detail.
  await page.getByRole('link', { name: 'Players', exact: true }).click();
  await page.getByLabel('Name or Steam id').fill('Ali');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('table', { name: 'Players', exact: true }).getByRole('link', { name: 'Alice' }).click();
  await page.getByRole('heading', { name: /Alice/ }).waitFor();
  await page.getByRole('table', { name: 'Bans' }).getByText('Griefing the spawn').waitFor();
  await page.getByLabel('Note', { exact: true }).fill('Said sorry on Discord');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByText('Said sorry on Discord').waitFor();
  await shot(page, 'player');

  // Metrics: the last half hour's points (as the ingest writes them) drawn for the last hour; the audit log.
  for (let minute = 1; minute <= 30; minute++) {
    const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 - minute * 60_000).toISOString();
    await app.pool.query(sql.unsafe`
      INSERT INTO server_metrics_minute VALUES (${serverId}, ${at}, 2, ${minute * 4}, ${minute * 3}, ${2 * 512 * 1024 * 1024}, ${600 * 1024 * 1024}, 2, 1)
      ON CONFLICT DO NOTHING`);
  }
  await page.goto(`${app.url}/#/c/${clusterId}/servers/${serverId}`);
  // Back on the server's page, its console shows its recent lines again (the subscription's replay).
  await page.getByLabel('Console').getByText('Server ready').waitFor();
  const cpu = page.getByRole('img', { name: 'CPU' });
  const points = async () =>
    (
      (await cpu
        .locator('path.series-0')
        .getAttribute('d', { timeout: 100 })
        .catch(() => null)) ?? ''
    ).split(/[ML]/).length - 1;
  await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '24 h' }).click();
  await until(async () => (await points()) > 0 && (await points()) <= 3, 'the day in quarter hours (30 minutes of points)');
  // Switching back: the day's chart is gone as soon as the page shows "1 h" pressed (Preact renders on a microtask),
  // not left under the new period until the new load starts.
  const afterSwitch = await page.evaluate(async () => {
    type Element = { textContent: string | null; click(): void; getAttribute(name: string): string | null };
    const { document } = globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<Element>; querySelector(s: string): Element | null } };
    const buttons = [...document.querySelectorAll('[aria-label="Period"] button')];
    buttons.find((button) => button.textContent === '1 h')!.click();
    for (let turn = 0; turn < 3; turn++) await new Promise<void>((resolve) => queueMicrotask(resolve));
    return {
      pressed: buttons.find((button) => button.getAttribute('aria-pressed') === 'true')?.textContent,
      chart: document.querySelector('svg[aria-label="CPU"] path.series-0')?.getAttribute('d') ?? null,
    };
  });
  t.deepEqual(afterSwitch, { pressed: '1 h', chart: null }, 'no chart of the previous period under the new one');
  await cpu.waitFor();
  t.regex((await cpu.locator('path.series-0').getAttribute('d')) ?? '', /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){20,}/, 'a line through the points');
  t.regex((await cpu.textContent()) ?? '', /90 %/, 'the axis shows the peak (30 × 3 %)');
  await shot(page, 'server-metrics');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('table', { name: 'Audit log' }).getByText('server.start').waitFor();
  await shot(page, 'audit-log');

  t.deepEqual(sameOrigin(requests), [], 'everything came from this installation');
  t.deepEqual(errors, [], 'no script error');
});

test.serial('API tokens: created, shown once, revoked; tasks show their next runs in their time zone', async (t) => {
  const owner = await signUp(app, 'admin');
  const clusterId = await createCluster(app, owner, 'Creative');
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const machineId = machine.id as string;
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 'Lobby', gameType: 'CUSTOM', machineId, gamePort, queryPort, rconPort, startCommand: 'true' }, { headers: owner.auth }),
    ),
  );
  const { page, errors } = await signedIn(owner);

  await page.getByRole('link', { name: 'admin', exact: true }).click();
  await page.getByRole('heading', { name: 'Account' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('nightly script');
  await page.getByLabel('Creative').check();
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByRole('region', { name: 'New token' }).locator('pre').textContent())!.trim();
  t.regex(token, /^gsm_live_/);
  t.is((await app.request(`/api/v1/clusters/${clusterId}/servers`, { headers: { Authorization: `Bearer ${token}` } })).status, 200, 'the token works');
  await shot(page, 'account-token');
  await page.getByRole('button', { name: 'Done' }).click();
  t.is(await page.getByText(token).count(), 0, 'shown once');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('table', { name: 'API tokens' }).getByRole('button', { name: 'Revoke' }).click();
  await page.getByText('No API tokens.').waitFor();
  t.is((await app.request(`/api/v1/clusters/${clusterId}/servers`, { headers: { Authorization: `Bearer ${token}` } })).status, 401, 'revoked');

  // A task: the next five runs, in the task's own time zone, follow the schedule as it is typed.
  await page.goto(`${app.url}/#/c/${clusterId}/tasks`);
  await page.getByRole('button', { name: 'New task' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Nightly restart');
  await page.getByLabel('Time zone').fill('Asia/Tokyo');
  await page.getByLabel(/^Schedule/).fill('30 4 * * *');
  const runs = page.locator('.next-runs li');
  await until(async () => (await runs.count()) === 5 && /4:30/.test((await runs.first().textContent()) ?? ''), 'five runs at 4:30 Tokyo time');
  t.regex((await runs.first().textContent())!, /GMT\+9|JST/);
  await page.getByLabel(/^Schedule/).fill('61 * * * *');
  await page.locator('.preview').getByRole('alert').waitFor();
  await page.getByLabel(/^Schedule/).fill('30 4 * * *');
  await until(async () => (await runs.count()) === 5, 'the runs again');
  await page.getByLabel('Lobby').check();
  await page.getByRole('button', { name: 'Create task' }).click();
  await shot(page, 'tasks-created');
  await page.getByRole('table', { name: 'Tasks' }).getByText('Nightly restart').waitFor();
  const stored = await app.pool.one(sql.unsafe`SELECT schedule, timezone, next_run_at FROM tasks WHERE cluster_id = ${clusterId}`);
  t.like(stored, { schedule: '30 4 * * *', timezone: 'Asia/Tokyo' });
  await shot(page, 'tasks');
  t.deepEqual(errors, []);
});

test.serial('a VIEWER sees servers but is offered no power buttons, console line, server form or audit log', async (t) => {
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner, 'Watched');
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 'Survival', gameType: 'CUSTOM', machineId: machine.id, gamePort, queryPort, rconPort, startCommand: 'true' }, { headers: owner.auth }),
    ),
  );
  const viewer = await signUp(app, 'viewer');
  await addMember(app, clusterId, viewer, 'VIEWER');
  const { page, errors } = await signedIn(viewer);
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  await page.getByRole('link', { name: 'Survival' }).click();
  await page.getByRole('heading', { name: /Survival/ }).waitFor();
  await page.getByText('Nobody is online.').waitFor();
  t.is(await page.getByRole('group', { name: 'Power' }).count(), 0, 'no power buttons');
  t.is(await page.getByLabel('Command').count(), 0, 'no command line');
  t.is(await page.getByRole('button', { name: 'Back up now' }).count(), 0);
  t.is(await page.getByRole('link', { name: 'Audit log' }).count(), 0);
  await page.getByRole('link', { name: 'Servers', exact: true }).click();
  t.is(await page.getByRole('button', { name: 'New server' }).count(), 0);
  await shot(page, 'viewer-servers');
  t.deepEqual(errors, []);
});

test.serial(
  'the New server form sets how a CUSTOM server is ready, its console and its stop; the backups list says which backups are consistent',
  async (t) => {
    const owner = await signUp(app, 'custom');
    const clusterId = await createCluster(app, owner, 'Modded');
    await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth }));
    const { page, errors } = await signedIn(owner);
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    await page.getByRole('button', { name: 'New server' }).click();
    const [gamePort, queryPort, rconPort] = await freePorts(3);
    await page.getByLabel('Name', { exact: true }).fill('Modded');
    await page.getByLabel('Game', { exact: true }).selectOption('CUSTOM');
    await page.getByLabel('Game port').fill(String(gamePort));
    await page.getByLabel('Query port').fill(String(queryPort));
    await page.getByLabel('RCON port').fill(String(rconPort));
    await page.getByLabel('Start command').fill('./start.sh');
    await page.getByLabel('Ready when').selectOption('LINE');
    await page.getByLabel('Ready line pattern').fill('Server (started');
    await page.getByLabel('Console', { exact: true }).selectOption('STDIN');
    await page.getByLabel('Stop by').selectOption('SIGNAL');
    await page.getByLabel('Stop signal').selectOption('SIGINT');
    await page.getByLabel('Grace before SIGTERM (s)').fill('20');
    await page.getByRole('button', { name: 'Create server' }).click();
    // A pattern that does not compile: the service's 400 is shown, and nothing is created.
    await page.getByText('must be a valid regular expression').waitFor();
    await page.getByLabel('Ready line pattern').fill('Server started');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByRole('heading', { name: /^Modded/ }).waitFor();
    const serverId = page.url().split('/').at(-1)!;
    t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM servers WHERE cluster_id = ${clusterId}`)), 1, 'the refused submit created nothing');
    const server = await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth }));
    t.like(server, {
      ready: { mode: 'LINE', pattern: 'Server started' },
      consoleMode: 'STDIN',
      stop: { mode: 'SIGNAL', signal: 'SIGINT', graceSeconds: 20 },
    });

    // Two finished backups, one made while the game was writing.
    for (const [name, consistent] of [
      ['stopped', true],
      ['live', false],
    ] as const) {
      await app.pool.query(sql.unsafe`
      INSERT INTO backups (cluster_id, server_id, job_id, name, status, size_bytes, sha256, consistent, location, completed_at)
      VALUES (${clusterId}, ${serverId}, gen_random_uuid(), ${name}, 'COMPLETED', 1024, ${'a'.repeat(64)}, ${consistent}, 'LOCAL', now())`);
    }
    await page.reload();
    const backups = page.getByRole('table', { name: 'Backups' });
    await backups.getByText('live').waitFor();
    t.is(await backups.getByRole('columnheader', { name: 'Consistent' }).count(), 1);
    t.is(await backups.getByRole('row').filter({ hasText: 'live' }).getByRole('cell', { name: 'No', exact: true }).count(), 1);
    t.is(await backups.getByRole('row').filter({ hasText: 'stopped' }).getByRole('cell', { name: 'Yes', exact: true }).count(), 1);
    t.deepEqual(errors, []);
  },
);

test.serial('the session refreshes without losing the page', async (t) => {
  const owner = await signUp(app, 'refresher');
  await createCluster(app, owner, 'Long shift');
  const { page } = await signedIn(owner);
  await page.getByRole('link', { name: 'Machines', exact: true }).click();
  await page.getByLabel("New machine's name").fill('typed before the token expired');
  // The access token expires (here: its session's access tokens are refused from now on); the refresh token is good.
  await expireAccessToken(page);
  await page.reload();
  await page.getByRole('heading', { name: 'Machines' }).waitFor();
  await page.getByLabel("New machine's name").fill('after the refresh');
  await page.getByRole('button', { name: 'Register machine' }).click();
  await page.getByRole('region', { name: 'Install the agent' }).waitFor();
  t.notRegex(page.url(), /sign-in/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('gsm.session')!) as { accessToken: string });
  t.not(stored.accessToken, 'v4.public.expired', 'a new access token was stored');
});

test.serial(
  'auth:expiring refreshes and hands the socket the new token; after auth:expired it refreshes and connects again; a refresh answered 503 is tried again; Sign out during a refresh stays signed out',
  async (t) => {
    const owner = await signUp(app, 'expiring');
    await createCluster(app, owner, 'Night shift');
    const helpers = await openSessions(owner.email); // the test's own API calls' sessions; the browser's are the others
    const { page, errors } = await signedIn(owner);
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    type Pair = { accessToken: string; refreshToken: string };
    const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem('gsm.session') ?? 'null') as { accessToken: string; refreshToken: string } | null);
    const socketWith = (token: string) =>
      [...app.deps.live.io.of('/live').sockets.values()].find((socket) => (socket.handshake.auth as { token?: string }).token === token);

    // A minute before the access token expires, the service says so on the socket.
    const first = (await stored())!;
    await until(async () => Boolean(socketWith(first.accessToken)), 'the page is connected');
    const socket = socketWith(first.accessToken)!;
    const handed = new Promise<string>((resolve) => socket.on('auth:refresh', (renewal: { token: string }) => resolve(renewal.token)));
    socket.emit('auth:expiring', { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const token = await handed;
    const second = (await stored()) as Pair;
    t.not(second.refreshToken, first.refreshToken, 'the session was refreshed');
    t.is(token, second.accessToken, 'and the socket holds the new access token');

    // The service ends the socket because its token expired: the page refreshes the session, then connects with it.
    const liveSockets = () => [...app.deps.live.io.of('/live').sockets.values()];
    const before = new Set(liveSockets());
    socket.emit('auth:expired', { message: 'The access token expired; connect again with a fresh one' });
    socket.disconnect(true);
    await until(async () => ((await stored()) as Pair).refreshToken !== second.refreshToken, 'refreshed after auth:expired');
    const third = (await stored()) as Pair;
    await until(
      async () => liveSockets().some((other) => !before.has(other) && (other.handshake.auth as { token?: string }).token === third.accessToken),
      'connected again with the new token',
    );

    // The service cannot answer a refresh (503): the session is kept and the refresh tried again.
    let refused = 0;
    await page.route('**/api/v1/auth/refresh', (route) =>
      refused++ === 0
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Later' }),
          })
        : route.continue(),
    );
    await expireAccessToken(page);
    await page.reload();
    await until(async () => refused >= 1, 'a refresh refused');
    await until(async () => ((await stored()) as Pair).accessToken !== 'v4.public.expired', 'refreshed on a later try', 20_000);
    t.is(await page.getByRole('heading', { name: 'Sign in' }).count(), 0, 'still signed in');
    await page.unroute('**/api/v1/auth/refresh');

    // Sign out while a refresh's answer is on its way: signed out, and the new pair is ended on the service too.
    const { onItsWay } = await holdRefresh(page, () => new Promise((resolve) => setTimeout(resolve, 1_000)));
    await expireAccessToken(page);
    await page.reload();
    await onItsWay;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await until(async () => (await openSessions(owner.email)).every((id) => helpers.includes(id)), 'no session of the browser left open');
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the held answer has arrived meanwhile
    t.is(await stored(), null, 'still signed out');
    t.is(await page.getByRole('heading', { name: 'Sign in' }).count(), 1);
    t.deepEqual(errors, []);
  },
);

/**
 * Two accounts, each with a cluster; a tab signed in as the first whose refresh is held (until `release`), and another
 * tab of the browser, back from a Steam sign-in it started as the second (the pair in the address's fragment, with
 * the value the tab kept): `backFromSteam` brings it there.
 */
async function refreshHeldWhileAnotherTabSignsIn(names: [string, string], clusters: [string, string]) {
  const first = await signUp(app, names[0]);
  await createCluster(app, first, clusters[0]);
  const second = await signUp(app, names[1]);
  await createCluster(app, second, clusters[1]);
  const helpers = await openSessions(first.email);
  const { page, errors } = await signedIn(first);
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { onItsWay } = await holdRefresh(page, () => gate);
  await expireAccessToken(page);
  await page.reload();
  await onItsWay;
  const pair = (await body(await app.request('/api/v1/auth/login', json({ email: second.email, password: PASSWORD })))) as Record<string, string>;
  const other = await page.context().newPage();
  await other.goto(`${app.url}/#/account`);
  await other.evaluate(() => sessionStorage.setItem('gsm.oauth.nonce', 'started-in-this-tab'));
  await other.goto('about:blank'); // back from the provider: a new document
  const fragment = new URLSearchParams({ accessToken: pair.accessToken!, refreshToken: pair.refreshToken!, expiresIn: '900', nonce: 'started-in-this-tab' });
  const backFromSteam = () => other.goto(`${app.url}/#${fragment}`);
  return { first, helpers, page, errors, release, pair, other, backFromSteam };
}

test.serial('a sign-in in another tab while this tab refreshes stands: the refreshed pair is ended, not written over it', async (t) => {
  const { first, helpers, page, errors, release, pair, other, backFromSteam } = await refreshHeldWhileAnotherTabSignsIn(
    ['first-account', 'second-account'],
    ['First', 'Second'],
  );
  await backFromSteam();
  // The sign-in waits for the refresh under way (its lock): nothing of it is stored yet, however long the refresh takes
  // (up to its bound of 5 s).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const storedNow = () => other.evaluate(() => (JSON.parse(localStorage.getItem('gsm.session') ?? 'null') as { accessToken?: string } | null)?.accessToken);
  t.not(await storedNow(), pair.accessToken, 'the sign-in waits for the refresh');
  // The refresh's answer comes: it stores its pair, then the sign-in (granted the lock, not giving up on it 5 s after
  // it began) replaces it and ends it on the service.
  release();
  const released = Date.now();
  await until(async () => (await storedNow()) === pair.accessToken, 'the sign-in stored', 10_000);
  t.true(Date.now() - released < 3_500, `stored ${Date.now() - released} ms after the refresh's answer: the lock was granted`);
  await page.getByRole('combobox', { name: 'Cluster' }).filter({ hasText: 'Second' }).waitFor({ timeout: 60_000 });
  const kept = await page.evaluate(() => (JSON.parse(localStorage.getItem('gsm.session')!) as { accessToken: string }).accessToken);
  t.is(kept, pair.accessToken, 'the other tab’s sign-in stands');
  await until(async () => (await openSessions(first.email)).every((id) => helpers.includes(id)), 'the first account’s browser session ended');
  // And a page already showing one account follows a sign-in elsewhere as another: its pages read again.
  const again = (await body(await app.request('/api/v1/auth/login', json({ email: first.email, password: PASSWORD })))) as Record<string, string>;
  await other.evaluate(
    (value) => localStorage.setItem('gsm.session', value),
    JSON.stringify({ ...again, expiresAt: Date.now() + 900_000, signedIn: 'once-more-in-the-other-tab' }),
  );
  await page.getByRole('combobox', { name: 'Cluster' }).filter({ hasText: 'First' }).waitFor({ timeout: 60_000 });
  t.deepEqual(errors, []);
});

test.serial('a refresh that hangs in another tab holds up a sign-in for 5 s at most', async (t) => {
  const { release, other, backFromSteam } = await refreshHeldWhileAnotherTabSignsIn(['hung-refresh', 'after-hung-refresh'], ['Hung', 'After']);
  t.teardown(() => release()); // never answered during the test
  const started = Date.now();
  await backFromSteam();
  await other.getByRole('combobox', { name: 'Cluster' }).filter({ hasText: 'After' }).waitFor({ timeout: 30_000 });
  const waited = Date.now() - started;
  t.true(waited >= 4_500 && waited < 20_000, `signed in after ${waited} ms`);
});

test.serial('three tabs refreshing at once spend the refresh token once (a replayed one would revoke the session)', async (t) => {
  const owner = await signUp(app, 'tabs');
  await createCluster(app, owner, 'Three tabs');
  const { page } = await signedIn(owner);
  const tabs = await threeTabsRefreshing(page, app.url);
  for (const tab of tabs) {
    await tab.getByRole('heading', { name: 'Servers' }).waitFor();
    t.is(await tab.getByRole('button', { name: 'Sign in' }).count(), 0, 'still signed in');
    await tab.getByRole('link', { name: 'Machines', exact: true }).click();
    await tab.getByText('No machines yet.', { exact: false }).waitFor();
  }
  t.is(await revokedAsReplayed(owner.email), 0, 'no session was revoked as replayed');
});

test.serial('over plain HTTP on a LAN name (no Web Locks, no crypto.randomUUID) POSTs work and three tabs refreshing at once keep the session', async (t) => {
  const owner = await signUp(app, 'lan');
  await createCluster(app, owner, 'LAN party');
  // dash.test is 127.0.0.1 to this browser, but not a secure context as localhost is: what an install on a LAN IP gets.
  const lan = await startBrowser(['--host-resolver-rules=MAP dash.test 127.0.0.1']);
  t.teardown(() => lan.close());
  const origin = app.url.replace('127.0.0.1', 'dash.test');
  const { page } = await lan.page();
  const errors: string[] = [];
  page.on('pageerror', (error) => void errors.push(error.message));
  await page.goto(`${origin}/`);
  t.deepEqual(
    await page.evaluate(() => [(globalThis as unknown as { isSecureContext: boolean }).isSecureContext, typeof navigator.locks, typeof crypto.randomUUID]),
    [false, 'undefined', 'undefined'],
  );
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  // A POST carries an Idempotency-Key made without crypto.randomUUID.
  await page.getByRole('link', { name: 'Machines', exact: true }).click();
  await page.getByLabel("New machine's name").fill('lan-1');
  await page.getByRole('button', { name: 'Register machine' }).click();
  await page.getByRole('region', { name: 'Install the agent' }).waitFor();

  const tabs = await threeTabsRefreshing(page, origin);
  for (const tab of tabs) {
    await tab.getByRole('link', { name: 'Servers', exact: true }).click();
    await tab.getByRole('link', { name: 'Machines', exact: true }).click();
    await tab.getByRole('cell', { name: 'lan-1' }).waitFor();
  }
  t.is(await revokedAsReplayed(owner.email), 0, 'no session was revoked as replayed');
  t.deepEqual(errors, []);
});

test.serial('a sign-in link that this tab did not start is refused; one it started signs in', async (t) => {
  const victim = await signUp(app, 'victim');
  const attacker = await signUp(app, 'attacker');
  await createCluster(app, attacker, "Attacker's");
  const pair = (await body(await app.request('/api/v1/auth/login', json({ email: attacker.email, password: PASSWORD })))) as Record<string, string>;
  const link = (extra = '') => `${app.url}/#accessToken=${pair.accessToken}&refreshToken=${pair.refreshToken}&expiresIn=900${extra}`;

  const { page } = await browser.page();
  await page.goto(link('&nonce=guessed-value-0000'));
  await page.getByText('A sign-in link that this browser did not start was ignored.').waitFor();
  t.is(await page.evaluate(() => localStorage.getItem('gsm.session')), null, 'nothing stored');
  t.false(page.url().includes('accessToken'), 'the tokens are gone from the address');
  // A tab that did start a sign-in, handed a link with another value: refused too.
  await page.evaluate(() => sessionStorage.setItem('gsm.oauth.nonce', 'value-this-tab-keeps-0000'));
  await page.goto('about:blank');
  await page.goto(link('&nonce=value-someone-else-made-0000'));
  await page.getByText('A sign-in link that this browser did not start was ignored.').waitFor();
  t.is(await page.evaluate(() => localStorage.getItem('gsm.session')), null, 'nothing stored for a value not this tab’s');

  // Signed in already (as the victim): a link does not replace the session either.
  await page.getByLabel('E-mail').fill(victim.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page
    .getByRole('heading', { name: 'Create your first cluster' })
    .or(page.getByRole('heading', { name: 'Servers' }))
    .first()
    .waitFor();
  const victimsToken = await page.evaluate(() => localStorage.getItem('gsm.session'));
  t.truthy(victimsToken);
  await page.goto('about:blank');
  await page.goto(link());
  await page.getByText('A sign-in link that this browser did not start was ignored: you are still signed in as before.').waitFor();
  t.is(await page.evaluate(() => localStorage.getItem('gsm.session')), victimsToken, 'still the victim’s session');
  t.is(await page.getByRole('option', { name: /Attacker's/ }).count(), 0, 'still the victim');

  // The tab's own value (as the Steam and Discord buttons keep it) lets the pair in. Here another tab of the browser
  // signed in meanwhile (as the victim): that session is ended on the service, not left open with nobody holding it.
  const own = await browser.page();
  await own.page.goto(`${app.url}/`);
  await own.page.evaluate(() => sessionStorage.setItem('gsm.oauth.nonce', 'own-value-of-this-tab'));
  const meanwhile = (await body(await app.request('/api/v1/auth/login', json({ email: victim.email, password: PASSWORD })))) as Record<string, string>;
  await own.page.evaluate((stored) => localStorage.setItem('gsm.session', stored), JSON.stringify({ ...meanwhile, expiresAt: Date.now() + 900_000 }));
  await own.page.goto('about:blank'); // back from the provider: a new document
  await own.page.goto(link('&nonce=own-value-of-this-tab'));
  await own.page.getByRole('heading', { name: 'Servers' }).waitFor();
  t.true((await own.page.getByRole('combobox', { name: 'Cluster' }).textContent())!.includes("Attacker's"));
  await until(
    async () => (await app.request('/api/v1/account', { headers: { authorization: `Bearer ${meanwhile.accessToken}` } })).status === 401,
    'the replaced session ended',
  );
});

test.serial('Sign in with Steam: the provider sends the browser back to the dashboard, signed in', async (t) => {
  // The provider's user (its default SteamID) is linked to an account; registration is closed by now.
  const player = await signUp(app, 'steam');
  await app.pool.query(sql.unsafe`UPDATE users SET steam_id = '76561197960287930' WHERE id = ${player.id}`);
  const { page, requests } = await browser.page();
  await page.goto(`${app.url}/`);
  await page.getByRole('button', { name: 'Sign in with Steam' }).click();
  await page.getByRole('link', { name: 'Game servers' }).waitFor();
  t.true(
    requests.some((url) => url.startsWith(provider.env.STEAM_OPENID_URL!)),
    'through the provider',
  );
  t.false(page.url().includes('accessToken'), 'the tokens are gone from the address');
  const account = await page.evaluate(async () => {
    const { accessToken } = JSON.parse(localStorage.getItem('gsm.session')!) as { accessToken: string };
    return (await (await fetch('/api/v1/account', { headers: { authorization: `Bearer ${accessToken}` } })).json()) as { email: string };
  });
  t.is(account.email, player.email, 'signed in as the account the Steam account is linked to');
  t.is(await page.evaluate(() => sessionStorage.getItem('gsm.oauth.nonce')), null, 'the value is spent');
});

/** Leaves the page for a blank one and stops the clock of the next one opened: no frames, no timers until resumed. */
async function stopClock(page: Page) {
  await page.goto('about:blank');
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60_000);
}

test.serial('a sign-in link is kept when the session lock is granted after the page is drawn, before it listens', async (t) => {
  const owner = await signUp(app, 'late-lock');
  await createCluster(app, owner, 'Late lock');
  const pair = (await body(await app.request('/api/v1/auth/login', json({ email: owner.email, password: PASSWORD })))) as Record<string, string>;
  const { page } = await browser.page();
  await page.goto(`${app.url}/`);
  await page.evaluate(() => sessionStorage.setItem('gsm.oauth.nonce', 'value-of-this-tab-0000'));
  // The page's clock stands still (no frames, no timers): Preact's effects (after the next frame, or a 35 ms timer)
  // wait, while the browser grants the session lock (no timer) and the link's pair is stored. Then time goes on: as on
  // a busy machine, or in a tab in the background, where the grant comes between the drawing and the subscription.
  await stopClock(page);
  await page.goto(`${app.url}/#accessToken=${pair.accessToken}&refreshToken=${pair.refreshToken}&expiresIn=900&nonce=value-of-this-tab-0000`);
  await until(async () => (await page.evaluate(() => localStorage.getItem('gsm.session'))) !== null, 'the pair stored');
  t.is(await page.getByRole('heading', { name: 'Sign in' }).count(), 1, 'drawn signed out, before the page listens');
  await page.clock.resume();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  t.true((await page.getByRole('combobox', { name: 'Cluster' }).textContent())!.includes('Late lock'));
  t.is(JSON.parse((await page.evaluate(() => localStorage.getItem('gsm.session')))!).accessToken, pair.accessToken);
});

test.serial('an address changed after the page is drawn, before it listens, is followed', async (t) => {
  const owner = await signUp(app, 'early-hash');
  await createCluster(app, owner, 'Early hash');
  const { page, errors } = await signedIn(owner);
  // As in the test above: the page's clock stands still, so the signed-in page is drawn but its effects (which listen
  // for address changes) wait. The address changes meanwhile, as a click on a link of the page would.
  await stopClock(page);
  await page.goto(`${app.url}/#/account`);
  await page.getByRole('heading', { name: 'Account' }).waitFor();
  await page.evaluate(() => {
    const window = globalThis as unknown as { addEventListener(type: string, listener: () => void, options: object): void; location: { hash: string } };
    return new Promise<void>((resolve) => {
      window.addEventListener('hashchange', resolve, { once: true });
      window.location.hash = '#/new-cluster';
    });
  });
  t.is(await page.getByRole('heading', { name: 'Account' }).count(), 1, 'drawn at the first address, before the page listens');
  await page.clock.resume();
  await page.getByRole('heading', { name: 'New cluster' }).waitFor({ timeout: 5_000 });
  t.is(await page.getByRole('heading', { name: 'Account' }).count(), 0);
  t.deepEqual(errors, []);
});

test.serial('live updates come back after the service ends the socket, with what changed in the gap; a bad address shows a message', async (t) => {
  const owner = await signUp(app, 'resume');
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const { page, errors, requests } = await signedIn(owner);
  await page.goto(`${app.url}/#/c/${clusterId}/machines`);
  const machines = page.getByRole('table', { name: 'Machines' });
  await machines.getByText('host', { exact: true }).waitFor();
  // This page's sockets (other tests' pages are still open): those opened with its access token.
  const sockets = async () => {
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('gsm.session')!) as { accessToken: string }).accessToken);
    return [...app.deps.live.io.of('/live').sockets.values()].filter((socket) => (socket.handshake.auth as { token?: string }).token === token).length;
  };
  await until(async () => (await sockets()) === 1, 'the page is connected');
  // A deploy, or a token the service ended: the service closes every socket. The machine changes meanwhile.
  app.deps.live.io.of('/live').disconnectSockets(true);
  await app.pool.query(sql.unsafe`UPDATE machines SET name = 'renamed in the gap' WHERE id = ${machineId}`);
  await machines.getByText('renamed in the gap', { exact: true }).waitFor();
  await until(async () => (await sockets()) === 1, 'connected again');
  // And live again: the agent connects and the machine goes ONLINE without a reload.
  const agent = await startAgent({ url: app.url, machineId, token });
  await machines.getByText('ONLINE', { exact: true }).waitFor();

  // A change that arrives while the page reads again is kept: the read's answer, older than it, does not undo it.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let fetched!: () => void;
  const snapshot = new Promise<void>((resolve) => (fetched = resolve));
  const list = new RegExp(`/api/v1/clusters/${clusterId}/machines\\?`);
  await page.route(
    list,
    async (route) => {
      const response = await route.fetch(); // read now: ONLINE
      fetched();
      await gate;
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  app.deps.live.io.of('/live').disconnectSockets(true); // back: RESUMED, and the page reads its machines again
  await snapshot;
  await agent.stop(); // meanwhile the machine goes OFFLINE, live
  await machines.getByText('OFFLINE', { exact: true }).waitFor();
  const answered = page.waitForEvent('requestfinished', (request) => list.test(request.url()));
  release();
  await answered;
  for (let look = 0; look < 10; look++) {
    t.is(await machines.getByText('ONLINE', { exact: true }).count(), 0, 'the older answer did not put ONLINE back');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await machines.getByText('OFFLINE', { exact: true }).waitFor();

  await page.goto(`${app.url}/#/c/%/servers`);
  await page.getByText('This cluster does not exist or you are not a member of it.').waitFor();
  // A crafted link whose "server" is a path to another route: refused, and that route is never called.
  await page.goto(`${app.url}/#/c/${clusterId}/servers/..%2Fmachines%2F${machineId}`);
  await page.getByText(/There is no such server/).waitFor();
  t.deepEqual(
    requests.filter((url) => url.includes(`machines/${machineId}`) || url.includes('..')),
    [],
    'no call made from the crafted address',
  );
  t.deepEqual(errors, []);
});

test.serial('the console goes on after a reconnection where it stopped: no line lost or shown twice', async (t) => {
  const owner = await signUp(app, 'console-resume');
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, clusterId, machineId);
  const { page, errors } = await signedIn(owner);
  const print = (from: number, to: number) =>
    app.gateway.live.console(
      clusterId,
      server.id,
      Array.from({ length: to - from }, (_, index) => `resume line ${from + index}`),
      new Date().toISOString(),
    );
  print(0, 150);
  await page.goto(`${app.url}/#/c/${clusterId}/servers/${server.id}`);
  const box = page.getByLabel('Console');
  await box.getByText('resume line 149', { exact: true }).waitFor();
  print(150, 160);
  await box.getByText('resume line 159', { exact: true }).waitFor();
  // The service ends the page's socket (a deploy); lines come while the page is away. It resumes after its last line
  // (a fresh replay would have started the console again with the last 100: lines 50 to 79 would be gone).
  app.deps.live.io.of('/live').disconnectSockets(true);
  print(160, 170);
  await box.getByText('resume line 169', { exact: true }).waitFor();
  print(170, 180);
  await box.getByText('resume line 179', { exact: true }).waitFor();
  const shown = (await box.innerText()).split('\n').filter((line) => line.startsWith('resume line'));
  t.deepEqual(
    shown,
    Array.from({ length: 130 }, (_, index) => `resume line ${50 + index}`),
    'the last 100 lines when the page opened, then every line once',
  );
  t.deepEqual(errors, []);
});

test.serial('a member removed from the cluster while its servers page is open is told so, from the API, within seconds', async (t) => {
  const owner = await signUp(app, 'remover');
  const clusterId = await createCluster(app, owner, 'Removal');
  const member = await signUp(app, 'removed');
  await addMember(app, clusterId, member, 'ADMIN');
  const { page, errors } = await signedIn(member);
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  await page.getByText('No servers yet.').waitFor();
  await app.pool.query(sql.unsafe`DELETE FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${member.id}`);
  // The service ends the live subscription (access is checked again every few seconds); the page reads again.
  await page
    .getByRole('alert')
    .filter({ hasText: /member/i })
    .waitFor({ timeout: 15_000 });
  t.deepEqual(errors, []);
});

test.serial('keyboard only: sign in with Tab and Enter; an OWNER invites a member and changes a role', async (t) => {
  const owner = await signUp(app, 'keys');
  const clusterId = await createCluster(app, owner, 'Keyboard');
  const member = await signUp(app, 'member');
  await addMember(app, clusterId, member, 'VIEWER');
  const { page } = await browser.page();
  await page.goto(`${app.url}/`);
  await page.getByLabel('E-mail').focus();
  await page.keyboard.type(owner.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Servers' }).waitFor();

  await page.getByRole('link', { name: 'Members', exact: true }).click();
  await page.getByRole('table', { name: 'Members' }).getByText(member.email).waitFor();
  await page.getByLabel('Role of member').selectOption('MODERATOR');
  await until(
    async () =>
      (await app.pool.oneFirst(sql.unsafe`SELECT role FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${member.id}`)) === 'MODERATOR',
    'the new role',
  );
  await page.getByLabel('E-mail').fill('friend@example.test');
  await page.getByLabel('Role', { exact: true }).selectOption('ADMIN');
  await page.getByRole('button', { name: 'Invite' }).click();
  await page.getByText(/Invitation for friend@example.test/).waitFor();
  await page.getByRole('table', { name: 'Pending invitations' }).getByText('friend@example.test').waitFor();
  // A refused invitation says why, from the API: the same address again.
  await page.getByLabel('E-mail').fill('friend@example.test');
  await page.getByRole('button', { name: 'Invite' }).click();
  await page.getByRole('alert').waitFor();
  await shot(page, 'members');
  t.pass();
});

test.serial('a script or style sheet that cannot be loaded (an upgrade behind a load balancer) says so and offers a reload', async (t) => {
  const { page } = await browser.page();
  const violations: string[] = [];
  page.on('console', (message) => void (/Content Security Policy/i.test(message.text()) && violations.push(message.text())));
  // Another node, still on the old version, answers for this version's script: 404.
  await page.route(/\/dashboard\/main-[0-9a-f]{16}\.js$/, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }));
  await page.goto(`${app.url}/`);
  await page
    .getByRole('alert')
    .getByText(/could not load its files/)
    .waitFor();
  t.false(await page.getByText('Loading…').isVisible(), 'not left loading');
  // The reload, once the balancer answers from the right node, starts the dashboard.
  await page.unroute(/\/dashboard\/main-[0-9a-f]{16}\.js$/);
  await page.getByRole('link', { name: 'Reload the page' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();

  // The style sheet alone missing: the dashboard starts anyway, unstyled, without the message.
  await page.route(/\/dashboard\/main-[0-9a-f]{16}\.css$/, (route) => route.fulfill({ status: 404, body: '' }));
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.is(await page.getByText(/could not load its files/).count(), 0);
  t.deepEqual(violations, [], 'the inline watch is allowed by its hash; nothing else inline ran');
});

test('the page and its assets: hashed names cached for a year, compressed, strict CSP, a 404 for an unknown asset', async (t) => {
  const page = await app.request('/');
  t.is(page.status, 200);
  t.is(page.headers.get('cache-control'), 'no-cache');
  t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
  const html = await page.text();
  const script = /src="\/dashboard\/(main-[0-9a-f]{16}\.js)"/.exec(html)![1]!;
  const asset = await app.request(`/dashboard/${script}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  t.is(asset.status, 200);
  t.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(asset.headers.get('content-encoding'), 'br');
  const again = await app.request(`/dashboard/${script}`, { headers: { 'If-None-Match': asset.headers.get('etag')! } });
  t.is(again.status, 304);
  const missing = await app.request('/dashboard/main-0000000000000000.js');
  t.is(missing.status, 404);
  t.like(await missing.json(), { statusCode: 404, error: 'Not Found' });
});
