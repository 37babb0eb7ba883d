/**
 * Backup archives (agent/backups/archiver.ts) on real files with the machine's tar: a round trip keeps contents, modes,
 * long and unicode names; the SHA-256 and size are those of the stored file; links are stored, never followed; a
 * crafted archive cannot write outside the new directory; a damaged or truncated archive leaves the directory as it
 * was; a full disk fails cleanly; the archive is read as the server's account; a cancel leaves nothing.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar';
import { ArchiveError, recoverInterruptedRestores, restoreArchive, writeArchive } from '../../agent/backups/archiver.ts';
import { pruneBackups } from '../../agent/backups/backupJobs.ts';

const isRoot = process.getuid?.() === 0;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function scratch(t: { teardown: (fn: () => Promise<void>) => void }) {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-archive-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file under `dir` with its content (links as `-> target`), for comparing trees. */
async function tree(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(prefix, entry.name);
    if (entry.isSymbolicLink()) out[path] = `-> ${await readlink(join(dir, path))}`;
    else if (entry.isDirectory()) Object.assign(out, { [`${path}/`]: '' }, await tree(dir, path));
    else out[path] = sha256(await readFile(join(dir, path)));
  }
  return out;
}

test('a round trip keeps every file, mode, long and unicode name; size and SHA-256 are those of the stored archive', async (t) => {
  const root = await scratch(t);
  const server = join(root, 'server');
  const long = join('deep', 'a'.repeat(60), 'b'.repeat(60));
  await mkdir(join(server, long), { recursive: true });
  await mkdir(join(server, 'empty-dir'));
  await writeFile(join(server, 'empty.txt'), '');
  await writeFile(join(server, 'wörld ✓.dat'), 'unicode');
  await writeFile(join(server, long, 'c'.repeat(90)), 'long path');
  await writeFile(join(server, 'big.bin'), randomBytes(20 * 1024 * 1024));
  await writeFile(join(server, 'start.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(server, 'start.sh'), 0o755);
  const before = await tree(server);

  const archive = join(root, 'backup.tar.gz');
  const made = await writeArchive({ dir: server, destFile: archive, account: undefined });
  const stored = await readFile(archive);
  t.is(made.sizeBytes, stored.length);
  t.is(made.sha256, sha256(stored));
  t.is(made.sha256, execFileSync('sha256sum', [archive], { encoding: 'utf8' }).split(' ')[0]);
  t.false(existsSync(`${archive}.partial`));

  await writeFile(join(server, 'added later'), 'x');
  await rm(join(server, 'big.bin'));
  // From the file (tar reads it, the agent hashes it beside), as a LOCAL backup is restored.
  await restoreArchive({ source: { file: archive }, expectedSha256: made.sha256, dir: server, account: undefined });
  t.deepEqual(await tree(server), before);
  t.is((await stat(join(server, 'start.sh'))).mode & 0o777, 0o755);
  t.deepEqual((await readdir(root)).sort(), ['backup.tar.gz', 'server'], 'nothing left beside the directory');
});

test('a link pointing outside is stored as a link: its target’s content is never in the archive', async (t) => {
  const root = await scratch(t);
  const server = join(root, 'server');
  await mkdir(server);
  const secret = join(root, 'secret.txt');
  await writeFile(secret, 'TOP-SECRET-CONTENT');
  await symlink(secret, join(server, 'innocent.txt'));
  await symlink(root, join(server, 'up'));
  const archive = join(root, 'b.tar.gz');
  await writeArchive({ dir: server, destFile: archive, account: undefined });
  const listed = execFileSync('tar', ['-tvzf', archive], { encoding: 'utf8' });
  t.regex(listed, /innocent\.txt -> .*secret\.txt/);
  t.false(execFileSync('sh', ['-c', `gzip -dc ${archive}`]).includes(Buffer.from('TOP-SECRET-CONTENT')));
});

test('a crafted archive cannot write outside the restored directory', async (t) => {
  const root = await scratch(t);
  const server = join(root, 'server');
  await mkdir(server);
  await writeFile(join(server, 'keep.txt'), 'mine');
  const outside = join(root, 'outside');
  await mkdir(outside);
  // A link to outside, then a file "through" it; and names with .. and an absolute path.
  const build = join(root, 'build');
  await mkdir(build);
  await symlink(outside, join(build, 'link'));
  const crafted = join(root, 'crafted.tar');
  await tar.c({ cwd: build, file: crafted, portable: true }, ['link']);
  // Appended by hand: a regular file `link/pwned`, `../escape.txt` and `/tmp/abs-escape-<random>`.
  const absolute = join(tmpdir(), `gsm-abs-escape-${randomBytes(4).toString('hex')}`);
  const header = (name: string, body: string) => {
    const block = Buffer.alloc(512);
    block.write(name, 0, 'utf8');
    block.write('0000644\0', 100);
    block.write('0000000\0', 108);
    block.write('0000000\0', 116);
    block.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
    block.write('00000000000\0', 136);
    block.write('        ', 148);
    block.write('0', 156);
    block.write('ustar\0' + '00', 257);
    let sum = 0;
    for (const byte of block) sum += byte;
    block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
    data.write(body);
    return Buffer.concat([block, data]);
  };
  const base = await readFile(crafted);
  const withoutEnd = base.subarray(0, base.length - 1024).subarray(0, 1024); // the link's header block only (no data)
  const tarball = Buffer.concat([
    withoutEnd.subarray(0, 512),
    header('link/pwned', 'through the link'),
    header('../escape.txt', 'up'),
    header(absolute, 'absolute'),
    header('fine.txt', 'fine'),
    Buffer.alloc(1024),
  ]);
  const gz = (await import('node:zlib')).gzipSync(tarball);
  const error = await restoreArchive({ source: Readable.from([gz]), expectedSha256: sha256(gz), dir: server, account: undefined }).catch((e: unknown) => e);
  t.false(existsSync(join(outside, 'pwned')), 'nothing written through the link');
  t.false(existsSync(join(root, 'escape.txt')));
  t.false(existsSync(absolute), 'an absolute name lands nowhere outside');
  // tar refuses the archive as a whole: the directory stays as it was.
  t.true(error instanceof ArchiveError);
  t.is((error as ArchiveError).code, 'RESTORE_FAILED');
  t.regex((error as ArchiveError).message, /link|\.\.|escape|Removing leading/i);
  t.is(await readFile(join(server, 'keep.txt'), 'utf8'), 'mine');
  t.false(existsSync(join(server, 'fine.txt')));
  await rm(absolute, { force: true });
});

test('a damaged or truncated archive is refused and the directory stays exactly as it was', async (t) => {
  const root = await scratch(t);
  const server = join(root, 'server');
  await mkdir(join(server, 'world'), { recursive: true });
  await writeFile(join(server, 'world', 'level.dat'), randomBytes(300_000));
  const archive = join(root, 'b.tar.gz');
  await writeArchive({ dir: server, destFile: archive, account: undefined });
  await writeFile(join(server, 'world', 'level.dat'), 'current state');
  const before = await tree(server);

  // From a stream (as from S3) and from the file (as a LOCAL backup).
  for (const source of [() => createReadStream(archive), () => ({ file: archive })]) {
    const wrong = await restoreArchive({ source: source(), expectedSha256: '0'.repeat(64), dir: server, account: undefined }).catch((e: unknown) => e);
    t.true(wrong instanceof ArchiveError);
    t.is((wrong as ArchiveError).code, 'CHECKSUM_MISMATCH');
  }

  const bytes = await readFile(archive);
  const truncated = bytes.subarray(0, Math.floor(bytes.length / 2));
  const cut = await restoreArchive({ source: Readable.from([truncated]), expectedSha256: sha256(truncated), dir: server, account: undefined }).catch(
    (e: unknown) => e,
  );
  t.true(cut instanceof ArchiveError);
  t.is((cut as ArchiveError).code, 'RESTORE_FAILED');

  t.deepEqual(await tree(server), before);
  t.deepEqual(await readdir(root), ['b.tar.gz', 'server'].sort(), 'no half-restored directory left');
});

test('a full disk fails the backup with DISK_FULL and leaves no file behind', async (t) => {
  if (!isRoot) return t.pass('needs root to mount a small tmpfs (CI runs as root)');
  const root = await scratch(t);
  const small = join(root, 'small');
  await mkdir(small);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', small]);
  if (mounted.status !== 0) return t.fail(`could not mount a tmpfs: ${mounted.stderr.toString()}`);
  t.teardown(async () => void spawnSync('umount', [small]));
  const server = join(root, 'server');
  await mkdir(server);
  await writeFile(join(server, 'world.bin'), randomBytes(2 * 1024 * 1024)); // incompressible: larger than the disk
  const error = await writeArchive({ dir: server, destFile: join(small, 'b.tar.gz'), account: undefined }).catch((e: unknown) => e);
  t.true(error instanceof ArchiveError, String(error));
  t.is((error as ArchiveError).code, 'DISK_FULL');
  t.regex((error as ArchiveError).message, /no space left/);
  t.deepEqual(await readdir(small), [], 'nothing half-written');
});

test('the archive is read as the server’s account: what that account may not read is not in it', async (t) => {
  if (!isRoot) return t.pass('needs root (CI runs as root)');
  const root = await scratch(t);
  await chmod(root, 0o711);
  const server = join(root, 'server');
  await mkdir(server);
  await chown(server, 65534, 65534);
  await writeFile(join(server, 'theirs.txt'), 'readable by nobody');
  await chown(join(server, 'theirs.txt'), 65534, 65534);
  await writeFile(join(server, 'roots.txt'), 'ROOT-ONLY');
  await chmod(join(server, 'roots.txt'), 0o600);
  const archive = join(root, 'b.tar.gz');
  await writeArchive({ dir: server, destFile: archive, account: { uid: 65534, gid: 65534 } });
  const listed = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' });
  t.regex(listed, /theirs\.txt/);
  t.notRegex(listed, /roots\.txt/, 'a file the account cannot read was skipped, not read by root');
  t.false(execFileSync('sh', ['-c', `gzip -dc ${archive}`]).includes(Buffer.from('ROOT-ONLY')));

  // Restored as the account: the files are its own.
  await restoreArchive({
    source: createReadStream(archive),
    expectedSha256: sha256(await readFile(archive)),
    dir: server,
    account: { uid: 65534, gid: 65534 },
  });
  t.is((await stat(join(server, 'theirs.txt'))).uid, 65534);
  t.is((await stat(server)).uid, 65534);
});

test('a cancelled backup stops and leaves nothing', async (t) => {
  const root = await scratch(t);
  const server = join(root, 'server');
  await mkdir(server);
  for (let i = 0; i < 8; i++) await writeFile(join(server, `chunk${i}.bin`), randomBytes(16 * 1024 * 1024));
  const controller = new AbortController();
  const archive = join(root, 'b.tar.gz');
  const running = writeArchive({ dir: server, destFile: archive, account: undefined, signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  const error = await running.catch((e: unknown) => e);
  t.true(error instanceof ArchiveError);
  t.is((error as ArchiveError).code, 'CANCELLED');
  t.deepEqual(await readdir(root), ['server']);
});

test('after a restart: a server directory a restore had moved aside is put back; half-extracted copies and stale partial archives go', async (t) => {
  const root = await scratch(t);
  const servers = join(root, 'servers');
  await mkdir(join(servers, 'a'), { recursive: true });
  // Server b: moved aside, replacement never arrived (the agent stopped between the two renames).
  await mkdir(join(servers, '.b.old-0123456789ab'));
  await writeFile(join(servers, '.b.old-0123456789ab', 'world.dat'), 'b world');
  // Server a: a half-extracted copy and an old copy whose replacement did arrive.
  await mkdir(join(servers, '.a.restore-aaaaaaaaaaaa'));
  await mkdir(join(servers, '.a.old-bbbbbbbbbbbb'));
  t.deepEqual(await recoverInterruptedRestores(servers), ['b']);
  t.deepEqual((await readdir(servers)).sort(), ['a', 'b']);
  t.is(await readFile(join(servers, 'b', 'world.dat'), 'utf8'), 'b world');

  const backups = join(root, 'backups', 'server-1');
  await mkdir(backups, { recursive: true });
  const keep = '01a20000-0000-7000-8000-000000000001';
  const gone = '01a20000-0000-7000-8000-000000000002';
  const fresh = '01a20000-0000-7000-8000-000000000003';
  for (const name of [`${keep}.tar.gz`, `${gone}.tar.gz`, `${fresh}.tar.gz`, 'x.tar.gz.partial', 'y.tar.gz.partial']) await writeFile(join(backups, name), 'x');
  const old = new Date(Date.now() - 30 * 60_000);
  for (const name of [`${keep}.tar.gz`, `${gone}.tar.gz`, 'x.tar.gz.partial']) await utimes(join(backups, name), old, old);
  const removed = await pruneBackups({ dataDir: root }, 'server-1', new Set([keep]));
  t.deepEqual(removed, [gone]);
  t.deepEqual(
    (await readdir(backups)).sort(),
    [`${fresh}.tar.gz`, `${keep}.tar.gz`, 'y.tar.gz.partial'].sort(),
    'a new archive and a partial still being written stay',
  );
});
