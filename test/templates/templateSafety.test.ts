/**
 * What a template may not do with its values (docs/templates.md#secret-variables): a secret on a command line (start
 * command, SteamCMD branch) or in a download URL, a placeholder inside the script of `sh -c` and the like, and one in
 * a config file path other than the server's id.
 */
import test from 'ava';
import { templateDocument, type TemplateInput } from '../../schema/template.ts';

const base = (changes: Partial<TemplateInput>): TemplateInput => ({
  id: 'check',
  name: 'check',
  variables: [
    { name: 'TOKEN', label: 'Token', default: '', secret: true },
    { name: 'MAP', label: 'Map', default: 'de_dust2' },
  ],
  start: { command: 'true' },
  ready: { mode: 'IMMEDIATE' },
  stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
  console: { mode: 'NONE' },
  ports: [{ name: 'game', protocol: 'tcp' }],
  ...changes,
});

const messages = (input: TemplateInput) => {
  const parsed = templateDocument.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

test('a secret variable is refused on the start command line and passes in start.env', (t) => {
  t.regex(messages(base({ start: { command: './srcds +sv_setsteamaccount {{TOKEN}}' } })).join('\n'), /start\.command: \{\{TOKEN\}\} is secret/);
  t.deepEqual(messages(base({ start: { command: './server +map {{MAP}}', env: { TOKEN: '{{TOKEN}}' } } })), []);
});

test('a secret variable is refused in a download URL and a SteamCMD branch', (t) => {
  const found = messages(
    base({
      install: {
        steps: [
          { type: 'download', url: 'https://example.com/get?key={{TOKEN}}', path: 'a.zip' },
          { type: 'steamcmd', appId: 10, branch: '{{TOKEN}}' },
        ],
      },
    }),
  ).join('\n');
  t.regex(found, /install\.steps\.0\.url: \{\{TOKEN\}\} is secret/);
  t.regex(found, /install\.steps\.1\.branch: \{\{TOKEN\}\} is secret/);
});

test('a placeholder inside the script of sh -c (and other interpreters) is refused; arguments after it are fine', (t) => {
  for (const command of [
    "sh -c 'exec ./server --map {{MAP}}'",
    "bash -lc 'echo {{MAP}}'",
    '/usr/bin/env python3 -c \'print("{{MAP}}")\'',
    'node -e \'console.log("{{MAP}}")\'',
    "env A=1 dash -c './x {{MAP}}'",
  ])
    t.regex(messages(base({ start: { command } })).join('\n'), /no \{\{placeholder\}\} inside the script/, command);
  t.deepEqual(messages(base({ start: { command: `sh -c 'exec ./server --map "$1"' server {{MAP}}` } })), []);
  t.deepEqual(messages(base({ start: { command: './server -c {{MAP}}' } })), []);
});

test('a config file path takes {{SERVER_ID}} and no other placeholder (a value could lead it elsewhere)', (t) => {
  const file = (path: string) => ({ path, format: 'cfg' as const, set: { rcon_password: '{{RCON_PASSWORD}}' } });
  t.deepEqual(messages(base({ configFiles: [file('server/{{SERVER_ID}}/cfg/server.cfg')] })), []);
  t.regex(
    messages(base({ configFiles: [file('{{MAP}}/cfg/server.cfg')] })).join('\n'),
    /configFiles\.0\.path: a config file path takes no placeholder but \{\{SERVER_ID\}\}/,
  );
});
