/**
 * An egg's installation script, made to run natively (docs/templates.md#importing-eggs). Eggs run it as root in a
 * container image that carries its tools, against `/mnt/server`; here it runs as the server's account in the server's
 * directory. So:
 * - `/mnt/server` becomes `${SERVER_DIR}` (the server's directory, in the script's environment);
 * - a line that installs packages (apt, apt-get, apk, yum, dnf, microdnf, zypper, pacman) is not run: it becomes the
 *   no-op `:` (so an `if` or a loop around it stays valid shell) and is listed, with the packages it named;
 * - the tools the script runs (curl, wget, tar, unzip, git, java, …) are listed: an INSTALL on a machine whose agent
 *   does not report one of them fails at once, naming them all.
 */
import { KNOWN_TOOLS } from '../../schema/tools.ts';

const TOOLS: ReadonlySet<string> = new Set(KNOWN_TOOLS);

const PACKAGE_MANAGERS = new Set(['apt', 'apt-get', 'aptitude', 'apk', 'yum', 'dnf', 'microdnf', 'zypper', 'pacman']);
/** Words that come before a command without being it. */
const PREFIXES = new Set(['sudo', 'exec', 'time', 'command', 'nohup', '!', 'if', 'then', 'do', 'else', 'elif', 'while', 'until', '{', 'env']);

export type AdaptedScript = {
  /** The script to run, as the server's account, in the server's directory. */
  script: string;
  /** The shell it runs with (the egg's entrypoint: bash, or sh for `ash`/`sh`). */
  shell: 'bash' | 'sh';
  /** The lines not run, as written. */
  skipped: string[];
  /** Packages those lines would have installed. */
  packages: string[];
  /** The tools the script runs, sorted. */
  tools: string[];
};

/** The words of one simple command (no quotes resolved: only the command word is looked at). */
const words = (segment: string) =>
  segment
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');

/** The command word of a simple command: past assignments (`A=b`), `sudo`, `if`, `!` and the like. */
function commandWord(segment: string): { word: string; rest: string[] } | null {
  const list = words(segment);
  let index = 0;
  while (index < list.length && (PREFIXES.has(list[index]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(list[index]!) || list[index]!.startsWith('-'))) index += 1;
  if (index >= list.length) return null;
  return { word: list[index]!.replace(/^["']|["']$/g, ''), rest: list.slice(index + 1) };
}

/** The simple commands of a line: split at `;`, `&&`, `||`, `|`, `(`, `)`, backquotes and `$(` (quotes ignored). */
const segments = (line: string) => line.split(/\$\(|[;&|()`]+/);

/** Logical lines: a line ending in a backslash continues on the next. Each with the indices of its physical lines. */
function logicalLines(lines: string[]): { text: string; from: number; to: number }[] {
  const out: { text: string; from: number; to: number }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const from = index;
    let text = lines[index]!;
    while (/\\$/.test(text) && index + 1 < lines.length) {
      index += 1;
      text = `${text.slice(0, -1)} ${lines[index]!}`;
    }
    out.push({ text, from, to: index });
  }
  return out;
}

export function adaptInstallScript(source: string, entrypoint: string): AdaptedScript {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const skipped: string[] = [];
  const packages = new Set<string>();
  const tools = new Set<string>();
  const shell = /(^|\/)(ash|sh|dash)$/.test(entrypoint.trim()) ? 'sh' : 'bash';
  tools.add(shell === 'bash' ? 'bash' : 'sh');
  let inHeredoc: string | null = null;
  for (const logical of logicalLines(lines)) {
    const trimmed = logical.text.trim();
    if (inHeredoc !== null) {
      if (trimmed === inHeredoc) inHeredoc = null;
      continue;
    }
    const heredoc = /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/.exec(trimmed);
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const commands = segments(trimmed.replace(/\s#.*$/, ''))
      .map(commandWord)
      .filter((command): command is NonNullable<ReturnType<typeof commandWord>> => command !== null);
    if (commands.some((command) => PACKAGE_MANAGERS.has(command.word))) {
      skipped.push(lines.slice(logical.from, logical.to + 1).join('\n'));
      for (const command of commands.filter((entry) => PACKAGE_MANAGERS.has(entry.word))) {
        const [verb, ...names] = command.rest.filter((word) => !word.startsWith('-'));
        if (verb === 'install' || verb === 'add' || verb === '-S')
          for (const name of names) if (/^[a-z0-9][a-z0-9.+:_-]*$/i.test(name)) packages.add(name.replace(/[=:].*$/, ''));
      }
      for (let index = logical.from; index <= logical.to; index += 1)
        lines[index] = index === logical.from ? `: # not run here (installs packages): ${lines[index]!.trim()}` : '';
      continue;
    }
    for (const command of commands) {
      const name = command.word.replace(/^.*\//, '');
      if (TOOLS.has(name) && !command.word.startsWith('./') && !command.word.includes('${')) tools.add(name);
    }
    if (heredoc) inHeredoc = heredoc[1]!;
  }
  const script = lines.join('\n').replace(/\/mnt\/server(?![\w.-])/g, '${SERVER_DIR}');
  return { script, shell, skipped, packages: [...packages].sort(), tools: [...tools].sort() };
}
