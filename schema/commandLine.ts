/**
 * A command line as the agent runs it (docs/agent.md): split like a POSIX shell line, never handed to a shell. Shared:
 * the agent splits a server's startCommand, and the service splits a template's start command before it fills in the
 * variables, so a value never becomes two arguments.
 */

/** A startCommand or env that cannot be turned into a launch; the message says what to fix. */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

/**
 * Splits like `sh` would, without any expansion: whitespace separates words; '…' is literal; "…" honours only
 * \" and \\ (any other backslash stays, as in POSIX); outside quotes a backslash takes the next character literally
 * and backslash-newline joins lines. `""` is an empty argument; quotes may glue onto a word (`--name="a b"`).
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false; // distinguishes "no word" from an empty quoted word
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new CommandLineError(`unterminated single quote (') at position ${i} in startCommand`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      const start = i;
      i++;
      for (;;) {
        if (i >= text.length) {
          throw new CommandLineError(`unterminated double quote (") at position ${start} in startCommand`);
        }
        const d = text[i];
        if (d === '"') break;
        if (d === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
          word += text[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new CommandLineError('startCommand ends with a lone backslash (\\)');
      if (text[i + 1] !== '\n') {
        word += text[i + 1];
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** One word written so that splitCommandLine gives it back as one word, exactly (single quotes; `'` as `'\''`). */
export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
