/**
 * The dashboard's settings pages in a real headless Chromium against the real service (and its worker): a server's
 * settings saved (only the changed fields sent) and a bad value refused at its field; a webhook created (its secret
 * shown once), tested against a local receiver, a failed delivery retried, disabled and deleted; a password changed
 * and the new one signing in; a task's run history with each step's outcome, a page at a time.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, freePorts, registerMachine } from '../support/agentProcess.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { until } from '../support/wait.ts';
import { WEBHOOK_EVENT_TYPES } from '../../schema/webhooks.ts';

let app: GatewayApp;
let browser: TestBrowser;
explainFailures(test, () => browser);
let receiver: Receiver;
test.before(async () => {
  app = await startGatewayApp({ worker: true, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, webhookRetryDelaysMs: [100] });
  browser = await startBrowser();
  receiver = await startReceiver();
});
test.after.always(async () => {
  await browser?.close();
  await receiver?.close();
  await app?.close();
});

/** A browser page signed in through the sign-in form; `errors` collects faults of the page's own code. */
async function signedIn(user: Pick<TestUser, 'email'>, password = PASSWORD) {
  const opened = await browser.page();
  const errors: string[] = [];
  opened.page.on('pageerror', (error) => void errors.push(error.message));
  await signIn(opened.page, user.email, password);
  // The start page (the first cluster's servers) is reached before a test goes elsewhere: its redirect would undo that.
  await opened.page.getByRole('heading', { name: 'Servers' }).waitFor();
  return { ...opened, errors };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${app.url}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const getServer = async (user: TestUser, serverId: string) => body(await app.request(`/api/v1/servers/${serverId}`, { headers: user.auth }));

test.serial("a server's settings: changed fields saved (and only they sent), a bad value refused at its field", async (t) => {
  const owner = await signUp(app, 'edit-owner');
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'Lobby' });
  const before = await getServer(owner, server.id);
  const { page, errors } = await signedIn(owner);

  await page.goto(`${app.url}/#/c/${clusterId}/servers/${server.id}`);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('heading', { name: 'Settings of Lobby' }).waitFor();
  t.is(await page.getByLabel('Start command').inputValue(), before.startCommand);
  t.is(await page.getByLabel('Install command').count(), 1, 'a CUSTOM server has an install command');

  const patches: unknown[] = [];
  page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.postDataJSON())));
  const [gamePort] = await freePorts(1);
  await page.getByLabel('Start command').fill('node other-server.js --port 1');
  await page.getByLabel('Game port').fill(String(gamePort));
  await page.getByLabel('Memory limit (MiB)').fill('2048');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByLabel('Variable 1 name').fill('MOTD');
  await page.getByLabel('Variable 1 value').fill('hello there');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved:' }).waitFor();
  t.deepEqual(patches, [{ startCommand: 'node other-server.js --port 1', gamePort, memoryLimitMb: 2048, env: { MOTD: 'hello there' } }]);
  t.like(await getServer(owner, server.id), {
    startCommand: 'node other-server.js --port 1',
    gamePort,
    queryPort: before.queryPort,
    memoryLimitMb: 2048,
    env: { MOTD: 'hello there' },
    name: 'Lobby',
  });
  // The form starts again from the saved record: after a reload too.
  await page.reload();
  t.is(await page.getByLabel('Game port').inputValue(), String(gamePort));
  t.is(await page.getByLabel('Variable 1 value').inputValue(), 'hello there');

  // A port below 1024: the API's message at the field, nothing changed.
  await page.getByLabel('Game port').fill('80');
  await page.getByLabel('Name', { exact: true }).fill('Renamed');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const gameField = page.locator('label.field').filter({ hasText: 'Game port' });
  await gameField.getByText('port must be between 1024 and 65535').waitFor();
  t.is(await gameField.locator('input').getAttribute('aria-invalid'), 'true');
  t.like(await getServer(owner, server.id), { gamePort, name: 'Lobby' });
  // A variable name the shell cannot have: the message under the variables.
  await page.getByLabel('Game port').fill(String(gamePort));
  await page.getByLabel('Variable 1 name').fill('NOT-A-NAME');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const refused = await app.request(`/api/v1/servers/${server.id}`, {
    method: 'PATCH',
    headers: { ...owner.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ env: { 'NOT-A-NAME': 'hello there' } }),
  });
  t.is(refused.status, 400);
  const message = ((await body(refused)).details as { field: string; message: string }[]).find((detail) => detail.field === 'env.NOT-A-NAME')!.message;
  t.is(message, 'variable names are letters, digits and _', "the name's own rule, not zod's generic message");
  await page.getByRole('group', { name: 'Environment variables' }).locator('.field-error').filter({ hasText: message }).waitFor();
  t.like(await getServer(owner, server.id), { name: 'Lobby', env: { MOTD: 'hello there' } });

  // Nothing changed: nothing sent.
  await page.reload();
  patches.length = 0;
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Nothing to save').waitFor();
  t.deepEqual(patches, []);

  // A VIEWER is not offered the settings.
  const viewer = await signUp(app, 'edit-viewer');
  await addMember(app, clusterId, viewer, 'VIEWER');
  const seen = await signedIn(viewer);
  await seen.page.goto(`${app.url}/#/c/${clusterId}/servers/${server.id}`);
  await seen.page.getByRole('heading', { name: /^Lobby/ }).waitFor();
  t.is(await seen.page.getByRole('link', { name: 'Settings', exact: true }).count(), 0);
  t.deepEqual([...errors, ...seen.errors], []);
});

test.serial("a CUSTOM server's settings: how it is ready, its console and its stop, sent only when changed, and back to the game's own", async (t) => {
  const owner = await signUp(app, 'behaviour-owner');
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'Modded' });
  const { page, errors } = await signedIn(owner);
  const patches: unknown[] = [];
  page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.postDataJSON())));

  await page.goto(`${app.url}/#/c/${clusterId}/servers/${server.id}/edit`);
  await page.getByRole('heading', { name: 'Settings of Modded' }).waitFor();
  await page.getByLabel('Ready when').selectOption('LINE');
  await page.getByLabel('Ready line pattern').fill('^Server started');
  await page.getByLabel('Console', { exact: true }).selectOption('STDIN');
  await page.getByLabel('Stop by').selectOption('COMMAND');
  await page.getByLabel('Stop command').fill('quit');
  await page.getByLabel('Grace before SIGTERM (s)').fill('10');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved:' }).waitFor();
  const wanted = {
    ready: { mode: 'LINE', pattern: '^Server started' },
    consoleMode: 'STDIN',
    stop: { mode: 'COMMAND', command: 'quit', graceSeconds: 10 },
  };
  t.deepEqual(patches, [wanted]);
  t.like(await getServer(owner, server.id), wanted);

  // Shown again as saved; untouched, nothing is sent.
  await page.reload();
  t.is(await page.getByLabel('Ready line pattern').inputValue(), '^Server started');
  t.is(await page.getByLabel('Console', { exact: true }).inputValue(), 'STDIN');
  patches.length = 0;
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Nothing to save').waitFor();
  t.deepEqual(patches, []);

  // An empty mode is the game's own again: null.
  await page.getByLabel('Ready when').selectOption('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved:' }).waitFor();
  t.deepEqual(patches, [{ ready: null }]);
  t.like(await getServer(owner, server.id), { ready: null, consoleMode: 'STDIN' });
  t.deepEqual(errors, []);
});

test.serial('webhooks: created with the secret shown once, tested against a receiver, a failed delivery retried, disabled, deleted', async (t) => {
  const owner = await signUp(app, 'hooks');
  const clusterId = await createCluster(app, owner, 'Hooked');
  const { page, errors } = await signedIn(owner);
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();

  // No event chosen: the API's message at the events.
  await page.getByRole('button', { name: 'New webhook' }).click();
  await page.getByLabel('URL').fill(`${receiver.url}/hook`);
  await page.getByRole('button', { name: 'Create webhook' }).click();
  await page.getByRole('group', { name: 'Events' }).getByText('name at least one event type').waitFor();
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM webhooks WHERE cluster_id = ${clusterId}`), 0);

  await page.getByLabel('server.status').check();
  await page.getByLabel('ban.created').check();
  await page.getByLabel('Description (optional)').fill('Our alerts');
  await page.getByRole('button', { name: 'Create webhook' }).click();
  const secret = (await page.getByRole('region', { name: "New webhook's secret" }).locator('pre').textContent())!.trim();
  t.regex(secret, /^whsec_/);
  await page.getByRole('button', { name: 'Done' }).click();
  t.is(await page.getByText(secret).count(), 0, 'shown once');
  const table = page.getByRole('table', { name: 'Webhooks' });
  await table.getByText('server.status, ban.created').waitFor();

  // A test reaches the receiver, and its delivery shows SUCCEEDED.
  await page.getByRole('button', { name: `Send a test to ${receiver.url}/hook` }).click();
  const [sent] = await receiver.waitFor(1);
  t.is(sent!.headers['gsm-event'], 'webhook.test');
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await deliveries.getByText('SUCCEEDED', { exact: true }).waitFor();
  await deliveries.getByText('HTTP 200').waitFor();

  // The receiver fails twice: the delivery ends FAILED; Retry sends it again (the same delivery), and it succeeds.
  receiver.answers.push(500, 500);
  await page.getByRole('button', { name: `Send a test to ${receiver.url}/hook` }).click();
  await deliveries.getByText('FAILED', { exact: true }).waitFor();
  await deliveries.getByText(/HTTP 500/).waitFor();
  await deliveries.getByRole('button', { name: /^Retry/ }).click();
  await until(async () => (await deliveries.getByText('SUCCEEDED', { exact: true }).count()) === 2, 'the retried delivery succeeds');
  const ids = receiver.received.map((request) => request.headers['gsm-delivery']);
  t.is(ids.length, 4);
  t.is(new Set(ids.slice(1)).size, 1, 'one delivery, sent three times');

  // Disable and enable again, edit, delete.
  await page.getByRole('button', { name: `Disable ${receiver.url}/hook` }).click();
  await table.getByText('DISABLED', { exact: true }).waitFor();
  t.false(await app.pool.oneFirst(sql.unsafe`SELECT enabled FROM webhooks WHERE cluster_id = ${clusterId}`));
  await page.getByRole('button', { name: `Enable ${receiver.url}/hook` }).click();
  await table.getByText('ACTIVE', { exact: true }).waitFor();
  await page.getByRole('button', { name: `Edit ${receiver.url}/hook` }).click();
  await page.getByLabel('All events, also those added later').check();
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await table.getByText('*', { exact: true }).waitFor();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: `Delete ${receiver.url}/hook` }).click();
  await page.getByText('No webhooks yet.').waitFor();
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM webhooks WHERE cluster_id = ${clusterId}`), 0);

  // An ADMIN sees the page, a MODERATOR is not offered it.
  const moderator = await signUp(app, 'hooks-moderator');
  await addMember(app, clusterId, moderator, 'MODERATOR');
  const other = await signedIn(moderator);
  t.is(await other.page.getByRole('link', { name: 'Webhooks', exact: true }).count(), 0);
  t.deepEqual([...errors, ...other.errors], []);
});

test.serial('the account page changes the password: a wrong current one is refused at its field, the new one signs in', async (t) => {
  const user = await signUp(app, 'passwords');
  await createCluster(app, user);
  const elsewhere = await signedIn(user); // another browser, signed in before the change
  const { page, errors } = await signedIn(user);
  await page.getByRole('link', { name: 'passwords' }).click();
  await page.getByRole('heading', { name: 'Password' }).waitFor();
  await page.locator('dl.facts').getByText('set', { exact: true }).waitFor();

  await page.getByLabel('Current password').fill('not my password');
  await page.locator('input[name=newPassword]').fill('a much better passphrase');
  await page.getByLabel('New password again').fill('a much better passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.locator('label.field').filter({ hasText: 'Current password' }).getByText('is not your current password').waitFor();

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.locator('input[name=newPassword]').fill('short');
  await page.getByLabel('New password again').fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.locator('label.field').filter({ hasText: 'New password' }).getByText('must be at least 8 characters').first().waitFor();

  await page.locator('input[name=newPassword]').fill('a much better passphrase');
  await page.getByLabel('New password again').fill('a much better passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
  // This session goes on.
  await page.reload();
  await page.getByRole('heading', { name: 'Account' }).waitFor();

  // The other browser's session has ended: back at sign-in; the old password is refused there, the new one works.
  await elsewhere.page.reload();
  await elsewhere.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signIn(elsewhere.page, user.email, PASSWORD);
  await elsewhere.page.getByRole('alert').waitFor();
  const fresh = await signedIn(user, 'a much better passphrase');
  t.deepEqual([...errors, ...fresh.errors], []);
});

test.serial("a task's page: every run with its outcome and each step's result, a page at a time", async (t) => {
  const owner = await signUp(app, 'runs');
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'Arena' });
  const created = await app.request(
    `/api/v1/clusters/${clusterId}/tasks`,
    json({ name: 'Hourly notice', schedule: '0 * * * *', serverIds: [server.id], steps: [{ type: 'BROADCAST', message: 'Hello' }] }, { headers: owner.auth }),
  );
  const taskId = (await body(created)).id as string;
  const run = async () => {
    const answer = await app.request(`/api/v1/tasks/${taskId}/run?wait=30`, { method: 'POST', headers: owner.auth });
    t.is(answer.status, 200);
    return body(answer);
  };
  // 20 runs that succeed (the broadcast skipped: the server is offline), then one that fails (a command to an offline server).
  for (let i = 0; i < 20; i++) t.is((await run()).status, 'SUCCEEDED');
  await app.request(`/api/v1/tasks/${taskId}`, {
    method: 'PATCH',
    headers: { ...owner.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ steps: [{ type: 'RCON', command: 'save-all' }] }),
  });
  t.is((await run()).status, 'FAILED');

  const { page, errors } = await signedIn(owner);
  await page.goto(`${app.url}/#/c/${clusterId}/tasks`);
  await page.getByRole('table', { name: 'Tasks' }).getByRole('link', { name: 'Hourly notice' }).click();
  await page.getByRole('heading', { name: 'Hourly notice' }).waitFor();
  const runs = page.getByRole('table', { name: 'Runs' });
  const rows = runs.locator('tbody tr');
  await until(async () => (await rows.count()) === 20, 'a page of 20 runs');
  const newest = rows.first();
  await newest.getByText('FAILED', { exact: true }).first().waitFor();
  await newest
    .getByText(/the server is \w+, not running/)
    .first()
    .waitFor();
  t.regex((await newest.textContent())!, /RCON: Arena/);
  t.regex((await rows.nth(1).textContent())!, /BROADCAST: Arena\s*SKIPPED/);
  await page.getByText('Page 1 of 2').waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Page 2 of 2').waitFor();
  await until(async () => (await rows.count()) === 1, 'the oldest run on page 2');
  t.regex((await rows.first().textContent())!, /SUCCEEDED/);

  // Run now from the page: the new run is listed first, and its outcome comes without a reload.
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByText('Page 1 of 2').waitFor();
  await until(
    async () => Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM jobs WHERE task_id = ${taskId} AND type = 'TASK_RUN'`)) === 22,
    'the run started from the page',
  );
  const started = String(
    await app.pool.oneFirst(sql.unsafe`SELECT id FROM jobs WHERE task_id = ${taskId} AND type = 'TASK_RUN' ORDER BY created_at DESC LIMIT 1`),
  );
  await until(
    async () => (await rows.first().getAttribute('data-key')) === started && /FAILED/.test((await rows.first().textContent()) ?? ''),
    'the new run listed first, with its outcome',
  );
  t.deepEqual(errors, []);
});

test.serial(
  "settings: an untouched multi-line start command is not sent; a server or task of another cluster is not shown under this one's role",
  async (t) => {
    const owner = await signUp(app, 'lines-owner');
    const { clusterId, machineId } = await registerMachine(app, owner);
    const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'Lines' });
    const command = 'node server.js \\\n  --port 1';
    const patched = await app.request(`/api/v1/servers/${server.id}`, {
      method: 'PATCH',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ startCommand: command, env: { GREETING: 'two\nlines' } }),
    });
    t.is(patched.status, 200);
    const { page, errors } = await signedIn(owner);
    await page.goto(`${app.url}/#/c/${clusterId}/servers/${server.id}/edit`);
    await page.getByRole('heading', { name: 'Settings of Lines' }).waitFor();
    t.is(await page.getByLabel('Start command').inputValue(), command, 'shown with its line break');
    t.is(await page.getByLabel('Variable 1 value').inputValue(), 'two\nlines');
    const patches: unknown[] = [];
    page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.postDataJSON())));
    await page.getByLabel('Name', { exact: true }).fill('Lines renamed');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved:' }).waitFor();
    t.deepEqual(patches, [{ name: 'Lines renamed' }]);
    t.like(await getServer(owner, server.id), { startCommand: command, env: { GREETING: 'two\nlines' } });

    // The owner is a VIEWER of another cluster: its server and task, opened under the first cluster's address, are
    // not shown with the OWNER's role there.
    const stranger = await signUp(app, 'lines-stranger');
    const other = await registerMachine(app, stranger);
    const foreign = await createFakeServer(app, stranger, other.clusterId, other.machineId, { name: 'Foreign' });
    await addMember(app, other.clusterId, owner, 'VIEWER');
    const task = await app.request(
      `/api/v1/clusters/${other.clusterId}/tasks`,
      json(
        { name: 'Foreign task', schedule: '0 * * * *', serverIds: [foreign.id], steps: [{ type: 'BROADCAST', message: 'Hello' }] },
        { headers: stranger.auth },
      ),
    );
    const taskId = (await body(task)).id as string;
    await page.goto(`${app.url}/#/c/${clusterId}/servers/${foreign.id}/edit`);
    await page.getByText(/This server is not in the cluster/).waitFor();
    t.is(await page.getByRole('button', { name: 'Save changes' }).count(), 0);
    await page.goto(`${app.url}/#/c/${clusterId}/tasks/${taskId}`);
    await page.getByText(/This task is not in the cluster/).waitFor();
    t.is(await page.getByRole('button', { name: 'Run now' }).count(), 0);
    t.deepEqual(errors, []);
  },
);

test.serial('editing a webhook sends only the fields changed: one the service disabled stays disabled, with its reason', async (t) => {
  const owner = await signUp(app, 'hook-edit');
  const clusterId = await createCluster(app, owner, 'Edited hooks');
  const created = await app.request(
    `/api/v1/clusters/${clusterId}/webhooks`,
    json({ url: `${receiver.url}/edit`, events: ['server.status'] }, { headers: owner.auth }),
  );
  const webhookId = (await body(created)).id as string;
  await app.pool.query(sql.unsafe`UPDATE webhooks SET enabled = false, disabled_reason = 'disabled after 10 failed deliveries' WHERE id = ${webhookId}`);
  const { page, errors } = await signedIn(owner);
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('button', { name: `Edit ${receiver.url}/edit` }).click();
  // The choices are the API's event types (its schema's enum), and "all".
  t.is(await page.getByRole('group', { name: 'Events' }).getByRole('checkbox').count(), WEBHOOK_EVENT_TYPES.length + 1);
  const patches: unknown[] = [];
  page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.postDataJSON())));
  await page.getByLabel('Description (optional)').fill('Renamed only');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await page.getByRole('table', { name: 'Webhooks' }).getByText('Renamed only').waitFor();
  t.deepEqual(patches, [{ description: 'Renamed only' }]);
  t.like(await app.pool.one(sql.unsafe`SELECT enabled, disabled_reason FROM webhooks WHERE id = ${webhookId}`), {
    enabled: false,
    disabled_reason: 'disabled after 10 failed deliveries',
  });
  t.deepEqual(errors, []);
});

test.serial('deliveries are read again every 2 s only while a pending one is due within a minute', async (t) => {
  const owner = await signUp(app, 'hook-poll');
  const clusterId = await createCluster(app, owner, 'Polled hooks');
  const created = await app.request(
    `/api/v1/clusters/${clusterId}/webhooks`,
    json({ url: `${receiver.url}/poll`, events: ['server.status'] }, { headers: owner.auth }),
  );
  const webhookId = (await body(created)).id as string;
  // Disabled, so the service leaves its pending delivery alone: its next try is an hour away.
  await app.pool.query(sql.unsafe`UPDATE webhooks SET enabled = false WHERE id = ${webhookId}`);
  const deliveryId = await app.pool.oneFirst(sql.unsafe`
    INSERT INTO webhook_deliveries (webhook_id, event_type, body, attempts, next_attempt_at)
    VALUES (${webhookId}, 'webhook.test', '{}', 1, now() + interval '1 hour') RETURNING id`);
  const { page, errors } = await signedIn(owner);
  // The page's timers run on a clock the test moves: no waiting, and no timing in the assertions.
  await page.clock.install();
  await page.reload();
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  const reads: string[] = [];
  page.on('request', (request) => void (request.method() === 'GET' && request.url().includes('/deliveries') && reads.push(request.url())));
  await page.getByRole('button', { name: `Deliveries of ${receiver.url}/poll` }).click();
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await deliveries.getByText('PENDING', { exact: true }).waitFor();
  t.is(reads.length, 1);
  await page.clock.runFor(20_000);
  // Due within a minute now: Refresh reads it, and from then on it is read every 2 s.
  await app.pool.query(sql.unsafe`UPDATE webhook_deliveries SET next_attempt_at = now() + interval '30 seconds' WHERE id = ${String(deliveryId)}`);
  t.is(reads.length, 1, 'not read again in 20 s while its next try is an hour away');
  const refreshed = page.waitForResponse((response) => response.url().includes('/deliveries'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refreshed;
  const polled = page.waitForRequest((request) => request.url().includes('/deliveries'));
  await page.clock.runFor(2_500);
  await polled;
  t.is(reads.length, 3);
  t.deepEqual(errors, []);
});
