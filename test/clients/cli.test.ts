/**
 * The `gsm` command line (api/clients/typescript/bin/gsm.ts) as a user runs it, as child processes against the real
 * service and agent: login keeps the token in a 0600 file; tables for people and --json for scripts; start --wait
 * exits 0 on success and 1 when the job fails; rcon; the console followed live; players, bans (and unbans), tasks,
 * jobs; templates (list, show, import an egg); machines and their port allocations; servers show with ports and query; usage errors exit 2, asking for help exits 0. The token reaches `gsm login` on standard input (not echoed on a
 * terminal: a real pseudo-terminal, from Python's pty module) or in GSM_TOKEN.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';

const GSM = fileURLToPath(new URL('../../api/clients/typescript/bin/gsm.ts', import.meta.url));
let app: GatewayApp;
let owner: TestUser;
let home: string;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  owner = await signUp(app);
  home = await mkdtemp(join(tmpdir(), 'gsm-cli-'));
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
  await rm(home, { recursive: true, force: true });
});

/**
 * Runs `gsm …` with the config directory of this test (asynchronously: the service answering it runs in this process).
 */
function gsm(
  args: string[],
  options: { fromLoginFile?: boolean; input?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // GSM_URL and GSM_TOKEN, unless the test is about the file `gsm login` writes.
  const credentials = options.fromLoginFile ? {} : { GSM_URL: app.url, GSM_TOKEN: owner.accessToken };
  const child = spawn(process.execPath, [GSM, ...args], { env: { PATH: process.env.PATH, XDG_CONFIG_HOME: home, ...credentials, ...options.env } });
  // Standard input is a pipe that ends: what `gsm login` reads when no token is given otherwise.
  child.stdin.end(options.input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = setTimeout(() => child.kill(), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

test.serial('login keeps the URL and token in a 0600 file; commands then use it', async (t) => {
  const refused = await gsm(['clusters'], { fromLoginFile: true });
  t.is(refused.code, 2);
  t.regex(refused.stderr, /not signed in/);
  const bad = await gsm(['login', '--url', app.url, '--token', 'gsm_live_nope'], { fromLoginFile: true });
  t.is(bad.code, 1);
  t.regex(bad.stderr, /401/);
  const login = await gsm(['login', '--url', app.url, '--token', owner.accessToken], { fromLoginFile: true });
  t.is(login.code, 0, login.stderr);
  t.regex(login.stdout, new RegExp(`signed in to .* as ${owner.email}`));
  const file = join(home, 'gsm', 'config.json');
  t.is((await stat(file)).mode & 0o777, 0o600);
  t.is(JSON.parse(await readFile(file, 'utf8')).token, owner.accessToken);
  const { clusterId } = await registerMachine(app, owner);
  const clusters = await gsm(['clusters', '--json'], { fromLoginFile: true });
  t.is(clusters.code, 0, clusters.stderr);
  t.true((JSON.parse(clusters.stdout) as { id: string }[]).some((cluster) => cluster.id === clusterId));
  t.regex((await gsm(['clusters'], { fromLoginFile: true })).stdout, /^ID\s+NAME\s+ROLE/);
  const usage = await gsm(['servers', 'explode'], { fromLoginFile: true });
  t.is(usage.code, 2);
});

test.serial('servers: list, start --wait (exit 0), a failing start (exit 1), rcon, the console followed live, jobs', async (t) => {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token });
  agents.push(agent);
  const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'cli fake' });
  const broken = await createFakeServer(app, owner, clusterId, machineId, { name: 'cli broken', startCommand: '/nonexistent/game' });

  t.regex((await gsm(['servers', 'list', '--cluster', clusterId])).stdout, /cli fake/);
  const started = await gsm(['servers', 'start', server.id, '--wait', '--json']);
  t.is(started.code, 0, started.stderr);
  t.is(JSON.parse(started.stdout).status, 'SUCCEEDED');
  const failed = await gsm(['servers', 'start', broken.id, '--wait']);
  t.is(failed.code, 1, 'a job that did not succeed is a failure');
  t.regex(failed.stdout, /FAILED/);

  const rcon = await gsm(['rcon', server.id, 'echo', 'hello', 'cli']);
  t.is(rcon.code, 0, rcon.stderr);
  t.is(rcon.stdout.trim(), 'hello cli');
  t.is((await gsm(['rcon', broken.id, 'echo', 'x'])).code, 1, 'RCON on a server that is not running: 409, exit 1');
  // The console command is taken as written: -h, --help or --json in it are the game's, not gsm's.
  const verbatim = await gsm(['rcon', server.id, 'echo', '-h', '--help', '--json']);
  t.is(verbatim.code, 0, verbatim.stderr);
  t.is(verbatim.stdout.trim(), '-h --help --json');
  const jsonFirst = await gsm(['rcon', '--json', server.id, 'echo', '-h']);
  t.is(jsonFirst.code, 0, jsonFirst.stderr);
  t.like(JSON.parse(jsonFirst.stdout), { success: true, output: '-h' });

  // The console: recent lines, then live ones.
  const following = spawn(process.execPath, [GSM, 'console', server.id], {
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: home, GSM_URL: app.url, GSM_TOKEN: owner.accessToken },
  });
  t.teardown(() => void following.kill());
  const lines: string[] = [];
  createInterface({ input: following.stdout }).on('line', (line) => lines.push(line));
  await until(async () => lines.length > 0, 'the recent console');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await app.request(`/api/v1/servers/${server.id}/rcon`, json({ command: 'say followed live' }, { headers: owner.auth }));
  await until(async () => lines.some((line) => line.includes('followed live')), 'the live console line');
  following.kill();

  const jobId = JSON.parse(started.stdout).id as string;
  t.regex((await gsm(['jobs', 'show', jobId])).stdout, /START\s+SUCCEEDED/);
  t.is((await gsm(['jobs', 'wait', jobId])).code, 0);
});

test.serial('players: search, show, ban (listed in bans), kick; tasks list', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const target = await createFakeServer(app, owner, clusterId, machineId, { name: 'task target' });
  const playerId = await app.pool.oneFirst(sql.unsafe`
    INSERT INTO players (cluster_id, steam_id, username, first_seen, last_seen, last_joined_at)
    VALUES (${clusterId}, '76561198000000042', 'RustLord', now(), now(), now()) RETURNING id`);
  const found = await gsm(['players', 'search', '--cluster', clusterId, 'rustl', '--json']);
  t.is(found.code, 0, found.stderr);
  t.is((JSON.parse(found.stdout) as { id: string }[])[0]!.id, String(playerId));
  t.regex((await gsm(['players', 'show', String(playerId)])).stdout, /RustLord/);
  const banned = await gsm(['players', 'ban', String(playerId), '--reason', 'Cheating', '--duration', '3600', '--json']);
  t.is(banned.code, 0, banned.stderr);
  t.like(JSON.parse(banned.stdout), { playerId: String(playerId), reason: 'Cheating', clusterWide: true, active: true });
  t.regex((await gsm(['bans', '--cluster', clusterId])).stdout, /Cheating/);
  const kicked = await gsm(['players', 'kick', String(playerId)]);
  t.is(kicked.code, 1, 'a player who is not online cannot be kicked');

  const task = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/tasks`,
      json({ name: 'nightly', schedule: '0 4 * * *', serverIds: [target.id], steps: [{ type: 'BROADCAST', message: 'hi' }] }, { headers: owner.auth }),
    ),
  );
  const listed = await gsm(['tasks', 'list', '--cluster', clusterId]);
  t.is(listed.code, 0, listed.stderr);
  t.truthy(task.id, JSON.stringify(task));
  t.regex(listed.stdout, /nightly\s+0 4 \* \* \*\s+UTC\s+true/);
});

test.serial('asking for help (-h only before the command) exits 0 with the usage on stdout; no command or a bad one exits 2 with it on stderr', async (t) => {
  for (const args of [['--help'], ['-h'], ['help'], ['servers', '--help']]) {
    const help = await gsm(args);
    t.is(help.code, 0, args.join(' '));
    t.regex(help.stdout, /^usage: gsm <command>/, args.join(' '));
    t.is(help.stderr, '', args.join(' '));
  }
  for (const args of [[], ['explode'], ['servers', 'explode'], ['--', '-h']]) {
    const bad = await gsm(args);
    t.is(bad.code, 2, args.join(' '));
    t.regex(bad.stderr, /usage: gsm <command>/, args.join(' '));
  }
  // -h after the command is the command's argument, not a call for help: clusters runs and lists.
  const listed = await gsm(['clusters', '-h']);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout, /^ID\s+NAME\s+ROLE/);
});

test.serial('login reads the token from standard input or GSM_TOKEN, so it need not be on the command line', async (t) => {
  const file = join(home, 'gsm', 'config.json');
  const piped = await gsm(['login', '--url', app.url], { fromLoginFile: true, input: `${owner.accessToken}\n` });
  t.is(piped.code, 0, piped.stderr);
  t.regex(piped.stdout, new RegExp(`signed in to .* as ${owner.email}`));
  t.is(JSON.parse(await readFile(file, 'utf8')).token, owner.accessToken);
  t.false(piped.stderr.includes(owner.accessToken));

  const other = await signUp(app);
  const fromEnv = await gsm(['login', '--url', app.url], { fromLoginFile: true, env: { GSM_TOKEN: other.accessToken } });
  t.is(fromEnv.code, 0, fromEnv.stderr);
  t.regex(fromEnv.stdout, new RegExp(`as ${other.email}`));
  t.is(JSON.parse(await readFile(file, 'utf8')).token, other.accessToken);

  const none = await gsm(['login', '--url', app.url], { fromLoginFile: true, input: '' });
  t.is(none.code, 2);
  t.regex(none.stderr, /no token/);
  const wrong = await gsm(['login', '--url', app.url], { fromLoginFile: true, input: 'gsm_live_nope\n' });
  t.is(wrong.code, 1);
  t.regex(wrong.stderr, /401/);
  // --token still works, with a word about where it shows.
  const flagged = await gsm(['login', '--url', app.url, '--token', owner.accessToken], { fromLoginFile: true });
  t.is(flagged.code, 0, flagged.stderr);
  t.regex(flagged.stderr, /shows in ps/);
});

/**
 * Runs `gsm login` with standard input a pipe that stays open after one line (as a helper that prints the token and
 * waits would leave it) and standard error a pseudo-terminal; closes the pipe only once `gsm` has exited. Answers the
 * exit code, whether the pipe was still open then, and what the terminal showed.
 */
const OPEN_PIPE = `
import json, os, pty, subprocess, sys
token, argv = sys.argv[1], sys.argv[2:]
master, slave = pty.openpty()
child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
child.stdin.write(token.encode() + b"\\n")
child.stdin.flush()
code = child.wait(timeout=60)
open_then = not child.stdin.closed
child.stdin.close()
shown = b""
while True:
    try:
        chunk = os.read(master, 1024)
    except OSError:
        break
    if not chunk:
        break
    shown += chunk
print(json.dumps({"code": code, "openThen": open_then, "stdout": child.stdout.read().decode(), "shown": shown.decode(errors="replace")}))
`;

test.serial('login from a pipe stops at the first line, and says on a terminal that it reads standard input', async (t) => {
  const child = spawn('python3', ['-c', OPEN_PIPE, owner.accessToken, process.execPath, GSM, 'login', '--url', app.url], {
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: home },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.is(code, 0, `${stderr} ${stdout}`);
  const answer = JSON.parse(stdout) as { code: number; openThen: boolean; stdout: string; shown: string };
  t.is(answer.code, 0, answer.shown);
  t.true(answer.openThen, 'gsm ended while its standard input was still open');
  t.regex(answer.stdout, new RegExp(`signed in to .* as ${owner.email}`));
  t.regex(answer.shown, /reading the token from standard input…/);
  t.false(answer.shown.includes(owner.accessToken));
  t.is(JSON.parse(await readFile(join(home, 'gsm', 'config.json'), 'utf8')).token, owner.accessToken);

  // Standard error not a terminal either (a script): nothing is said.
  const piped = await gsm(['login', '--url', app.url], { fromLoginFile: true, input: `${owner.accessToken}\n` });
  t.is(piped.code, 0, piped.stderr);
  t.is(piped.stderr, '');
});

/** Runs `gsm login` on a real pseudo-terminal, answers its prompt with `token` and Enter; answers what the terminal showed. */
const ON_A_TERMINAL = `
import json, os, pty, select, sys
token, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
shown = b""
while b"not shown" not in shown:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready:
        break
    shown += os.read(fd, 1024)
os.write(fd, token.encode() + b"\\r")
while True:
    try:
        chunk = os.read(fd, 1024)
    except OSError:
        break
    if not chunk:
        break
    shown += chunk
_, status = os.waitpid(pid, 0)
print(json.dumps({"shown": shown.decode(errors="replace"), "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1}))
`;

test.serial('on a terminal, login prompts for the token and does not echo it', async (t) => {
  const child = spawn('python3', ['-c', ON_A_TERMINAL, owner.accessToken, process.execPath, GSM, 'login', '--url', app.url], {
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: home },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.is(code, 0, stderr);
  const { shown, code: exit } = JSON.parse(stdout) as { shown: string; code: number };
  t.is(exit, 0, shown);
  t.regex(shown, /API token \(not shown\): /);
  t.regex(shown, new RegExp(`signed in to .* as ${owner.email}`));
  t.false(shown.includes(owner.accessToken), 'the token is not echoed');
  t.is(JSON.parse(await readFile(join(home, 'gsm', 'config.json'), 'utf8')).token, owner.accessToken);
});

test.serial('clusters is a table of plain columns; bans revoke <ban> and players unban <player> lift bans', async (t) => {
  const { clusterId } = await registerMachine(app, owner);
  const table = await gsm(['clusters']);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^ID\s+NAME\s+ROLE\s+SERVERS\s+MACHINES\s+MEMBERS\n/);
  t.false(table.stdout.includes('{'), 'no raw JSON in a column');
  t.regex(table.stdout, new RegExp(`${clusterId}\\s+\\S.*\\s+OWNER\\s+0\\s+1\\s+1`));

  const playerId = String(
    await app.pool.oneFirst(sql.unsafe`
      INSERT INTO players (cluster_id, steam_id, username, first_seen, last_seen, last_joined_at)
      VALUES (${clusterId}, '76561198000000077', 'Griefer', now(), now(), now()) RETURNING id`),
  );
  const ban = async (reason: string) => JSON.parse((await gsm(['players', 'ban', playerId, '--reason', reason, '--json'])).stdout).id as string;
  const first = await ban('first');
  const revoked = await gsm(['bans', 'revoke', first]);
  t.is(revoked.code, 0, revoked.stderr);
  t.regex(revoked.stdout, /The ban has been removed/);
  t.like(await body(await app.request(`/api/v1/bans/${first}`, { headers: owner.auth })), { active: false });
  t.is((await gsm(['bans', 'revoke', first])).code, 1, 'revoking twice: 409');

  const [second, third] = [await ban('second'), await ban('third')];
  const unbanned = await gsm(['players', 'unban', playerId, '--json']);
  t.is(unbanned.code, 0, unbanned.stderr);
  const answer = JSON.parse(unbanned.stdout) as { bans: { id: string; active: boolean }[] };
  t.deepEqual(answer.bans.map((revokedBan) => revokedBan.id).sort(), [second, third].sort());
  t.true(answer.bans.every((revokedBan) => !revokedBan.active));
  t.is((await gsm(['players', 'unban', playerId])).code, 1, 'no active ban left: 409');

  const fourth = await ban('fourth');
  const byPlayer = await gsm(['bans', 'revoke', '--player', playerId]);
  t.is(byPlayer.code, 0, byPlayer.stderr);
  t.regex(byPlayer.stdout, /Removed 1 ban/);
  t.like(await body(await app.request(`/api/v1/bans/${fourth}`, { headers: owner.auth })), { active: false });
  t.is((await gsm(['bans', 'revoke'])).code, 2, 'which ban: usage');
});

test('templates: list (search, tag), show with variables and ports, import an egg from a file or standard input', async (t) => {
  const cluster = await body(await app.request('/api/v1/clusters', json({ name: 'Templates' }, { headers: owner.auth })));
  const listed = await gsm(['templates', 'list', '--search', 'minecraft']);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout, /^ID +NAME +VERSION +GAMETYPE +PLATFORMS +SOURCE +TAGS/);
  t.regex(listed.stdout, /minecraft-paper +Minecraft: Java Edition \(Paper\) +\d+ +MINECRAFT +linux,windows +built-in/);
  t.notRegex(listed.stdout, /\bfactorio\b/);
  const tagged = JSON.parse((await gsm(['templates', 'list', '--tag', 'windows-only', '--json'])).stdout) as { id: string }[];
  t.deepEqual(tagged.map((template) => template.id).sort(), ['ark-survival-ascended', 'conan-exiles', 'enshrouded', 'space-engineers', 'v-rising']);

  const shown = await gsm(['templates', 'show', 'terraria']);
  t.is(shown.code, 0, shown.stderr);
  t.regex(shown.stdout, /WORLD_SIZE +2 +false +\{"type":"string","required":true,"enum":\["1","2","3"\]\}/);
  t.regex(shown.stdout, /game +tcp +7777/);
  t.is((await gsm(['templates', 'show', 'no-such-game'])).code, 1);

  const file = fileURLToPath(new URL('../fixtures/eggs/ptdl-v1.json', import.meta.url));
  const imported = await gsm(['templates', 'import', '--cluster', cluster.id, file]);
  t.is(imported.code, 0, imported.stderr);
  t.regex(imported.stdout, /^imported the PTDL_v1 egg as template [0-9a-f-]{36} \(cobalt-sandbox, version 1\)/);
  t.regex(imported.stdout, /the machine needs: bash, curl, jq/);
  t.regex(imported.stdout, /not mapped, or mapped with a difference:\n {2}- /);
  const piped = await gsm(['templates', 'import', '--cluster', cluster.id, '--id', 'from-stdin', '--json', '-'], {
    input: await readFile(fileURLToPath(new URL('../fixtures/eggs/plcn-v2.yaml', import.meta.url)), 'utf8'),
  });
  t.is(piped.code, 0, piped.stderr);
  t.like(JSON.parse(piped.stdout), { format: 'PLCN_v2', template: { slug: 'from-stdin', clusterId: cluster.id } });
  const mine = JSON.parse((await gsm(['templates', 'list', '--cluster', cluster.id, '--json'])).stdout) as { slug: string }[];
  t.deepEqual(mine.map((template) => template.slug).sort(), ['cobalt-sandbox', 'from-stdin']);
  const bad = await gsm(['templates', 'import', '--cluster', cluster.id, '-'], { input: '{"meta":{"version":"nope"}}' });
  t.is(bad.code, 1);
  t.regex(bad.stderr, /meta\.version/);
  t.is((await gsm(['templates', 'import', '--cluster', cluster.id])).code, 2);
});

test.serial(
  'machines allocations: list, add and remove ranges (refusals exit 1 with the API message); servers show: ports, query state, UNRESPONSIVE',
  async (t) => {
    const { clusterId, machineId } = await registerMachine(app, owner);
    const server = await createFakeServer(app, owner, clusterId, machineId, { name: 'Queried', queryProtocol: 'A2S' });
    const listed = await gsm(['machines', 'list', '--cluster', clusterId]);
    t.is(listed.code, 0, listed.stderr);
    t.regex(listed.stdout, new RegExp(`^ID\\s+NAME\\s+STATUS[^\\n]*\\n${machineId}\\s+host\\s`));

    const first = 41_000 + Math.floor(Math.random() * 90) * 100;
    const added = await gsm(['--json', 'machines', 'allocations', machineId, 'add', `${first}-${first + 99}`]);
    t.is(added.code, 0, added.stderr);
    const range = JSON.parse(added.stdout) as { id: string; firstPort: number; lastPort: number };
    t.like(range, { firstPort: first, lastPort: first + 99 });
    const overlap = await gsm(['machines', 'allocations', machineId, 'add', `${first + 50}-${first + 150}`]);
    t.is(overlap.code, 1);
    t.regex(overlap.stderr, /409.*overlaps/);
    const tooMany = await gsm(['machines', 'allocations', machineId, 'add', '20000-30001']);
    t.is(tooMany.code, 1);
    t.regex(tooMany.stderr, /at most 10000 ports/);
    t.is((await gsm(['machines', 'allocations', machineId, 'add', 'lots'])).code, 2);

    const shown = await gsm(['machines', 'allocations', machineId]);
    t.is(shown.code, 0, shown.stderr);
    t.regex(shown.stdout, /port ranges \(100 ports free\):/);
    t.regex(shown.stdout, new RegExp(`${range.id}\\s+${first}\\s+${first + 99}\\s+100`));
    t.regex(shown.stdout, new RegExp(`${server.gamePort}\\s+BOTH\\s+Queried\\s+game\\s+${server.id}`));
    t.regex(shown.stdout, new RegExp(`${server.rconPort}\\s+TCP\\s+Queried\\s+rcon`));

    const removed = await gsm(['machines', 'allocations', machineId, 'remove', range.id]);
    t.is(removed.code, 0, removed.stderr);
    t.regex(removed.stdout, /Port range removed/);
    t.regex((await gsm(['machines', 'allocations', machineId])).stdout, /no port ranges/);

    const query = {
      protocol: 'A2S',
      answering: false,
      players: 3,
      playerNames: ['Alice', 'Bob', 'Carol'],
      maxPlayers: 16,
      map: 'Procedural Map',
      version: '2.0.0',
      latencyMs: null,
      failures: 5,
      error: 'no answer (timed out)',
      checkedAt: '2026-11-24T03:00:00.000Z',
    };
    await app.pool.query(sql.unsafe`
    UPDATE servers SET status = 'UNRESPONSIVE', status_reason = 'no answer to 5 queries in a row (no answer (timed out))', query = ${sql.jsonb(query)}
     WHERE id = ${server.id}`);
    const show = await gsm(['servers', 'show', server.id]);
    t.is(show.code, 0, show.stderr);
    t.regex(show.stdout, /^Queried \([0-9a-f-]+\): CUSTOM, UNRESPONSIVE \(its process runs; the game does not answer queries\)\n/);
    t.regex(show.stdout, /\nreason: no answer to 5 queries in a row/);
    t.regex(show.stdout, new RegExp(`\\ngame\\s+${server.gamePort}\\s+BOTH\\n`));
    t.regex(show.stdout, /query \(A2S, checked 2026-11-24T03:00:00.000Z\): not answering: no answer \(timed out\) \(5 in a row\)/);
    t.regex(show.stdout, /players 3 \/ 16 \(Alice, Bob, Carol\); map Procedural Map; version 2\.0\.0; latency —/);
    const asJson = JSON.parse((await gsm(['servers', 'show', server.id, '--json'])).stdout);
    t.like(asJson, { status: 'UNRESPONSIVE', query: { answering: false, failures: 5 } });
    t.regex((await gsm(['servers', 'list', '--cluster', clusterId])).stdout, /Queried\s+CUSTOM\s+UNRESPONSIVE\s+0\s+no answer to 5 queries/);
  },
);
