/**
 * Rate limits through the real app (docs/access.md), in memory; the Redis limiter, its shared budget across
 * processes and its fail-closed behaviour are tested in test/rateLimit/.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { randomUUID } from 'node:crypto';
import { createUser } from '../../api/identity/users.ts';
import { startSession } from '../../api/identity/sessions.ts';
import { createApiToken, createCluster } from '../support/identity.ts';
import { assertBurst, spendBurst, DOCUMENTED_BUDGETS } from '../support/burst.ts';

const { FREE, SESSION, SIGN_IN, AUTH_FAILURE, FREE_USER } = DOCUMENTED_BUDGETS;

const app = useTestApp(test, { env: { RATE_LIMIT: 'on' } });

test.serial('sign-in is limited per client address: 10 attempts, then 429 with Retry-After', async (t) => {
  const spent = await spendBurst(() => app().request('/auth/login', json({ email: 'nobody@example.test', password: 'wrong password' })), SIGN_IN);
  assertBurst(t, spent, SIGN_IN);
  t.true(
    spent.answers.slice(0, -1).every((answer) => answer.status === 401),
    'wrong passwords before the refusal',
  );
  const last = spent.answers.at(-1);
  t.is(last!.headers.get('x-ratelimit-limit'), '10');
  t.is(last!.headers.get('x-ratelimit-remaining'), '0');
  const retryAfter = Number(last!.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 6, String(retryAfter));
  const answer = await body(last!);
  t.deepEqual(answer, { statusCode: 429, message: answer.message, error: 'Too Many Requests', retryAfter });
});

test('session traffic: headers on every answer, burst of 20, then 429', async (t) => {
  const user = await signUpWithoutLimit();
  const spent = await spendBurst(async (request) => {
    const response = await app().request(request % 2 ? '/api/v1/account' : '/api/v1/clusters/0192f0c4-1a2b-7c3d-8e4f-0123456789ab', { headers: user.auth });
    t.is(response.headers.get('x-ratelimit-limit'), '100');
    t.regex(response.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);
    if (request === 0) t.is(response.headers.get('x-ratelimit-remaining'), '19');
    return response;
  }, SESSION);
  assertBurst(t, spent, SESSION);
  const statuses = spent.answers.map((answer) => answer.status);
  t.deepEqual(
    statuses.slice(0, 20),
    Array.from({ length: 20 }, (_, index) => (index % 2 ? 200 : 404)),
    'errors spend the budget too',
  );
});

test("an API token spends its own bucket at its user's tier", async (t) => {
  const user = await signUpWithoutLimit();
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);
  await app().pool.query(sql.unsafe`UPDATE users SET tier = 'PRO' WHERE id = ${user.id}`);
  const first = await app().request('/api/v1/account', { headers: token.auth });
  t.is(first.headers.get('x-ratelimit-limit'), '300');
  t.is(first.headers.get('x-ratelimit-remaining'), '49');

  const free = await signUpWithoutLimit();
  const freeCluster = await createCluster(app(), free);
  const freeToken = await createApiToken(app(), free, [freeCluster]);
  const spent = await spendBurst(() => app().request('/api/v1/account', { headers: freeToken.auth }), FREE);
  assertBurst(t, spent, FREE);
  t.true(spent.answers.slice(0, -1).every((answer) => answer.status === 200));
  t.is((await app().request('/api/v1/account', { headers: free.auth })).status, 200, 'the session has its own bucket');
});

test('health and docs are not limited', async (t) => {
  for (let request = 0; request < 30; request++) t.is((await app().request('/healthz')).status, 200);
  t.is((await app().request('/healthz')).headers.get('x-ratelimit-limit'), null);
});

/** A signed-in user made without the login endpoint, so tests do not spend the shared sign-in budget of 127.0.0.1. */
async function signUpWithoutLimit() {
  const user = await createUser(app().pool, { email: `${randomUUID()}@example.test`, displayName: 'limited', tier: 'FREE' });
  const pair = await startSession(app().pool, app().deps.accessTokens, user.id, { ip: null, userAgent: null });
  return {
    id: user.id,
    email: user.email,
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    auth: { Authorization: `Bearer ${pair.accessToken}` },
  };
}

test.serial('failed authentications are limited per client address, and a valid credential from that address still works', async (t) => {
  const user = await signUpWithoutLimit();
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);
  // Unknown tokens of every form: well-formed API tokens, malformed ones, forged session tokens, no token at all.
  const unknown = [`gsm_live_${'A'.repeat(43)}`, 'gsm_live_short', 'v4.local.forged', null];
  const spent = await spendBurst((index) => {
    const presented = unknown[index % unknown.length];
    return app().request('/api/v1/account', presented ? { headers: { Authorization: `Bearer ${presented}` } } : {});
  }, AUTH_FAILURE);
  assertBurst(t, spent, AUTH_FAILURE);
  t.true(
    spent.answers.slice(0, -1).every((answer) => answer.status === 401),
    '401 until the budget is spent',
  );
  const refused = spent.answers.at(-1)!;
  t.is(refused.headers.get('x-ratelimit-limit'), '30');
  const answer = await body(refused);
  t.is(answer.statusCode, 429);
  t.regex(answer.message, /failed authentications/);
  t.true(Number(refused.headers.get('retry-after')) >= 1);

  // Only failures spend the address's budget: the user's own credentials from that same address still work.
  t.is((await app().request('/api/v1/account', { headers: user.auth })).status, 200);
  t.is((await app().request('/api/v1/account', { headers: token.auth })).status, 200);
  t.is((await app().request('/api/v1/account', { headers: { Authorization: `Bearer ${unknown[0]}` } })).status, 429, 'failures are still refused');
});

test("a user's API tokens share one ceiling of twice the tier's rate, however many tokens there are", async (t) => {
  const user = await signUpWithoutLimit();
  const clusterId = await createCluster(app(), user);
  const tokens: { auth: { Authorization: string } }[] = [];
  for (let index = 0; index < 3; index++) tokens.push(await createApiToken(app(), user, [clusterId]));
  // Three FREE tokens hold 3 x 10 requests of burst; the user's ceiling holds 20.
  const spent = await spendBurst((index) => app().request('/api/v1/account', { headers: tokens[index % tokens.length]!.auth }), FREE_USER);
  assertBurst(t, spent, FREE_USER);
  const refused = spent.answers.at(-1)!;
  t.is(refused.headers.get('x-ratelimit-limit'), '120');
  t.regex((await body(refused)).message, /all your API tokens/);
  t.is((await app().request('/api/v1/account', { headers: user.auth })).status, 200, 'session traffic has its own bucket');
});
