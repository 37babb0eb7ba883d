/**
 * The signed-in user's account and user API tokens (`gsm_live_…`): created with a name, cluster scopes and an optional
 * expiry; the secret is shown once; revocation takes effect on the next request.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { forbidden, validationFailed } from '../../schema/errors.ts';
import type { Context } from 'koa';
import type { Api } from '../http/route.ts';
import { apiTokenCreated, apiTokenListItem, changePasswordBody, createTokenBody, user } from '../../schema/identity.ts';
import { id } from '../../schema/http.ts';
import { findUserById } from '../identity/users.ts';
import { hashPassword, verifyPassword } from '../../schema/passwords.ts';
import { principalOf } from '../identity/principal.ts';
import { createApiToken, listApiTokens, MAX_ACTIVE_TOKENS, revokeApiToken } from '../identity/apiTokens.ts';
import { changePassword, FIRST_PASSWORD_SIGN_IN_MINUTES, passwordChangeState } from '../identity/passwordChanges.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { originOf } from '../identity/origin.ts';
import { quoteName } from '../mail/quoteName.ts';
import { checkPasswordGuesses, spendPasswordGuess } from '../identity/passwordGuesses.ts';
import { spend } from '../middleware/rateLimit.ts';
import { BUCKETS } from '../rateLimit/tiers.ts';

/**
 * API tokens are managed from a session: a token limited to some clusters must not mint, list or revoke tokens that
 * reach further or outlive it. Nor may a token change the password that would let it sign in. `message` says which.
 */
function sessionOnly(ctx: Context, message: string) {
  const principal = principalOf(ctx);
  if (principal.kind !== 'USER') throw forbidden(message);
  return principal;
}

const TOKENS_FROM_SESSION = 'API tokens are managed while signed in with a session, not with an API token';

export function installAccountRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;

  api.route({
    method: 'get',
    path: '/api/v1/account',
    summary: 'The signed-in user',
    tags: ['Account'],
    auth: 'user',
    responses: { 200: { description: 'The user', schema: user } },
    handler: (ctx) => findUserById(pool, principalOf(ctx).user.id),
  });

  api.route({
    method: 'post',
    path: '/api/v1/account/password',
    summary: 'Change your password',
    description:
      "With a session (not an API token): `currentPassword` must be the account's password (a 400 on that field otherwise). " +
      `An account without a password (\`hasPassword: false\`, made with Steam or Discord) sets its first without one, from a session signed in within the last ${FIRST_PASSWORD_SIGN_IN_MINUTES} minutes (403 otherwise). ` +
      'Every other session of the account ends at once; this one goes on, and API tokens and linked Steam or Discord accounts stay. ' +
      "Each attempt spends the sign-in budget of the address, and a wrong password the account's budget of wrong passwords (429 past either). " +
      'An `Idempotency-Key` is ignored: nothing of the body is kept.',
    tags: ['Account'],
    auth: 'user',
    body: changePasswordBody,
    // The body is two passwords: nothing of it may be kept for a replay.
    idempotent: false,
    responses: {
      200: { description: 'Changed', schema: z.object({ success: z.literal(true), message: z.string() }) },
      400: { description: '`currentPassword` is wrong or missing, or `newPassword` is not acceptable' },
      403: { description: 'Called with an API token, or a first password from a session older than the sign-in it needs' },
      409: { description: 'The password was changed meanwhile (another tab, a reset link): nothing was changed' },
      429: { description: "The address's sign-in budget or the account's budget of wrong passwords is spent" },
    },
    handler: async (ctx, { body }) => {
      const principal = sessionOnly(ctx, 'Your password is changed while signed in with a session, not with an API token');
      // Each attempt spends the address's sign-in budget, as a sign-in does: a session must not be a way around it.
      if (deps.rateLimiter) await spend(deps.rateLimiter, ctx, [{ key: `ip:${ctx.ip}`, bucket: BUCKETS.SIGN_IN }]);
      const account = await passwordChangeState(pool, principal.user.id, principal.sessionId);
      const stored = account.hash;
      if (stored === null && !account.fresh) {
        throw forbidden(
          `This account has no password yet: setting the first one needs a sign-in within the last ${FIRST_PASSWORD_SIGN_IN_MINUTES} minutes. Sign out, sign in again with Steam or Discord, then set it.`,
        );
      }
      if (stored !== null) {
        await checkPasswordGuesses(deps.rateLimiter, account.email);
        if (!(body.currentPassword !== undefined && (await verifyPassword(body.currentPassword, stored)))) {
          await recordAudit(pool, originOf(ctx), { clusterId: null, action: 'user.password_change_failed', target: { type: 'user', id: principal.user.id } });
          if (body.currentPassword) await spendPasswordGuess(deps.rateLimiter, account.email);
          throw validationFailed([{ field: 'currentPassword', message: body.currentPassword ? 'is not your current password' : 'is required' }]);
        }
      }
      const newHash = await hashPassword(body.newPassword);
      const ended = await changePassword(pool, originOf(ctx), { userId: principal.user.id, sessionId: principal.sessionId, stored, newHash });
      // The owner hears of it even if it was not them (someone with their session): the e-mail says what to do.
      // Not awaited: the mailer logs a failure, and the change is done whether or not the e-mail goes out.
      if (deps.mailer) {
        void deps.mailer.send({
          to: account.email,
          subject: stored === null ? 'A password was set for your account' : 'Your password was changed',
          text: [
            `Hello ${quoteName(principal.user.displayName)},`,
            '',
            `The password of your account was ${stored === null ? 'set' : 'changed'}, and every other session of the account was signed out.`,
            'If you did this, there is nothing more to do.',
            `If you did not, ask for a password reset at once from the sign-in page (${config.publicUrl}): a reset also signs out the session that made this change, deletes your API tokens and unlinks Steam and Discord.`,
          ].join('\n'),
        });
      }
      return { success: true, message: `Password changed; ${ended === 1 ? '1 other session has' : `${ended} other sessions have`} ended` };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/account/tokens',
    summary: 'List your API tokens',
    description: 'Answers `{ tokens }` (not the list envelope, as the seed says). Secrets are never shown again.',
    tags: ['Account'],
    auth: 'user',
    responses: { 200: { description: 'Your tokens, newest first', schema: z.object({ tokens: z.array(apiTokenListItem) }) } },
    handler: async (ctx) => ({
      tokens: await listApiTokens(pool, sessionOnly(ctx, TOKENS_FROM_SESSION).user.id),
    }),
  });

  api.route({
    method: 'post',
    path: '/api/v1/account/tokens',
    summary: 'Create an API token',
    description: `Scoped to the clusters named (each one you belong to); in each it acts with your role there. The secret is in this answer only. At most ${MAX_ACTIVE_TOKENS} unexpired tokens per user (409 beyond).`,
    tags: ['Account'],
    auth: 'user',
    body: createTokenBody,
    status: 201,
    responses: {
      201: { description: 'The token, with its secret', schema: apiTokenCreated },
      409: { description: `You already hold ${MAX_ACTIVE_TOKENS} active tokens` },
    },
    handler: async (ctx, { body }) => {
      const principal = sessionOnly(ctx, TOKENS_FROM_SESSION);
      return createApiToken(pool, originOf(ctx), principal.user.id, body);
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/account/tokens/:tokenId',
    summary: 'Revoke an API token',
    description: 'Effective at once: the next request with it is 401.',
    tags: ['Account'],
    auth: 'user',
    params: z.object({ tokenId: id }),
    responses: { 200: { description: 'Revoked', schema: z.object({ success: z.literal(true), message: z.string() }) } },
    handler: async (ctx, { params }) => {
      const principal = sessionOnly(ctx, TOKENS_FROM_SESSION);
      await revokeApiToken(pool, originOf(ctx), principal.user.id, params.tokenId);
      return { success: true, message: 'Token revoked' };
    },
  });
}
