/**
 * What a backup leaves out (docs/templates.md#files): the template's `files.backupSkip`, gitignore-style like the deny
 * list (schema/filePaths.ts DenyList: `*`, `**`, a pattern without `/` at any depth, a trailing `/` for directories,
 * `!` to keep). The topmost paths that match are given to tar as exact names. Matching only: the tree is listed by
 * the archiver, as the server's account (archiver.ts), in depth-first order, a directory before what it holds.
 */
import { DenyList } from '../../schema/filePaths.ts';

/** Collects the topmost skipped paths of a tree fed to it entry by entry, a directory before its content. */
export class SkippedPaths {
  readonly #skip: DenyList;
  readonly paths: string[] = [];
  /** The skipped directory whose content is being fed (`dir/`): nothing below it is looked at again. */
  #inside: string | undefined;

  constructor(patterns: readonly string[]) {
    this.#skip = new DenyList(patterns);
  }

  /** No pattern: nothing is ever skipped, and the tree need not be listed. */
  get empty(): boolean {
    return this.#skip.empty;
  }

  /** One entry (relative, `/`-separated). */
  add(path: string, isDir: boolean): void {
    if (this.#inside !== undefined && path.startsWith(this.#inside)) return;
    this.#inside = undefined;
    if (!this.#skip.denies(path, isDir)) return;
    this.paths.push(path);
    if (isDir) this.#inside = `${path}/`;
  }
}
