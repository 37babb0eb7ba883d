/**
 * The agent's template parts on their own: config-file patches in each format (every other line kept), command
 * templates filled (line breaks removed, quoted when asked), player lists read (pattern and JSON), join/leave lines
 * of the built-in Minecraft template with the UUID remembered from its identify line (offline UUIDs ignored); the
 * secrets an install's messages hide.
 */
import test from 'ava';
import { patchText } from '../../agent/servers/configFiles.ts';
import { fillCommand, parsePlayerList, templateAdapter } from '../../agent/games/template.ts';
import { loadCatalogue } from '../../orchestrator/templates/catalogue.ts';
import { resolveTemplate } from '../../orchestrator/templates/resolve.ts';
import { serverSpec, type TemplatedServerRow } from '../../orchestrator/templates/spec.ts';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { configFile, templateDocument } from '../../schema/template.ts';
import { splitCommandLine } from '../../schema/commandLine.ts';

test('properties: keys replaced in place, missing ones appended, comments kept', (t) => {
  t.is(
    patchText({ format: 'properties', set: { 'server-port': '25570', motd: 'hi' } }, '#c\nserver-port=25565\nlevel=world\n'),
    '#c\nserver-port=25570\nlevel=world\nmotd=hi\n',
  );
  t.is(patchText({ format: 'properties', set: { a: '1' } }, ''), 'a=1\n');
});

test('ini: section.key set in its section, a missing section added', (t) => {
  const text = '[ServerSettings]\nMaxPlayers=10\n\n[Other]\nx=1\n';
  t.is(
    patchText({ format: 'ini', set: { 'ServerSettings.MaxPlayers': '20', 'ServerSettings.Password': 'p', 'New.k': 'v' } }, text),
    '[ServerSettings]\nMaxPlayers=20\nPassword=p\n\n[Other]\nx=1\n[New]\nk=v\n',
  );
});

test('json: dotted paths, numbers and booleans typed', (t) => {
  t.deepEqual(JSON.parse(patchText({ format: 'json', set: { 'game.port': '7777', 'game.name': 'x', public: 'true' } }, '{"keep":1,"game":{"port":1}}')), {
    keep: 1,
    game: { port: 7777, name: 'x' },
    public: true,
  });
});

test('yaml: nested keys replaced or added under their parent, other lines kept', (t) => {
  const text = 'server:\n  port: 1\n  # comment\n  name: old\nother: 2\n';
  t.is(
    patchText({ format: 'yaml', set: { 'server.port': '7777', 'server.motd': 'hello world', top: 'x' } }, text),
    'server:\n  port: 7777\n  # comment\n  name: old\n  motd: hello world\nother: 2\ntop: x\n',
  );
});

test('xml: element text and attributes; a missing path is an error', (t) => {
  const text = '<Config><Server port="1"><Name>old</Name></Server></Config>';
  t.is(
    patchText({ format: 'xml', set: { 'Config/Server/Name': 'a<b', 'Config/Server/@port': '7777' } }, text),
    '<Config><Server port="7777"><Name>a&lt;b</Name></Server></Config>',
  );
  t.throws(() => patchText({ format: 'xml', set: { 'Config/Nope': 'x' } }, text), { message: /no element Nope/ });
});

test('replace: plain text everywhere', (t) => {
  t.is(patchText({ format: 'replace', replace: [{ find: '$PORT', replace: '7777' }] }, 'a $PORT b $PORT'), 'a 7777 b 7777');
});

test('command templates: placeholders filled on one line, quoted when asked', (t) => {
  t.is(fillCommand('kick {{PLAYER_NAME}} {{REASON}}', { PLAYER_NAME: 'Steve', REASON: 'bad\nop Steve' }), 'kick Steve bad op Steve');
  t.is(fillCommand('say {{MESSAGE}}', { MESSAGE: 'a "b" \\c' }, true), 'say "a \\"b\\" \\\\c"');
});

test('player lists: a pattern over the answer line, or JSON', (t) => {
  const minecraft = loadCatalogue().templates.get('minecraft-vanilla')!;
  const list = minecraft.console.commands.list!;
  t.deepEqual(
    parsePlayerList(
      '[12:00:00] [Server thread/INFO]: There are 2 of a max of 20 players online: Steve (11111111-1111-4111-8111-111111111111), Alex',
      list.parse,
    ),
    [
      { steamId: '11111111-1111-4111-8111-111111111111', username: 'Steve' },
      { steamId: 'Alex', username: 'Alex' },
    ],
  );
  t.deepEqual(
    parsePlayerList('{"server":{"clients":[{"steamid64":"7656","name":"A","ping":5},{"steamid64":"1","name":"bot","bot":true}]}}', {
      format: 'JSON',
      path: ['server', 'clients'],
      id: 'steamid64',
      name: 'name',
      ping: 'ping',
      skip: 'bot',
    }),
    [{ steamId: '7656', username: 'A', ping: 5 }],
  );
});

test('the built-in Minecraft template on the agent: joins keyed by the UUID printed before them, offline UUIDs by name, chat never', (t) => {
  const document = loadCatalogue().templates.get('minecraft-vanilla')!;
  const server = {
    id: 's',
    name: 'mc',
    gameType: 'MINECRAFT',
    gamePort: 25565,
    queryPort: 25566,
    rconPort: 25575,
    rconPassword: 'pw',
    maxPlayers: 20,
    desiredStatus: 'RUNNING',
    autoRestart: true,
    startCommand: null,
    env: null,
  } satisfies ServerConfig;
  const resolved = { ...server, ...resolveTemplate(document, server) };
  t.is(resolved.startCommand, 'java -Xmx{{MEMORY_MB}}M -jar server.jar nogui');
  t.deepEqual(resolved.template.configFiles[0]?.set, { 'server-port': '25565', 'query.port': '25566', 'enable-query': 'true', 'max-players': '20' });
  const parse = templateAdapter(resolved).playerLineParser();
  t.is(parse('[12:00:00] [User Authenticator #1/INFO]: UUID of player Steve is 11111111-1111-4111-8111-111111111111'), null);
  t.deepEqual(parse('[12:00:01] [Server thread/INFO]: Steve joined the game'), {
    kind: 'join',
    steamId: '11111111-1111-4111-8111-111111111111',
    username: 'Steve',
  });
  t.is(parse('[12:00:02] [Server thread/INFO]: <Steve> Alex joined the game'), null);
  parse('[12:00:03] [User Authenticator #2/INFO]: UUID of player Alex is 22222222-2222-3222-8222-222222222222');
  t.deepEqual(parse('[12:00:04] [Server thread/INFO]: Alex joined the game'), { kind: 'join', steamId: 'Alex', username: 'Alex' });
  t.deepEqual(parse('[12:00:05] [Server thread/INFO]: Steve left the game'), {
    kind: 'leave',
    steamId: '11111111-1111-4111-8111-111111111111',
    username: 'Steve',
  });
});

test('cfg (a Source console config): a cvar set in place whatever its case, the rest of its line and comments kept, a missing one added; a quote refused', (t) => {
  const text = '// rcon_password "in a comment"\nhostname "My server"\nRCON_PASSWORD old;echo x\nsv_cheats 0\n';
  t.is(
    patchText({ format: 'cfg', set: { rcon_password: 'new-pass', sv_lan: '0' } }, text),
    '// rcon_password "in a comment"\nhostname "My server"\nrcon_password "new-pass";echo x\nsv_cheats 0\nsv_lan "0"\n',
  );
  t.is(patchText({ format: 'cfg', set: { rcon_password: 'p' } }, ''), 'rcon_password "p"\n');
  // Only the cvar's own command changes: other commands after `;` and a trailing comment stay, `;` and `//` inside
  // quotes are the old value's.
  t.is(
    patchText(
      { format: 'cfg', set: { rcon_password: 'new-pass', hostname: 'Mine', sv_lan: '1' } },
      '  rcon_password "a;b//c"; exec other.cfg // keep\nhostname "x" // the name\nsv_lan 0;sv_cheats 0\n',
    ),
    '  rcon_password "new-pass"; exec other.cfg // keep\nhostname "Mine" // the name\nsv_lan "1";sv_cheats 0\n',
  );
  t.throws(() => patchText({ format: 'cfg', set: { rcon_password: 'a";quit;"' } }, text), { message: /holds a "/ });
});

test('a JSON config key naming __proto__, prototype or constructor is refused: the root agent process is never polluted', (t) => {
  for (const key of ['__proto__.LD_PRELOAD', 'a.__proto__.x', 'constructor.prototype.y', 'prototype']) {
    t.throws(() => patchText({ format: 'json', set: { [key]: '/tmp/evil.so' } }, '{}'), { message: /prototype/ });
  }
  // An own key of that name in the file is not a way in either: the walk only follows the file's own properties.
  t.deepEqual(JSON.parse(patchText({ format: 'json', set: { 'toString.x': '1' } }, '{}')), { toString: { x: 1 } });
  t.is(({} as Record<string, unknown>).LD_PRELOAD, undefined);
  t.is(({} as Record<string, unknown>).x, undefined);
  // And the template format refuses them before anything reaches an agent.
  for (const key of ['__proto__.LD_PRELOAD', 'a.constructor', 'x/prototype/@y']) {
    t.false(configFile.safeParse({ path: 'x.json', format: 'json', set: { [key]: '1' } }).success, key);
  }
  t.true(configFile.safeParse({ path: 'x.json', format: 'json', set: { 'a.b': '1' } }).success);
});

test('config keys are found in one pass over a line: a long line without a separator is kept, and finishes at once', (t) => {
  const long = `x${' '.repeat(200_000)}y`;
  // With the backtracking patterns these took minutes (quadratic in the line); ava's time-out would end the test.
  t.is(patchText({ format: 'properties', set: { a: '1' } }, `${long}\n  # c\nkey with space = 2\n`), `${long}\n  # c\nkey with space = 2\na=1\n`);
  t.is(patchText({ format: 'properties', set: { 'key with space': '3' } }, 'key with space : 2\n'), 'key with space=3\n');
  t.is(patchText({ format: 'ini', set: { 'S.k': 'v' } }, `[S]\n${long}\nk = old\n`), `[S]\n${long}\nk=v\n`);
  t.throws(() => patchText({ format: 'xml', set: { 'a/b': 'x' } }, `<a ${'<a '.repeat(100_000)}`), { message: /no element/ });
  t.is(patchText({ format: 'xml', set: { 'a/@p': '1' } }, '<ab/><a/>'), '<ab/><a p="1"/>');
});

test('the start command is split before values are filled in: a value with spaces, quotes or ; stays one argument', (t) => {
  const template = templateDocument.parse({
    id: 'argv',
    name: 'Argv',
    variables: [{ name: 'MOTD', default: '' }],
    start: { command: `./game --motd {{MOTD}} "--name={{SERVER_NAME}}" --dir {{SERVER_DIR}} -Xmx{{MEMORY_MB}}M 'it''s'` },
    ready: { mode: 'IMMEDIATE' },
    stop: { mode: 'SIGNAL', signal: 'SIGINT' },
    console: { mode: 'NONE' },
    ports: [{ name: 'game', protocol: 'udp' }],
  });
  const server = {
    id: 's1',
    name: `My "best" server; rm -rf /`,
    gamePort: 27015,
    queryPort: 27016,
    rconPort: 27017,
    rconPassword: 'pw',
    maxPlayers: 10,
    version: null,
    acceptEula: false,
    startCommand: null,
    env: null,
    variables: { MOTD: `hello  world 'quoted' $(x) \\n` },
  };
  const resolved = resolveTemplate(template, server as never);
  t.deepEqual(splitCommandLine(resolved.startCommand!), [
    './game',
    '--motd',
    `hello  world 'quoted' $(x) \\n`,
    `--name=My "best" server; rm -rf /`,
    '--dir',
    '{{SERVER_DIR}}',
    '-Xmx{{MEMORY_MB}}M',
    'its',
  ]);
  // A start command that cannot be split is refused when the template is written.
  t.false(templateDocument.safeParse({ ...template, start: { command: `./game 'unterminated` } }).success);
});

test("what an install says hides the server's stored secrets, also one its template now declares plain", (t) => {
  const document = {
    id: 'plain-token',
    name: 'Plain token',
    variables: [
      { name: 'TOKEN', default: '' },
      { name: 'PASS', default: 'default-pass', secret: true },
    ],
    start: { command: './game' },
    ready: { mode: 'IMMEDIATE' },
    stop: { mode: 'SIGNAL', signal: 'SIGINT' },
    console: { mode: 'NONE' },
    ports: [{ name: 'game', protocol: 'udp' }],
    install: { steps: [{ type: 'script', script: 'echo "$TOKEN"', env: { TOKEN: '{{TOKEN}}' } }] },
  };
  const row = {
    id: '00000000-0000-4000-8000-000000000001',
    name: 's',
    gameType: 'CUSTOM',
    gamePort: 27015,
    queryPort: 27016,
    rconPort: 27017,
    rconPassword: 'pw',
    maxPlayers: 10,
    desiredStatus: 'STOPPED',
    autoRestart: true,
    startCommand: null,
    env: null,
    templateId: '00000000-0000-4000-8000-000000000002',
    variables: {},
    // Stored as a secret when an earlier template declared it so: it stays one.
    secretVariables: { TOKEN: 'stored-token-value' },
    clusterTemplate: { id: '00000000-0000-4000-8000-000000000002', version: 1, document },
  } satisfies TemplatedServerRow;
  const spec = serverSpec(row);
  t.deepEqual([...(spec.template?.secrets ?? [])].sort(), ['default-pass', 'stored-token-value']);
});
