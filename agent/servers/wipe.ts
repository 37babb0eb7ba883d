/**
 * WIPE (docs/agent.md, issue 7): deletes the adapter's wipe paths — relative paths whose segments may hold `*` —
 * inside one server's directory and nowhere else. Patterns that are absolute or climb with `..` are refused, and the
 * search never passes through a symbolic link: a link that matches is removed itself, its target is left alone, and a
 * linked directory is never entered. So a server directory holding `server -> /` cannot make a wipe reach outside.
 */
import { isAbsolute } from 'node:path';
import { ownerOf, runAs, type RunAs } from './accounts.ts';

export class WipeError extends Error {}

/** Checks a wipe path before any file is touched. */
function segmentsOf(pattern: string): string[] {
  const segments = pattern.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (isAbsolute(pattern) || segments.length === 0 || segments.some((segment) => segment === '..')) {
    throw new WipeError(`wipe path ${JSON.stringify(pattern)} is not inside the server directory`);
  }
  return segments;
}

/** A segment as find's -path pattern: only `*` is a wildcard (`?`, `[`, `]` and `\` are escaped). */
const findSegment = (segment: string) => segment.replace(/[?[\]\\]/g, '\\$&');

/**
 * Paths inside the server's directory (relative to it, `./…`) that match the segments, found by `find` run as `who`
 * from the directory: root reads no name in the tree. find neither follows links nor enters a linked directory, and
 * with the depth fixed at the number of segments a `*` never spans a `/`.
 */
async function matches(serverDir: string, segments: string[], who: RunAs | undefined): Promise<string[]> {
  const depth = String(segments.length);
  const pattern = ['.', ...segments.map(findSegment)].join('/');
  const found = await runAs(who, 'find', ['.', '-mindepth', depth, '-maxdepth', depth, '-path', pattern, '-print0'], { cwd: serverDir, output: true });
  if (found.error) throw new WipeError(`the wipe paths could not be looked up as the server's account (${found.error.message})`);
  // find reports directories it may not read (and goes on): what is in them is not the account's to delete anyway.
  return found.stdout.split('\0').filter((path) => path.startsWith('./'));
}

/**
 * Deletes what the patterns match inside `serverDir`; answers the deleted paths relative to it. Finding and deleting
 * are done as the server's account (`account`, when it has one), from inside the directory with relative paths:
 * root reads nothing in the tree, a directory the account swaps for a link while the wipe runs leads only where the
 * account could go anyway, and an error names only paths inside the tree.
 */
export async function wipe(serverDir: string, patterns: readonly string[], account?: RunAs): Promise<string[]> {
  const checked = patterns.map(segmentsOf);
  const deleted: string[] = [];
  // Without an account given, as the directory's owner: a WIPE never makes an account, and never acts as root in a
  // tree an account owns. No directory: nothing to wipe.
  account ??= await ownerOf(serverDir);
  if (!account) return deleted;
  for (const segments of checked) {
    for (const path of await matches(serverDir, segments, account)) {
      const inside = path.slice(2);
      const done = await runAs(account, 'rm', ['-rf', '--one-file-system', '--', path], { cwd: serverDir });
      if (done.error) throw done.error;
      if (done.code !== 0) throw new Error(`could not remove everything as the server's account: ${done.stderr.split('\n')[0] || `rm exit ${done.code}`}`);
      deleted.push(inside);
    }
  }
  return deleted;
}
