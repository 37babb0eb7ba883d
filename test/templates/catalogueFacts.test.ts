/**
 * Every built-in template (orchestrator/templates/catalogue/*.json), beyond its schema and samples (catalogue.test.ts): the games the catalogue
 * promises are there; every pattern compiles for the linear-time engine and join/leave lines are anchored at both ends;
 * install steps are well formed (URLs, archives a step before wrote, scripts that parse, the tools they run declared);
 * variables' defaults pass their own rules; Windows-only servers say so and are not offered for Linux; each Steam app id
 * names its source; the RCON password stays off the command line (srcds games: in a cfg file), except for the games
 * that read it only there (factorio, Rust).
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { loadCatalogue } from '../../orchestrator/templates/catalogue.ts';
import { adaptInstallScript } from '../../orchestrator/templates/eggScript.ts';
import { resolveTemplate } from '../../orchestrator/templates/resolve.ts';
import { DenyList, normalizeFilePath } from '../../schema/filePaths.ts';
import { linearRegExp } from '../../schema/linearRegExp.ts';
import { BUILT_IN_PLACEHOLDERS, PLACEHOLDER, variableValueProblem, type TemplateDocument } from '../../schema/template.ts';

const catalogue = loadCatalogue();
const templates = [...catalogue.templates.values()];

/** The games the issue names, by id: the five the agent knew in code and the rest of the catalogue. */
const PROMISED = [
  'minecraft-vanilla',
  'minecraft-paper',
  'minecraft-fabric',
  'rust',
  'rust-oxide',
  'ark-survival-evolved',
  'cs2',
  'valheim',
  'terraria',
  'factorio',
  '7-days-to-die',
  'project-zomboid',
  'satisfactory',
  'palworld',
  'garrys-mod',
  'team-fortress-2',
  'unturned',
  'dont-starve-together',
  'v-rising',
  'enshrouded',
  'conan-exiles',
  'dayz',
  'arma-3',
  'space-engineers',
];
/**
 * Games whose built-in templates still give the RCON password on the command line, which the machine's other accounts
 * can read (docs/templates.md says which and why); every other one passes it in a config file or not at all.
 */
const RCON_PASSWORD_ON_COMMAND_LINE = ['factorio', 'rust', 'rust-oxide'];
/** Dedicated servers built for Windows only: refused on the agents' Linux machines. */
const WINDOWS_ONLY = ['v-rising', 'enshrouded', 'conan-exiles', 'space-engineers', 'ark-survival-ascended'];

test('the catalogue holds at least 25 games, among them every one promised', (t) => {
  t.true(templates.length >= 25, `${templates.length} templates`);
  for (const id of PROMISED) t.truthy(catalogue.templates.get(id), `${id} is built in`);
  for (const id of WINDOWS_ONLY) {
    const template = catalogue.templates.get(id)!;
    t.deepEqual(template.platforms, ['windows'], `${id} is Windows-only`);
    t.regex(template.description ?? '', /Windows only/, `${id} says so`);
  }
});

/** A rendering of `text` with each placeholder's default (variables), or a sample value (built-ins). */
function render(template: TemplateDocument, text: string): string {
  const defaults = new Map(template.variables.map((variable) => [variable.name, variable.default || 'x']));
  return text.replace(
    PLACEHOLDER,
    (_, name: string) => defaults.get(name) ?? ((BUILT_IN_PLACEHOLDERS as readonly string[]).includes(name) || name.startsWith('PORT_') ? '1' : `{{${name}}}`),
  );
}

/** Every line pattern of a template, with where it is. */
function patterns(template: TemplateDocument): [string, string][] {
  const found: [string, string][] = [];
  if (template.ready.mode === 'LINE') found.push(['ready', template.ready.pattern]);
  for (const key of ['join', 'leave', 'identify', 'ignoreId'] as const) if (template.players[key]) found.push([`players.${key}`, template.players[key]]);
  for (const [name, command] of Object.entries(template.console.commands)) {
    if (command?.expect) found.push([`console.commands.${name}.expect`, command.expect]);
    const parse = (command as { parse?: { format: string; entry?: string; answer?: string } } | undefined)?.parse;
    if (parse?.entry) found.push([`console.commands.${name}.parse.entry`, parse.entry]);
    if (parse?.answer) found.push([`console.commands.${name}.parse.answer`, parse.answer]);
  }
  for (const variable of template.variables)
    if (variable.validation.regex) found.push([`variables.${variable.name}.validation.regex`, variable.validation.regex]);
  return found;
}

for (const template of templates) {
  test(`${template.id}: patterns linear and anchored, install steps well formed, defaults valid, sources named, RCON password off the command line`, (t) => {
    for (const [where, pattern] of patterns(template)) t.notThrows(() => linearRegExp(pattern), `${where} compiles for the linear engine`);
    for (const key of ['join', 'leave', 'identify'] as const) {
      const pattern = template.players[key];
      if (pattern) t.true(pattern.startsWith('^') && pattern.endsWith('$'), `players.${key} is a whole line (^…$): ${pattern}`);
    }
    if (template.players.join) t.truthy(template.players.leave, 'a join pattern comes with a leave pattern');

    for (const variable of template.variables) {
      if (variable.default !== '') t.is(variableValueProblem(variable, variable.default), undefined, `${variable.name}'s default passes its own rules`);
      // A credential is secret, unless the game takes it only on its command line: then hidden from members and said so.
      if (/PASSWORD|TOKEN|SECRET|GSLT/.test(variable.name))
        t.true(variable.secret || (!variable.userViewable && /command line/.test(variable.description ?? '')), `${variable.name} is secret`);
    }

    const written = new Set<string>();
    for (const [kind, install] of [
      ['install', template.install],
      ['update', template.update],
    ] as const) {
      if (!install) continue;
      const declared = new Set(install.tools ?? []);
      // What the steps run: a tool declared beyond it would refuse an install (409) on a machine that lacks it for nothing.
      const used = new Set<string>();
      install.steps.forEach((step, index) => {
        const where = `${kind}.steps[${index}] (${step.type})`;
        if (step.type === 'download') {
          const url = new URL(render(template, step.url));
          t.true(url.protocol === 'https:' || url.protocol === 'http:', `${where}: an http(s) URL`);
          written.add(step.path);
        } else if (step.type === 'unpack') {
          t.true(written.has(step.archive), `${where}: ${step.archive} is written by a step before it`);
          // The agent unpacks with the machine's unzip and tar (and xz, gzip for tar's compressed formats).
          const format =
            step.format === 'auto' ? (/\.zip$/.test(step.archive) ? 'zip' : /\.(tar\.xz|txz)$/.test(step.archive) ? 'tar.xz' : 'tar') : step.format;
          const needs = { zip: ['unzip'], tar: ['tar'], 'tar.gz': ['tar', 'gzip'], 'tar.xz': ['tar', 'xz'] }[format];
          for (const tool of needs) {
            t.true(declared.has(tool), `${where}: unpacking ${format} needs ${tool} in install.tools`);
            used.add(tool);
          }
        } else if (step.type === 'steamcmd') {
          t.is(step.platform === 'windows', !template.platforms.includes('linux'), `${where}: Windows builds exactly for Windows-only servers`);
          t.true(
            template.sources.some((source) => source.fact.includes('steamcmd.appId') && (source.note ?? '').includes(String(step.appId))),
            `${where}: the app id ${step.appId} names its source`,
          );
        } else if (step.type === 'script') {
          const checked = spawnSync(step.shell, ['-n'], { input: step.script, encoding: 'utf8' });
          t.is(checked.status, 0, `${where}: the script parses (${checked.stderr})`);
          for (const tool of adaptInstallScript(step.script, step.shell).tools) {
            if (tool !== 'sh' && tool !== 'bash') t.true(declared.has(tool), `${where}: the script runs ${tool}, which install.tools must declare`);
            used.add(tool);
          }
          for (const name of Object.keys(step.env ?? {})) t.regex(name, /^[A-Za-z_][A-Za-z0-9_]*$/);
        }
      });
      for (const tool of declared) t.true(used.has(tool), `${kind}.tools: ${tool} is declared but no step runs it`);
    }

    // Resolved for a server: its RCON password reaches the game by a config file, never on its command line.
    const server = {
      id: '00000000-0000-4000-8000-000000000001',
      name: 's',
      gamePort: 27015,
      queryPort: 27016,
      rconPort: 27017,
      rconPassword: 'Rcon-Password-4242',
      maxPlayers: 10,
      version: null,
      acceptEula: true,
      startCommand: null,
      env: null,
    };
    const resolved = resolveTemplate(template, server);
    t.is(
      resolved.startCommand!.includes(server.rconPassword),
      RCON_PASSWORD_ON_COMMAND_LINE.includes(template.id),
      `the RCON password is ${RCON_PASSWORD_ON_COMMAND_LINE.includes(template.id) ? '' : 'not '}on the command line`,
    );
    if (/srcds_run|linuxsteamrt64\/cs2/.test(template.start.command)) {
      // In a file of its own, executed from the command line, so that server.cfg stays readable to members.
      const cfg = resolved.template.configFiles.find((file) => file.format === 'cfg' && file.path.endsWith('/cfg/gsm-secrets.cfg'));
      t.is(cfg?.set?.rcon_password, server.rconPassword, 'srcds reads its RCON password from cfg/gsm-secrets.cfg');
      t.regex(template.start.command, /\+exec gsm-secrets\.cfg \+map /, 'executed before the first map loads');
      const serverCfg = resolved.template.configFiles.find((file) => file.path.endsWith('/cfg/server.cfg'));
      t.deepEqual(serverCfg?.replace, [{ find: `rcon_password "${server.rconPassword}"`, replace: '' }], "an earlier version's line leaves server.cfg");
    }
    // A member who may not use the server's RCON (a MODERATOR, files.read) must not read its password in a file either:
    // every file the template writes it into is adminOnly (docs/templates.md#files-only-for-admins).
    const adminOnly = new DenyList(template.files.adminOnly);
    for (const file of resolved.template.configFiles)
      if ([...Object.values(file.set ?? {}), ...(file.replace ?? []).map((entry) => entry.replace)].some((value) => value.includes(server.rconPassword)))
        t.true(adminOnly.denies(normalizeFilePath(file.path)), `${file.path} holds the RCON password: it is in files.adminOnly`);
    if (template.id.startsWith('minecraft-')) t.true(adminOnly.denies('server.properties'), 'server.properties (rcon.password) is adminOnly');
    if (template.start.command.startsWith('./RustDedicated')) {
      // Rust opens its RCON listener only with +rcon.password on its command line; a server.cfg value never opens it.
      t.regex(resolved.startCommand!, new RegExp(`\\+rcon\\.password "?${server.rconPassword}"? `), 'Rust gets +rcon.password on its command line');
      t.false(
        resolved.template.configFiles.some((file) => Object.keys(file.set ?? {}).some((key) => key.toLowerCase() === 'rcon.password')),
        'and not (only) in a config file',
      );
    }

    t.true(template.sources.length > 0, 'its facts name their sources');
    for (const source of template.sources) t.true(source.url !== undefined || (source.note ?? '') !== '', `source of ${source.fact} says where it comes from`);
    if (template.ready.mode !== 'LINE' && template.ready.mode !== 'RCON')
      t.true(template.description !== undefined && template.description.length > 0, 'a template without a ready line says how it is ready');
  });
}
