/**
 * UUID v7 (RFC 9562) made in the process, laid out like the database's gsm_uuid_v7() (sql/migrations/000001_foundation.sql):
 * 48-bit Unix milliseconds, version and variant bits, the rest random. For rows whose id the caller needs before the
 * row is written (a job whose end a request waits for, registered before the job can end).
 */
import { randomFillSync } from 'node:crypto';

/** Random bytes taken from the system 16 ids at a time (one call instead of one per id). */
const POOL_IDS = 16;
const pool = Buffer.alloc(16 * POOL_IDS);
let next = POOL_IDS;

export function uuidV7(now: number = Date.now()): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = pool.subarray(next * 16, ++next * 16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
