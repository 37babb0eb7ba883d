/**
 * `Idempotency-Key` on POST (docs/api.md): the same key from the same principal within 24 h answers the first
 * answer again (status and body) and does nothing new; the same key with another body is 422.
 *
 * The key is claimed before the handler runs (a row with no status yet), so two concurrent requests with one key
 * cannot both act: the second is 409 while the first is in progress. A 5xx answer releases the key so the client can
 * retry; a claim left behind by a crash is considered abandoned after five minutes. One-time secrets are not kept.
 *
 * Jobs record the key in the very statement that accepts them (the request's Origin carries it), so a node that dies
 * after accepting a job and before storing its answer leaves the job findable: a retry with the key answers that job
 * (202, or 200 once it ended, with `Location`, marked `Idempotent-Replayed`) instead of 409, and the claim is never
 * taken as abandoned while such a job exists, so no second job is made for the key.
 */
import { createHmac } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Principal } from '../identity/principal.ts';
import { AppError, conflict, validationFailed } from '../../schema/errors.ts';
import { errorBody, toAppError } from './errorHandler.ts';
import { getJob } from '../../orchestrator/jobs/store.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;
/** How long an answer is replayed. */
const RETENTION = sql.fragment`interval '24 hours'`;
/** After this, a claim without an answer is taken to be abandoned (its request died): longer than any request lasts. */
const ABANDONED = sql.fragment`interval '5 minutes'`;
/**
 * Secrets handed out once (API, agent, invitation and session tokens) are never stored for replay: a replay answers
 * the record without them, marked by `Idempotent-Replayed`.
 */
// `install` holds the agent token inside its command line.
const SECRET_FIELDS = new Set(['token', 'agentToken', 'install', 'accessToken', 'refreshToken', 'secret']);
const withoutSecrets = (body: unknown) =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([field]) => !SECRET_FIELDS.has(field)))
    : body;

const storedRow = z.object({ requestHash: z.string(), status: z.number().nullable(), body: z.unknown(), location: z.string().nullable() });

const principalKey = (principal: Principal) => (principal.kind === 'TOKEN' ? `token:${principal.tokenId}` : `user:${principal.user.id}`);

/** The jobs a request with `key` by `principal` created since the key was claimed (a job's createdBy is its principal). */
const jobsOfClaim = (principal: Principal, key: string) => {
  const kind = principal.kind === 'TOKEN' ? 'TOKEN' : 'USER';
  const id = principal.kind === 'TOKEN' ? principal.tokenId : principal.user.id;
  return sql.fragment`jobs j WHERE j.idempotency_key = ${key} AND j.created_by_kind = ${kind} AND j.created_by_id = ${id}
                       AND j.created_at >= idempotency_keys.created_at`;
};

/**
 * What makes two requests "the same": method, path and the parsed body. Keyed with a server secret: a body may hold a
 * secret (a server's rconPassword), and an unkeyed hash kept for a day would let whoever reads the table test guesses.
 */
const requestHash = (ctx: Context, hashKey: Uint8Array) =>
  createHmac('sha256', hashKey)
    .update(`${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`)
    .digest('hex');

/** `hashKey`: the server secret request hashes are keyed with (the same on every node). */
export function idempotency(pool: DatabasePool, hashKey: Uint8Array): Middleware {
  return async function replayIdempotent(ctx, next) {
    const key = ctx.get(IDEMPOTENCY_HEADER);
    const principal = ctx.state.principal as Principal | undefined;
    if (!key || !principal) return next();
    if (key.length > MAX_KEY_LENGTH) throw validationFailed([{ field: IDEMPOTENCY_HEADER, message: `must be at most ${MAX_KEY_LENGTH} characters` }]);
    const owner = principalKey(principal);
    const hash = requestHash(ctx, hashKey);

    const claimed = await pool.maybeOneFirst(sql.type(z.object({ claimed: z.boolean() }))`
      INSERT INTO idempotency_keys (principal, key, request_hash) VALUES (${owner}, ${key}, ${hash})
      ON CONFLICT (principal, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL, location = NULL, created_at = now()
        WHERE idempotency_keys.created_at < now() - ${RETENTION}
           OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < now() - ${ABANDONED}
               AND NOT EXISTS (SELECT 1 FROM ${jobsOfClaim(principal, key)}))
      RETURNING true AS claimed`);
    if (!claimed) {
      const stored = await pool.one(sql.type(storedRow.extend({ jobId: z.string().nullable() }))`
        SELECT request_hash AS "requestHash", status, body, location,
               (SELECT j.id FROM ${jobsOfClaim(principal, key)} ORDER BY j.id LIMIT 1) AS "jobId"
          FROM idempotency_keys WHERE principal = ${owner} AND key = ${key}`);
      if (stored.requestHash !== hash) throw new AppError(422, 'This Idempotency-Key was used with a different request');
      if (stored.status === null && stored.jobId) {
        // The request accepted its job but has not answered (or never will: its node died). Answer the job as it is
        // now; nothing is stored, so the request's own answer, if it comes, is what later retries replay.
        const current = await getJob(pool.reads, stored.jobId);
        ctx.status = current.finishedAt ? 200 : 202;
        ctx.set('Location', `/api/v1/jobs/${current.id}`);
        ctx.set('Idempotent-Replayed', 'true');
        ctx.body = current;
        return;
      }
      if (stored.status === null) throw conflict('A request with this Idempotency-Key is still in progress');
      ctx.status = stored.status;
      if (stored.location) ctx.set('Location', stored.location);
      ctx.set('Idempotent-Replayed', 'true');
      ctx.body = stored.body;
      return;
    }

    // Jobs the request creates record the key (see Origin.idempotencyKey).
    ctx.state.idempotencyKey = key;
    try {
      await next();
    } catch (error) {
      const status = error instanceof AppError ? error.status : ((error as { status?: number }).status ?? 500);
      if (status >= 500) await release(pool, owner, key);
      else await remember(pool, owner, key, status, errorBody(toAppError(error)), null);
      throw error;
    }
    if (ctx.status >= 500) return release(pool, owner, key);
    await remember(pool, owner, key, ctx.status, ctx.body ?? null, ctx.response.get('Location') || null);
  };
}

async function remember(pool: DatabasePool, owner: string, key: string, status: number, body: unknown, location: string | null) {
  await pool.query(sql.unsafe`
    UPDATE idempotency_keys SET status = ${status}, body = ${sql.jsonb(withoutSecrets(body) as never)}, location = ${location}
     WHERE principal = ${owner} AND key = ${key}`);
}

async function release(pool: DatabasePool, owner: string, key: string) {
  await pool.query(sql.unsafe`DELETE FROM idempotency_keys WHERE principal = ${owner} AND key = ${key}`);
}
