/**
 * Session access tokens: PASETO v4.local with claims `sub` (user id), `sid` (session id), `iat` and `exp`, valid 24 h.
 * A valid token is necessary but not sufficient: the session it names must still be open (checked per request).
 */
import { createHmac } from 'node:crypto';
import { importV4LocalKey, v4Local, type V4LocalKey } from './pasetoV4Local.ts';

export const ACCESS_TOKEN_SECONDS = 24 * 60 * 60;

export type AccessClaims = { userId: string; sessionId: string };
/** What a verified token says: its claims and when it expires (epoch ms). */
export type VerifiedClaims = AccessClaims & { expiresAt: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class AccessTokens {
  readonly #key: V4LocalKey;

  constructor(paserk: string) {
    this.#key = importV4LocalKey(paserk);
  }

  /** `seconds`: the token's lifetime (tests shorten it); default ACCESS_TOKEN_SECONDS. */
  issue(claims: AccessClaims, seconds: number = ACCESS_TOKEN_SECONDS): Promise<string> {
    return v4Local.Encrypt(this.#key, { sub: claims.userId, sid: claims.sessionId }, { expiresIn: seconds });
  }

  /**
   * A 32-byte key for another purpose (for example signing OAuth `state`), derived from this key as
   * HMAC-SHA256(key, label), so it needs no secret of its own. Distinct labels give independent keys.
   */
  deriveSubkey(label: string): Uint8Array {
    return new Uint8Array(createHmac('sha256', this.#key.bytes).update(label).digest());
  }

  /** The claims of a genuine, unexpired token; null for anything else (forged, tampered, expired, malformed). */
  async verify(token: string): Promise<VerifiedClaims | null> {
    if (!token.startsWith('v4.local.')) return null;
    try {
      const { claims } = await v4Local.Decrypt(this.#key, token);
      const { sub, sid, exp } = claims as { sub?: unknown; sid?: unknown; exp?: unknown };
      if (typeof sub !== 'string' || typeof sid !== 'string' || !UUID.test(sub) || !UUID.test(sid)) return null;
      const expiresAt = typeof exp === 'string' ? Date.parse(exp) : Number.NaN;
      return { userId: sub, sessionId: sid, expiresAt: Number.isFinite(expiresAt) ? expiresAt : Date.now() + ACCESS_TOKEN_SECONDS * 1000 };
    } catch {
      return null;
    }
  }
}
