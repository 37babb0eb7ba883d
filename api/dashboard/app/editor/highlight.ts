/**
 * A small syntax highlighter for the config files servers have (properties, ini/cfg/conf/toml, JSON, YAML), part of
 * the editor's chunk: loaded only when the editor page opens (docs/dashboard.md). It splits each line into tokens;
 * the editor draws them as text in spans (escaped by Preact, never as HTML).
 */
export type TokenKind = 'comment' | 'key' | 'string' | 'number' | 'keyword' | 'section' | 'punct';
export type Token = { text: string; kind?: TokenKind };
export type Language = 'properties' | 'ini' | 'json' | 'yaml' | 'plain';

const BY_EXTENSION: Record<string, Language> = {
  properties: 'properties',
  env: 'properties',
  ini: 'ini',
  cfg: 'ini',
  conf: 'ini',
  toml: 'ini',
  json: 'json',
  json5: 'json',
  mcmeta: 'json',
  yml: 'yaml',
  yaml: 'yaml',
};

/** The language of a file by its name (`server.properties` → properties); `plain` when not one of these. */
export function languageOf(name: string): Language {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'plain';
}

const NUMBER = /^-?(?:0x[0-9a-f]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/i;
const KEYWORD = /^(?:true|false|yes|no|on|off|null|none|~)$/i;

/** A value's token: a number, a keyword (true, false, null…), a quoted string, or plain text. */
function value(text: string): Token[] {
  const trimmed = text.trim();
  if (trimmed === '') return text ? [{ text }] : [];
  const lead = text.slice(0, text.indexOf(trimmed));
  const tail = text.slice(lead.length + trimmed.length);
  const kind: TokenKind | undefined = NUMBER.test(trimmed) ? 'number' : KEYWORD.test(trimmed) ? 'keyword' : /^(["']).*\1$/.test(trimmed) ? 'string' : undefined;
  const tokens: Token[] = lead ? [{ text: lead }] : [];
  tokens.push(kind ? { text: trimmed, kind } : { text: trimmed });
  if (tail) tokens.push({ text: tail });
  return tokens;
}

function keyValueLine(line: string, comments: RegExp, separators: RegExp, sections: boolean): Token[] {
  if (comments.test(line)) return [{ text: line, kind: 'comment' }];
  if (sections && /^\s*\[.*\]\s*$/.test(line)) return [{ text: line, kind: 'section' }];
  const separator = separators.exec(line);
  if (!separator) return line ? [{ text: line }] : [];
  const key = line.slice(0, separator.index);
  return [{ text: key, kind: 'key' }, { text: separator[0], kind: 'punct' }, ...value(line.slice(separator.index + separator[0].length))];
}

const JSON_TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],:])/g;

function jsonLine(line: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  for (const match of line.matchAll(JSON_TOKEN)) {
    if (match.index > at) tokens.push({ text: line.slice(at, match.index) });
    if (match[1] !== undefined) {
      tokens.push({ text: match[1], kind: match[2] ? 'key' : 'string' });
      if (match[2]) tokens.push({ text: match[2], kind: 'punct' });
    } else if (match[3] !== undefined) tokens.push({ text: match[3], kind: 'number' });
    else if (match[4] !== undefined) tokens.push({ text: match[4], kind: 'keyword' });
    else tokens.push({ text: match[0], kind: 'punct' });
    at = match.index + match[0].length;
  }
  if (at < line.length) tokens.push({ text: line.slice(at) });
  return tokens;
}

function yamlLine(line: string): Token[] {
  if (/^\s*#/.test(line)) return [{ text: line, kind: 'comment' }];
  if (/^(---|\.\.\.)\s*$/.test(line)) return [{ text: line, kind: 'punct' }];
  const item = /^(\s*-\s+)/.exec(line);
  const lead = item ? [{ text: item[1]!, kind: 'punct' as const }] : [];
  const rest = item ? line.slice(item[1]!.length) : line;
  // A comment after a value: ` # …` (a # inside a word or a quoted string is not one).
  const comment = /\s+#.*$/.exec(rest);
  const body = comment && !/["']/.test(rest.slice(0, comment.index)) ? rest.slice(0, comment.index) : rest;
  const trailing = body === rest ? [] : [{ text: rest.slice(body.length), kind: 'comment' as const }];
  const key = /^(\s*)([^\s:#][^:#]*?|"[^"]*"|'[^']*')(:)(\s|$)/.exec(body);
  if (!key) return [...lead, ...value(body), ...trailing];
  return [
    ...lead,
    ...(key[1] ? [{ text: key[1] }] : []),
    { text: key[2]!, kind: 'key' as const },
    { text: key[3]!, kind: 'punct' as const },
    ...value(body.slice(key[1]!.length + key[2]!.length + 1)),
    ...trailing,
  ];
}

/** The tokens of each line of `text` (lines split at \n; a \r stays in its line's last token). */
export function highlight(text: string, language: Language): Token[][] {
  const lines = text.split('\n');
  switch (language) {
    case 'properties':
      return lines.map((line) => keyValueLine(line, /^\s*[#!]/, /(?<=\S)\s*[=:]\s*|(?<=\S)\s+/, false));
    case 'ini':
      return lines.map((line) => keyValueLine(line, /^\s*[#;]/, /\s*[=:]\s*/, true));
    case 'json':
      return lines.map(jsonLine);
    case 'yaml':
      return lines.map(yamlLine);
    default:
      return lines.map((line) => (line ? [{ text: line }] : []));
  }
}
