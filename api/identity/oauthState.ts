/**
 * The `state` of an OAuth / OpenID sign-in: `<base64url JSON>.<base64url HMAC-SHA256>`, valid 10 minutes, naming the
 * provider it was issued for and, when the flow links an account, the signed-in user to link to. It is signed rather
 * than stored, so any API node can check a callback; a random nonce makes every value unique.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AccessTokens } from './accessTokens.ts';

export const OAUTH_PROVIDERS = ['steam', 'discord'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** How long a started sign-in may take before its callback is refused. */
export const STATE_TTL_MS = 10 * 60 * 1000;

/** Label of the state key derived from the access-token key (AccessTokens.deriveSubkey). */
export const OAUTH_STATE_KEY_LABEL = 'gsm-oauth-state';
/** The value a dashboard tab starts a sign-in with (and gets back with the token pair). */
export const DASHBOARD_NONCE = /^[A-Za-z0-9_-]{16,64}$/;

export type StateClaims = {
  provider: OAuthProvider;
  link: string | null;
  invitation: string | null;
  dashboard: string | null;
  nonce: string;
  expiresAt: number;
};

const payloadSchema = z
  .object({
    p: z.enum(OAUTH_PROVIDERS),
    l: z.uuid().nullable(),
    /** The invitation the sign-in was started from (its id; the invitation page proved the token). */
    i: z.uuid().optional(),
    /** Started from this installation's dashboard: the tab's own value, returned with the token pair to the dashboard. */
    d: z.string().regex(DASHBOARD_NONCE).optional(),
    n: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
    e: z.int().positive(),
  })
  .strict();

const STATE_FORMAT = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/;

export class OAuthState {
  readonly #secret: Uint8Array;

  constructor(secret: Uint8Array) {
    if (secret.length < 32) throw new Error('the OAuth state secret needs at least 32 bytes');
    this.#secret = secret;
  }

  #sign(payload: string): Buffer {
    return createHmac('sha256', this.#secret).update(`oauth-state.v1.${payload}`).digest();
  }

  /** A new state for `provider`; `link` is the user to link the provider account to. `now` is given only by tests. */
  issue(input: { provider: OAuthProvider; link?: string | null; invitation?: string | null; dashboard?: string | null }, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({
        p: input.provider,
        l: input.link ?? null,
        ...(input.invitation ? { i: input.invitation } : {}),
        ...(input.dashboard ? { d: input.dashboard } : {}),
        n: randomBytes(16).toString('base64url'),
        e: now + STATE_TTL_MS,
      }),
    ).toString('base64url');
    return `${payload}.${this.#sign(payload).toString('base64url')}`;
  }

  /** The claims of a genuine, unexpired state issued for `provider`; null for anything else. */
  verify(state: string, provider: OAuthProvider, now = Date.now()): StateClaims | null {
    const match = STATE_FORMAT.exec(state);
    if (!match) return null;
    const [, payload, signature] = match as unknown as [string, string, string];
    const presented = Buffer.from(signature, 'base64url');
    const expected = this.#sign(payload);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const parsed = payloadSchema.safeParse(decoded);
    if (!parsed.success || parsed.data.p !== provider || parsed.data.e <= now) return null;
    return {
      provider: parsed.data.p,
      link: parsed.data.l,
      invitation: parsed.data.i ?? null,
      dashboard: parsed.data.d ?? null,
      nonce: parsed.data.n,
      expiresAt: parsed.data.e,
    };
  }
}

/** The installation's state signer, keyed from its access-token key (no further secret to configure). */
export const oauthStateFor = (accessTokens: AccessTokens) => new OAuthState(accessTokens.deriveSubkey(OAUTH_STATE_KEY_LABEL));
