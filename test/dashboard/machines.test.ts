/**
 * The dashboard's Machines page in a real headless Chromium against the real service: an OWNER or ADMIN asks for a new
 * install line for a machine already registered and sees it once, with Copy; the line's code works (and the earlier
 * line no longer does); a MODERATOR is offered no such button.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';

let app: GatewayApp;
let browser: TestBrowser;
explainFailures(test, () => browser);
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1 });
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

const CODE = /'(gsm_install_[0-9A-Za-z]{43})'/;

/** A browser page signed in as `user` through the sign-in form, at `clusterId`'s Machines page. */
async function machinesPage(user: TestUser, clusterId: string) {
  const { page } = await browser.page();
  const errors: string[] = [];
  page.on('pageerror', (error) => void errors.push(error.message));
  await page.goto(`${app.url}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Game servers' }).waitFor();
  await page.goto(`${app.url}/#/c/${clusterId}/machines`);
  await page.getByRole('table', { name: 'Machines' }).getByText('host', { exact: true }).waitFor();
  return { page, errors };
}

test('an OWNER gets a new install line for a registered machine, shown once with Copy; its code works, the old one is replaced', async (t) => {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const registered = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const { page, errors } = await machinesPage(owner, clusterId);

  await page.getByRole('button', { name: 'New install line' }).click();
  const shown = page.getByRole('region', { name: 'New install line for host' });
  await shown.waitFor();
  const line = await shown.locator('pre.command').innerText();
  t.regex(line, /^command -v sha256sum /);
  t.false(line.includes(registered.agentToken), 'no token in the line');
  t.true(await shown.getByRole('button', { name: 'Copy' }).isVisible());
  t.regex(await shown.innerText(), /works once, within an hour/);

  const code = CODE.exec(line)![1]!;
  t.is((await app.request('/agent/register', json({ code: CODE.exec(String(registered.install.command))![1]! }))).status, 410, 'the earlier line is replaced');
  const exchanged = await app.request('/agent/register', json({ code }));
  t.is(exchanged.status, 200);
  t.is((await body(exchanged)).machineId, registered.id);
  t.deepEqual(await app.pool.anyFirst(sql.unsafe`SELECT action FROM audit_log WHERE target_id = ${registered.id} AND action = 'machine.install_code_create'`), [
    'machine.install_code_create',
    'machine.install_code_create',
  ]);

  // Shown only now: Done hides it.
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'detached' });
  t.deepEqual(errors, []);
});

test('a MODERATOR sees the machines but is offered no new install line', async (t) => {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth }));
  const moderator = await signUp(app);
  await addMember(app, clusterId, moderator, 'MODERATOR');
  const { page, errors } = await machinesPage(moderator, clusterId);
  t.is(await page.getByRole('button', { name: 'Metrics' }).count(), 1);
  t.is(await page.getByRole('button', { name: 'New install line' }).count(), 0);
  t.deepEqual(errors, []);
});

test('an agent behind the service’s package says so; Upgrade agents starts a roll whose progress shows, and Cancel ends it', async (t) => {
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const registered = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  // As an agent of an older release connected would leave it, seen recently enough for the gateway's silence sweep
  // (this app has no orchestrator runner: the roll waits for its first step).
  await app.pool.query(sql.unsafe`
    UPDATE machines SET status = 'ONLINE', agent_version = '0.0.9', last_seen_at = now() + interval '1 hour' WHERE id = ${registered.id}`);
  const { page, errors } = await machinesPage(owner, clusterId);
  page.on('dialog', (dialog) => void dialog.accept());

  await page.getByRole('table', { name: 'Machines' }).getByText('0.0.9 (upgrade available)').waitFor();
  await page.getByLabel(/1 machine behind the service's agent/).fill('1');
  await page.getByRole('button', { name: 'Upgrade agents' }).click();
  const progress = page.getByRole('region', { name: 'Agent upgrade' });
  t.regex(await progress.getByRole('heading').innerText(), /^Agent upgrade to \S+: RUNNING \(0 of 1 machines done\)$/);
  t.regex(await progress.innerText(), /host: PENDING 0\.0\.9|host: PENDING \? →/);
  await progress.getByRole('button', { name: 'Cancel upgrade' }).click();
  await progress
    .getByText(/CANCELLED/)
    .first()
    .waitFor();
  t.regex(await progress.innerText(), /cancelled before its turn/);
  const actions = await app.pool.anyFirst(
    sql.unsafe`SELECT action FROM audit_log WHERE cluster_id = ${clusterId} AND action LIKE 'machine.agent_upgrade%' ORDER BY at`,
  );
  t.deepEqual(actions, ['machine.agent_upgrade_start', 'machine.agent_upgrade_cancel']);
  t.deepEqual(errors, []);
});
