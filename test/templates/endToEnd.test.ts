/**
 * A server from a cluster template, end to end with the real agent (docs/templates.md): the template is made through
 * the API, the server installs its game by a download step from a local HTTP server (checked by its sha256), gets its
 * config file patched before the start, is ONLINE by its ready line, shows the player of a join line (and not the one
 * a chat line pretends), stops by its console command, and says which template version it ran. Secret variables are
 * never returned; a variable that breaks its rule is a 400 naming it.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../support/wait.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';

/**
 * The game: plain JavaScript, no imports. Prints its ready line, then a chat line shaped like a join, then a real join;
 * reads game.properties (written by the template's patch) and prints its motd; exits 0 on `shutdown` only (SIGTERM
 * would end it by the signal: a stop that was not the console command shows).
 */
const GAME = `
const fs = require('node:fs');
const now = () => new Date().toISOString().slice(11, 19);
const say = (level, text) => process.stdout.write('[' + now() + ' ' + level + '] ' + text + '\\n');
const props = fs.readFileSync('game.properties', 'utf8');
say('INFO', 'motd is ' + (/^motd=(.*)$/m.exec(props) || [])[1]);
say('INFO', 'Server ready');
setTimeout(() => say('CHAT', '<Bob> [00:00:00 INFO] Player Eve joined (id 666)'), 100);
setTimeout(() => say('INFO', 'Player Alice joined (id 76561198000000001)'), 200);
process.stdin.setEncoding('utf8');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\\n')) !== -1) {
    const line = buffer.slice(0, at).trim();
    buffer = buffer.slice(at + 1);
    if (line === 'shutdown') { say('INFO', 'Stopping'); setTimeout(() => process.exit(0), 20); }
    else if (line.startsWith('say ')) say('INFO', 'Broadcast: ' + line.slice(4));
  }
});
setInterval(() => {}, 1000);
`;
const GAME_SHA256 = createHash('sha256').update(GAME).digest('hex');

let app: GatewayApp;
let owner: TestUser;
let files: Server;
let filesUrl: string;
let downloads = 0;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000 });
  owner = await signUp(app);
  files = createServer((request, response) => {
    if (request.url !== '/game.cjs') return void response.writeHead(404).end();
    downloads += 1;
    response.writeHead(200, { 'content-type': 'application/javascript' }).end(GAME);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
  files?.close();
});

const template = (downloadUrl: string) => ({
  id: 'tiny-game',
  name: 'Tiny game',
  gameType: 'CUSTOM',
  tags: ['test'],
  variables: [
    { name: 'MOTD', description: 'Message of the day', default: 'hello', validation: { type: 'string', maxLength: 20 }, userEditable: true },
    { name: 'NODE_BIN', default: process.execPath },
    { name: 'ADMIN_PASSWORD', default: '', secret: true, validation: { type: 'string', minLength: 8 } },
  ],
  // Started in its working directory (server.cjs and game.properties are read from there).
  start: { command: '{{NODE_BIN}} server.cjs', workingDirectory: 'game' },
  ready: { mode: 'LINE', pattern: String.raw`^\[\d{2}:\d{2}:\d{2} INFO\] Server ready$`, timeoutSeconds: 60 },
  stop: { mode: 'COMMAND', command: 'shutdown', graceSeconds: 20 },
  console: { mode: 'STDIN', commands: { broadcast: { command: 'say {{MESSAGE}}' } } },
  players: {
    join: String.raw`^\[\d{2}:\d{2}:\d{2} INFO\] Player (?<name>\w{1,16}) joined \(id (?<id>\d{1,16}\d{0,4})\)$`,
    leave: String.raw`^\[\d{2}:\d{2}:\d{2} INFO\] Player (?<name>\w{1,16}) left \(id (?<id>\d{1,16}\d{0,4})\)$`,
  },
  samples: {
    ready: ['[12:00:00 INFO] Server ready'],
    join: [{ line: '[12:00:00 INFO] Player Alice joined (id 76561198000000001)', name: 'Alice', id: '76561198000000001' }],
    chat: ['[12:00:00 CHAT] <Bob> [00:00:00 INFO] Player Eve joined (id 666)'],
  },
  install: { steps: [{ type: 'download', url: downloadUrl, path: 'game/server.cjs', sha256: GAME_SHA256 }] },
  configFiles: [{ path: 'game/game.properties', format: 'properties', set: { motd: '{{MOTD}}', port: '{{GAME_PORT}}' } }],
  files: { wipe: ['world'] },
  ports: [
    { name: 'game', protocol: 'tcp' },
    { name: 'query', protocol: 'udp', offset: 1 },
  ],
  sources: [{ fact: 'everything', note: 'this test' }],
});

/** The first value `check` answers (not undefined) within `timeoutMs`. */
async function poll<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  let value: T | undefined;
  await until(async () => (value = await check()) !== undefined, what, timeoutMs);
  return value!;
}

type ServerRecord = Record<string, unknown> & {
  status: string;
  lastExitCode: number | null;
  variables: Record<string, string>;
  secretVariables: Record<string, boolean>;
};

test.serial(
  'a server from a cluster template installs by download, starts, is ONLINE by its ready line, shows its player and stops by its command',
  async (t) => {
    const { clusterId, machineId, token } = await registerMachine(app, owner);
    const agent = await startAgent({ url: app.url, machineId, token });
    agents.push(agent);
    const request = (path: string, init?: Parameters<typeof app.request>[1]) => app.request(path, { ...init, headers: { ...init?.headers, ...owner.auth } });

    // The template, made through the API; a broken one is a 400 naming its field.
    const broken = await app.request(`/api/v1/clusters/${clusterId}/templates`, json({ ...template('{{NOPE}}') }, { headers: owner.auth }));
    t.is(broken.status, 400);
    t.regex(JSON.stringify(await body(broken)), /install\.steps\.0\.url.*unknown placeholder \{\{NOPE\}\}/);
    const made = await app.request(`/api/v1/clusters/${clusterId}/templates`, json(template(`${filesUrl}/game.cjs`), { headers: owner.auth }));
    t.is(made.status, 201, JSON.stringify(await body(made.clone())));
    const created = (await body(made)) as { id: string; version: number; builtIn: boolean };
    t.is(created.version, 1);
    t.false(created.builtIn);
    const listed = (await body(await request(`/api/v1/templates?tag=test`))) as { data: { id: string }[] };
    t.deepEqual(
      listed.data.map((entry) => entry.id),
      [created.id],
    );

    const [gamePort, queryPort, rconPort] = await freePorts(3);
    const fields = { name: 'tiny', machineId, gameType: 'CUSTOM', templateId: created.id, gamePort, queryPort, rconPort };
    // A variable that breaks its rule: 400 naming it and the rule; an unknown one too.
    const tooLong = await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ ...fields, variables: { MOTD: 'x'.repeat(21) } }, { headers: owner.auth }),
    );
    t.is(tooLong.status, 400);
    t.like((await body(tooLong)).details as object, [{ field: 'variables.MOTD', message: 'MOTD must be at most 20 characters' }]);
    const unknown = await app.request(`/api/v1/clusters/${clusterId}/servers`, json({ ...fields, variables: { NOPE: '1' } }, { headers: owner.auth }));
    t.is(unknown.status, 400);

    const response = await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ ...fields, variables: { MOTD: 'welcome', ADMIN_PASSWORD: 'very-secret-1' } }, { headers: owner.auth }),
    );
    t.is(response.status, 201, JSON.stringify(await body(response.clone())));
    const server = (await body(response)) as ServerRecord & { id: string };
    // The secret is stored, never shown: only that it is set.
    t.deepEqual(server.variables, { MOTD: 'welcome' });
    t.deepEqual(server.secretVariables, { ADMIN_PASSWORD: true });
    t.false(JSON.stringify(server).includes('very-secret-1'));
    t.is(server.templateId, created.id);
    // Installed at once (the template has install steps): the download, checked by its sha256.
    const installJob = response.headers.get('GSM-Install-Job');
    t.truthy(installJob);
    const installed = await poll(
      async () => {
        const job = (await body(await request(`/api/v1/jobs/${installJob}`))) as { status: string; error: unknown };
        return job.status === 'SUCCEEDED' || job.status === 'FAILED' ? job : undefined;
      },
      'install job ends',
      60_000,
    );
    t.is(installed.status, 'SUCCEEDED', JSON.stringify(installed));
    t.is(downloads, 1);
    t.is(await readFile(`${agent.dataDir}/servers/${server.id}/game/server.cjs`, 'utf8'), GAME);

    // Started: ONLINE by its ready line; its config file patched first (the game printed the motd it read).
    const started = (await body(await request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST' }))) as { status: string };
    t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
    const online = (await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord;
    t.is(online.status, 'ONLINE');
    t.is(online.templateVersion, 1);
    const properties = await readFile(`${agent.dataDir}/servers/${server.id}/game/game.properties`, 'utf8');
    t.true(properties.includes('motd=welcome\n') && properties.includes(`port=${gamePort}\n`), properties);
    await until(async () => (await readFile(`${agent.dataDir}/logs/${server.id}/console.log`, 'utf8')).includes('motd is welcome'), 'the motd line');

    // Alice's join line counts; Eve's, inside a chat line, does not.
    const players = await poll(
      async () => {
        const answer = (await body(await request(`/api/v1/servers/${server.id}/players`))) as {
          players?: { username: string }[];
          data?: { username: string }[];
        };
        const list = answer.players ?? answer.data ?? [];
        return list.length > 0 ? list : undefined;
      },
      'a player online',
      20_000,
    );
    t.deepEqual(
      players.map((player) => player.username),
      ['Alice'],
    );

    // The template changes: the running server keeps the version it started with until its next start.
    const changed = await app.request(
      `/api/v1/clusters/${clusterId}/templates/${created.id}`,
      // Version 2 stops by a command the game ignores: the running server must still stop by version 1's `shutdown`.
      json(
        { ...template(`${filesUrl}/game.cjs`), name: 'Tiny game 2', stop: { mode: 'COMMAND', command: 'halt', graceSeconds: 1 } },
        { method: 'PATCH', headers: owner.auth },
      ),
    );
    t.is(changed.status, 200);
    t.is(((await body(changed)) as { version: number }).version, 2);
    t.like((await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord, { templateVersion: 1, templateLatestVersion: 2 });
    // A START of the running server starts nothing: it still runs version 1, and says so (its agent reports it).
    const again = (await body(await request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST' }))) as { status: string };
    t.is(again.status, 'SUCCEEDED', JSON.stringify(again));
    t.like((await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord, { status: 'ONLINE', templateVersion: 1, templateLatestVersion: 2 });
    // In use: not deletable.
    t.is((await request(`/api/v1/clusters/${clusterId}/templates/${created.id}`, { method: 'DELETE' })).status, 409);

    // Stopped by its console command: the game's own exit (code 0), not a signal.
    const stopped = (await body(await request(`/api/v1/servers/${server.id}/stop?wait=30`, { method: 'POST' }))) as { status: string };
    t.is(stopped.status, 'SUCCEEDED', JSON.stringify(stopped));
    const offline = (await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord;
    t.is(offline.status, 'OFFLINE');
    t.is(offline.lastExitCode, 0);
    t.true((await readFile(`${agent.dataDir}/logs/${server.id}/console.log`, 'utf8')).includes('] Stopping'));

    // The next start runs version 2.
    t.is(((await body(await request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST' }))) as { status: string }).status, 'SUCCEEDED');
    t.like((await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord, { templateVersion: 2, templateLatestVersion: 2 });

    // Given another template while it runs: it still runs the old one, so no version of the new one is claimed until
    // its next start runs it.
    const other = (await body(
      await app.request(`/api/v1/clusters/${clusterId}/templates`, json({ ...template(`${filesUrl}/game.cjs`), id: 'tiny-game-b' }, { headers: owner.auth })),
    )) as { id: string };
    const switched = await app.request(`/api/v1/servers/${server.id}`, json({ templateId: other.id }, { method: 'PATCH', headers: owner.auth }));
    t.is(switched.status, 200, JSON.stringify(await body(switched.clone())));
    t.like((await body(switched)) as ServerRecord, { status: 'ONLINE', templateId: other.id, templateVersion: null, templateLatestVersion: 1 });
    t.is(((await body(await request(`/api/v1/servers/${server.id}/stop?wait=30`, { method: 'POST' }))) as { status: string }).status, 'SUCCEEDED');
    t.like((await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord, { templateId: other.id, templateVersion: null });
    t.is(((await body(await request(`/api/v1/servers/${server.id}/start?wait=30`, { method: 'POST' }))) as { status: string }).status, 'SUCCEEDED');
    t.like((await body(await request(`/api/v1/servers/${server.id}`))) as ServerRecord, { templateId: other.id, templateVersion: 1 });
    t.is(((await body(await request(`/api/v1/servers/${server.id}/stop?wait=30`, { method: 'POST' }))) as { status: string }).status, 'SUCCEEDED');
  },
);

test.serial('a seed create with only gameType gets its built-in template', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const response = await app.request(
    `/api/v1/clusters/${clusterId}/servers`,
    json({ name: 'mc', machineId, gameType: 'MINECRAFT', gamePort, queryPort, rconPort, autoInstall: false }, { headers: owner.auth }),
  );
  t.is(response.status, 201);
  const server = (await body(response)) as ServerRecord;
  t.is(server.templateId, 'minecraft-vanilla');
  t.is(server.templateVersion, 3);
  t.is(server.maxPlayers, 20);
  const builtIn = (await body(await app.request('/api/v1/templates/minecraft-vanilla', { headers: owner.auth }))) as {
    builtIn: boolean;
    document: { start: { command: string } };
  };
  t.true(builtIn.builtIn);
  t.is(builtIn.document.start.command, 'java -Xmx{{MEMORY_MB}}M -jar server.jar nogui');
});
