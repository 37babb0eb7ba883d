/**
 * Users known by a Steam or Discord account: lookup, linking to an existing user, and creation on first sign-in.
 * A provider account belongs to at most one user (unique `users.steam_id` / `users.discord_id`).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { conflict, unauthorized } from '../../schema/errors.ts';
import { hasVisibleCharacter, oneLine } from '../../schema/http.ts';
import type { Tier, User } from '../../schema/identity.ts';
import type { OAuthProvider } from './oauthState.ts';
import { createUser, USER_COLUMNS, userRow } from './users.ts';

export type ProviderAccount = {
  provider: OAuthProvider;
  /** SteamID64 or Discord snowflake. */
  id: string;
  displayName: string;
  /** An address the provider has verified, or null. */
  verifiedEmail: string | null;
};

export const PROVIDER_NAMES: Record<OAuthProvider, string> = { steam: 'Steam', discord: 'Discord' };
const COLUMNS: Record<OAuthProvider, string> = { steam: 'steam_id', discord: 'discord_id' };

const column = (provider: OAuthProvider) => sql.identifier(['users', COLUMNS[provider]]);

export const findUserByProviderAccount = (connection: CommonQueryMethods, account: Pick<ProviderAccount, 'provider' | 'id'>) =>
  connection.maybeOne(sql.type(userRow)`SELECT ${USER_COLUMNS} FROM users WHERE ${column(account.provider)} = ${account.id}`);

/**
 * Links `account` to user `userId` (replacing a previous account of that provider). Answers the user and whether
 * anything changed; 409 when the account belongs to another user.
 */
export async function linkProviderAccount(connection: CommonQueryMethods, userId: string, account: ProviderAccount): Promise<{ user: User; changed: boolean }> {
  const owner = await findUserByProviderAccount(connection, account);
  if (owner && owner.id !== userId) throw conflict(`This ${PROVIDER_NAMES[account.provider]} account is already linked to another user`);
  if (owner) return { user: owner, changed: false };
  // Only an empty slot is filled: replacing a linked account would let whoever holds a session swap in their own.
  const user = await connection.maybeOne(sql.type(userRow)`
    UPDATE users SET ${sql.identifier([COLUMNS[account.provider]])} = ${account.id}, updated_at = now()
     WHERE id = ${userId} AND ${sql.identifier([COLUMNS[account.provider]])} IS NULL
    RETURNING ${USER_COLUMNS}`);
  if (!user) {
    const exists = await connection.exists(sql.unsafe`SELECT 1 FROM users WHERE id = ${userId}`);
    if (!exists) throw unauthorized('The account to link to no longer exists');
    throw conflict(`Another ${PROVIDER_NAMES[account.provider]} account is already linked to this user; unlink it first`);
  }
  return { user, changed: true };
}

/**
 * Creates a user for a first sign-in with `account`: no password, the provider's name, and the provider's verified
 * e-mail when no other account uses it, else a placeholder such as `steam-<id>@users.invalid` (RFC 2606).
 */
export async function createProviderUser(connection: CommonQueryMethods, account: ProviderAccount, tier: Tier): Promise<User> {
  const email = account.verifiedEmail?.toLowerCase() ?? null;
  const emailTaken = email !== null && (await connection.exists(sql.unsafe`SELECT 1 FROM users WHERE lower(email) = ${email}`));
  // The provider's name obeys its rules, not ours: a display name here is one line without bidi or zero-width
  // characters, like one typed into the API, and one with nothing visible left gives way to the provider's id.
  const providerName = oneLine(account.displayName).trim().slice(0, 64);
  const displayName = hasVisibleCharacter(providerName) ? providerName : `${PROVIDER_NAMES[account.provider]} ${account.id}`;
  return createUser(connection, {
    email: email && !emailTaken ? email : `${account.provider}-${account.id}@users.invalid`,
    displayName,
    tier,
    ...(account.provider === 'steam' ? { steamId: account.id } : { discordId: account.id }),
  });
}
