/**
 * Steam sign-in: OpenID 2.0 as Steam implements it (stateless "dumb mode"). The user is sent to Steam with
 * `checkid_setup`; Steam sends them back to `return_to` with a signed assertion in `openid.*` parameters, and we ask
 * Steam itself whether the assertion is genuine (`check_authentication`) instead of keeping associations.
 */
import { AppError, unauthorized } from '../../../schema/errors.ts';

export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
const IDENTIFIER_SELECT = `${OPENID_NS}/identifier_select`;
const CLAIMED_ID = /^https:\/\/steamcommunity\.com\/openid\/id\/(\d{17})$/;
/** Fields an assertion must sign; a field outside the signature could be altered in transit. */
const MUST_BE_SIGNED = ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];
const TIMEOUT_MS = 10_000;

export type SteamOpenId = {
  /** Where to send the user: Steam's login page, coming back to `returnTo` (which must lie under `realm`). */
  authorizeUrl: (returnTo: string, realm: string) => string;
  /**
   * Checks an assertion received at `returnTo` (the exact URL sent in authorizeUrl) and answers the Steam id (SteamID64).
   * Throws a 401 AppError for a cancelled, malformed, foreign or forged assertion, a 503 when Steam cannot be asked.
   */
  verify: (params: Record<string, unknown>, returnTo: string) => Promise<string>;
};

/** Parses OpenID key-value form (`key:value` lines). */
export function parseKeyValue(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

export function createSteamOpenId(endpoint: string): SteamOpenId {
  return {
    authorizeUrl(returnTo, realm) {
      const url = new URL(endpoint);
      url.search = new URLSearchParams({
        'openid.ns': OPENID_NS,
        'openid.mode': 'checkid_setup',
        'openid.return_to': returnTo,
        'openid.realm': realm,
        'openid.claimed_id': IDENTIFIER_SELECT,
        'openid.identity': IDENTIFIER_SELECT,
      }).toString();
      return url.toString();
    },

    async verify(params, returnTo) {
      const openid = new Map<string, string>();
      for (const [key, value] of Object.entries(params)) {
        if (key.startsWith('openid.') && typeof value === 'string') openid.set(key, value);
      }
      const field = (name: string) => openid.get(`openid.${name}`);
      if (field('mode') === 'cancel') throw unauthorized('Steam sign-in was cancelled');
      if (field('mode') !== 'id_res' || field('ns') !== OPENID_NS) throw unauthorized('Not a Steam OpenID assertion');
      if (field('op_endpoint') !== endpoint) throw unauthorized('The assertion does not come from the configured Steam endpoint');
      if (field('return_to') !== returnTo) throw unauthorized('The assertion was made for another return address');
      const claimed = CLAIMED_ID.exec(field('claimed_id') ?? '');
      if (!claimed || field('identity') !== field('claimed_id')) throw unauthorized('The assertion does not name a Steam account');
      const signed = new Set((field('signed') ?? '').split(','));
      if (!field('sig') || MUST_BE_SIGNED.some((name) => !signed.has(name) || field(name) === undefined)) {
        throw unauthorized('The assertion is not signed as required');
      }

      // Ask Steam whether it made this assertion: the same fields back, with the mode changed.
      const check = new URLSearchParams([...openid]);
      check.set('openid.mode', 'check_authentication');
      let answer: string;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
          body: check.toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (response.status >= 500) throw new Error(`Steam answered ${response.status}`);
        answer = await response.text();
        if (!response.ok) answer = '';
      } catch (error) {
        throw new AppError(503, 'Steam could not be reached to verify the sign-in; try again', { cause: error });
      }
      const fields = parseKeyValue(answer);
      if (fields.get('ns') !== OPENID_NS || fields.get('is_valid') !== 'true') throw unauthorized('Steam did not confirm the sign-in');
      return claimed[1]!;
    },
  };
}
