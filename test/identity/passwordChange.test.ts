/**
 * Changing one's password (POST /api/v1/account/password): the current password is checked (a 400 on its field), the
 * new one signs in and the old one no longer does, every other session ends while this one goes on, API tokens may
 * not do it, and a refused change changes nothing.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createApiToken, createCluster, PASSWORD, signUp } from '../support/identity.ts';
import { createUser } from '../../api/identity/users.ts';
import { startSession } from '../../api/identity/sessions.ts';

const getApp = useTestApp(test);
const NEW_PASSWORD = 'a brand new passphrase';

const login = (email: string, password: string) => getApp().request('/auth/login', json({ email, password }));

test('the new password signs in, the old one not; other sessions end, this one goes on', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'changer');
  const other = await body(await login(user.email, PASSWORD));
  const otherAuth = { Authorization: `Bearer ${other.accessToken}` };
  t.is((await app.request('/api/v1/account', { headers: otherAuth })).status, 200);

  const response = await app.request('/api/v1/account/password', json({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { headers: user.auth }));
  t.is(response.status, 200);
  t.regex((await body(response)).message, /1 other session has ended/);

  t.is((await login(user.email, PASSWORD)).status, 401);
  t.is((await login(user.email, NEW_PASSWORD)).status, 200);
  t.is((await app.request('/api/v1/account', { headers: user.auth })).status, 200, 'the session that changed it goes on');
  t.is((await app.request('/api/v1/account', { headers: otherAuth })).status, 401, 'another session ended');
  t.is((await app.request('/auth/refresh', json({ refreshToken: other.refreshToken }))).status, 401);
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM audit_log WHERE action = 'user.password_change' AND target_id = ${user.id}`), 1);
});

test('a wrong current password is a 400 on its field and changes nothing', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'wrong');
  for (const sent of [{ currentPassword: 'not my password', newPassword: NEW_PASSWORD }, { newPassword: NEW_PASSWORD }]) {
    const response = await app.request('/api/v1/account/password', json(sent, { headers: user.auth }));
    t.is(response.status, 400);
    const answer = await body(response);
    t.is(answer.error, 'Bad Request');
    t.is(answer.details[0].field, 'currentPassword');
  }
  const short = await app.request('/api/v1/account/password', json({ currentPassword: PASSWORD, newPassword: 'short' }, { headers: user.auth }));
  t.is(short.status, 400);
  t.is((await body(short)).details[0].field, 'newPassword');
  t.is((await login(user.email, PASSWORD)).status, 200, 'the password is unchanged');
});

test('an API token may not change the password; an account without one sets its first', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'scripted');
  const clusterId = await createCluster(app, user);
  const token = await createApiToken(app, user, [clusterId]);
  const refused = await app.request('/api/v1/account/password', json({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { headers: token.auth }));
  t.is(refused.status, 403);
  t.is((await login(user.email, PASSWORD)).status, 200);

  // A Steam-only account: signed in through a session made for it, it sets a password without a current one.
  const steam = await createUser(app.pool, { email: `steam-${Date.now()}@example.test`, displayName: 'steam', steamId: '76561198000000077', tier: 'FREE' });
  const pair = await startSession(app.pool, app.deps.accessTokens, steam.id, { ip: null, userAgent: null });
  const set = await app.request('/api/v1/account/password', json({ newPassword: NEW_PASSWORD }, { headers: { Authorization: `Bearer ${pair.accessToken}` } }));
  t.is(set.status, 200);
  t.is((await login(steam.email, NEW_PASSWORD)).status, 200);
});

test('a first password needs a sign-in within the last 10 minutes; the account says whether it has a password', async (t) => {
  const app = getApp();
  const steam = await createUser(app.pool, { email: `stale-${Date.now()}@example.test`, displayName: 'stale', steamId: '76561198000000078', tier: 'FREE' });
  const pair = await startSession(app.pool, app.deps.accessTokens, steam.id, { ip: null, userAgent: null });
  const auth = { Authorization: `Bearer ${pair.accessToken}` };
  t.false((await body(await app.request('/api/v1/account', { headers: auth }))).hasPassword);
  await app.pool.query(sql.unsafe`UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE id = ${pair.sessionId}`);
  const refused = await app.request('/api/v1/account/password', json({ newPassword: NEW_PASSWORD }, { headers: auth }));
  t.is(refused.status, 403);
  t.regex((await body(refused)).message, /no password yet.*sign-in within the last 10 minutes/);
  t.is((await login(steam.email, NEW_PASSWORD)).status, 401, 'no password was set');

  const fresh = await startSession(app.pool, app.deps.accessTokens, steam.id, { ip: null, userAgent: null });
  const freshAuth = { Authorization: `Bearer ${fresh.accessToken}` };
  t.is((await app.request('/api/v1/account/password', json({ newPassword: NEW_PASSWORD }, { headers: freshAuth }))).status, 200);
  t.true((await body(await app.request('/api/v1/account', { headers: freshAuth }))).hasPassword);
});

test('an API token is refused with a message about the password; lone surrogates in a password are 400', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'surrogates');
  const clusterId = await createCluster(app, user);
  const token = await createApiToken(app, user, [clusterId]);
  const refused = await app.request('/api/v1/account/password', json({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { headers: token.auth }));
  t.regex((await body(refused)).message, /password is changed while signed in with a session/);

  // JSON may carry a lone surrogate, which would be hashed as U+FFFD like any other.
  const lone = (password: string) => `{"currentPassword":"${PASSWORD}","newPassword":"${password}"}`;
  const send = (text: string) =>
    app.request('/api/v1/account/password', { method: 'POST', headers: { ...user.auth, 'content-type': 'application/json' }, body: text });
  const answer = await send(lone('passphrase \\ud800 long'));
  t.is(answer.status, 400);
  const details = (await body(answer)).details;
  t.deepEqual(details, [{ field: 'newPassword', message: 'must be well-formed text (no lone surrogate characters)' }]);
  t.is((await send(lone('passphrase \\udfff long'))).status, 400);
  t.is((await login(user.email, PASSWORD)).status, 200, 'unchanged');
  const signIn = await app.request('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"email":"${user.email}","password":"x\\ud800"}`,
  });
  t.is(signIn.status, 400);
  t.is((await send(lone('a pair \\ud83d\\ude00 is fine'))).status, 200);
});
