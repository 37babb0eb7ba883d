/**
 * Reading Pterodactyl (PTDL_v1, PTDL_v2) and Pelican (PLCN_v1 to PLCN_v3) eggs into one shape, with no I/O: the
 * import (./eggImport.ts) maps that shape onto a template (docs/templates.md#importing-eggs).
 *
 * The formats differ in their details, and this file irons them out:
 * - Pterodactyl's eggs are JSON; Pelican exports YAML (or JSON). JSON is read first (`\/` is valid JSON, not YAML).
 * - PTDL_v1 names one `image` (or an `images` list); later formats a `docker_images` map of label to image.
 * - Pterodactyl has one `startup` string; Pelican an ordered `startup_commands` map (the first is the default).
 * - `config.files`, `config.startup` and `config.logs` are JSON text in Pterodactyl's exports, objects in Pelican's.
 * - `config.startup.done` is one string or a list; each is found anywhere in a line, or is a regular expression when it
 *   starts with `regex:` (as Wings reads it).
 * - A variable's `rules` is a `|`-separated string (a `|` inside `regex:` belongs to the pattern) or a list;
 *   `user_viewable` and `user_editable` are booleans, or 0 and 1.
 */
import { parse as parseYaml } from 'yaml';

export const EGG_FORMATS = ['PTDL_v1', 'PTDL_v2', 'PLCN_v1', 'PLCN_v2', 'PLCN_v3'] as const;
export type EggFormat = (typeof EGG_FORMATS)[number];

export type EggVariable = {
  name: string;
  description: string;
  env: string;
  default: string;
  viewable: boolean;
  editable: boolean;
  rules: string[];
};

export type EggConfigFile = { path: string; parser: string; find: Record<string, unknown> };

export type Egg = {
  format: EggFormat;
  name: string;
  author: string | null;
  description: string;
  tags: string[];
  features: string[];
  images: string[];
  /** Startup commands in the egg's order; the first is the default. */
  startup: { label: string; command: string }[];
  /** Ready texts (`regex:` kept as written). */
  done: string[];
  stop: string | null;
  files: EggConfigFile[];
  variables: EggVariable[];
  denylist: string[];
  install: { script: string; container: string | null; entrypoint: string } | null;
  updateUrl: string | null;
  /** What the egg says that this shape has no place for (an inherited config, a copied script), in words. */
  notes: string[];
};

/** A document that is not an egg this import knows, with every reason found. */
export class EggFormatError extends Error {
  override name = 'EggFormatError';
  readonly problems: { field: string; message: string }[];
  constructor(problems: { field: string; message: string }[]) {
    super(problems.map((problem) => `${problem.field}: ${problem.message}`).join('; '));
    this.problems = problems;
  }
}

/** The largest egg text read (the biggest public eggs are about 60 KB, most of it the install script). */
export const MAX_EGG_BYTES = 512 * 1024;

/** The egg's text as a document: JSON, else YAML (one document, no custom tags, aliases bounded). */
export function readEggText(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_EGG_BYTES) throw new EggFormatError([{ field: 'text', message: `must be at most ${MAX_EGG_BYTES / 1024} KiB` }]);
  const trimmed = text.trim();
  if (trimmed === '') throw new EggFormatError([{ field: 'text', message: 'is empty' }]);
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch (error) {
      throw new EggFormatError([{ field: 'text', message: `is not valid JSON: ${(error as Error).message}` }]);
    }
  }
  try {
    // maxAliasCount bounds "billion laughs" documents; unknown tags are errors rather than strings.
    return parseYaml(trimmed, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: false, strict: true }) as unknown;
  } catch (error) {
    throw new EggFormatError([{ field: 'text', message: `is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}` }]);
  }
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
const flag = (value: unknown, otherwise: boolean): boolean =>
  value === true || value === 1 || value === '1' ? true : value === false || value === 0 || value === '0' ? false : otherwise;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(text).filter((entry): entry is string => entry !== null) : []);

/** A config section that Pterodactyl stores as JSON text and Pelican as an object; null when absent or empty. */
function jsonSection(value: unknown, field: string, problems: { field: string; message: string }[]): Loose | null {
  if (value === null || value === undefined || value === '') return null;
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (parsed === null || (Array.isArray(parsed) && parsed.length === 0)) return null;
      if (isObject(parsed)) return parsed;
    } catch {
      problems.push({ field, message: 'is neither an object nor JSON text of one' });
      return null;
    }
  }
  if (Array.isArray(value) && value.length === 0) return null;
  problems.push({ field, message: 'must be an object (or, in Pterodactyl eggs, JSON text of one)' });
  return null;
}

/**
 * Laravel rules as a list: `required|string|regex:/^(a|b)$/|max:20` is four rules, the pipe inside the regular
 * expression kept (a `regex:` rule runs to its closing delimiter and flags).
 */
export function splitRules(rules: unknown): string[] {
  if (Array.isArray(rules))
    return strings(rules)
      .map((rule) => rule.trim())
      .filter((rule) => rule !== '');
  const source = text(rules) ?? '';
  const out: string[] = [];
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const regex = /^(?:not_)?regex:(.)/.exec(rest);
    if (regex) {
      const delimiter = regex[1]!;
      const close = { '(': ')', '[': ']', '{': '}', '<': '>' }[delimiter] ?? delimiter;
      let end = regex[0].length;
      while (end < rest.length && rest[end] !== close) end += rest[end] === '\\' ? 2 : 1;
      end += 1;
      while (end < rest.length && /[a-zA-Z]/.test(rest[end]!)) end += 1;
      out.push(rest.slice(0, end).trim());
      index += end;
      if (source[index] === '|') index += 1;
      continue;
    }
    const pipe = rest.indexOf('|');
    out.push((pipe === -1 ? rest : rest.slice(0, pipe)).trim());
    index += pipe === -1 ? rest.length : pipe + 1;
  }
  return out.filter((rule) => rule !== '');
}

/** The egg read from a document, or EggFormatError naming everything wrong with it. */
export function normaliseEgg(document: unknown): Egg {
  const problems: { field: string; message: string }[] = [];
  if (!isObject(document)) throw new EggFormatError([{ field: 'text', message: 'must be an egg: a JSON or YAML object' }]);
  const meta = isObject(document.meta) ? document.meta : {};
  const format = text(meta.version);
  if (!format || !(EGG_FORMATS as readonly string[]).includes(format))
    throw new EggFormatError([
      { field: 'meta.version', message: `must be one of ${EGG_FORMATS.join(', ')}${format ? ` (this document says ${format})` : ' (this document has none)'}` },
    ]);
  const name = text(document.name)?.trim() ?? '';
  if (name === '') problems.push({ field: 'name', message: 'is required' });

  const images: string[] = [];
  if (text(document.image)) images.push(text(document.image)!);
  images.push(...strings(document.images));
  if (isObject(document.docker_images))
    images.push(
      ...Object.values(document.docker_images)
        .map(text)
        .filter((entry): entry is string => entry !== null),
    );

  const startup: Egg['startup'] = [];
  if (isObject(document.startup_commands))
    for (const [label, command] of Object.entries(document.startup_commands))
      if (text(command)?.trim()) startup.push({ label, command: text(command)!.trim() });
  if (text(document.startup)?.trim()) startup.push({ label: 'Default', command: text(document.startup)!.trim() });
  if (startup.length === 0) problems.push({ field: 'startup', message: 'is required (a startup command, or startup_commands)' });

  const config = isObject(document.config) ? document.config : {};
  const notes: string[] = [];
  const startupConfig = jsonSection(config.startup, 'config.startup', problems);
  const done = startupConfig ? (typeof startupConfig.done === 'string' ? [startupConfig.done] : strings(startupConfig.done)).filter((line) => line !== '') : [];
  if (startupConfig?.userInteraction && strings(startupConfig.userInteraction).length > 0)
    notes.push(`config.startup.userInteraction (${strings(startupConfig.userInteraction).join(', ')}): prompts are not answered automatically`);
  const stop = text(config.stop)?.trim() || null;
  const filesConfig = jsonSection(config.files, 'config.files', problems);
  const files: EggConfigFile[] = [];
  for (const [path, spec] of Object.entries(filesConfig ?? {})) {
    if (!isObject(spec)) {
      problems.push({ field: `config.files.${path}`, message: 'must be an object with parser and find' });
      continue;
    }
    files.push({ path, parser: text(spec.parser) ?? 'file', find: isObject(spec.find) ? spec.find : {} });
  }
  const logs = jsonSection(config.logs, 'config.logs', problems);
  if (logs && Object.keys(logs).length > 0) notes.push('config.logs: the agent keeps its own console log of each server');
  if (text(config.extends)) notes.push(`config.extends (${text(config.extends)}): the configuration of another egg is not inherited; only this egg's own`);

  const variables: EggVariable[] = [];
  (Array.isArray(document.variables) ? document.variables : []).forEach((entry, index) => {
    if (!isObject(entry)) return problems.push({ field: `variables[${index}]`, message: 'must be an object' });
    const env = text(entry.env_variable)?.trim() ?? '';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env))
      return problems.push({ field: `variables[${index}].env_variable`, message: 'must be a name of letters, digits and underscores' });
    variables.push({
      name: text(entry.name)?.trim() || env,
      description: text(entry.description) ?? '',
      env,
      default: text(entry.default_value) ?? '',
      viewable: flag(entry.user_viewable, true),
      editable: flag(entry.user_editable, true),
      rules: splitRules(entry.rules),
    });
  });

  const scripts = isObject(document.scripts) ? document.scripts : {};
  const installation = isObject(scripts.installation) ? scripts.installation : null;
  const script = installation ? (text(installation.script) ?? '') : '';
  const install =
    script.trim() === ''
      ? null
      : {
          script: script.replace(/\r\n?/g, '\n'),
          container: text(installation!.container),
          entrypoint: text(installation!.entrypoint)?.trim() || 'bash',
        };
  if (text(document.copy_script_from) || text(scripts.copy_script_from)) notes.push('copy_script_from: the installation script of another egg is not copied');

  if (problems.length > 0) throw new EggFormatError(problems);
  return {
    format: format as EggFormat,
    name,
    author: text(document.author),
    description: text(document.description) ?? '',
    tags: strings(document.tags),
    features: strings(document.features),
    images,
    startup,
    done,
    stop,
    files,
    variables,
    denylist: strings(document.file_denylist),
    install,
    updateUrl: text(document.update_url) ?? text(meta.update_url),
    notes,
  };
}
