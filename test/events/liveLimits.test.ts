/**
 * `/live` inside the rate limits (limiter in memory): a handshake, `subscribe` and `console:command` spend the
 * principal's REST budget; refused handshakes spend the address's failure budget, shared with REST; sockets are
 * capped per credential and per user; and a revoked token or an ended session cannot act, from its very next request.
 */
import test from 'ava';
import { sql } from 'slonik';
import type { MemoryLimiter } from '../../api/rateLimit/memoryLimiter.ts';
import { socketSlots } from '../../api/live/admission.ts';
import { CAPS } from '../../api/rateLimit/tiers.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp } from '../support/identity.ts';
import { connectViewer, type LiveViewer } from '../support/liveClient.ts';
import { until } from '../support/wait.ts';

const A_SERVER = '00000000-0000-4000-8000-000000000000';

async function limitedApp(t: import('ava').ExecutionContext): Promise<TestApp> {
  const app = await startTestApp({ RATE_LIMIT: 'on' });
  t.teardown(() => app.close());
  return app;
}

/** Connects, closing the viewer when the test ends. */
async function open(t: import('ava').ExecutionContext, app: TestApp, token: string | undefined): Promise<LiveViewer> {
  const viewer = await connectViewer(app.url, token);
  t.teardown(() => viewer.close());
  return viewer;
}

/** The `connect_error` data of a handshake that must be refused. */
async function refusal(app: TestApp, token: string | undefined): Promise<Record<string, unknown>> {
  const outcome = await connectViewer(app.url, token).then(
    (viewer) => {
      viewer.close();
      return { connected: true };
    },
    (error: { data?: Record<string, unknown> }) => error.data ?? { noData: true },
  );
  return outcome as Record<string, unknown>;
}

test('a principal that spent its budget over REST is refused a subscribe and a command (429, retryAfter); unsubscribe stays free', async (t) => {
  const app = await limitedApp(t);
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const token = await createApiToken(app, owner, [clusterId]);
  const viewer = await open(t, app, token.token);
  t.deepEqual(await viewer.request('subscribe', { clusterId }), { ok: true });

  // FREE: burst 10, of which the handshake and the subscribe took two.
  let status = 200;
  for (let sent = 0; sent < 20 && status !== 429; sent += 1) {
    const response = await app.request(`/api/v1/clusters/${clusterId}`, { headers: token.auth });
    await response.body?.cancel();
    status = response.status;
  }
  t.is(status, 429, 'REST ran out of budget');

  const refused = await viewer.request('subscribe', { clusterId, types: ['server.status'] });
  t.like(refused, { ok: false, statusCode: 429 });
  t.regex(refused.message, /Rate limit exceeded/);
  t.true(Number.isInteger(refused.retryAfter) && refused.retryAfter >= 1, JSON.stringify(refused));
  t.like(await viewer.request('console:command', { serverId: A_SERVER, command: 'status' }), { ok: false, statusCode: 429 });
  t.deepEqual(await viewer.request('unsubscribe', { clusterId }), { ok: true });
  t.true(viewer.socket.connected);
});

test('refused handshakes spend the address failure budget shared with REST: 429 past it, while a valid token still connects', async (t) => {
  const app = await limitedApp(t);
  const owner = await signUp(app);
  // AUTH_FAILURE: 30 at once, one more every 2 s. Five spent by REST, the rest by handshakes without a token or with a
  // wrong one: 401 until the budget is gone, then 429.
  for (let sent = 0; sent < 5; sent += 1) {
    const response = await app.request('/api/v1/account', { headers: { Authorization: 'Bearer nonsense' } });
    t.is(response.status, 401);
    await response.body?.cancel();
  }
  let refused = 5;
  let limited = await refusal(app, undefined);
  while (limited.statusCode === 401 && refused < 60) {
    t.is(limited.error, 'Unauthorized');
    refused += 1;
    limited = await refusal(app, refused % 2 ? 'nonsense' : undefined);
  }
  t.true(refused >= 30, `refused ${refused} before the limit`);
  t.like(limited, { statusCode: 429, error: 'Too Many Requests' });
  t.regex(String(limited.message), /failed authentications per minute from this address/);
  t.true(Number(limited.retryAfter) >= 1, JSON.stringify(limited));
  const rest = await app.request('/api/v1/account', { headers: { Authorization: 'Bearer nonsense' } });
  t.is(rest.status, 429, 'REST shares the budget');
  await rest.body?.cancel();

  const viewer = await open(t, app, owner.accessToken);
  t.true(viewer.socket.connected);
});

test('sockets are capped per credential (20) and per user (40), across sessions and tokens; a closed socket frees its place', async (t) => {
  const app = await limitedApp(t);
  const owner = await signUp(app);
  // A budget large enough for the handshakes: the caps are what this test is about.
  await app.pool.query(sql.unsafe`UPDATE users SET tier = 'ENTERPRISE' WHERE id = ${owner.id}`);
  const clusterId = await createCluster(app, owner);
  const first = await createApiToken(app, owner, [clusterId]);
  const second = await createApiToken(app, owner, [clusterId]);
  const perCredential = CAPS.LIVE_SOCKETS_PER_CREDENTIAL.max;
  t.is(perCredential, 20);
  t.is(CAPS.LIVE_SOCKETS_PER_USER.max, 40);

  const firsts: LiveViewer[] = [];
  for (let index = 0; index < perCredential; index += 1) firsts.push(await open(t, app, first.token));
  const overToken = await refusal(app, first.token);
  t.like(overToken, { statusCode: 429, error: 'Too Many Requests' });
  t.regex(String(overToken.message), /At most 20 open \/live connections per API token/);

  for (let index = 0; index < perCredential; index += 1) await open(t, app, second.token);
  const overUser = await refusal(app, owner.accessToken);
  t.like(overUser, { statusCode: 429, error: 'Too Many Requests' });
  t.regex(String(overUser.message), /At most 40 open \/live connections per user/);

  firsts.pop()!.close();
  let session: LiveViewer | undefined;
  await until(async () => {
    session = await connectViewer(app.url, owner.accessToken).catch(() => undefined);
    return session !== undefined;
  }, 'a place for the session once a socket closed');
  t.teardown(() => session?.close());
  t.true(session!.socket.connected);

  // Every socket that goes away gives its place back (nothing is left counted).
  for (const viewer of firsts) viewer.close();
  session!.close();
  const limiter = app.deps.rateLimiter as MemoryLimiter;
  const [firstSlot] = socketSlots({
    kind: 'TOKEN',
    tokenId: first.id,
    tokenName: '',
    clusterIds: new Set(),
    user: { id: owner.id, email: '', displayName: '', tier: 'ENTERPRISE' },
  });
  await until(async () => limiter.held(firstSlot!) === 0, 'the first token to hold no socket');
  t.is(limiter.held({ key: `user:${owner.id}`, cap: CAPS.LIVE_SOCKETS_PER_USER, what: '' }), perCredential);
});

test('a token revoked or a session ended after the handshake cannot subscribe or send a command: 401 at once, then the socket is let go', async (t) => {
  const app = await limitedApp(t);
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const token = await createApiToken(app, owner, [clusterId]);
  const subscriber = await open(t, app, token.token);
  const commander = await open(t, app, token.token);
  t.deepEqual(await subscriber.request('subscribe', { clusterId }), { ok: true });

  const revoked = await app.request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: owner.auth });
  t.true(revoked.ok);
  const subscribe = await subscriber.request('subscribe', { clusterId, types: ['server.status'] });
  t.like(subscribe, { ok: false, statusCode: 401 });
  t.like(await commander.request('console:command', { serverId: A_SERVER, command: 'status' }), { ok: false, statusCode: 401 });
  t.regex(String((await subscriber.notice('auth:expired')).message), /Invalid API token/);
  t.is(await subscriber.disconnected, 'io server disconnect');
  t.is(await commander.disconnected, 'io server disconnect');

  const session = await open(t, app, owner.accessToken);
  const signedOut = await app.request('/api/v1/auth/logout', { method: 'POST', headers: owner.auth });
  t.is(signedOut.status, 200);
  t.like(await session.request('subscribe', { clusterId }), { ok: false, statusCode: 401, message: 'This session has ended; sign in again' });
  t.is(await session.disconnected, 'io server disconnect');
});
