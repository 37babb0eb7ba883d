/**
 * Sign-in with Steam (OpenID 2.0) and Discord (OAuth 2), served at `/auth/...` and `/api/v1/auth/...` (docs/api.md).
 *
 * `GET /auth/<provider>` answers 302 to the provider with a signed `state` (identity/oauthState.ts). Sent with a
 * bearer token, it starts a link: the provider account is attached to that user. `GET /auth/<provider>/callback`
 * verifies the state and the provider's answer, then signs in the user with that provider account, links it, or
 * creates a user (under the same registration policy as /auth/register), and answers a token pair: as JSON, or with
 * OAUTH_REDIRECT_URL set, as a 302 to it with the pair in the fragment.
 *
 * Providers send their users back to `${PUBLIC_URL}/auth/<provider>/callback`; Discord needs that exact address
 * registered as a redirect URI of the application.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { tokenPair, type TokenPair, type User } from '../../schema/identity.ts';
import { registrationOpen } from '../identity/users.ts';
import { joinByInvitation, pendingInvitation, pendingInvitationById } from '../identity/invitations.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { createAuthenticator } from '../identity/principal.ts';
import { DASHBOARD_NONCE, oauthStateFor, STATE_TTL_MS, type OAuthProvider, type StateClaims } from '../identity/oauthState.ts';
import { createProviderUser, findUserByProviderAccount, linkProviderAccount, PROVIDER_NAMES, type ProviderAccount } from '../identity/oauthAccounts.ts';
import { createSteamOpenId } from '../identity/oauth/steam.ts';
import { createDiscordOAuth, verifiedEmailOf } from '../identity/oauth/discord.ts';
import { signIn } from './auth.ts';
import { originOf } from '../identity/origin.ts';
import { actingAs } from '../../schema/origin.ts';

/** HttpOnly cookie holding the nonce of the sign-in this browser started. */
const STATE_COOKIE = 'gsm_oauth_state';

const paths = (suffix: string) => ({ path: `/api/v1/auth/${suffix}`, aliases: [`/auth/${suffix}`] });

const state = z.string().min(1, 'is required').max(1024);
const param = z.string().max(2048);
/** Steam sends many `openid.*` parameters: the ones used are declared, the rest are accepted as single strings. */
const steamCallbackQuery = z
  .object({
    state,
    'openid.ns': param.optional(),
    'openid.mode': param,
    'openid.op_endpoint': param.optional(),
    'openid.claimed_id': param.optional(),
    'openid.identity': param.optional(),
    'openid.return_to': param.optional(),
    'openid.response_nonce': param.optional(),
    'openid.assoc_handle': param.optional(),
    'openid.signed': param.optional(),
    'openid.sig': param.optional(),
  })
  .catchall(param);
const discordCallbackQuery = z
  .object({ state, code: z.string().min(1).max(512).optional(), error: param.optional(), error_description: param.optional() })
  .catchall(param);

/**
 * A sign-in started from an invitation page joins that cluster (and may create the account). The invitation's secret
 * travels in a POST body, never in a URL (where browser history, proxies and access logs would keep it).
 */
const startBody = z
  .object({
    invitation: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "An invitation's token: the sign-in joins its cluster, creating the account if needed." }),
    dashboard: z.string().regex(DASHBOARD_NONCE, 'Use 16 to 64 letters, digits, - or _').optional().meta({
      description:
        'Started from this installation’s dashboard: a random value the page keeps. The callback returns to the dashboard (`/#accessToken=…&nonce=<this value>`), which accepts the pair only with its own value, so a link carrying someone else’s tokens cannot sign a browser in.',
      example: 'k3J9x0Qm2bV7nW1pZs8tYc',
    }),
  })
  .strict();
const startAnswer = z.object({ url: z.string().meta({ description: "The provider's sign-in page: send the browser there" }) }).meta({ id: 'OAuthStart' });
const INVITED =
  "With `invitation` (a pending invitation's token) the account joins that cluster with its role (a member already just signs in), and is created if needed whatever ALLOW_REGISTRATION says; the invitation must still be pending when the provider sends the user back.";

const startResponses = {
  302: { description: 'To the provider', headers: { Location: 'The provider sign-in page' } },
  401: { description: 'An Authorization header was sent (to link an account) but its token is not valid' },
};
const postStartResponses = {
  200: { description: "The provider's sign-in page", schema: startAnswer },
  401: startResponses[401],
  404: { description: 'No invitation has this token' },
  409: { description: 'The invitation is no longer pending' },
};
const callbackResponses = {
  200: { description: 'Signed in (OAUTH_REDIRECT_URL unset)', schema: tokenPair },
  302: {
    description: 'Signed in (OAUTH_REDIRECT_URL set)',
    headers: { Location: 'OAUTH_REDIRECT_URL#accessToken=…&refreshToken=…&tokenType=Bearer&expiresIn=86400' },
  },
  400: { description: 'Missing, malformed, expired or foreign `state`' },
  401: { description: 'The provider did not confirm the sign-in' },
  403: { description: 'No user has this provider account and registration is closed' },
  409: { description: 'Linking: the provider account belongs to another user' },
  503: { description: 'The provider could not be reached' },
};

export function installOAuthRoutes(api: Api, deps: AppDeps) {
  const { pool, accessTokens, config } = deps;
  const authenticator = createAuthenticator(deps);
  const states = oauthStateFor(accessTokens);
  const steam = createSteamOpenId(config.STEAM_OPENID_URL);
  const discord = createDiscordOAuth(config);
  const callbackUrl = (provider: OAuthProvider) => `${config.publicUrl}/auth/${provider}/callback`;

  /**
   * The state of a new flow; with a bearer token it links to that user (a bad token is a 401). Only a session may
   * link: an API token is limited to some clusters, and linking would hand out an unscoped session for its user.
   */
  async function newState(ctx: Context, provider: OAuthProvider, invitationToken: string | undefined, dashboard?: string): Promise<string> {
    const authorization = ctx.get('Authorization');
    const principal = authorization ? (await authenticator.resolve(authorization)).principal : null;
    if (principal && principal.kind !== 'USER') throw forbidden('Link accounts while signed in with a session; API tokens cannot link accounts');
    const link = principal?.user.id ?? null;
    // Started from an invitation page: the invitation must be pending now, and again when the sign-in comes back.
    const invitation = invitationToken === undefined ? null : (await pool.transaction((tx) => pendingInvitation(tx, invitationToken))).id;
    ctx.set('Cache-Control', 'no-store');
    const state = states.issue({ provider, link, invitation, dashboard });
    // Binds the flow to this browser: the callback must come back with the same nonce in this cookie, so a state
    // started by someone else (for example to link *their* user to the victim's Steam account) is refused.
    ctx.cookies.set(STATE_COOKIE, states.verify(state, provider)!.nonce, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      maxAge: STATE_TTL_MS,
      overwrite: true,
    });
    return state;
  }

  function verifiedState(ctx: Context, value: string, provider: OAuthProvider): StateClaims {
    const claims = states.verify(value, provider);
    if (!claims)
      throw badRequest(`Invalid or expired ${PROVIDER_NAMES[provider]} sign-in; start again`, [
        { field: 'state', message: 'invalid, expired or not issued for this provider' },
      ]);
    // Compared as bytes: a cookie with characters outside ASCII has more bytes than characters (timingSafeEqual throws on
    // buffers of different lengths).
    const cookie = Buffer.from(ctx.cookies.get(STATE_COOKIE) ?? '');
    const nonce = Buffer.from(claims.nonce);
    if (cookie.length !== nonce.length || !timingSafeEqual(cookie, nonce)) {
      throw badRequest(`This ${PROVIDER_NAMES[provider]} sign-in was not started in this browser; start again`, [
        { field: 'state', message: 'not started in this browser' },
      ]);
    }
    return claims;
  }

  /** The user `account` signs in as: linked to `link`, found by the account, or created (registration policy permitting). */
  async function userFor(
    tx: CommonQueryMethods,
    account: ProviderAccount,
    link: string | null,
    invited: boolean,
  ): Promise<{ user: User; action: 'user.register' | 'user.link' | null }> {
    if (link) {
      const { user, changed } = await linkProviderAccount(tx, link, account);
      return { user, action: changed ? 'user.link' : null };
    }
    const known = await findUserByProviderAccount(tx, account);
    if (known) return { user: known, action: null };
    // An invitation is permission to create the account, whatever ALLOW_REGISTRATION says.
    const open = await registrationOpen(tx, config.ALLOW_REGISTRATION);
    const raced = await findUserByProviderAccount(tx, account);
    if (raced) return { user: raced, action: null };
    if (!open && !invited)
      throw forbidden(`No account is linked to this ${PROVIDER_NAMES[account.provider]} account and registration is closed on this installation`);
    return { user: await createProviderUser(tx, account, config.DEFAULT_TIER), action: 'user.register' };
  }

  /** Signs in, links or creates the user of `account` in one transaction, then answers the token pair. */
  async function finish(ctx: Context, account: ProviderAccount, claims: StateClaims): Promise<TokenPair | undefined> {
    const pair = await pool.transaction(async (tx) => {
      const invitation = claims.invitation ? await pendingInvitationById(tx, claims.invitation) : null;
      const { user, action } = await userFor(tx, account, claims.link, invitation !== null);
      const origin = actingAs(originOf(ctx), { kind: 'USER', id: user.id, name: user.displayName });
      if (action) await recordAudit(tx, origin, { clusterId: null, action, target: { type: 'user', id: user.id } });
      if (invitation) {
        // Someone who is a member already (an invitation sent twice, or to a second address) simply signs in.
        await joinByInvitation(tx, invitation, user, { matchEmail: false, memberMaySignIn: true });
        await recordAudit(tx, origin, { clusterId: invitation.clusterId, action: 'invitation.accept', target: { type: 'invitation', id: invitation.id } });
      }
      return signIn(tx, ctx, accessTokens, user);
    });
    ctx.set('Cache-Control', 'no-store');
    // Spent: even the browser that started this flow cannot complete it a second time.
    ctx.cookies.set(STATE_COOKIE, null, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.secure });
    // Back to the dashboard that started the flow, or to the configured page, with the pair in the fragment.
    const returnTo = claims.dashboard ? `${config.publicUrl}/` : config.OAUTH_REDIRECT_URL;
    if (!returnTo) return pair;
    const target = new URL(returnTo);
    target.hash = new URLSearchParams({ ...pair, expiresIn: String(pair.expiresIn), ...(claims.dashboard ? { nonce: claims.dashboard } : {}) }).toString();
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.redirect(target.toString());
    return undefined;
  }

  api.route({
    method: 'get',
    ...paths('steam'),
    summary: 'Sign in with Steam',
    description:
      'Redirects to Steam (OpenID 2.0). With a bearer token, the Steam account is linked to that user instead. From an invitation, use `POST /auth/steam/start`.',
    tags: ['Auth'],
    auth: 'signin',
    responses: startResponses,
    handler: async (ctx) => ctx.redirect(await steamUrl(ctx, undefined)),
  });

  const steamUrl = async (ctx: Context, invitation: string | undefined, dashboard?: string) =>
    steam.authorizeUrl(`${callbackUrl('steam')}?state=${await newState(ctx, 'steam', invitation, dashboard)}`, `${config.publicUrl}/`);

  api.route({
    method: 'post',
    ...paths('steam/start'),
    summary: 'Start a Steam sign-in (from an invitation)',
    description: `Answers the Steam sign-in page to send the browser to (and sets the flow's cookie), as \`GET /auth/steam\` redirects there. ${INVITED}`,
    tags: ['Auth'],
    auth: 'signin',
    body: startBody,
    responses: postStartResponses,
    handler: async (ctx, { body }) => ({ url: await steamUrl(ctx, body.invitation, body.dashboard) }),
  });

  api.route({
    method: 'get',
    ...paths('steam/callback'),
    summary: 'Steam sign-in callback',
    description: 'Where Steam sends the user back. The assertion is confirmed with Steam (check_authentication) before it is trusted.',
    tags: ['Auth'],
    auth: 'signin',
    query: steamCallbackQuery,
    responses: callbackResponses,
    handler: async (ctx, { query }) => {
      const claims = verifiedState(ctx, query.state, 'steam');
      const steamId = await steam.verify(query, `${callbackUrl('steam')}?state=${query.state}`);
      return finish(ctx, { provider: 'steam', id: steamId, displayName: `Steam ${steamId}`, verifiedEmail: null }, claims);
    },
  });

  const discordOrNotFound = () => {
    if (!discord) throw notFound('Discord sign-in is not configured on this installation (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET)');
    return discord;
  };

  api.route({
    method: 'get',
    ...paths('discord'),
    summary: 'Sign in with Discord',
    description:
      'Redirects to Discord (OAuth 2, scopes `identify email`). With a bearer token, the Discord account is linked to that user instead. 404 until the installation configures Discord. From an invitation, use `POST /auth/discord/start`.',
    tags: ['Auth'],
    auth: 'signin',
    responses: { ...startResponses, 404: { description: 'Discord sign-in is not configured' } },
    handler: async (ctx) => ctx.redirect(await discordUrl(ctx, undefined)),
  });

  const discordUrl = async (ctx: Context, invitation: string | undefined, dashboard?: string) => {
    const provider = discordOrNotFound();
    return provider.authorizeUrl(callbackUrl('discord'), await newState(ctx, 'discord', invitation, dashboard));
  };

  api.route({
    method: 'post',
    ...paths('discord/start'),
    summary: 'Start a Discord sign-in (from an invitation)',
    description: `Answers the Discord sign-in page to send the browser to (and sets the flow's cookie), as \`GET /auth/discord\` redirects there. 404 until the installation configures Discord. ${INVITED}`,
    tags: ['Auth'],
    auth: 'signin',
    body: startBody,
    responses: { ...postStartResponses, 404: { description: 'Discord sign-in is not configured, or no invitation has this token' } },
    handler: async (ctx, { body }) => ({ url: await discordUrl(ctx, body.invitation, body.dashboard) }),
  });

  api.route({
    method: 'get',
    ...paths('discord/callback'),
    summary: 'Discord sign-in callback',
    description: 'Where Discord sends the user back: the code is exchanged for the Discord user.',
    tags: ['Auth'],
    auth: 'signin',
    query: discordCallbackQuery,
    responses: { ...callbackResponses, 404: { description: 'Discord sign-in is not configured' } },
    handler: async (ctx, { query }) => {
      const provider = discordOrNotFound();
      const claims = verifiedState(ctx, query.state, 'discord');
      if (query.error) throw unauthorized(query.error === 'access_denied' ? 'Discord sign-in was cancelled' : `Discord sign-in failed (${query.error})`);
      if (!query.code) throw badRequest('Validation failed', [{ field: 'code', message: 'is required' }]);
      const user = await provider.userFromCode(query.code, callbackUrl('discord'));
      return finish(ctx, { provider: 'discord', id: user.id, displayName: user.global_name || user.username, verifiedEmail: verifiedEmailOf(user) }, claims);
    },
  });
}
