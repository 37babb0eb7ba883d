/**
 * The "done means", end to end with the real agent and a fake game process: an egg written for this test
 * (PTDL_v2, an install script that uses curl and runs `apt`, a `done` text, a console stop command) is imported; a
 * server made from it installs (the script fetches the game from a local HTTP server, its `apt` lines not run), starts,
 * is ONLINE by its ready line, shows its players (join/leave lines added to the imported template, as the import's
 * answer says to), and stops gracefully with the egg's stop command. An egg whose script needs a program the machine
 * lacks fails its INSTALL at once, naming it.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { FAKE_SERVER_PATH } from '../support/fakeGame.ts';
import { freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

/** An egg as the panels export it (PTDL_v2: config sections as JSON text), written for this test. */
function fakeEgg(name: string, script: string, downloadUrl: string) {
  return JSON.stringify({
    _comment: 'Written for this project’s end-to-end test',
    meta: { version: 'PTDL_v2', update_url: null },
    name,
    author: 'tests@example.org',
    description: 'The fake game server, as an egg.',
    features: [],
    docker_images: { Node: 'ghcr.io/example/node:24' },
    file_denylist: [],
    startup: '{{NODE_BIN}} fake-game.ts',
    config: {
      files: '{}',
      startup: JSON.stringify({ done: 'Server ready' }),
      logs: '{}',
      stop: 'quit',
    },
    scripts: { installation: { script, container: 'ghcr.io/example/installers:debian', entrypoint: 'bash' } },
    variables: [
      {
        name: 'Node',
        description: 'The node binary.',
        env_variable: 'NODE_BIN',
        default_value: process.execPath,
        user_viewable: true,
        user_editable: false,
        rules: 'required|string',
      },
      {
        name: 'Download',
        description: 'Where the game is.',
        env_variable: 'DOWNLOAD_URL',
        default_value: downloadUrl,
        user_viewable: true,
        user_editable: false,
        rules: 'required|string|max:200',
      },
      {
        name: 'No RCON',
        description: 'The fake game without RCON.',
        env_variable: 'FAKE_NO_RCON',
        default_value: '1',
        user_viewable: false,
        user_editable: false,
        rules: 'required|boolean',
      },
    ],
  });
}

async function createServer_(clusterId: string, machineId: string, templateId: string, name: string) {
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const response = await app.request(
    `/api/v1/clusters/${clusterId}/servers`,
    json({ name, gameType: 'CUSTOM', machineId, gamePort, queryPort, rconPort, templateId, autoInstall: false }, { headers: owner.auth }),
  );
  const server = await body(response);
  if (response.status !== 201) throw new Error(JSON.stringify(server));
  return server as { id: string; templateId: string };
}

const post = async (path: string, payload?: unknown) =>
  body(await app.request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth })));

test('an imported egg installs, starts, is ONLINE by its ready line, shows its players and stops with its stop command', async (t) => {
  const game = readFileSync(FAKE_SERVER_PATH);
  // The fake game imports its query answers from a module beside it: the script fetches both.
  const queryModule = readFileSync(join(dirname(FAKE_SERVER_PATH), 'fakeQuery.ts'));
  let downloads = 0;
  const files = createServer((request, response) => {
    if (request.url === '/fakeQuery.ts') return response.end(queryModule);
    if (request.url !== '/fake-game.ts') return response.writeHead(404).end();
    downloads += 1;
    response.end(game);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  t.teardown(() => files.close());
  const downloadUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/fake-game.ts`;

  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);

  const script = [
    '#!/bin/bash',
    'apt update',
    'apt install -y curl',
    'cd /mnt/server',
    'curl -fsSL -o fake-game.ts "$DOWNLOAD_URL"',
    'curl -fsSL -o fakeQuery.ts "${DOWNLOAD_URL%/*}/fakeQuery.ts"',
    'echo "fetched the game"',
  ].join('\n');
  const imported = await post(`/api/v1/clusters/${clusterId}/templates/import`, { text: fakeEgg('Fake Game', script, downloadUrl) });
  t.is(imported.format, 'PTDL_v2', JSON.stringify(imported));
  t.deepEqual(imported.tools, ['bash', 'curl']);
  t.deepEqual(imported.skippedLines, ['apt update', 'apt install -y curl']);

  // Eggs describe no players: the operator adds the game's join and leave lines to the template (checked on write).
  const document = {
    ...imported.template.document,
    players: { join: '^Player connected: (?<name>.+) \\((?<id>\\d+)\\)$', leave: '^Player disconnected: (?<name>.+) \\((?<id>\\d+)\\)$', identity: 'id' },
  };
  const changed = await app.request(
    `/api/v1/clusters/${clusterId}/templates/${imported.template.id}`,
    json(document, { method: 'PATCH', headers: owner.auth }),
  );
  t.is(changed.status, 200, JSON.stringify(await changed.clone().json()));

  const server = await createServer_(clusterId, machineId, imported.template.id, 'from an egg');
  const installed = await post(`/api/v1/servers/${server.id}/install?wait=60`);
  t.is(installed.status, 'SUCCEEDED', JSON.stringify(installed));
  t.is(downloads, 1, 'the script fetched the game');
  t.is(await readFile(join(agent.dataDir, 'servers', server.id, 'fake-game.ts'), 'utf8'), game.toString('utf8'));

  const started = await post(`/api/v1/servers/${server.id}/start?wait=30`);
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
  const record = await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }));
  t.like(record, { status: 'ONLINE', templateId: imported.template.id, templateVersion: 2 });

  // A player joins (the fake game prints its join line); the service lists them online.
  const joined = await post(`/api/v1/servers/${server.id}/rcon?wait=10`, { command: 'sim.join 76561198000000001 Bob' });
  t.true(joined.success, JSON.stringify(joined));
  await until(async () => {
    const players = await body(await app.request(`/api/v1/servers/${server.id}/players`, { headers: owner.auth }));
    return (players.players ?? []).some((player: { steamId: string; username: string }) => player.steamId === '76561198000000001' && player.username === 'Bob');
  }, 'Bob listed on the server');
  await until(async () => (await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))).playersOnline === 1, 'one player online');

  // The stop is the egg's console command: the game says it shuts down and exits by itself.
  const stopped = await post(`/api/v1/servers/${server.id}/stop?wait=30`);
  t.is(stopped.status, 'SUCCEEDED', JSON.stringify(stopped));
  const consoleLog = await body(await app.request(`/api/v1/servers/${server.id}/console?lines=50`, { headers: owner.auth }));
  const lines = (consoleLog.lines as { line: string }[]).map((entry) => entry.line);
  t.true(lines.includes('Shutting down'), lines.join('\n'));
  t.false(
    lines.some((line) => line.startsWith('received SIG')),
    'stopped by its command, not a signal',
  );
  t.is((await body(await app.request(`/api/v1/servers/${server.id}`, { headers: owner.auth }))).status, 'OFFLINE');
});

test('an egg whose script needs a program the machine lacks fails its INSTALL at once, naming it', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  agents.push(await startAgent({ url: app.url, machineId, token }));
  const script = ['#!/bin/bash', 'cd /mnt/server', 'xmlstarlet ed -u /config/port -v "$SERVER_PORT" config.xml > config.new', 'unrar x pack.rar'].join('\n');
  const imported = await post(`/api/v1/clusters/${clusterId}/templates/import`, { text: fakeEgg('Needs Tools', script, 'http://127.0.0.1:9/none') });
  t.deepEqual(imported.tools, ['bash', 'unrar', 'xmlstarlet']);
  const server = await createServer_(clusterId, machineId, imported.template.id, 'needs tools');
  const started = Date.now();
  const installed = await post(`/api/v1/servers/${server.id}/install?wait=30`);
  t.is(installed.status, 'FAILED', JSON.stringify(installed));
  t.regex(JSON.stringify(installed), /unrar, xmlstarlet|xmlstarlet, unrar/);
  t.true(Date.now() - started < 15_000, 'at once');
});
