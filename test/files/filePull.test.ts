/**
 * Pulling a file from a URL end to end (docs/files.md#archives-and-pulls): the FILE_PULL job run by the orchestrator's
 * worker under the webhooks' address rules, the bytes written by the real agent's file helper as the server's account.
 * Loopback is allowed here through WEBHOOK_ALLOW_PRIVATE_NETWORKS (the test's HTTP server is local); without it the
 * same guard refuses loopback, also behind a redirect.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { registerMachine, type AgentProcess } from '../support/agentProcess.ts';
import { accountPrefix, isRoot, removeTestAccounts, startFilesAgent } from '../support/serverAccounts.ts';
import { openGuarded } from '../../orchestrator/webhooks/fetch.ts';
import { startTestApp } from '../support/app.ts';
import { silentNameServer } from '../support/nameServer.ts';
import { sql } from 'slonik';
import { z } from 'zod';

const prefix = accountPrefix();
const MAX_BYTES = 1024 * 1024;
const payload = randomBytes(600 * 1024);
let app: GatewayApp;
let owner: TestUser;
let agent: AgentProcess;
let serverId: string;
let serverDir: string;
let origin: Server;
let base: string;
let nameServer: Awaited<ReturnType<typeof silentNameServer>>;
const stalled: ServerResponse[] = [];

test.before(async () => {
  origin = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin');
    if (url.pathname === '/file.bin') return response.writeHead(200, { 'content-length': payload.length }).end(payload);
    if (url.pathname === '/server.properties') return response.writeHead(200, { 'content-type': 'text/plain' }).end('motd=pulled\nmax-players=20\n');
    if (url.pathname === '/redirect') return response.writeHead(302, { location: '/file.bin' }).end();
    if (url.pathname === '/redirect-credentials')
      return response.writeHead(302, { location: `http://user:secret@127.0.0.1:${(origin.address() as AddressInfo).port}/file.bin` }).end();
    if (url.pathname === '/big') return response.writeHead(200, { 'content-length': MAX_BYTES + 1 }).end(Buffer.alloc(MAX_BYTES + 1));
    if (url.pathname === '/big-chunked') {
      // No length announced: the limit stops it while it streams.
      response.writeHead(200);
      for (let i = 0; i < 8; i++) response.write(Buffer.alloc(256 * 1024));
      return response.end();
    }
    if (url.pathname === '/slow') {
      // The headers at once, the body over longer than openGuarded's headers time-out below: a slow mirror.
      response.writeHead(200);
      let sent = 0;
      const timer = setInterval(() => {
        response.write(payload.subarray(sent, sent + 64 * 1024));
        sent += 64 * 1024;
        if (sent >= payload.length) {
          clearInterval(timer);
          response.end();
        }
      }, 100);
      return;
    }
    if (url.pathname === '/stall') {
      // Some bytes, then nothing: the idle time-out ends the pull.
      response.writeHead(200);
      response.write(Buffer.alloc(1024));
      stalled.push(response);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  // Names are resolved at a name server that never answers (the URLs here are addresses, which need none).
  nameServer = await silentNameServer();
  app = await startGatewayApp({
    // Generous: a loaded machine can delay a beat past 3 s, and the tests here are not about liveness.
    heartbeatSeconds: 5,
    authTimeoutMs: 2_000,
    worker: true,
    env: {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DNS_SERVERS: nameServer.address,
      WEBHOOK_DNS_TIMEOUT_MS: '500',
      FILES_PULL_MAX_BYTES: String(MAX_BYTES),
      FILES_PULL_IDLE_SECONDS: '2',
    },
  });
  owner = await signUp(app);
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  ({ agent, serverId, serverDir } = await startFilesAgent(app, owner, { clusterId, machineId, token }, { prefix }));
});

test.after.always(async () => {
  await agent?.stop();
  await app?.close();
  for (const response of stalled) response.destroy();
  origin?.close();
  await nameServer?.close();
  removeTestAccounts(prefix);
});

type JobView = { id: string; status: string; result: Record<string, unknown> | null; error: { code: string; message: string } | null; progress: unknown };

const pull = (body: unknown) => app.request(`/api/v1/servers/${serverId}/files/pull`, json(body, { headers: owner.auth }));

async function pulled(body: unknown): Promise<JobView> {
  const accepted = await pull(body);
  if (accepted.status !== 202) throw new Error(`${accepted.status} ${await accepted.text()}`);
  const { id } = (await accepted.json()) as JobView;
  let last!: JobView;
  await until(async () => {
    last = (await (await app.request(`/api/v1/jobs/${id}`, { headers: owner.auth })).json()) as JobView;
    return ['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'].includes(last.status);
  }, 'the FILE_PULL job ends');
  return last;
}

test.serial('a pull writes the URL into the server directory as the account, following a redirect, and is audited with path and size', async (t) => {
  const job = await pulled({ url: `${base}/redirect`, path: '/mods/pulled.bin' });
  t.is(job.status, 'SUCCEEDED', JSON.stringify(job.error));
  t.is(job.result?.size, payload.length);
  t.is(job.result?.url, `${base}/file.bin`);
  t.deepEqual(await readFile(join(serverDir, 'mods/pulled.bin')), payload);
  if (isRoot) t.is((await stat(join(serverDir, 'mods/pulled.bin'))).uid, (await stat(serverDir)).uid);
  const audit = await app.pool.any(sql.type(z.object({ action: z.string(), details: z.object({ path: z.string(), size: z.number().optional() }) }))`
    SELECT action, details FROM audit_log WHERE target_id = ${serverId} AND action IN ('server.file_pull', 'server.file_write') ORDER BY at, id`);
  t.deepEqual(
    audit.map((row) => [row.action, row.details.path, row.details.size ?? null]),
    [
      ['server.file_pull', '/mods/pulled.bin', null],
      ['server.file_write', '/mods/pulled.bin', payload.length],
    ],
  );
});

test.serial("a pull's URL is shown and audited without its query string (a token, often)", async (t) => {
  const job = await pulled({ url: `${base}/file.bin?token=s3cr3t#frag`, path: '/token.bin' });
  t.is(job.status, 'SUCCEEDED', JSON.stringify(job.error));
  t.is(job.result?.url, `${base}/file.bin?…`);
  const audit = await app.pool.any(sql.type(z.object({ details: z.record(z.string(), z.unknown()) }))`
    SELECT details FROM audit_log WHERE target_id = ${serverId} AND details->>'path' = '/token.bin'`);
  t.is(audit.length, 2);
  t.false(JSON.stringify(audit).includes('s3cr3t'));
});

test.serial('more than FILES_PULL_MAX_BYTES is refused, announced or not, and nothing is left', async (t) => {
  const announced = await pulled({ url: `${base}/big`, path: '/big.bin' });
  t.is(announced.status, 'FAILED');
  t.is(announced.error?.code, 'TOO_LARGE');
  const streamed = await pulled({ url: `${base}/big-chunked`, path: '/big.bin' });
  t.is(streamed.status, 'FAILED');
  t.is(streamed.error?.code, 'TOO_LARGE', streamed.error?.message);
  t.false(
    await stat(join(serverDir, 'big.bin')).then(
      () => true,
      () => false,
    ),
  );
  const left = (await (await app.request(`/api/v1/servers/${serverId}/files`, { headers: owner.auth })).json()) as { entries: { name: string }[] };
  t.false(
    left.entries.some((entry) => entry.name.includes('.tmp')),
    'no temporary file left',
  );
});

test.serial('URLs that are not http(s), or carry credentials, are 400; a redirect to one fails the job', async (t) => {
  t.is((await pull({ url: 'file:///etc/passwd', path: '/passwd' })).status, 400);
  t.is((await pull({ url: `http://user:pw@127.0.0.1:1/x`, path: '/x' })).status, 400);
  t.is((await pull({ url: `${base}/file.bin`, path: '/../escape' })).status, 400);
  const job = await pulled({ url: `${base}/redirect-credentials`, path: '/cred.bin' });
  t.is(job.status, 'FAILED');
  t.is(job.error?.code, 'URL_REFUSED');
});

test.serial('without WEBHOOK_ALLOW_PRIVATE_NETWORKS the guard refuses loopback, by address and by name', async (t) => {
  const guarded = { allowPrivate: false, timeoutMs: 5_000, userAgent: 'gsm-test' };
  const direct = await openGuarded(`${base}/file.bin`, guarded);
  t.false(direct.ok);
  const byName = await openGuarded(`http://localhost:${(origin.address() as AddressInfo).port}/file.bin`, guarded);
  t.false(byName.ok);
  t.regex((byName as { error: string }).error, /private or reserved/);
  const mapped = await openGuarded(`http://[::ffff:127.0.0.1]:${(origin.address() as AddressInfo).port}/file.bin`, guarded);
  t.false(mapped.ok, 'an IPv4-mapped IPv6 loopback address');
});

test.serial('the headers time-out does not cut a body that takes longer', async (t) => {
  const opened = await openGuarded(`${base}/slow`, { allowPrivate: true, timeoutMs: 300, userAgent: 'gsm-test' });
  if (!opened.ok) return t.fail(opened.error);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.response as AsyncIterable<Buffer>) chunks.push(chunk);
  t.deepEqual(Buffer.concat(chunks), payload);
});

test.serial('a pull of a slow URL succeeds; one whose URL stops sending fails with TIMEOUT after FILES_PULL_IDLE_SECONDS', async (t) => {
  const slow = await pulled({ url: `${base}/slow`, path: '/slow.bin' });
  t.is(slow.status, 'SUCCEEDED', JSON.stringify(slow.error));
  t.deepEqual(await readFile(join(serverDir, 'slow.bin')), payload);
  const stall = await pulled({ url: `${base}/stall`, path: '/stall.bin' });
  t.is(stall.status, 'FAILED');
  t.is(stall.error?.code, 'TIMEOUT', stall.error?.message);
  t.false(
    await stat(join(serverDir, 'stall.bin')).then(
      () => true,
      () => false,
    ),
  );
});

test.serial('a pulled text file over an existing one is kept in the config history, like a write through the API', async (t) => {
  const put = await app.request(`/api/v1/servers/${serverId}/files/content?path=/server.properties`, {
    method: 'PUT',
    headers: owner.auth,
    body: 'motd=before\n',
  });
  t.is(put.status, 200);
  const job = await pulled({ url: `${base}/server.properties`, path: '/server.properties' });
  t.is(job.status, 'SUCCEEDED', JSON.stringify(job.error));
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=pulled\nmax-players=20\n');
  const versions = (await (await app.request(`/api/v1/servers/${serverId}/files/versions?path=/server.properties`, { headers: owner.auth })).json()) as {
    data: { id: string; via: string; size: number }[];
  };
  t.is(versions.data.length, 2, 'the write and the pull');
  t.is(job.result?.versionId, versions.data[0]!.id);
  t.like(versions.data[0], { via: 'api', size: 'motd=pulled\nmax-players=20\n'.length });
  const newest = (await (await app.request(`/api/v1/servers/${serverId}/files/versions/${versions.data[0]!.id}`, { headers: owner.auth })).json()) as {
    content: string;
  };
  t.is(newest.content, 'motd=pulled\nmax-players=20\n');
  // A binary file is written but not kept.
  const binary = await pulled({ url: `${base}/file.bin`, path: '/binary.bin' });
  t.is(binary.result?.versionId, null);
});

test.serial(
  "names are resolved by the webhooks' bounded resolver: a name server that never answers fails a pull, and a request, within WEBHOOK_DNS_TIMEOUT_MS",
  async (t) => {
    const asked = nameServer.queries();
    const job = await pulled({ url: 'http://mirror.never-answers.example/file.bin', path: '/never.bin' });
    t.is(job.status, 'FAILED');
    t.is(job.error?.code, 'URL_REFUSED');
    t.regex(job.error?.message ?? '', /ETIMEOUT: DNS: no answer for mirror\.never-answers\.example within 0\.5 s/);
    t.true(nameServer.queries() > asked, 'the configured name server was asked');
    // The request itself resolves the name when private addresses are refused (another API node of this installation).
    const node = await startTestApp(
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_DNS_SERVERS: nameServer.address, WEBHOOK_DNS_TIMEOUT_MS: '500' },
      { node: app },
    );
    t.teardown(() => node.close());
    const before = nameServer.queries();
    const refused = await node.request(
      `/api/v1/servers/${serverId}/files/pull`,
      json({ url: 'http://mirror2.never-answers.example/file.bin', path: '/never.bin' }, { headers: owner.auth }),
    );
    t.is(refused.status, 400);
    t.regex(((await refused.json()) as { message: string }).message, /mirror2\.never-answers\.example cannot be resolved \(ETIMEOUT\)/);
    t.true(nameServer.queries() > before, 'the configured name server was asked');
  },
);
