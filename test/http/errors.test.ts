import test from 'ava';
import { z } from 'zod';
import { enumFilter, id, listAnswer, paginationQuery, sortQuery } from '../../schema/http.ts';
import { body as read, json, useTestApp } from '../support/app.ts';

const ERROR_KEYS = ['error', 'message', 'statusCode'];

/** A demo resource registered only in this test, exercising every validation helper. */
const app = useTestApp(test, {
  setup: ({ api }) => {
    api.route({
      method: 'post',
      path: '/test/widgets/:id',
      summary: 'demo',
      tags: ['Test'],
      auth: 'none',
      params: z.object({ id }),
      body: z
        .object({
          name: z.string().min(1).max(64),
          port: z.int().min(1024, 'port must be between 1024 and 65535').max(65535, 'port must be between 1024 and 65535'),
          steps: z.array(z.object({ command: z.string().min(1) }).strict()).optional(),
        })
        .strict(),
      status: 201,
      responses: { 201: { description: 'created' } },
      handler: (_ctx, { params, body }) => ({ id: params.id, ...body }),
    });
    api.route({
      method: 'get',
      path: '/test/widgets',
      summary: 'demo list',
      tags: ['Test'],
      auth: 'none',
      query: z
        .object({ ...paginationQuery, sort: sortQuery(['name', 'createdAt'], '-createdAt'), status: enumFilter(['ONLINE', 'OFFLINE']).optional() })
        .strict(),
      responses: { 200: { description: 'list' } },
      handler: (_ctx, { query }) => ({ ...listAnswer([], 41, query), echo: query }),
    });
    api.route({
      method: 'get',
      path: '/test/explode',
      summary: 'fails with internals in the message',
      tags: ['Test'],
      auth: 'none',
      responses: { 200: { description: 'never' } },
      handler: () => {
        throw new Error('relation "secret_table" does not exist at SELECT * FROM secret_table');
      },
    });
  },
});

const WIDGET = '/test/widgets/0192f0c4-1a2b-7c3d-8e4f-0123456789ab';

test('unknown route is a 404 in the error format', async (t) => {
  const response = await app().request('/api/v1/nothing-here');
  t.is(response.status, 404);
  const body = await read(response);
  t.deepEqual(Object.keys(body).sort(), ERROR_KEYS);
  t.is(body.statusCode, 404);
  t.is(body.error, 'Not Found');
});

test('wrong method is a 405 with Allow', async (t) => {
  const response = await app().request('/healthz', { method: 'DELETE' });
  t.is(response.status, 405);
  t.is(response.headers.get('allow'), 'HEAD, GET');
  const body = await read(response);
  t.is(body.statusCode, 405);
  t.is(body.error, 'Method Not Allowed');
});

test('a valid body passes and the success status is used', async (t) => {
  const response = await app().request(WIDGET, json({ name: 'alpha', port: 2000 }));
  t.is(response.status, 201);
  t.deepEqual(await read(response), { id: WIDGET.split('/').pop(), name: 'alpha', port: 2000 });
});

test('validation lists every bad field with dotted paths, and unknown fields', async (t) => {
  const response = await app().request(WIDGET, json({ name: '', port: 80, colour: 'red', steps: [{ command: '' }] }));
  t.is(response.status, 400);
  const body = await read(response);
  t.is(body.message, 'Validation failed');
  t.is(body.error, 'Bad Request');
  const fields = body.details.map((detail: { field: string }) => detail.field).sort();
  t.deepEqual(fields, ['colour', 'name', 'port', 'steps.0.command']);
  t.is(body.details.find((detail: { field: string }) => detail.field === 'port').message, 'port must be between 1024 and 65535');
  t.is(body.details.find((detail: { field: string }) => detail.field === 'colour').message, 'Unknown field');
});

test('a missing body reports the required fields', async (t) => {
  const response = await app().request(WIDGET, { method: 'POST' });
  t.is(response.status, 400);
  const body = await read(response);
  t.deepEqual(body.details.map((detail: { field: string }) => detail.field).sort(), ['name', 'port']);
});

test('wrong types are 400', async (t) => {
  const response = await app().request(WIDGET, json({ name: 5, port: '2000' }));
  t.is(response.status, 400);
  t.deepEqual((await read(response)).details.map((detail: { field: string }) => detail.field).sort(), ['name', 'port']);
});

test('a malformed id in the path is 404, not 400', async (t) => {
  for (const bad of ['not-an-id', '123', "1'; DROP TABLE x;--"]) {
    const response = await app().request(`/test/widgets/${encodeURIComponent(bad)}`, json({ name: 'a', port: 2000 }));
    t.is(response.status, 404, bad);
    t.is((await read(response)).statusCode, 404);
  }
});

test('malformed JSON is 400', async (t) => {
  const response = await app().request(WIDGET, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": "a",' });
  t.is(response.status, 400);
  t.is((await read(response)).message, 'Request body is not valid JSON');
});

test('JSON that is not an object or array is 400', async (t) => {
  const response = await app().request(WIDGET, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"text"' });
  t.is(response.status, 400);
});

test('a body that is not JSON is 415', async (t) => {
  for (const [type, body] of [
    ['text/plain', 'name=a'],
    ['application/x-www-form-urlencoded', 'name=a&port=2000'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
  ]) {
    const response = await app().request(WIDGET, { method: 'POST', headers: { 'content-type': type }, body });
    t.is(response.status, 415, type);
    const answer = await read(response);
    t.is(answer.statusCode, 415);
    t.is(answer.error, 'Unsupported Media Type');
  }
});

test('a body over 1 MiB is 413, declared or streamed', async (t) => {
  const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), port: 2000 });
  const declared = await app().request(WIDGET, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
  t.is(declared.status, 413);
  t.is((await read(declared)).statusCode, 413);

  // Chunked, with no Content-Length: refused while reading.
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(big));
      controller.close();
    },
  });
  const chunked = await app().request(WIDGET, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
  t.is(chunked.status, 413);
});

test('X-Request-Id is generated, or echoed when sane', async (t) => {
  const generated = await app().request('/healthz');
  t.regex(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);

  const echoed = await app().request('/healthz', { headers: { 'x-request-id': 'client-abc.123' } });
  t.is(echoed.headers.get('x-request-id'), 'client-abc.123');

  const injected = await app().request('/healthz', { headers: { 'x-request-id': 'bad id\twith spaces' } });
  t.not(injected.headers.get('x-request-id'), 'bad id\twith spaces');

  const onError = await app().request('/nowhere', { headers: { 'x-request-id': 'trace-404' } });
  t.is(onError.headers.get('x-request-id'), 'trace-404');
});

test('every log line of a request carries its request id', async (t) => {
  await app().request('/test/explode', { headers: { 'x-request-id': 'trace-explode' } });
  const lines = app()
    .logs()
    .filter((line) => line.requestId === 'trace-explode');
  t.true(lines.length >= 2, 'the error line and the request line');
  t.true(lines.some((line) => line.msg === 'request' || line.msg === 'request failed'));
});

test('a 500 never leaks internals; the log line with the same id has them', async (t) => {
  const response = await app().request('/test/explode', { headers: { 'x-request-id': 'trace-500' } });
  t.is(response.status, 500);
  const body = await read(response);
  t.deepEqual(body, { statusCode: 500, message: 'Internal Server Error', error: 'Internal Server Error' });
  const logged = JSON.stringify(
    app()
      .logs()
      .filter((line) => line.requestId === 'trace-500'),
  );
  t.true(logged.includes('secret_table'));
});

test('pagination defaults, bounds and the list meta', async (t) => {
  const defaults = await read(await app().request('/test/widgets'));
  t.deepEqual(defaults.meta, { total: 41, page: 1, limit: 20, totalPages: 3 });

  const custom = await read(await app().request('/test/widgets?page=3&limit=100'));
  t.deepEqual(custom.meta, { total: 41, page: 3, limit: 100, totalPages: 1 });

  for (const query of ['limit=101', 'limit=0', 'page=0', 'page=-1', 'page=abc', 'limit=2.5', 'page=1&page=2']) {
    const response = await app().request(`/test/widgets?${query}`);
    t.is(response.status, 400, query);
    const body = await read(response);
    t.is(body.message, 'Validation failed');
    t.true(body.details.length >= 1);
  }
});

test('sort accepts allowed fields with an optional minus, and rejects others', async (t) => {
  const ascending = await read(await app().request('/test/widgets?sort=name'));
  t.deepEqual(ascending.echo.sort, { field: 'name', descending: false });
  const descending = await read(await app().request('/test/widgets?sort=-createdAt'));
  t.deepEqual(descending.echo.sort, { field: 'createdAt', descending: true });
  const fallback = await read(await app().request('/test/widgets'));
  t.deepEqual(fallback.echo.sort, { field: 'createdAt', descending: true });

  const bad = await app().request('/test/widgets?sort=password');
  t.is(bad.status, 400);
  const body = await read(bad);
  t.is(body.details[0].field, 'sort');
  t.regex(body.details[0].message, /name, createdAt/);
});

test('enum filters accept any case and answer upper case', async (t) => {
  for (const value of ['online', 'ONLINE', 'Online']) {
    const body = await read(await app().request(`/test/widgets?status=${value}`));
    t.is(body.echo.status, 'ONLINE');
  }
  const bad = await app().request('/test/widgets?status=sleeping');
  t.is(bad.status, 400);
  t.is((await read(bad)).details[0].field, 'status');
});

test('unknown query parameters are 400', async (t) => {
  const response = await app().request('/test/widgets?stauts=online');
  t.is(response.status, 400);
  t.deepEqual((await read(response)).details, [{ field: 'stauts', message: 'Unknown field' }]);
});
