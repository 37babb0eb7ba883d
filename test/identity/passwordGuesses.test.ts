/**
 * Guessing passwords through the password change (POST /api/v1/account/password) is as slow as through sign-in: each
 * attempt spends the address's sign-in budget, and wrong passwords spend a budget per account shared with
 * /auth/login (docs/access.md, "Rate limits"). Each test has its own app, so its budgets start full.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../../api/identity/users.ts';
import { startSession } from '../../api/identity/sessions.ts';
import { PASSWORD } from '../support/identity.ts';

const NEW_PASSWORD = 'a brand new passphrase';

/** A user with a password and a session made directly (a sign-in would spend the budgets under test). */
async function account(app: TestApp, name: string) {
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const user = await createUser(app.pool, { email, password: PASSWORD, displayName: name, tier: 'FREE' });
  const pair = await startSession(app.pool, app.deps.accessTokens, user.id, { ip: null, userAgent: null });
  return { id: user.id, email, auth: { Authorization: `Bearer ${pair.accessToken}` } };
}

const change = (app: TestApp, auth: Record<string, string>, currentPassword: string) =>
  app.request('/api/v1/account/password', json({ currentPassword, newPassword: NEW_PASSWORD }, { headers: auth }));

test('the 11th wrong current password from one address within a minute is 429', async (t) => {
  const app = await startTestApp({ RATE_LIMIT: 'on' });
  t.teardown(() => app.close());
  // Spread over three accounts, so no account's own budget (5) is what refuses.
  const users = [await account(app, 'a'), await account(app, 'b'), await account(app, 'c')];
  const statuses: number[] = [];
  // The budget refills one attempt every 6 s: on a slow machine an attempt or two may come back during the burst.
  for (let guess = 0; guess < 15 && statuses.at(-1) !== 429; guess++) statuses.push((await change(app, users[guess % 3]!.auth, `wrong guess ${guess}`)).status);
  t.deepEqual(statuses.slice(0, 10), Array<number>(10).fill(400));
  t.is(statuses.at(-1), 429);
  const failed = statuses.length - 1;
  const refused = await change(app, users[0]!.auth, PASSWORD);
  t.is(refused.status, 429, 'the right password too, once the address has no attempt left');
  t.truthy(refused.headers.get('retry-after'));
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM audit_log WHERE action = 'user.password_change_failed'`), failed);
  const audited = await app.pool.oneFirst(
    sql.unsafe`SELECT count(*)::int FROM audit_log WHERE action = 'user.password_change_failed' AND target_id = ${users[0]!.id}`,
  );
  t.is(audited, Math.ceil(failed / 3));
});

test('an account has 5 wrong current passwords per 15 minutes on the password change; sign-in keeps only its per-address limit', async (t) => {
  const app = await startTestApp({ RATE_LIMIT: 'on' });
  t.teardown(() => app.close());
  const user = await account(app, 'target');
  for (let guess = 0; guess < 5; guess++) t.is((await change(app, user.auth, `wrong guess ${guess}`)).status, 400);
  const refused = await change(app, user.auth, PASSWORD);
  t.is(refused.status, 429, 'even the right password, until a guess refills');
  const answer = await body(refused);
  t.is(answer.error, 'Too Many Requests');
  t.regex(answer.message, /wrong passwords for this account/);
  t.true(answer.retryAfter > 60, 'a guess refills in 3 minutes');
  // Sign-in is not locked by it: a stranger's wrong guesses never lock the owner out of signing in.
  t.is((await app.request('/auth/login', json({ email: user.email, password: PASSWORD }))).status, 200);
  // Another account from the same address is not refused by this one's budget.
  const other = await account(app, 'other');
  t.is((await change(app, other.auth, PASSWORD)).status, 200);
});
