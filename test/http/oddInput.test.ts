/**
 * Every documented route, called as a signed-in member with odd input: unknown and malformed ids, bodies of the
 * wrong shape, NUL characters, very long strings, out-of-range numbers. Whatever it is, the answer is a 4xx (or a
 * success) in the error format, never a 500.
 */
import test from 'ava';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';

const app = useTestApp(test);

const ODD_BODIES: unknown[] = [
  {},
  [],
  null,
  'text',
  42,
  { id: 'x'.repeat(5000) },
  { name: 'a\u0000b', url: 'http://\u0000', email: 'a@b\u0000', command: 'x\u0000' },
  { name: 'x'.repeat(100_000) },
  { page: -1, limit: 1e12, at: '99999-01-01T00:00:00Z', expiresAt: '0000-01-01T00:00:00Z', from: 'yesterday' },
  { events: ['*'], url: 'http://[::1', format: 'JSON', enabled: 'yes', clusterIds: ['nope'], role: 'GOD', steps: [{}] },
  { nested: { deep: { deeper: [1, 2, { x: null }] } } },
];
const ODD_QUERIES = ['', '?page=0', '?limit=100000', '?after=-1', '?status=%00', '?sort=%27%3B', `?q=${'x'.repeat(3000)}`, '?types=a,b,,', '?lines=1e3'];

test('no route answers 500 to odd input', async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const document = await body(await app().request('/api/docs/openapi.json'));
  const failures: string[] = [];
  let calls = 0;
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(operations)) {
      if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
      // Logging out or deleting the caller's own things would end the run early; the other routes do no harm here.
      if (/logout|account\/tokens\/\{|members\/me/.test(path) && method !== 'get') continue;
      for (const id of [clusterId, '00000000-0000-4000-8000-000000000000', 'not-an-id', '%00', 'x'.repeat(300)]) {
        const url = path.replace(/\{[^}]+\}/g, id);
        const bodies = method === 'get' || method === 'delete' ? [undefined] : ODD_BODIES;
        const queries = method === 'get' ? ODD_QUERIES : [''];
        for (const payload of bodies)
          for (const query of queries) {
            calls += 1;
            const response = await app()
              .request(
                `${url}${query}`,
                payload === undefined
                  ? { method: method.toUpperCase(), headers: owner.auth, redirect: 'manual' }
                  : json(payload, { method: method.toUpperCase(), headers: owner.auth, redirect: 'manual' }),
              )
              .catch((error: Error & { cause?: Error }) => ({
                status: 599,
                error: `${error.message}: ${error.cause?.message}`,
                arrayBuffer: async () => undefined,
              }));
            if ('error' in response) failures.push(`${method.toUpperCase()} ${url.slice(0, 120)}${query.slice(0, 40)} → ${response.error}`);
            if (response.status >= 500)
              failures.push(`${method.toUpperCase()} ${url.slice(0, 120)}${query.slice(0, 40)} ${JSON.stringify(payload)?.slice(0, 80)} → ${response.status}`);
            else await response.arrayBuffer();
          }
      }
    }
  }
  t.true(calls > 1000, `${calls} calls`);
  t.deepEqual(failures, []);
});
