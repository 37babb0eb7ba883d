/**
 * Compressing and extracting in-process (agent/files/archives.ts over ServerFiles, docs/files.md#archives-and-pulls):
 * cases that need no account or API — an archive written inside a directory it compresses must not read its own
 * temporary file; extraction limits count every header's data.
 */
import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { compress, extract, STALE_STAGING_MS } from '../../agent/files/archives.ts';
import { FileHelper } from '../../agent/files/fileHelper.ts';
import { crc32, paxRecord, TAR_END, tarPadding, ustarBlock } from '../../agent/files/archiveFormats.ts';
import { ServerFiles } from '../../agent/files/operations.ts';
import type { FileOpError } from '../../agent/files/protocol.ts';

const run = promisify(execFile);

for (const format of ['zip', 'tar.gz'] as const)
  test(`a ${format} written inside the directory it compresses leaves out its own temporary file and ends`, async (t) => {
    const root = await mkdtemp(join(tmpdir(), 'gsm-archives-'));
    t.teardown(() => rm(root, { recursive: true, force: true }));
    await mkdir(join(root, 'a/z'), { recursive: true });
    await writeFile(join(root, 'a/data.bin'), randomBytes(2 * 1024 * 1024));
    const files = await ServerFiles.open(root, []);
    // A watchdog, not a timing: without the fix the temporary file grows without end (until the disk is full).
    const controller = new AbortController();
    const watch = setInterval(() => {
      void readdir(join(root, 'a/z')).then(async (names) => {
        for (const name of names) if (((await stat(join(root, 'a/z', name)).catch(() => undefined))?.size ?? 0) > 40 * 1024 * 1024) controller.abort();
      });
    }, 200);
    t.teardown(() => clearInterval(watch));
    const result = await compress(files, ['a'], `a/z/out.${format}`, { signal: controller.signal });
    t.is(result.entries, 3, 'a/, a/data.bin, a/z/ and nothing else');
    t.is(result.bytes, 2 * 1024 * 1024);
    const listing =
      format === 'zip' ? (await run('unzip', ['-Z1', join(root, 'a/z/out.zip')])).stdout : (await run('tar', ['-tzf', join(root, 'a/z/out.tar.gz')])).stdout;
    t.deepEqual(listing.trim().split('\n').sort(), ['a/', 'a/data.bin', 'a/z/']);
    t.deepEqual(await readdir(join(root, 'a/z')), [`out.${format}`]);
  });

// ---- extraction limits count every header's data (docs/files.md#archives-and-pulls)

/** A tar member: its header of type `type` and `data` padded to the block. */
const member = (name: string, type: string, data: Buffer = Buffer.alloc(0)) =>
  Buffer.concat([ustarBlock(name, type, data.length, 0o644, new Date(0)), data, Buffer.alloc(tarPadding(data.length))]);

async function extractTar(t: ExecutionContext, parts: Buffer[], limits = { maxBytes: 64 * 1024 * 1024, maxEntries: 1000 }) {
  const root = await mkdtemp(join(tmpdir(), 'gsm-archives-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'a.tar.gz'), gzipSync(Buffer.concat([...parts, TAR_END])));
  const files = await ServerFiles.open(root, []);
  const outcome = await extract(files, 'a.tar.gz', 'out', limits).then(
    (result) => ({ ok: true as const, result }),
    (error: FileOpError) => ({ ok: false as const, code: error.code, message: error.message }),
  );
  return { root, outcome };
}

const ok = member('ok.txt', '0', Buffer.from('fine\n'));

test('a directory entry carrying data counts that data against the size limit', async (t) => {
  const { root, outcome } = await extractTar(t, [member('dir/', '5', Buffer.alloc(2 * 1024 * 1024)), ok], { maxBytes: 1024 * 1024, maxEntries: 1000 });
  t.like(outcome, { ok: false, code: 'TOO_LARGE' });
  t.false(existsSync(join(root, 'out/ok.txt')));
});

test('global PAX headers (g) count against the size limit, and are otherwise ignored', async (t) => {
  const comment = paxRecord('comment', 'x'.repeat(60 * 1024));
  const refused = await extractTar(t, [...Array.from({ length: 8 }, () => member('pax_global_header', 'g', comment)), ok], {
    maxBytes: 256 * 1024,
    maxEntries: 1000,
  });
  t.like(refused.outcome, { ok: false, code: 'TOO_LARGE' });
  t.false(existsSync(join(refused.root, 'out/ok.txt')));
  // One, as `git archive` writes: extracted as if it were not there.
  const accepted = await extractTar(t, [member('pax_global_header', 'g', paxRecord('comment', 'abc123')), ok]);
  t.like(accepted.outcome, { ok: true, result: { entries: 1 } });
  t.is(await readFile(join(accepted.root, 'out/ok.txt'), 'utf8'), 'fine\n');
});

test('PAX and GNU long-name headers before one entry are bounded in all (many small ones, or endless empty ones)', async (t) => {
  // 20 headers of 60 KiB, each under the per-record bound, with distinct keys: merged they would hold 1.2 MB.
  const many = Array.from({ length: 20 }, (_, index) => member('PaxHeader', 'x', paxRecord(`GSM.k${index}`, 'v'.repeat(60 * 1024))));
  const large = await extractTar(t, [...many, ok]);
  t.like(large.outcome, { ok: false, code: 'INVALID' });
  t.regex((large.outcome as { message: string }).message, /extended headers before one entry are larger than 1048576 bytes/);
  const empty = await extractTar(t, [...Array.from({ length: 3000 }, () => member('././@LongLink', 'L')), ok]);
  t.like(empty.outcome, { ok: false, code: 'INVALID' });
  t.false(existsSync(join(empty.root, 'out/ok.txt')));
  // Long names still work: a GNU long name and a PAX path.
  const long = 'n'.repeat(150);
  const named = await extractTar(t, [
    member('././@LongLink', 'L', Buffer.from(`${long}-gnu\0`)),
    member('short', '0', Buffer.from('gnu')),
    member('PaxHeader', 'x', paxRecord('path', `${long}-pax`)),
    member('short', '0', Buffer.from('pax')),
  ]);
  t.like(named.outcome, { ok: true, result: { entries: 2 } });
  t.is(await readFile(join(named.root, `out/${long}-gnu`), 'utf8'), 'gnu');
  t.is(await readFile(join(named.root, `out/${long}-pax`), 'utf8'), 'pax');
});

test('header blocks count against the size limit: empty extended headers before every entry are a bomb too', async (t) => {
  // Each entry under the per-entry bound of extended headers (2,000 empty ones, 1,000 KiB), 20 entries: 20 MB read.
  const padding = Array.from({ length: 2000 }, () => member('pax_global_header', 'g'));
  const parts = Array.from({ length: 20 }, (_, index) => [...padding, member(`f${index}.txt`, '0', Buffer.from('x'))]).flat();
  const refused = await extractTar(t, parts, { maxBytes: 4 * 1024 * 1024, maxEntries: 1000 });
  t.like(refused.outcome, { ok: false, code: 'TOO_LARGE' });
  t.false(existsSync(join(refused.root, 'out/f0.txt')));
  // Headers and padding of an ordinary archive fit beside its data.
  const accepted = await extractTar(t, [ok], { maxBytes: 2048, maxEntries: 10 });
  t.like(accepted.outcome, { ok: true, result: { entries: 1 } });
});

// ---- nothing of a bad archive is put in place (staging, then moves)

/** A zip of stored entries; `crc` and `method` may be set wrong on purpose. */
function storedZip(entries: { name: string; data: Buffer; crc?: number; method?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const crc = entry.crc ?? crc32(entry.data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(entry.method ?? 0, 8);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(entry.data.length, 18);
    head.writeUInt32LE(entry.data.length, 22);
    head.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method ?? 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, name, entry.data);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A server directory with `world/level.dat` and `config.yml`, and the archive `name` holding `bytes`. */
async function serverWith(t: ExecutionContext, name: string, bytes: Buffer) {
  const root = await mkdtemp(join(tmpdir(), 'gsm-archives-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'world'));
  await writeFile(join(root, 'world/level.dat'), 'level');
  await writeFile(join(root, 'config.yml'), 'old: true\n');
  await writeFile(join(root, name), bytes);
  return { root, files: await ServerFiles.open(root, []) };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 'none', message: '' }),
    (error: FileOpError) => ({ code: error.code, message: error.message }),
  );

/** What the server's directory holds afterwards (names below it, sorted), and that no staging directory is left. */
async function tree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      out.push(`${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${prefix}${entry.name}/`);
    }
  };
  await walk(root, '');
  return out.sort();
}

const limits = { maxBytes: 64 * 1024 * 1024, maxEntries: 1000 };

test('a zip whose later entry fails its CRC-32 puts nothing in place, not even the entries before it', async (t) => {
  const zip = storedZip([
    { name: 'config.yml', data: Buffer.from('new: true\n') },
    { name: 'plugins/a.jar', data: Buffer.from('jar') },
    { name: 'plugins/b.jar', data: Buffer.from('damaged'), crc: 1234 },
  ]);
  const { root, files } = await serverWith(t, 'mods.zip', zip);
  const before = await tree(root);
  const result = await failure(extract(files, 'mods.zip', '', limits));
  t.is(result.code, 'INVALID');
  t.regex(result.message, /plugins\/b\.jar: its CRC-32 does not match/);
  t.deepEqual(await tree(root), before, 'no plugins/, no staging directory');
  t.is(await readFile(join(root, 'config.yml'), 'utf8'), 'old: true\n');
  // Into a destination that did not exist: it is not left behind either.
  t.is((await failure(extract(files, 'mods.zip', 'fresh/sub', limits))).code, 'INVALID');
  t.deepEqual(await tree(root), before);
});

test('a zip entry of an unsupported method is refused before anything is written', async (t) => {
  const zip = storedZip([
    { name: 'fresh.txt', data: Buffer.from('fresh') },
    { name: 'config.yml', data: Buffer.from('new: true\n') },
    { name: 'b.bin', data: Buffer.from('bzip2?'), method: 12 },
  ]);
  const { root, files } = await serverWith(t, 'mods.zip', zip);
  const before = await tree(root);
  const result = await failure(extract(files, 'mods.zip', '', limits));
  t.is(result.code, 'INVALID');
  t.regex(result.message, /compression method 12/);
  t.deepEqual(await tree(root), before);
  t.is(await readFile(join(root, 'config.yml'), 'utf8'), 'old: true\n');
});

test('a file where a directory is (on the server or in the archive), or the reverse, is refused before anything is written', async (t) => {
  const cases: [string, Buffer[], RegExp][] = [
    [
      'over-directory',
      [member('config.yml', '0', Buffer.from('new')), member('world', '0', Buffer.from('not a dir'))],
      /file \/world where the server has a directory/,
    ],
    [
      'under-file',
      [member('config.yml', '0', Buffer.from('new')), member('config.yml/x', '0', Buffer.from('x'))],
      /inside \/config\.yml, which it also holds as a file/,
    ],
    ['server-file', [member('a.txt', '0', Buffer.from('a')), member('config.yml/', '5')], /directory \/config\.yml where the server has a file/],
  ];
  for (const [name, parts, message] of cases) {
    const { root, files } = await serverWith(t, `${name}.tar.gz`, gzipSync(Buffer.concat([...parts, TAR_END])));
    const before = await tree(root);
    const result = await failure(extract(files, `${name}.tar.gz`, '', limits));
    t.not(result.code, 'none', name);
    t.regex(result.message, message, name);
    t.deepEqual(await tree(root), before, name);
    t.is(await readFile(join(root, 'config.yml'), 'utf8'), 'old: true\n', name);
  }
});

test('a good archive replaces files of the same names, adds the rest and leaves no staging directory', async (t) => {
  const zip = storedZip([
    { name: 'config.yml', data: Buffer.from('new: true\n') },
    { name: 'world/region/r.0.0.mca', data: Buffer.from('region') },
    { name: 'plugins/', data: Buffer.alloc(0) },
  ]);
  const { root, files } = await serverWith(t, 'mods.zip', zip);
  t.like(await extract(files, 'mods.zip', '', limits), { entries: 3, bytes: 16 });
  t.deepEqual(await tree(root), ['config.yml', 'mods.zip', 'plugins/', 'world/', 'world/level.dat', 'world/region/', 'world/region/r.0.0.mca']);
  t.is(await readFile(join(root, 'config.yml'), 'utf8'), 'new: true\n');
  t.like(await extract(files, 'mods.zip', 'copy/deep', limits), { entries: 3 });
  t.is(await readFile(join(root, 'copy/deep/world/region/r.0.0.mca'), 'utf8'), 'region');
  t.false((await tree(root)).some((name) => name.includes('.gsm-extract-')));
});

test('an extraction cancelled while it writes leaves nothing in place', async (t) => {
  const tar = gzipSync(Buffer.concat([member('config.yml', '0', Buffer.from('new: true\n')), member('plugins/a.jar', '0', Buffer.from('jar')), TAR_END]));
  const { root, files } = await serverWith(t, 'mods.tar.gz', tar);
  const before = await tree(root);
  const controller = new AbortController();
  const progress = (_done: number, _total: number | null, message: string) => {
    if (message.startsWith('extracting')) controller.abort();
  };
  const result = await failure(extract(files, 'mods.tar.gz', '', limits, { signal: controller.signal, progress }));
  t.is(result.message, 'cancelled');
  t.deepEqual(await tree(root), before);
  t.is(await readFile(join(root, 'config.yml'), 'utf8'), 'old: true\n');
});

test("a deny list denying the staging directory's name refuses the extraction, saying so, and leaves nothing", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-archives-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'mods.zip'), storedZip([{ name: 'a.txt', data: Buffer.from('a') }]));
  const files = await ServerFiles.open(root, ['.*']);
  const result = await failure(extract(files, 'mods.zip', 'out', limits));
  t.is(result.code, 'DENIED');
  t.regex(result.message, /staging directory \/out\/\.gsm-extract-[0-9a-f]+, which the server's deny list denies/);
  t.deepEqual(await tree(root), ['mods.zip']);
});

// ---- no staging directory outlives its extraction (docs/files.md#archives-and-pulls)

/** A tar.gz of `count` files of `size` zero bytes each (`d/f<n>`). */
const zeroFiles = (count: number, size: number) =>
  gzipSync(Buffer.concat([...Array.from({ length: count }, (_, index) => member(`d/f${index}`, '0', Buffer.alloc(size))), TAR_END]));

test('a helper whose input ends while it extracts removes the staging directory before it exits', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-archives-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'big.tar.gz'), zeroFiles(4000, 16 * 1024));
  const helper = await FileHelper.start({ root, deny: [] });
  t.teardown(() => helper.stop());
  let stopping: Promise<void> | undefined;
  const result = await failure(
    helper.extract(
      'big.tar.gz',
      'out',
      { maxBytes: 1 << 30, maxEntries: 10_000 },
      {
        // The agent stops the helper (the server's STOP, an agent restart) while files are being written.
        progress: (_done, _total, message) => {
          if (message.startsWith('extracting') && !stopping) stopping = helper.stop();
        },
      },
    ),
  );
  await stopping;
  t.truthy(stopping, 'the helper was stopped while it wrote');
  t.not(result.code, 'none');
  t.deepEqual(await tree(root), ['big.tar.gz']);
});

test('an extraction removes the staging directories a killed one left in its destination, and a compress leaves them out', async (t) => {
  const tar = gzipSync(Buffer.concat([member('a.txt', '0', Buffer.from('a')), TAR_END]));
  const { root, files } = await serverWith(t, 'a.tar.gz', tar);
  for (const name of ['.gsm-extract-0ld', '.gsm-extract-f7e5h']) {
    await mkdir(join(root, 'out', name, 'half'), { recursive: true });
    await writeFile(join(root, 'out', name, 'half/written'), 'x');
  }
  const old = new Date(Date.now() - 2 * STALE_STAGING_MS);
  await utimes(join(root, 'out/.gsm-extract-0ld'), old, old);
  const zipped = await compress(files, ['out'], 'out.zip');
  t.is(zipped.entries, 1, 'out/ alone: the staging directories are left out');
  t.like(await extract(files, 'a.tar.gz', 'out', limits), { entries: 1 });
  t.deepEqual(await readdir(join(root, 'out')), ['.gsm-extract-f7e5h', 'a.txt'], 'the old one went; one that may be under way stays');
});

test('with a deny list, a staging directory of more than 100,000 entries is removed all the same (no deny-list walk)', async (t) => {
  t.timeout(120_000);
  const tar = gzipSync(Buffer.concat([member('a.txt', '0', Buffer.from('a')), TAR_END]));
  const root = await mkdtemp(join(tmpdir(), 'gsm-archives-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'a.tar.gz'), tar);
  // One a killed extraction left: the walk checking a delete against the deny list stops at 100,000 entries.
  const staging = join(root, 'out/.gsm-extract-0ld');
  await mkdir(staging, { recursive: true });
  for (let index = 0; index < 100_010; index += 1000)
    await Promise.all(Array.from({ length: 1000 }, (_, offset) => writeFile(join(staging, `f${index + offset}`), '')));
  const old = new Date(Date.now() - 2 * STALE_STAGING_MS);
  await utimes(staging, old, old);
  const files = await ServerFiles.open(root, ['*.secret']);
  t.is((await failure(files.remove('out/.gsm-extract-0ld', { recursive: true }))).code, 'TOO_LARGE', 'what a delete through the API answers');
  t.like(await extract(files, 'a.tar.gz', 'out', limits), { entries: 1 });
  t.deepEqual(await readdir(join(root, 'out')), ['a.txt']);
});

test('a tar.gz rewritten between the check and the writing is refused, nothing of it in place', async (t) => {
  const checked = gzipSync(Buffer.concat([member('a.txt', '0', Buffer.from('checked')), TAR_END]));
  const { root, files } = await serverWith(t, 'mods.tar.gz', checked);
  // Written over in place (the same file) once the first pass has read it: the second reads another archive.
  const swapped = gzipSync(Buffer.concat([member('a.txt', '0', Buffer.from('checked')), member('world/level.dat/x', '0', Buffer.from('x')), TAR_END]));
  let rewritten = false;
  const progress = (_done: number, _total: number | null, message: string) => {
    if (message.startsWith('checking') && !rewritten) {
      rewritten = true;
      writeFileSync(join(root, 'mods.tar.gz'), swapped);
    }
  };
  const result = await failure(extract(files, 'mods.tar.gz', 'out', limits, { progress }));
  t.true(rewritten);
  t.is(result.code, 'INVALID');
  t.regex(result.message, /changed while it was extracted/);
  t.false(existsSync(join(root, 'out')));
});
