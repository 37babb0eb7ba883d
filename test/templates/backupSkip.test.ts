/**
 * A template's `files.backupSkip` (docs/templates.md#files): a backup leaves out what its gitignore-style patterns
 * match (at any depth without a `/`, anchored with one, directories with a trailing `/`, `!` keeps), and keeps the rest.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArchive } from '../../agent/backups/archiver.ts';
import { SkippedPaths } from '../../agent/backups/backupSkip.ts';

test('a backup leaves out the paths backupSkip matches, gitignore-style, and keeps the rest', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-backup-skip-'));
  const dir = join(root, 'server');
  for (const path of ['world/region', 'logs/old', 'cache', 'plugins/cache', 'odd']) await mkdir(join(dir, path), { recursive: true });
  const files = [
    'server.properties',
    'world/level.dat',
    'world/region/r.0.0.mca',
    'logs/latest.log',
    'logs/old/2024.log.gz',
    'logs/keep.log',
    'cache/blob',
    'plugins/cache/x',
    'plugins/plugin.jar',
    'crash.dmp',
    'world/crash.dmp',
    'odd/[weird]*name',
  ];
  for (const file of files) await writeFile(join(dir, file), file);
  const destFile = join(root, 'backup.tar.gz');
  await writeArchive({ dir, destFile, account: undefined, skip: ['logs/', '!logs/keep.log', 'cache/', '*.dmp', '/odd/[[]weird]*'] });
  const listed = execFileSync('tar', ['-tzf', destFile], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^\.\//, ''))
    .sort();
  // A directory skipped is skipped whole (as in git, nothing below it is re-allowed).
  t.deepEqual(listed, ['plugins/plugin.jar', 'server.properties', 'world/level.dat', 'world/region/r.0.0.mca']);
});

test('the tree is fed depth first: what a skipped directory holds is never matched again, its siblings are', (t) => {
  const skipped = new SkippedPaths(['cache/', '*.dmp']);
  for (const [path, isDir] of [
    ['cache', true],
    ['cache/a.dmp', false],
    ['cache/deep', true],
    ['cache/deep/b.dmp', false],
    ['cachet', true],
    ['cachet/c.dmp', false],
    ['d.dmp', false],
  ] as const)
    skipped.add(path, isDir);
  t.deepEqual(skipped.paths, ['cache', 'cachet/c.dmp', 'd.dmp']);
  t.true(new SkippedPaths([]).empty);
});

test('the tree is listed as the server account: a directory it may not read is passed over, and the backup goes on', async (t) => {
  if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
  const root = await mkdtemp(join(tmpdir(), 'gsm-backup-skip-'));
  await chmod(root, 0o711);
  const dir = join(root, 'server');
  await mkdir(join(dir, 'locked'), { recursive: true });
  await writeFile(join(dir, 'keep.txt'), 'keep');
  await writeFile(join(dir, 'crash.dmp'), 'dump');
  await writeFile(join(dir, 'locked', 'secret.dmp'), 'root only');
  await chown(dir, 65534, 65534);
  for (const file of ['keep.txt', 'crash.dmp']) await chown(join(dir, file), 65534, 65534);
  await chmod(join(dir, 'locked'), 0o700); // root's: the account cannot list it (root could)
  const destFile = join(root, 'backup.tar.gz');
  await writeArchive({ dir, destFile, account: { uid: 65534, gid: 65534 }, skip: ['*.dmp'] });
  const listed = execFileSync('tar', ['-tzf', destFile], { encoding: 'utf8' });
  t.regex(listed, /keep\.txt/);
  t.notRegex(listed, /crash\.dmp/);
  t.notRegex(listed, /secret\.dmp/);
});
