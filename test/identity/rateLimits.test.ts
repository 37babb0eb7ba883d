/**
 * Rate limits through the real app (docs/access.md), in memory; the Redis limiter, its shared budget across
 * processes and its fail-closed behaviour are tested in test/ratelimit/.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { randomUUID } from 'node:crypto';
import { createUser } from '../../api/identity/users.ts';
import { startSession } from '../../api/identity/sessions.ts';
import { createApiToken, createCluster } from '../support/identity.ts';
import { assertBurst, spendBurst, DOCUMENTED_BUDGETS } from '../support/burst.ts';

const { FREE, SESSION, SIGN_IN } = DOCUMENTED_BUDGETS;

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
