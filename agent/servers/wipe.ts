/**
 * WIPE (docs/agent.md, issue 7): deletes the adapter's wipe paths — relative paths whose segments may hold `*` —
 * inside one server's directory and nowhere else. Patterns that are absolute or climb with `..` are refused, and the
 * walk never passes through a symbolic link: a link that matches is removed itself, its target is left alone, and a
 * linked directory is never entered. So a server directory holding `server -> /` cannot make a wipe reach outside.
 */
import { lstat, readdir } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { removeAs, type RunAs } from './accounts.ts';

/** One path segment with `*` wildcards as a regular expression (no other glob syntax). */
const segmentPattern = (segment: string) =>
  new RegExp(
    `^${segment
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

export class WipeError extends Error {}

/** Checks a wipe path before any file is touched. */
function segmentsOf(pattern: string): string[] {
  const segments = pattern.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (isAbsolute(pattern) || segments.length === 0 || segments.some((segment) => segment === '..')) {
    throw new WipeError(`wipe path ${JSON.stringify(pattern)} is not inside the server directory`);
  }
  return segments;
}

/** Paths under `dir` (not through links) that match the segments, deepest last. */
async function matches(dir: string, segments: string[]): Promise<string[]> {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [dir];
  const entries = segment.includes('*') ? (await readdir(dir).catch(() => [] as string[])).filter((name) => segmentPattern(segment).test(name)) : [segment];
  const found: string[] = [];
  for (const name of entries) {
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    if (!info) continue;
    if (rest.length === 0) found.push(path);
    else if (info.isDirectory() && !info.isSymbolicLink()) found.push(...(await matches(path, rest)));
  }
  return found;
}

/**
 * Deletes what the patterns match inside `serverDir`; answers the deleted paths relative to it. The deleting is done as
 * the server's account (`account`, when it has one): root only reads names here, so a directory the account swaps for
 * a link while the wipe runs leads the removal only where the account could go anyway.
 */
export async function wipe(serverDir: string, patterns: readonly string[], account?: RunAs): Promise<string[]> {
  const checked = patterns.map(segmentsOf);
  const deleted: string[] = [];
  for (const segments of checked) {
    for (const path of await matches(serverDir, segments)) {
      const inside = relative(serverDir, path);
      if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
      await removeAs(account, [path]);
      deleted.push(inside);
    }
  }
  return deleted;
}
