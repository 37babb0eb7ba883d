/**
 * The agent's SFTP server over the real file helper (agent/sftp/, agent/files/), with real SSH clients: the ssh2
 * package's and OpenSSH's `sftp` binary. The sign-in answer is given by the test (the service's side is tested in
 * test/files/sftpAccess.test.ts); everything else is real: files land as the server's account (root runs the test
 * in CI, with real accounts of a test prefix, removed afterwards), `..`, absolute paths, links to outside, symlink
 * creation and the deny list are refused through every verb, a read-only session may read and change nothing,
 * changes are reported (audit log, config history), and an open session whose access is withdrawn is closed.
 */
import test from 'ava';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { FileHelper } from '../../agent/files/fileHelper.ts';
import { Accounts, prepareServerDir, type Account } from '../../agent/servers/accounts.ts';
import { hasAesInstructions, SftpServer, sshCiphers, type SftpChange } from '../../agent/sftp/sftpServer.ts';
import { loadOrCreateHostKey } from '../../agent/sftp/hostKey.ts';
import { createLogger } from '../../schema/logger.ts';
import type { SftpPermissions } from '../../schema/agentEvents.ts';

const { Client } = ssh2;
const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const prefix = `gsmt${randomBytes(2).toString('hex')}`;
const SFTP_BINARY = ['/usr/bin/sftp'].find((path) => existsSync(path));

let dataDir: string;
let serverDir: string;
let account: Account | undefined;
let outside: { dir: string; secret: string; readable: string };
let server: SftpServer;
let clientKey: Buffer;
let clientKeyFile: string;
const changes: SftpChange[] = [];
/** What the "service" answers, per user name: allowed with these permissions, or refused. */
const access = new Map<string, SftpPermissions | null>();
const SERVER_ID = randomUUID();
/** The sizes of the writes the file helpers were asked for; while `failWrites` is set they fail instead. */
const helperWrites: number[] = [];
let failWrites = false;
const KEY_ID = randomUUID();

test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gsm-sftp-agent-'));
  await chmod(dataDir, 0o711);
  await mkdir(join(dataDir, 'servers'), { mode: 0o711 });
  serverDir = join(dataDir, 'servers', SERVER_ID);
  if (isRoot) {
    account = await new Accounts({ user: prefix, enabled: true, dataDir }).forServer(SERVER_ID)!;
    await prepareServerDir(serverDir, account);
  } else await mkdir(serverDir, { recursive: true });
  const dir = await mkdtemp(join(tmpdir(), 'gsm-sftp-outside-'));
  await chmod(dir, 0o755);
  outside = { dir, secret: join(dir, 'shadow'), readable: join(dir, 'public.txt') };
  await writeFile(outside.secret, 'root:secret\n', { mode: 0o600 });
  await writeFile(outside.readable, 'root-public\n', { mode: 0o644 });

  const keyFile = join(dataDir, 'client_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
  clientKey = await readFile(keyFile);
  clientKeyFile = keyFile;

  const hostKey = await loadOrCreateHostKey(dataDir);
  server = await SftpServer.start({
    port: 0,
    host: '127.0.0.1',
    hostKey: hostKey.privateKey,
    logger: createLogger('silent'),
    recheckMs: 500,
    authenticate: async ({ username }) => {
      const permissions = access.get(username);
      return permissions ? { allowed: true, userId: randomUUID(), serverId: SERVER_ID, keyId: KEY_ID, permissions } : { allowed: false, reason: 'refused' };
    },
    recheck: async (sessions) => ({
      sessions: sessions.map(({ sessionId }) => ({ sessionId, allowed: [...access.values()].some((value) => value !== null) })),
    }),
    files: async () => {
      const helper = await FileHelper.start({
        root: serverDir,
        ...(account ? { runAs: { uid: account.uid, gid: account.gid } } : {}),
        deny: ['secrets/', '*.key', '/eula.txt'],
      });
      const write = helper.write.bind(helper);
      helper.write = async (handle, position, data) => {
        if (failWrites) throw new Error('the disk is full');
        helperWrites.push(data.length);
        return write(handle, position, data);
      };
      return helper;
    },
    changed: (change) => changes.push(change),
  });
  access.set('admin.0badc0de', { read: true, write: true });
  access.set('reader.0badc0de', { read: true, write: false });
});

test.after.always(async () => {
  await server?.close();
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

type Session = { client: InstanceType<typeof Client>; sftp: SFTPWrapper; closed: Promise<void> };

function open(username = 'admin.0badc0de'): Promise<Session> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    const closed = new Promise<void>((done) => client.on('close', () => done()));
    client.on('error', reject);
    client.on('ready', () => client.sftp((error, sftp) => (error ? reject(error) : resolve({ client, sftp, closed }))));
    client.connect({ host: '127.0.0.1', port: server.port, username, privateKey: clientKey, readyTimeout: 20_000 });
  });
}

/** ssh2's callback API as promises. */
const call = <T>(work: (done: (error: Error | null | undefined, value?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => work((error, value) => (error ? reject(error) : resolve(value as T))));
const put = (sftp: SFTPWrapper, path: string, data: Buffer | string) => call<void>((done) => sftp.writeFile(path, data, (error) => done(error)));
const get = (sftp: SFTPWrapper, path: string) => call<Buffer>((done) => sftp.readFile(path, (error, data) => done(error, data)));
const list = async (sftp: SFTPWrapper, path: string) =>
  (await call<{ filename: string }[]>((done) => sftp.readdir(path, (error, entries) => done(error, entries)))).map((entry) => entry.filename).sort();
const statOf = (sftp: SFTPWrapper, path: string) =>
  call<{ mode: number; size: number; uid: number }>((done) => sftp.stat(path, (error, stats) => done(error, stats)));
/** The SFTP status code a refused request answered (2 no such file, 3 permission denied, 4 failure). */
const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return (error as { code?: number }).code;
  }
  return 'allowed';
};

test('with AES instructions chacha20-poly1305 is not offered: a client asking for it first gets AES, one with only it is refused', async (t) => {
  t.true(hasAesInstructions('processor\t: 0\nflags\t\t: fpu vme sse2 aes avx\n'));
  t.false(hasAesInstructions('flags\t\t: fpu vme sse2 avx\nflags\t\t: fpu vme\n'));
  t.true(hasAesInstructions('Features\t: fp asimd evtstrm aes pmull sha1\n'), 'ARM');
  t.false(hasAesInstructions('Features\t: fp asimd evtstrm\n'));
  t.true(hasAesInstructions('processor\t: 0\n', 'x64'), 'nothing to go by on x86-64: AES assumed');
  t.false(hasAesInstructions('processor\t: 0\nisa\t\t: rv64imafdc\n', 'riscv64'), 'nor on RISC-V');
  t.is(sshCiphers(false), undefined, "without AES, ssh2's own list (chacha20-poly1305 included)");
  t.false(sshCiphers(true)!.some((cipher) => cipher.startsWith('chacha20')));

  const negotiate = (cipher: ssh2.CipherAlgorithm[]) =>
    new Promise<string>((resolve, reject) => {
      const client = new Client();
      client.on('handshake', (negotiated) => {
        resolve(negotiated.cs.cipher);
        client.end();
      });
      client.on('error', reject);
      client.connect({ host: '127.0.0.1', port: server.port, username: 'admin.0badc0de', privateKey: clientKey, algorithms: { cipher } });
    });
  const aes = hasAesInstructions();
  t.is(await negotiate(['chacha20-poly1305@openssh.com', 'aes128-ctr', 'aes128-gcm@openssh.com']), aes ? 'aes128-ctr' : 'chacha20-poly1305@openssh.com');
  if (aes) await t.throwsAsync(negotiate(['chacha20-poly1305@openssh.com']), { message: /cipher/i });
});

test.serial('files copied in and out (small, and 6 MiB in parallel chunks) are the same bytes, and belong to the server’s account', async (t) => {
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  t.is(await call<string>((done) => sftp.realpath('.', (error, path) => done(error, path))), '/');
  await call<void>((done) => sftp.mkdir('/config', (error) => done(error)));
  await put(sftp, '/config/server.properties', 'motd=hello\nmax-players=10\n');
  t.is((await get(sftp, 'config/server.properties')).toString(), 'motd=hello\nmax-players=10\n');
  const big = randomBytes(6 * 1024 * 1024 + 123);
  const local = join(dataDir, 'big.bin');
  await writeFile(local, big);
  await call<void>((done) => sftp.fastPut(local, '/world.bin', { concurrency: 8, chunkSize: 64 * 1024 }, (error) => done(error)));
  const back = join(dataDir, 'back.bin');
  await call<void>((done) => sftp.fastGet('/world.bin', back, { concurrency: 8, chunkSize: 64 * 1024 }, (error) => done(error)));
  const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  t.is(digest(await readFile(back)), digest(big));
  t.deepEqual(await list(sftp, '/'), ['config', 'world.bin']);
  t.is((await statOf(sftp, '/world.bin')).size, big.length);
  for (const path of ['config', 'config/server.properties', 'world.bin']) {
    const info = await stat(join(serverDir, path));
    if (account) t.is(info.uid, account.uid, `${path} belongs to the server's account`);
    else t.is(info.uid, process.getuid!());
  }
  // Reported for the audit log and the config history, with sizes.
  t.like(
    changes.find((change) => change.path === '/config/server.properties'),
    { action: 'write', size: 26, serverId: SERVER_ID },
  );
  t.truthy(changes.find((change) => change.action === 'mkdir' && change.path === '/config'));
});

test.serial('WRITEs sent together reach the helper as writes of up to 1 MiB, the same bytes; a failed write fails every WRITE of it', async (t) => {
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  const data = randomBytes(4 * 1024 * 1024);
  // ssh2's client splits a WRITE of 32 KiB in two (its packets carry a little less): 16 KiB go whole.
  const piece = 16 * 1024;
  const writeAll = async (path: string, pieces: number) => {
    const handle = await call<Buffer>((done) => sftp.open(path, 'w', (error, opened) => done(error, opened)));
    // As OpenSSH's `put` does (with 32 KiB): WRITEs sent without waiting for the answers.
    const written = await Promise.allSettled(
      Array.from({ length: pieces }, (_, index) => call<void>((done) => sftp.write(handle, data, index * piece, piece, index * piece, (error) => done(error)))),
    );
    return { handle, written };
  };
  helperWrites.length = 0;
  const whole = await writeAll('/batched.bin', data.length / piece);
  t.true(
    whole.written.every((result) => result.status === 'fulfilled'),
    'every WRITE answered OK',
  );
  await call<void>((done) => sftp.close(whole.handle, (error) => done(error)));
  t.true((await readFile(join(serverDir, 'batched.bin'))).equals(data));
  t.is(
    helperWrites.reduce((sum, size) => sum + size, 0),
    data.length,
  );
  t.true(helperWrites.length <= 64, `${helperWrites.length} helper writes for 256 WRITEs`);
  t.true(helperWrites.every((size) => size <= 1024 * 1024));

  // A READ or a CLOSE sent right behind WRITEs, without waiting for their answers, comes after them.
  const handle = await call<Buffer>((done) => sftp.open('/batched.bin', 'r+', (error, opened) => done(error, opened)));
  const fresh = randomBytes(piece);
  const wrote = call<void>((done) => sftp.write(handle, fresh, 0, piece, 3 * piece, (error) => done(error)));
  const buffer = Buffer.alloc(piece);
  const read = call<number>((done) => sftp.read(handle, buffer, 0, piece, 3 * piece, (error, bytes) => done(error, bytes)));
  const closed = (async () => {
    await read;
    const last = randomBytes(piece);
    const writing = call<void>((done) => sftp.write(handle, last, 0, piece, 0, (error) => done(error)));
    await call<void>((done) => sftp.close(handle, (error) => done(error)));
    await writing;
    return last;
  })();
  await wrote;
  t.is(await read, piece);
  t.true(buffer.equals(fresh), 'the READ saw the WRITE sent before it');
  const last = await closed;
  t.true((await readFile(join(serverDir, 'batched.bin'))).subarray(0, piece).equals(last), 'the CLOSE came after the WRITE sent before it');

  failWrites = true;
  try {
    const failing = await writeAll('/failing.bin', 8);
    t.deepEqual(
      failing.written.map((result) => (result.status === 'rejected' ? 'failed' : 'ok')),
      Array(8).fill('failed'),
    );
  } finally {
    failWrites = false;
  }
});

test.serial('a download reads ahead, and a WRITE through the same session is seen by the next READ of that file at once', async (t) => {
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  const original = Buffer.alloc(512 * 1024, 1);
  await writeFile(join(serverDir, 'level.dat'), original);
  if (account) execFileSync('chown', [`${account.uid}:${account.gid}`, join(serverDir, 'level.dat')]);
  const reading = await call<Buffer>((done) => sftp.open('/level.dat', 'r', (error, handle) => done(error, handle)));
  const writing = await call<Buffer>((done) => sftp.open('/level.dat', 'r+', (error, handle) => done(error, handle)));
  const read = async (position: number) => {
    const buffer = Buffer.alloc(32 * 1024);
    const bytes = await call<number>((done) => sftp.read(reading, buffer, 0, buffer.length, position, (error, count) => done(error, count)));
    return buffer.subarray(0, bytes);
  };
  t.true((await read(0)).equals(original.subarray(0, 32 * 1024)), 'the first READ starts a block of 256 KiB');
  const changed = Buffer.alloc(32 * 1024, 2);
  await call<void>((done) => sftp.write(writing, changed, 0, changed.length, 64 * 1024, (error) => done(error)));
  t.true((await read(32 * 1024)).equals(original.subarray(0, 32 * 1024)));
  t.true((await read(64 * 1024)).equals(changed), 'the bytes written, not the block read before the WRITE');
  // The rest of the file, in order, is as it is on disk.
  const rest: Buffer[] = [];
  for (let position = 96 * 1024; position < original.length; position += 32 * 1024) rest.push(await read(position));
  t.true(Buffer.concat(rest).equals(original.subarray(96 * 1024)));
  t.is((await read(original.length)).length, 0);
  await call<void>((done) => sftp.close(reading, (error) => done(error)));
  await call<void>((done) => sftp.close(writing, (error) => done(error)));
});

test.serial('rename, chmod (mode only), remove, rmdir; owners and sizes cannot be set', async (t) => {
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  await call<void>((done) => sftp.mkdir('/plugins', (error) => done(error)));
  await put(sftp, '/plugins/a.jar', 'jar');
  await call<void>((done) => sftp.rename('/plugins/a.jar', '/plugins/b.jar', (error) => done(error)));
  t.deepEqual(await list(sftp, '/plugins'), ['b.jar']);
  await call<void>((done) => sftp.chmod('/plugins/b.jar', 0o600, (error) => done(error)));
  t.is((await stat(join(serverDir, 'plugins/b.jar'))).mode & 0o777, 0o600);
  t.is(await refusal(call<void>((done) => sftp.chown('/plugins/b.jar', 0, 0, (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.rmdir('/plugins', (error) => done(error)))), 4, 'not empty');
  await call<void>((done) => sftp.unlink('/plugins/b.jar', (error) => done(error)));
  await call<void>((done) => sftp.rmdir('/plugins', (error) => done(error)));
  t.false(existsSync(join(serverDir, 'plugins')));
  t.deepEqual(
    changes.filter((change) => change.path.startsWith('/plugins')).map((change) => change.action),
    ['mkdir', 'write', 'rename', 'chmod', 'delete', 'rmdir'],
  );
});

test.serial('`..` above the top and absolute host paths never leave the server’s directory', async (t) => {
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  for (const path of ['/../../../etc/passwd', '../etc/passwd', 'config/../../etc/passwd']) {
    t.is(await refusal(get(sftp, path)), 3, path);
    t.is(await refusal(put(sftp, path, 'x')), 3, path);
    t.is(await refusal(call<void>((done) => sftp.mkdir(path, (error) => done(error)))), 3, path);
    t.is(await refusal(call<void>((done) => sftp.unlink(path, (error) => done(error)))), 3, path);
    t.is(await refusal(call<void>((done) => sftp.rename('/config/server.properties', path, (error) => done(error)))), 3, path);
  }
  // An absolute path is the server's own directory: /etc/passwd there does not exist.
  t.is(await refusal(get(sftp, '/etc/passwd')), 2);
  // `..` that stays inside is an ordinary path.
  t.is((await get(sftp, '/config/../config/server.properties')).toString().slice(0, 4), 'motd');
  // `cd ..` at the top stays at the top.
  t.is(await call<string>((done) => sftp.realpath('/..', (error, path) => done(error, path))), '/');
  t.is(await readFile('/etc/passwd', 'utf8').then((text) => text.includes('root:')), true);
});

test.serial('links to outside are refused through every verb; symlinks cannot be made; chmod never follows a link', async (t) => {
  await symlink(outside.secret, join(serverDir, 'shadow'));
  await symlink(outside.dir, join(serverDir, 'escape'));
  await symlink(outside.readable, join(serverDir, 'public'));
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  for (const path of ['/shadow', '/public', '/escape/shadow']) t.not(await refusal(get(sftp, path)), 'allowed', path);
  t.not(await refusal(put(sftp, '/escape/new.txt', 'x')), 'allowed');
  t.false(existsSync(join(outside.dir, 'new.txt')));
  t.not(await refusal(list(sftp, '/escape')), 'allowed');
  t.not(await refusal(call<void>((done) => sftp.chmod('/public', 0o777, (error) => done(error)))), 'allowed');
  t.is((await stat(outside.readable)).mode & 0o777, 0o644, 'the target’s mode is unchanged');
  t.not(await refusal(call<void>((done) => sftp.rename('/escape/public.txt', '/stolen.txt', (error) => done(error)))), 'allowed');
  t.true(existsSync(outside.readable));
  t.is(await refusal(call<void>((done) => sftp.symlink('/etc/shadow', '/made-link', (error) => done(error)))), 3);
  t.false(existsSync(join(serverDir, 'made-link')));
  // The link itself can be seen (lstat, readlink) and removed, the target stays.
  t.is(await call<string>((done) => sftp.readlink('/public', (error, target) => done(error, target))), outside.readable);
  await call<void>((done) => sftp.unlink('/public', (error) => done(error)));
  t.true(existsSync(outside.readable));
  t.is(await readFile(outside.secret, 'utf8'), 'root:secret\n');
  await rm(join(serverDir, 'shadow'));
  await rm(join(serverDir, 'escape'));
});

test.serial('the deny list holds over SFTP: read, write, rename to and from, listing into, chmod, remove', async (t) => {
  await mkdir(join(serverDir, 'secrets'));
  await writeFile(join(serverDir, 'secrets', 'token'), 's3cret');
  await writeFile(join(serverDir, 'server.key'), 'key');
  if (account) spawnSync('chown', ['-R', `${account.uid}:${account.gid}`, join(serverDir, 'secrets'), join(serverDir, 'server.key')]);
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  t.is(await refusal(get(sftp, '/secrets/token')), 3);
  t.is(await refusal(get(sftp, '/server.key')), 3);
  t.is(await refusal(put(sftp, '/eula.txt', 'eula=true')), 3);
  t.is(await refusal(put(sftp, '/other.key', 'x')), 3);
  t.is(await refusal(list(sftp, '/secrets')), 3);
  t.is(await refusal(call<void>((done) => sftp.rename('/config/server.properties', '/config/stolen.key', (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.rename('/server.key', '/server.txt', (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.chmod('/server.key', 0o644, (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.unlink('/server.key', (error) => done(error)))), 3);
  t.false((await list(sftp, '/')).includes('server.key'), 'denied entries are not listed');
  t.is(await readFile(join(serverDir, 'secrets', 'token'), 'utf8'), 's3cret');
  t.false(existsSync(join(serverDir, 'eula.txt')));
});

test.serial('a read-only session reads and lists, and is refused every change', async (t) => {
  const { client, sftp } = await open('reader.0badc0de');
  t.teardown(() => client.end());
  t.is((await get(sftp, '/config/server.properties')).toString().slice(0, 4), 'motd');
  t.true((await list(sftp, '/')).includes('config'));
  const before = changes.length;
  t.is(await refusal(put(sftp, '/config/server.properties', 'motd=pwned')), 3);
  t.is(await refusal(put(sftp, '/new.txt', 'x')), 3);
  t.is(await refusal(call<void>((done) => sftp.mkdir('/d', (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.unlink('/config/server.properties', (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.rename('/config', '/c2', (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.chmod('/config/server.properties', 0o600, (error) => done(error)))), 3);
  t.is(await refusal(call<void>((done) => sftp.rmdir('/config', (error) => done(error)))), 3);
  t.is((await readFile(join(serverDir, 'config/server.properties'), 'utf8')).slice(0, 10), 'motd=hello');
  t.is(changes.length, before);
});

test.serial('OpenSSH’s sftp client: put, get, ls, mkdir, rename, rm in batch mode', async (t) => {
  if (!SFTP_BINARY) return t.pass('OpenSSH sftp is not installed');
  const local = join(dataDir, 'openssh.txt');
  await writeFile(local, 'from openssh\n');
  const batch = join(dataDir, 'batch');
  await writeFile(
    batch,
    [
      `mkdir /ossh`,
      `put ${local} /ossh/a.txt`,
      `rename /ossh/a.txt /ossh/b.txt`,
      `ls -l /ossh`,
      `get /ossh/b.txt ${local}.back`,
      `rm /ossh/b.txt`,
      `rmdir /ossh`,
      '',
    ].join('\n'),
  );
  const { stdout } = await run(SFTP_BINARY, [
    '-b',
    batch,
    '-i',
    clientKeyFile,
    '-P',
    String(server.port),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    'admin.0badc0de@127.0.0.1',
  ]);
  t.regex(stdout, /b\.txt/);
  t.is(await readFile(`${local}.back`, 'utf8'), 'from openssh\n');
  t.false(existsSync(join(serverDir, 'ossh')));
  // A refused upload makes the batch fail.
  await writeFile(batch, `put ${local} /../../tmp/escaped.txt\n`);
  const refused = await run(SFTP_BINARY, [
    '-b',
    batch,
    '-i',
    clientKeyFile,
    '-P',
    String(server.port),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    'admin.0badc0de@127.0.0.1',
  ]).catch((error: { code: number; stderr: string }) => error);
  t.not((refused as { code?: number }).code, 0);
  t.false(existsSync('/tmp/escaped.txt'));
});

test.serial('a `put` one of whose WRITEs failed is not put in place: the old file stays, and the CLOSE says why', async (t) => {
  const { client, sftp } = await open();
  t.teardown(() => client.end());
  await put(sftp, '/kept.bin', Buffer.alloc(1000, 7));
  const handle = await call<Buffer>((done) => sftp.open('/kept.bin', 'w', (error, opened) => done(error, opened)));
  const write = (fill: number, position: number) =>
    call<void>((done) => sftp.write(handle, Buffer.alloc(16 * 1024, fill), 0, 16 * 1024, position, (error) => done(error)));
  await write(5, 0);
  // Past the largest file the file system holds (EFBIG): this WRITE fails.
  t.is(await refusal(write(6, 2 ** 50)), 4);
  t.is(await refusal(call<void>((done) => sftp.close(handle, (error) => done(error)))), 4);
  t.true((await readFile(join(serverDir, 'kept.bin'))).equals(Buffer.alloc(1000, 7)), 'the old file, not one with a hole');
});

test.serial('an open session whose access is withdrawn is closed at the next check, with its files’ helper', async (t) => {
  const session = await open();
  await put(session.sftp, '/last.txt', 'x');
  access.clear();
  await session.closed;
  t.is(server.sessions().length, 0);
  t.true((await lstat(join(serverDir, 'last.txt'))).isFile());
  access.set('admin.0badc0de', { read: true, write: true });
  access.set('reader.0badc0de', { read: true, write: false });
});
