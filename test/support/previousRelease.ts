/**
 * The previous release's code, for the tests that run it beside this build (test/upgrade/previousRelease.test.ts,
 * test/upgrade/rollingUpgrade.roll.ts (`npm run bench -- upgrade`)): `git archive` of the commit below into a temporary folder, with this
 * checkout's node_modules (a release adds packages, it does not take away the previous release's). Raise
 * PREVIOUS_RELEASE (and RELEASED_MIGRATIONS in sql/migrationRules.ts) when a release is cut.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** main's commit 504d30d: the last release before this round. */
export const PREVIOUS_RELEASE = '504d30d7a0b51e41d85ab3bb237f53e6bbc42f36';
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Why the previous release's code cannot be had (no git history: a tarball of the tree, a shallow clone), or null. */
export function previousReleaseMissing(commit = PREVIOUS_RELEASE): string | null {
  try {
    execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `the git history with commit ${commit.slice(0, 7)} is absent (not a git checkout, or a shallow one): the previous release's code cannot be checked out`;
  }
}

/** The previous release's tree in a temporary folder, removed when the test ends. */
export async function checkoutPreviousRelease(t: { teardown: (f: () => Promise<void>) => void }, commit = PREVIOUS_RELEASE): Promise<string> {
  const tree = await mkdtemp(join(tmpdir(), 'gsm-previous-'));
  t.teardown(() => rm(tree, { recursive: true, force: true }));
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive --format=tar ${commit} | tar -x -C "${tree}"`]);
  await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  return tree;
}
