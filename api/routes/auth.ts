/**
 * Sign-in: register, login, refresh, logout. Served at `/auth/...` and `/api/v1/auth/...` (docs/api.md).
 * Registration is open while no user exists; afterwards only with ALLOW_REGISTRATION=true.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { badRequest, forbidden, unauthorized } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { loginBody, refreshBody, registerAnswer, registerBody, tokenPair, type TokenPair } from '../../schema/identity.ts';
import { createUser, findUserForLogin, registrationOpen } from '../identity/users.ts';
import { verifyPassword } from '../identity/passwords.ts';
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

const paths = (suffix: string) => ({ path: `/api/v1/auth/${suffix}`, aliases: [`/auth/${suffix}`] });

export function installAuthRoutes(api: Api, deps: AppDeps) {
  const { pool, accessTokens, config } = deps;

  api.route({
    method: 'post',
    ...paths('register'),
    summary: 'Create an account',
    description: 'Open while no user exists; afterwards only when the installation sets ALLOW_REGISTRATION=true. Answers the new user and a token pair.',
    tags: ['Auth'],
    auth: 'signin',
    body: registerBody,
    status: 201,
    responses: { 201: { description: 'Account created and signed in', schema: registerAnswer }, 409: { description: 'E-mail already registered' } },
    handler: (ctx, { body }) =>
      pool.transaction(async (tx) => {
        if (!(await registrationOpen(tx, config.ALLOW_REGISTRATION))) throw forbidden('Registration is closed on this installation');
        const created = await createUser(tx, { email: body.email, password: body.password, displayName: body.displayName, tier: config.DEFAULT_TIER });
        await recordAudit(tx, actingAs(originOf(ctx), { kind: 'USER', id: created.id, name: created.displayName }), {
          clusterId: null,
          action: 'user.register',
          target: { type: 'user', id: created.id },
        });
        return { ...(await signIn(tx, ctx, accessTokens, created)), user: created };
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
      return pool.transaction((tx) => signIn(tx, ctx, accessTokens, found));
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
    responses: { 200: { description: 'Signed out', schema: z.object({ success: z.literal(true), message: z.string() }) } },
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
