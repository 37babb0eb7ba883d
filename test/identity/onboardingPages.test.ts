/**
 * The invitation and password-reset pages in a real headless browser: an invitee creates an account and joins, an
 * existing user signs in and joins (both then land on the dashboard, signed in, on the cluster joined), a forgetful
 * user sets a new password. Nothing is loaded from another origin and
 * the secret leaves the address bar once the page has read it.
 */
import test from 'ava';
import { sql } from 'slonik';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { body, json, useTestApp, type TestApp } from '../support/app.ts';
import { createCluster, signUp, type TestUser } from '../support/identity.ts';
import { explainFailures, startBrowser, type TestBrowser } from '../support/browser.ts';

let browser: TestBrowser;
explainFailures(test, () => browser);
test.before(async () => {
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
});
const open = useTestApp(test, { env: { ALLOW_REGISTRATION: 'false' } });

async function invite(app: TestApp, owner: TestUser, clusterId: string, email: string, role: string) {
  return body(await app.request(`/api/v1/clusters/${clusterId}/invitations`, json({ email, role }, { headers: owner.auth })));
}

const roleOf = (app: TestApp, clusterId: string, email: string) =>
  app.pool.maybeOneFirst(sql.unsafe`
    SELECT m.role FROM cluster_members m JOIN users u ON u.id = m.user_id WHERE m.cluster_id = ${clusterId} AND u.email = ${email}`);

const sameOrigin = (app: TestApp, requests: string[]) => requests.every((url) => url.startsWith(`${app.url}/`));

test('an invitee opens the link, creates an account and joins', async (t) => {
  const app = open();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner, 'Survival EU');
  const email = `newcomer-${Date.now()}@example.test`;
  const invitation = await invite(app, owner, clusterId, email, 'MODERATOR');

  const { page, requests } = await browser.page();
  await page.goto(`${app.url}/invite#token=${invitation.token}`);
  await page.getByRole('heading', { name: 'Join Survival EU' }).waitFor();
  t.is(new URL(page.url()).hash, '', 'the secret left the address bar');
  await page.getByText(`You are invited as MODERATOR (${email})`).waitFor();
  // The page offers signing in as well, so it tells nobody whether the address has an account.
  t.true(await page.getByRole('heading', { name: 'Already have an account? Sign in to accept' }).isVisible());
  await page.getByLabel('Your name').fill('Newcomer');
  await page.getByLabel(/^Password/).fill('a long enough password');
  await page.getByRole('button', { name: 'Create account and join' }).click();
  // No dead end: the dashboard opens, signed in as the new account, on the cluster joined.
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  t.is(new URL(page.url()).hash, `#/c/${clusterId}/servers`);
  t.is(await page.getByRole('combobox', { name: 'Cluster' }).inputValue(), clusterId);
  await page.getByRole('link', { name: 'Newcomer', exact: true }).waitFor();
  t.is(await roleOf(app, clusterId, email), 'MODERATOR');
  t.is((await app.request('/auth/login', json({ email, password: 'a long enough password' }))).status, 200);
  t.true(sameOrigin(app, requests), requests.join('\n'));

  // Opened again, the spent link says so.
  const again = await browser.page();
  await again.page.goto(`${app.url}/invite#token=${invitation.token}`);
  await again.page.getByText('This invitation is accepted').waitFor();
  t.pass();
});

test('an invitee who has an account signs in on the page and joins; a bad password says why', async (t) => {
  const app = open();
  const owner = await signUp(app, 'owner');
  const member = await signUp(app, 'member');
  const clusterId = await createCluster(app, owner, 'Creative');
  await createCluster(app, member, 'Aaa first by name');
  const invitation = await invite(app, owner, clusterId, member.email, 'VIEWER');

  const { page } = await browser.page();
  await page.goto(`${app.url}/invite#token=${invitation.token}`);
  await page.getByRole('heading', { name: 'Already have an account? Sign in to accept' }).waitFor();
  // The same page as for an address without an account: both ways in.
  t.true(await page.getByRole('heading', { name: 'Create your account' }).isVisible());
  await page.getByLabel('Your password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in and join' }).click();
  await page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password' }).waitFor();
  t.is(await roleOf(app, clusterId, member.email), null);
  await page.getByLabel('Your password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign in and join' }).click();
  // Signed in on the dashboard, on the cluster just joined (not the member's first one by name).
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  t.is(new URL(page.url()).hash, `#/c/${clusterId}/servers`);
  await page.getByRole('link', { name: 'member', exact: true }).waitFor();
  t.is(await roleOf(app, clusterId, member.email), 'VIEWER');
});

test('the reset page sets a new password with the secret of the link', async (t) => {
  const app = open();
  const user = await signUp(app, 'forgetful');
  const token = generateSecret('reset');
  await app.pool.query(sql.unsafe`
    INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES (${user.id}, ${sql.binary(hashSecret(token))}, now() + interval '1 hour')`);

  const { page, requests } = await browser.page();
  await page.goto(`${app.url}/reset-password#token=${token}`);
  await page.getByLabel(/^New password/).fill('a fresh password here');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Password changed').waitFor();
  await page.getByRole('link', { name: 'Sign in to the dashboard' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.is((await app.request('/auth/login', json({ email: user.email, password: 'a fresh password here' }))).status, 200);
  t.true(sameOrigin(app, requests), requests.join('\n'));

  const response = await app.request('/reset-password');
  t.regex(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  t.is(response.headers.get('referrer-policy'), 'no-referrer');
  t.is(response.headers.get('cache-control'), 'no-store');
});
