import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { PASSWORD, signUp } from '../support/identity.ts';

const app = useTestApp(test);

test.serial('the first registration is open, later ones are closed without ALLOW_REGISTRATION', async (t) => {
  const first = await app().request('/auth/register', json({ email: 'First@Example.test', password: 'long enough pw', displayName: 'First' }));
  t.is(first.status, 201);
  const answer = await body(first);
  t.is(answer.user.email, 'first@example.test', 'e-mails are stored in lower case');
  t.is(answer.user.tier, 'FREE');
  t.is(answer.tokenType, 'Bearer');
  t.is(answer.expiresIn, 86400);
  t.regex(answer.refreshToken, /^gsm_refresh_[A-Za-z0-9]{43}$/);
  t.true(answer.accessToken.startsWith('v4.local.'));

  const account = await app().request('/api/v1/account', { headers: { Authorization: `Bearer ${answer.accessToken}` } });
  t.is(account.status, 200);
  t.deepEqual(Object.keys(await body(account)).sort(), ['createdAt', 'discordId', 'displayName', 'email', 'handle', 'hasPassword', 'id', 'steamId', 'tier']);

  const second = await app().request('/api/v1/auth/register', json({ email: 'second@example.test', password: 'long enough pw', displayName: 'Second' }));
  t.is(second.status, 403);
  t.regex((await body(second)).message, /Registration is closed/);
});

test('login answers a token pair; a wrong password or unknown e-mail is 401 with the same message', async (t) => {
  const user = await signUp(app());
  const ok = await app().request('/api/v1/auth/login', json({ email: user.email.toUpperCase(), password: PASSWORD }));
  t.is(ok.status, 200);
  t.deepEqual(Object.keys(await body(ok)).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'tokenType']);
  const wrong = await app().request('/auth/login', json({ email: user.email, password: 'not the password' }));
  t.is(wrong.status, 401);
  const unknown = await app().request('/auth/login', json({ email: 'nobody@example.test', password: 'not the password' }));
  t.is(unknown.status, 401);
  t.is((await body(wrong)).message, (await body(unknown)).message);
});

test('refresh tokens rotate, work once, and a replay revokes the whole session', async (t) => {
  const user = await signUp(app());
  const first = await app().request('/auth/refresh', json({ refreshToken: user.refreshToken }));
  t.is(first.status, 200);
  const pair = await body(first);
  t.not(pair.refreshToken, user.refreshToken);
  t.is((await app().request('/api/v1/account', { headers: { Authorization: `Bearer ${pair.accessToken}` } })).status, 200);

  // The spent token again: theft is assumed; the session ends, so even the newest tokens stop working.
  const replay = await app().request('/auth/refresh', json({ refreshToken: user.refreshToken }));
  t.is(replay.status, 401);
  t.regex((await body(replay)).message, /already used/);
  t.is((await app().request('/api/v1/account', { headers: { Authorization: `Bearer ${pair.accessToken}` } })).status, 401);
  t.is((await app().request('/api/v1/account', { headers: user.auth })).status, 401);
  t.is((await app().request('/auth/refresh', json({ refreshToken: pair.refreshToken }))).status, 401);
});

test('concurrent refreshes with one token: exactly one succeeds', async (t) => {
  const user = await signUp(app());
  const answers = await Promise.all([1, 2, 3].map(() => app().request('/auth/refresh', json({ refreshToken: user.refreshToken }))));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 401, 401]);
});

test('logout ends the session at once', async (t) => {
  const user = await signUp(app());
  const out = await app().request('/auth/logout', { method: 'POST', headers: user.auth });
  t.is(out.status, 200);
  t.deepEqual(await body(out), { success: true, message: 'Signed out' });
  t.is((await app().request('/api/v1/account', { headers: user.auth })).status, 401);
  t.is((await app().request('/auth/refresh', json({ refreshToken: user.refreshToken }))).status, 401);
});

test('an expired access token is 401', async (t) => {
  const user = await signUp(app());
  await app().pool.query(sql.unsafe`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id}`);
  t.is((await app().request('/api/v1/account', { headers: user.auth })).status, 401);
});

test('passwords are stored as scrypt hashes, never in clear', async (t) => {
  const user = await signUp(app());
  const stored = await app().pool.oneFirst(sql.unsafe`SELECT password_hash FROM users WHERE id = ${user.id}`);
  t.regex(String(stored), /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
  t.false(String(stored).includes(PASSWORD));
});

test('garbage Authorization headers and foreign tokens are 401 in the error format', async (t) => {
  const headers = [
    '',
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'bearer lowercase-scheme',
    'Bearer v4.local.not-a-real-token',
    'Bearer v4.public.eyJzdWIiOiJ4In0',
    'Bearer gsm_live_short',
    `Bearer gsm_live_${'A'.repeat(43)}`,
    `Bearer gsm_agent_${'A'.repeat(43)}`,
    'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc',
    `Bearer ${'x'.repeat(5000)}`,
  ];
  for (const header of headers) {
    const response = await app().request('/api/v1/account', { headers: header ? { Authorization: header } : {} });
    t.is(response.status, 401, header.slice(0, 40));
    const answer = await body(response);
    t.is(answer.statusCode, 401);
    t.is(answer.error, 'Unauthorized');
  }
});

test('a token signed with another key is rejected', async (t) => {
  const { AccessTokens } = await import('../../api/identity/accessTokens.ts');
  const { generatePasetoKey } = await import('../../api/identity/secrets.ts');
  const user = await signUp(app());
  const sessionId = await app().pool.oneFirst(sql.unsafe`SELECT id FROM sessions WHERE user_id = ${user.id}`);
  const forged = await new AccessTokens(generatePasetoKey()).issue({ userId: user.id, sessionId: String(sessionId) });
  t.is((await app().request('/api/v1/account', { headers: { Authorization: `Bearer ${forged}` } })).status, 401);
});

// Serial: other tests of this file create users concurrently, and this one counts them.
test.serial('bad sign-in input is 400 and creates nothing', async (t) => {
  const before = await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM users`);
  for (const payload of [
    {},
    { email: 'not-an-email', password: 'long enough pw', displayName: 'x' },
    { email: 'a@example.test', password: 'short', displayName: 'x' },
    { email: 'a@example.test', password: 'long enough pw', displayName: 'x'.repeat(65) },
    { email: 'a@example.test', password: 'long enough pw', displayName: 'x', admin: true },
    { email: 42, password: ['x'], displayName: null },
  ]) {
    const response = await app().request('/auth/register', json(payload));
    t.is(response.status, 400, JSON.stringify(payload));
    t.true((await body(response)).details.length >= 1);
  }
  t.is(await app().pool.oneFirst(sql.unsafe`SELECT count(*) FROM users`), before);
});
