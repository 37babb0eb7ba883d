import test from 'ava';
import { body, useTestApp } from '../support/app.ts';
import { z } from 'zod';
import { OPERATION_IDS } from '../../api/http/operationIds.ts';

const app = useTestApp(test);

test('the OpenAPI document is 3.1 and lists every registered route with its method', async (t) => {
  const response = await app().request('/api/docs/openapi.json');
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /application\/json/);
  const document = await body(response);
  t.is(document.openapi, '3.1.0');
  t.truthy(document.info.title);
  t.deepEqual(document.info.license, { name: 'MIT', identifier: 'MIT' });

  // Every route the router knows (Koa path syntax) must be documented (OpenAPI path syntax) with the same methods.
  const registered = app().api.router.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method.toLowerCase()} ${String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
  );
  t.true(registered.length >= 6);
  const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method} ${path}`),
  );
  t.deepEqual([...new Set(registered)].sort(), documented.sort());
});

test('errors are documented with the shared Error schema', async (t) => {
  const document = await body(await app().request('/api/docs/openapi.json'));
  const error = document.components.schemas.Error;
  t.deepEqual(error.required.sort(), ['error', 'message', 'statusCode']);
  t.deepEqual(document.paths['/readyz'].get.responses['503'].content['application/json'].schema, { $ref: '#/components/schemas/Error' });
  const assets = document.paths['/api/docs/assets/{file}'].get.parameters[0];
  t.is(assets.in, 'path');
  t.true(assets.schema.enum.includes('swagger-ui-bundle.js'));
});

test('the reference page loads only same-origin assets, and they are served', async (t) => {
  const response = await app().request('/api/docs');
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /text\/html/);
  t.regex(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  const html = await response.text();
  t.false(/(src|href)="(https?:)?\/\//.test(html), 'no asset from another origin');
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  t.true(assets.length >= 4);
  for (const asset of assets) {
    const served = await app().request(asset);
    t.is(served.status, 200, asset);
    t.true((await served.arrayBuffer()).byteLength > 0, asset);
  }
  const init = await (await app().request('/api/docs/init.js')).text();
  t.true(init.includes("url: '/api/docs/openapi.json'"));
});

test('an unknown asset is 404', async (t) => {
  const response = await app().request('/api/docs/assets/..%2F..%2Fpackage.json');
  t.is(response.status, 404);
  t.is((await body(response)).statusCode, 404);
});

test('every operation has a readable, unique operationId from the table; aliases end in Alias', async (t) => {
  const document = await body(await app().request('/api/docs/openapi.json'));
  const named = new Set(Object.values(OPERATION_IDS));
  const ids: string[] = [];
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      ids.push(operation.operationId);
      t.regex(operation.operationId, /^[a-z][A-Za-z]*$/, `${method} ${path}`);
      t.true(named.has(operation.operationId.replace(/Alias$/, '')), `${method} ${path} has no name of its own in api/http/operationIds.ts`);
    }
  }
  t.is(new Set(ids).size, ids.length, 'operationIds are unique');
  t.is(document.paths['/api/v1/servers/{id}/start'].post.operationId, 'startServer');
  t.is(document.paths['/api/v1/clusters/{clusterId}/players'].get.operationId, 'listPlayers');
});

test('boolean query flags are booleans in the document, and their string forms are still accepted', async (t) => {
  const document = await body(await app().request('/api/docs/openapi.json'));
  const online = document.paths['/api/v1/clusters/{clusterId}/players'].get.parameters.find((parameter: { name: string }) => parameter.name === 'online');
  t.deepEqual(online.schema, { type: 'boolean' });
  const force = document.paths['/api/v1/machines/{id}'].delete.parameters.find((parameter: { name: string }) => parameter.name === 'force');
  t.deepEqual(force.schema, { type: 'boolean' });
});

test('Try-it-out calls the origin the page was opened on: the first server is the document’s own (relative) one', async (t) => {
  const document = await body(await app().request('/api/docs/openapi.json'));
  t.is(document.servers[0].url, '/');
});

test('error answers are documented with their real status in the example', async (t) => {
  const document = await body(await app().request('/api/docs/openapi.json'));
  const responses = document.paths['/api/v1/servers/{id}/install'].post.responses;
  for (const status of ['400', '401', '403', '404', '409', '429', '500']) {
    const content = responses[status].content['application/json'];
    t.deepEqual(content.schema, { $ref: '#/components/schemas/Error' }, status);
    t.is(content.example.statusCode, Number(status), status);
  }
  t.is(responses['409'].content['application/json'].example.message, 'The server is running, or it is a CUSTOM server without installCommand');
});

test('every record has an example, and every example is a valid record of its schema', async (t) => {
  const document = await body(await app().request('/api/docs/openapi.json'));
  const byId = (z.globalRegistry as unknown as { _idmap: Map<string, z.ZodType> })._idmap;
  for (const [name, component] of Object.entries(document.components.schemas as Record<string, { example?: unknown; examples?: unknown[] }>)) {
    const example = component.example ?? component.examples?.[0];
    t.not(example, undefined, `${name} has no example`);
    const schema = byId.get(name);
    t.truthy(schema, `${name} is a named zod schema`);
    const parsed = schema!.safeParse(example);
    t.true(parsed.success, `${name}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
  }
});
