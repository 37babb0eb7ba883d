/**
 * Names on disk that are not valid UTF-8 (a game, or an archive from elsewhere, made them) in the file operations
 * (agent/files/operations.ts, docs/files.md#paths), with real files of such names: a listing pages past them and ends,
 * shows them escaped (`\xHH`), and they can be renamed, deleted and chmod-ed by that name; other verbs refuse them clearly.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerFiles } from '../../agent/files/operations.ts';
import type { FileOpError } from '../../agent/files/protocol.ts';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

async function serverWithRawNames(t: { teardown: (fn: () => Promise<void>) => void }) {
  const root = await mkdtemp(join(tmpdir(), 'gsm-names-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  // Sorted by bytes: a, b\xff, b\xff\x01.., c\xc3 (a cut two-byte sequence), d, é (valid: c3 a9).
  const names = [bytes('a'), bytes('b', [0xff]), bytes('b', [0xff], '.log'), bytes('c', [0xc3]), bytes('d'), bytes('é')];
  for (const name of names) await writeFile(Buffer.concat([Buffer.from(`${root}/`), name]), name);
  return { root, names, files: await ServerFiles.open(root, []) };
}

test('a listing of names that are not UTF-8 pages past each once and ends, whatever the page size', async (t) => {
  const { files } = await serverWithRawNames(t);
  for (const limit of [1, 2, 3, 10]) {
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await files.list('', { limit, ...(after !== undefined ? { after } : {}) });
      seen.push(...page.entries.map((entry) => entry.name));
      after = page.next;
      pages++;
      // A guard, not a timing: without paging by bytes the same page comes back for ever.
      if (pages > 20) break;
    } while (after !== undefined);
    t.deepEqual(seen, ['a', 'b\\xff', 'b\\xff.log', 'c\\xc3', 'd', 'é'], `limit ${limit}`);
  }
  const all = await files.list('');
  t.deepEqual(
    all.entries.filter((entry) => entry.invalidName).map((entry) => entry.name),
    ['b\\xff', 'b\\xff.log', 'c\\xc3'],
  );
});

test('a name that is not UTF-8 is addressed by its escaped form: lstat, rename, delete and chmod take it; other verbs refuse it clearly', async (t) => {
  const { root, files } = await serverWithRawNames(t);
  t.like(await files.lstat('/b\\xff'), { name: 'b\\xff', type: 'file', invalidName: true, size: 2 });
  for (const attempt of [files.stat('b\\xff'), files.open('b\\xff', { read: true }), files.list('b\\xff')]) {
    const error = (await attempt.then(
      () => undefined,
      (failure: FileOpError) => failure,
    ))!;
    t.is(error?.code, 'INVALID_PATH');
    t.regex(error.message, /^\/b\\xff: its name on disk is not valid UTF-8 .* rename it to use it$/);
  }
  t.is((await files.chmod('b\\xff', 0o600)).mode, 0o600);
  // A name that does not exist at all is still simply missing.
  t.is(((await files.stat('b\\xfe').catch((failure: FileOpError) => failure)) as FileOpError).code, 'NOT_FOUND');
  await files.rename('b\\xff.log', 'renamed.log');
  t.is(await readFile(join(root, 'renamed.log'), 'latin1'), 'b\xff.log');
  await files.remove('c\\xc3');
  t.deepEqual((await readdir(root, { encoding: 'buffer' })).map((name) => name.toString('latin1')).sort(), ['a', 'b\xff', 'd', 'renamed.log', 'Ã©'].sort());
  // A directory of such a name, with one inside: deleted whole by its escaped name.
  const dir = bytes('w', [0xfe]);
  await mkdir(Buffer.concat([Buffer.from(`${root}/`), dir]));
  await writeFile(Buffer.concat([Buffer.from(`${root}/`), dir, Buffer.from('/'), bytes('x', [0x80])]), 'x');
  await files.remove('w\\xfe', { recursive: true });
  t.false(existsSync(Buffer.concat([Buffer.from(`${root}/`), dir])));
});

test('two names that are not UTF-8 are never shown alike: a backslash in one is escaped too, and each is reached by its own form', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-names-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  // The bytes ff fe, and ff followed by the text `\xfe`: without escaping the backslash both show as `\xff\xfe`.
  const [escapes, bytesOnly] = [bytes([0xff], '\\xfe'), bytes([0xff, 0xfe])];
  for (const name of [escapes, bytesOnly]) await writeFile(Buffer.concat([Buffer.from(`${root}/`), name]), name);
  const files = await ServerFiles.open(root, []);
  const names = (await files.list('')).entries.map((entry) => entry.name);
  t.deepEqual(names.sort(), ['\\xff\\x5cxfe', '\\xff\\xfe']);
  await files.remove('\\xff\\x5cxfe');
  t.deepEqual(await readdir(root, { encoding: 'buffer' }), [bytesOnly]);
  await files.rename('\\xff\\xfe', 'fixed');
  t.deepEqual(await readdir(root), ['fixed']);
});

test("a deny pattern's ? and […] match a name that is not UTF-8 by its decoded form too: hidden, refused, and guarding a delete", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-names-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const secret = bytes('key', [0xff]);
  await writeFile(Buffer.concat([Buffer.from(`${root}/`), secret]), 'secret');
  await mkdir(join(root, 'd'));
  await writeFile(Buffer.concat([Buffer.from(`${root}/d/`), secret]), 'secret');
  await writeFile(join(root, 'keys.txt'), 'more than one character after key');
  // `key?` matches `key` and one character: the decoded name (key and U+FFFD), not the shown `key\xff`.
  for (const deny of [['key?'], ['key[!.]']]) {
    const files = await ServerFiles.open(root, deny);
    t.deepEqual(
      (await files.list('')).entries.map((entry) => entry.name),
      ['d', 'keys.txt'],
      deny[0],
    );
    t.deepEqual(
      (await files.list('d')).entries.map((entry) => entry.name),
      [],
      deny[0],
    );
    t.is(((await files.lstat('key\\xff').catch((failure: FileOpError) => failure)) as FileOpError).code, 'DENIED', deny[0]);
    t.is(((await files.remove('d', { recursive: true }).catch((failure: FileOpError) => failure)) as FileOpError).code, 'DENIED', deny[0]);
  }
  t.true(existsSync(Buffer.concat([Buffer.from(`${root}/d/`), secret])));
});
