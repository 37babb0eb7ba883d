/**
 * Paths inside a server's directory and the deny list (docs/files.md), shared by the service (which refuses a bad path
 * with a 400 before anything is sent) and the agent's file helper (which checks again, as the server's account).
 *
 * A file path is relative to the server's directory, `/`-separated: no NUL, no `..` segment, not absolute (a leading
 * `/` is taken as the server's directory itself only by `normalizeFilePath(…, { leadingSlash: true })`, as the API's
 * paths and SFTP's are rooted there). `.` and empty segments are dropped; the empty path is the directory itself.
 */

export class FilePathError extends Error {
  readonly code: 'INVALID_PATH' | 'DENIED';
  constructor(code: 'INVALID_PATH' | 'DENIED', message: string) {
    super(message);
    this.code = code;
  }
}

/** Longest path accepted (Linux's PATH_MAX less room for the server's directory). */
export const MAX_FILE_PATH_BYTES = 3072;
/** Longest name of one entry (Linux's NAME_MAX). */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * The segments of `path` inside the server's directory, or a FilePathError. `leadingSlash`: a leading `/` means the
 * server's directory (the API's and SFTP's view), otherwise an absolute path is refused.
 */
export function filePathSegments(path: string, options: { leadingSlash?: boolean } = {}): string[] {
  if (typeof path !== 'string') throw new FilePathError('INVALID_PATH', 'a path must be a string');
  if (path.includes('\0')) throw new FilePathError('INVALID_PATH', 'a path may not contain NUL');
  if (Buffer.byteLength(path) > MAX_FILE_PATH_BYTES) throw new FilePathError('INVALID_PATH', `a path may be at most ${MAX_FILE_PATH_BYTES} bytes`);
  if (path.startsWith('/') && !options.leadingSlash) throw new FilePathError('INVALID_PATH', 'an absolute path is not inside the server directory');
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new FilePathError('INVALID_PATH', 'a path may not climb with ..');
  for (const segment of segments)
    if (Buffer.byteLength(segment) > MAX_FILE_NAME_BYTES) throw new FilePathError('INVALID_PATH', `a name may be at most ${MAX_FILE_NAME_BYTES} bytes`);
  return segments;
}

/** `path` normalized (`a/b`, '' for the directory itself), or a FilePathError. */
export const normalizeFilePath = (path: string, options: { leadingSlash?: boolean } = {}): string => filePathSegments(path, options).join('/');

/**
 * Refuses a name for a new entry (write, mkdir, rename and copy targets, uploads) holding control characters (newlines
 * among them: they break logs, listings and headers) or unpaired surrogates (not valid UTF-8 on disk). Existing entries
 * with such names can still be read, renamed and deleted.
 */
export function checkNewName(path: string): void {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new FilePathError('INVALID_PATH', 'a new name may not contain control characters (such as a newline)');
  if (!path.isWellFormed()) throw new FilePathError('INVALID_PATH', 'a new name must be valid UTF-8');
}

type Rule = { negate: boolean; dirOnly: boolean; regex: RegExp };

/** One gitignore-style glob as a regular expression over a whole relative path. */
function globToRegex(glob: string, anchored: boolean): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const before = i === 0 || glob[i - 1] === '/';
        const after = glob[i + 2] === '/' || i + 2 === glob.length;
        if (before && after) {
          // `**/` any directories (none included); a trailing `/**` everything below.
          if (glob[i + 2] === '/') {
            out += '(?:.*/)?';
            i += 2;
          } else {
            out += '.*';
            i += 1;
          }
          continue;
        }
        i += 1;
      }
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += glob[i + 1]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 1;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(anchored ? `^${out}$` : `^(?:.*/)?${out}$`, 's');
}

/**
 * A gitignore-style deny list: `#` comments and blank lines ignored; `*`, `?`, `[…]`, `**`; a pattern without a `/`
 * (other than a trailing one) matches a name at any depth, one with a `/` is anchored at the server's directory; a
 * trailing `/` matches directories only; `!` re-allows what an earlier pattern denied. A path is denied when it or any
 * directory above it is (as in git, nothing below a denied directory can be re-allowed).
 */
export class DenyList {
  readonly #rules: Rule[];
  readonly patterns: readonly string[];

  constructor(patterns: readonly string[]) {
    this.patterns = patterns;
    this.#rules = [];
    for (const raw of patterns) {
      let line = raw.replace(/(?<!\\)\s+$/, '');
      if (line === '' || line.startsWith('#')) continue;
      const negate = line.startsWith('!');
      if (negate) line = line.slice(1);
      if (line.startsWith('\\#') || line.startsWith('\\!')) line = line.slice(1);
      const dirOnly = line.endsWith('/');
      if (dirOnly) line = line.replace(/\/+$/, '');
      const anchored = line.includes('/');
      line = line.replace(/^\/+/, '');
      if (line === '') continue;
      this.#rules.push({ negate, dirOnly, regex: globToRegex(line, anchored) });
    }
  }

  get empty(): boolean {
    return this.#rules.length === 0;
  }

  #matches(path: string, isDir: boolean): boolean {
    let denied = false;
    for (const rule of this.#rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(path)) denied = !rule.negate;
    }
    return denied;
  }

  /**
   * Whether the normalized path `path` is denied. `isDir`: whether it is a directory; unknown (undefined), directory-only
   * patterns count too (the cautious answer).
   */
  denies(path: string, isDir?: boolean): boolean {
    if (this.#rules.length === 0 || path === '') return false;
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      const last = i === segments.length;
      if (this.#matches(prefix, last ? isDir !== false : true)) return true;
    }
    return false;
  }
}

/** Checks that the patterns compile (at most 256, each at most 512 characters); answers the problem or undefined. */
export function denyListProblem(patterns: readonly string[]): string | undefined {
  if (patterns.length > 256) return 'a deny list holds at most 256 patterns';
  for (const pattern of patterns) {
    if (typeof pattern !== 'string' || pattern.length > 512) return 'each deny pattern is a string of at most 512 characters';
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f]/.test(pattern)) return 'a deny pattern may not contain control characters';
  }
  try {
    new DenyList(patterns);
  } catch {
    return 'a deny pattern is not a valid glob';
  }
  return undefined;
}
