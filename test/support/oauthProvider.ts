/**
 * A local identity provider for tests: a real HTTP server on 127.0.0.1 that behaves like Steam's OpenID 2.0
 * endpoint and Discord's OAuth 2 endpoints, so the sign-in flows run end to end with nothing mocked in the service.
 *
 * The "user at the provider" is chosen by the test: it appends `as=<id>` to the provider URL the service redirected
 * to (Steam: any SteamID64; Discord: a user added with `addDiscordUser`), or `deny=1` to cancel.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const OPENID_NS = 'http://specs.openid.net/auth/2.0';
const SIGNED = ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];

export type DiscordProfile = { id: string; username: string; global_name?: string | null; email?: string | null; verified?: boolean };

export type OAuthProvider = {
  url: string;
  /** Env for the app under test pointing every provider URL here. */
  env: Record<string, string>;
  addDiscordUser: (user: DiscordProfile) => void;
  /** check_authentication requests received for assertions naming `steamId`, for asserting the service asked. */
  steamChecks: (steamId: string) => number;
  close: () => Promise<void>;
};

export const DISCORD_CLIENT_ID = 'test-client-id';
export const DISCORD_CLIENT_SECRET = 'test-client-secret';

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const send = (response: ServerResponse, status: number, body: string, type = 'application/json') => {
  response.writeHead(status, { 'content-type': type });
  response.end(body);
};

const redirect = (response: ServerResponse, location: string) => {
  response.writeHead(302, { location });
  response.end();
};

export async function startOAuthProvider(): Promise<OAuthProvider> {
  const secret = randomBytes(32);
  const usedNonces = new Set<string>();
  const discordUsers = new Map<string, DiscordProfile>();
  const codes = new Map<string, { userId: string; redirectUri: string }>();
  const tokens = new Map<string, string>();
  const checks = new Map<string, number>();
  let base = '';

  const sign = (fields: URLSearchParams, names: string[]) =>
    createHmac('sha256', secret)
      .update(names.map((name) => `${name}:${fields.get(`openid.${name}`) ?? ''}\n`).join(''))
      .digest('base64');

  function steamLogin(url: URL, response: ServerResponse) {
    const query = url.searchParams;
    const returnTo = query.get('openid.return_to');
    if (query.get('openid.mode') !== 'checkid_setup' || query.get('openid.ns') !== OPENID_NS || !returnTo)
      return send(response, 400, 'bad request', 'text/plain');
    const back = new URL(returnTo);
    if (query.get('deny')) {
      back.searchParams.set('openid.ns', OPENID_NS);
      back.searchParams.set('openid.mode', 'cancel');
      return redirect(response, back.toString());
    }
    const steamId = query.get('as') ?? '76561197960287930';
    const claimed = `https://steamcommunity.com/openid/id/${steamId}`;
    const fields = new URLSearchParams({
      'openid.ns': OPENID_NS,
      'openid.mode': 'id_res',
      'openid.op_endpoint': `${base}/openid/login`,
      'openid.claimed_id': claimed,
      'openid.identity': claimed,
      'openid.return_to': returnTo,
      'openid.response_nonce': `${new Date().toISOString().slice(0, 19)}Z${randomBytes(6).toString('hex')}`,
      'openid.assoc_handle': '1234567890',
      'openid.signed': SIGNED.join(','),
    });
    fields.set('openid.sig', sign(fields, SIGNED));
    for (const [key, value] of fields) back.searchParams.set(key, value);
    redirect(response, back.toString());
  }

  /** Valid only for an assertion this provider signed, unaltered, checked for the first time. */
  function steamCheck(body: string, response: ServerResponse) {
    const fields = new URLSearchParams(body);
    const checked = (fields.get('openid.claimed_id') ?? '').split('/').pop() ?? '';
    checks.set(checked, (checks.get(checked) ?? 0) + 1);
    const names = (fields.get('openid.signed') ?? '').split(',');
    const presented = Buffer.from(fields.get('openid.sig') ?? '', 'base64');
    const expected = Buffer.from(sign(fields, names), 'base64');
    const nonce = fields.get('openid.response_nonce') ?? '';
    const valid =
      fields.get('openid.mode') === 'check_authentication' &&
      presented.length === expected.length &&
      timingSafeEqual(presented, expected) &&
      SIGNED.every((name) => names.includes(name)) &&
      !usedNonces.has(nonce);
    if (valid) usedNonces.add(nonce);
    send(response, 200, `ns:${OPENID_NS}\nis_valid:${valid}\n`, 'text/plain');
  }

  function discordAuthorize(url: URL, response: ServerResponse) {
    const query = url.searchParams;
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== DISCORD_CLIENT_ID || query.get('response_type') !== 'code' || !redirectUri)
      return send(response, 400, '{"error":"invalid_request"}');
    const back = new URL(redirectUri);
    back.searchParams.set('state', query.get('state') ?? '');
    const user = discordUsers.get(query.get('as') ?? '');
    if (query.get('deny') || !user) {
      back.searchParams.set('error', 'access_denied');
      return redirect(response, back.toString());
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, { userId: user.id, redirectUri });
    back.searchParams.set('code', code);
    redirect(response, back.toString());
  }

  function discordToken(body: string, response: ServerResponse) {
    const form = new URLSearchParams(body);
    const grant = codes.get(form.get('code') ?? '');
    if (form.get('client_id') !== DISCORD_CLIENT_ID || form.get('client_secret') !== DISCORD_CLIENT_SECRET)
      return send(response, 401, '{"error":"invalid_client"}');
    if (form.get('grant_type') !== 'authorization_code' || !grant || grant.redirectUri !== form.get('redirect_uri'))
      return send(response, 400, '{"error":"invalid_grant"}');
    codes.delete(form.get('code')!);
    const token = randomBytes(16).toString('hex');
    tokens.set(token, grant.userId);
    send(response, 200, JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 604800, refresh_token: 'r', scope: 'identify email' }));
  }

  function discordMe(request: IncomingMessage, response: ServerResponse) {
    const userId = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    const user = userId ? discordUsers.get(userId) : undefined;
    if (!user) return send(response, 401, '{"message":"401: Unauthorized","code":0}');
    send(response, 200, JSON.stringify(user));
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    const route = `${request.method} ${url.pathname}`;
    void (async () => {
      if (route === 'GET /openid/login') return steamLogin(url, response);
      if (route === 'POST /openid/login') return steamCheck(await readBody(request), response);
      if (route === 'GET /oauth2/authorize') return discordAuthorize(url, response);
      if (route === 'POST /api/oauth2/token') return discordToken(await readBody(request), response);
      if (route === 'GET /api/users/@me') return discordMe(request, response);
      send(response, 404, '{"message":"not found"}');
    })().catch(() => send(response, 500, '{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    env: {
      STEAM_OPENID_URL: `${base}/openid/login`,
      DISCORD_CLIENT_ID,
      DISCORD_CLIENT_SECRET,
      DISCORD_AUTHORIZE_URL: `${base}/oauth2/authorize`,
      DISCORD_TOKEN_URL: `${base}/api/oauth2/token`,
      DISCORD_USER_URL: `${base}/api/users/@me`,
    },
    addDiscordUser: (user) => discordUsers.set(user.id, user),
    steamChecks: (steamId) => checks.get(steamId) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
