/**
 * Regular expressions written by users and run on every line a game prints (a CUSTOM server's `ready.pattern`):
 * compiled for V8's linear-time engine (the `l` flag), so no pattern and no line can make the agent backtrack for
 * ever (`^(a+)+$` on `aaaa…b` would otherwise block it, and every server it runs, for hours). That engine runs no
 * backreferences and no lookahead, nor repetition counts above 16; lookbehind it runs only from Node 22, and agents run on
 * Node 20 too: so lookbehind is refused as well. The service checks with the same function as the agent compiles.
 */
import { setFlagsFromString } from 'node:v8';

let enabled = false;

/** Lookbehind `(?<=` or `(?<!` outside a character class and not escaped (a named group `(?<name>` is fine). */
function hasLookbehind(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) return true;
  }
  return false;
}

/** `pattern` compiled for the linear-time engine; throws (a SyntaxError saying why) when it cannot run there. */
export function linearRegExp(pattern: string): RegExp {
  if (!enabled) {
    // Only makes the `l` flag known; every other regular expression of the process runs as before.
    setFlagsFromString('--enable-experimental-regexp-engine');
    enabled = true;
  }
  if (hasLookbehind(pattern)) throw new SyntaxError(`Invalid regular expression: /${pattern}/: lookbehind cannot be executed in linear time on every agent`);
  // eslint-disable-next-line no-invalid-regexp -- `l` (linear) is V8's, known once the flag above is set
  return new RegExp(pattern, 'l');
}

/** Why `pattern` cannot be a line pattern (it does not compile, or not for the linear-time engine); undefined when it can. */
export function linearPatternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch {
    return 'must be a valid regular expression';
  }
  try {
    linearRegExp(pattern);
    return undefined;
  } catch {
    return 'must run in linear time: no backreferences (\\1, \\k<name>), lookahead or lookbehind, and repetition counts {n,m} up to 16';
  }
}
