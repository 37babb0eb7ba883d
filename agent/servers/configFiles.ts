/**
 * Config-file patches of a template (docs/templates.md#config-files), applied before each start: each named key set to
 * its value (properties, ini, json, yaml, xml, a Source console config) or each text replaced (replace), every other
 * line kept. The files are
 * the game's, in a tree its account writes: they are read and written by a helper running as that account (runAs),
 * so root never opens a path inside it (docs/agent.md).
 */
import { open, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ResolvedTemplate } from '../../schema/template.ts';
import { runAs, type RunAs } from './accounts.ts';

type Patch = ResolvedTemplate['configFiles'][number];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The key of a `key = value` line: the text before the first separator, trimmed, unless the line is blank or starts
 * (after blanks) with a comment character or a separator. Scans the line once: the text is the game account's, so a
 * regular expression that backtracks (quadratic on a long line without a separator) could stall the agent.
 */
function keyOfLine(line: string, comments: string, separators: string): string | undefined {
  let start = 0;
  while (start < line.length && /\s/.test(line[start]!)) start += 1;
  if (start === line.length || comments.includes(line[start]!) || separators.includes(line[start]!)) return undefined;
  let at = start;
  while (at < line.length && !separators.includes(line[at]!)) at += 1;
  if (at === line.length) return undefined;
  return line.slice(start, at).trimEnd();
}

function patchProperties(text: string, set: Record<string, string>): string {
  const pending = new Map(Object.entries(set));
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const out = lines.map((line) => {
    const key = keyOfLine(line, '#!', '=:');
    if (key === undefined || !pending.has(key)) return line;
    const value = pending.get(key)!;
    pending.delete(key);
    return `${key}=${value}`;
  });
  for (const [key, value] of pending) out.push(`${key}=${value}`);
  return `${out.join('\n')}\n`;
}

function patchIni(text: string, set: Record<string, string>): string {
  // `section.key` (the last dot splits: section names may hold dots); a key without a section is before any section.
  const wanted = new Map<string, Map<string, string>>();
  for (const [path, value] of Object.entries(set)) {
    const at = path.lastIndexOf('.');
    const section = at === -1 ? '' : path.slice(0, at);
    const key = at === -1 ? path : path.slice(at + 1);
    if (!wanted.has(section)) wanted.set(section, new Map());
    wanted.get(section)!.set(key, value);
  }
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let section = '';
  const flush = () => {
    const rest = wanted.get(section);
    if (rest) for (const [key, value] of rest) out.push(`${key}=${value}`);
    wanted.delete(section);
  };
  for (const line of lines) {
    const header = /^\s*\[([^\]]*)\]\s*$/.exec(line);
    if (header) {
      // Keys of the section just ended that were not there go at its end (before blank lines that close it).
      const blanks: string[] = [];
      while (out.length > 0 && out.at(-1)!.trim() === '') blanks.unshift(out.pop()!);
      flush();
      out.push(...blanks, line);
      section = header[1]!;
      continue;
    }
    const key = keyOfLine(line, ';#', '=');
    const pending = wanted.get(section);
    if (key !== undefined && pending?.has(key)) {
      out.push(`${key}=${pending.get(key)!}`);
      pending.delete(key);
    } else out.push(line);
  }
  flush();
  for (const [name, keys] of wanted) {
    if (keys.size === 0) continue;
    out.push(`[${name}]`);
    for (const [key, value] of keys) out.push(`${key}=${value}`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * The cvar of a console-config line (`rcon_password "x"`): its first word, unless the line is blank or a `//` comment.
 * Scanned once (the text is the game account's).
 */
function cvarOfLine(line: string): string | undefined {
  let start = 0;
  while (start < line.length && /\s/.test(line[start]!)) start += 1;
  if (start === line.length || line.startsWith('//', start)) return undefined;
  let at = start;
  while (at < line.length && !/[\s";]/.test(line[at]!)) at += 1;
  return at === start ? undefined : line.slice(start, at);
}

/**
 * The parts of a console-config line around its first command: the blanks before it, and everything from the end of
 * the command on (the first `;` or `//` outside quotes, with the blanks before it). Scanned once.
 */
function aroundCommand(line: string): { indent: string; rest: string } {
  let start = 0;
  while (start < line.length && /\s/.test(line[start]!)) start += 1;
  let at = start;
  let quoted = false;
  while (at < line.length) {
    const char = line[at]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ';' || line.startsWith('//', at))) break;
    at += 1;
  }
  let end = at;
  while (end > start && /\s/.test(line[end - 1]!)) end -= 1;
  return { indent: line.slice(0, start), rest: at === line.length ? '' : line.slice(end) };
}

/**
 * A Source engine console config (srcds' `server.cfg`): each cvar's command set to `name "value"` where it is (names
 * compared without case, as the engine does; the rest of its line kept), else added at the end. A value holding `"` is refused: it would end the
 * quoted value and let the rest run as console commands of its own.
 */
function patchCfg(text: string, set: Record<string, string>): string {
  for (const [key, value] of Object.entries(set))
    if (value.includes('"') || /[\r\n]/.test(value))
      throw new Error(
        `the value of ${key} holds a " or a line break, which a console config cannot quote: give it another value (an RCON password: PATCH the server's rconPassword)`,
      );
  const pending = new Map(Object.entries(set).map(([key, value]) => [key.toLowerCase(), { key, value }]));
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const out = lines.map((line) => {
    const cvar = cvarOfLine(line)?.toLowerCase();
    const wanted = cvar === undefined ? undefined : pending.get(cvar);
    if (!wanted) return line;
    pending.delete(cvar!);
    // Only this command changes: what follows it on the line (`; exec other.cfg`, a `// comment`) is kept.
    const { indent, rest } = aroundCommand(line);
    return `${indent}${wanted.key} "${wanted.value}"${rest}`;
  });
  for (const { key, value } of pending.values()) out.push(`${key} "${value}"`);
  return `${out.join('\n')}\n`;
}

/** A JSON value from its text: numbers, booleans and null as such, anything else a string. */
function jsonValue(value: string): unknown {
  if (value === 'true' || value === 'false' || value === 'null' || /^-?\d+(\.\d+)?$/.test(value)) return JSON.parse(value) as unknown;
  return value;
}

/**
 * Path segments that would reach an object's prototype. The agent patches config files in its own (root) process: a
 * `__proto__.X` key must never walk into Object.prototype (every later spawn would inherit X in its environment).
 * The service refuses them too (schema/template.ts); this is the agent's own guard.
 */
export const FORBIDDEN_KEY_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

function patchJson(text: string, set: Record<string, string>): string {
  const parsed = (text.trim() === '' ? {} : JSON.parse(text)) as unknown;
  const root = (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}) as Record<string, unknown>;
  for (const [path, value] of Object.entries(set)) {
    const keys = path.split('.');
    if (keys.some((key) => FORBIDDEN_KEY_SEGMENTS.has(key))) throw new Error(`config key ${JSON.stringify(path)} names an object's prototype`);
    let node = root;
    for (const key of keys.slice(0, -1)) {
      const child = Object.hasOwn(node, key) ? node[key] : undefined;
      if (child === null || typeof child !== 'object') {
        const created: Record<string, unknown> = {};
        Object.defineProperty(node, key, { value: created, enumerable: true, writable: true, configurable: true });
        node = created;
      } else node = child as Record<string, unknown>;
    }
    Object.defineProperty(node, keys.at(-1)!, { value: jsonValue(value), enumerable: true, writable: true, configurable: true });
  }
  return `${JSON.stringify(root, null, 2)}\n`;
}

/** YAML mappings by indentation (block style): `a.b` sets `b:` under `a:`, adding what is missing; other lines kept. */
function patchYaml(text: string, set: Record<string, string>): string {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const scalar = (value: string) => (/^[\w./@-][\w ./@:-]*$/.test(value) && !value.endsWith(' ') && !/: /.test(value) ? value : JSON.stringify(value));
  for (const [path, value] of Object.entries(set)) {
    const keys = path.split('.');
    let from = 0;
    let to = lines.length;
    let indent = -1;
    for (const [depth, key] of keys.entries()) {
      const last = depth === keys.length - 1;
      let found = -1;
      let childIndent = -1;
      for (let i = from; i < to; i += 1) {
        const match = /^(\s*)([^\s#:][^:]*?):(?:\s|$)/.exec(lines[i]!);
        if (!match) continue;
        const width = match[1]!.length;
        if (width <= indent) break;
        if (childIndent === -1) childIndent = width;
        if (width === childIndent && match[2] === key) {
          found = i;
          break;
        }
      }
      const width = childIndent === -1 ? indent + 2 : childIndent;
      const pad = ' '.repeat(Math.max(0, width));
      if (found === -1) {
        let at = from;
        while (at < to && !(lines[at]!.trim() !== '' && /^(\s*)/.exec(lines[at]!)![1]!.length <= indent)) at += 1;
        lines.splice(at, 0, last ? `${pad}${key}: ${scalar(value)}` : `${pad}${key}:`);
        found = at;
      } else if (last) lines[found] = `${pad}${key}: ${scalar(value)}`;
      indent = width;
      from = found + 1;
      let end = from;
      while (end < lines.length && (lines[end]!.trim() === '' || /^(\s*)/.exec(lines[end]!)![1]!.length > width)) end += 1;
      to = end;
    }
  }
  return `${lines.join('\n')}\n`;
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The first opening tag `<name …>` or `<name …/>` at or after `from`, in the shape a RegExpExecArray has here ([0] the
 * tag, [2] '/' when it closes itself, index). Found with indexOf, linearly: the text is the game account's.
 */
function findOpenTag(text: string, name: string, from: number): RegExpExecArray | null {
  const opening = `<${name}`;
  let at = text.indexOf(opening, from);
  while (at !== -1) {
    const next = text[at + opening.length];
    if (next === '>' || next === '/' || (next !== undefined && /\s/.test(next))) {
      const close = text.indexOf('>', at + opening.length);
      if (close === -1) return null;
      const tag = text.slice(at, close + 1);
      // `<name/>` or `<name attr="x"/>`: self-closing; `<name/x>` is not a tag of this name.
      if (next === '/' && close !== at + opening.length + 1) {
        at = text.indexOf(opening, at + 1);
        continue;
      }
      const found = [tag, tag.slice(opening.length, tag.endsWith('/>') ? -2 : -1), tag.endsWith('/>') ? '/' : ''] as unknown as RegExpExecArray;
      found.index = at;
      return found;
    }
    at = text.indexOf(opening, at + 1);
  }
  return null;
}

/** XML: `a/b/c` sets the text of the first such element, `a/b/@name` an attribute of it; a missing path is an error. */
function patchXml(text: string, set: Record<string, string>): string {
  let out = text;
  for (const [path, value] of Object.entries(set)) {
    const parts = path.split('/').filter((part) => part !== '');
    const attribute = parts.at(-1)?.startsWith('@') ? parts.pop()!.slice(1) : undefined;
    let from = 0;
    let end = out.length;
    let openTag: RegExpExecArray | null = null;
    for (const name of parts) {
      openTag = findOpenTag(out, name, from);
      if (!openTag || openTag.index >= end) throw new Error(`${path}: no element ${name}`);
      from = openTag.index + openTag[0].length;
      const close = out.indexOf(`</${name}>`, from);
      end = openTag[2] === '/' ? from : close === -1 ? end : close;
    }
    if (!openTag) throw new Error(`${path}: no element`);
    if (attribute !== undefined) {
      const tag = openTag[0];
      const attr = new RegExp(`(\\s${escapeRegExp(attribute)}\\s*=\\s*)("[^"]*"|'[^']*')`);
      const replaced = attr.test(tag) ? tag.replace(attr, `$1"${escapeXml(value)}"`) : tag.replace(/(\/?>)$/, ` ${attribute}="${escapeXml(value)}"$1`);
      out = out.slice(0, openTag.index) + replaced + out.slice(openTag.index + tag.length);
    } else {
      if (openTag[2] === '/') throw new Error(`${path}: the element is empty (<${parts.at(-1)}/>)`);
      out = out.slice(0, from) + escapeXml(value) + out.slice(end);
    }
  }
  return out;
}

/** The file's new text after the patch (pure: tested on its own). */
export function patchText(patch: Pick<Patch, 'format' | 'set' | 'replace'>, text: string): string {
  const set = patch.set ?? {};
  switch (patch.format) {
    case 'properties':
      return patchProperties(text, set);
    case 'ini':
      return patchIni(text, set);
    case 'json':
      return patchJson(text, set);
    case 'yaml':
      return patchYaml(text, set);
    case 'xml':
      return patchXml(text, set);
    case 'cfg':
      return patchCfg(text, set);
    case 'replace':
      return (patch.replace ?? []).reduce((current, entry) => current.split(entry.find).join(entry.replace), text);
  }
}

/**
 * Applies the patches in `serverDir`, reading and writing as `who` (the server's account; undefined: the agent's own
 * user, when it is not root). `stagingDir` is the agent's own (the new text waits there to be piped in).
 */
export async function applyConfigFiles(serverDir: string, patches: readonly Patch[], who: RunAs | undefined, stagingDir: string): Promise<void> {
  for (const patch of patches) {
    const read = await runAs(who, 'sh', ['-c', 'if [ -e "$1" ]; then cat -- "$1"; fi', 'sh', patch.path], { cwd: serverDir, output: true, timeoutMs: 30_000 });
    if (read.error || read.code !== 0) throw new Error(`config file ${patch.path}: cannot read it (${read.stderr.split('\n')[0] || read.error?.message})`);
    let next: string;
    try {
      next = patchText(patch, read.stdout);
    } catch (error) {
      throw new Error(`config file ${patch.path}: ${(error as Error).message}`, { cause: error });
    }
    if (next === read.stdout) continue;
    const staged = join(stagingDir, `config-${randomBytes(6).toString('hex')}`);
    await writeFile(staged, next, { mode: 0o600 });
    const input = await open(staged, 'r');
    try {
      const write = await runAs(who, 'sh', ['-c', 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1.gsm-new" && mv -f -- "$1.gsm-new" "$1"', 'sh', patch.path], {
        cwd: serverDir,
        stdin: input.fd,
        timeoutMs: 30_000,
      });
      if (write.error || write.code !== 0)
        throw new Error(`config file ${patch.path}: cannot write it (${write.stderr.split('\n')[0] || write.error?.message})`);
    } finally {
      await input.close();
      await rm(staged, { force: true });
    }
  }
}
