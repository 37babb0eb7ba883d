/**
 * The principal cache across two API processes of one installation (docs/access.md, "The principal cache"): node B
 * caches who a token is and its user's roles; every change that affects them, made through node A (or by any other
 * writer), makes B refuse within a second, and A on its very next request. B without its notification connection reads
 * the database for every request.
 */
import test from 'ava';
import { sql } from 'slonik';
import { createAuthenticator, principalChanges } from '../../api/identity/principal.ts';
import { setTier } from '../../api/identity/users.ts';
import { startPrincipalCache } from '../../api/identity/principalCache.ts';
import { captureLogs } from '../support/logs.ts';
import { body, json, startTestApp, type TestApp } from '../support/app.ts';
import { addMember, createApiToken, createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { until } from '../support/wait.ts';
import { createFakeServer, registerMachine } from '../support/agentProcess.ts';

/** The promise: every other node within 1 s. */
const ACROSS_NODES_MS = 1_000;

let a: TestApp;
let b: TestApp;
test.before(async () => {
  a = await startTestApp();
  b = await startTestApp({}, { node: a });
});
test.after.always(async () => {
  await b?.close();
  await a?.close();
});

const patch = (payload: unknown, headers: Record<string, string>) => json(payload, { method: 'PATCH', headers });
const get = (app: TestApp, path: string, headers: Record<string, string>) =>
  app.request(path, { headers }).then(async (r) => (await r.arrayBuffer(), r.status));

/** Waits until `node` answers `path` with `status`, at most ACROSS_NODES_MS after the change; answers how long it took. */
async function refusedWithin(
  t: { true: (value: boolean, message?: string) => void },
  node: TestApp,
  path: string,
  headers: Record<string, string>,
  status: number,
) {
  const since = performance.now();
  for (;;) {
    if ((await get(node, path, headers)) === status) break;
    if (performance.now() - since > ACROSS_NODES_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - since;
  t.true(elapsed <= ACROSS_NODES_MS, `${path} answered ${status} on the other node only after ${elapsed.toFixed(0)} ms`);
}

/** A cluster with its owner and an API token; B (and A) have resolved the token, so B has it cached. */
async function setUp(): Promise<{ owner: TestUser; clusterId: string; token: Awaited<ReturnType<typeof createApiToken>>; path: string }> {
  const owner = await signUp(a, 'owner');
  const clusterId = await createCluster(a, owner);
  const token = await createApiToken(a, owner, [clusterId]);
  const path = `/api/v1/clusters/${clusterId}`;
  for (const node of [b, b, a]) if ((await get(node, path, token.auth)) !== 200) throw new Error('a fresh token was refused');
  await until(async () => (await get(b, path, token.auth)) === 200 && b.deps.principals!.size().principals > 0, 'B caching the token');
  return { owner, clusterId, token, path };
}

test.serial('both nodes cache, and only while they listen', async (t) => {
  await until(async () => a.deps.principals!.active() && b.deps.principals!.active(), 'both caches active', 5_000);
  const { token, path } = await setUp();
  t.is(await get(b, path, token.auth), 200);
  t.true(b.deps.principals!.size().principals >= 1);
  t.true(b.deps.principals!.size().memberships >= 1);
});

test.serial('a token revoked on A: A refuses on the very next request, B within a second', async (t) => {
  const { owner, token, path } = await setUp();
  const revoked = await a.request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: owner.auth });
  t.true(revoked.ok);
  t.is(await get(a, path, token.auth), 401);
  await refusedWithin(t, b, path, token.auth, 401);
});

test.serial("B without its notification connection reads the database: a revoke it could not hear is refused on B's next request", async (t) => {
  const { owner, token, path } = await setUp();
  const pid = b.deps.principals!.listenerPid();
  t.truthy(pid);
  await b.pool.query(sql.unsafe`SELECT pg_terminate_backend(${pid})`);
  const revoked = await a.request(`/api/v1/account/tokens/${token.id}`, { method: 'DELETE', headers: owner.auth });
  t.true(revoked.ok);
  t.is(await get(b, path, token.auth), 401);
  t.false(b.deps.principals!.active());
  // It listens again (after a pause) and caches again, starting empty.
  await until(async () => b.deps.principals!.active(), 'B listening again', 10_000);
  t.not(b.deps.principals!.listenerPid(), pid);
  const fresh = await createApiToken(a, owner, [path.split('/').pop()!]);
  t.is(await get(b, path, fresh.auth), 200);
  // Other test files share the database and their changes empty caches too: ask again until B holds an entry.
  await until(async () => (await get(b, path, fresh.auth)) === 200 && b.deps.principals!.size().principals > 0, 'B caching again');
  await a.pool.query(sql.unsafe`DELETE FROM api_tokens WHERE id = ${fresh.id}`);
  await refusedWithin(t, b, path, fresh.auth, 401);
});

test.serial('a token whose expiry is moved to the past, or whose scope loses the cluster, is refused on B', async (t) => {
  const expiring = await setUp();
  await a.pool.query(sql.unsafe`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ${expiring.token.id}`);
  await refusedWithin(t, b, expiring.path, expiring.token.auth, 401);

  const scoped = await setUp();
  await a.pool.query(sql.unsafe`DELETE FROM api_token_clusters WHERE token_id = ${scoped.token.id}`);
  await refusedWithin(t, b, scoped.path, scoped.token.auth, 403);
});

test.serial('a session ended on A (sign-out, password change) is refused on A at once and on B within a second', async (t) => {
  const { owner, path } = await setUp();
  t.is(await get(b, path, owner.auth), 200);
  const out = await a.request('/auth/logout', { method: 'POST', headers: owner.auth });
  t.true(out.ok, await out.text());
  t.is(await get(a, path, owner.auth), 401);
  await refusedWithin(t, b, path, owner.auth, 401);

  // A password change ends the account's other sessions.
  const user = await signUp(a, 'changer');
  const clusterId = await createCluster(a, user);
  const other = await a.request('/auth/login', json({ email: user.email, password: PASSWORD }));
  const otherAuth = { Authorization: `Bearer ${(await body(other)).accessToken}` };
  const clusterPath = `/api/v1/clusters/${clusterId}`;
  t.is(await get(b, clusterPath, otherAuth), 200);
  const changed = await a.request(
    '/api/v1/account/password',
    json({ currentPassword: PASSWORD, newPassword: 'another long password' }, { headers: user.auth }),
  );
  t.true(changed.ok, await changed.text());
  t.is(await get(a, clusterPath, otherAuth), 401);
  await refusedWithin(t, b, clusterPath, otherAuth, 401);
});

test.serial(
  'a refused request that still changed something (a replayed refresh token) is seen on A at once, even with its notifications held back',
  async (t) => {
    const user = await signUp(a, 'replayed');
    const clusterId = await createCluster(a, user);
    const path = `/api/v1/clusters/${clusterId}`;
    const refreshed = await a.request('/auth/refresh', json({ refreshToken: user.refreshToken }));
    t.is(refreshed.status, 200);
    const newest = { Authorization: `Bearer ${(await body(refreshed)).accessToken}` };
    await until(async () => (await get(a, path, newest)) === 200 && a.deps.principals!.active() && a.deps.principals!.size().principals > 0, 'A caching');
    // Hold A's notifications back: its listening backend is stopped, so neither the session's invalidation nor a fence
    // can arrive. Only A's own bookkeeping can keep it from answering from the cache.
    const pid = a.deps.principals!.listenerPid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      const replay = await a.request('/auth/refresh', json({ refreshToken: user.refreshToken }));
      t.is(replay.status, 401);
      t.regex((await body(replay)).message, /already used/);
      t.false(a.deps.principals!.active());
      t.is(await get(a, path, newest), 401);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  },
);

test.serial('a member removed or demoted on A loses the access on B within a second; a deleted cluster is gone on B', async (t) => {
  const { owner, clusterId } = await setUp();
  const member = await signUp(a, 'member');
  await addMember(a, clusterId, member, 'ADMIN');
  const auditPath = `/api/v1/clusters/${clusterId}/audit-log`;
  t.is(await get(b, auditPath, member.auth), 200);
  const demoted = await a.request(`/api/v1/clusters/${clusterId}/members/${member.id}`, patch({ role: 'VIEWER' }, owner.auth));
  t.is(demoted.status, 200);
  t.is(await get(a, auditPath, member.auth), 403);
  await refusedWithin(t, b, auditPath, member.auth, 403);

  const path = `/api/v1/clusters/${clusterId}`;
  t.is(await get(b, path, member.auth), 200);
  const removed = await a.request(`/api/v1/clusters/${clusterId}/members/${member.id}`, { method: 'DELETE', headers: owner.auth });
  t.true(removed.ok);
  t.is(await get(a, path, member.auth), 403);
  await refusedWithin(t, b, path, member.auth, 403);

  // A promotion counts as much: a cached "not a member" goes too.
  await addMember(a, clusterId, member, 'VIEWER');
  await until(async () => (await get(b, path, member.auth)) === 200, 'B seeing the new membership', ACROSS_NODES_MS);

  t.is(await get(b, path, owner.auth), 200);
  const deleted = await a.request(path, { method: 'DELETE', headers: owner.auth });
  t.true(deleted.ok, await deleted.text());
  t.is(await get(a, path, owner.auth), 404);
  await refusedWithin(t, b, path, owner.auth, 404);
});

test.serial(
  'only a request that changed a principal makes its node wait for its invalidations: a power job or a rename leaves the cache answering',
  async (t) => {
    const { owner, clusterId, path } = await setUp();
    const machine = await registerMachine(a, owner);
    const server = await createFakeServer(a, owner, machine.clusterId, machine.machineId);
    const cache = a.deps.principals!;
    const afterChange = cache.afterChange;
    let waits = 0;
    Object.assign(cache, { afterChange: () => (waits++, afterChange()) });
    try {
      // A job (no agent: it waits queued) and a renamed cluster change nothing a request is decided on.
      const started = await a.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: owner.auth });
      t.is(started.status, 202, await started.text());
      const renamed = await a.request(path, patch({ name: 'renamed' }, owner.auth));
      t.is(renamed.status, 200, await renamed.text());
      t.is(waits, 0);
      // A new cluster makes its creator a member; a revoked token is a principal gone: each waits once.
      await createCluster(a, owner);
      t.is(waits, 1);
      const spare = await createApiToken(a, owner, [clusterId]);
      const revoked = await a.request(`/api/v1/account/tokens/${spare.id}`, { method: 'DELETE', headers: owner.auth });
      t.true(revoked.ok);
      t.is(waits, 3); // the token's creation names its clusters (api_token_clusters), and its revocation
      t.is(await get(a, `/api/v1/clusters/${clusterId}`, spare.auth), 401);
    } finally {
      Object.assign(cache, { afterChange });
    }
  },
);

test.serial(
  "a server's cluster is cached for the requests naming it; a server deleted (alone or with its machine) or moved is dropped on B within a second",
  async (t) => {
    const owner = await signUp(a, 'servers');
    const { clusterId, machineId } = await registerMachine(a, owner);
    const server = await createFakeServer(a, owner, clusterId, machineId);
    // The power routes name the server: their authentication reads its cluster and the caller's role there.
    const start = (node: TestApp, user: TestUser) =>
      node.request(`/api/v1/servers/${server.id}/start`, { method: 'POST', headers: user.auth }).then(async (r) => (await r.arrayBuffer(), r.status));
    t.is(await start(b, owner), 202);
    await until(async () => (await start(b, owner)) < 500 && b.deps.principals!.serverCluster(server.id) === clusterId, "B caching the server's cluster");
    t.is(b.deps.principals!.membership(owner.id, clusterId)?.role, 'OWNER');
    // Another member's role still decides: a viewer may not start it.
    const viewer = await signUp(a, 'viewer');
    await addMember(a, clusterId, viewer, 'VIEWER');
    t.is(await start(b, viewer), 403);

    await a.pool.query(sql.unsafe`DELETE FROM servers WHERE id = ${server.id}`);
    await until(async () => b.deps.principals!.serverCluster(server.id) === undefined, "B dropping the server's cluster", ACROSS_NODES_MS);
    t.is(await start(b, owner), 404);

    // Servers going with their machine (a cascade), and one moved to another cluster by hand, are dropped too.
    const cached = async (id: string, cluster: string) => {
      await b.request(`/api/v1/servers/${id}/start`, { method: 'POST', headers: owner.auth }).then((r) => r.arrayBuffer());
      await until(async () => b.deps.principals!.serverCluster(id) === cluster, "B caching the server's cluster");
    };
    const [first, second] = [await createFakeServer(a, owner, clusterId, machineId), await createFakeServer(a, owner, clusterId, machineId)];
    await cached(first.id, clusterId);
    await cached(second.id, clusterId);
    await a.pool.query(sql.unsafe`DELETE FROM machines WHERE id = ${machineId}`);
    await until(
      async () => b.deps.principals!.serverCluster(first.id) === undefined && b.deps.principals!.serverCluster(second.id) === undefined,
      "B dropping the machine's servers",
      ACROSS_NODES_MS,
    );
    const moved = await registerMachine(a, owner);
    const movedServer = await createFakeServer(a, owner, moved.clusterId, moved.machineId);
    await cached(movedServer.id, moved.clusterId);
    const elsewhere = await createCluster(a, owner);
    await a.pool.query(sql.unsafe`UPDATE servers SET cluster_id = ${elsewhere} WHERE id = ${movedServer.id}`);
    await until(async () => b.deps.principals!.serverCluster(movedServer.id) === undefined, 'B dropping the moved server', ACROSS_NODES_MS);
  },
);

test.serial('where notices do not reach the process, every request that may change something makes the cache wait', async (t) => {
  const cache = a.deps.principals!;
  const afterChange = cache.afterChange;
  let waits = 0;
  Object.assign(cache, { afterChange: () => (waits++, afterChange()) });
  try {
    const middleware = principalChanges(cache, null);
    const run = (method: string, path = '/api/v1/clusters') => middleware({ method, path } as Parameters<typeof middleware>[0], async () => undefined);
    await run('GET');
    await run('HEAD');
    t.is(waits, 0);
    await run('POST');
    await run('DELETE');
    t.is(waits, 2);
    // An OAuth callback is a GET that can make a membership (an invitation accepted on sign-in).
    await run('GET', '/api/v1/auth/steam/callback');
    await run('GET', '/auth/discord/callback');
    t.is(waits, 4);
  } finally {
    Object.assign(cache, { afterChange });
  }
});

test.serial("a user's tier changed by another writer reaches B's principal within a second", async (t) => {
  const { owner, token } = await setUp();
  const onB = createAuthenticator(b.deps);
  t.is((await onB.resolve(token.auth.Authorization)).principal.user.tier, 'FREE');
  t.is((await onB.resolve(token.auth.Authorization)).principal.user.tier, 'FREE');
  await setTier(a.pool, owner.email, 'PRO');
  await until(async () => (await onB.resolve(token.auth.Authorization)).principal.user.tier === 'PRO', "B seeing the user's new tier", ACROSS_NODES_MS);
  t.pass();
});

test.serial('the cache is bounded: the oldest entry goes first, and none is answered past its age', async (t) => {
  const cache = await startPrincipalCache<string>({ databaseUrl: a.database.url, logger: captureLogs().logger, maxEntries: 2, maxAgeMs: 300 });
  try {
    await until(async () => cache.active(), 'the cache listening', 5_000);
    for (const key of ['one', 'two', 'three']) cache.storePrincipal(key, key, [`t:${key}`], cache.epoch());
    t.is(cache.principal('one'), undefined);
    t.is(cache.principal('two'), 'two');
    t.is(cache.principal('three'), 'three');
    // A read that overlapped an invalidation is not kept.
    const epoch = cache.epoch();
    await a.pool.query(sql.unsafe`SELECT pg_notify('gsm_principal', 't:two')`);
    await until(async () => cache.principal('two') === undefined, 'the invalidation', ACROSS_NODES_MS);
    cache.storePrincipal('four', 'four', ['t:four'], epoch);
    t.is(cache.principal('four'), undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    t.is(cache.principal('three'), undefined);
  } finally {
    await cache.close();
  }
});
