/**
 * Egg import as a pure function (orchestrator/templates/eggImport.ts), on eggs written for these tests in each format
 * version (test/fixtures/eggs/: PTDL_v1, PTDL_v2, PLCN_v1 JSON, PLCN_v2 and PLCN_v3 YAML). Each test checks what the
 * template says and that what could not be mapped is named.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { importEggText } from '../../orchestrator/templates/eggImport.ts';
import { EggFormatError, splitRules } from '../../orchestrator/templates/eggs.ts';
import { mapRules } from '../../orchestrator/templates/eggRules.ts';
import { adaptInstallScript } from '../../orchestrator/templates/eggScript.ts';
import { linearRegExp } from '../../schema/linearRegExp.ts';
import { templateDocument, variableValueProblem } from '../../schema/template.ts';

const egg = (file: string) => readFileSync(new URL(`../fixtures/eggs/${file}`, import.meta.url), 'utf8');
const has = (list: string[], text: string) => list.some((entry) => entry.includes(text));

test('PTDL_v1: JSON-text config sections, 0/1 flags, a regex rule with a pipe-free pattern, eula, a built-in-named variable', (t) => {
  const { format, template, unmapped, tools, skippedLines } = importEggText(egg('ptdl-v1.json'));
  t.is(format, 'PTDL_v1');
  t.is(template.id, 'cobalt-sandbox');
  t.is(template.gameType, 'CUSTOM');
  t.is(template.start.command, 'java -Xms128M -Xmx{{MEMORY_MB}}M -jar {{SERVER_JARFILE}} --port {{GAME_PORT}} nogui');
  t.is(template.start.env?.SERVER_JARFILE, '{{SERVER_JARFILE}}');
  t.is(template.start.env?.VERSION, '{{VERSION}}', 'the egg variable VERSION is the server’s version');
  t.true(has(unmapped, "variable VERSION (Version): the server's own VERSION is used"));
  // done `)! For help, type ` is found anywhere in a line, its characters literal
  t.deepEqual(template.ready, { mode: 'LINE', pattern: '\\)! For help, type ', timeoutSeconds: 600 });
  t.true(linearRegExp((template.ready as { pattern: string }).pattern).test('[12:00:01] [Server thread/INFO]: Done (3.2s)! For help, type "help"'));
  t.deepEqual(template.stop, { mode: 'COMMAND', command: 'stop', graceSeconds: 60 });
  t.is(template.console.mode, 'STDIN');
  const jar = template.variables.find((variable) => variable.name === 'SERVER_JARFILE')!;
  t.like(jar, { label: 'Server Jar File', default: 'server.jar', userViewable: true, userEditable: true, secret: false });
  t.is(variableValueProblem(jar, 'paper.jar'), undefined);
  t.truthy(variableValueProblem(jar, 'paper.zip'));
  t.like(template.variables.find((variable) => variable.name === 'MOTD')!.validation, { type: 'string', required: false, maxLength: 59 });
  t.deepEqual(template.configFiles, [
    { path: 'server.properties', format: 'properties', set: { 'server-ip': '0.0.0.0', 'server-port': '{{GAME_PORT}}', motd: '{{MOTD}}' } },
    { path: 'eula.txt', format: 'properties', set: { eula: '{{ACCEPT_EULA}}' } },
  ]);
  t.deepEqual(skippedLines, ['apt update', 'apt install -y curl jq']);
  t.deepEqual(tools, ['bash', 'curl', 'jq']);
  t.deepEqual(template.install?.tools, ['bash', 'curl', 'jq']);
  const step = template.install!.steps[0]!;
  t.is(step.type, 'script');
  if (step.type !== 'script') return;
  t.is(step.shell, 'bash');
  t.false(step.script.includes('/mnt/server'), 'the server directory replaces /mnt/server');
  t.true(step.script.includes('cd ${SERVER_DIR}'));
  t.true(step.script.includes(': # not run here (installs packages): apt install -y curl jq'));
  t.is(step.env?.SERVER_DIR, '{{SERVER_DIR}}');
  t.true(has(unmapped, 'userInteraction'));
  t.true(has(unmapped, 'installation script: 2 line(s) installing packages are not run (the machine needs: curl, jq)'));
  t.true(has(unmapped, 'players: eggs do not describe'));
  t.true(templateDocument.safeParse(template).success, 'the answer is a valid template');
});

test('PTDL_v2: ^C is SIGINT, done as a list with a regex:, numeric and boolean and in: rules, denylist, secrets, built-in ports', (t) => {
  const { template, unmapped, skippedLines } = importEggText(egg('ptdl-v2.json'));
  t.deepEqual(template.stop, { mode: 'SIGNAL', signal: 'SIGINT', graceSeconds: 30 });
  const ready = linearRegExp((template.ready as { pattern: string }).pattern);
  t.true(ready.test('12:00 Server is listening on 7777'));
  t.true(ready.test('[Harbor] World Archipelago ready'));
  t.false(ready.test('<Bob> [Harbor] World Archipelago ready'), 'the regex: keeps its anchors');
  t.is(
    template.start.command,
    './HarborServer -port={{GAME_PORT}} -queryport={{QUERY_PORT}} -maxplayers={{MAX_PLAYERS}} -servername="{{SERVER_NAME}}" -pve={{PVE}} -map={{MAP}} -ip=0.0.0.0',
  );
  for (const builtIn of ['QUERY_PORT', 'MAX_PLAYERS', 'SERVER_NAME']) {
    t.false(
      template.variables.some((variable) => variable.name === builtIn),
      `${builtIn} is the server's own`,
    );
    t.true(has(unmapped, `variable ${builtIn} `));
  }
  const byName = Object.fromEntries(template.variables.map((variable) => [variable.name, variable]));
  t.deepEqual(byName.MAP!.validation.enum, ['Archipelago', 'Reef', 'Strait']);
  t.truthy(variableValueProblem(byName.MAP!, 'Moon'));
  t.is(variableValueProblem(byName.PVE!, '1'), undefined, 'Laravel booleans take 1');
  t.truthy(variableValueProblem(byName.PVE!, 'yes'));
  t.like(byName.BETA!.validation, { regex: '^[A-Za-z0-9_-]*$', maxLength: 32, required: false });
  t.like(byName.ADMIN_PASSWORD!, { secret: true, userViewable: false, userEditable: false });
  t.like(byName.ADMIN_PASSWORD!.validation, { minLength: 12, maxLength: 12 });
  t.true(has(unmapped, 'variable ADMIN_PASSWORD: kept as a secret'));
  t.deepEqual(template.files.deny, ['*.sh', '!start.sh', 'secrets/']);
  t.deepEqual(template.configFiles, [
    { path: 'Config/Server.ini', format: 'ini', set: { 'Server.Port': '{{GAME_PORT}}', 'Server.Name': '{{SERVER_NAME}}', 'Server.Memory': '{{MEMORY_MB}}' } },
  ]);
  // A package line continued over two lines, and one inside an `if`, are both not run; the `if` stays valid shell.
  t.is(skippedLines.length, 3);
  const step = template.install!.steps[0]!;
  if (step.type !== 'script') return t.fail('a script step');
  t.regex(step.script, /if \[ -f \$\{SERVER_DIR\}\/start\.sh \]; then\n: # not run here \(installs packages\): apt install -y dos2unix\nfi/);
  t.true(has(unmapped, 'ca-certificates, curl, dos2unix, lib32gcc-s1, tar'));
  t.true(has(unmapped, 'feature steam_disk_space'));
  t.true(has(unmapped, '{{SERVER_IP}}: the server listens on every address'));
});

test('PLCN_v1 (JSON): tags, docker_images, an ash script, in: rule', (t) => {
  const { format, template, tools, unmapped } = importEggText(egg('plcn-v1.json'));
  t.is(format, 'PLCN_v1');
  t.deepEqual(template.tags, ['egg', 'nodejs', 'co-op']);
  t.is(template.start.command, 'node lantern.js --port={{GAME_PORT}} --difficulty={{DIFFICULTY}}');
  t.deepEqual(template.stop, { mode: 'COMMAND', command: 'shutdown', graceSeconds: 60 });
  const step = template.install!.steps[0]!;
  if (step.type !== 'script') return t.fail('a script step');
  t.is(step.shell, 'sh', 'ash scripts run with sh');
  t.deepEqual(tools, ['git', 'npm', 'sh']);
  t.deepEqual(template.install!.tools, ['git', 'npm']);
  t.true(has(unmapped, 'ghcr.io/example/node:20, ghcr.io/example/node:22'));
  t.is(template.sources[0]!.url, 'https://eggs.example.org/lantern.json');
});

test('PLCN_v2 (YAML): startup_commands (the first used, the others named), rules as lists, config as objects, allocations placeholders', (t) => {
  const { format, template, unmapped } = importEggText(egg('plcn-v2.yaml'));
  t.is(format, 'PLCN_v2');
  t.is(template.start.command, './EmberServer -port {{GAME_PORT}} -players {{PLAYERS}}');
  t.true(has(unmapped, 'startup command "With mods": only the first (Default) is used'));
  const players = template.variables.find((variable) => variable.name === 'PLAYERS')!;
  t.like(players.validation, { type: 'number', min: 2, max: 40, required: true });
  t.truthy(variableValueProblem(players, '41'));
  const release = template.variables.find((variable) => variable.name === 'RELEASE')!;
  t.is(release.validation.regex, '^(stable|beta|\\d+\\.\\d+)$');
  t.is(variableValueProblem(release, '1.20'), undefined);
  t.truthy(variableValueProblem(release, 'nightly'));
  t.deepEqual(template.configFiles[0], { path: 'config/server.json', format: 'json', set: { 'network.port': '{{GAME_PORT}}', 'players.max': '{{PLAYERS}}' } });
  t.deepEqual(template.files.deny, ['config/admins.json']);
  t.deepEqual(template.install!.tools, ['bash', 'tar', 'wget']);
});

test('PLCN_v3 (YAML): yaml/xml parsers, the file parser named as not patched, ^^C, a variable in the ready text, an exists: rule', (t) => {
  const { format, template, unmapped } = importEggText(egg('plcn-v3.yaml'));
  t.is(format, 'PLCN_v3');
  t.is(template.start.command, './tideglass --bind 0.0.0.0:{{GAME_PORT}} --world "{{WORLD}}"');
  t.deepEqual(template.configFiles, [
    { path: 'settings.yml', format: 'yaml', set: { 'server.port': '{{GAME_PORT}}', 'server.world': '{{WORLD}}' } },
    { path: 'config/server.xml', format: 'xml', set: { 'server/port': '{{GAME_PORT}}' } },
  ]);
  t.true(has(unmapped, 'config.files motd.txt (parser file)'));
  t.deepEqual(template.stop, { mode: 'SIGNAL', signal: 'SIGTERM', graceSeconds: 30 });
  t.true(has(unmapped, 'config.stop ^^C: Wings kills the process at once'));
  const ready = linearRegExp((template.ready as { pattern: string }).pattern);
  t.true(ready.test('World Glass Sea is open'));
  t.true(has(unmapped, 'its {{…}} parts match any text'));
  t.true(has(unmapped, 'variable OWNER_TOKEN, rule exists:tokens,id'));
  t.like(
    template.variables.find((variable) => variable.name === 'OWNER_TOKEN')!,
    { secret: true },
  );
  t.like(template.variables.find((variable) => variable.name === 'WORLD')!.validation, { maxLength: 32, regex: '^[A-Za-z ]+$' });
});

test('a startup command written as shell runs with bash -c, its values from the environment, never pasted into the script', (t) => {
  const text = JSON.stringify({
    meta: { version: 'PTDL_v2' },
    name: 'Shell start',
    startup: 'if [ -f custom.sh ]; then ./custom.sh; else ./server --port {{SERVER_PORT}} --name {{NAME}}; fi',
    config: { files: '{}', startup: '{"done":"ready"}', logs: '{}', stop: 'quit' },
    variables: [{ name: 'Name', env_variable: 'NAME', default_value: "it's", rules: 'required|string' }],
  });
  const { template, unmapped } = importEggText(text);
  t.is(template.start.command, `bash -c 'if [ -f custom.sh ]; then ./custom.sh; else ./server --port \${SERVER_PORT} --name \${NAME}; fi'`);
  t.is(template.start.env?.NAME, '{{NAME}}');
  t.is(template.start.env?.SERVER_PORT, '{{GAME_PORT}}');
  t.true(has(unmapped, 'runs with bash -c'));
});

test('a document that is not an egg is refused naming why; an unknown format version is named', (t) => {
  const refused = (text: string) => t.throws(() => importEggText(text), { instanceOf: EggFormatError });
  t.regex(refused('').message, /empty/);
  t.regex(refused('{ not json').message, /not valid JSON/);
  t.regex(refused('- a\n- b\n').message, /must be an egg/);
  t.regex(
    refused(JSON.stringify({ meta: { version: 'PTDL_v9' }, name: 'x', startup: 'x' })).message,
    /one of PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2, PLCN_v3 \(this document says PTDL_v9\)/,
  );
  const missing = refused(JSON.stringify({ meta: { version: 'PTDL_v2' } }));
  t.deepEqual((missing as EggFormatError).problems.map((problem) => problem.field).sort(), ['name', 'startup']);
  t.regex(refused(JSON.stringify({ meta: { version: 'PTDL_v2' }, name: 'x', startup: 'x', config: { files: '{oops' } })).message, /config.files/);
  t.regex(refused('name: [unclosed\n').message, /neither JSON nor YAML/);
  // Aliases are bounded: a document of nested aliases ("billion laughs") is refused, not expanded.
  const laughs = [
    'a: &a [x, x, x, x, x, x, x, x, x, x]',
    ...'bcdefghij'.split('').map((key, index) => `${key}: &${key} [${Array(10).fill(`*${'abcdefghij'[index]}`).join(', ')}]`),
  ];
  t.regex(refused(laughs.join('\n')).message, /neither JSON nor YAML/);
});

test('Laravel rules: a pipe inside regex: stays in the pattern; bounds follow the type; what has no check here is named', (t) => {
  t.deepEqual(splitRules('required|regex:/^(a|b)$/|max:20'), ['required', 'regex:/^(a|b)$/', 'max:20']);
  t.deepEqual(splitRules(['required', ' string ']), ['required', 'string']);
  t.like(mapRules(['required', 'string', 'max:20', 'min:3']), { type: 'string', minLength: 3, maxLength: 20 });
  // A case-insensitive pattern ending in a lone backslash is reported, not a crash (it was a 500 on import).
  const lone = mapRules(['required', 'regex:/abc\\/i']);
  t.is(lone.pattern, undefined);
  t.true(lone.unmapped.some((line) => /regex/.test(line)));
  t.like(mapRules(['integer', 'between:1,100']), { type: 'integer', min: 1, max: 100 });
  t.like(mapRules(['digits:5']), { pattern: '^\\d{5,5}$' });
  t.is(mapRules(['regex:/^\\A[a-z]+\\z$/']).pattern, '^^[a-z]+$$');
  t.true(has(mapRules(['regex:/^(a+)\\1$/']).unmapped, 'not checked'), 'a backreference cannot run in linear time');
  // The i flag, which the linear engine does not take, becomes letters of both cases.
  const caseless = mapRules(['regex:/^ab[c-e]$/i']).pattern!;
  t.is(caseless, '^[aA][bB][c-eC-E]$');
  t.true(linearRegExp(caseless).test('AbD'));
  t.false(linearRegExp(caseless).test('abf'));
  t.true(has(mapRules(['url']).unmapped, 'url: no such check here'));
});

test('install scripts: package lines (continued, in conditions, apk/yum) are not run and the packages listed; tools found at command positions only', (t) => {
  const adapted = adaptInstallScript(
    [
      '#!/bin/bash',
      'echo "we use curl later"   # a word in a string is not a command',
      'yum install -y unzip',
      'DEBIAN_FRONTEND=noninteractive apt-get install -y \\',
      '   wget  \\',
      '   xz-utils',
      'cat > /mnt/server/run.sh <<EOF',
      'tar -x',
      'EOF',
      'VERSION=$(curl -s https://example.org/v | jq -r .v) && unzip -o x.zip -d /mnt/server',
      'cd /mnt/server/game && ./steamcmd.sh +quit',
    ].join('\n'),
    'bash',
  );
  t.deepEqual(adapted.packages, ['unzip', 'wget', 'xz-utils']);
  t.is(adapted.skipped.length, 2);
  t.deepEqual(adapted.tools, ['bash', 'curl', 'jq', 'unzip']);
  t.false(adapted.script.includes('/mnt/server'));
  t.true(adapted.script.includes('cat > ${SERVER_DIR}/run.sh <<EOF'));
});

test('any egg-shaped document gives a valid template or a clear refusal, never another error', (t) => {
  const documents = ['ptdl-v1.json', 'ptdl-v2.json', 'plcn-v1.json'].map((file) => JSON.parse(egg(file)) as Record<string, unknown>);
  const values: unknown[] = [
    null,
    0,
    1,
    -1,
    true,
    '',
    ' ',
    '\u0000',
    'x'.repeat(5000),
    '^',
    '^^C',
    'regex:(',
    '{{',
    '}}{{x}}',
    [],
    {},
    [1, 'a'],
    { a: 1 },
    '\n\n',
  ];
  let seed = 7;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  /** Replaces one value somewhere in the document (walking into objects and arrays). */
  const mutate = (value: unknown, depth: number): unknown => {
    if (depth > 0 && value !== null && typeof value === 'object') {
      const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
      const keys = Object.keys(copy);
      if (keys.length > 0) {
        const key = keys[random(keys.length)]!;
        copy[key] = mutate(copy[key], depth - 1);
        return copy;
      }
    }
    return values[random(values.length)];
  };
  let imported = 0;
  for (let round = 0; round < 600; round += 1) {
    const document = mutate(documents[round % documents.length], 1 + random(4));
    try {
      const { template } = importEggText(JSON.stringify(document));
      t.true(templateDocument.safeParse(template).success);
      imported += 1;
    } catch (error) {
      if (!(error instanceof EggFormatError)) t.fail(`${(error as Error).stack} for ${JSON.stringify(document).slice(0, 400)}`);
    }
  }
  t.true(imported > 100, `${imported} of 600 imported`);
});
