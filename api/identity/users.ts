/**
 * Users: creation, lookup, and the first-start administrator.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import { TIERS, user, type Tier, type User } from '../../schema/identity.ts';
import { hashPassword } from '../../schema/passwords.ts';
import { recoverAccount } from './sessions.ts';

/** The columns of `users` as the User record; used by every query that answers a user. */
export const USER_COLUMNS = sql.fragment`
  users.id, users.email, users.display_name AS "displayName", users.handle, users.steam_id AS "steamId",
  users.discord_id AS "discordId", users.password_hash IS NOT NULL AS "hasPassword", users.tier, users.created_at AS "createdAt"`;

export const userRow = user;
const loginRow = user.extend({ passwordHash: z.string().nullable() });

export type NewUser = { email: string; displayName: string; password?: string; steamId?: string; discordId?: string; tier: Tier };

export async function createUser(connection: CommonQueryMethods, input: NewUser): Promise<User> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return connection.one(sql.type(userRow)`
    INSERT INTO users (email, display_name, password_hash, steam_id, discord_id, tier)
    VALUES (${input.email.toLowerCase()}, ${input.displayName}, ${passwordHash}, ${input.steamId ?? null}, ${input.discordId ?? null}, ${input.tier})
    RETURNING ${USER_COLUMNS}`);
}

export const findUserForLogin = (connection: CommonQueryMethods, email: string) =>
  connection.maybeOne(sql.type(loginRow)`
    SELECT ${USER_COLUMNS}, users.password_hash AS "passwordHash" FROM users WHERE lower(email) = ${email.toLowerCase()}`);

export const findUserById = (connection: CommonQueryMethods, id: string) =>
  connection.one(sql.type(userRow)`SELECT ${USER_COLUMNS} FROM users WHERE id = ${id}`);

/**
 * The user's password hash (null: none, or no such user) read under a share lock held to the end of `tx`: a password
 * change or reset still running finishes first, and one starting later waits for `tx`.
 */
export const lockPasswordHash = (tx: CommonQueryMethods, userId: string) =>
  tx.maybeOneFirst(sql.type(z.object({ hash: z.string().nullable() }))`SELECT password_hash AS hash FROM users WHERE id = ${userId} FOR SHARE`);

export const userCount = (connection: CommonQueryMethods) =>
  connection.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM users`);

/**
 * Sets the password of the user with this e-mail and recovers the account (recoverAccount: every session ended, API
 * tokens and SSH keys deleted, Steam and Discord unlinked); spends the user's open password resets. Answers the user's id, or null when no user has the e-mail.
 */
export async function setPassword(connection: CommonQueryMethods, email: string, password: string): Promise<string | null> {
  const passwordHash = await hashPassword(password);
  const userId = await connection.maybeOneFirst(sql.type(z.object({ id: z.string() }))`
    UPDATE users SET password_hash = ${passwordHash}, updated_at = now() WHERE lower(email) = ${email.toLowerCase()} RETURNING id`);
  if (userId === null) return null;
  await recoverAccount(connection, userId, 'password reset');
  await connection.query(sql.unsafe`UPDATE password_resets SET used_at = now() WHERE user_id = ${userId} AND used_at IS NULL`);
  return userId;
}

export async function setTier(connection: CommonQueryMethods, email: string, tier: Tier): Promise<boolean> {
  if (!TIERS.includes(tier)) throw new Error(`unknown tier ${tier}`);
  const result = await connection.query(sql.unsafe`UPDATE users SET tier = ${tier}, updated_at = now() WHERE lower(email) = ${email.toLowerCase()}`);
  return result.rowCount > 0;
}

/** Serialises "may a new account be created?" decisions, so two sign-ups racing on an empty database cannot both pass. */
const REGISTRATION_LOCK_KEY = 0x67736d2d726567n; // "gsm-reg"

/**
 * Takes the registration lock (for the rest of the transaction) and answers whether a new account may be created:
 * ALLOW_REGISTRATION when set, otherwise only while no user exists.
 */
export async function registrationOpen(tx: CommonQueryMethods, allowRegistration: boolean | undefined): Promise<boolean> {
  await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${REGISTRATION_LOCK_KEY.toString()}::bigint)`);
  return allowRegistration ?? (await userCount(tx)) === 0;
}

/** Serialises first-start administrator creation across processes starting at once. */
const BOOTSTRAP_LOCK_KEY = 0x67736d2d61646dn; // "gsm-adm"

/** Creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD when no user exists yet. */
export async function bootstrapAdmin(pool: DatabasePool, options: { email?: string; password?: string; tier: Tier; logger: Logger }): Promise<void> {
  const { email, password } = options;
  if (!email || !password) return;
  await pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY.toString()}::bigint)`);
    if ((await userCount(tx)) > 0) return;
    const admin = await createUser(tx, { email, password, displayName: email.split('@')[0] ?? 'admin', tier: options.tier });
    await tx.query(sql.unsafe`
      INSERT INTO audit_log (actor_kind, action, target_type, target_id) VALUES ('SYSTEM', 'user.bootstrap', 'user', ${admin.id})`);
    options.logger.info({ userId: admin.id, email: admin.email }, 'created the first user from ADMIN_EMAIL');
  });
}
