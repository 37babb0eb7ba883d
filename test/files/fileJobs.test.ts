/**
 * The file jobs end to end (docs/files.md#archives-and-pulls): compress and extract through the API, run by the real
 * agent's file helper as the server's account (root: a test-prefixed account, removed afterwards). Archives that must
 * be refused (a link, `../x`, an absolute name, a bomb small compressed and huge uncompressed, a zip lying about its
 * size) leave nothing behind; a tar.gz and a zip go round trip, and the machine's own tar and unzip read ours.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, deflateRawSync } from 'node:zlib';
import { json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { addMember, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { registerMachine, type AgentProcess } from '../support/agentProcess.ts';
import { accountPrefix, isRoot, removeTestAccounts, startFilesAgent } from '../support/serverAccounts.ts';
import { crc32, ustarBlock, zipCentralDirectory, zipDataDescriptor, zipLocalHeader, type ZipWritten } from '../../agent/files/archiveFormats.ts';

const prefix = accountPrefix();
/** The limits the service is started with: small, so a bomb need not be large to be one. */
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_ENTRIES = 50;
let app: GatewayApp;
let owner: TestUser;
let agent: AgentProcess;
let serverId: string;
let serverDir: string;
let clusterId: string;
let admin: TestUser;
let moderator: TestUser;

test.before(async () => {
  app = await startGatewayApp({
    // Generous: a loaded machine can delay a beat past 3 s, and the tests here are not about liveness.
    heartbeatSeconds: 5,
    authTimeoutMs: 2_000,
    env: { FILES_EXTRACT_MAX_BYTES: String(MAX_BYTES), FILES_EXTRACT_MAX_ENTRIES: String(MAX_ENTRIES) },
  });
  owner = await signUp(app);
  const registered = await registerMachine(app, owner);
  clusterId = registered.clusterId;
  admin = await signUp(app);
  moderator = await signUp(app);
  await addMember(app, clusterId, admin, 'ADMIN');
  await addMember(app, clusterId, moderator, 'MODERATOR');
  ({ agent, serverId, serverDir } = await startFilesAgent(app, owner, registered, {
    prefix,
    env: { GSM_REPORT_INTERVAL_MS: '500', GSM_DISK_USAGE_INTERVAL_MS: '1000' },
  }));
});

test.after.always(async () => {
  await agent?.stop();
  await app?.close();
  removeTestAccounts(prefix);
});

const files = (path = '') => `/api/v1/servers/${serverId}/files${path}`;
const put = async (path: string, content: string | Buffer) => {
  const parent = path.slice(0, path.lastIndexOf('/'));
  if (parent) await app.request(files('/directories'), json({ path: parent, recursive: true }, { headers: owner.auth }));
  return app.request(`${files('/content')}?path=${encodeURIComponent(path)}`, {
    method: 'PUT',
    headers: { ...owner.auth, 'content-type': 'application/octet-stream' },
    body: content,
  });
};
const post = (path: string, payload: unknown) => app.request(path, json(payload, { headers: owner.auth }));

type JobView = { id: string; type: string; status: string; result: Record<string, unknown> | null; error: { code: string; message: string } | null };

/** Starts a file job and waits for its end. */
async function runJob(path: string, payload: unknown): Promise<JobView> {
  const accepted = await post(files(path), payload);
  if (accepted.status !== 202) throw new Error(`${path}: ${accepted.status} ${await accepted.text()}`);
  const created = (await accepted.json()) as JobView;
  let last: JobView = created;
  await until(
    async () => {
      last = (await (await app.request(`/api/v1/jobs/${created.id}`, { headers: owner.auth })).json()) as JobView;
      return ['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'].includes(last.status);
    },
    `the ${created.type} job ends`,
    60_000,
  );
  return last;
}

const exists = (path: string) =>
  stat(join(serverDir, path)).then(
    () => true,
    () => false,
  );

/** One raw tar entry (any name and type, a link's target, a size that lies: what a hostile archive holds). */
const tarEntry = (name: string, type: string, data: Buffer = Buffer.alloc(0), options: { linkName?: string; size?: number } = {}): Buffer =>
  Buffer.concat([
    ustarBlock(name, type, options.size ?? data.length, 0o644, new Date(), options.linkName),
    data,
    Buffer.alloc((512 - (data.length % 512)) % 512),
  ]);
const tarGz = (...entries: Buffer[]) => gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));

/** A one-file zip whose headers may lie about the uncompressed size. */
function zipOf(name: string, content: Buffer, declaredSize = content.length): Buffer {
  const local = zipLocalHeader(name, new Date(), false);
  const data = deflateRawSync(content);
  const entry: ZipWritten = {
    name,
    crc: crc32(content),
    compressedSize: data.length,
    size: declaredSize,
    offset: 0,
    mode: 0o644,
    mtime: new Date(),
    directory: false,
  };
  const body = Buffer.concat([local, data, zipDataDescriptor(entry)]);
  return Buffer.concat([body, zipCentralDirectory([entry], body.length)]);
}

test.serial('a tar.gz goes round trip: compress a directory, extract it elsewhere; the files are the same and the account owns them', async (t) => {
  const big = randomBytes(300 * 1024);
  t.is((await put('/world/level.dat', big)).status, 200);
  t.is((await put('/world/region/r.0.0.mca', 'region\n')).status, 200);
  t.is((await put('/world/a name with spaces and a very long name to need a pax header because it is longer than a hundred bytes.txt', 'long\n')).status, 200);
  const compressed = await runJob('/compress', { paths: ['/world'], archive: '/backup/world.tar.gz' });
  t.is(compressed.status, 'SUCCEEDED', JSON.stringify(compressed.error));
  t.is(compressed.result?.entries, 5);
  // The machine's own tar reads it.
  const listed = spawnSync('tar', ['-tzf', join(serverDir, 'backup/world.tar.gz')], { encoding: 'utf8' });
  t.is(listed.status, 0, listed.stderr);
  t.true(listed.stdout.includes('world/region/r.0.0.mca'));
  t.true(listed.stdout.includes('longer than a hundred bytes.txt'));

  const extracted = await runJob('/extract', { path: '/backup/world.tar.gz', destination: '/restored' });
  t.is(extracted.status, 'SUCCEEDED', JSON.stringify(extracted.error));
  t.deepEqual(await readFile(join(serverDir, 'restored/world/level.dat')), big);
  t.is(await readFile(join(serverDir, 'restored/world/region/r.0.0.mca'), 'utf8'), 'region\n');
  if (isRoot) t.is((await stat(join(serverDir, 'restored/world/level.dat'))).uid, (await stat(serverDir)).uid);
});

test.serial('a zip goes round trip, and unzip reads ours', async (t) => {
  t.is((await put('/plugins/a.yml', 'a: 1\n')).status, 200);
  t.is((await put('/plugins/sub/b.bin', randomBytes(70 * 1024))).status, 200);
  const compressed = await runJob('/compress', { paths: ['/plugins'], archive: '/plugins.zip' });
  t.is(compressed.status, 'SUCCEEDED', JSON.stringify(compressed.error));
  const tested = spawnSync('unzip', ['-t', join(serverDir, 'plugins.zip')], { encoding: 'utf8' });
  t.is(tested.status, 0, tested.stdout + tested.stderr);
  const extracted = await runJob('/extract', { path: '/plugins.zip', destination: '/copy' });
  t.is(extracted.status, 'SUCCEEDED', JSON.stringify(extracted.error));
  t.deepEqual(await readFile(join(serverDir, 'copy/plugins/sub/b.bin')), await readFile(join(serverDir, 'plugins/sub/b.bin')));
  t.is(await readFile(join(serverDir, 'copy/plugins/a.yml'), 'utf8'), 'a: 1\n');
});

test.serial("a zip made by the machine's zip is extracted", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-zip-'));
  try {
    await writeFile(join(dir, 'hello.txt'), 'hello from zip\n');
    const made = spawnSync('zip', ['-q', '-r', join(dir, 'made.zip'), 'hello.txt'], { cwd: dir });
    t.is(made.status, 0);
    t.is((await put('/made.zip', await readFile(join(dir, 'made.zip')))).status, 200);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const extracted = await runJob('/extract', { path: '/made.zip' });
  t.is(extracted.status, 'SUCCEEDED', JSON.stringify(extracted.error));
  t.is(await readFile(join(serverDir, 'hello.txt'), 'utf8'), 'hello from zip\n');
});

test.serial('an archive with a symbolic link or a hard link is refused, and nothing of it is written', async (t) => {
  t.is(
    (await put('/evil-link.tar.gz', tarGz(tarEntry('first.txt', '0', Buffer.from('x')), tarEntry('passwd', '2', undefined, { linkName: '/etc/passwd' }))))
      .status,
    200,
  );
  const job = await runJob('/extract', { path: '/evil-link.tar.gz', destination: '/x1' });
  t.is(job.status, 'FAILED');
  t.is(job.error?.code, 'LINK_REFUSED');
  t.false(await exists('x1'));
  t.is((await put('/evil-hard.tar.gz', tarGz(tarEntry('shadow', '1', undefined, { linkName: '/etc/shadow' })))).status, 200);
  const hard = await runJob('/extract', { path: '/evil-hard.tar.gz', destination: '/x2' });
  t.is(hard.error?.code, 'LINK_REFUSED');
  t.false(await exists('x2'));
});

test.serial('names climbing with .., absolute names and names with NUL are refused', async (t) => {
  t.is((await put('/climb.tar.gz', tarGz(tarEntry('ok.txt', '0', Buffer.from('ok')), tarEntry('../x', '0', Buffer.from('out'))))).status, 200);
  const climb = await runJob('/extract', { path: '/climb.tar.gz', destination: '/inner' });
  t.is(climb.status, 'FAILED');
  t.is(climb.error?.code, 'INVALID_PATH');
  t.false(await exists('inner'));
  t.false(await exists('x'));
  t.is((await put('/absolute.tar.gz', tarGz(tarEntry('/tmp/gsm-absolute-test', '0', Buffer.from('abs'))))).status, 200);
  const absolute = await runJob('/extract', { path: '/absolute.tar.gz' });
  t.is(absolute.error?.code, 'INVALID_PATH');
  t.false(await exists('tmp'));
  t.is((await put('/climb.zip', zipOf('a/../../escape.txt', Buffer.from('zip out')))).status, 200);
  const zipClimb = await runJob('/extract', { path: '/climb.zip' });
  t.is(zipClimb.error?.code, 'INVALID_PATH');
  const pax = Buffer.from('24 path=nul\0name.txt\n');
  t.is((await put('/nul.tar.gz', tarGz(tarEntry('PaxHeader', 'x', pax), tarEntry('plain.txt', '0', Buffer.from('n'))))).status, 200);
  const nul = await runJob('/extract', { path: '/nul.tar.gz', destination: '/nul' });
  t.is(nul.status, 'FAILED');
  t.is(nul.error?.code, 'INVALID_PATH');
  t.false(await exists('nul'));
});

test.serial('bombs: small compressed, huge uncompressed (declared or actual), or too many entries, are refused', async (t) => {
  // 64 MiB of zeros is a few KiB gzipped: refused by the header's size before anything is inflated to disk.
  const zeros = Buffer.alloc(64 * 1024 * 1024);
  const bomb = tarGz(tarEntry('zeros.bin', '0', zeros));
  t.true(bomb.length < 200 * 1024);
  t.is((await put('/bomb.tar.gz', bomb)).status, 200);
  const job = await runJob('/extract', { path: '/bomb.tar.gz', destination: '/b1' });
  t.is(job.status, 'FAILED');
  t.is(job.error?.code, 'TOO_LARGE');
  t.false(await exists('b1'));
  // A zip declaring 1 KiB that inflates to 8 MiB: stopped at the declared size, the file never put in place.
  t.is((await put('/liar.zip', zipOf('liar.bin', Buffer.alloc(8 * 1024 * 1024), 1024))).status, 200);
  const liar = await runJob('/extract', { path: '/liar.zip', destination: '/b2' });
  t.is(liar.status, 'FAILED');
  t.is(liar.error?.code, 'TOO_LARGE');
  t.false(await exists('b2/liar.bin'));
  // More entries than FILES_EXTRACT_MAX_ENTRIES.
  const many = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => tarEntry(`f${i}.txt`, '0', Buffer.from('.')));
  t.is((await put('/many.tar.gz', tarGz(...many))).status, 200);
  const crowd = await runJob('/extract', { path: '/many.tar.gz', destination: '/b3' });
  t.is(crowd.error?.code, 'TOO_LARGE');
  t.false(await exists('b3'));
});

test.serial('bad requests are 4xx and start no job', async (t) => {
  t.is((await post(files('/extract'), { path: '/notes.txt' })).status, 400);
  t.is((await post(files('/extract'), { path: '/missing.zip' })).status, 404);
  t.is((await post(files('/compress'), { paths: ['/../etc'], archive: '/a.zip' })).status, 400);
  t.is((await post(files('/compress'), { paths: ['/world'], archive: '/a.rar' })).status, 400);
  t.is((await post(files('/compress'), { paths: [], archive: '/a.zip' })).status, 400);
});

test.serial("the cluster's default deny list applies to a server whose template has none: every verb and extraction refuse it", async (t) => {
  const cluster = `/api/v1/clusters/${clusterId}`;
  const patch = (payload: unknown, who: TestUser) => app.request(cluster, json(payload, { method: 'PATCH', headers: who.auth }));
  t.is((await patch({ fileDenyList: ['*.secret'] }, moderator)).status, 403, 'MODERATOR may not change it');
  t.is((await patch({ fileDenyList: ['ok', 'bad\nline'] }, admin)).status, 400, 'a pattern with a control character');
  t.is((await patch({ fileDenyList: Array.from({ length: 257 }, (_, i) => `p${i}`) }, admin)).status, 400, 'more than 256 patterns');
  t.is((await put('/plain.txt', 'plain\n')).status, 200);
  const changed = await patch({ fileDenyList: ['*.secret', 'private/'] }, admin);
  t.is(changed.status, 200);
  t.deepEqual(((await changed.json()) as { fileDenyList: string[] }).fileDenyList, ['*.secret', 'private/']);
  // The agent gets it with its servers' configuration.
  await until(async () => (await put('/token.secret', 'x')).status === 403, 'the default deny list reaches the agent');
  const refused = await put('/private/a.txt', 'x');
  t.is(refused.status, 403);
  t.is(((await refused.json()) as { code: string }).code, 'DENIED');
  t.is((await post(files('/rename'), { from: '/plain.txt', to: '/plain.secret' })).status, 403, 'rename onto a denied name');
  t.is((await post(files('/copy'), { from: '/plain.txt', to: '/private/plain.txt' })).status, 403, 'copy into a denied directory');
  t.is((await post(files('/directories'), { path: '/private' })).status, 403, 'mkdir');
  t.false(await exists('private'));
  t.false(await exists('plain.secret'));
  // An archive holding a denied name is refused as a whole.
  t.is((await put('/sneaky.tar.gz', tarGz(tarEntry('fine.txt', '0', Buffer.from('f')), tarEntry('private/key.txt', '0', Buffer.from('k'))))).status, 200);
  const sneaky = await runJob('/extract', { path: '/sneaky.tar.gz', destination: '/' });
  t.is(sneaky.status, 'FAILED');
  t.is(sneaky.error?.code, 'DENIED');
  t.false(await exists('fine.txt'));
  // Cleared: the paths work again.
  t.is((await patch({ fileDenyList: [] }, admin)).status, 200);
  await until(async () => (await put('/token.secret', 'x')).status === 200, 'the cleared list reaches the agent');
});

test.serial("a running server's stats carry its directory's disk usage, measured as its account and cached", async (t) => {
  t.is((await put('/disk/filler.bin', randomBytes(2 * 1024 * 1024))).status, 200);
  const started = await app.request(`/api/v1/servers/${serverId}/start?wait=30`, { method: 'POST', headers: owner.auth });
  t.is(started.status, 200, await started.clone().text());
  type Stats = { stats: { diskBytes?: number } | null };
  let seen: Stats['stats'] = null;
  await until(async () => {
    seen = ((await (await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth })).json()) as Stats).stats;
    return (seen?.diskBytes ?? 0) >= 2 * 1024 * 1024;
  }, 'the stats carry the disk usage');
  t.true(seen!.diskBytes! >= 2 * 1024 * 1024);
  // A bigger directory is measured again after the interval.
  t.is((await put('/disk/more.bin', randomBytes(3 * 1024 * 1024))).status, 200);
  await until(async () => {
    const stats = ((await (await app.request(`/api/v1/servers/${serverId}`, { headers: owner.auth })).json()) as Stats).stats;
    return (stats?.diskBytes ?? 0) >= 5 * 1024 * 1024;
  }, 'the new figure after the interval');
  await app.request(`/api/v1/servers/${serverId}/stop?wait=30`, { method: 'POST', headers: owner.auth });
});
