/**
 * CORS_ORIGINS: a browser app on an allowed origin gets its preflight answered (before authentication and rate
 * limits) and can read answers, errors and the headers clients need; any other origin gets no CORS header; the
 * Socket.IO `/live` handshake follows the same list; the setting itself is validated.
 */
import test from 'ava';
import { body, json, useTestApp } from '../support/app.ts';
import { signUp } from '../support/identity.ts';
import { ConfigError, loadConfig } from '../../schema/config.ts';

const PANEL = 'https://panel.example.org';
const app = useTestApp(test, { env: { CORS_ORIGINS: `${PANEL}, http://localhost:5173` } });

test('a preflight from an allowed origin is answered 204 with the methods and headers, before authentication', async (t) => {
  const answer = await app().request('/api/v1/clusters', {
    method: 'OPTIONS',
    headers: { Origin: PANEL, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key' },
  });
  t.is(answer.status, 204);
  t.is(answer.headers.get('access-control-allow-origin'), PANEL);
  t.regex(answer.headers.get('access-control-allow-methods') ?? '', /POST/);
  t.regex(answer.headers.get('access-control-allow-headers') ?? '', /Authorization.*Content-Type.*Idempotency-Key/);
  t.is(answer.headers.get('access-control-max-age'), '600');
  t.regex(answer.headers.get('vary') ?? '', /Origin/);
});

test('answers to an allowed origin carry CORS headers, errors included; the headers clients read are exposed', async (t) => {
  const user = await signUp(app());
  const created = await app().request('/api/v1/clusters', json({ name: 'cors' }, { headers: { ...user.auth, Origin: 'http://localhost:5173' } }));
  t.is(created.status, 201);
  t.is(created.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  t.regex(created.headers.get('access-control-expose-headers') ?? '', /Location.*Retry-After.*X-Request-Id/);
  const refused = await app().request('/api/v1/clusters', { headers: { Origin: PANEL } });
  t.is(refused.status, 401);
  t.is(refused.headers.get('access-control-allow-origin'), PANEL, 'a page can read why it was refused');
  t.is((await body(refused)).statusCode, 401);
});

test('another origin gets no CORS header, and its preflight is not answered as one', async (t) => {
  const answer = await app().request('/api/v1/clusters', { headers: { Origin: 'https://evil.example.com' } });
  t.is(answer.headers.get('access-control-allow-origin'), null);
  const preflight = await app().request('/api/v1/clusters', {
    method: 'OPTIONS',
    headers: { Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'DELETE' },
  });
  t.is(preflight.headers.get('access-control-allow-origin'), null);
  t.not(preflight.status, 204);
});

test('the Socket.IO handshake of /live follows the same origins', async (t) => {
  const allowed = await app().request('/socket.io/?EIO=4&transport=polling', { headers: { Origin: PANEL } });
  t.is(allowed.status, 200);
  t.is(allowed.headers.get('access-control-allow-origin'), PANEL);
  const other = await app().request('/socket.io/?EIO=4&transport=polling', { headers: { Origin: 'https://evil.example.com' } });
  t.not(other.headers.get('access-control-allow-origin'), 'https://evil.example.com');
});

test('CORS_ORIGINS: a comma list of origins or *, anything else refused naming it', (t) => {
  t.deepEqual(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3000/' }).CORS_ORIGINS, ['https://a.example', 'http://localhost:3000']);
  t.deepEqual(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS, ['*']);
  t.deepEqual(loadConfig({}).CORS_ORIGINS, []);
  for (const bad of ['https://a.example/path', 'ftp://a.example', 'not a url']) {
    const error = t.throws(() => loadConfig({ CORS_ORIGINS: bad }), { instanceOf: ConfigError });
    t.regex(error!.message, /CORS_ORIGINS/);
  }
});
