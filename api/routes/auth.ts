/**
 * Sign-in: register, login, refresh, logout. Served at `/auth/...` and `/api/v1/auth/...` (docs/api.md).
 * Registration is open while no user exists; afterwards only with ALLOW_REGISTRATION=true.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import {
  loginBody,
  passwordResetBody,
  passwordResetConfirmBody,
  refreshBody,
  registerAnswer,
  registerBody,
  tokenPair,
  type TokenPair,
} from '../../schema/identity.ts';
import { joinByInvitation, pendingInvitation } from '../identity/invitations.ts';
import { completePasswordReset, requestPasswordReset, RESET_MINUTES } from '../identity/passwordResets.ts';
import { createUser, findUserById, findUserForLogin, lockPasswordHash, registrationOpen } from '../identity/users.ts';
import { verifyPassword } from '../../schema/passwords.ts';
import { endSession, refreshSession, startSession, type ClientInfo } from '../identity/sessions.ts';
import type { AccessTokens } from '../identity/accessTokens.ts';
import type { CommonQueryMethods } from 'slonik';
import { recordAudit } from '../../orchestrator/audit.ts';
import { principalOf } from '../identity/principal.ts';
import { originOf } from '../identity/origin.ts';
import { actingAs } from '../../schema/origin.ts';

const clientInfo = (ctx: Context): ClientInfo => ({ ip: ctx.ip || null, userAgent: ctx.get('User-Agent') || null });

/**
 * Opens a session for `user` on behalf of the request (password, registration or OAuth sign-in) and records it in the
 * audit log, in the caller's transaction; answers the token pair.
 */
export async function signIn(tx: CommonQueryMethods, ctx: Context, accessTokens: AccessTokens, user: { id: string; displayName: string }): Promise<TokenPair> {
  const { sessionId, ...pair } = await startSession(tx, accessTokens, user.id, clientInfo(ctx));
  await recordAudit(tx, actingAs(originOf(ctx), { kind: 'USER', id: user.id, name: user.displayName }), {
    clusterId: null,
    action: 'session.create',
    target: { type: 'session', id: sessionId },
  });
  return pair;
}

const successMessage = z.object({ success: z.literal(true), message: z.string() });

const paths = (suffix: string) => ({ path: `/api/v1/auth/${suffix}`, aliases: [`/auth/${suffix}`] });

export function installAuthRoutes(api: Api, deps: AppDeps) {
  const { pool, accessTokens, config, mailer } = deps;

  api.route({
    method: 'post',
    ...paths('register'),
    summary: 'Create an account',
    description:
      "Open while no user exists; afterwards only when the installation sets ALLOW_REGISTRATION=true, or with `invitationToken`: a pending invitation's token for this e-mail creates the account whatever ALLOW_REGISTRATION says and joins the invitation's cluster with its role. Answers the new user and a token pair.",
    tags: ['Auth'],
    auth: 'signin',
    body: registerBody,
    status: 201,
    responses: {
      201: { description: 'Account created and signed in', schema: registerAnswer },
      403: { description: 'Registration is closed (and no invitation was given), or the invitation is for another e-mail' },
      404: { description: 'No invitation has this token' },
      409: { description: 'E-mail already registered, or the invitation is no longer pending' },
    },
    handler: (ctx, { body }) =>
      pool.transaction(async (tx) => {
        const invitation = body.invitationToken === undefined ? null : await pendingInvitation(tx, body.invitationToken);
        if (invitation && invitation.email.toLowerCase() !== body.email.toLowerCase())
          throw forbidden('This invitation was sent to another e-mail address; register with that address');
        if (!invitation && !(await registrationOpen(tx, config.ALLOW_REGISTRATION))) throw forbidden('Registration is closed on this installation');
        const created = await createUser(tx, { email: body.email, password: body.password, displayName: body.displayName, tier: config.DEFAULT_TIER });
        const origin = actingAs(originOf(ctx), { kind: 'USER', id: created.id, name: created.displayName });
        await recordAudit(tx, origin, { clusterId: null, action: 'user.register', target: { type: 'user', id: created.id } });
        if (invitation) {
          await joinByInvitation(tx, invitation, created, { matchEmail: true });
          await recordAudit(tx, origin, { clusterId: invitation.clusterId, action: 'invitation.accept', target: { type: 'invitation', id: invitation.id } });
        }
        return { ...(await signIn(tx, ctx, accessTokens, created)), user: created };
      }),
  });

  const resetUnavailable = () =>
    notFound(
      'Password reset by e-mail is not configured on this installation (SMTP_URL); an administrator can run: npm run admin -- reset-password <email> <password>',
    );

  api.route({
    method: 'post',
    ...paths('password-reset'),
    summary: 'E-mail a password reset link',
    description: `With SMTP_URL set: e-mails the account with this address a link to choose a new password (single use, valid ${RESET_MINUTES} minutes; at most one e-mail a minute). The answer is the same whether or not an account has the address. 404 without SMTP_URL.`,
    tags: ['Auth'],
    auth: 'signin',
    body: passwordResetBody,
    status: 202,
    responses: { 202: { description: 'Sent if the account exists', schema: successMessage }, 404: { description: 'E-mail is not configured' } },
    handler: async (_ctx, { body }) => {
      if (!mailer) throw resetUnavailable();
      await requestPasswordReset(pool, mailer, { email: body.email, publicUrl: config.publicUrl });
      return { success: true, message: 'If an account has this e-mail address, a link to reset its password is on its way' };
    },
  });

  api.route({
    method: 'post',
    ...paths('password-reset/confirm'),
    summary: 'Choose a new password with a reset link',
    description: 'Spends the secret of the e-mailed link, sets the password and ends every session of the account (sign in again).',
    tags: ['Auth'],
    auth: 'signin',
    body: passwordResetConfirmBody,
    responses: { 200: { description: 'Password changed', schema: successMessage }, 400: { description: 'The link is invalid, expired or used' } },
    handler: (ctx, { body }) =>
      pool.transaction(async (tx) => {
        const userId = await completePasswordReset(tx, body.token, body.password);
        const user = await findUserById(tx, userId);
        await recordAudit(tx, actingAs(originOf(ctx), { kind: 'USER', id: userId, name: user.displayName }), {
          clusterId: null,
          action: 'user.password_reset',
          target: { type: 'user', id: userId },
        });
        return { success: true, message: 'Password changed; every session of the account has ended, sign in again' };
      }),
  });

  api.route({
    method: 'post',
    ...paths('login'),
    summary: 'Sign in with e-mail and password',
    tags: ['Auth'],
    auth: 'signin',
    body: loginBody,
    responses: { 200: { description: 'Signed in', schema: tokenPair } },
    handler: async (ctx, { body }) => {
      const found = await findUserForLogin(pool, body.email);
      const valid = await verifyPassword(body.password, found?.passwordHash ?? null);
      if (!found || !valid) throw unauthorized('Wrong e-mail or password');
      return pool.transaction(async (tx) => {
        // A password change or reset may have committed since the password was checked, and ended the sessions it
        // found: a session opened now with the old password would outlive it. Read under a share lock, so a change
        // still running waits for this sign-in and then ends its session too.
        const current = await lockPasswordHash(tx, found.id);
        if (current !== found.passwordHash) throw unauthorized('Wrong e-mail or password');
        return signIn(tx, ctx, accessTokens, found);
      });
    },
  });

  api.route({
    method: 'post',
    ...paths('refresh'),
    summary: 'Exchange a refresh token for a new token pair',
    description: 'Each refresh token works once. Presenting a spent one again revokes its whole session.',
    tags: ['Auth'],
    auth: 'signin',
    body: refreshBody,
    responses: { 200: { description: 'A new token pair', schema: tokenPair } },
    handler: async (_ctx, { body }) => (await refreshSession(pool, accessTokens, body.refreshToken)).pair,
  });

  api.route({
    method: 'post',
    ...paths('logout'),
    summary: 'End the current session',
    description: 'Its access and refresh tokens stop working at once. API tokens are revoked with DELETE /api/v1/account/tokens/{id}.',
    tags: ['Auth'],
    auth: 'user',
    responses: { 200: { description: 'Signed out', schema: successMessage } },
    handler: async (ctx) => {
      const principal = principalOf(ctx);
      if (principal.kind !== 'USER') throw badRequest('Logout ends a session; revoke an API token with DELETE /api/v1/account/tokens/{id}');
      await pool.transaction(async (tx) => {
        await endSession(tx, principal.sessionId, 'logout');
        await recordAudit(tx, originOf(ctx), { clusterId: null, action: 'session.end', target: { type: 'session', id: principal.sessionId } });
      });
      return { success: true, message: 'Signed out' };
    },
  });
}
