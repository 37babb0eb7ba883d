/**
 * The signed-in user's account and user API tokens (`gsm_live_…`): created with a name, cluster scopes and an optional
 * expiry; the secret is shown once; revocation takes effect on the next request.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { conflict, forbidden, notFound, validationFailed } from '../../schema/errors.ts';
import type { Context } from 'koa';
import type { Api } from '../http/route.ts';
import { apiTokenCreated, apiTokenListItem, changePasswordBody, createTokenBody, user } from '../../schema/identity.ts';
import { id } from '../../schema/http.ts';
import { findUserById } from '../identity/users.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { principalOf } from '../identity/principal.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { originOf } from '../identity/origin.ts';
import { quoteName } from '../mail/quoteName.ts';
import { checkPasswordGuesses, spendPasswordGuess } from '../identity/passwordGuesses.ts';
import { spend } from '../middleware/rateLimit.ts';
import { BUCKETS } from '../rateLimit/tiers.ts';

const TOKEN_COLUMNS = sql.fragment`
  t.id, t.name, t.created_at AS "createdAt", t.last_used_at AS "lastUsedAt", t.expires_at AS "expiresAt",
  ARRAY(SELECT cluster_id::text FROM api_token_clusters WHERE token_id = t.id ORDER BY cluster_id) AS "clusterIds"`;

/**
 * Active (unexpired) API tokens a user may hold at once, as Pterodactyl does. Every token has its own rate bucket, so
 * this also bounds how far a user's tokens can spread load (their shared ceiling is in api/rateLimit/tiers.ts).
 */
export const MAX_ACTIVE_TOKENS = 25;

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

/**
 * An account without a password (made with Steam or Discord) sets its first one with no current password to prove:
 * only a session this recent (a fresh sign-in with the provider) may, so a session left open somewhere, or a stolen
 * access token, cannot add a password and so a way in that outlives it.
 */
export const FIRST_PASSWORD_SIGN_IN_MINUTES = 10;

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
      const account = await pool.one(sql.type(z.object({ hash: z.string().nullable(), email: z.string(), fresh: z.boolean() }))`
        SELECT u.password_hash AS hash, u.email,
               s.created_at > now() - make_interval(mins => ${FIRST_PASSWORD_SIGN_IN_MINUTES}) AS fresh
          FROM users u JOIN sessions s ON s.user_id = u.id AND s.id = ${principal.sessionId}
         WHERE u.id = ${principal.user.id}`);
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
      const ended = await pool.transaction(async (tx) => {
        // The account's open reset links are locked before its row, in the order a reset confirm takes them
        // (completePasswordReset): taken the other way round, a change and a reset racing would deadlock.
        await tx.query(sql.unsafe`SELECT 1 FROM password_resets WHERE user_id = ${principal.user.id} AND used_at IS NULL ORDER BY id FOR UPDATE`);
        // Changed only if nobody changed it meanwhile (another tab, a reset): the check above was against that hash.
        const changed = await tx.query(sql.unsafe`
          UPDATE users SET password_hash = ${newHash}, updated_at = now()
           WHERE id = ${principal.user.id} AND password_hash IS NOT DISTINCT FROM ${stored}`);
        if (changed.rowCount === 0) throw conflict('Your password was changed meanwhile; sign in again with the new one');
        // Whoever signed in with the old password (another device, someone who learnt it) is signed out.
        const others = await tx.query(sql.unsafe`
          UPDATE sessions SET revoked_at = now(), revoked_reason = 'password changed'
           WHERE user_id = ${principal.user.id} AND id <> ${principal.sessionId} AND revoked_at IS NULL`);
        await tx.query(sql.unsafe`UPDATE password_resets SET used_at = now() WHERE user_id = ${principal.user.id} AND used_at IS NULL`);
        await recordAudit(tx, originOf(ctx), { clusterId: null, action: 'user.password_change', target: { type: 'user', id: principal.user.id } });
        return others.rowCount;
      });
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
      tokens: await pool.any(sql.type(apiTokenListItem)`
        SELECT ${TOKEN_COLUMNS} FROM api_tokens t WHERE t.user_id = ${sessionOnly(ctx, TOKENS_FROM_SESSION).user.id} ORDER BY t.created_at DESC, t.id DESC`),
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
      if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now()) {
        throw validationFailed([{ field: 'expiresAt', message: 'must be in the future' }]);
      }
      const clusterIds = [...new Set(body.clusterIds)];
      const memberOf = new Set(
        await pool.anyFirst(sql.type(z.object({ id: z.string() }))`
          SELECT cluster_id::text AS id FROM cluster_members
           WHERE user_id = ${principal.user.id} AND cluster_id = ANY(${sql.array(clusterIds, 'uuid')})`),
      );
      const foreign = body.clusterIds.flatMap((clusterId, index) =>
        memberOf.has(clusterId) ? [] : [{ field: `clusterIds.${index}`, message: 'not a cluster you belong to' }],
      );
      if (foreign.length > 0) throw validationFailed(foreign);

      const secret = generateSecret('live');
      return pool.transaction(async (tx) => {
        // The user's row is the lock that serialises token creation: two creates at 24 tokens cannot both pass.
        await tx.query(sql.unsafe`SELECT 1 FROM users WHERE id = ${principal.user.id} FOR UPDATE`);
        const active = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
          SELECT count(*)::int AS count FROM api_tokens WHERE user_id = ${principal.user.id} AND (expires_at IS NULL OR expires_at > now())`);
        if (active >= MAX_ACTIVE_TOKENS) {
          throw conflict(`You already have ${MAX_ACTIVE_TOKENS} active API tokens, the most a user may hold: revoke one first`);
        }
        const tokenId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO api_tokens (user_id, name, token_hash, expires_at)
          VALUES (${principal.user.id}, ${body.name}, ${sql.binary(hashSecret(secret))}, ${body.expiresAt ?? null})
          RETURNING id`);
        await tx.query(sql.unsafe`
          INSERT INTO api_token_clusters (token_id, cluster_id) SELECT ${tokenId}, unnest(${sql.array(clusterIds, 'uuid')})`);
        await recordAudit(tx, originOf(ctx), { clusterId: null, action: 'token.create', target: { type: 'token', id: tokenId } });
        const created = await tx.one(sql.type(apiTokenListItem)`SELECT ${TOKEN_COLUMNS} FROM api_tokens t WHERE t.id = ${tokenId}`);
        return { ...created, token: secret, userId: principal.user.id };
      });
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
      await pool.transaction(async (tx) => {
        const deleted = await tx.query(sql.unsafe`DELETE FROM api_tokens WHERE id = ${params.tokenId} AND user_id = ${principal.user.id}`);
        if (deleted.rowCount === 0) throw notFound('Token not found');
        await recordAudit(tx, originOf(ctx), { clusterId: null, action: 'token.delete', target: { type: 'token', id: params.tokenId } });
      });
      return { success: true, message: 'Token revoked' };
    },
  });
}
