/**
 * The dashboard's file manager and editor in a real headless Chromium against the real service and agent: browse
 * (breadcrumbs, sizes and modes, a new folder, rename, multi-select delete, download), edit and save with If-Match
 * (the editor's chunk loaded only on the editor page), a conflict told and resolved, the history's diff and restore,
 * an upload with progress that goes on after its connection breaks, SSH keys on the account page and the SFTP address.
 */
import test from 'ava';
import { mkdir, readFile, writeFile, chmod, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { until } from '../support/wait.ts';
import { signUp, PASSWORD, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';

let app: GatewayApp;
let browser: TestBrowser;
explainFailures(test, () => browser);
let agent: AgentProcess;
let owner: TestUser;
let clusterId: string;
let serverId: string;
let serverDir: string;

test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1 });
  browser = await startBrowser();
  owner = await signUp(app, 'files-owner');
  const registered = await registerMachine(app, owner);
  clusterId = registered.clusterId;
  agent = await startAgent({ url: app.url, machineId: registered.machineId, token: registered.token });
  serverId = (await createFakeServer(app, owner, clusterId, registered.machineId, { name: 'Files box' })).id;
  serverDir = join(agent.dataDir, 'servers', serverId);
  await until(async () => (await app.request(`/api/v1/servers/${serverId}/files`, { headers: owner.auth })).status === 200, 'the agent serves files', 20_000);
});
test.after.always(async () => {
  await browser?.close();
  await agent?.stop();
  await app?.close();
});

async function signedIn() {
  const opened = await browser.page();
  const errors: string[] = [];
  opened.page.on('pageerror', (error) => void errors.push(error.message));
  const { page } = opened;
  await page.goto(`${app.url}/`);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  return { ...opened, errors };
}

const filesPage = (page: Page, ...parts: string[]) =>
  page.goto(`${app.url}/#/c/${clusterId}/servers/${serverId}/files${parts.map((part) => `/${encodeURIComponent(part)}`).join('')}`);
const row = (page: Page, name: string) => page.getByRole('table', { name: 'Files' }).locator(`tr[data-key="${name}"]`);

test.serial('browse: breadcrumbs, sizes and modes, new folder, rename, multi-select delete, download', async (t) => {
  await mkdir(join(serverDir, 'plugins'), { recursive: true });
  await writeFile(join(serverDir, 'plugins', 'essentials.jar'), randomBytes(3000));
  await writeFile(join(serverDir, 'plugins', 'old.jar'), 'old');
  await writeFile(join(serverDir, 'plugins', 'older.jar'), 'older');
  await writeFile(join(serverDir, 'start.sh'), '#!/bin/sh\n');
  await chmod(join(serverDir, 'start.sh'), 0o750);
  const { page, errors } = await signedIn();

  await page.goto(`${app.url}/#/c/${clusterId}/servers/${serverId}`);
  await page.getByRole('link', { name: 'Files', exact: true }).click();
  await page.getByRole('heading', { name: 'Files of Files box' }).waitFor();
  await t.notThrowsAsync(row(page, 'start.sh').getByText('-rwxr-x---').waitFor());
  await page.getByRole('link', { name: 'plugins/' }).click();
  await row(page, 'essentials.jar').waitFor();
  t.regex(await row(page, 'essentials.jar').innerText(), /\t2\.9 KiB\t-rw-r--r--\t/);
  t.is(await page.getByRole('navigation', { name: 'Folder' }).innerText(), '/plugins');

  // A new folder, then a file renamed into it (a path from the server's directory).
  await page.getByLabel('Folder name').fill('disabled');
  await page.getByRole('button', { name: 'New folder' }).click();
  await row(page, 'disabled').waitFor();
  await page.getByRole('button', { name: 'Rename essentials.jar' }).click();
  await page.getByLabel('New name of essentials.jar').fill('/plugins/disabled/essentials.jar');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await row(page, 'essentials.jar').waitFor({ state: 'detached' });
  t.is((await stat(join(serverDir, 'plugins', 'disabled', 'essentials.jar'))).size, 3000);

  // Two selected and deleted at once.
  await page.getByRole('checkbox', { name: 'Select old.jar' }).check();
  await page.getByRole('checkbox', { name: 'Select older.jar' }).check();
  await page.getByText('2 selected').waitFor();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await row(page, 'old.jar').waitFor({ state: 'detached' });
  await row(page, 'older.jar').waitFor({ state: 'detached' });
  t.false((await readFile(join(serverDir, 'plugins', 'disabled', 'essentials.jar'))).length === 0);

  // Down into the folder and back up by the breadcrumbs; a download.
  await page.getByRole('link', { name: 'disabled/' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download essentials.jar' }).click();
  const saved = await (await download).path();
  t.true((await readFile(saved)).equals(await readFile(join(serverDir, 'plugins', 'disabled', 'essentials.jar'))));
  await page.getByRole('navigation', { name: 'Folder' }).getByRole('link', { name: '/', exact: true }).click();
  await row(page, 'start.sh').waitFor();
  t.deepEqual(errors, []);
});

test.serial('edit and save with If-Match; the editor loads its own chunk; a conflict is told and resolved; history diff and restore', async (t) => {
  await writeFile(join(serverDir, 'server.properties'), '# Minecraft\nmotd=Hello\nmax-players=20\n');
  const { page, errors, requests } = await signedIn();
  await filesPage(page);
  await row(page, 'server.properties').waitFor();
  const firstLoad = requests.filter((url) => /\/dashboard\/.*\.js$/.test(url));
  await page.getByRole('link', { name: 'server.properties' }).click();
  const editor = page.getByLabel('Content of server.properties');
  await editor.waitFor();
  const later = requests.filter((url) => /\/dashboard\/.*\.js$/.test(url) && !firstLoad.includes(url));
  t.is(later.length, 1, 'the editor and its highlighter came as one chunk, when opened');
  for (const url of firstLoad) t.false((await (await fetch(url)).text()).includes('tok-'), 'no highlighter in the first load');
  t.is(await page.locator('.code-editor .tok-key').first().innerText(), 'motd');
  t.is(await page.locator('.code-editor .tok-comment').first().innerText(), '# Minecraft');

  await editor.fill('# Minecraft\nmotd=Welcome\nmax-players=20\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Saved server.properties' }).waitFor();
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), '# Minecraft\nmotd=Welcome\nmax-players=20\n');

  // Someone else saves meanwhile: this page's save is refused and says so; its text stays.
  const theirs = await app.request(`/api/v1/servers/${serverId}/files/content?path=/server.properties`, {
    method: 'PUT',
    headers: { ...owner.auth, 'content-type': 'text/plain' },
    body: '# Minecraft\nmotd=Theirs\nmax-players=20\n',
  });
  t.is(theirs.status, 200);
  await editor.fill('# Minecraft\nmotd=Mine\nmax-players=20\n');
  await page.keyboard.press('Control+s');
  await page.getByRole('alert').filter({ hasText: 'Someone else changed server.properties since you opened it' }).waitFor();
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), '# Minecraft\nmotd=Theirs\nmax-players=20\n', 'not overwritten');
  t.is(await editor.inputValue(), '# Minecraft\nmotd=Mine\nmax-players=20\n', 'the text typed is still there');
  await page.getByRole('button', { name: 'Save mine over theirs' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved server.properties' }).waitFor();
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), '# Minecraft\nmotd=Mine\nmax-players=20\n');

  // The history: three versions (Welcome, Theirs, Mine); the oldest's diff to the file, then restored.
  const versions = page.getByRole('table', { name: 'Versions' });
  await until(async () => (await versions.locator('tbody tr').count()) === 3, 'three versions listed');
  await versions
    .locator('tbody tr')
    .last()
    .getByRole('button', { name: /^Diff of/ })
    .click();
  const diff = page.getByLabel('Diff to the file as it is now');
  await diff.waitFor();
  t.is(await diff.locator('.removed').filter({ hasText: 'motd=Welcome' }).count(), 1);
  t.is(await diff.locator('.added').filter({ hasText: 'motd=Mine' }).count(), 1);
  page.once('dialog', (dialog) => void dialog.accept());
  await versions
    .locator('tbody tr')
    .last()
    .getByRole('button', { name: /^Restore the version/ })
    .click();
  await page.getByRole('status').filter({ hasText: 'Restored the version' }).waitFor();
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), '# Minecraft\nmotd=Welcome\nmax-players=20\n');
  await until(async () => (await editor.inputValue()).includes('motd=Welcome'), 'the editor shows the restored text');
  await until(async () => (await versions.locator('tbody tr').count()) === 4, 'the restore kept as a version');
  t.deepEqual(errors, []);
});

test.serial('upload with progress; a connection broken mid-way resumes from the offset the service has', async (t) => {
  const { page, errors } = await signedIn();
  await filesPage(page);
  await page.getByLabel('Folder name').waitFor();
  const data = randomBytes(20 * 1024 * 1024 + 5);
  const patches: string[] = [];
  let broken = false;
  await page.route(/\/files\/uploads\/[^/?]+$/, async (route) => {
    const request = route.request();
    if (request.method() !== 'PATCH') return route.continue();
    patches.push(request.headers()['upload-offset'] ?? '');
    if (patches.length === 2 && !broken) {
      broken = true;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await page.getByLabel('Upload files').setInputFiles({ name: 'world.zip', mimeType: 'application/zip', buffer: data }, { timeout: 60_000 }); // 20 MB over the DevTools protocol
  const progress = page.getByRole('progressbar', { name: 'Upload of world.zip' });
  await progress.waitFor();
  await page.getByText('Uploaded').waitFor({ timeout: 60_000 });
  t.is(await progress.getAttribute('value'), String(data.length));
  t.true(broken, 'one chunk was cut off');
  t.deepEqual(patches, ['0', String(8 * 1024 * 1024), String(8 * 1024 * 1024), String(16 * 1024 * 1024)], 'the broken chunk was sent again from the offset');
  t.true((await readFile(join(serverDir, 'world.zip'))).equals(data));
  await row(page, 'world.zip').waitFor();
  t.deepEqual(errors, []);
});

test.serial('SSH keys on the account page; the SFTP command on the files page', async (t) => {
  const { page, errors } = await signedIn();
  await page.goto(`${app.url}/#/account`);
  await page.getByRole('heading', { name: 'SSH keys' }).waitFor();
  const publicKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl test@laptop';
  await page.getByLabel('Key name').fill('laptop');
  await page.getByLabel('Public key').fill(publicKey);
  await page.getByRole('button', { name: 'Add key' }).click();
  const keys = page.getByRole('table', { name: 'SSH keys' });
  await keys.getByText('laptop').waitFor();
  t.regex(await keys.innerText(), /SHA256:/);
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Delete the key laptop' }).click();
  await page.getByText('No SSH keys yet.').waitFor();

  await filesPage(page);
  const sftp = page.getByRole('region', { name: 'SFTP' });
  await sftp.getByRole('heading', { name: 'SFTP' }).waitFor();
  const account = (await (await app.request('/api/v1/account', { headers: owner.auth })).json()) as { handle: string };
  await until(async () => (await sftp.innerText()).includes(`${account.handle}.${serverId.replace(/-/g, '').slice(-8)}@`), 'the SFTP command');
  t.deepEqual(errors, []);
});
