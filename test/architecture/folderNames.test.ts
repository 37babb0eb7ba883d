/**
 * No two folders of the project have names that differ by one letter (`install/` beside `installs/`, `server/`
 * beside `servers/`, `confg/` beside `config/`), or only by case: a reader takes one for the other. Folders are
 * compared by name wherever they are in the tree, over the files git knows (tracked, or new and not ignored). The
 * same check on a scratch tree proves it finds such a pair and passes the tree without it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import test from 'ava';

/**
 * Pairs the check lets through, each with its reason. Only other languages' conventions belong here.
 */
const ALLOWED: Record<string, string> = {
  // Python's convention for a package's tests (unittest discovers it); a package named `test` would shadow the
  // standard library's own `test` package.
  'api/clients/python/tests': 'Python',
};

/** The folders of the tree at `root`, from the files git knows there (tracked, or untracked and not ignored). */
function foldersOf(root: string): string[] {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const folders = new Set<string>();
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) folders.add(folder);
  }
  return [...folders].sort();
}

/** Whether `a` is `b` with one letter more (or fewer), anywhere in the name. */
function oneLetterApart(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return false;
  for (let i = 0; i < long.length; i += 1) {
    if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

/** Folders whose names differ by one letter, or only by case: `[one, other]`, each a path from the root. */
function lookalikeFolders(folders: readonly string[]): [string, string][] {
  const byName = new Map<string, string[]>();
  for (const folder of folders) {
    if (folder in ALLOWED) continue;
    const name = basename(folder);
    byName.set(name, [...(byName.get(name) ?? []), folder]);
  }
  const names = [...byName.keys()];
  const pairs: [string, string][] = [];
  for (const [i, one] of names.entries()) {
    for (const other of names.slice(i + 1)) {
      const lower = [one.toLowerCase(), other.toLowerCase()] as const;
      if (lower[0] === lower[1] || oneLetterApart(...lower)) pairs.push([byName.get(one)![0]!, byName.get(other)![0]!]);
    }
  }
  return pairs;
}

test("the project's folders have names that do not differ by one letter", (t) => {
  const pairs = lookalikeFolders(foldersOf('.'));
  t.deepEqual(pairs, [], pairs.map(([one, other]) => `${one} and ${other} differ by one letter: rename one so each name says what it holds`).join('\n'));
});

/** The folders of a scratch git tree holding `files` (empty), with `ignore` as its .gitignore. */
async function scratchTree(files: string[], ignore = ''): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'gsm-folders-'));
  try {
    spawnSync('git', ['init', '-q'], { cwd: root });
    await writeFile(join(root, '.gitignore'), ignore);
    for (const file of files) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), '');
    }
    return foldersOf(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const distinct = ['agent/installs/steam.ts', 'agent/selfInstall/systemUnit.ts', 'api/app.ts', 'api/dashboard/app/main.tsx', 'orchestrator/servers/store.ts'];

test('a tree whose folder names differ by more than one letter passes (same names in two places too)', async (t) => {
  t.deepEqual(lookalikeFolders(await scratchTree([...distinct, 'agent/servers/accounts.ts'])), []);
});

for (const [what, file, pair] of [
  ['a singular beside its plural', 'agent/install/systemUnit.ts', ['agent/install', 'agent/installs']],
  ['a plural in another part of the tree', 'test/server/store.test.ts', ['orchestrator/servers', 'test/server']],
  ['a letter missing inside the name', 'schema/agnt/x.ts', ['agent', 'schema/agnt']],
  ['only the case', 'test/Agent/x.ts', ['agent', 'test/Agent']],
] as const) {
  test(`the check finds folders differing by one letter: ${what}`, async (t) => {
    const pairs = lookalikeFolders(await scratchTree([...distinct, file]));
    t.deepEqual(
      pairs.map((found) => [...found].sort()),
      [[...pair].sort()],
    );
  });
}

test('folders git ignores (data, build output) are not compared', async (t) => {
  t.deepEqual(lookalikeFolders(await scratchTree([...distinct, 'data/install/x'], 'data/\n')), []);
  t.deepEqual(lookalikeFolders(await scratchTree([...distinct, 'data/install/x'])), [['agent/installs', 'data/install']]);
});
