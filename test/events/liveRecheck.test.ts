/**
 * `/live` checks every viewer's access again in one sweep per process: viewers that share a token and a cluster cost
 * one token resolution and one membership read per sweep, not one per viewer (which made most of an idle process's
 * CPU with a hundred viewers). Losing access within 5 s is covered in live.test.ts.
 */
import test from 'ava';
import { setTimeout as delay } from 'node:timers/promises';
import { ACCESS_RECHECK_MS } from '../../api/routes/events.ts';
import { startTestApp } from '../support/app.ts';
import { addMember, createCluster, signUp } from '../support/identity.ts';
import { connectViewer } from '../support/liveClient.ts';

test('viewers sharing a token and a cluster cost one membership read per sweep; a removed member is still let go', async (t) => {
  t.timeout(60_000);
  const app = await startTestApp();
  t.teardown(() => app.close());
  const owner = await signUp(app);
  const clusterId = await createCluster(app, owner);
  const member = await signUp(app);
  await addMember(app, clusterId, member, 'VIEWER');

  // The membership reads of this cluster, counted as they go through the service's own pool to Postgres.
  const pool = app.deps.pool as unknown as { maybeOne: (...args: unknown[]) => Promise<unknown> };
  const maybeOne = pool.maybeOne.bind(pool);
  let reads = 0;
  pool.maybeOne = (query: unknown, ...rest: unknown[]) => {
    const text = (query as { sql?: string }).sql ?? '';
    if (text.includes('FROM clusters c') && text.includes('cluster_members m')) reads += 1;
    return maybeOne(query, ...rest);
  };
  t.teardown(() => void (pool.maybeOne = maybeOne));

  const viewers = await Promise.all(Array.from({ length: 12 }, () => connectViewer(app.url, owner.accessToken)));
  const removed = await connectViewer(app.url, member.accessToken);
  t.teardown(() => {
    for (const viewer of [...viewers, removed]) viewer.close();
  });
  for (const viewer of [...viewers, removed]) t.deepEqual(await viewer.request('subscribe', { clusterId }), { ok: true });

  reads = 0;
  await delay(2 * ACCESS_RECHECK_MS + 1_000);
  // Two or three sweeps passed; each reads the owner's membership once and the member's once.
  t.true(reads >= 2 && reads <= 6, `${reads} membership reads for 13 viewers in two or three sweeps`);

  const removal = await app.request(`/api/v1/clusters/${clusterId}/members/${member.id}`, { method: 'DELETE', headers: owner.auth });
  t.is(removal.status, 200);
  const ended = await removed.notice('subscription:ended', ACCESS_RECHECK_MS + 2_000);
  t.like(ended, { clusterId, statusCode: 403 });
  t.is(viewers[0]!.notices.filter((notice) => notice.name === 'subscription:ended').length, 0, "the owner's viewers keep theirs");
});
