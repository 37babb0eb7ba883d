/**
 * A bearer token's lookup and a cluster's GET are read on the pool's prepared reads (sql/preparedReads.ts), not on the
 * slonik pool: seen from Postgres, as the last statement of the reads' connections (named by application_name).
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { useTestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp } from '../support/identity.ts';
import { PREPARED_READS_APPLICATION } from '../../sql/preparedReads.ts';

const app = useTestApp(test);

/** The last statement of each of the prepared reads' connections to this app's database. */
const readsStatements = () =>
  app().pool.anyFirst(sql.type(z.object({ query: z.string() }))`
    SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${PREPARED_READS_APPLICATION}`);

test('an API token is looked up, and a cluster read, on the prepared reads', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);

  // The list is read on the slonik pool: the reads' last statement is the token's look-up (the cache knew nothing).
  t.is((await app().request('/api/v1/clusters', { headers: token.auth })).status, 200);
  t.true(
    (await readsStatements()).some((query) => query.includes('FROM api_tokens t JOIN users u')),
    'the token looked up on the prepared reads',
  );

  const one = await app().request(`/api/v1/clusters/${clusterId}`, { headers: token.auth });
  t.is(one.status, 200);
  t.like(await one.json(), { id: clusterId, role: 'OWNER' });
  t.true(
    (await readsStatements()).some((query) => query.includes('FROM clusters c JOIN cluster_members m')),
    'the cluster read on the prepared reads',
  );
});
