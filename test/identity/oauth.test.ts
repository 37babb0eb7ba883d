import test from 'ava';
import { randomBytes } from 'node:crypto';
import { sql } from 'slonik';
import { z } from 'zod';
import { installOAuthRoutes } from '../../api/routes/oauth.ts';
import { openApiDocument } from '../../api/routes/docs.ts';
import { OAuthState, oauthStateFor } from '../../api/identity/oauthState.ts';
import { createSteamOpenId } from '../../api/identity/oauth/steam.ts';
import { createDiscordOAuth } from '../../api/identity/oauth/discord.ts';
import { loadConfig } from '../../schema/config.ts';
import { createUser } from '../../api/identity/users.ts';
import { startOAuthProvider } from '../support/oauthProvider.ts';
import { bearer, callbackUrl, get, location, PUBLIC_URL, rememberStateCookie, signIn, stateCookie } from '../support/oauthFlow.ts';
import { body as read, json, useTestApp, type TestApp } from '../support/app.ts';

const provider = await startOAuthProvider();
test.after.always(() => provider.close());

const FRONTEND = 'http://frontend.test/signed-in';
const LINKED_STEAM_ID = '76561197000000001';

/** Until api/app.ts installs the OAuth routes itself; harmless afterwards. */
const withOAuthRoutes = ({ api, deps }: TestApp) => {
  if (!api.routes.some((route) => route.path === '/api/v1/auth/steam')) installOAuthRoutes(api, deps);
};

const open = useTestApp(test, {
  env: { ...provider.env, PUBLIC_URL, ALLOW_REGISTRATION: 'true' },
  setup: withOAuthRoutes,
});
/** Registration closed (a user exists, ALLOW_REGISTRATION unset), redirect mode, Discord not configured. */
const closed = useTestApp(test, {
  env: { STEAM_OPENID_URL: provider.env.STEAM_OPENID_URL!, PUBLIC_URL, OAUTH_REDIRECT_URL: `${FRONTEND}#stale` },
  setup: async (app) => {
    withOAuthRoutes(app);
    await createUser(app.pool, { email: 'admin@example.com', displayName: 'Admin', password: 'correct horse', steamId: LINKED_STEAM_ID, tier: 'FREE' });
  },
});

let sequence = 0;
const newSteamId = () => `76561198${String(++sequence).padStart(9, '0')}`;
const newDiscordUser = (extra: { email?: string | null; verified?: boolean; global_name?: string } = {}) => {
  const id = String(300000000000000000n + BigInt(++sequence));
  const user = { id, username: `user${id.slice(-4)}`, global_name: `Disco ${id.slice(-4)}`, email: `d${id}@example.com`, verified: true, ...extra };
  provider.addDiscordUser(user);
  return user;
};

const account = async (app: TestApp, accessToken: string) => read(await app.request('/api/v1/account', { headers: bearer(accessToken) }));
const register = async (app: TestApp, name: string) =>
  read(await app.request('/auth/register', json({ email: `${name}-${++sequence}@example.com`, password: 'long enough secret', displayName: name })));
const usersWith = (app: TestApp, column: 'steam_id' | 'discord_id', id: string) =>
  app.pool.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM users WHERE ${sql.identifier([column])} = ${id}`);
const auditActions = (app: TestApp, userId: string) =>
  app.pool.anyFirst(sql.type(z.object({ action: z.string() }))`SELECT action FROM audit_log WHERE actor_id = ${userId} ORDER BY at, id`);

test('the Steam start redirects to the OpenID endpoint with a signed state', async (t) => {
  for (const path of ['/auth/steam', '/api/v1/auth/steam']) {
    const response = await open().request(path, { redirect: 'manual' });
    t.is(response.status, 302, path);
    t.is(response.headers.get('cache-control'), 'no-store');
    const target = new URL(location(response));
    t.is(`${target.origin}${target.pathname}`, provider.env.STEAM_OPENID_URL);
    t.is(target.searchParams.get('openid.mode'), 'checkid_setup');
    t.is(target.searchParams.get('openid.ns'), 'http://specs.openid.net/auth/2.0');
    t.is(target.searchParams.get('openid.claimed_id'), 'http://specs.openid.net/auth/2.0/identifier_select');
    t.is(target.searchParams.get('openid.realm'), `${PUBLIC_URL}/`);
    t.regex(target.searchParams.get('openid.return_to')!, /^http:\/\/gsm\.test\/auth\/steam\/callback\?state=[\w-]+\.[\w-]{43}$/);
  }
});

test('Steam sign-in creates a user with a working token pair; the next sign-in finds the same user', async (t) => {
  const steamId = newSteamId();
  const first = await signIn(open(), 'steam', steamId);
  t.is(first.status, 200);
  t.is(first.headers.get('cache-control'), 'no-store');
  const pair = await read(first);
  t.deepEqual(Object.keys(pair).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'tokenType']);
  t.like(pair, { tokenType: 'Bearer', expiresIn: 86400 });
  const user = await account(open(), pair.accessToken);
  t.like(user, { steamId, discordId: null, email: `steam-${steamId}@users.invalid`, displayName: `Steam ${steamId}`, tier: 'FREE' });
  t.deepEqual((await auditActions(open(), user.id)).toSorted(), ['session.create', 'user.register']);

  const refreshed = await open().request('/auth/refresh', json({ refreshToken: pair.refreshToken }));
  t.is(refreshed.status, 200);

  const second = await signIn(open(), 'steam', steamId);
  t.is(second.status, 200);
  t.is((await account(open(), (await read(second)).accessToken)).id, user.id);
  t.is(await usersWith(open(), 'steam_id', steamId), 1);
});

test('a forged, tampered, foreign, replayed or cancelled Steam assertion is 401 and creates nothing', async (t) => {
  const genuine = new URL(await callbackUrl(open(), 'steam', newSteamId()));
  const victim = newSteamId();
  const claimed = `https://steamcommunity.com/openid/id/${victim}`;

  const tampered = new URL(genuine);
  tampered.searchParams.set('openid.claimed_id', claimed);
  tampered.searchParams.set('openid.identity', claimed);
  const forged = new URL(genuine);
  for (const [key, value] of Object.entries({
    'openid.claimed_id': claimed,
    'openid.identity': claimed,
    'openid.response_nonce': '2026-01-01T00:00:00Zabc',
    'openid.sig': randomBytes(32).toString('base64'),
  })) {
    forged.searchParams.set(key, value);
  }
  for (const url of [tampered, forged]) {
    const response = await get(open(), url.toString());
    t.is(response.status, 401, url.toString());
    t.like(await read(response), { statusCode: 401, error: 'Unauthorized', message: 'Steam did not confirm the sign-in' });
  }
  t.is(provider.steamChecks(victim), 2, 'the service asked the provider both times');
  t.is(await usersWith(open(), 'steam_id', victim), 0);

  const foreign = new URL(genuine);
  foreign.searchParams.set('openid.op_endpoint', 'https://evil.example/openid/login');
  const unsigned = new URL(genuine);
  unsigned.searchParams.set('openid.signed', 'claimed_id,identity');
  const otherReturn = new URL(genuine);
  otherReturn.searchParams.set('openid.return_to', 'http://evil.example/auth/steam/callback');
  for (const url of [foreign, unsigned, otherReturn]) t.is((await get(open(), url.toString())).status, 401, url.toString());
  const replayCookie = stateCookie(genuine.toString());

  t.is((await get(open(), genuine.toString())).status, 200, 'the untouched assertion still works once');
  t.is((await get(open(), genuine.toString())).status, 400, "a replay: the browser's state cookie was spent by the sign-in");
  const replayWithOldCookie = await fetch(genuine, { redirect: 'manual', headers: { cookie: replayCookie } });
  t.is(replayWithOldCookie.status, 401, 'with the old cookie kept back, the provider refuses the reused nonce');

  const cancelled = await get(open(), await callbackUrl(open(), 'steam', newSteamId(), {}, { deny: '1' }));
  t.is(cancelled.status, 401);
  t.is((await read(cancelled)).message, 'Steam sign-in was cancelled');
});

test('a missing, malformed, tampered, expired, foreign-key or other-provider state is 400', async (t) => {
  const genuine = new URL(await callbackUrl(open(), 'steam', newSteamId()));
  const state = genuine.searchParams.get('state')!;
  const discordStart = new URL(location(await open().request('/auth/discord', { redirect: 'manual' })));
  const [payload, signature] = state.split('.') as [string, string];
  const states = {
    missing: null,
    malformed: 'not-a-state',
    tampered: `${payload.slice(0, -2)}${payload.endsWith('AA') ? 'BB' : 'AA'}.${signature}`,
    expired: oauthStateFor(open().deps.accessTokens).issue({ provider: 'steam' }, Date.now() - 11 * 60_000),
    otherKey: new OAuthState(randomBytes(32)).issue({ provider: 'steam' }),
    discord: discordStart.searchParams.get('state')!,
  };
  for (const [name, value] of Object.entries(states)) {
    const url = new URL(genuine);
    if (value === null) url.searchParams.delete('state');
    else url.searchParams.set('state', value);
    const response = await get(open(), url.toString());
    t.is(response.status, 400, name);
    const answer = await read(response);
    t.is(answer.statusCode, 400, name);
    t.is(answer.details[0].field, 'state', name);
  }
  const steamStateAtDiscord = await open().request(`/auth/discord/callback?state=${state}&code=abc`);
  t.is(steamStateAtDiscord.status, 400);
  t.is((await get(open(), genuine.toString())).status, 200, 'the genuine state still works');
});

test('Discord sign-in creates the user with its verified e-mail and finds it again', async (t) => {
  const profile = newDiscordUser();
  const start = new URL(location(await open().request('/api/v1/auth/discord', { redirect: 'manual' })));
  t.is(`${start.origin}${start.pathname}`, provider.env.DISCORD_AUTHORIZE_URL);
  t.like(Object.fromEntries(start.searchParams), {
    client_id: 'test-client-id',
    response_type: 'code',
    scope: 'identify email',
    redirect_uri: `${PUBLIC_URL}/auth/discord/callback`,
  });

  const first = await signIn(open(), 'discord', profile.id);
  t.is(first.status, 200);
  const user = await account(open(), (await read(first)).accessToken);
  t.like(user, { discordId: profile.id, steamId: null, email: profile.email, displayName: profile.global_name });

  const second = await signIn(open(), 'discord', profile.id);
  t.is((await account(open(), (await read(second)).accessToken)).id, user.id);
});

test("a Discord name with line breaks becomes a one-line display name (the provider's names obey its rules, not ours)", async (t) => {
  const profile = newDiscordUser({ global_name: 'Disco\n\nYour account was suspended\u2028see https://evil.example' });
  const signedIn = await signIn(open(), 'discord', profile.id);
  t.is(signedIn.status, 200);
  const user = await account(open(), (await read(signedIn)).accessToken);
  t.is(user.displayName, 'Disco Your account was suspended see https://evil.example');
});

test('a Discord name loses its bidi and zero-width characters, and one with nothing visible left gives way to the id', async (t) => {
  const reordered = newDiscordUser({ global_name: 'Disco\u202Enimda\u202C\u200B\uFEFF' });
  const first = await signIn(open(), 'discord', reordered.id);
  t.is(first.status, 200);
  t.is((await account(open(), (await read(first)).accessToken)).displayName, 'Disconimda');

  const invisible = newDiscordUser({ global_name: '\u200B\u2066 \u3000\u2069\u00AD' });
  const second = await signIn(open(), 'discord', invisible.id);
  t.is(second.status, 200);
  t.is((await account(open(), (await read(second)).accessToken)).displayName, `Discord ${invisible.id}`);
});

test('Discord: an unverified or already used e-mail gives a placeholder address', async (t) => {
  const unverified = newDiscordUser({ verified: false });
  const taken = newDiscordUser({ email: (await account(open(), (await register(open(), 'taken')).accessToken)).email.toUpperCase() });
  for (const profile of [unverified, taken]) {
    const response = await signIn(open(), 'discord', profile.id);
    t.is(response.status, 200);
    t.is((await account(open(), (await read(response)).accessToken)).email, `discord-${profile.id}@users.invalid`);
  }
});

test('a callback without the cookie of the browser that started it is refused, so nobody can link or sign in through a flow someone else started', async (t) => {
  const { accessToken } = await register(open(), 'csrf-attacker');
  // The attacker starts a link with their own token and sends the callback URL to the victim, whose browser lacks the cookie.
  const url = await callbackUrl(open(), 'steam', newSteamId(), bearer(accessToken));
  const victim = await fetch(url, { redirect: 'manual' });
  t.is(victim.status, 400);
  t.deepEqual((await read(victim)).details, [{ field: 'state', message: 'not started in this browser' }]);
  // The browser that started it completes it once; its cookie is then spent.
  t.is((await get(open(), url)).status, 200);
  t.is((await get(open(), url)).status, 400);
});

test('Discord: an invalid code or a refusal is 401', async (t) => {
  const start = await open().request('/auth/discord', { redirect: 'manual' });
  rememberStateCookie(start, location(start));
  const state = new URL(location(start)).searchParams.get('state')!;
  const invalid = await get(open(), `/auth/discord/callback?state=${state}&code=not-a-code`);
  t.is(invalid.status, 401);
  t.is((await read(invalid)).message, 'Discord did not accept the sign-in code');
  const denied = await get(open(), await callbackUrl(open(), 'discord', 'nobody', {}, { deny: '1' }));
  t.is(denied.status, 401);
  t.is((await read(denied)).message, 'Discord sign-in was cancelled');
  const noCode = await get(open(), `/auth/discord/callback?state=${state}`);
  t.is(noCode.status, 400);
});

test('a signed-in user links Steam and Discord accounts', async (t) => {
  const { accessToken, user } = await register(open(), 'linker');
  const steamId = newSteamId();
  const linked = await signIn(open(), 'steam', steamId, bearer(accessToken));
  t.is(linked.status, 200);
  t.is((await account(open(), (await read(linked)).accessToken)).id, user.id);
  const profile = newDiscordUser();
  t.is((await signIn(open(), 'discord', profile.id, bearer(accessToken))).status, 200);
  t.like(await account(open(), accessToken), { id: user.id, steamId, discordId: profile.id, email: user.email });
  t.deepEqual(
    (await auditActions(open(), user.id)).filter((action) => action === 'user.link'),
    ['user.link', 'user.link'],
  );

  const again = await signIn(open(), 'steam', steamId);
  t.is((await account(open(), (await read(again)).accessToken)).id, user.id, 'later Steam sign-ins reach the same user');

  // A linked account is never silently replaced by another one.
  const replaced = await signIn(open(), 'steam', newSteamId(), bearer(accessToken));
  t.is(replaced.status, 409);
  t.is((await account(open(), accessToken)).steamId, steamId);
});

test('an API token cannot start a link (it would turn a scoped token into an unscoped session)', async (t) => {
  const { accessToken } = await register(open(), 'scoped');
  const cluster = await read(await open().request('/api/v1/clusters', json({ name: 'c' }, { headers: bearer(accessToken) })));
  const created = await read(await open().request('/api/v1/account/tokens', json({ name: 't', clusterIds: [cluster.id] }, { headers: bearer(accessToken) })));
  const start = await open().request('/auth/steam', { redirect: 'manual', headers: bearer(created.token) });
  t.is(start.status, 403);
});

test('linking an account that belongs to another user is 409; a bad bearer on the start is 401', async (t) => {
  const steamId = newSteamId();
  t.is((await signIn(open(), 'steam', steamId)).status, 200);
  const { accessToken } = await register(open(), 'latecomer');
  const response = await signIn(open(), 'steam', steamId, bearer(accessToken));
  t.is(response.status, 409);
  t.like(await read(response), { statusCode: 409, message: 'This Steam account is already linked to another user' });
  t.is((await account(open(), accessToken)).steamId, null);

  const bad = await open().request('/auth/steam', { redirect: 'manual', headers: bearer('v4.local.forged') });
  t.is(bad.status, 401);
});

test('registration closed: a new provider account is 403, a linked one signs in, redirected with the pair in the fragment', async (t) => {
  const response = await signIn(closed(), 'steam', LINKED_STEAM_ID);
  t.is(response.status, 302);
  const target = new URL(location(response));
  t.is(`${target.origin}${target.pathname}`, FRONTEND);
  const fragment = new URLSearchParams(target.hash.slice(1));
  t.deepEqual([...fragment.keys()], ['accessToken', 'refreshToken', 'tokenType', 'expiresIn']);
  t.is(fragment.get('tokenType'), 'Bearer');
  t.is(fragment.get('expiresIn'), '86400');
  t.like(await account(closed(), fragment.get('accessToken')!), { email: 'admin@example.com', steamId: LINKED_STEAM_ID });

  const stranger = newSteamId();
  const refused = await signIn(closed(), 'steam', stranger);
  t.is(refused.status, 403);
  t.regex((await read(refused)).message, /registration is closed/);
  t.is(await usersWith(closed(), 'steam_id', stranger), 0);
});

test('a sign-in started from the dashboard comes back to the dashboard with the pair and the tab’s value in the fragment (OAUTH_REDIRECT_URL or not)', async (t) => {
  const nonce = 'tab-value_0123456789';
  for (const app of [open(), closed()]) {
    const start = await app.request('/auth/steam/start', json({ dashboard: nonce }));
    t.is(start.status, 200);
    const atProvider = new URL(((await start.json()) as { url: string }).url);
    rememberStateCookie(start, atProvider.toString());
    atProvider.searchParams.set('as', app === open() ? newSteamId() : LINKED_STEAM_ID);
    const response = await get(app, location(await fetch(atProvider, { redirect: 'manual' })));
    const target = new URL(location(response));
    t.is(`${target.origin}${target.pathname}`, `${PUBLIC_URL}/`, 'the dashboard, not the configured page');
    const fragment = new URLSearchParams(target.hash.slice(1));
    t.truthy(fragment.get('accessToken'));
    t.is(fragment.get('nonce'), nonce, 'the dashboard accepts the pair only with the value its tab keeps');
    t.is((await account(app, fragment.get('accessToken')!)).steamId !== undefined, true);
  }
  for (const bad of ['short', true, 'x'.repeat(65), 'has spaces in it, sixteen+'])
    t.is((await open().request('/auth/steam/start', json({ dashboard: bad }))).status, 400, String(bad));
});

test('Discord sign-in is 404 while the installation has not configured it', async (t) => {
  for (const path of ['/auth/discord', '/api/v1/auth/discord/callback?state=x&code=y']) {
    const response = await closed().request(path, { redirect: 'manual' });
    t.is(response.status, 404, path);
    t.regex((await read(response)).message, /Discord sign-in is not configured/);
  }
});

test('the OpenAPI document lists the sign-in routes', (t) => {
  const document = openApiDocument(open().api, open().deps);
  for (const path of ['/auth/steam', '/api/v1/auth/steam/callback', '/auth/discord', '/api/v1/auth/discord/callback'])
    t.truthy(document.paths[path]?.get, path);
});

test('a provider that cannot be reached is 503, not a failed sign-in', async (t) => {
  const endpoint = 'http://127.0.0.1:1/openid/login';
  const returnTo = 'http://gsm.test/auth/steam/callback?state=s';
  const claimed = 'https://steamcommunity.com/openid/id/76561197960287930';
  const assertion = {
    'openid.ns': 'http://specs.openid.net/auth/2.0',
    'openid.mode': 'id_res',
    'openid.op_endpoint': endpoint,
    'openid.claimed_id': claimed,
    'openid.identity': claimed,
    'openid.return_to': returnTo,
    'openid.response_nonce': 'n',
    'openid.assoc_handle': '1',
    'openid.signed': 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
    'openid.sig': 'x',
  };
  await t.throwsAsync(createSteamOpenId(endpoint).verify(assertion, returnTo), { message: /Steam could not be reached/ });
  const discord = createDiscordOAuth(loadConfig({ DISCORD_CLIENT_ID: 'a', DISCORD_CLIENT_SECRET: 'b', DISCORD_TOKEN_URL: 'http://127.0.0.1:1/token' }))!;
  const error = await t.throwsAsync(discord.userFromCode('code', returnTo));
  t.is((error as unknown as { status: number }).status, 503);
});

test('a callback whose state cookie holds characters outside ASCII is refused as not started here, never a 500', async (t) => {
  const { accessToken } = await register(open(), 'odd-cookie');
  const url = await callbackUrl(open(), 'steam', newSteamId(), bearer(accessToken));
  // As many characters as the nonce (16 random bytes, base64url: 22), each two bytes in UTF-8.
  const response = await fetch(url, { redirect: 'manual', headers: { cookie: `gsm_oauth_state=${'\u00e9'.repeat(22)}` } });
  t.is(response.status, 400);
  t.deepEqual((await read(response)).details, [{ field: 'state', message: 'not started in this browser' }]);
});
