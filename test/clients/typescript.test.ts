/**
 * The TypeScript client (api/clients/typescript) against the real service and the real agent: its generated types match
 * the live document; restart-and-wait; pagination; the event stream resumes after a cut connection with no event
 * missed or repeated; 429 answers are waited out as Retry-After says and a retried POST keeps its Idempotency-Key (one
 * job); network errors are retried.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'slonik';
import { ApiError, GsmClient, type ClusterEvent, type Job, type Server } from '../../api/clients/typescript/src/client.ts';
import { body } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { GENERATED_CLIENT_FILES } from './clientTypes.ts';

let app: GatewayApp;
let owner: TestUser;
let apiToken: string;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  owner = await signUp(app);
  // The owner's session token: an API token is scoped to the clusters that exist when it is made.
  apiToken = owner.accessToken;
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

test('the generated types of the three clients are those of the live API document (npm run generate:client after a change)', async (t) => {
  const document = (await body(await app.request('/api/docs/openapi.json'))) as object;
  for (const { file, generate } of GENERATED_CLIENT_FILES)
    t.is(await readFile(file, 'utf8'), await generate(document), `${file} is out of date: npm run generate:client`);
});

test.serial('restart and wait in two lines; pagination; errors carry the API’s message', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  const servers = [];
  for (let i = 0; i < 3; i++) servers.push(await createFakeServer(app, owner, clusterId, machineId, { name: `fake ${i}` }));
  const client = new GsmClient({ baseUrl: app.url, token: apiToken });

  const job = await client.post<Job>(`/api/v1/servers/${servers[0]!.id}/restart`);
  const done = await client.waitForJob(job.id);
  t.is(done.status, 'SUCCEEDED', JSON.stringify(done.error));
  t.is((await client.get<Server>(`/api/v1/servers/${servers[0]!.id}`)).status, 'ONLINE');

  const names: string[] = [];
  for await (const server of client.paginate<Server>(`/api/v1/clusters/${clusterId}/servers`, { limit: 1, sort: 'name' })) names.push(server.name);
  t.deepEqual(names, ['fake 0', 'fake 1', 'fake 2']);

  const error = await client.get('/api/v1/servers/00000000-0000-7000-8000-000000000000').catch((e: unknown) => e);
  t.true(error instanceof ApiError);
  t.like(error, { statusCode: 404, message: 'Server not found', error: 'Not Found' });
  const invalid = await client.post(`/api/v1/clusters/${clusterId}/servers`, { name: '' }).catch((e: unknown) => e);
  t.is((invalid as ApiError).statusCode, 400);
  t.true((invalid as ApiError).details!.some((detail) => detail.field === 'name'));
});

test.serial('the event stream resumes after a cut connection: nothing missed, nothing twice', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const port = Number(new URL(app.url).port);
  const proxy = await startTcpProxy({ host: '127.0.0.1', port });
  t.teardown(() => proxy.close());
  const client = new GsmClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, token: apiToken, backoffMs: 100 });
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  // Read from a known point (the cluster's last event so far), so a slow first connection cannot miss the first flip.
  const before = (await body(await app.request(`/api/v1/clusters/${clusterId}/events?limit=100`, { headers: owner.auth }))) as { data: ClusterEvent[] };
  const seen: ClusterEvent[] = [];
  const reading = (async () => {
    for await (const event of client.events(clusterId, { types: ['machine.status'], after: before.data.at(-1)?.id ?? '0', signal: controller.signal }))
      seen.push(event);
  })();
  // Seen "just now" for the next ten minutes: the gateway's sweep of silent machines (3 s here) must not flip it too.
  const flip = (status: string) =>
    app.pool.query(sql.unsafe`UPDATE machines SET status = ${status}, last_seen_at = now() + interval '10 minutes' WHERE id = ${machineId}`);
  await flip('ONLINE');
  await until(async () => seen.length === 1, 'the first event');
  await proxy.down(); // the connection is cut; events happen meanwhile
  await flip('OFFLINE');
  await flip('ONLINE');
  await proxy.up();
  await until(async () => seen.length === 3, 'the events made while disconnected', 20_000);
  await flip('OFFLINE');
  await until(async () => seen.length === 4, 'a live event after the resume');
  controller.abort();
  await reading;
  t.deepEqual(
    seen.map((event) => (event.data as { status: string }).status),
    ['ONLINE', 'OFFLINE', 'ONLINE', 'OFFLINE'],
  );
  t.is(new Set(seen.map((event) => event.id)).size, 4);
});

/** A stub API in front of nothing: answers as `answer` says, recording each request. */
async function stub(
  answer: (request: IncomingMessage, count: number) => { status: number; headers?: Record<string, string>; body?: unknown; raw?: string } | 'destroy',
) {
  const requests: { method: string; url: string; key: string | undefined; lastEventId: string | undefined; at: number }[] = [];
  const server = createServer((request, response) => {
    requests.push({
      method: request.method!,
      url: request.url!,
      key: request.headers['idempotency-key'] as string | undefined,
      lastEventId: request.headers['last-event-id'] as string | undefined,
      at: Date.now(),
    });
    request.resume();
    const reply = answer(request, requests.length);
    if (reply === 'destroy') return void request.socket.destroy();
    response
      .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
      .end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('429 is waited out as Retry-After says; a retried POST keeps its Idempotency-Key', async (t) => {
  const api = await stub((_request, count) =>
    count === 1
      ? { status: 429, headers: { 'retry-after': '1' }, body: { statusCode: 429, message: 'Too Many Requests', error: 'Too Many Requests' } }
      : { status: 202, body: { id: 'j1' } },
  );
  t.teardown(() => api.close());
  const client = new GsmClient({ baseUrl: api.url, token: 'gsm_live_x' });
  const answer = await client.post<{ id: string }>('/api/v1/servers/s/restart');
  t.is(answer.id, 'j1');
  t.is(api.requests.length, 2);
  t.true(api.requests[1]!.at - api.requests[0]!.at >= 950, 'waited the second Retry-After asked for');
  t.truthy(api.requests[0]!.key);
  t.is(api.requests[1]!.key, api.requests[0]!.key, 'the same Idempotency-Key both times');
});

test('a network error and a 503 are retried; a 500 and a 400 are not', async (t) => {
  const api = await stub((request, count) => {
    if (request.url!.startsWith('/flaky'))
      return count === 1 ? 'destroy' : count === 2 ? { status: 503, headers: { 'retry-after': '0' } } : { status: 200, body: { ok: true } };
    return { status: request.url!.startsWith('/bad') ? 400 : 500, body: { statusCode: 400, message: 'Validation failed', error: 'Bad Request' } };
  });
  t.teardown(() => api.close());
  const client = new GsmClient({ baseUrl: api.url, backoffMs: 10 });
  t.deepEqual(await client.get('/flaky'), { ok: true });
  t.is(api.requests.length, 3);
  await t.throwsAsync(client.get('/broken'), { instanceOf: ApiError });
  t.is(api.requests.length, 4, 'a 500 is not retried');
  await t.throwsAsync(client.post('/bad', {}), { instanceOf: ApiError, message: 'Validation failed' });
  t.is(api.requests.length, 5);
});

test('against the real service, a POST repeated with its key makes one job', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await createFakeServer(app, owner, clusterId, machineId);
  const client = new GsmClient({ baseUrl: app.url, token: apiToken });
  const first = await client.post<Job>(`/api/v1/servers/${server.id}/start`, {}, { idempotencyKey: 'start-once' });
  const again = await client.post<Job>(`/api/v1/servers/${server.id}/start`, {}, { idempotencyKey: 'start-once' });
  t.is(again.id, first.id);
  t.is(Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM jobs WHERE server_id = ${server.id} AND type = 'START'`)), 1);
});

test('a sign-in POST is never repeated and carries no key (a repeated refresh would spend its token twice)', async (t) => {
  const api = await stub(() => 'destroy');
  t.teardown(() => api.close());
  await t.throwsAsync(new GsmClient({ baseUrl: api.url, backoffMs: 10 }).post('/api/v1/auth/refresh', { refreshToken: 'x' }));
  t.is(api.requests.length, 1);
  t.is(api.requests[0]!.key, undefined);
});

test('the event stream waits out a 503 and resumes from its first id line, and a block cut half-way is not counted', async (t) => {
  const event = JSON.stringify({ id: '0000000000000008', type: 'machine.status', clusterId: 'c', at: '2026-01-01T00:00:00.000Z', data: {} });
  const sse = { 'content-type': 'text/event-stream' };
  const api = await stub((_request, count) =>
    count === 1
      ? { status: 503, headers: { 'retry-after': '0' } }
      : count === 2
        ? { status: 200, headers: sse, raw: ': connected\n\nid: 0000000000000007\n\n' }
        : { status: 200, headers: sse, raw: `id: 0000000000000008\nevent: machine.status\ndata: ${event}\n\nid: 0000000000000009\ndata: {"id":` },
  );
  t.teardown(() => api.close());
  const controller = new AbortController();
  const got: string[] = [];
  for await (const received of new GsmClient({ baseUrl: api.url, backoffMs: 10 }).events('c', { signal: controller.signal })) {
    got.push(received.id);
    if (got.length === 2) break;
  }
  t.deepEqual(got, ['0000000000000008', '0000000000000008']);
  t.deepEqual(
    api.requests.slice(0, 4).map((request) => request.lastEventId),
    [undefined, undefined, '0000000000000007', '0000000000000008'],
  );
});
