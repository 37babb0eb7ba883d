/**
 * The dashboard's existing pages as a new user needs them, in a real headless Chromium against the real service (and
 * the real agent for a restore): bans and the audit log name players and servers instead of showing ids; the cluster
 * switcher's choice is remembered; power buttons are offered only when the action makes sense, and a stopped server
 * shows no stale memory figure; a restore shows how it ended; a new invitation's link has a Copy button and says
 * whether it was e-mailed.
 */
import test from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';
import { startOAuthProvider, type OAuthProvider } from '../support/oauthProvider.ts';
import { until } from '../support/wait.ts';

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
});
test.after.always(async () => {
  await browser?.close();
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
  await provider?.close();
});

/** A browser page signed in as `user` through the sign-in form. */
async function signedIn(user: TestUser) {
  const opened = await browser.page();
  const errors: string[] = [];
  opened.page.on('pageerror', (error) => void errors.push(error.message));
  await opened.page.goto(`${app.url}/`);
  await opened.page.getByLabel('E-mail').fill(user.email);
  await opened.page.getByLabel('Password').fill(PASSWORD);
  await opened.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await opened.page.getByRole('link', { name: 'Game servers' }).waitFor();
  // Landed: the start address has gone on to a cluster's servers (every user here has one) before a test goes elsewhere.
  await until(async () => /^#\/c\/[^/]+\/servers$/.test(new URL(opened.page.url()).hash), 'the landing on a cluster');
  await opened.page.getByRole('heading', { name: 'Servers' }).waitFor();
  return { ...opened, errors };
}

/** A server that no agent runs, for pages that only read it. */
async function idleServer(owner: TestUser, clusterId: string, name: string) {
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name, gameType: 'CUSTOM', machineId: machine.id, gamePort: port, queryPort: port + 1, rconPort: port + 2, startCommand: 'true' },
        { headers: owner.auth },
      ),
    ),
  );
  return server.id as string;
}

test.serial('bans and the audit log show names: the player, the server, the audit target', async (t) => {
  const owner = await signUp(app, 'names');
  const clusterId = await createCluster(app, owner, 'Named');
  const serverId = await idleServer(owner, clusterId, 'Lobby');
  await app.pool.query(sql.unsafe`SELECT gsm_player_event(${serverId}, 'join', '76561198000000555', 'Griefer', now(), NULL)`);
  const playerId = String(await app.pool.oneFirst(sql.unsafe`SELECT id FROM players WHERE cluster_id = ${clusterId} AND steam_id = '76561198000000555'`));
  t.is((await app.request(`/api/v1/players/${playerId}/ban`, json({ serverId, reason: 'Spawn killing' }, { headers: owner.auth }))).status, 201);

  const { page, errors } = await signedIn(owner);
  await page.goto(`${app.url}/#/c/${clusterId}/bans`);
  const bans = page.getByRole('table', { name: 'Bans' });
  await bans.getByText('Spawn killing').waitFor();
  const row = bans.getByRole('row').filter({ hasText: 'Spawn killing' });
  t.is(await row.getByRole('link', { name: 'Griefer' }).getAttribute('href'), `#/c/${clusterId}/players/${playerId}`);
  await row.getByText('Lobby', { exact: true }).waitFor();
  t.false((await row.textContent())!.includes(playerId.slice(0, 8)), 'no id where the name goes');

  await page.getByRole('link', { name: 'Audit log' }).click();
  const audit = page.getByRole('table', { name: 'Audit log' });
  const created = audit.getByRole('row').filter({ hasText: 'server.create' });
  t.is(await created.getByRole('link', { name: 'Lobby' }).getAttribute('href'), `#/c/${clusterId}/servers/${serverId}`);
  await audit.getByRole('row').filter({ hasText: 'ban.create' }).getByRole('link', { name: 'Griefer' }).waitFor();
  t.false((await audit.textContent())!.includes(serverId.slice(0, 8)), 'no server id in the log');
  t.deepEqual(errors, []);
});

test.serial('the cluster switcher remembers the last cluster, while the user is still a member of it', async (t) => {
  const owner = await signUp(app, 'switcher');
  const first = await createCluster(app, owner, 'Alpha');
  const second = await createCluster(app, owner, 'Beta');
  const { page, errors } = await signedIn(owner);
  await until(async () => new URL(page.url()).hash === `#/c/${first}/servers`, 'the first cluster by name at first');
  await page.getByRole('combobox', { name: 'Cluster' }).selectOption(second);
  await page.getByRole('heading', { name: 'Servers' }).waitFor();

  // The next visit (a new tab of this browser, at the start address) opens the cluster chosen last.
  const next = await page.context().newPage();
  await next.goto(`${app.url}/`);
  await until(async () => new URL(next.url()).hash === `#/c/${second}/servers`, 'the remembered cluster');
  t.is(await next.getByRole('combobox', { name: 'Cluster' }).inputValue(), second);

  // No longer a member of it: the first cluster again, not an error.
  const other = await signUp(app, 'keeper');
  await addMember(app, second, other, 'OWNER');
  await app.pool.query(sql.unsafe`DELETE FROM cluster_members WHERE cluster_id = ${second} AND user_id = ${owner.id}`);
  const later = await page.context().newPage();
  await later.goto(`${app.url}/`);
  await until(async () => new URL(later.url()).hash === `#/c/${first}/servers`, 'back to a cluster the user is in');
  await later.getByRole('heading', { name: 'Servers' }).waitFor();
  t.deepEqual(errors, []);
});

test.serial('power buttons are offered only when the action makes sense; a stopped server shows no stale memory', async (t) => {
  const owner = await signUp(app, 'power');
  const clusterId = await createCluster(app, owner, 'Powered');
  const serverId = await idleServer(owner, clusterId, 'Arena');
  const stats = JSON.stringify({ cpuPercent: 42, memoryBytes: 3 * 1024 ** 3, at: new Date().toISOString() });
  const { page, errors } = await signedIn(owner);
  const power = page.getByRole('group', { name: 'Power' });
  const enabled = async () => {
    const names: string[] = [];
    for (const name of ['Start', 'Stop', 'Restart', 'Kill']) if (await power.getByRole('button', { name, exact: true }).isEnabled()) names.push(name);
    return names;
  };
  const memory = () => page.locator('dl.facts dt:text-is("Memory") + dd').textContent();
  const cpu = () => page.locator('dl.facts dt:text-is("CPU") + dd').textContent();
  const showAs = async (status: string) => {
    await app.pool.query(sql.unsafe`UPDATE servers SET status = ${status}, stats = ${stats}::jsonb WHERE id = ${serverId}`);
    await page.goto(`${app.url}/#/c/${clusterId}/servers/${serverId}`);
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(`Arena ${status}`) }).waitFor();
  };

  await showAs('ONLINE');
  t.deepEqual(await enabled(), ['Stop', 'Restart', 'Kill']);
  t.is(await memory(), '3.0 GiB');
  t.is(await cpu(), '42 %');

  // Stopped, with the last sample still stored: no figure, and only Start.
  await showAs('OFFLINE');
  t.deepEqual(await enabled(), ['Start']);
  t.is(await memory(), '—');
  t.is(await cpu(), '—');
  t.truthy(await power.getByRole('button', { name: 'Stop', exact: true }).getAttribute('title'), 'a disabled button says why');
  await page.getByRole('link', { name: 'All servers' }).click();
  const listed = page.getByRole('table', { name: 'Servers' }).getByRole('row').filter({ hasText: 'Arena' });
  await listed.getByText('OFFLINE', { exact: true }).waitFor();
  t.false((await listed.textContent())!.includes('GiB'), 'nor in the servers list');

  await showAs('CRASHED');
  t.deepEqual(await enabled(), ['Start']);
  await showAs('STOPPING');
  t.deepEqual(await enabled(), ['Kill']);
  await showAs('UNKNOWN');
  t.deepEqual(await enabled(), ['Kill'], 'the agent is away: a process may still be there');
  await showAs('INSTALLING');
  t.deepEqual(await enabled(), []);

  // An offered button works as before: the job it started is shown.
  await showAs('OFFLINE');
  await power.getByRole('button', { name: 'Start', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'START' }).waitFor();
  t.deepEqual(errors, []);
});

test.serial('a restore shows how it ended: restored, or why it failed', async (t) => {
  const owner = await signUp(app, 'restorer');
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'Keep' });
  await until(
    async () => (await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))).status === 'OFFLINE',
    'the agent knows the server',
    30_000,
  );
  const made = await app.request(`/api/v1/servers/${server.id}/backups`, json({ name: 'before the wipe' }, { headers: owner.auth }));
  t.is(made.status, 202);
  const backupJob = await body(await app.request(`/api/v1/jobs/${(await body(made)).id}?wait=60`, { headers: owner.auth }));
  t.is(backupJob.status, 'SUCCEEDED', JSON.stringify(backupJob.error));
  const backupId = (await body(await app.request(`/api/v1/servers/${server.id}/backups`, { headers: owner.auth }))).data[0].id as string;

  const { page, errors } = await signedIn(owner);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${app.url}/#/c/${clusterId}/servers/${server.id}`);
  const backups = page.getByRole('table', { name: 'Backups' });
  await backups.getByText('before the wipe').waitFor();
  await backups.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('status').filter({ hasText: `Restored "before the wipe"` }).waitFor({ timeout: 60_000 });

  // A damaged archive: the restore fails, and the page says why.
  const archive = join(agent.dataDir, 'backups', server.id, `${backupId}.tar.gz`);
  const bytes = await readFile(archive);
  bytes[bytes.length - 20]! ^= 0xff;
  await writeFile(archive, bytes);
  await backups.getByRole('button', { name: 'Restore' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'Restoring "before the wipe" failed' });
  await failed.waitFor({ timeout: 60_000 });
  t.regex((await failed.textContent())!, /checksum|sha-?256|archive/i, "the agent's reason");
  t.is(await page.getByText('Restored "before the wipe"').count(), 0, 'the earlier outcome gave way to the new one');
  t.deepEqual(errors, []);
});

test.serial('a new invitation shows its link with a Copy button and says that no e-mail was sent', async (t) => {
  const owner = await signUp(app, 'inviter');
  const clusterId = await createCluster(app, owner, 'Inviting');
  const { page, errors } = await signedIn(owner);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  await page.goto(`${app.url}/#/c/${clusterId}/members`);
  await page.getByLabel('E-mail').fill('friend@example.test');
  await page.getByRole('button', { name: 'Invite' }).click();
  const invited = page.getByRole('region', { name: 'New invitation' });
  await invited.getByText(/No e-mail was sent .*give them this link yourself/).waitFor();
  const link = await invited.getByLabel('Invitation link').inputValue();
  t.regex(link, /\/invite#/);
  await invited.getByRole('button', { name: 'Copy' }).click();
  await invited.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
  const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
  t.is(await page.evaluate(clipboard), link);
  t.deepEqual(errors, []);
});

test.serial('joining with Steam from an invitation lands on the dashboard on the cluster joined, not the first by name', async (t) => {
  // The provider's user (its default SteamID) is linked to an account that is already in another cluster.
  const player = await signUp(app, 'steamer');
  await app.pool.query(sql.unsafe`UPDATE users SET steam_id = '76561197960287930' WHERE id = ${player.id}`);
  await createCluster(app, player, 'Aaa own cluster');
  const owner = await signUp(app, 'host');
  const clusterId = await createCluster(app, owner, 'Zed community');
  const invitation = await body(
    await app.request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: 'steam-friend@example.test', role: 'VIEWER' }, { headers: owner.auth })),
  );

  const { page } = await browser.page();
  await page.goto(`${app.url}/invite#token=${invitation.token}`);
  await page.getByRole('button', { name: 'Join with Steam' }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  await until(async () => new URL(page.url()).hash === `#/c/${clusterId}/servers`, 'the cluster joined');
  await page.getByRole('link', { name: 'steamer', exact: true }).waitFor();
  t.is(await page.getByRole('combobox', { name: 'Cluster' }).inputValue(), clusterId);
});
