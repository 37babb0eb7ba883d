/**
 * What a `/live` socket spends of the rate limits (docs/events.md, "Limits"), the same budgets as REST so a socket is
 * no way around them: a handshake and every `subscribe` or `console:command` spend one request of the principal's
 * budget; a refused credential (at the handshake or in `auth:refresh`) spends one of the client address's failure
 * budget, shared with REST's refused requests; and a principal holds at most CAPS' sockets at once, per credential and
 * per user, counted across every API node when the limiter is in Redis. Like REST, a limiter that cannot answer
 * refuses (503). With RATE_LIMIT=off nothing here limits.
 */
import type { Socket } from 'socket.io';
import { AppError, statusName, unauthorized } from '../../schema/errors.ts';
import type { AppDeps } from '../context.ts';
import type { Principal } from '../identity/principal.ts';
import { RateLimiterUnavailableError, type Slot } from '../rateLimit/limiter.ts';
import { BUCKETS, CAPS } from '../rateLimit/tiers.ts';
import { principalTargets, spendTokens } from '../middleware/rateLimit.ts';

/** The sockets a principal's new socket counts against: its credential's and its user's. */
export const socketSlots = (principal: Principal): Slot[] => [
  principal.kind === 'TOKEN'
    ? { key: `token:${principal.tokenId}`, cap: CAPS.LIVE_SOCKETS_PER_CREDENTIAL, what: 'open /live connections per API token' }
    : { key: `session:${principal.sessionId}`, cap: CAPS.LIVE_SOCKETS_PER_CREDENTIAL, what: 'open /live connections per signed-in session' },
  { key: `user:${principal.user.id}`, cap: CAPS.LIVE_SOCKETS_PER_USER, what: 'open /live connections per user' },
];

/** The client's address as REST sees it (`ctx.ip`): behind a trusted proxy, the first X-Forwarded-For entry. */
export function addressOf(socket: Socket, trustProxy: boolean): string {
  const forwarded = socket.handshake.headers['x-forwarded-for'];
  const first = trustProxy && typeof forwarded === 'string' ? forwarded.split(/\s*,\s*/)[0] : undefined;
  return first || socket.handshake.address;
}

/** A handshake's refusal as Socket.IO's `connect_error`: its `data` is the service's error body. */
export function connectError(cause: unknown): Error & { data: Record<string, unknown> } {
  const known = cause instanceof AppError && cause.status < 500;
  const statusCode = cause instanceof AppError ? cause.status : 503;
  const message = known ? cause.message : 'The service could not do this now; try again';
  const error = new Error(message) as Error & { data: Record<string, unknown> };
  error.data = { statusCode, message, error: statusName(statusCode), ...(known ? cause.extra : {}) };
  return error;
}

export type Admission = {
  /** Spends one request of the principal's budget (a 429 AppError with `retryAfter` past it). */
  spend: (principal: Principal) => Promise<void>;
  /** Runs `authenticate`; a 401 from it spends one of `address`'s failures (past them, a 429 instead). */
  guard: <T>(address: string, authenticate: () => Promise<T>) => Promise<T>;
  /** Counts the socket against its principal's caps (a 429 AppError past them); answers how to stop counting it. */
  hold: (socketId: string, principal: Principal) => Promise<() => void>;
};

export function createAdmission(deps: Pick<AppDeps, 'rateLimiter'>): Admission {
  const limiter = deps.rateLimiter;
  if (!limiter) return { spend: async () => undefined, guard: (_address, authenticate) => authenticate(), hold: async () => () => undefined };
  return {
    spend: (principal) => spendTokens(limiter, principalTargets(principal)),
    async guard(address, authenticate) {
      try {
        return await authenticate();
      } catch (error) {
        if (error instanceof AppError && error.status === 401)
          await spendTokens(limiter, [{ key: `ip:${address}`, bucket: BUCKETS.AUTH_FAILURE, what: 'failed authentications per minute from this address' }]);
        throw error;
      }
    },
    async hold(socketId, principal) {
      const slots = socketSlots(principal);
      let full: Slot | null;
      try {
        full = await limiter.hold(socketId, slots);
      } catch (error) {
        if (error instanceof RateLimiterUnavailableError) throw new AppError(503, 'Rate limiter unavailable', { cause: error });
        throw error;
      }
      if (full) throw new AppError(429, `At most ${full.cap.max} ${full.what}; close one first`);
      let held = true;
      return () => {
        if (held) limiter.release(socketId, slots);
        held = false;
      };
    },
  };
}

/** The handshake's token, or the 401 of a missing or oversized one. */
export function handshakeToken(socket: Socket): string {
  const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string' || token.length === 0 || token.length > 1024)
    throw unauthorized('auth.token is required: a session access token or an API token');
  return token;
}
