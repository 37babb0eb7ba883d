/**
 * Drives sign-in flows the way a browser would, one redirect at a time (`redirect: 'manual'`). Apps under test are
 * configured with PUBLIC_URL; these helpers play the reverse proxy and map that origin to the app's real address.
 */
import type { TestApp } from './app.ts';

/** The public origin the apps under test believe they have. */
export const PUBLIC_URL = 'http://gsm.test';

export type Provider = 'steam' | 'discord';
export const toApp = (app: TestApp, url: string) => (url.startsWith(`${PUBLIC_URL}/`) ? app.url + url.slice(PUBLIC_URL.length) : url);
export const get = (app: TestApp, url: string, headers: Record<string, string> = {}) => fetch(toApp(app, url), { redirect: 'manual', headers });
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function location(response: Response): string {
  if (response.status !== 302) throw new Error(`expected a redirect, got ${response.status}`);
  return response.headers.get('location')!;
}

/** Starts a flow and signs in at the provider as `as`; answers the callback URL the provider sends the user back to. */
export async function callbackUrl(app: TestApp, provider: Provider, as: string, headers: Record<string, string> = {}, extra: Record<string, string> = {}) {
  const atProvider = new URL(location(await app.request(`/auth/${provider}`, { redirect: 'manual', headers })));
  for (const [key, value] of Object.entries({ as, ...extra })) atProvider.searchParams.set(key, value);
  return toApp(app, location(await fetch(atProvider, { redirect: 'manual' })));
}
export const signIn = async (app: TestApp, provider: Provider, as: string, headers: Record<string, string> = {}) =>
  get(app, await callbackUrl(app, provider, as, headers));
