/**
 * A game template (docs/templates.md): one game described as data — its variables, start command, ready signal, stop,
 * console and player commands, join/leave lines, install and update steps, config-file patches, file rules, ports,
 * query protocol and where each fact came from. The built-in catalogue (orchestrator/templates/catalogue/*.json), cluster templates and
 * imported eggs all validate against `templateDocument`; the service resolves one into the spec the agent runs.
 *
 * Compatibility: documents stored today must keep validating; this schema only ever gains optional fields.
 */
import { z } from 'zod';
import { GAME_TYPES } from './games.ts';
import { linearPatternProblem, linearRegExp } from './linearRegExp.ts';
import { isStorableText } from './storable.ts';
import { STOP_SIGNALS } from './serverBehaviour.ts';
import { splitCommandLine } from './commandLine.ts';

/** A template's id: a slug, also its file name in orchestrator/templates/catalogue/ (`minecraft-vanilla`). */
export const TEMPLATE_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** A variable's name, as written in `{{NAME}}`: upper case, digits and underscores. */
export const VARIABLE_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
/** A port's name (`game`, `query`, `rcon`, `raw-udp`): also `{{PORT_<NAME>}}` with `-` as `_`, upper case. */
export const PORT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
/** `{{NAME}}` in a command line, URL, config value or command template. */
export const PLACEHOLDER = /\{\{([A-Za-z0-9_]+)\}\}/g;

/** Built-in placeholders the service fills in at each start (docs/templates.md#placeholders). */
export const BUILT_IN_PLACEHOLDERS = [
  'SERVER_ID',
  'SERVER_NAME',
  'SERVER_DIR',
  'GAME_PORT',
  'QUERY_PORT',
  'RCON_PORT',
  'RCON_PASSWORD',
  'MAX_PLAYERS',
  'MEMORY_MB',
  'VERSION',
  'ACCEPT_EULA',
] as const;
/** Placeholders only command templates know (the player or message of that one command). */
export const COMMAND_PLACEHOLDERS = ['PLAYER_ID', 'PLAYER_NAME', 'REASON', 'MESSAGE'] as const;

export const VARIABLE_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export const TEMPLATE_READY_MODES = ['LINE', 'RCON', 'QUERY', 'PORT', 'IMMEDIATE'] as const;
export const TEMPLATE_CONSOLE_MODES = ['STDIN', 'RCON', 'NONE'] as const;
export const PORT_PROTOCOLS = ['tcp', 'udp', 'tcp+udp'] as const;
/** Query protocols a template may name (the allocations and query work reads `query.protocol`). */
export const QUERY_PROTOCOLS = ['A2S', 'MINECRAFT', 'MINECRAFT_BEDROCK', 'GAMESPY1', 'GAMESPY2', 'GAMESPY3', 'EOS', 'TERRARIA', 'FACTORIO', 'RCON'] as const;
export const CONFIG_FORMATS = ['properties', 'ini', 'json', 'yaml', 'xml', 'cfg', 'replace'] as const;
export const INSTALL_STEP_TYPES = ['download', 'steamcmd', 'minecraftManifest', 'unpack', 'script'] as const;
export const PLATFORMS = ['linux', 'windows'] as const;

/** Longest a template's line pattern may be (anchored prefixes of log lines are long; compiled for the linear engine). */
export const MAX_TEMPLATE_PATTERN = 1024;
/** Longest an install script may run, and its default. */
export const MAX_SCRIPT_TIMEOUT_SECONDS = 3600;
export const DEFAULT_SCRIPT_TIMEOUT_SECONDS = 600;

const storable = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine(isStorableText, { message: 'must not contain NUL or lone surrogate characters', abort: true });
const oneLine = (max: number) =>
  storable(max).refine((text) => ![...text].some((c) => (c < ' ' && c !== '\t') || c === '\u007f'), 'must be one line without control characters');
const nonEmptyLine = (max: number) => oneLine(max).refine((text) => text.trim() !== '', 'must not be empty');

/** A regular expression run on output lines: compiles for V8's linear-time engine (schema/linearRegExp.ts). */
export const linePattern = storable(MAX_TEMPLATE_PATTERN)
  .min(1, 'must not be empty')
  .superRefine((pattern, context) => {
    const problem = linearPatternProblem(pattern);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** A path inside the server's directory: relative, `/`-separated, no `..`; globs (`*`, `**`, `?`) where said. */
export const relativePath = nonEmptyLine(512).refine(
  (path) => !path.startsWith('/') && !path.includes('\\') && !path.split('/').includes('..'),
  'must be a path inside the server directory (relative, no `..`)',
);

const seconds = (max: number) => z.int('must be a whole number of seconds').min(1, 'must be at least 1').max(max, `must be at most ${max}`);

// ---- identity

export const templateLink = z.strictObject({ title: nonEmptyLine(100), url: z.url({ protocol: /^https?$/ }).max(2048) });

/** Where a fact of the template came from: the game's docs, a public catalogue (named), a test of our own. */
export const templateSource = z.strictObject({
  fact: nonEmptyLine(200).meta({ description: 'What it backs, e.g. `steamcmd.appId`, `ready`, `players.join`, `ports`.' }),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  note: oneLine(500).optional(),
});

// ---- variables

export const variableValidation = z.strictObject({
  type: z.enum(VARIABLE_TYPES).default('string'),
  required: z.boolean().optional().meta({ description: 'The value may not be empty.' }),
  enum: z.array(oneLine(256)).min(1).max(256).optional(),
  min: z.number().optional().meta({ description: 'integer/number: the smallest value.' }),
  max: z.number().optional().meta({ description: 'integer/number: the largest value.' }),
  minLength: z.int().min(0).max(4096).optional(),
  maxLength: z.int().min(0).max(4096).optional(),
  regex: linePattern.optional().meta({ description: 'string: the whole value must match (anchor it yourself).' }),
});
export type VariableValidation = z.infer<typeof variableValidation>;

export const templateVariable = z.strictObject({
  name: z.string().regex(VARIABLE_NAME_PATTERN, 'must be upper case letters, digits and _ (e.g. WORLD_NAME)'),
  label: oneLine(100).optional(),
  description: storable(2000).optional(),
  default: oneLine(4096).default(''),
  validation: variableValidation.default({ type: 'string' }),
  userViewable: z.boolean().default(true).meta({ description: 'Members who are not OWNER/ADMIN see it.' }),
  userEditable: z.boolean().default(false).meta({ description: 'Members with server write (not only OWNER/ADMIN) may change it.' }),
  secret: z.boolean().default(false).meta({ description: 'Never returned by the API once set (shown as set / not set).' }),
});
export type TemplateVariable = z.infer<typeof templateVariable>;

// ---- start, ready, stop

export const templateStart = z.strictObject({
  command: nonEmptyLine(4096).meta({
    description: 'The command line, split like a POSIX shell line (never run through a shell), with `{{VARIABLE}}` and built-in placeholders.',
  }),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'environment names are letters, digits and _'), oneLine(4096)).optional(),
  workingDirectory: relativePath.optional().meta({ description: 'Relative to the server directory (default: the server directory).' }),
});

export const templateReady = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('LINE'), pattern: linePattern, timeoutSeconds: seconds(3600).optional() }),
  z.strictObject({ mode: z.literal('RCON'), timeoutSeconds: seconds(3600).optional() }),
  z.strictObject({ mode: z.literal('QUERY'), timeoutSeconds: seconds(3600).optional() }),
  z.strictObject({
    mode: z.literal('PORT'),
    port: z.string().regex(PORT_NAME_PATTERN).default('game').meta({ description: 'The name of a TCP port in `ports` that must accept a connection.' }),
    timeoutSeconds: seconds(3600).optional(),
  }),
  z.strictObject({ mode: z.literal('IMMEDIATE'), timeoutSeconds: seconds(3600).optional() }),
]);
export type TemplateReady = z.infer<typeof templateReady>;

export const templateStop = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('COMMAND'), command: nonEmptyLine(256), graceSeconds: seconds(600).optional() }),
  z.strictObject({ mode: z.literal('SIGNAL'), signal: z.enum(STOP_SIGNALS), graceSeconds: seconds(600).optional() }),
]);
export type TemplateStop = z.infer<typeof templateStop>;

// ---- console and player commands

/** A command sent on the console, with `{{PLAYER_ID}}`, `{{PLAYER_NAME}}`, `{{REASON}}`, `{{MESSAGE}}` and variables. */
const commandTemplate = nonEmptyLine(1024);

/**
 * How a `list` answer becomes players. PATTERN: each line matching `entry` (named groups `id`, `name`, `ping`) is one
 * player; with `answer`, only the first line matching it counts, and its group `players` split by `separator` gives the
 * entries. JSON: the answer is JSON; `path` leads to an array whose items have `id`, `name`, `ping` fields (and items
 * whose `skip` field is true are left out).
 */
export const listParse = z.discriminatedUnion('format', [
  z.strictObject({
    format: z.literal('PATTERN'),
    answer: linePattern.optional(),
    separator: z.string().min(1).max(8).optional(),
    entry: linePattern,
  }),
  z.strictObject({
    format: z.literal('JSON'),
    path: z.array(z.string().min(1).max(64)).max(8).default([]),
    id: z.string().min(1).max(64),
    name: z.string().min(1).max(64),
    ping: z.string().min(1).max(64).optional(),
    skip: z.string().min(1).max(64).optional(),
  }),
]);
export type ListParse = z.infer<typeof listParse>;

export const consoleCommand = z.strictObject({
  command: commandTemplate,
  /** For STDIN consoles: the output line that ends the answer (else a short quiet period does). */
  expect: linePattern.optional(),
});

export const templateConsole = z.strictObject({
  mode: z.enum(TEMPLATE_CONSOLE_MODES),
  rcon: z
    .strictObject({
      port: z.string().regex(PORT_NAME_PATTERN).default('rcon').meta({ description: 'The name of the port in `ports` RCON listens on.' }),
      password: oneLine(256)
        .default('{{RCON_PASSWORD}}')
        .meta({ description: 'The password, usually `{{RCON_PASSWORD}}` (the server’s) or `{{SOME_VARIABLE}}`.' }),
    })
    .optional(),
  commands: z
    .strictObject({
      list: consoleCommand.extend({ parse: listParse }).optional(),
      kick: consoleCommand.optional(),
      ban: consoleCommand.optional(),
      unban: consoleCommand.optional(),
      broadcast: consoleCommand.optional(),
    })
    .default({}),
  /** Text players may not put in `{{REASON}}`/`{{MESSAGE}}`/names: quoted with `"…"` (escaping `"` and `\`) when true. */
  quoteArguments: z.boolean().optional(),
});
export type TemplateConsole = z.infer<typeof templateConsole>;

// ---- players

export const templatePlayers = z.strictObject({
  join: linePattern.optional().meta({
    description: 'A whole line of the game’s own (anchored with ^…$ to its log prefix; chat must never match) with named groups `name` and `id`.',
  }),
  leave: linePattern.optional(),
  identify: linePattern
    .optional()
    .meta({ description: 'A line printed before the join that ties `name` to `id` (Minecraft’s `UUID of player <name> is <uuid>`).' }),
  identity: z.enum(['id', 'name']).default('id').meta({ description: 'What identifies a player: the id the game prints (Steam id, UUID) or its name.' }),
  ignoreId: linePattern.optional().meta({ description: 'An id matching this identifies nothing (offline-mode UUIDs): the name is used.' }),
});
export type TemplatePlayers = z.infer<typeof templatePlayers>;

/** Lines of the game quoted in the template, checked by the catalogue's tests (and an import's). */
export const templateSamples = z.strictObject({
  ready: z.array(storable(2048)).max(20).default([]),
  join: z
    .array(z.strictObject({ line: storable(2048), name: z.string().max(64), id: z.string().max(64).optional() }))
    .max(20)
    .default([]),
  leave: z
    .array(z.strictObject({ line: storable(2048), name: z.string().max(64), id: z.string().max(64).optional() }))
    .max(20)
    .default([]),
  chat: z.array(storable(2048)).max(40).default([]).meta({ description: 'Chat and other lines players control: no pattern may match them.' }),
});
export type TemplateSamples = z.infer<typeof templateSamples>;

// ---- install and update

const sha256 = z.string().regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal digits');
const sha1 = z.string().regex(/^[0-9a-f]{40}$/i, 'must be 40 hexadecimal digits');

/**
 * What a SteamCMD branch or beta password may be: they go into SteamCMD's own commands (its script), where a space
 * then `quit`, or a line break, would run commands of its own. Checked here, when a variable's value is set, and by the agent.
 */
export const STEAM_ARGUMENT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const steamArgument = z
  .string()
  .max(64)
  .refine(
    (value) => STEAM_ARGUMENT_PATTERN.test(value) || /^\{\{[A-Z][A-Z0-9_]{0,63}\}\}$/.test(value),
    'must be letters, digits, ., _ and - (at most 64), or one {{VARIABLE}}',
  );

/** The variables a template's SteamCMD steps put into a branch or beta password (their values must be safe). */
export function steamArgumentVariables(template: Pick<TemplateDocument, 'install' | 'update'>): Set<string> {
  const names = new Set<string>();
  for (const steps of [template.install?.steps, template.update?.steps])
    for (const step of steps ?? [])
      if (step.type === 'steamcmd') for (const value of [step.branch, step.betaPassword]) for (const name of placeholdersIn(value ?? '')) names.add(name);
  return names;
}

export const installStep = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('download'),
    url: nonEmptyLine(2048).meta({ description: 'http(s) URL, with placeholders.' }),
    path: relativePath,
    sha256: sha256.optional(),
    sha1: sha1.optional(),
    executable: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('steamcmd'),
    appId: z.int().min(1).max(99_999_999),
    branch: steamArgument.optional().meta({ description: 'A beta branch: letters, digits, `.`, `_`, `-` (at most 64), or one `{{VARIABLE}}`.' }),
    betaPassword: steamArgument.optional().meta({ description: 'Usually a secret variable: `{{BETA_PASSWORD}}`; the same characters as a branch.' }),
    validate: z.boolean().default(false),
    platform: z.enum(PLATFORMS).optional().meta({ description: 'Force the download of this platform’s build (`+@sSteamCmdForcePlatformType`).' }),
  }),
  z.strictObject({
    type: z.literal('minecraftManifest'),
    version: oneLine(64).default('{{VERSION}}').meta({ description: 'A Minecraft version, or `latest` / empty for the latest release.' }),
    path: relativePath.default('server.jar'),
  }),
  z.strictObject({
    type: z.literal('unpack'),
    archive: relativePath,
    destination: relativePath.default('.'),
    format: z.enum(['auto', 'zip', 'tar', 'tar.gz', 'tar.xz']).default('auto'),
    stripComponents: z.int().min(0).max(8).optional(),
    removeArchive: z.boolean().default(true),
  }),
  z.strictObject({
    type: z.literal('script'),
    shell: z.enum(['sh', 'bash']).default('sh'),
    script: storable(65_536).min(1),
    timeoutSeconds: seconds(MAX_SCRIPT_TIMEOUT_SECONDS).default(DEFAULT_SCRIPT_TIMEOUT_SECONDS),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/), oneLine(4096)).optional(),
  }),
]);
export type InstallStep = z.infer<typeof installStep>;

export const templateInstall = z.strictObject({
  steps: z.array(installStep).max(32),
  /** Programs the steps need on the machine (`curl`, `unzip`, `java`): INSTALL fails at once, naming those missing. */
  tools: z
    .array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/))
    .max(64)
    .optional(),
});

// ---- config files, files, ports, query

export const configFile = z
  .strictObject({
    path: relativePath,
    format: z.enum(CONFIG_FORMATS),
    /**
     * properties/ini/json/yaml/xml/cfg: key → value (ini `section.key`; json/yaml dotted paths; xml `a/b/c` or
     * `a/b/@attr`; cfg a Source console variable, written `name "value"`).
     */
    set: z
      .record(
        z
          .string()
          .min(1)
          .max(256)
          .refine((key) => !key.split(/[./@]/).some((segment) => ['__proto__', 'prototype', 'constructor'].includes(segment)), {
            message: 'a key may not name __proto__, prototype or constructor',
          }),
        oneLine(4096),
      )
      .optional(),
    /** replace: each `find` (plain text) becomes `replace`, everywhere in the file. */
    replace: z
      .array(z.strictObject({ find: storable(1024).min(1), replace: storable(4096) }))
      .max(64)
      .optional(),
    /** Only when this renders to `true` (e.g. `{{ACCEPT_EULA}}`). */
    when: oneLine(256).optional(),
  })
  .superRefine((file, context) => {
    if (file.format === 'replace' ? !file.replace?.length : !file.set || Object.keys(file.set).length === 0)
      context.addIssue({ code: 'custom', message: file.format === 'replace' ? 'replace needs `replace` entries' : `${file.format} needs \`set\`` });
  });
export type ConfigFile = z.infer<typeof configFile>;

export const templateFiles = z.strictObject({
  deny: z.array(nonEmptyLine(512)).max(256).default([]).meta({ description: 'gitignore-style patterns members may not read or write.' }),
  wipe: z.array(relativePath).max(256).default([]).meta({ description: 'Paths (globs with `*`) a WIPE removes.' }),
  backupSkip: z.array(nonEmptyLine(512)).max(256).default([]).meta({ description: 'gitignore-style patterns a backup leaves out.' }),
  adminOnly: z.array(nonEmptyLine(512)).max(256).default([]).meta({
    description:
      "gitignore-style patterns of files that hold the server's RCON password: only members with the RCON permission (OWNER, ADMIN) may read or write them; for the others they are denied.",
  }),
});

export const templatePort = z
  .strictObject({
    name: z.string().regex(PORT_NAME_PATTERN, 'must be lower case letters, digits and -'),
    protocol: z.enum(PORT_PROTOCOLS),
    default: z.int().min(1).max(65535).optional(),
    offset: z.int().min(-1000).max(1000).optional().meta({ description: 'From the game port (gamePort + offset).' }),
    description: oneLine(200).optional(),
  })
  .refine((port) => !(port.default !== undefined && port.offset !== undefined), 'give default or offset, not both');
export type TemplatePort = z.infer<typeof templatePort>;

export const templateQuery = z.strictObject({
  protocol: z.enum(QUERY_PROTOCOLS),
  port: z.string().regex(PORT_NAME_PATTERN).default('query').meta({ description: 'The name of the port in `ports` it answers on.' }),
});

// ---- the document

export const templateDocument = z
  .strictObject({
    id: z.string().regex(TEMPLATE_ID_PATTERN, 'must be a slug: lower case letters, digits and -, at most 64'),
    name: nonEmptyLine(100),
    version: z.int().min(1).max(1_000_000).default(1),
    description: storable(4000).optional(),
    gameType: z.enum(GAME_TYPES).default('CUSTOM'),
    tags: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'tags are lower case slugs'))
      .max(16)
      .default([]),
    links: z.array(templateLink).max(16).default([]),
    platforms: z
      .array(z.enum(PLATFORMS))
      .min(1)
      .default(['linux'])
      .meta({ description: 'Where its dedicated server runs; a template without `linux` is refused for servers (agents run Linux).' }),
    defaultMaxPlayers: z.int().min(1).max(100_000).optional(),
    variables: z.array(templateVariable).max(64).default([]),
    start: templateStart,
    ready: templateReady,
    stop: templateStop,
    console: templateConsole,
    players: templatePlayers.default({ identity: 'id' }),
    samples: templateSamples.optional(),
    install: templateInstall.optional(),
    update: templateInstall.optional().meta({ description: 'Absent: the install steps again (each is a no-op when current).' }),
    configFiles: z.array(configFile).max(32).default([]),
    files: templateFiles.default({ deny: [], wipe: [], backupSkip: [], adminOnly: [] }),
    ports: z.array(templatePort).min(1).max(16),
    query: templateQuery.optional(),
    sources: z.array(templateSource).max(64).default([]),
  })
  .superRefine(
    (template, context) => {
      for (const issue of templateIssues(template)) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    },
    // Only on a document whose fields are each valid (the cross-field checks read them).
    { when: (payload) => payload.issues.length === 0 },
  );
export type TemplateDocument = z.infer<typeof templateDocument>;
/** As written (defaults not yet applied). */
export type TemplateInput = z.input<typeof templateDocument>;

/** `{{NAME}}`s in a text. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/** Programs that run the word after `-c` (or `-e`) as code. */
const SCRIPT_RUNNERS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'busybox', 'python', 'python3', 'perl', 'ruby', 'node', 'php', 'lua']);

/** Where a command line's inline script is (the word after `-c`/`-e` of a shell or interpreter); undefined when none. */
export function inlineScriptIndex(words: string[]): number | undefined {
  let at = 0;
  // Through `env`/`exec`/`nice` and the like to the program itself.
  while (at < words.length && /^(env|exec|nice|nohup|stdbuf|setsid|taskset)$/.test(programName(words[at]!))) {
    at++;
    while (at < words.length && (words[at]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at]!) || /^\d+$/.test(words[at]!))) at++;
  }
  if (at >= words.length || !SCRIPT_RUNNERS.has(programName(words[at]!).replace(/[\d.]+$/, '') || programName(words[at]!))) return undefined;
  for (let index = at + 1; index < words.length; index++) {
    const word = words[index]!;
    if (!word.startsWith('-')) {
      if (programName(words[at]!) === 'busybox' && index === at + 1) continue;
      return undefined;
    }
    if (/^-[a-zA-Z]*[ce]$/.test(word) && index + 1 < words.length) return index + 1;
  }
  return undefined;
}

const programName = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** `{{PORT_<NAME>}}` for a port name. */
export const portPlaceholder = (name: string) => `PORT_${name.toUpperCase().replaceAll('-', '_')}`;

type Issue = { path: (string | number)[]; message: string };

/** Cross-field problems: unknown placeholders, ports named but not declared, a stop command without a console, … */
export function templateIssues(template: Omit<TemplateDocument, never>): Issue[] {
  const issues: Issue[] = [];
  const names = new Set<string>();
  template.variables.forEach((variable, index) => {
    if (names.has(variable.name)) issues.push({ path: ['variables', index, 'name'], message: `${variable.name} is declared twice` });
    if ((BUILT_IN_PLACEHOLDERS as readonly string[]).includes(variable.name))
      issues.push({ path: ['variables', index, 'name'], message: `${variable.name} is a built-in placeholder` });
    names.add(variable.name);
    const rule = variable.validation;
    if (rule.min !== undefined && rule.max !== undefined && rule.min > rule.max)
      issues.push({ path: ['variables', index, 'validation'], message: 'min is above max' });
    if (variable.default !== '') {
      const problem = variableValueProblem(variable, variable.default);
      if (problem) issues.push({ path: ['variables', index, 'default'], message: `the default ${problem}` });
    }
  });
  const ports = new Set<string>();
  template.ports.forEach((port, index) => {
    if (ports.has(port.name)) issues.push({ path: ['ports', index, 'name'], message: `port ${port.name} is declared twice` });
    ports.add(port.name);
  });
  if (!ports.has('game')) issues.push({ path: ['ports'], message: 'a template declares its `game` port' });
  const known = new Set<string>([...BUILT_IN_PLACEHOLDERS, ...names, ...[...ports].map(portPlaceholder)]);
  const check = (text: string | undefined, path: Issue['path'], extra: readonly string[] = []) => {
    if (text === undefined) return;
    for (const name of placeholdersIn(text))
      if (!known.has(name) && !extra.includes(name)) issues.push({ path, message: `unknown placeholder {{${name}}} (not a variable, port or built-in)` });
  };
  check(template.start.command, ['start', 'command']);
  try {
    const words = splitCommandLine(template.start.command);
    const script = inlineScriptIndex(words);
    if (script !== undefined && placeholdersIn(words[script]!).length > 0)
      issues.push({
        path: ['start', 'command'],
        message: `no {{placeholder}} inside the script after ${words[script - 1]}: a value would become code; pass it in start.env and read it as "$NAME"`,
      });
  } catch (error) {
    issues.push({ path: ['start', 'command'], message: (error as Error).message.replace('in startCommand', '') });
  }
  // A process's arguments are readable by every account of the machine (/proc/<pid>/cmdline): secrets go by environment.
  const secrets = new Set(template.variables.filter((variable) => variable.secret).map((variable) => variable.name));
  const noSecret = (text: string | undefined, path: Issue['path'], where: string) => {
    for (const name of placeholdersIn(text ?? ''))
      if (secrets.has(name))
        issues.push({ path, message: `{{${name}}} is secret and ${where} is readable by the machine's other accounts: pass it in start.env` });
  };
  noSecret(template.start.command, ['start', 'command'], 'the command line');
  for (const kind of ['install', 'update'] as const)
    template[kind]?.steps.forEach((step, index) => {
      if (step.type === 'download') noSecret(step.url, [kind, 'steps', index, 'url'], 'a download URL');
      if (step.type === 'steamcmd') noSecret(step.branch, [kind, 'steps', index, 'branch'], "SteamCMD's command line");
    });
  for (const [key, value] of Object.entries(template.start.env ?? {})) check(value, ['start', 'env', key]);
  if (template.stop.mode === 'COMMAND') check(template.stop.command, ['stop', 'command']);
  for (const [name, command] of Object.entries(template.console.commands))
    check(command?.command, ['console', 'commands', name, 'command'], COMMAND_PLACEHOLDERS);
  if (template.console.rcon) check(template.console.rcon.password, ['console', 'rcon', 'password']);
  for (const kind of ['install', 'update'] as const)
    template[kind]?.steps.forEach((step, index) => {
      for (const [key, value] of Object.entries(step)) if (typeof value === 'string' && key !== 'script') check(value, [kind, 'steps', index, key]);
      if (step.type === 'script') for (const [key, value] of Object.entries(step.env ?? {})) check(value, [kind, 'steps', index, 'env', key]);
    });
  template.configFiles.forEach((file, index) => {
    // A path is filled by the service before the agent sees it: only the server's id, which cannot lead outside.
    if (placeholdersIn(file.path).some((name) => name !== 'SERVER_ID'))
      issues.push({ path: ['configFiles', index, 'path'], message: 'a config file path takes no placeholder but {{SERVER_ID}}' });
    for (const [key, value] of Object.entries(file.set ?? {})) check(value, ['configFiles', index, 'set', key]);
    file.replace?.forEach((entry, at) => check(entry.replace, ['configFiles', index, 'replace', at, 'replace']));
    check(file.when, ['configFiles', index, 'when']);
  });
  if (template.stop.mode === 'COMMAND' && template.console.mode === 'NONE')
    issues.push({ path: ['stop'], message: 'a stop command needs a console (console.mode is NONE)' });
  const rconPort = template.console.rcon?.port ?? 'rcon';
  if ((template.console.mode === 'RCON' || template.ready.mode === 'RCON') && !ports.has(rconPort))
    issues.push({ path: ['console'], message: `RCON needs its port \`${rconPort}\` in ports` });
  if (template.ready.mode === 'PORT' && !ports.has(template.ready.port))
    issues.push({ path: ['ready', 'port'], message: `port ${template.ready.port} is not in ports` });
  if (template.ready.mode === 'QUERY' && !template.query) issues.push({ path: ['ready'], message: 'ready by QUERY needs `query`' });
  if (template.query && !ports.has(template.query.port)) issues.push({ path: ['query', 'port'], message: `port ${template.query.port} is not in ports` });
  if (template.players.join && !/\(\?<name>/.test(template.players.join)) issues.push({ path: ['players', 'join'], message: 'needs a named group (?<name>…)' });
  if (template.players.leave && !/\(\?<name>/.test(template.players.leave))
    issues.push({ path: ['players', 'leave'], message: 'needs a named group (?<name>…)' });
  if (template.players.identify && !/\(\?<name>/.test(template.players.identify))
    issues.push({ path: ['players', 'identify'], message: 'needs named groups (?<name>…) and (?<id>…)' });
  return issues;
}

/** Why `value` breaks the variable's validation (`must be …`); undefined when it is fine. */
export function variableValueProblem(variable: Pick<TemplateVariable, 'validation'>, value: string): string | undefined {
  const rule = variable.validation;
  if (value === '') return rule.required ? 'is required' : undefined;
  if (rule.type === 'boolean' && value !== 'true' && value !== 'false') return 'must be true or false';
  if (rule.type === 'integer' && !/^-?\d{1,15}$/.test(value)) return 'must be a whole number';
  if (rule.type === 'number' && (!/^-?\d{1,15}(\.\d{1,15})?$/.test(value) || !Number.isFinite(Number(value)))) return 'must be a number';
  if (rule.type === 'integer' || rule.type === 'number') {
    if (rule.min !== undefined && Number(value) < rule.min) return `must be at least ${rule.min}`;
    if (rule.max !== undefined && Number(value) > rule.max) return `must be at most ${rule.max}`;
  }
  if (rule.enum && !rule.enum.includes(value)) return `must be one of ${rule.enum.join(', ')}`;
  if (rule.minLength !== undefined && value.length < rule.minLength) return `must be at least ${rule.minLength} characters`;
  if (rule.maxLength !== undefined && value.length > rule.maxLength) return `must be at most ${rule.maxLength} characters`;
  if (rule.regex !== undefined && linearPatternProblem(rule.regex) === undefined && !linearRegExp(rule.regex).test(value)) return `must match ${rule.regex}`;
  return undefined;
}

/**
 * Problems with a template's `samples`: a ready line the ready pattern does not match, a join/leave line not matched
 * (or with another name/id), a chat line that any pattern matches. Used by the catalogue's tests and by import.
 */
export function sampleProblems(template: TemplateDocument): string[] {
  const problems: string[] = [];
  const samples = template.samples;
  if (!samples) return problems;
  const compile = (pattern: string | undefined) => (pattern === undefined ? undefined : linearRegExp(pattern));
  const ready = template.ready.mode === 'LINE' ? compile(template.ready.pattern) : undefined;
  const join = compile(template.players.join);
  const leave = compile(template.players.leave);
  const identify = compile(template.players.identify);
  for (const line of samples.ready) if (ready && !ready.test(line)) problems.push(`ready line not matched: ${line}`);
  for (const [kind, pattern] of [
    ['join', join],
    ['leave', leave],
  ] as const) {
    for (const sample of samples[kind]) {
      const match = pattern?.exec(sample.line);
      if (!match) problems.push(`${kind} line not matched: ${sample.line}`);
      else if (match.groups?.name !== sample.name) problems.push(`${kind} line gives name ${match.groups?.name}, not ${sample.name}: ${sample.line}`);
      else if (sample.id !== undefined && match.groups?.id !== sample.id)
        problems.push(`${kind} line gives id ${match.groups?.id}, not ${sample.id}: ${sample.line}`);
    }
  }
  for (const line of samples.chat)
    for (const [what, pattern] of [
      ['ready', ready],
      ['join', join],
      ['leave', leave],
      ['identify', identify],
    ] as const)
      if (pattern?.test(line)) problems.push(`chat line matched by ${what}: ${line}`);
  return problems;
}

// ---- what the agent receives (servers:sync's `template`), resolved by the service

/**
 * A template resolved for one server: variables and ports filled in (the agent fills `{{SERVER_DIR}}` and
 * `{{MEMORY_MB}}`, and the command placeholders per command). Start command, environment, ready, console mode, stop
 * and the RCON port and password travel in the server's own fields (agentEvents.ts `serverConfig`), so an agent that
 * does not know `template` still starts, watches and stops the server; this carries the rest.
 */
export const resolvedTemplate = z.object({
  id: z.string(),
  version: z.int(),
  players: z.object({
    join: z.string().optional(),
    leave: z.string().optional(),
    identify: z.string().optional(),
    identity: z.enum(['id', 'name']).optional(),
    ignoreId: z.string().optional(),
  }),
  commands: z.object({
    list: z.object({ command: z.string(), expect: z.string().optional(), parse: listParse }).optional(),
    kick: z.object({ command: z.string(), expect: z.string().optional() }).optional(),
    ban: z.object({ command: z.string(), expect: z.string().optional() }).optional(),
    unban: z.object({ command: z.string(), expect: z.string().optional() }).optional(),
    broadcast: z.object({ command: z.string(), expect: z.string().optional() }).optional(),
  }),
  quoteArguments: z.boolean().optional(),
  configFiles: z.array(
    z.object({
      path: z.string(),
      format: z.enum(CONFIG_FORMATS),
      set: z.record(z.string(), z.string()).optional(),
      replace: z.array(z.object({ find: z.string(), replace: z.string() })).optional(),
    }),
  ),
  wipe: z.array(z.string()),
  /** gitignore-style patterns a backup leaves out (`files.backupSkip`). */
  backupSkip: z.array(z.string()).optional(),
  /** Where the process starts, relative to the server's directory (absent: the directory itself). */
  workingDirectory: z.string().optional(),
  /**
   * The values the server stores as secrets, and those of the template's secret variables (the server's, else the
   * defaults): the agent hides them from what an install says.
   */
  secrets: z.array(z.string()).optional(),
  install: z.object({ steps: z.array(installStep), tools: z.array(z.string()).optional() }).optional(),
  update: z.object({ steps: z.array(installStep), tools: z.array(z.string()).optional() }).optional(),
});
export type ResolvedTemplate = z.infer<typeof resolvedTemplate>;
