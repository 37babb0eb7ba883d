/**
 * Refusing a credential that cannot be genuine costs no database work: the authenticator here is given a pool that has
 * been ended, so any query it tried would fail with a pool error instead of the 401.
 */
import test from 'ava';
import { AccessTokens } from '../../api/identity/accessTokens.ts';
import { createAuthenticator } from '../../api/identity/principal.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { AppError } from '../../schema/errors.ts';
import { createDatabasePool } from '../../sql/pool.ts';
import { captureLogs } from '../support/logs.ts';
import { ADMIN_URL } from '../support/database.ts';

test('malformed API tokens, forged session tokens and malformed headers are refused (401) without a query', async (t) => {
  const pool = await createDatabasePool(ADMIN_URL, { maxPoolSize: 1 });
  await pool.end();
  const authenticator = createAuthenticator({ pool, accessTokens: new AccessTokens(generatePasetoKey()), logger: captureLogs().logger });
  const cheap = [
    'Bearer gsm_live_short',
    `Bearer gsm_live_${'A'.repeat(42)}!`,
    `Bearer gsm_live_${'A'.repeat(44)}`,
    `Bearer gsm_live_${'-'.repeat(43)}`,
    'Bearer v4.local.forged',
    'Bearer anything-else',
    'Basic dXNlcjpwYXNz',
    '',
  ];
  for (const authorization of cheap) {
    const error = await t.throwsAsync(authenticator.resolve(authorization), undefined, authorization);
    t.true(error instanceof AppError && error.status === 401, `${authorization}: ${error?.message}`);
  }
  // A well-formed token is looked up: here that query fails, which shows the ones above never reached the database.
  const lookedUp = await t.throwsAsync(authenticator.resolve(`Bearer gsm_live_${'A'.repeat(43)}`));
  t.false(lookedUp instanceof AppError && lookedUp.status === 401);
});
