/**
 * A Pterodactyl or Pelican egg as a template (docs/templates.md#importing-eggs): a pure function of the egg's text,
 * answering the template and, in words, everything it could not carry over. Nothing is dropped in silence.
 *
 * | Egg                                   | Template                                                                      |
 * | ------------------------------------- | ----------------------------------------------------------------------------- |
 * | `startup` (`{{VAR}}`)                 | `start.command` with the variables; egg built-ins as ours (SERVER_PORT → GAME_PORT, SERVER_MEMORY → MEMORY_MB) |
 * | `config.startup.done`                 | `ready` LINE: the texts (found anywhere in a line) or `regex:` patterns; none: IMMEDIATE |
 * | `config.stop`                         | COMMAND on standard input, or `^C` (SIGINT), `^SIGTERM`, …: SIGNAL                           |
 * | `config.files`                        | `configFiles` (properties, ini, json, yaml, xml) with `{{server.build.…}}` as placeholders |
 * | `variables` (Laravel rules)           | `variables` with validation (./eggRules.ts); also the process's environment, as in eggs |
 * | `file_denylist`                       | `files.deny`                                                                  |
 * | `features: [eula]`                    | `eula.txt` written with `{{ACCEPT_EULA}}`                                      |
 * | `scripts.installation`                | one `script` step, run as the server's account with /mnt/server as its directory (./eggScript.ts) |
 */
import {
  BUILT_IN_PLACEHOLDERS,
  PLACEHOLDER,
  placeholdersIn,
  templateDocument,
  VARIABLE_NAME_PATTERN,
  type ConfigFile,
  type TemplateDocument,
  type TemplateInput,
} from '../../schema/template.ts';
import { linearPatternProblem } from '../../schema/linearRegExp.ts';
import type { StopSpec } from '../../schema/serverBehaviour.ts';
import { EggFormatError, normaliseEgg, readEggText, type Egg, type EggFormat } from './eggs.ts';
import { mapRules, pcreToJs } from './eggRules.ts';
import { adaptInstallScript } from './eggScript.ts';

export type EggImport = {
  format: EggFormat;
  template: TemplateDocument;
  /** What could not be mapped, or was mapped with a difference the operator should know, in words. */
  unmapped: string[];
  /** Programs the installation script runs, which the machine must have. */
  tools: string[];
  /** Lines of the installation script that are not run (they install packages as root). */
  skippedLines: string[];
};

export type EggImportOptions = { id?: string; source?: string };

/** Egg built-ins (Wings' environment) and where their values come from here. */
const EGG_BUILT_INS: Record<string, string> = {
  SERVER_MEMORY: 'MEMORY_MB',
  SERVER_PORT: 'GAME_PORT',
  P_SERVER_UUID: 'SERVER_ID',
};
/** Egg built-ins with no value of ours: the address is the machine's every address. */
const ANY_ADDRESS = '0.0.0.0';
const ADDRESS_BUILT_INS = new Set(['SERVER_IP']);

/** Variables whose values look like credentials: stored as secrets (never answered by the API once set). */
const SECRET_NAME = /PASSWORD|PASSWD|PASSPHRASE|TOKEN|SECRET|API_?KEY|LICEN[CS]E_?KEY|(^|_)KEY$/;

/** Text as one line: control characters become spaces. */
const oneLine = (text: string) =>
  [...text]
    .map((character) => (character < ' ' || character === '\u007f' ? ' ' : character))
    .join('')
    .trim();

/** Escapes text for a regular expression. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A slug for an id from the egg's name. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'imported-egg' : slug;
}

/** The egg's text (JSON or YAML) as a template; EggFormatError when it is not an egg this import knows. */
export function importEggText(text: string, options: EggImportOptions = {}): EggImport {
  return importEgg(normaliseEgg(readEggText(text)), options);
}

export function importEgg(egg: Egg, options: EggImportOptions = {}): EggImport {
  const unmapped: string[] = [...egg.notes];

  // ---- variables: names as ours; a name that is one of our built-ins uses the built-in.
  /** Egg variable (environment) name → our placeholder name. */
  const placeholderOf = new Map<string, string>();
  const variables: NonNullable<TemplateInput['variables']> = [];
  for (const variable of egg.variables) {
    const upper = variable.env.toUpperCase();
    if ((BUILT_IN_PLACEHOLDERS as readonly string[]).includes(upper)) {
      placeholderOf.set(variable.env, upper);
      unmapped.push(
        `variable ${variable.env} (${variable.name}): the server's own ${upper} is used instead (its default ${JSON.stringify(variable.default)} and rules are not kept)`,
      );
      continue;
    }
    if (!VARIABLE_NAME_PATTERN.test(upper)) {
      unmapped.push(`variable ${variable.env} (${variable.name}): its name cannot be a template variable (upper case letters, digits, _)`);
      continue;
    }
    if (upper !== variable.env) unmapped.push(`variable ${variable.env}: written {{${upper}}} in the template (its environment name stays ${variable.env})`);
    placeholderOf.set(variable.env, upper);
    const rules = mapRules(variable.rules);
    for (const problem of rules.unmapped) unmapped.push(`variable ${variable.env}, rule ${problem}`);
    const validation: NonNullable<TemplateInput['variables']>[number]['validation'] =
      rules.type === 'boolean'
        ? // Laravel's boolean takes 0 and 1 as well, and egg scripts compare with them.
          { type: 'string', required: rules.required, enum: ['0', '1', 'true', 'false'] }
        : {
            type: rules.type,
            required: rules.required,
            ...(rules.enum && { enum: rules.enum }),
            ...(rules.min !== undefined && { min: rules.min }),
            ...(rules.max !== undefined && { max: rules.max }),
            ...(rules.minLength !== undefined && { minLength: rules.minLength }),
            ...(rules.maxLength !== undefined && { maxLength: rules.maxLength }),
            ...(rules.pattern !== undefined && { regex: rules.pattern }),
          };
    let value = variable.default;
    if (/[\r\n]/.test(value)) {
      unmapped.push(`variable ${variable.env}: its default has line breaks, which a template variable cannot hold (made one line)`);
      value = value.replace(/[\r\n]+/g, ' ');
    }
    const secret = SECRET_NAME.test(upper);
    if (secret) unmapped.push(`variable ${variable.env}: kept as a secret (the API never answers its value once set)`);
    variables.push({
      name: upper,
      label: oneLine(variable.name).slice(0, 100),
      description: variable.description.slice(0, 2000),
      default: value.slice(0, 4096),
      validation,
      userViewable: variable.viewable,
      userEditable: variable.editable,
      secret,
    });
  }
  // A default the rules refuse (the panel never checked it) is kept, without the rule that refuses it.
  for (const variable of variables) {
    const check = templateDocument.safeParse(minimalWith([variable]));
    if (!check.success) {
      unmapped.push(`variable ${variable.name}: its default ${JSON.stringify(variable.default)} breaks its own rules; the rules are not kept`);
      variable.validation = { type: 'string', required: variable.validation?.required };
    }
  }

  /** `{{X}}` of the egg (a variable or an egg built-in) as ours; `undefined` when it has none. */
  const mapPlaceholder = (name: string): string | undefined => {
    if (placeholderOf.has(name)) return `{{${placeholderOf.get(name)!}}}`;
    if (EGG_BUILT_INS[name]) return `{{${EGG_BUILT_INS[name]}}}`;
    if (ADDRESS_BUILT_INS.has(name)) return ANY_ADDRESS;
    return undefined;
  };

  // ---- start
  const [first, ...others] = egg.startup;
  for (const other of others) unmapped.push(`startup command "${other.label}": only the first (${first!.label}) is used: ${other.command}`);
  const env: Record<string, string> = { SERVER_MEMORY: '{{MEMORY_MB}}', SERVER_PORT: '{{GAME_PORT}}', SERVER_IP: ANY_ADDRESS, P_SERVER_UUID: '{{SERVER_ID}}' };
  for (const [eggName, ours] of placeholderOf) env[eggName] = `{{${ours}}}`;
  let command = first!.command.replace(/\s*\r?\n\s*/g, ' ');
  const usedUnknown = new Set<string>();
  const shellSyntax = /&&|\|\||[;|<>`]|\$\(|\$\{|\bif\b|\bthen\b/.test(command);
  if (shellSyntax) {
    // The egg's command is shell: run it with bash, values in its environment (never pasted into the shell's text).
    const script = command.replace(PLACEHOLDER, (whole, name: string) => {
      if (placeholderOf.has(name) || EGG_BUILT_INS[name] || ADDRESS_BUILT_INS.has(name)) return `\${${name}}`;
      usedUnknown.add(name);
      return whole;
    });
    command = `bash -c '${script.replace(/'/g, `'\\''`)}'`;
    unmapped.push('the startup command is shell (operators, substitutions or conditions): it runs with bash -c, its values taken from the environment');
  } else
    command = command.replace(PLACEHOLDER, (whole, name: string) => {
      const mapped = mapPlaceholder(name);
      if (mapped === undefined) usedUnknown.add(name);
      return mapped ?? whole;
    });
  if ([...command.matchAll(PLACEHOLDER)].some((match) => ADDRESS_BUILT_INS.has(match[1]!)) || /\{\{SERVER_IP\}\}/.test(first!.command))
    unmapped.push(`{{SERVER_IP}}: the server listens on every address (${ANY_ADDRESS})`);
  for (const name of usedUnknown) {
    unmapped.push(`startup placeholder {{${name}}}: no variable or value of that name; removed from the command`);
    command = command.replaceAll(`{{${name}}}`, '');
  }
  // A secret may not be on a command line (the machine's other accounts read it): one the game takes there stays plain.
  const onCommandLine = new Set(placeholdersIn(command));
  for (const variable of variables)
    if (variable.secret && onCommandLine.has(variable.name)) {
      variable.secret = false;
      unmapped.push(
        `variable ${variable.name}: after all not a secret: the startup command passes it as an argument (readable by the machine's other accounts); members who may read variables see it`,
      );
    }

  // ---- ready
  let ready: TemplateInput['ready'] = { mode: 'IMMEDIATE' };
  const alternatives: string[] = [];
  for (const done of egg.done) {
    if (done.startsWith('regex:')) {
      const converted = pcreToJs(`/${done.slice('regex:'.length)}/`);
      if ('problem' in converted) unmapped.push(`ready pattern ${done}: ${converted.problem}; not used`);
      else alternatives.push(`(?:${converted.pattern})`);
    } else {
      const pattern = escapeRegExp(done).replace(/\\\{\\\{[A-Za-z0-9_]+\\\}\\\}|\{\{[A-Za-z0-9_]+\}\}/g, '.*');
      if (pattern.includes('.*')) unmapped.push(`ready text "${done}": its {{…}} parts match any text`);
      alternatives.push(pattern);
    }
  }
  if (alternatives.length > 0) {
    const pattern = alternatives.join('|');
    const problem = linearPatternProblem(pattern);
    if (problem || pattern.length > 1024) unmapped.push(`ready texts: together they cannot be one pattern (${problem ?? 'too long'}); ready at once instead`);
    else ready = { mode: 'LINE', pattern, timeoutSeconds: 600 };
  } else unmapped.push('config.startup.done is empty: the server counts as ready as soon as it runs');

  // ---- stop
  let stop: TemplateInput['stop'] = { mode: 'SIGNAL', signal: 'SIGTERM', graceSeconds: 30 };
  if (egg.stop === null) unmapped.push('config.stop is empty: the server is stopped with SIGTERM');
  else if (egg.stop.startsWith('^')) {
    const signal = egg.stop.slice(1).toUpperCase();
    const named: Record<string, StopSpec['signal']> = { C: 'SIGINT', SIGINT: 'SIGINT', SIGTERM: 'SIGTERM' };
    if (named[signal]) stop = { mode: 'SIGNAL', signal: named[signal], graceSeconds: 30 };
    else unmapped.push(`config.stop ${egg.stop}: Wings kills the process at once (SIGKILL or SIGABRT); here it gets SIGTERM and 30 s first`);
  } else if (/[\r\n]/.test(egg.stop) || egg.stop.length > 256) unmapped.push(`config.stop: not one short console line; the server is stopped with SIGTERM`);
  else stop = { mode: 'COMMAND', command: egg.stop.replace(PLACEHOLDER, (whole, name: string) => mapPlaceholder(name) ?? whole), graceSeconds: 60 };

  // ---- config files
  const configFiles: ConfigFile[] = [];
  const configValue = (text: string, where: string): string | undefined => {
    let failed = false;
    const value = text.replace(/\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g, (whole, path: string) => {
      const lower = path.toLowerCase();
      if (['server.build.default.port', 'server.allocations.default.port'].includes(lower)) return '{{GAME_PORT}}';
      if (lower === 'server.build.memory') return '{{MEMORY_MB}}';
      if (['server.build.default.ip', 'server.allocations.default.ip', 'config.docker.interface'].includes(lower)) return ANY_ADDRESS;
      if (lower === 'server.uuid') return '{{SERVER_ID}}';
      const env = /^(?:server\.build\.env|server\.environment|env)\.(.+)$/i.exec(path)?.[1];
      const mapped = env === undefined ? mapPlaceholder(path) : mapPlaceholder(env);
      if (mapped !== undefined) return mapped;
      failed = true;
      unmapped.push(`config.files ${where}: no value for {{${path}}}; not set`);
      return whole;
    });
    return failed ? undefined : value;
  };
  for (const file of egg.files) {
    if (file.path.startsWith('/') || file.path.split('/').includes('..')) {
      unmapped.push(`config.files ${file.path}: outside the server directory; not patched`);
      continue;
    }
    const format = ({ properties: 'properties', ini: 'ini', json: 'json', yaml: 'yaml', yml: 'yaml', xml: 'xml' } as const)[file.parser];
    if (!format) {
      unmapped.push(
        file.parser === 'file'
          ? `config.files ${file.path} (parser file): Wings replaces each whole line starting with the text; not patched (${Object.keys(file.find).join(', ')})`
          : `config.files ${file.path}: no parser ${file.parser} here; not patched`,
      );
      continue;
    }
    const set: Record<string, string> = {};
    for (const [key, raw] of Object.entries(file.find)) {
      const where = `${file.path} ${key}`;
      if (key.includes('*') || key.includes('[')) {
        unmapped.push(`config.files ${where}: wildcards and list indexes are not patched`);
        continue;
      }
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
        unmapped.push(`config.files ${where}: a value that depends on the old value (match/replace_with) is not patched`);
        continue;
      }
      const value = configValue(String(raw), where);
      if (value === undefined) continue;
      set[format === 'xml' ? key.replaceAll('.', '/') : key] = value;
    }
    if (Object.keys(set).length > 0) configFiles.push({ path: file.path, format, set });
  }
  for (const feature of egg.features) {
    if (feature === 'eula') configFiles.push({ path: 'eula.txt', format: 'properties', set: { eula: '{{ACCEPT_EULA}}' } });
    else unmapped.push(`feature ${feature}: the panel's prompt for it has no equivalent here`);
  }

  // ---- install
  let install: TemplateInput['install'];
  let tools: string[] = [];
  let skippedLines: string[] = [];
  if (egg.install) {
    const adapted = adaptInstallScript(egg.install.script, egg.install.entrypoint);
    tools = adapted.tools;
    skippedLines = adapted.skipped;
    if (adapted.skipped.length > 0)
      unmapped.push(
        `installation script: ${adapted.skipped.length} line(s) installing packages are not run${adapted.packages.length ? ` (the machine needs: ${adapted.packages.join(', ')})` : ''}`,
      );
    if (egg.install.container) unmapped.push(`installation container ${egg.install.container}: the script runs on the machine itself, as the server's account`);
    const scriptEnv: Record<string, string> = { ...env, SERVER_DIR: '{{SERVER_DIR}}', HOME: '{{SERVER_DIR}}' };
    install = {
      steps: [{ type: 'script', shell: adapted.shell, script: adapted.script, timeoutSeconds: 3600, env: scriptEnv }],
      tools: tools.filter((tool) => tool !== 'sh'),
    };
  }
  if (egg.images.length > 0) unmapped.push(`container images (${egg.images.join(', ')}): the server runs on the machine itself, with the machine's programs`);
  unmapped.push('players: eggs do not describe join and leave lines or player commands; add players and console.commands to list them');

  const id = options.id ?? slugOf(egg.name);
  const document: TemplateInput = {
    id,
    name: oneLine(egg.name).slice(0, 100),
    version: 1,
    description: egg.description.slice(0, 4000) || undefined,
    gameType: 'CUSTOM',
    tags: [...new Set(['egg', ...egg.tags.map(slugOf).map((tag) => tag.slice(0, 32).replace(/-+$/, ''))])].slice(0, 16),
    platforms: ['linux'],
    variables,
    start: { command, env },
    ready,
    stop,
    console: { mode: 'STDIN', commands: {} },
    ...(install && { install }),
    configFiles,
    files: { deny: egg.denylist.slice(0, 256), wipe: [], backupSkip: [], adminOnly: [] },
    ports: [{ name: 'game', protocol: 'tcp+udp', description: 'The egg’s primary allocation (SERVER_PORT).' }],
    sources: [
      {
        fact: 'egg',
        ...(options.source && /^https?:\/\//.test(options.source)
          ? { url: options.source }
          : egg.updateUrl && /^https?:\/\//.test(egg.updateUrl)
            ? { url: egg.updateUrl }
            : {}),
        note: `Imported from a ${egg.format} egg${egg.author ? ` by ${egg.author}` : ''}`.slice(0, 500),
      },
    ],
  };
  const parsed = templateDocument.safeParse(document);
  if (!parsed.success)
    throw new EggFormatError(
      parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'template', message: `${issue.message} (in the mapped template)` })),
    );
  return { format: egg.format, template: parsed.data, unmapped, tools, skippedLines };
}

/** The smallest template holding these variables: checks a variable's default against its own rules. */
function minimalWith(variables: NonNullable<TemplateInput['variables']>): TemplateInput {
  return {
    id: 'check',
    name: 'check',
    variables,
    start: { command: 'true' },
    ready: { mode: 'IMMEDIATE' },
    stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
    console: { mode: 'NONE' },
    ports: [{ name: 'game', protocol: 'tcp' }],
  };
}

/** Where an import's egg comes from: its text, or a URL read under the webhooks' SSRF rules. */
export type EggSource = { text: string; url?: undefined } | { url: string; text?: undefined };
