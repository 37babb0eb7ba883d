import test from 'ava';
import { buildLaunch, CommandLineError, expandPlaceholders, splitCommandLine, type ServerLaunchConfig } from '../../agent/runtime/commandLine.ts';

test('whitespace separates words; runs of blanks, tabs and newlines count once', (t) => {
  t.deepEqual(splitCommandLine('  java\t-Xmx2G   -jar server.jar\nnogui  '), ['java', '-Xmx2G', '-jar', 'server.jar', 'nogui']);
  t.deepEqual(splitCommandLine(''), []);
  t.deepEqual(splitCommandLine('   '), []);
});

test('single quotes are literal, including backslashes and double quotes', (t) => {
  t.deepEqual(splitCommandLine(`echo 'a  b' 'c\\d' 'say "hi"'`), ['echo', 'a  b', 'c\\d', 'say "hi"']);
});

test('double quotes keep spaces and honour only \\" and \\\\', (t) => {
  t.deepEqual(splitCommandLine(String.raw`run "a b" "q\"x" "back\\slash" "keep\n"`), ['run', 'a b', 'q"x', 'back\\slash', 'keep\\n']);
});

test('quotes glue onto adjacent text and empty quotes make an empty argument', (t) => {
  t.deepEqual(splitCommandLine(`--name="My Server" pre'fix'post "" ''`), ['--name=My Server', 'prefixpost', '', '']);
});

test('a backslash outside quotes escapes the next character; backslash-newline joins lines', (t) => {
  t.deepEqual(splitCommandLine(String.raw`a\ b \"c\" d\\e`), ['a b', '"c"', 'd\\e']);
  t.deepEqual(splitCommandLine('java \\\n  -jar x.jar'), ['java', '-jar', 'x.jar']);
});

test('shell syntax is not interpreted', (t) => {
  t.deepEqual(splitCommandLine('./start.sh; rm -rf / $(id) | tee > out &'), ['./start.sh;', 'rm', '-rf', '/', '$(id)', '|', 'tee', '>', 'out', '&']);
});

test('an unterminated quote or a trailing backslash is an error that names it', (t) => {
  const single = t.throws(() => splitCommandLine("run 'oops"), { instanceOf: CommandLineError });
  t.regex(single.message, /unterminated single quote/);
  const double = t.throws(() => splitCommandLine('run "oops \\"'), { instanceOf: CommandLineError });
  t.regex(double.message, /unterminated double quote \("\) at position 4/);
  t.throws(() => splitCommandLine('run \\'), { message: /lone backslash/ });
});

test('placeholders are replaced; unknown ones are errors that list the known names', (t) => {
  const values = { GAME_PORT: '27015', SERVER_NAME: 'A B' };
  t.is(expandPlaceholders('-port={{GAME_PORT}} {{ GAME_PORT }}', values), '-port=27015 27015');
  t.is(expandPlaceholders('no placeholders {here}', values), 'no placeholders {here}');
  const error = t.throws(() => expandPlaceholders('{{GAME_PROT}}', values), { instanceOf: CommandLineError });
  t.regex(error.message, /unknown placeholder \{\{GAME_PROT\}\}/);
  t.regex(error.message, /\{\{GAME_PORT\}\}, \{\{SERVER_NAME\}\}/);
  t.throws(() => expandPlaceholders('{{toString}}', values), { message: /unknown placeholder/ });
});

const server: ServerLaunchConfig = {
  id: '01900000-0000-7000-8000-000000000001',
  name: 'My "Best" Server; rm -rf /',
  gamePort: 27015,
  queryPort: 27016,
  rconPort: 27017,
  rconPassword: 'p@ss word',
  maxPlayers: 50,
  startCommand: `./srv -name "{{SERVER_NAME}}" +port {{GAME_PORT}} -q={{QUERY_PORT}} -rcon {{RCON_PORT}} {{RCON_PASSWORD}} -max {{MAX_PLAYERS}} --id {{SERVER_ID}} --dir '{{SERVER_DIR}}'`,
  env: { GAME_MODE: 'pvp', GAME_PORT: '1' },
};

test('buildLaunch splits before expanding, so values with spaces or quotes stay one argument', (t) => {
  const launch = buildLaunch(server, '/data/servers/x');
  t.is(launch.command, './srv');
  t.deepEqual(launch.args, [
    '-name',
    'My "Best" Server; rm -rf /',
    '+port',
    '27015',
    '-q=27016',
    '-rcon',
    '27017',
    'p@ss word',
    '-max',
    '50',
    '--id',
    server.id,
    '--dir',
    '/data/servers/x',
  ]);
});

test('buildLaunch sets the placeholders as env, after the server env, and inherits only a safe few variables', (t) => {
  process.env.GSM_TEST_SECRET = 'agent token';
  try {
    const { env } = buildLaunch(server, '/data/servers/x');
    t.is(env.GAME_MODE, 'pvp');
    t.is(env.GAME_PORT, '27015', 'the managed port wins over env');
    t.is(env.QUERY_PORT, '27016');
    t.is(env.RCON_PORT, '27017');
    t.is(env.RCON_PASSWORD, 'p@ss word');
    t.is(env.MAX_PLAYERS, '50');
    t.is(env.SERVER_NAME, server.name);
    t.is(env.SERVER_ID, server.id);
    t.is(env.SERVER_DIR, '/data/servers/x');
    t.is(env.PATH, process.env.PATH as string);
    t.false('GSM_TEST_SECRET' in env);
  } finally {
    delete process.env.GSM_TEST_SECRET;
  }
});

test('buildLaunch accepts adapter placeholders and rejects bad commands and env', (t) => {
  const minecraft = { ...server, startCommand: 'java -Xmx{{MEMORY_MB}}M -jar server.jar nogui', env: null };
  t.deepEqual(buildLaunch(minecraft, '/d', { MEMORY_MB: '2048' }).args, ['-Xmx2048M', '-jar', 'server.jar', 'nogui']);
  t.throws(() => buildLaunch(minecraft, '/d'), { message: /unknown placeholder \{\{MEMORY_MB\}\}/ });
  t.throws(() => buildLaunch({ ...server, startCommand: null }, '/d'), { message: /startCommand is empty/ });
  t.throws(() => buildLaunch({ ...server, startCommand: '  ' }, '/d'), { message: /startCommand is empty/ });
  t.throws(() => buildLaunch({ ...server, startCommand: '"" x' }, '/d'), { message: /no command to run/ });
  t.throws(() => buildLaunch({ ...server, env: { 'BAD=NAME': 'x' } }, '/d'), { message: /not a valid variable name/ });
  t.throws(() => buildLaunch({ ...server, env: { OK: 'a\0b' } }, '/d'), { message: /NUL/ });
});
