/**
 * Templates in the dashboard, in a real headless Chromium against the real service: "New server" picks a game from the
 * catalogue with a search (Windows-only servers shown but not offered), shows its variables with their descriptions and
 * rules, and creates the server with them; the server's settings page edits them (only the changed ones sent), and a
 * value breaking a rule is refused with the API's message.
 */
import test from 'ava';
import { body, json } from '../support/app.ts';
import { PASSWORD, signUp } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { freePorts } from '../support/agentProcess.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';
import { createCluster } from '../support/identity.ts';

let app: GatewayApp;
let browser: TestBrowser;
explainFailures(test, () => browser);
test.before(async () => {
  app = await startGatewayApp({ worker: true });
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

test('New server from the catalogue with its variables; the settings page edits them', async (t) => {
  const owner = await signUp(app, 'templates-owner');
  const clusterId = await createCluster(app, owner, 'Games');
  await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth }));
  const { page } = await browser.page();
  const errors: string[] = [];
  page.on('pageerror', (error) => void errors.push(error.message));
  await page.goto(`${app.url}/`);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  await page.getByRole('button', { name: 'New server' }).click();

  const list = page.getByRole('list', { name: 'Game templates' });
  await list.getByRole('button', { name: /Terraria/ }).waitFor();
  await page.getByLabel('Search the catalogue').fill('windows-only');
  t.true(await list.getByRole('button', { name: /V Rising/ }).isDisabled(), 'a Windows-only server is not offered');
  t.is(await list.getByRole('button', { name: /Terraria/ }).count(), 0, 'the search filters');
  await page.getByLabel('Search the catalogue').fill('terr');
  await list.getByRole('button', { name: /Terraria/ }).click();
  await page.getByText('Terraria, template version 1').waitFor();
  t.is(await page.getByLabel('Game', { exact: true }).count(), 0, 'the template says the game');
  // Each variable with its description and its rules in words.
  await page.getByText('When the world is created: 1 small, 2 medium, 3 large. (one of 1, 2, 3; required)').waitFor();
  t.deepEqual(await page.getByLabel('World size').locator('option').allTextContents(), ['1', '2', '3']);
  t.is(await page.getByLabel('World size').inputValue(), '2');
  await page.getByText('The world file (worlds/<name>.wld), created on the first start. (matching ^[A-Za-z0-9_-]{1,16}$; required)').waitFor();

  const [gamePort, queryPort, rconPort] = await freePorts(3);
  await page.getByLabel('Name', { exact: true }).fill('Island');
  await page.getByLabel('Game port').fill(String(gamePort));
  await page.getByLabel('Query port').fill(String(queryPort));
  await page.getByLabel('RCON port').fill(String(rconPort));
  await page.getByLabel('World name').fill('bad name!');
  await page.getByRole('button', { name: 'Create server' }).click();
  await page
    .getByText(/WORLD_NAME/)
    .first()
    .waitFor();
  t.is((await body(await app.request(`/api/v1/clusters/${clusterId}/servers`, { headers: owner.auth }))).data.length, 0, 'refused: nothing created');
  await page.getByLabel('World name').fill('Island');
  await page.getByLabel('World size').selectOption('3');
  await page.getByRole('button', { name: 'Create server' }).click();
  await page.getByRole('heading', { name: /^Island/ }).waitFor();
  const serverId = page.url().split('/').at(-1)!;
  const created = await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth }));
  t.like(created, { templateId: 'terraria', gameType: 'CUSTOM', variables: { WORLD_NAME: 'Island', WORLD_SIZE: '3' } });

  // The settings page: the template's variables, only the changed one sent.
  await page.goto(`${app.url}/#/c/${clusterId}/servers/${serverId}/edit`);
  await page.getByRole('heading', { name: 'Settings of Island' }).waitFor();
  await page.getByText(/Template: Terraria \(version 1/).waitFor();
  t.is(await page.getByLabel('World name').inputValue(), 'Island');
  const patches: unknown[] = [];
  page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.postDataJSON())));
  await page.getByLabel('World name').fill('Archipelago');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved:' }).waitFor();
  t.deepEqual(patches, [{ variables: { WORLD_NAME: 'Archipelago' } }]);
  t.like(await body(await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth })), { variables: { WORLD_NAME: 'Archipelago', WORLD_SIZE: '3' } });
  t.deepEqual(errors, []);
});
