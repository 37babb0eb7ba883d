/**
 * Opaque secrets handed to clients once: API tokens (`gsm_live_…`), agent tokens (`gsm_agent_…`), refresh tokens
 * invitation tokens and password-reset tokens. Only their SHA-256 is stored; lookups go by hash and the final comparison is constant-time.
 */
import { hash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters: about 256 bits. */
const SECRET_LENGTH = 43;

export const TOKEN_PREFIX = 'gsm';

export type SecretKind = 'live' | 'agent' | 'refresh' | 'invite' | 'reset' | 'install';

/** A new secret `gsm_<kind>_<43 base62 characters>`. */
export function generateSecret(kind: SecretKind): string {
  let body = '';
  for (let index = 0; index < SECRET_LENGTH; index++) body += BASE62[randomInt(BASE62.length)];
  return `${TOKEN_PREFIX}_${kind}_${body}`;
}

/** Whether `value` has the shape of a secret of that kind (checked before any database work). */
export const looksLikeSecret = (value: string, kind: SecretKind) =>
  value.length === TOKEN_PREFIX.length + kind.length + 2 + SECRET_LENGTH && value.startsWith(`${TOKEN_PREFIX}_${kind}_`) && /^[A-Za-z0-9_]+$/.test(value);

/** SHA-256 in one call (no Hash object: about half the cost, on every authenticated request). */
export const hashSecret = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: Uint8Array): boolean {
  const presented = hashSecret(secret);
  return presented.length === storedHash.length && timingSafeEqual(presented, storedHash);
}
