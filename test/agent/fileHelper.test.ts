/**
 * The file helper (agent/files/, docs/agent.md#server-files): every operation runs as the server's account, paths are
 * checked again inside, the deny list holds on every verb. Real accounts (a test prefix, removed afterwards), real
 * files, real links. Each attack here succeeds against a naive implementation (paths joined and opened as root).
 */
import test from 'ava';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, link, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FileHelper, FileOpError } from '../../agent/files/fileHelper.ts';
import { encodeFrame, FrameReader } from '../../agent/files/protocol.ts';
import { Accounts, prepareServerDir, type Account } from '../../agent/servers/accounts.ts';
import { buildAgentPackage } from '../../api/agentPackage.ts';
import { DenyList } from '../../schema/filePaths.ts';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
/** This run's accounts: `gsmt<hex>-…`, all removed afterwards. */
const prefix = `gsmt${randomBytes(2).toString('hex')}`;
const NODE20 = process.env.GSM_TEST_NODE20 ?? '/usr/bin/node';

let dataDir: string;
let account: Account | undefined;
let serverDir: string;
let outside: { dir: string; readable: string; secret: string };
const helpers: FileHelper[] = [];

test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gsm-files-'));
  await chmod(dataDir, 0o711);
  await mkdir(join(dataDir, 'servers'), { mode: 0o711 });
  const id = randomUUID();
  serverDir = join(dataDir, 'servers', id);
  if (isRoot) {
    const accounts = new Accounts({ user: prefix, enabled: true, dataDir });
    account = await accounts.forServer(id)!;
    await prepareServerDir(serverDir, account);
  } else await mkdir(serverDir, { recursive: true });
  // Root's files outside every server: one anyone may read (the kernel would not stop that), one only root may.
  const dir = await mkdtemp(join(tmpdir(), 'gsm-outside-'));
  await chmod(dir, 0o755);
  outside = { dir, readable: join(dir, 'readable.txt'), secret: join(dir, 'shadow') };
  await writeFile(outside.readable, 'root-public\n', { mode: 0o644 });
  await writeFile(outside.secret, 'root:secret\n', { mode: 0o600 });
});

test.after.always(async () => {
  for (const helper of helpers) await helper.stop().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  await rm(outside.dir, { recursive: true, force: true }).catch(() => undefined);
  if (!isRoot) return;
  const passwd = await readFile('/etc/passwd', 'utf8');
  for (const line of passwd.split('\n')) {
    const name = line.split(':')[0]!;
    if (name === prefix || name.startsWith(`${prefix}-`)) {
      spawnSync('pkill', ['-KILL', '-u', name]);
      spawnSync('userdel', [name]);
    }
  }
  spawnSync('groupdel', [prefix]);
});

async function helper(deny: string[] = []): Promise<FileHelper> {
  const started = await FileHelper.start({ root: serverDir, ...(account ? { runAs: account } : {}), deny });
  helpers.push(started);
  return started;
}

async function fails(t: import('ava').ExecutionContext, promise: Promise<unknown>, code: FileOpError['code'], what: string): Promise<void> {
  const error = await t.throwsAsync(promise, { instanceOf: FileOpError }, what);
  t.is(error?.code, code, `${what}: ${error?.message}`);
}

const text = async function* (value: string) {
  yield Buffer.from(value);
};

/** Makes `path` (relative to the server's directory) as the account would own it. */
async function asAccount(path: string): Promise<void> {
  if (account) await run('chown', ['-h', `${account.uid}:${account.gid}`, join(serverDir, path)]);
}

test.serial('the helper runs as the server account; files it writes are the account’s, atomic, with ETags and If-Match', async (t) => {
  const files = await helper();
  if (account) t.is(files.uid, account.uid, 'the helper runs as the account');
  const made = await files.writeAtomic('/server.properties', text('motd=hello\n'), { ifMatch: 'none' });
  t.is(made.size, 11);
  t.truthy(made.etag);
  const info = await stat(join(serverDir, 'server.properties'));
  if (account) {
    t.is(info.uid, account.uid);
    t.is(info.gid, account.gid);
  }
  t.is(info.mode & 0o777, 0o644);
  await chmod(join(serverDir, 'server.properties'), 0o640);
  // Another writer (the game) changes it: the ETag the first writer holds is stale now.
  await writeFile(join(serverDir, 'server.properties'), 'motd=hello\n');
  const before = await files.stat('server.properties');
  t.not(before.etag, made.etag);
  // A stale ETag: 412, with the current version, nothing written.
  await fails(t, files.writeAtomic('server.properties', text('motd=lost\n'), { ifMatch: made.etag }), 'PRECONDITION_FAILED', 'stale If-Match');
  const stale = await files.writeAtomic('server.properties', text('x'), { ifMatch: '"nope"' }).catch((error: FileOpError) => error);
  t.is((stale as FileOpError).details?.etag, before.etag);
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=hello\n');
  const updated = await files.writeAtomic('server.properties', text('motd=changed\n'), { ifMatch: before.etag });
  t.not(updated.etag, before.etag);
  t.is((await stat(join(serverDir, 'server.properties'))).mode & 0o777, 0o640, 'the mode is kept');
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=changed\n');
  // A write that fails half-way leaves the old file and no temporary file.
  const failing = async function* () {
    yield Buffer.from('partial');
    throw new Error('client went away');
  };
  await t.throwsAsync(files.writeAtomic('server.properties', failing()));
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=changed\n');
  t.deepEqual(
    (await files.list('/')).entries.map((entry) => entry.name),
    ['server.properties'],
  );
  // Size limit.
  await fails(t, files.writeAtomic('big.bin', text('0123456789'), { maxBytes: 5 }), 'TOO_LARGE', 'over the limit');
});

test.serial('list, stat, mkdir, rename, copy, remove, chmod, search, usage, ranges', async (t) => {
  const files = await helper();
  await files.mkdir('plugins/conf', { recursive: true });
  await files.writeAtomic('plugins/conf/a.yml', text('alpha: 1\nbeta: needle here\n'));
  await files.writeAtomic('plugins/b.jar', text('PK\u0000binary needle'));
  const listed = await files.list('plugins');
  t.deepEqual(
    listed.entries.map((entry) => [entry.name, entry.type]),
    [
      ['b.jar', 'file'],
      ['conf', 'directory'],
    ],
  );
  t.is(listed.total, 2);
  // Paging.
  for (let i = 0; i < 25; i++) await files.writeAtomic(`plugins/conf/f${String(i).padStart(2, '0')}`, text(String(i)));
  const first = await files.list('plugins/conf', { limit: 10 });
  t.is(first.entries.length, 10);
  t.is(first.total, 26);
  const second = await files.list('plugins/conf', { limit: 10, after: first.next });
  t.is(second.entries[0]!.name, 'f09', 'after a.yml and f00…f08');
  await files.copy('plugins', 'plugins-copy');
  t.is(await readFile(join(serverDir, 'plugins-copy/conf/a.yml'), 'utf8'), 'alpha: 1\nbeta: needle here\n');
  await files.rename('plugins-copy', 'moved');
  await fails(t, files.rename('plugins', 'moved'), 'EXISTS', 'rename over an existing entry');
  await fails(t, files.rename('plugins', 'plugins/conf/inside'), 'INVALID', 'into itself');
  await fails(t, files.remove('moved'), 'NOT_EMPTY', 'a full directory without recursive');
  await files.remove('moved', { recursive: true });
  t.false(existsSync(join(serverDir, 'moved')));
  const changed = await files.chmod('plugins/b.jar', 0o600);
  t.is(changed.mode, 0o600);
  await fails(t, files.chmod('plugins/b.jar', 0o4755), 'INVALID', 'setuid');
  const found = await files.search({ content: 'needle' });
  t.deepEqual(
    found.matches.map((match) => [match.path, match.line]),
    [['/plugins/conf/a.yml', 2]],
    'binary files are skipped',
  );
  const byName = await files.search({ name: '*.JAR' });
  t.deepEqual(
    byName.matches.map((match) => match.path),
    ['/plugins/b.jar'],
  );
  const bounded = await files.search({ name: 'f', maxResults: 3 });
  t.is(bounded.matches.length, 3);
  t.is(bounded.stoppedEarly, 'results');
  const usage = await files.usage();
  t.true(usage.bytes > 0);
  t.true(usage.files >= 28);
  t.true((await files.space()).free > 0);
  // A range of a larger file, read as a stream.
  const big = randomBytes(3 * 1024 * 1024 + 17);
  await files.writeAtomic(
    'world.bin',
    (async function* () {
      for (let i = 0; i < big.length; i += 100_000) yield big.subarray(i, i + 100_000);
    })(),
  );
  const { stream } = await files.readStream('world.bin', { start: 1000, end: 2_500_000 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  t.true(Buffer.concat(chunks).equals(big.subarray(1000, 2_500_001)));
  const whole = await files.readStream('world.bin');
  const all: Buffer[] = [];
  for await (const chunk of whole.stream) all.push(chunk as Buffer);
  t.true(Buffer.concat(all).equals(big));
});

test.serial('.., absolute paths, NUL and control characters are refused by every verb', async (t) => {
  const files = await helper();
  await files.writeAtomic('ok.txt', text('ok'));
  const bad = ['../x', 'a/../../x', 'a/..', '..', '/../../etc/passwd', 'ok.txt\u0000.jpg'];
  for (const path of bad) {
    await fails(t, files.stat(path), 'INVALID_PATH', `stat ${JSON.stringify(path)}`);
    await fails(t, files.lstat(path), 'INVALID_PATH', `lstat ${JSON.stringify(path)}`);
    await fails(t, files.list(path), 'INVALID_PATH', `list ${JSON.stringify(path)}`);
    await fails(t, files.open(path, { read: true }), 'INVALID_PATH', `open ${JSON.stringify(path)}`);
    await fails(t, files.writeAtomic(path, text('x')), 'INVALID_PATH', `write ${JSON.stringify(path)}`);
    await fails(t, files.mkdir(path), 'INVALID_PATH', `mkdir ${JSON.stringify(path)}`);
    await fails(t, files.rename('ok.txt', path), 'INVALID_PATH', `rename to ${JSON.stringify(path)}`);
    await fails(t, files.rename(path, 'y'), 'INVALID_PATH', `rename from ${JSON.stringify(path)}`);
    await fails(t, files.copy('ok.txt', path), 'INVALID_PATH', `copy to ${JSON.stringify(path)}`);
    await fails(t, files.copy(path, 'y'), 'INVALID_PATH', `copy from ${JSON.stringify(path)}`);
    await fails(t, files.remove(path, { recursive: true }), 'INVALID_PATH', `remove ${JSON.stringify(path)}`);
    await fails(t, files.chmod(path, 0o777), 'INVALID_PATH', `chmod ${JSON.stringify(path)}`);
  }
  // An absolute path is the server's directory's own (rooted there), never the machine's.
  await fails(t, files.stat(outside.readable), 'NOT_FOUND', 'an absolute path is inside the server directory');
  t.is((await files.stat('/ok.txt')).size, 2);
  // New names with newlines or other control characters.
  for (const name of ['new\nline.txt', 'tab\there', 'esc\u001b[31m']) {
    await fails(t, files.writeAtomic(name, text('x')), 'INVALID_PATH', `write ${JSON.stringify(name)}`);
    await fails(t, files.mkdir(name), 'INVALID_PATH', `mkdir ${JSON.stringify(name)}`);
    await fails(t, files.rename('ok.txt', name), 'INVALID_PATH', `rename ${JSON.stringify(name)}`);
  }
  await fails(t, files.remove(''), 'INVALID', 'the directory itself');
  // A name that is not UTF-8 (made by the game) is listed, marked, and can be removed.
  const raw = Buffer.concat([Buffer.from(`${serverDir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);
  await writeFile(raw, 'x');
  const listed = (await files.list('')).entries.find((entry) => entry.name.startsWith('bad-'));
  t.true(listed?.invalidName);
  t.is(listed?.name, 'bad-\\xff\\xfe.txt');
  await files.remove(listed!.name);
  t.false(existsSync(raw), 'removed by the name it is listed with');
});

test.serial('links leading outside are refused (read, write, list, chmod, copy, rename into them), and chmod never follows a link', async (t) => {
  const files = await helper();
  await symlink(outside.readable, join(serverDir, 'out.txt'));
  await symlink(outside.dir, join(serverDir, 'outdir'));
  await symlink('../../../', join(serverDir, 'up'));
  await asAccount('out.txt');
  await asAccount('outdir');
  await asAccount('up');
  await files.writeAtomic('inside.txt', text('inside'));
  await fails(t, files.open('out.txt', { read: true }), 'OUTSIDE', 'read through a link');
  await fails(t, files.readStream('outdir/readable.txt'), 'OUTSIDE', 'read through a linked directory');
  await fails(t, files.stat('out.txt'), 'OUTSIDE', 'stat through a link');
  await fails(t, files.list('outdir'), 'OUTSIDE', 'list a linked directory');
  await fails(t, files.list('up'), 'OUTSIDE', 'list a relative link upwards');
  await fails(t, files.writeAtomic('out.txt', text('pwned')), 'OUTSIDE', 'write through a link');
  await fails(t, files.writeAtomic('outdir/new.txt', text('pwned')), 'OUTSIDE', 'create in a linked directory');
  await fails(t, files.mkdir('outdir/sub'), 'OUTSIDE', 'mkdir in a linked directory');
  await fails(t, files.rename('inside.txt', 'outdir/moved.txt'), 'OUTSIDE', 'move into a linked directory');
  await fails(t, files.copy('inside.txt', 'outdir/copied.txt'), 'OUTSIDE', 'copy into a linked directory');
  await fails(t, files.copy('outdir/readable.txt', 'stolen.txt'), 'OUTSIDE', 'copy out of a linked directory');
  await fails(t, files.remove('outdir/readable.txt'), 'OUTSIDE', 'remove through a linked directory');
  await fails(t, files.chmod('out.txt', 0o777), 'LINK_REFUSED', 'chmod of a link');
  await fails(t, files.chmod('outdir/readable.txt', 0o777), 'OUTSIDE', 'chmod through a linked directory');
  await fails(t, files.search({ path: 'outdir', name: 'readable' }), 'OUTSIDE', 'search a linked directory');
  // The link itself can be seen and removed; its target is untouched.
  t.is((await files.lstat('out.txt')).linkTarget, outside.readable);
  t.is((await files.list('')).entries.find((entry) => entry.name === 'outdir')?.type, 'symlink');
  // A copy of a directory holding a link copies the link, never what it points to.
  await files.mkdir('withlink');
  await symlink(outside.secret, join(serverDir, 'withlink/secret'));
  await asAccount('withlink/secret');
  await files.copy('withlink', 'withlink2');
  t.true((await lstat(join(serverDir, 'withlink2/secret'))).isSymbolicLink());
  await files.remove('out.txt');
  await files.remove('outdir');
  await files.remove('withlink', { recursive: true });
  t.is(await readFile(outside.readable, 'utf8'), 'root-public\n');
  t.is((await stat(outside.readable)).mode & 0o777, 0o644);
  t.is(await readFile(outside.secret, 'utf8'), 'root:secret\n');
  t.is((await stat(outside.dir)).uid, 0);
  // A dangling link: creating through it would create its target.
  await symlink(join(outside.dir, 'planted'), join(serverDir, 'dangling'));
  await asAccount('dangling');
  await fails(t, files.writeAtomic('dangling', text('x')), 'LINK_REFUSED', 'write through a dangling link');
  await fails(t, files.open('dangling', { write: true, create: true }), 'LINK_REFUSED', 'create through a dangling link');
  t.false(existsSync(join(outside.dir, 'planted')));
  // Links inside the directory are followed.
  await symlink('inside.txt', join(serverDir, 'alias.txt'));
  await asAccount('alias.txt');
  t.is((await files.stat('alias.txt')).size, 6);
});

test.serial('hard links to root’s files are never written through nor chmodded; FIFOs are not opened', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const files = await helper();
  await link(outside.secret, join(serverDir, 'hard-secret'));
  await link(outside.readable, join(serverDir, 'hard-public'));
  await fails(t, files.open('hard-secret', { read: true }), 'PERMISSION', 'read root’s 0600 file through a hard link');
  await fails(t, files.open('hard-public', { write: true }), 'LINK_REFUSED', 'write in place through a hard link');
  await fails(t, files.chmod('hard-public', 0o666), 'PERMISSION', 'chmod root’s file through a hard link');
  // An atomic write replaces the name: root's file keeps its content.
  await files.writeAtomic('hard-public', text('replaced'));
  t.is(await readFile(outside.readable, 'utf8'), 'root-public\n');
  t.is((await stat(outside.readable)).mode & 0o777, 0o644);
  t.is(await readFile(join(serverDir, 'hard-public'), 'utf8'), 'replaced');
  t.is((await stat(join(serverDir, 'hard-public'))).uid, account!.uid);
  await files.remove('hard-secret');
  t.is(await readFile(outside.secret, 'utf8'), 'root:secret\n');
  spawnSync('mkfifo', [join(serverDir, 'pipe')]);
  await asAccount('pipe');
  await fails(t, files.open('pipe', { read: true }), 'NOT_A_FILE', 'a FIFO (a naive open blocks forever)');
  await fails(t, files.readStream('pipe'), 'NOT_A_FILE', 'a FIFO as a stream');
  await files.remove('pipe');
});

test.serial('a link swapped in during reads never yields what is outside', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const files = await helper();
  await files.mkdir('swap');
  await files.writeAtomic('swap/readable.txt', text('inside-content'));
  // The account swaps `swap` between its real directory and a link to root's directory, as fast as it can (one
  // process: renames, no forks).
  const script = `
    const fs = require('node:fs');
    const dir = ${JSON.stringify(serverDir)};
    fs.symlinkSync(${JSON.stringify(outside.dir)}, dir + '/swap-link');
    const end = Date.now() + 4000;
    while (Date.now() < end) {
      fs.renameSync(dir + '/swap', dir + '/swap-real');
      fs.renameSync(dir + '/swap-link', dir + '/swap');
      fs.renameSync(dir + '/swap', dir + '/swap-link');
      fs.renameSync(dir + '/swap-real', dir + '/swap');
    }`;
  const swapper = spawn(process.execPath, ['-e', script], { uid: account!.uid, gid: account!.gid, cwd: '/', stdio: 'ignore' });
  const ended = new Promise((resolve) => swapper.on('close', resolve));
  let leaked = 0;
  let read = 0;
  const until = Date.now() + 3500;
  while (Date.now() < until) {
    try {
      const { stream } = await files.readStream('swap/readable.txt');
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const content = Buffer.concat(chunks).toString('utf8');
      read++;
      if (content !== 'inside-content') leaked++;
    } catch (error) {
      t.true(error instanceof FileOpError, String(error));
    }
  }
  await ended;
  t.is(leaked, 0, `root's file was never read (${read} reads succeeded)`);
});

test.serial('the deny list holds on every verb, through links, rename and copy (sources and targets)', async (t) => {
  const files = await helper(['secret.txt', 'keys/', '/config/*.key', '!config/public.key', '*.log']);
  await writeFile(join(serverDir, 'secret.txt'), 'top secret');
  await mkdir(join(serverDir, 'keys'));
  await writeFile(join(serverDir, 'keys/id'), 'key');
  await mkdir(join(serverDir, 'config'));
  await writeFile(join(serverDir, 'config/a.key'), 'a');
  await writeFile(join(serverDir, 'config/public.key'), 'public');
  await mkdir(join(serverDir, 'box'));
  await writeFile(join(serverDir, 'box/app.log'), 'log');
  await symlink('secret.txt', join(serverDir, 'alias'));
  for (const path of ['secret.txt', 'keys', 'box/app.log', 'config']) await asAccount(path);
  for (const path of ['keys/id', 'config/a.key', 'config/public.key', 'box', 'alias']) await asAccount(path);
  await files.writeAtomic('free.txt', text('free'));
  for (const path of ['secret.txt', 'keys/id', 'config/a.key', 'box/app.log', 'deep/x/secret.txt']) {
    await fails(t, files.open(path, { read: true }), 'DENIED', `read ${path}`);
    await fails(t, files.stat(path), 'DENIED', `stat ${path}`);
    await fails(t, files.writeAtomic(path, text('x')), 'DENIED', `write ${path}`);
    await fails(t, files.remove(path), 'DENIED', `remove ${path}`);
    await fails(t, files.chmod(path, 0o600), 'DENIED', `chmod ${path}`);
    await fails(t, files.rename('free.txt', path), 'DENIED', `rename onto ${path}`);
    await fails(t, files.copy('free.txt', path), 'DENIED', `copy onto ${path}`);
  }
  await fails(t, files.rename('secret.txt', 'public.txt'), 'DENIED', 'rename a denied file out');
  await fails(t, files.copy('secret.txt', 'public.txt'), 'DENIED', 'copy a denied file out');
  await fails(t, files.list('keys'), 'DENIED', 'list a denied directory');
  await fails(t, files.mkdir('keys/more'), 'DENIED', 'mkdir in a denied directory');
  await fails(t, files.open('alias', { read: true }), 'DENIED', 'read through a link to a denied file');
  // A directory holding denied files cannot be renamed or copied out from under the rule, nor removed.
  await fails(t, files.rename('box', 'unboxed'), 'DENIED', 'rename a directory holding a denied file');
  await fails(t, files.copy('box', 'unboxed'), 'DENIED', 'copy a directory holding a denied file');
  await fails(t, files.rename('config', 'conf2'), 'DENIED', 'rename config/ (its a.key would leave the rule)');
  await fails(t, files.remove('box', { recursive: true }), 'DENIED', 'remove a directory holding a denied file');
  // A directory that would put files under the rule cannot be moved there either.
  await files.mkdir('plain');
  await files.writeAtomic('plain/x.key', text('k'));
  await fails(t, files.rename('plain', 'box2/logs.log'), 'DENIED', 'a directory renamed onto a denied name');
  await writeFile(join(serverDir, 'plain/y.log'), 'l'); // the game's own
  await fails(t, files.rename('plain', 'free-plain'), 'DENIED', 'a directory holding a denied file (plain/y.log)');
  await fails(t, files.rename('plain', 'keys2/../keys'), 'INVALID_PATH', 'climbing');
  // Re-allowed and ordinary files work; listings hide denied entries.
  t.is((await files.stat('config/public.key')).size, 6);
  const names = (await files.list('')).entries.map((entry) => entry.name);
  t.false(names.includes('secret.txt'));
  t.false(names.includes('keys'));
  t.true(names.includes('free.txt'));
  t.deepEqual(
    (await files.list('config')).entries.map((entry) => entry.name),
    ['public.key'],
  );
  t.deepEqual(
    (await files.search({ name: 'secret.txt' })).matches.map((match) => match.path),
    [],
    'search skips denied names',
  );
  t.is(await readFile(join(serverDir, 'secret.txt'), 'utf8'), 'top secret');
});

test('the deny list matches as gitignore does', (t) => {
  const list = new DenyList(['# comment', '', '*.key', '!public.key', 'logs/', '/root-only.txt', 'a/**/b', 'x?z', '[ab]c']);
  t.true(list.denies('server.key'));
  t.true(list.denies('deep/in/server.key'));
  t.false(list.denies('public.key'));
  t.true(list.denies('logs', true));
  t.false(list.denies('logs', false), 'a file named like a directory-only rule');
  t.true(list.denies('logs/latest.txt'), 'below a denied directory');
  t.true(list.denies('root-only.txt'));
  t.false(list.denies('sub/root-only.txt'), 'anchored at the top');
  t.true(list.denies('a/b'));
  t.true(list.denies('a/1/2/b'));
  t.true(list.denies('xyz'));
  t.false(list.denies('xyyz'));
  t.true(list.denies('ac'));
  t.false(list.denies('cc'));
  t.false(list.denies(''));
  t.true(new DenyList([]).empty);
});

test.serial('a commit asked for while writes are still under way waits for them; one after a failed write puts nothing in place', async (t) => {
  const files = await helper();
  await files.writeAtomic('/kept.bin', text('k'.repeat(1000)));
  // 16 writes of 1 MiB and the commit sent together, as a client that does not wait for answers sends them.
  let { handle } = await files.open('kept.bin', { write: true, create: true, truncate: true, atomic: true });
  const data = randomBytes(16 * 1024 * 1024);
  const writes = Array.from({ length: 16 }, (_, index) =>
    files.write(handle, index * 1024 * 1024, data.subarray(index * 1024 * 1024, (index + 1) * 1024 * 1024)),
  );
  const committed = files.close(handle, { commit: true });
  await Promise.all(writes);
  t.is((await committed)?.size, data.length);
  t.true((await readFile(join(serverDir, 'kept.bin'))).equals(data), 'every write landed before the rename');
  // A write that fails (past the largest file the file system holds), then the commit at once: refused, old file kept.
  ({ handle } = await files.open('kept.bin', { write: true, create: true, truncate: true, atomic: true }));
  const first = files.write(handle, 0, Buffer.alloc(1024, 1));
  const failing = files.write(handle, 2 ** 50, Buffer.alloc(1024, 2)).catch((error: unknown) => error);
  const refused = files.close(handle, { commit: true }).then(
    () => 'committed',
    (error: FileOpError) => error.code,
  );
  await first;
  t.true((await failing) instanceof FileOpError);
  t.not(await refused, 'committed');
  t.true((await readFile(join(serverDir, 'kept.bin'))).equals(data), 'the old file stays');
});

test.serial('the bundled agent serves the file helper on Node.js 20', async (t) => {
  if (!existsSync(NODE20)) return t.fail(`${NODE20} is missing (npm test fetches a Node.js 20 when the machine has none)`);
  const pkg = await buildAgentPackage();
  const dir = await mkdtemp(join(tmpdir(), 'gsm-files-pkg-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'agent.tgz'), pkg.tgz);
  await run('tar', ['-xzf', join(dir, 'agent.tgz'), '-C', dir]);
  const root = join(dir, 'server');
  await mkdir(root);
  const child = spawn(NODE20, [join(dir, 'package/gsm-agent.mjs'), '__files-helper', root, '["*.secret"]'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const reader = new FrameReader();
  const answers = new Map<number, (frame: { json: Record<string, unknown>; data?: Buffer }) => void>();
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) {
      if (frame.id === 0) ready();
      else answers.get(frame.id)?.(frame);
    }
  });
  let next = 1;
  const call = (json: Record<string, unknown>, data?: Buffer) =>
    new Promise<{ json: Record<string, unknown>; data?: Buffer }>((resolve) => {
      const id = next++;
      answers.set(id, resolve);
      child.stdin.write(encodeFrame(id, json, data));
    });
  await started;
  const opened = await call({ op: 'open', path: 'hello.txt', flags: { atomic: true } });
  const handle = opened.json.handle as number;
  t.is((await call({ op: 'write', handle, position: 0 }, Buffer.from('from node 20'))).json.written, 12);
  t.is(((await call({ op: 'close', handle, commit: true })).json.info as { size: number }).size, 12);
  t.is(await readFile(join(root, 'hello.txt'), 'utf8'), 'from node 20');
  t.is(((await call({ op: 'stat', path: 'a.secret' })).json.error as { code: string }).code, 'DENIED');
  t.is(((await call({ op: 'stat', path: '../x' })).json.error as { code: string }).code, 'INVALID_PATH');
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
});
