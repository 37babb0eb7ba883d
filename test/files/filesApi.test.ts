/**
 * The server files API end to end (docs/files.md): the service, the gateway, the real agent as root with a real
 * account for the server (a test prefix, removed afterwards), the file helper running as that account; a server from
 * a cluster template gets the template's `files.deny` as its deny list.
 */
import test, { type ExecutionContext } from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { readFile, stat, symlink, writeFile, chown, lstat, mkdir, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { addMember, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, type AgentProcess } from '../support/agentProcess.ts';
import { accountPrefix, isRoot, removeTestAccounts, startFilesAgent } from '../support/serverAccounts.ts';

const prefix = accountPrefix();
let app: GatewayApp;
let owner: TestUser;
let moderator: TestUser;
let viewer: TestUser;
let agent: AgentProcess;
let serverId: string;
let serverDir: string;
let clusterId: string;
let machineId: string;

test.before(async () => {
  app = await startGatewayApp({
    heartbeatSeconds: 1,
    authTimeoutMs: 2_000,
    env: { FILES_MAX_TRANSFERS: '2', FILES_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) },
  });
  owner = await signUp(app);
  moderator = await signUp(app);
  viewer = await signUp(app);
  const registered = await registerMachine(app, owner);
  ({ clusterId, machineId } = registered);
  await addMember(app, clusterId, moderator, 'MODERATOR');
  await addMember(app, clusterId, viewer, 'VIEWER');
  ({ agent, serverId, serverDir } = await startFilesAgent(app, owner, registered, { prefix }));
});

test.after.always(async () => {
  await agent?.stop();
  await app?.close();
  removeTestAccounts(prefix);
});

const files = (path = '') => `/api/v1/servers/${serverId}/files${path}`;
const put = (path: string, content: string | Buffer, headers: Record<string, string> = {}, who = owner) =>
  app.request(`${files('/content')}?path=${encodeURIComponent(path)}`, {
    method: 'PUT',
    headers: { ...who.auth, 'content-type': 'application/octet-stream', ...headers },
    body: content,
  });
const get = (path: string, who = owner, headers: Record<string, string> = {}) => app.request(path, { headers: { ...who.auth, ...headers } });
const post = (path: string, payload: unknown, who = owner) => app.request(path, json(payload, { headers: who.auth }));

test.serial('roles: MODERATOR reads, only OWNER and ADMIN write, VIEWER sees nothing', async (t) => {
  t.is((await put('/motd.txt', 'hello\n')).status, 200);
  t.is((await get(files(), moderator)).status, 200);
  t.is((await get(`${files('/content')}?path=/motd.txt`, moderator)).status, 200);
  t.is((await put('/motd.txt', 'moderated\n', {}, moderator)).status, 403);
  t.is((await post(files('/directories'), { path: '/x' }, moderator)).status, 403);
  t.is((await get(files(), viewer)).status, 403);
  t.is((await get(`${files('/content')}?path=/motd.txt`, viewer)).status, 403);
  t.is(await readFile(join(serverDir, 'motd.txt'), 'utf8'), 'hello\n');
});

test.serial('write with ETag and If-Match: a stale version is 412 with the current one; files belong to the server account', async (t) => {
  const first = await put('/server.properties', 'motd=one\n', { 'if-none-match': '*' });
  t.is(first.status, 200);
  const written = await body(first);
  const etag = first.headers.get('etag')!;
  t.is(written.entry.etag, etag);
  t.truthy(written.versionId);
  if (isRoot) {
    const info = await stat(join(serverDir, 'server.properties'));
    const owner = await stat(serverDir);
    t.is(info.uid, owner.uid);
    t.not(info.uid, 0, 'not root’s');
  }
  t.is((await put('/server.properties', 'again', { 'if-none-match': '*' })).status, 412, 'If-None-Match: * on an existing file');
  const read = await body(await get(`${files('/content')}?path=/server.properties&format=text`));
  t.is(read.content, 'motd=one\n');
  t.is(read.etag, etag);
  const second = await put('/server.properties', 'motd=two\n', { 'if-match': etag });
  t.is(second.status, 200);
  const stale = await put('/server.properties', 'motd=lost\n', { 'if-match': etag });
  t.is(stale.status, 412);
  const refused = await body(stale);
  t.is(refused.etag, second.headers.get('etag'));
  t.is(refused.statusCode, 412);
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=two\n');
  t.is((await put('/server.properties', 'x', { 'if-match': 'not-a-tag' })).status, 400);
});

test.serial('downloads stream with Range; a large upload streams through and back unchanged', async (t) => {
  const data = randomBytes(9 * 1024 * 1024 + 123);
  const up = await put('/world/region.bin', data).catch((error: unknown) => error as Response);
  t.is((up as Response).status, 404, 'the directory must exist first');
  t.is((await post(files('/directories'), { path: '/world' })).status, 201);
  const uploaded = await put('/world/region.bin', data);
  t.is(uploaded.status, 200);
  t.is((await body(uploaded)).size, data.length);
  const whole = await get(`${files('/content')}?path=/world/region.bin`);
  t.is(whole.status, 200);
  t.is(whole.headers.get('content-length'), String(data.length));
  t.regex(whole.headers.get('content-disposition')!, /attachment; filename="region.bin"/);
  const downloaded = Buffer.from(await whole.arrayBuffer());
  t.is(createHash('sha256').update(downloaded).digest('hex'), createHash('sha256').update(data).digest('hex'));
  const part = await get(`${files('/content')}?path=/world/region.bin`, owner, { range: 'bytes=1000-200999' });
  t.is(part.status, 206);
  t.is(part.headers.get('content-range'), `bytes 1000-200999/${data.length}`);
  t.true(Buffer.from(await part.arrayBuffer()).equals(data.subarray(1000, 201000)));
  const tail = await get(`${files('/content')}?path=/world/region.bin`, owner, { range: 'bytes=-10' });
  t.true(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(data.length - 10)));
  t.is((await get(`${files('/content')}?path=/world/region.bin`, owner, { range: `bytes=${data.length}-` })).status, 416);
  t.is((await get(`${files('/content')}?path=/world/region.bin&format=text`)).status, 413);
  // Over the upload limit (64 MiB here): 413 from Content-Length alone, before any byte is sent; nothing written.
  const huge = await new Promise<number>((resolve, reject) => {
    const request = httpRequest(`${app.url}${files('/content')}?path=/huge.bin`, {
      method: 'PUT',
      headers: { ...owner.auth, 'content-type': 'application/octet-stream', 'content-length': String(65 * 1024 * 1024) },
    });
    request.on('response', (response) => {
      response.resume();
      request.destroy();
      resolve(response.statusCode!);
    });
    request.on('error', reject);
    request.flushHeaders();
  });
  t.is(huge, 413);
  t.false(existsSync(join(serverDir, 'huge.bin')));
});

test.serial('at most FILES_MAX_TRANSFERS transfers of a server at once (429 beyond)', async (t) => {
  // Far larger than the loopback's socket buffers and the client's (a few MiB each): a download whose body is not read
  // stays under way. (A 9 MiB file could be taken whole by the buffers, ending the transfer before the third request.)
  const big = join(serverDir, 'world', 'slots.bin');
  await writeFile(big, '');
  await truncate(big, 256 * 1024 * 1024);
  if (isRoot) {
    const dir = await stat(serverDir);
    await chown(big, dir.uid, dir.gid);
  }
  const open: Response[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await get(`${files('/content')}?path=/world/slots.bin`);
    t.is(response.status, 200);
    open.push(response);
  }
  const third = await get(`${files('/content')}?path=/world/slots.bin`);
  await third.body?.cancel();
  t.is(third.status, 429);
  for (const response of open) await response.body?.cancel();
  await until(async () => {
    const again = await get(`${files('/content')}?path=/motd.txt`);
    await again.body?.cancel();
    return again.status === 200;
  }, 'a transfer slot again');
  await rm(big);
});

test.serial('.., NUL, absolute paths, control characters and links outside are refused through the API', async (t) => {
  for (const path of ['../../etc/passwd', 'a/../../x', '..']) {
    t.is((await get(`${files('/content')}?path=${encodeURIComponent(path)}`)).status, 400, path);
    t.is((await put(path, 'x')).status, 400, path);
    t.is((await get(`${files()}?path=${encodeURIComponent(path)}`)).status, 400, path);
    t.is((await post(files('/rename'), { from: '/motd.txt', to: path })).status, 400, path);
    t.is((await post(files('/copy'), { from: path, to: '/y' })).status, 400, path);
    t.is((await app.request(`${files()}?path=${encodeURIComponent(path)}`, { method: 'DELETE', headers: owner.auth })).status, 400, path);
    t.is((await post(files('/chmod'), { path, mode: 0o777 })).status, 400, path);
  }
  t.is((await get(`${files('/content')}?path=${encodeURIComponent('motd.txt\u0000.png')}`)).status, 400);
  t.is((await put('new\nline.txt', 'x')).status, 400);
  t.is((await post(files('/directories'), { path: 'a\tb' })).status, 400);
  // `/etc/passwd` is the server's own /etc/passwd, which does not exist.
  t.is((await get(`${files('/content')}?path=/etc/passwd`)).status, 404);
  await symlink('/etc', join(serverDir, 'etc-link'));
  await symlink('/etc/hostname', join(serverDir, 'host-link'));
  if (isRoot) {
    const dir = await stat(serverDir);
    for (const name of ['etc-link', 'host-link']) await chown(join(serverDir, name), dir.uid, dir.gid).catch(() => undefined);
  }
  const outside = await get(`${files('/content')}?path=/host-link`);
  t.is(outside.status, 403);
  t.is((await body(outside)).code, 'OUTSIDE');
  t.is((await get(`${files()}?path=/etc-link`)).status, 403);
  t.is((await put('/etc-link/evil', 'x')).status, 403);
  t.is((await post(files('/chmod'), { path: '/host-link', mode: 0o777 })).status, 409, 'chmod of a link');
  const listed = await body(await get(files()));
  t.is(listed.entries.find((entry: { name: string }) => entry.name === 'etc-link').type, 'symlink');
  t.is((await app.request(`${files()}?path=/etc-link`, { method: 'DELETE', headers: owner.auth })).status, 200);
  t.true((await lstat('/etc/hostname')).isFile());
});

test.serial('mkdir, rename, copy, chmod, delete, search; each change audited with its path and size', async (t) => {
  t.is((await post(files('/directories'), { path: '/plugins/conf' })).status, 201);
  t.is((await put('/plugins/conf/a.yml', 'key: needle\n')).status, 200);
  t.is((await post(files('/copy'), { from: '/plugins', to: '/plugins2' })).status, 201);
  t.is((await post(files('/rename'), { from: '/plugins2', to: '/plugins3' })).status, 200);
  t.is((await post(files('/rename'), { from: '/plugins3', to: '/plugins' })).status, 409, 'an existing target');
  const chmodded = await body(await post(files('/chmod'), { path: '/plugins/conf/a.yml', mode: 0o600 }));
  t.is(chmodded.mode, 0o600);
  t.is((await app.request(`${files()}?path=/plugins3`, { method: 'DELETE', headers: owner.auth })).status, 409, 'not empty');
  t.is((await app.request(`${files()}?path=/plugins3&recursive=true`, { method: 'DELETE', headers: owner.auth })).status, 200);
  const found = await body(await get(`${files('/search')}?content=needle`));
  t.deepEqual(
    found.matches.map((match: { path: string }) => match.path),
    ['/plugins/conf/a.yml'],
  );
  t.is(found.stoppedEarly, null);
  t.is((await get(`${files('/search')}`)).status, 400, 'name or content');
  const clusterId = (await body(await get(`/api/v1/servers/${serverId}`))).clusterId as string;
  const log = await body(await get(`/api/v1/clusters/${clusterId}/audit-log?limit=100`));
  const entries = log.data as { action: string; details?: Record<string, unknown> }[];
  const write = entries.find((entry) => entry.action === 'server.file_write' && entry.details?.path === '/plugins/conf/a.yml');
  t.is(write?.details?.size, 12);
  t.truthy(entries.find((entry) => entry.action === 'server.file_copy' && entry.details?.to === '/plugins2'));
  t.truthy(entries.find((entry) => entry.action === 'server.file_rename' && entry.details?.path === '/plugins2'));
  t.truthy(entries.find((entry) => entry.action === 'server.file_chmod' && entry.details?.mode === '600'));
  t.truthy(entries.find((entry) => entry.action === 'server.file_delete' && entry.details?.path === '/plugins3'));
});

test.serial('config history: the last 20 versions of a text file, a diff, a restore', async (t) => {
  for (let i = 1; i <= 22; i++) t.is((await put('/config.ini', `a=1\nb=${i}\nc=3\n`)).status, 200);
  const versions = (await body(await get(`${files('/versions')}?path=/config.ini`))).data as { id: string; size: number }[];
  t.is(versions.length, 20, 'only the last 20 are kept');
  const oldest = await body(await get(files(`/versions/${versions.at(-1)!.id}`)));
  t.is(oldest.content, 'a=1\nb=3\nc=3\n');
  const diff = await body(await get(files(`/versions/${versions.at(-1)!.id}/diff`)));
  t.is(diff.diff, '--- a/config.ini\n+++ b/config.ini\n@@ -1,3 +1,3 @@\n a=1\n-b=3\n+b=22\n c=3\n');
  const restored = await post(files(`/versions/${versions.at(-1)!.id}/restore`), {});
  t.is(restored.status, 200);
  t.is(await readFile(join(serverDir, 'config.ini'), 'utf8'), 'a=1\nb=3\nc=3\n');
  const after = (await body(await get(`${files('/versions')}?path=/config.ini`))).data as { via: string }[];
  t.is(after[0]!.via, 'restore');
  // Binary content is not kept.
  await put('/binary.dat', Buffer.from([0, 1, 2, 255]));
  t.is((await body(await get(`${files('/versions')}?path=/binary.dat`))).data.length, 0);
  // Another server's version id is not found here.
  t.is((await get(files(`/versions/00000000-0000-7000-8000-000000000000`))).status, 404);
});

test.serial('a file the game wrote meanwhile keeps the writer from overwriting it silently', async (t) => {
  const first = await put('/ops.json', '[]');
  const etag = first.headers.get('etag')!;
  await new Promise((resolve) => setTimeout(resolve, 20));
  await writeFile(join(serverDir, 'ops.json'), '["notch"]');
  const refused = await put('/ops.json', '["me"]', { 'if-match': etag });
  t.is(refused.status, 412);
  t.is(await readFile(join(serverDir, 'ops.json'), 'utf8'), '["notch"]');
});

test.serial('a resumable upload survives a break in the middle and resumes from the offset the service reports', async (t) => {
  const data = randomBytes(6 * 1024 * 1024 + 7);
  const created = await post(files('/uploads'), { path: '/world.zip', size: data.length });
  t.is(created.status, 201);
  const upload = await body(created);
  t.is(upload.offset, 0);
  const at = (uploadId: string) => files(`/uploads/${uploadId}`);
  const patch = (offset: number, chunk: Buffer) =>
    app.request(at(upload.id), {
      method: 'PATCH',
      headers: { ...owner.auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: chunk,
    });
  const first = await body(await patch(0, data.subarray(0, 1024 * 1024)));
  t.is(first.offset, 1024 * 1024);
  t.false(first.complete);
  // The connection breaks half-way through the next body: what arrived is kept.
  await new Promise<void>((resolve) => {
    const request = httpRequest(`${app.url}${at(upload.id)}`, {
      method: 'PATCH',
      headers: {
        ...owner.auth,
        'upload-offset': String(1024 * 1024),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(data.length - 1024 * 1024),
      },
    });
    request.on('error', () => resolve());
    request.write(data.subarray(1024 * 1024, 3 * 1024 * 1024 + 100));
    setTimeout(() => {
      request.destroy();
      resolve();
    }, 500);
  });
  let offset = 0;
  await until(async () => {
    const state = await get(at(upload.id));
    offset = Number(state.headers.get('upload-offset'));
    await state.body?.cancel();
    return offset > 1024 * 1024;
  }, 'the bytes before the break are kept');
  t.true(offset <= 3 * 1024 * 1024 + 100);
  t.is((await patch(offset - 1, data.subarray(offset - 1))).status, 409, 'a wrong offset');
  t.false(existsSync(join(serverDir, 'world.zip')), 'nothing in place before the end');
  const last = await body(await patch(offset, data.subarray(offset)));
  t.true(last.complete);
  t.is(last.entry.size, data.length);
  t.true((await readFile(join(serverDir, 'world.zip'))).equals(data));
  t.is(((await stat(join(serverDir, 'world.zip'))).mode & 0o777).toString(8), '644');
  t.is((await get(at(upload.id))).status, 404, 'a finished upload is gone');
  const names = (await body(await get(files()))).entries.map((entry: { name: string }) => entry.name) as string[];
  t.false(
    names.some((name) => name.includes('gsm-upload')),
    'no part file left',
  );
  // Cancelled: the part file goes.
  const other = await body(await post(files('/uploads'), { path: '/other.bin', size: 10 }));
  t.is((await app.request(at(other.id), { method: 'DELETE', headers: owner.auth })).status, 200);
  t.false(((await body(await get(files()))).entries as { name: string }[]).some((entry) => entry.name.includes('gsm-upload')));
  t.is((await post(files('/uploads'), { path: '/big.bin', size: 65 * 1024 * 1024 })).status, 413);
});

test.serial(
  'a listing page larger than the agent connection carries ends early with `next`; paging on lists every entry once; a search stops there',
  async (t) => {
    // 3,000 entries with names of 200 characters: about 900 KB of entries at the largest page size (a page stops at
    // 160 KiB, well inside the connection's frames).
    const dir = join(serverDir, 'long-names');
    await mkdir(dir);
    const names = Array.from({ length: 3_000 }, (_, i) => `${String(i).padStart(5, '0')}-${'n'.repeat(194)}`);
    for (let i = 0; i < names.length; i += 500) await Promise.all(names.slice(i, i + 500).map((name) => writeFile(join(dir, name), '')));
    if (isRoot) {
      const { uid, gid } = await stat(serverDir);
      await chown(dir, uid, gid);
      for (const name of names) await chown(join(dir, name), uid, gid);
    }
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const answer = await get(`${files()}?path=/long-names&limit=10000${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      t.is(answer.status, 200);
      const page = (await body(answer)) as { entries: { name: string }[]; total: number; next?: string | null };
      t.is(page.total, names.length);
      t.true(page.entries.length > 0);
      seen.push(...page.entries.map((entry) => entry.name));
      after = page.next ?? undefined;
      pages += 1;
      // Later pages use the directory as the first page read it, unless it changed since: an entry made now is listed.
      if (pages === 1) {
        const last = `${names.length}-last`;
        await writeFile(join(dir, last), '');
        if (isRoot) await chown(join(dir, last), (await stat(serverDir)).uid, (await stat(serverDir)).gid);
        names.push(last);
      }
    } while (after && pages < 50);
    t.true(pages > 1, 'more than one page');
    t.deepEqual(seen, names);
    // A search whose matches would not fit in one answer stops there, as at maxResults.
    const search = await get(`${files('/search')}?path=/long-names&name=nnnnnnnnnn&maxResults=10000`);
    t.is(search.status, 200);
    const found = (await body(search)) as { matches: { path: string }[]; stoppedEarly?: string };
    t.is(found.stoppedEarly, 'results');
    t.true(found.matches.length > 100 && found.matches.length < names.length, `${found.matches.length} matches`);
  },
);

/** A cluster template of a game that idles, with the given `files`. */
async function templateWithFiles(t: ExecutionContext, id: string, files: Record<string, string[]>): Promise<{ id: string }> {
  const made = await app.request(
    `/api/v1/clusters/${clusterId}/templates`,
    json(
      {
        id,
        name: id,
        tags: ['test'],
        start: { command: `${process.execPath} -e "setInterval(() => {}, 1000)"` },
        ready: { mode: 'IMMEDIATE' },
        stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
        console: { mode: 'NONE' },
        ports: [{ name: 'game', protocol: 'udp' }],
        files,
      },
      { headers: owner.auth },
    ),
  );
  t.is(made.status, 201, JSON.stringify(await made.clone().json()));
  return (await body(made)) as { id: string };
}

test.serial("a template's files.deny is the server's deny list: the files API refuses those paths, other paths work", async (t) => {
  const template = await templateWithFiles(t, 'guarded', { deny: ['secrets/', '*.key'] });
  const guardedId = (await createFakeServer(app, owner, clusterId, machineId, { templateId: template.id })).id;
  const guardedDir = join(agent.dataDir, 'servers', guardedId);
  const guarded = (path = '') => `/api/v1/servers/${guardedId}/files${path}`;
  await until(async () => (await app.request(guarded(), { headers: owner.auth })).status === 200, 'the agent serves the templated server', 20_000);
  // Files the game itself made (the game's account owns them): only the API is kept out.
  await mkdir(join(guardedDir, 'secrets'), { recursive: true });
  await writeFile(join(guardedDir, 'secrets', 'token.txt'), 'hunter2\n');
  await writeFile(join(guardedDir, 'server.key'), 'private\n');
  const dirOwner = await stat(guardedDir);
  for (const path of [join(guardedDir, 'secrets'), join(guardedDir, 'secrets', 'token.txt'), join(guardedDir, 'server.key')])
    await chown(path, dirOwner.uid, dirOwner.gid);
  const putGuarded = (path: string, content: string) =>
    app.request(`${guarded('/content')}?path=${encodeURIComponent(path)}`, {
      method: 'PUT',
      headers: { ...owner.auth, 'content-type': 'application/octet-stream' },
      body: content,
    });

  for (const path of ['/secrets/token.txt', '/server.key', '/config/tls.key', '/secrets/new.txt']) {
    const read = await get(`${guarded('/content')}?path=${encodeURIComponent(path)}`);
    t.is(read.status, 403, `GET ${path}`);
    t.is((await body(read)).code, 'DENIED', `GET ${path}`);
    const written = await putGuarded(path, 'overwritten\n');
    t.is(written.status, 403, `PUT ${path}`);
    t.is((await body(written)).code, 'DENIED', `PUT ${path}`);
  }
  t.is((await get(`${guarded()}?path=/secrets`)).status, 403, 'the denied directory cannot be listed');
  t.is(await readFile(join(guardedDir, 'secrets', 'token.txt'), 'utf8'), 'hunter2\n', 'unchanged');
  t.is(await readFile(join(guardedDir, 'server.key'), 'utf8'), 'private\n', 'unchanged');
  t.false(existsSync(join(guardedDir, 'secrets', 'new.txt')));

  // Everything else works, and the listing leaves the denied entries out.
  t.is((await putGuarded('/notes.txt', 'fine\n')).status, 200);
  t.is(await (await get(`${guarded('/content')}?path=/notes.txt`)).text(), 'fine\n');
  t.is((await putGuarded('/key.txt', 'also fine\n')).status, 200);
  const listed = (await body(await get(guarded()))) as { entries: { name: string }[] };
  const names = listed.entries.map((entry) => entry.name).sort();
  t.deepEqual(names, ['key.txt', 'notes.txt']);

  // The deny list is the template's: the server without a template writes such a path.
  t.is((await put('/server.key', 'mine\n')).status, 200);
});

test.serial(
  "a template's files.adminOnly (where the RCON password is): OWNER and ADMIN read and write it, a MODERATOR is refused through every verb",
  async (t) => {
    const admin = await signUp(app);
    await addMember(app, clusterId, admin, 'ADMIN');
    const template = await templateWithFiles(t, 'rcon-in-a-file', { adminOnly: ['cfg/gsm-secrets.cfg'] });
    const id = (await createFakeServer(app, owner, clusterId, machineId, { templateId: template.id })).id;
    const at = (path = '') => `/api/v1/servers/${id}/files${path}`;
    await until(async () => (await app.request(at(), { headers: owner.auth })).status === 200, 'the agent serves the templated server', 20_000);
    const write = (path: string, content: string, who: TestUser) =>
      app.request(`${at('/content')}?path=${encodeURIComponent(path)}`, {
        method: 'PUT',
        headers: { ...who.auth, 'content-type': 'application/octet-stream' },
        body: content,
      });
    t.is((await post(at('/directories'), { path: '/cfg' })).status, 201);
    const secret = await write('/cfg/gsm-secrets.cfg', 'rcon_password "pw-9f3k2"\n', owner);
    t.is(secret.status, 200);
    const versionId = ((await body(secret)) as { versionId: string }).versionId;
    t.truthy(versionId);
    t.is((await write('/cfg/server.cfg', 'hostname "Mine"\n', owner)).status, 200);

    const refused = async (response: Response, what: string) => {
      t.is(response.status, 403, what);
      const answer = (await body(response)) as { code: string; message: string };
      t.is(answer.code, 'DENIED', what);
      t.notRegex(JSON.stringify(answer), /pw-9f3k2/, what);
    };
    // A MODERATOR (files.read, no RCON): every way of reading it is refused, spelled any way; server.cfg stays readable.
    for (const path of ['/cfg/gsm-secrets.cfg', 'cfg//./gsm-secrets.cfg'])
      await refused(await get(`${at('/content')}?path=${encodeURIComponent(path)}&format=text`, moderator), `read ${path}`);
    await refused(await get(`${at('/stat')}?path=/cfg/gsm-secrets.cfg`, moderator), 'stat');
    await refused(await get(`${at('/versions')}?path=/cfg/gsm-secrets.cfg`, moderator), 'history');
    await refused(await get(at(`/versions/${versionId}`), moderator), 'a kept version');
    await refused(await get(at(`/versions/${versionId}/diff`), moderator), 'a diff');
    const searched = (await body(await get(`${at('/search')}?content=pw-9f3k2`, moderator))) as { matches: { path: string }[] };
    t.deepEqual(searched.matches, [], 'a search by content does not reveal it');
    const byName = (await body(await get(`${at('/search')}?name=*.cfg`, moderator))) as { matches: { path: string }[] };
    t.deepEqual(
      byName.matches.map((match) => match.path),
      ['/cfg/server.cfg'],
    );
    t.is(await (await get(`${at('/content')}?path=/cfg/server.cfg`, moderator)).text(), 'hostname "Mine"\n');

    // OWNER and ADMIN hold the RCON permission: they read and change it as any file.
    for (const who of [owner, admin]) {
      const read = await get(`${at('/content')}?path=/cfg/gsm-secrets.cfg`, who);
      t.is(read.status, 200);
      t.regex(await read.text(), /pw-9f3k2/);
      t.is((await get(`${at('/versions')}?path=/cfg/gsm-secrets.cfg`, who)).status, 200);
      t.is(((await body(await get(`${at('/search')}?content=pw-9f3k2`, who))) as { matches: unknown[] }).matches.length, 1);
    }
    t.is((await write('/cfg/gsm-secrets.cfg', 'rcon_password "pw-new-1"\n', admin)).status, 200);
  },
);
