/**
 * Discord sign-in: the OAuth 2 authorization-code flow. The user is sent to Discord's authorize page; Discord sends
 * them back with a one-time `code`, which we exchange (with the application's credentials) for an access token and
 * read the user with it. Off until DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set.
 */
import { z } from 'zod';
import { AppError, unauthorized } from '../../../schema/errors.ts';
import type { Config } from '../../../schema/config.ts';

const TIMEOUT_MS = 10_000;
const SCOPE = 'identify email';

const tokenAnswer = z.object({ access_token: z.string().min(1), token_type: z.string().regex(/^bearer$/i) });

export const discordUser = z.object({
  id: z.string().regex(/^\d{1,20}$/, 'expected a Discord snowflake'),
  username: z.string().min(1),
  global_name: z.string().nullish(),
  email: z.string().nullish(),
  verified: z.boolean().nullish(),
});
export type DiscordUser = z.infer<typeof discordUser>;

const emailAddress = z.email().max(254);

/** The user's e-mail when Discord has verified it (and it looks like an address), else null. */
export const verifiedEmailOf = (user: DiscordUser): string | null =>
  user.verified === true && user.email && emailAddress.safeParse(user.email).success ? user.email.toLowerCase() : null;

export type DiscordOAuth = {
  authorizeUrl: (redirectUri: string, state: string) => string;
  /**
   * Exchanges `code` (received at `redirectUri`) and answers the Discord user. Throws a 401 AppError when Discord
   * refuses the code or the token, a 503 when Discord cannot be reached or answers nonsense.
   */
  userFromCode: (code: string, redirectUri: string) => Promise<DiscordUser>;
};

const unavailable = (cause: unknown) => new AppError(503, 'Discord could not be reached to complete the sign-in; try again', { cause });

/** Calls Discord: a 4xx is a refusal (401), anything else that is not a 2xx JSON answer is an outage (503). */
async function call<T>(url: string, init: RequestInit, schema: z.ZodType<T>, refusal: string): Promise<T> {
  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    payload = await response.json().catch(() => undefined);
  } catch (error) {
    throw unavailable(error);
  }
  if (response.status >= 400 && response.status < 500) throw unauthorized(refusal);
  const parsed = schema.safeParse(payload);
  if (!response.ok || !parsed.success) throw unavailable(new Error(`unexpected answer ${response.status} from ${url}`));
  return parsed.data;
}

export function createDiscordOAuth(config: Config): DiscordOAuth | null {
  const clientId = config.DISCORD_CLIENT_ID;
  const clientSecret = config.DISCORD_CLIENT_SECRET;
  if (!clientId || !clientSecret) return null;
  return {
    authorizeUrl(redirectUri, state) {
      const url = new URL(config.DISCORD_AUTHORIZE_URL);
      url.search = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: SCOPE, state }).toString();
      return url.toString();
    },

    async userFromCode(code, redirectUri) {
      const token = await call(
        config.DISCORD_TOKEN_URL,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            client_id: clientId,
            client_secret: clientSecret,
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
          }).toString(),
        },
        tokenAnswer,
        'Discord did not accept the sign-in code',
      );
      return call(
        config.DISCORD_USER_URL,
        { headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' } },
        discordUser,
        'Discord did not accept the access token',
      );
    },
  };
}
