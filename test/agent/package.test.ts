/**
 * The agent as machine owners install it: the packed `gsm-agent` (served by the service at /agent/package.tgz),
 * installed with npm into an empty folder and run by the machine's own Node.js 20 against a real service; and the
 * one-line install from a machine's registration answer, run as pasted (a `sudo` that only runs its command, and the
 * install paths moved under a temporary directory).
 */
import test from 'ava';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { sql } from 'slonik';
import { until } from '../support/wait.ts';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine } from '../support/agentProcess.ts';
import { buildAgentPackage, installCommand } from '../../api/agentPackage.ts';

const run = promisify(execFile);
/** The machine's own Node.js 20 (npm puts Node 24 first on PATH for the tests themselves). */
const NODE20 = '/usr/bin/node';

let app: GatewayApp;
let owner: TestUser;
const children: ReturnType<typeof spawn>[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve())));
  await app?.close();
});

/** The entries of a tarball: name, mode and content. */
function untar(tgz: Buffer): Map<string, { mode: number; content: Buffer }> {
  const tar = gunzipSync(tgz);
  const entries = new Map<string, { mode: number; content: Buffer }>();
  for (let offset = 0; offset + 512 <= tar.length;) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    if (name === '') break;
    const size = Number.parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString('utf8')
        .replace(/\0.*$/s, ''),
      8,
    );
    const mode = Number.parseInt(
      tar
        .subarray(offset + 100, offset + 108)
        .toString('utf8')
        .replace(/\0.*$/s, ''),
      8,
    );
    entries.set(name, { mode, content: tar.subarray(offset + 512, offset + 512 + size) });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

const machineStatus = async (machineId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`));
const serverStatus = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));

test('the package: package.json (the service’s version), one executable bundle and a README; served with an ETag', async (t) => {
  const pkg = await buildAgentPackage();
  const entries = untar(pkg.tgz);
  t.deepEqual([...entries.keys()], ['package/package.json', 'package/gsm-agent.mjs', 'package/README.md']);
  const manifest = JSON.parse(entries.get('package/package.json')!.content.toString('utf8')) as Record<string, unknown>;
  const root = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
  t.is(manifest.version, root.version, 'the agent is always the service’s version');
  t.deepEqual(manifest.bin, { 'gsm-agent': 'gsm-agent.mjs' });
  t.is(manifest.dependencies, undefined, 'everything is bundled');
  t.is(entries.get('package/gsm-agent.mjs')!.mode, 0o755);
  t.true(entries.get('package/gsm-agent.mjs')!.content.toString('utf8').startsWith('#!/usr/bin/env node\n'));

  const response = await app.request('/agent/package.tgz');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/gzip');
  t.is(response.headers.get('x-agent-version'), root.version);
  t.regex(response.headers.get('content-disposition') ?? '', new RegExp(`gsm-agent-${root.version}\\.tgz`));
  t.deepEqual(Buffer.from(await response.arrayBuffer()), pkg.tgz);
  const etag = response.headers.get('etag')!;
  t.is(etag, `"${pkg.sha256}"`);
  t.is((await app.request('/agent/package.tgz', { headers: { 'If-None-Match': etag } })).status, 304);

  const script = await app.request('/agent/install.sh');
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /shellscript/);
  const text = await script.text();
  await run('sh', ['-n', '-c', text]);
  t.pass();
});

test('installed with npm into an empty folder, it runs under the machine’s Node.js 20 against the real service, within 15 MB', async (t) => {
  if (!existsSync(NODE20)) return t.fail(`${NODE20} is missing (CI installs Debian's nodejs)`);
  t.regex(execFileSync(NODE20, ['--version'], { encoding: 'utf8' }), /^v20\./);
  const dir = await mkdtemp(join(tmpdir(), 'gsm-pkg-'));
  const pkg = await buildAgentPackage();
  await writeFile(join(dir, pkg.fileName), pkg.tgz);
  const target = join(dir, 'installed');
  await mkdir(target);
  await run('npm', ['install', '--prefix', target, '--no-audit', '--no-fund', '--offline', join(dir, pkg.fileName)]);
  const installed = join(target, 'node_modules', 'gsm-agent');
  const bytes = Number(execFileSync('du', ['-sb', installed], { encoding: 'utf8' }).split('\t')[0]);
  t.true(bytes <= 15 * 1024 * 1024, `${bytes} bytes installed`);
  t.true(existsSync(join(target, 'node_modules', '.bin', 'gsm-agent')));
  t.is(execFileSync(NODE20, [join(installed, 'gsm-agent.mjs'), '--version'], { encoding: 'utf8' }).trim(), pkg.version);

  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const dataDir = join(dir, 'data');
  const agent = spawn(
    NODE20,
    [join(installed, 'gsm-agent.mjs'), 'run', '--url', app.url, '--machine-id', machineId, '--data-dir', dataDir, '--allow-root', '--stop-servers-on-exit'],
    {
      env: { PATH: process.env.PATH, GSM_AGENT_TOKEN: token },
      stdio: 'ignore',
    },
  );
  children.push(agent);
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE');
  const machine = await body(await app.request(`/api/v1/machines/${machineId}`, { headers: owner.auth }));
  t.is(machine.agentVersion, pkg.version);
  const server = await createFakeServer(app, owner, clusterId, machineId);
  const started = await body(await app.request(`/api/v1/servers/${server.id}/start?wait=30`, json({}, { headers: owner.auth })));
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
  t.is(await serverStatus(server.id), 'ONLINE');
  const answer = await body(await app.request(`/api/v1/servers/${server.id}/rcon?wait=20`, json({ command: 'echo from node 20' }, { headers: owner.auth })));
  t.is(answer.output, 'from node 20');
  // Backups work under Node 20 too (the archive, its checksum and the move into place).
  const backup = await body(await app.request(`/api/v1/servers/${server.id}/backups`, json({}, { headers: owner.auth })));
  const backedUp = await body(await app.request(`/api/v1/jobs/${backup.id}?wait=30`, { headers: owner.auth }));
  t.is(backedUp.status, 'SUCCEEDED', JSON.stringify(backedUp.error));
  t.regex(backedUp.result.sha256, /^[0-9a-f]{64}$/);
  // The status file follows the agent's state a moment after the service has heard of it.
  let state: { servers?: { status: string }[] } = {};
  await until(async () => {
    state = JSON.parse((await run(NODE20, [join(installed, 'gsm-agent.mjs'), 'status', '--data-dir', dataDir, '--json'])).stdout) as typeof state;
    return state.servers?.[0]?.status === 'ONLINE';
  }, 'status file says ONLINE');
  t.like(state, { running: true, connected: true, version: pkg.version, servers: [{ id: server.id, status: 'ONLINE' }] });
});

test('the one-line install from the registration answer: token on standard input, configuration 0600, user, unit; then it runs', async (t) => {
  if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
  const { machineId, token } = await registerMachine(app, owner);
  const registered = await body(await app.request(`/api/v1/machines/${machineId}/token`, json({}, { headers: owner.auth })));
  const publicUrl = app.deps.config.publicUrl;
  t.is(registered.install.command, installCommand(publicUrl, machineId, registered.agentToken as string));
  // The test service's PUBLIC_URL is a placeholder; the line is run against where it really listens.
  const command = String(registered.install.command).replaceAll(`'${publicUrl}`, `'${app.url}`);
  // The token is only ever an argument of printf, a shell built-in: no process shows it in its command line.
  t.is(command.split(registered.agentToken as string).length, 2);
  t.true(command.includes(`printf '%s\\n' '${registered.agentToken}' | sudo sh /tmp/gsm-agent-install.sh`));
  t.not(registered.agentToken, token);

  const root = await mkdtemp(join(tmpdir(), 'gsm-install-'));
  const bin = join(root, 'bin');
  await mkdir(bin);
  // `sudo` here only runs its command (the test already runs as root); `node` is the machine's Node.js 20.
  await writeFile(join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n');
  await writeFile(join(bin, 'node'), `#!/bin/sh\nexec ${NODE20} "$@"\n`);
  await chmod(join(bin, 'sudo'), 0o755);
  await chmod(join(bin, 'node'), 0o755);
  const env = {
    PATH: `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    GSM_AGENT_PREFIX: join(root, 'opt', 'gsm-agent'),
    GSM_CONFIG: join(root, 'etc', 'config.json'),
    GSM_DATA_DIR: join(root, 'data'),
    GSM_UNIT_DIR: join(root, 'systemd'),
  };
  const output = await run('sh', ['-c', command], { env });
  t.false(`${output.stdout}${output.stderr}`.includes(registered.agentToken as string), 'the token is never printed');
  t.regex(output.stdout, /installed gsm-agent \d+\.\d+\.\d+/);

  const config = JSON.parse(await readFile(env.GSM_CONFIG, 'utf8')) as Record<string, unknown>;
  t.like(config, { url: [app.url], machineId, token: registered.agentToken, dataDir: env.GSM_DATA_DIR, user: 'gsm', allowRoot: false });
  t.is((await stat(env.GSM_CONFIG)).mode & 0o777, 0o600);
  t.is(execFileSync('id', ['-un', 'gsm'], { encoding: 'utf8' }).trim(), 'gsm');
  const unit = await readFile(join(env.GSM_UNIT_DIR, 'gsm-agent.service'), 'utf8');
  t.regex(unit, /^KillMode=process$/m);
  t.regex(unit, /^RestartPreventExitStatus=2$/m);
  t.regex(unit, /^Delegate=yes$/m);
  t.regex(unit, /^TimeoutStopSec=(\d+)$/m);
  t.true(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)![1]) > 60, 'longer than the graceful stop escalation (60 s)');
  t.regex(unit, new RegExp(`^ExecStart=\\S+ ${env.GSM_AGENT_PREFIX}/gsm-agent.mjs run --config ${env.GSM_CONFIG}$`, 'm'));
  t.false(unit.includes(registered.agentToken as string));

  // What the unit runs, run here by hand (no systemd in CI): it connects with the configuration file alone.
  const agent = spawn(NODE20, [join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs'), 'run', '--config', env.GSM_CONFIG, '--stop-servers-on-exit'], {
    env: { PATH: env.PATH },
    stdio: 'ignore',
  });
  children.push(agent);
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE');
  const status = await run(NODE20, [join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs'), 'status', '--config', env.GSM_CONFIG]);
  t.regex(status.stdout, /connection: connected to/);

  // Without systemd and without a unit directory, install says how to start the agent instead.
  const again = await run(
    'sh',
    [
      '-c',
      `printf '%s\\n' '${registered.agentToken}' | ${NODE20} ${join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs')} install --url ${app.url} --machine-id ${machineId}`,
    ],
    {
      env: { ...env, GSM_UNIT_DIR: '' },
    },
  );
  if (!existsSync('/run/systemd/system'))
    t.regex(again.stdout, /systemd does not run on this machine; start the agent with:\n\s+\S+ \S+gsm-agent.mjs run --config /);
  // An agent token that is not one is refused before anything is written.
  const bad = await run(
    'sh',
    ['-c', `printf 'nope\\n' | ${NODE20} ${join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs')} install --url ${app.url} --machine-id ${machineId}`],
    { env },
  ).catch((error: { code: number; stderr: string }) => error);
  t.is((bad as { code: number }).code, 2);
  t.regex((bad as { stderr: string }).stderr, /not an agent token/);
});

test('the upgrade mode replaces the package in place and needs no token', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-upgrade-'));
  const prefix = join(root, 'opt', 'gsm-agent');
  const script = join(root, 'install.sh');
  await writeFile(script, Buffer.from(await (await app.request('/agent/install.sh')).arrayBuffer()));
  const output = await run('sh', [script, '--url', app.url, '--upgrade'], { env: { PATH: process.env.PATH, GSM_AGENT_PREFIX: prefix, GSM_NODE: NODE20 } });
  t.regex(output.stdout, /installed gsm-agent/);
  t.true(existsSync(join(prefix, 'gsm-agent.mjs')));
  t.false(existsSync(`${prefix}.old`));
  const version = JSON.parse(await readFile('package.json', 'utf8')).version as string;
  t.is(execFileSync(NODE20, [join(prefix, 'gsm-agent.mjs'), '--version'], { encoding: 'utf8' }).trim(), version);
});
