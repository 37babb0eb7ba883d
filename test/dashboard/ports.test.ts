/**
 * Ports and query in the dashboard, in a real headless Chromium against the real service: a machine's addresses, port
 * ranges (added and removed by an OWNER, the API's refusals shown at their field or above the button) and which server
 * holds which port, read-only for a MODERATOR; a server's ports and query state, and UNRESPONSIVE shown live and apart
 * from CRASHED; a server created from the form with its ports left empty gets them picked.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
let browser: TestBrowser;
explainFailures(test, () => browser);
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function signedIn(user: TestUser): Promise<{ page: Page; errors: string[] }> {
  const { page } = await browser.page();
  const errors: string[] = [];
  page.on('pageerror', (error) => void errors.push(error.message));
  await page.goto(`${app.url}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  return { page, errors };
}

/** A cluster with one machine (no agent) holding a port range from `first` and two CUSTOM servers picked from it. */
async function machineWithServers(owner: TestUser, first: number) {
  const clusterId = await createCluster(app, owner);
  const machine = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  const range = await app.request(`/api/v1/machines/${machine.id}/port-ranges`, json({ firstPort: first, lastPort: first + 99 }, { headers: owner.auth }));
  if (range.status !== 201) throw new Error(JSON.stringify(await body(range)));
  const servers = [];
  for (const name of ['Alpha', 'Beta']) {
    const created = await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name, machineId: machine.id, gameType: 'CUSTOM', startCommand: 'true', autoInstall: false, queryProtocol: 'A2S' }, { headers: owner.auth }),
    );
    if (created.status !== 201) throw new Error(JSON.stringify(await body(created)));
    servers.push(await body(created));
  }
  return { clusterId, machineId: machine.id as string, servers };
}

test("the machine's addresses, ranges and held ports; ranges added and removed with the API's refusals shown; read-only for a MODERATOR", async (t) => {
  const owner = await signUp(app);
  const first = 40_000 + Math.floor(Math.random() * 50) * 200;
  const { clusterId, machineId, servers } = await machineWithServers(owner, first);
  const { page, errors } = await signedIn(owner);
  await page.goto(`${app.url}/#/c/${clusterId}/machines`);
  await page.getByRole('button', { name: 'Ports', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Ports of host' });
  await panel.getByRole('table', { name: 'Port ranges' }).waitFor();
  t.regex(await panel.getByRole('table', { name: 'Port ranges' }).innerText(), new RegExp(`${first}\\s+${first + 99}\\s+100`));

  // Which server holds which port, each linking to its server.
  const held = panel.getByRole('table', { name: 'Ports held' });
  const alpha = servers[0]!;
  t.regex(await held.innerText(), new RegExp(`${alpha.gamePort}\\s+TCP\\+UDP\\s+Alpha\\s+game`));
  t.regex(await held.innerText(), new RegExp(`${servers[1]!.queryPort}\\s+TCP\\+UDP\\s+Beta\\s+query`));
  t.is(await held.getByRole('link', { name: 'Alpha' }).first().getAttribute('href'), `#/c/${clusterId}/servers/${alpha.id}`);

  // Addresses saved.
  await panel.getByLabel('Addresses players connect to').fill('203.0.113.10, play.example.org');
  await panel.getByRole('button', { name: 'Save addresses' }).click();
  await until(
    async () => (await body(await app.request(`/api/v1/machines/${machineId}`, { headers: owner.auth }))).addresses.join() === '203.0.113.10,play.example.org',
    'the addresses saved',
  );
  await panel.getByText('203.0.113.10, play.example.org', { exact: true }).waitFor();
  // A bad address: the API's message under the field.
  await panel.getByLabel('Addresses players connect to').fill('not an address!');
  await panel.getByRole('button', { name: 'Save addresses' }).click();
  await panel.getByText(/expected an IPv4 or IPv6 address, or a host name/).waitFor();

  // Too many ports: refused at the field; overlapping: the 409's message above the button; a good range: listed.
  const firstPort = panel.getByLabel('First port');
  const lastPort = panel.getByLabel('Last port');
  await firstPort.fill('50000');
  await lastPort.fill('60001');
  await panel.getByRole('button', { name: 'Add range' }).click();
  await panel.locator('.field-error').filter({ hasText: 'a range holds at most 10000 ports' }).waitFor();
  await firstPort.fill(String(first + 50));
  await lastPort.fill(String(first + 150));
  await panel.getByRole('button', { name: 'Add range' }).click();
  await panel
    .getByRole('alert')
    .filter({ hasText: /overlaps/ })
    .waitFor();
  await firstPort.fill(String(first + 100));
  await lastPort.fill(String(first + 149));
  await panel.getByRole('button', { name: 'Add range' }).click();
  await panel
    .getByRole('table', { name: 'Port ranges' })
    .getByText(String(first + 149), { exact: true })
    .waitFor();
  const ranges = async () => (await body(await app.request(`/api/v1/machines/${machineId}/allocations`, { headers: owner.auth }))).ranges as unknown[];
  t.is((await ranges()).length, 2);

  page.on('dialog', (dialog) => void dialog.accept());
  await panel.getByRole('button', { name: `Remove range ${first + 100}–${first + 149}` }).click();
  await panel
    .getByRole('table', { name: 'Port ranges' })
    .getByText(String(first + 149), { exact: true })
    .waitFor({ state: 'detached' });
  t.is((await ranges()).length, 1);
  t.deepEqual(errors, []);

  const moderator = await signUp(app);
  await addMember(app, clusterId, moderator, 'MODERATOR');
  const seen = await signedIn(moderator);
  await seen.page.goto(`${app.url}/#/c/${clusterId}/machines`);
  await seen.page.getByRole('button', { name: 'Ports', exact: true }).click();
  const readOnly = seen.page.getByRole('region', { name: 'Ports of host' });
  await readOnly.getByRole('table', { name: 'Ports held' }).waitFor();
  t.is(await readOnly.getByRole('button', { name: 'Add range' }).count(), 0);
  t.is(await readOnly.getByRole('button', { name: /^Remove range/ }).count(), 0);
  t.is(await readOnly.getByRole('button', { name: 'Save addresses' }).count(), 0);
  t.deepEqual(seen.errors, []);
});

test("a server's ports and query state; UNRESPONSIVE shown live, with its reason, apart from CRASHED; ports left empty in the form are picked", async (t) => {
  const owner = await signUp(app);
  const first = 40_000 + Math.floor(Math.random() * 50) * 200 + 100;
  const { clusterId, machineId, servers } = await machineWithServers(owner, first);
  const alpha = servers[0]!;
  const query = {
    protocol: 'A2S',
    answering: true,
    players: 2,
    playerNames: ['Alice', 'Bob'],
    maxPlayers: 24,
    map: 'de_dust2',
    version: '1.40.2',
    latencyMs: 1.5,
    failures: 0,
    error: null,
    checkedAt: new Date().toISOString(),
  };
  // What the gateway stores from the agent's reports (the agent's part is tested in test/agent/queryService.test.ts).
  await app.pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE', query = ${sql.jsonb(query)} WHERE id = ${alpha.id}`);
  await app.pool.query(sql.unsafe`UPDATE servers SET status = 'CRASHED', status_reason = 'exited with code 1' WHERE id = ${servers[1]!.id}`);

  const { page, errors } = await signedIn(owner);
  await page.goto(`${app.url}/#/c/${clusterId}/servers/${alpha.id}`);
  await page.getByRole('heading', { name: /Alpha/ }).getByText('ONLINE', { exact: true }).waitFor();
  const ports = await page.getByRole('table', { name: 'Ports' }).innerText();
  const protocols: Record<string, string> = { TCP: 'TCP', UDP: 'UDP', BOTH: 'TCP\\+UDP' };
  for (const entry of alpha.ports as { name: string; port: number; protocol: string }[])
    t.regex(ports, new RegExp(`${entry.name}\\s+${entry.port}\\s+${protocols[entry.protocol]}(\\n|$)`));
  const shown = page.locator('dl[aria-label="Query"]');
  t.regex(await shown.innerText(), /Answering\s+yes/);
  t.regex(await shown.innerText(), /Players\s+2 \/ 24 \(Alice, Bob\)/);
  t.regex(await shown.innerText(), /Map\s+de_dust2\s+Version\s+1\.40\.2\s+Latency\s+1\.5 ms/);

  // The game stops answering: the badge turns UNRESPONSIVE live (its own colour, not a crash's), with the reason.
  await app.pool.query(sql.unsafe`
    UPDATE servers SET status = 'UNRESPONSIVE', status_reason = 'no answer to 5 queries in a row (no answer (timed out))',
           query = query || '{"answering": false, "failures": 5, "error": "no answer (timed out)"}'::jsonb
     WHERE id = ${alpha.id}`);
  const badge = page.getByRole('heading', { name: /Alpha/ }).locator('.status');
  await page.getByRole('heading', { name: /Alpha/ }).getByText('UNRESPONSIVE', { exact: true }).waitFor();
  t.true(await badge.evaluate((element) => element.classList.contains('status-unresponsive')));
  await page.getByText('no answer to 5 queries in a row (no answer (timed out))').waitFor();
  await page.getByText(/Its process runs, but the game does not answer queries\. Restart when unresponsive is off/).waitFor();
  await shown.getByText(/no — no answer \(timed out\) \(5 in a row\)/).waitFor();
  // Stop, Restart and Kill stay offered: its process runs.
  for (const action of ['Stop', 'Restart', 'Kill']) t.true(await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: action }).isEnabled());
  const unresponsiveColour = await badge.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).color);

  await page.goto(`${app.url}/#/c/${clusterId}/servers/${servers[1]!.id}`);
  const crashed = page.getByRole('heading', { name: /Beta/ }).locator('.status');
  await page.getByRole('heading', { name: /Beta/ }).getByText('CRASHED', { exact: true }).waitFor();
  t.not(await crashed.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).color), unresponsiveColour);

  // The servers list shows both, each with its own badge.
  await page.goto(`${app.url}/#/c/${clusterId}/servers`);
  await page.getByRole('table', { name: 'Servers' }).getByText('UNRESPONSIVE', { exact: true }).waitFor();

  // New server with its ports left empty: picked from the machine's range.
  await page.getByRole('button', { name: 'New server' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Gamma');
  await page.getByLabel('Game', { exact: true }).selectOption('CUSTOM');
  await page.getByLabel('Machine', { exact: true }).selectOption(machineId);
  await page.getByLabel('Start command').fill('true');
  await page.getByRole('button', { name: 'Create server' }).click();
  await page.getByRole('heading', { name: /Gamma/ }).waitFor();
  const gammaId = page.url().split('/').at(-1)!;
  const gamma = await body(await app.request(`/api/v1/servers/${gammaId}`, { headers: owner.auth }));
  t.true((gamma.ports as { port: number }[]).every((entry) => entry.port >= first && entry.port <= first + 99));
  t.regex(await page.getByRole('table', { name: 'Ports' }).innerText(), new RegExp(`game\\s+${gamma.gamePort}`));
  await page.getByText(/Not queried yet/).waitFor();
  t.deepEqual(errors, []);
});
