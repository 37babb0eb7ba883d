/**
 * Drives sign-in flows the way a browser would, one redirect at a time (`redirect: 'manual'`). Apps under test are
 * configured with PUBLIC_URL; these helpers play the reverse proxy and map that origin to the app's real address.
 */
import { json, type TestApp } from './app.ts';

/** The public origin the apps under test believe they have. */
export const PUBLIC_URL = 'http://gsm.test';

export type Provider = 'steam' | 'discord';
export const toApp = (app: TestApp, url: string) => (url.startsWith(`${PUBLIC_URL}/`) ? app.url + url.slice(PUBLIC_URL.length) : url);
/**
 * The state cookie each started flow received, by its state value: `get` sends it back with a callback carrying that
 * state, as the browser that started the flow would.
 */
const stateCookies = new Map<string, string>();

export function rememberStateCookie(start: Response, location: string): void {
  const cookie = start.headers.get('set-cookie')?.split(';')[0];
  const state =
    new URL(location).searchParams.get('state') ?? new URL(new URL(location).searchParams.get('openid.return_to') ?? location).searchParams.get('state');
  if (cookie && state) stateCookies.set(state, cookie);
}

/** The cookie a browser holds for the flow of this callback URL's state. */
export const stateCookie = (url: string) => stateCookies.get(new URL(url).searchParams.get('state') ?? '') ?? '';

export async function get(app: TestApp, url: string, headers: Record<string, string> = {}) {
  const target = toApp(app, url.startsWith('/') ? `${app.url}${url}` : url);
  const state = new URL(target).searchParams.get('state');
  const cookie = state ? stateCookies.get(state) : undefined;
  const response = await fetch(target, { redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...headers } });
  // The server clears the cookie when it spends the state; a browser then no longer sends it.
  if (state && /(^|,\s*)gsm_oauth_state=;/.test(response.headers.get('set-cookie') ?? '')) stateCookies.delete(state);
  return response;
}
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function location(response: Response): string {
  if (response.status !== 302) throw new Error(`expected a redirect, got ${response.status}`);
  return response.headers.get('location')!;
}

/** Starts a flow and signs in at the provider as `as`; answers the callback URL the provider sends the user back to. */
export async function callbackUrl(
  app: TestApp,
  provider: Provider,
  as: string,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
  invitation?: string,
) {
  // From an invitation the flow starts with a POST (the secret in its body) that answers the provider's URL.
  const start = await app.request(
    `/auth/${provider}${invitation === undefined ? '' : '/start'}`,
    invitation === undefined ? { redirect: 'manual', headers } : json({ invitation }, { headers }),
  );
  if (invitation !== undefined && start.status !== 200) throw new Error(`start answered ${start.status}: ${await start.text()}`);
  const atProvider = new URL(invitation === undefined ? location(start) : ((await start.json()) as { url: string }).url);
  rememberStateCookie(start, atProvider.toString());
  for (const [key, value] of Object.entries({ as, ...extra })) atProvider.searchParams.set(key, value);
  return toApp(app, location(await fetch(atProvider, { redirect: 'manual' })));
}
export const signIn = async (app: TestApp, provider: Provider, as: string, headers: Record<string, string> = {}) =>
  get(app, await callbackUrl(app, provider, as, headers));
