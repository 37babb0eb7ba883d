/**
 * Warns when processes of one installation hold different session keys: a session started on one node would be
 * refused (401) by the others, and file requests forwarded over Redis are signed with a key derived from it
 * (orchestrator/files/agentRequestsAcross.ts). Each web process, and each orchestrator with Redis, records its key's
 * fingerprint in the database at start and compares it with the one recorded before (sql/migrations/000015). One
 * statement at start; nothing per request.
 *
 * What it catches: a process starting with a key other than the one the previous start used, which is the
 * case of nodes that each generated their own key (PASETO_KEY unset, separate DATA_DIRs) or were given different ones.
 * A deliberate change of PASETO_KEY on every node warns once, at the first start after it.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import type { AccessTokens } from './accessTokens.ts';

/** The fingerprint is an HMAC subkey of the session key under this label, shortened: it identifies the key, never reveals it. */
const FINGERPRINT_LABEL = 'gsm session key fingerprint';
const FINGERPRINT_BYTES = 16;

export async function checkSharedSessionKey(pool: DatabasePool, accessTokens: AccessTokens, logger: Logger): Promise<boolean> {
  const fingerprint = Buffer.from(accessTokens.deriveSubkey(FINGERPRINT_LABEL).subarray(0, FINGERPRINT_BYTES)).toString('hex');
  const previous = await pool.maybeOne(sql.type(z.object({ fingerprint: z.string(), recordedAt: z.string() }))`
    WITH previous AS (SELECT fingerprint, recorded_at FROM session_key_fingerprint),
         recorded AS (
           INSERT INTO session_key_fingerprint (fingerprint) VALUES (${fingerprint})
           ON CONFLICT (singleton) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, recorded_at = now()
         )
    SELECT fingerprint, recorded_at AS "recordedAt" FROM previous`);
  if (!previous || previous.fingerprint === fingerprint) return true;
  logger.warn(
    { previousKeyRecordedAt: previous.recordedAt },
    'This process holds another PASETO_KEY than the process started before it: every web process must share one PASETO_KEY, ' +
      'or a session started on one node is refused by the others (and with REDIS_URL every orchestrator too, or the file requests ' +
      'web processes forward to it are dropped as unsigned). Set the same PASETO_KEY on every process. ' +
      '(If PASETO_KEY was changed on purpose on every node, this warning appears once.)',
  );
  return false;
}
