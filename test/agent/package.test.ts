/**
 * The agent as machine owners install it: the packed `gsm-agent` (served by the service at /agent/package.tgz),
 * installed with npm into an empty folder and run by the machine's own Node.js 20 against a real service; and the
 * one-line install from a machine's registration answer, run as pasted (as root, where sudo is absent; as a sudoer, with
 * a `sudo` that only runs its command; the install paths moved under a temporary directory): its code used, expired,
 * a tampered script or package, no sha256sum; and the upgrade line.
 */
import test from 'ava';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
/** A Node.js 20, the oldest line the agent supports (npm puts Node 24 first on PATH for the tests themselves): the
 * machine's own at /usr/bin/node, or the one `npm test` fetched from npm (GSM_TEST_NODE20, test/prerequisites.ts). */
const NODE20 = process.env.GSM_TEST_NODE20 ?? '/usr/bin/node';

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

test('the package: package.json (the service’s version), one executable bundle, a README, the MIT licence and the bundled packages’ licences; served with an ETag', async (t) => {
  const pkg = await buildAgentPackage();
  const entries = untar(pkg.tgz);
  t.deepEqual(
    [...entries.keys()],
    ['package/package.json', 'package/gsm-agent.mjs', 'package/README.md', 'package/LICENSE', 'package/THIRD_PARTY_LICENSES.md'],
  );
  t.is(entries.get('package/LICENSE')!.content.toString('utf8'), await readFile('LICENSE', 'utf8'));
  // Every package bundled in travels with its own licence text (MIT asks for its notice in every copy).
  const notices = entries.get('package/THIRD_PARTY_LICENSES.md')!.content.toString('utf8');
  for (const bundled of ['zod', 'socket.io-client', 'pino', 'ws']) t.regex(notices, new RegExp(`^## ${bundled} \\d`, 'm'), bundled);
  t.regex(notices, /Permission is hereby granted/);
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
  if (!existsSync(NODE20)) return t.fail(`${NODE20} is missing (npm test fetches a Node.js 20 when the machine has none: test/prerequisites.ts)`);
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
  const node20Bin = join(dir, 'bin');
  await mkdir(node20Bin);
  await symlink(NODE20, join(node20Bin, 'node'));
  const agent = spawn(
    NODE20,
    [join(installed, 'gsm-agent.mjs'), 'run', '--url', app.url, '--machine-id', machineId, '--data-dir', dataDir, '--allow-root', '--stop-servers-on-exit'],
    {
      // `node` on the agent's PATH is Node.js 20 too, as on a machine set up by the install line.
      env: { PATH: `${node20Bin}:${process.env.PATH}`, GSM_AGENT_TOKEN: token },
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
  // The README's stand-in game (plain JavaScript) runs under this agent as its quick start creates it.
  const standIn = await createFakeServer(app, owner, clusterId, machineId, {
    name: 'stand-in',
    maxPlayers: 32,
    startCommand: `node '${resolve('docs/examples/stand-in-game.mjs')}'`,
  });
  const standInStarted = await body(await app.request(`/api/v1/servers/${standIn.id}/start?wait=30`, json({}, { headers: owner.auth })));
  t.is(standInStarted.status, 'SUCCEEDED', JSON.stringify(standInStarted));
  t.is(await serverStatus(standIn.id), 'ONLINE');
  const standInStatus = await body(await app.request(`/api/v1/servers/${standIn.id}/rcon?wait=20`, json({ command: 'status' }, { headers: owner.auth })));
  t.is(standInStatus.output, 'players : 0 (max 32)');
  const standInStopped = await body(await app.request(`/api/v1/servers/${standIn.id}/stop?wait=30`, json({}, { headers: owner.auth })));
  t.is(standInStopped.status, 'SUCCEEDED', JSON.stringify(standInStopped));
});

/** A throwaway HTTP server answering `GET <path>` with `content`, everything else from the real service. */
async function tamperedService(content: string | Buffer, path = '/agent/install.sh'): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url === path) return void response.end(content);
    void fetch(`${app.url}${request.url}`, { method: request.method }).then(async (upstream) => {
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(() => done())) };
}

type Failed = { code: number; stdout: string; stderr: string };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 0, stdout: '', stderr: '' }) as Failed,
    (error: Failed) => error,
  );

/** The private download directories the install line and script make (`mktemp -d /tmp/gsm.XXXXXX`). */
const downloadDirs = async () => (await readdir('/tmp')).filter((name) => /^gsm\.[A-Za-z0-9]{6}$/.test(name)).sort();

test.serial('the one-line install from the registration answer: a code on stdin, as root without sudo; config 0600, user, unit; it runs', async (t) => {
  if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
  const { machineId, token } = await registerMachine(app, owner);
  const registered = await body(await app.request(`/api/v1/machines/${machineId}/token`, json({}, { headers: owner.auth })));
  const agentToken = registered.agentToken as string;
  t.not(agentToken, token);
  const publicUrl = app.deps.config.publicUrl;
  const line = String(registered.install.command);
  const code = /'(gsm_install_[0-9A-Za-z]{43})'/.exec(line)![1]!;
  const script = Buffer.from(await (await app.request('/agent/install.sh')).arrayBuffer());
  const pkg = await buildAgentPackage();
  t.is(line, installCommand(publicUrl, code, { script: createHash('sha256').update(script).digest('hex'), package: pkg.sha256 }));
  t.true(line.endsWith(`'${pkg.sha256}'`), 'the line pins the package too');
  // The test service's PUBLIC_URL is a placeholder; the line is run against where it really listens.
  const command = line.replaceAll(`'${publicUrl}`, `'${app.url}`);
  t.false(command.includes(agentToken), 'the line carries no agent token');
  t.regex(command, /^command -v sha256sum /, 'sha256sum is looked for first');
  t.true(command.includes('D="$(mktemp -d /tmp/gsm.XXXXXX)"'), 'a fresh directory under /tmp, whatever TMPDIR says');
  t.true(command.includes('sha256sum < "$D/install.sh"'));
  // The code is only ever an argument of printf, a shell built-in: no process shows it in its command line. Download,
  // check and run happen in one root shell, so the file checked is the file run.
  t.true(command.includes(`printf '%s\\n' '${code}' | $([ "$(id -u)" = 0 ] || echo sudo) sh -c 'D=`));
  const tmpBefore = await downloadDirs();

  const root = await mkdtemp(join(tmpdir(), 'gsm-install-'));
  const bin = join(root, 'bin');
  await mkdir(bin);
  await mkdir(join(root, 'tmp'));
  // As root the line must not call sudo: here `sudo` is what a root-only container answers; `node` is Node.js 20.
  await writeFile(join(bin, 'sudo'), '#!/bin/sh\necho "sh: 1: sudo: not found" >&2\nexit 127\n');
  await writeFile(join(bin, 'node'), `#!/bin/sh\nexec ${NODE20} "$@"\n`);
  await chmod(join(bin, 'sudo'), 0o755);
  await chmod(join(bin, 'node'), 0o755);
  const env = {
    PATH: `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    TMPDIR: join(root, 'tmp'),
    GSM_AGENT_PREFIX: join(root, 'opt', 'gsm-agent'),
    GSM_CONFIG: join(root, 'etc', 'config.json'),
    GSM_DATA_DIR: join(root, 'data'),
    GSM_UNIT_DIR: join(root, 'systemd'),
  };

  // A script that is not the one the line names is not run, and the code is not spent.
  const evil = await tamperedService(`${script.toString('utf8')}\ntouch ${join(root, 'tampered-script-ran')}\n`);
  const tampered = await failure(run('sh', ['-c', line.replaceAll(`'${publicUrl}`, `'${evil.url}`)], { env }));
  await evil.close();
  t.not(tampered.code, 0);
  t.regex(tampered.stderr, /does not match the SHA-256 in this line; nothing was run/);
  t.false(existsSync(join(root, 'tampered-script-ran')));
  t.false(existsSync(env.GSM_AGENT_PREFIX));
  t.deepEqual(await downloadDirs(), tmpBefore, 'the mktemp -d directory is removed');

  // Without sha256sum the line says so and does nothing else.
  const noSha = await failure(run('/bin/sh', ['-c', command], { env: { PATH: join(root, 'tmp') } }));
  t.not(noSha.code, 0);
  t.regex(noSha.stderr, /sha256sum is required .*nothing was run/);

  // A package that is not the one the line names is not installed, and the code is not spent.
  const evilPackage = await tamperedService(Buffer.concat([pkg.tgz, Buffer.from('x')]), '/agent/package.tgz');
  const badPackage = await failure(run('sh', ['-c', line.replaceAll(`'${publicUrl}`, `'${evilPackage.url}`)], { env }));
  await evilPackage.close();
  t.not(badPackage.code, 0);
  t.regex(badPackage.stderr, /the downloaded agent package does not match the SHA-256 in the install line; nothing was installed/);
  t.false(existsSync(env.GSM_AGENT_PREFIX));
  t.deepEqual(await downloadDirs(), tmpBefore, 'the script removes its directory too');

  const output = await run('sh', ['-c', command], { env });
  t.false(`${output.stdout}${output.stderr}`.includes(agentToken), 'the token is never printed');
  t.false(`${output.stdout}${output.stderr}`.includes('sudo'));
  t.regex(output.stdout, /installed gsm-agent \d+\.\d+\.\d+/);
  t.regex(output.stdout, /registration code exchanged/);
  t.deepEqual(await downloadDirs(), tmpBefore, 'the directories are removed');

  const config = JSON.parse(await readFile(env.GSM_CONFIG, 'utf8')) as Record<string, unknown>;
  t.like(config, { url: [app.url], machineId, token: agentToken, dataDir: env.GSM_DATA_DIR, user: 'gsm', allowRoot: false });
  t.is((await stat(env.GSM_CONFIG)).mode & 0o777, 0o600);
  t.is(execFileSync('id', ['-un', 'gsm'], { encoding: 'utf8' }).trim(), 'gsm');
  const unit = await readFile(join(env.GSM_UNIT_DIR, 'gsm-agent.service'), 'utf8');
  t.regex(unit, /^KillMode=process$/m);
  t.regex(unit, /^RestartPreventExitStatus=2$/m);
  t.regex(unit, /^Delegate=yes$/m);
  t.regex(unit, /^TimeoutStopSec=(\d+)$/m);
  t.true(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)![1]) > 60, 'longer than the graceful stop escalation (60 s)');
  t.regex(unit, new RegExp(`^ExecStart=\\S+ ${env.GSM_AGENT_PREFIX}/gsm-agent.mjs run --config ${env.GSM_CONFIG}$`, 'm'));
  t.false(unit.includes(agentToken));

  // What the unit runs, run here by hand (no systemd in CI): it connects with the configuration file alone.
  const agent = spawn(NODE20, [join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs'), 'run', '--config', env.GSM_CONFIG, '--stop-servers-on-exit'], {
    env: { PATH: env.PATH },
    stdio: 'ignore',
  });
  children.push(agent);
  await until(async () => (await machineStatus(machineId)) === 'ONLINE', 'machine ONLINE');
  const status = await run(NODE20, [join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs'), 'status', '--config', env.GSM_CONFIG]);
  t.regex(status.stdout, /connection: connected to/);

  // The same line again: the code is used. Run as if by a sudoer (`id -u` answers 1000), it goes through sudo, and
  // the installer says why it stops, with a non-zero exit status; the configuration is left as it was.
  await writeFile(join(bin, 'id'), '#!/bin/sh\n[ "$1" = -u ] && { echo 1000; exit 0; }\nexec /usr/bin/id "$@"\n');
  await writeFile(join(bin, 'sudo'), `#!/bin/sh\ntouch ${join(root, 'sudo-used')}\nexec "$@"\n`);
  await chmod(join(bin, 'id'), 0o755);
  // A refused code changes nothing on the machine: the installed package is not replaced either.
  await writeFile(join(env.GSM_AGENT_PREFIX, 'still-here'), '');
  const used = await failure(run('sh', ['-c', command], { env }));
  await rm(join(bin, 'id'));
  t.not(used.code, 0);
  t.true(existsSync(join(root, 'sudo-used')), 'not root: the line uses sudo');
  t.regex(used.stderr, /the service refused the registration code \(410\): This install code was already used .*new install line/);
  t.is(JSON.parse(await readFile(env.GSM_CONFIG, 'utf8')).token, agentToken);
  t.true(existsSync(join(env.GSM_AGENT_PREFIX, 'still-here')), 'the package was not replaced');
  t.regex(used.stderr, /already holds an agent token for this machine: to reinstall with it/);

  // An expired code: refused the same way.
  const fresh = await body(await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: owner.auth })));
  await app.pool.query(sql.unsafe`UPDATE agent_install_codes SET expires_at = now() - interval '1 second' WHERE machine_id = ${machineId} AND used_at IS NULL`);
  const expired = await failure(run('sh', ['-c', String(fresh.install.command).replaceAll(`'${publicUrl}`, `'${app.url}`)], { env }));
  t.not(expired.code, 0);
  t.regex(expired.stderr, /the service refused the registration code \(410\): This install code expired at /);
  t.is(await machineStatus(machineId), 'ONLINE', 'the installed agent is untouched');

  // Without systemd and without a unit directory, install says how to start the agent instead.
  const again = await run(
    'sh',
    ['-c', `printf '%s\\n' '${agentToken}' | ${NODE20} ${join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs')} install --url ${app.url} --machine-id ${machineId}`],
    {
      env: { ...env, GSM_UNIT_DIR: '' },
    },
  );
  if (!existsSync('/run/systemd/system'))
    t.regex(again.stdout, /systemd does not run on this machine; start the agent with:\n\s+\S+ \S+gsm-agent.mjs run --config /);
  // An agent token that is not one is refused before anything is written.
  const bad = await failure(
    run('sh', ['-c', `printf 'nope\\n' | ${NODE20} ${join(env.GSM_AGENT_PREFIX, 'gsm-agent.mjs')} install --url ${app.url} --machine-id ${machineId}`], {
      env,
    }),
  );
  t.is(bad.code, 2);
  t.regex(bad.stderr, /neither an agent token .* nor a registration code/);
});

test.serial('the upgrade line replaces the package in place, checked the same way, and needs no token; the script alone wants the hash', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'gsm-upgrade-'));
  const prefix = join(root, 'opt', 'gsm-agent');
  const { machineId } = await registerMachine(app, owner);
  const answer = await body(await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: owner.auth })));
  const publicUrl = app.deps.config.publicUrl;
  const upgrade = String(answer.install.upgradeCommand);
  t.false(upgrade.includes('gsm_install_'), 'no code in the upgrade line');
  t.regex(upgrade, / --upgrade' gsm-install /);
  const env = { PATH: process.env.PATH, GSM_AGENT_PREFIX: prefix, GSM_NODE: NODE20 };
  const output = await run('sh', ['-c', upgrade.replaceAll(`'${publicUrl}`, `'${app.url}`)], { env });
  t.regex(output.stdout, /installed gsm-agent/);
  t.true(existsSync(join(prefix, 'gsm-agent.mjs')));
  t.false(existsSync(`${prefix}.old`));
  const version = JSON.parse(await readFile('package.json', 'utf8')).version as string;
  t.is(execFileSync(NODE20, [join(prefix, 'gsm-agent.mjs'), '--version'], { encoding: 'utf8' }).trim(), version);

  // The script run by hand refuses to install a package it cannot check, unless told so explicitly.
  const script = join(root, 'install.sh');
  await writeFile(script, Buffer.from(await (await app.request('/agent/install.sh')).arrayBuffer()));
  const unchecked = await failure(run('sh', [script, '--url', app.url, '--upgrade'], { env }));
  t.is(unchecked.code, 1);
  t.regex(unchecked.stderr, /--package-sha256 is required/);
  const explicit = await run('sh', [script, '--url', app.url, '--upgrade', '--no-package-check'], { env });
  t.regex(explicit.stdout, /installed gsm-agent/);
  t.false(explicit.stderr.includes('WARNING'), 'plain http to this host is not warned about');
  // Plain http elsewhere: a loud warning before anything is downloaded.
  const exposed = await failure(run('sh', [script, '--url', 'http://gsm.invalid', '--upgrade', '--no-package-check'], { env }));
  t.not(exposed.code, 0);
  t.regex(exposed.stderr, /WARNING: http:\/\/gsm\.invalid is plain http: the registration code, the agent token and the package cross the network unencrypted/);
});

test('the code exchange follows no redirect, and a 429 or 5xx is "try again later" with the code still good', async (t) => {
  const { machineId } = await registerMachine(app, owner);
  const fresh = await body(await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: owner.auth })));
  const code = /'(gsm_install_[0-9A-Za-z]{43})'/.exec(String(fresh.install.command))![1]!;
  const root = await mkdtemp(join(tmpdir(), 'gsm-exchange-'));
  let answer: { status: number; headers: Record<string, string> } = { status: 307, headers: { location: `${app.url}/agent/register` } };
  const server = createServer((_request, response) => {
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify({ statusCode: answer.status, message: 'busy' }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const exchange = () =>
    failure(
      run(
        'sh',
        [
          '-c',
          `printf '%s\\n' '${code}' | ${process.execPath} agent/cli.ts install --url ${url} --config ${join(root, 'config.json')} --credentials-to ${root}`,
        ],
        { env: { PATH: process.env.PATH } },
      ),
    );

  const redirected = await exchange();
  t.is(redirected.code, 1);
  t.regex(redirected.stderr, /could not reach .*\/agent\/register to exchange the registration code/);
  for (const status of [429, 503]) {
    answer = { status, headers: {} };
    const busy = await exchange();
    t.is(busy.code, 1);
    t.regex(busy.stderr, new RegExp(`could not take the registration code now \\(${status}\\): busy; the code was not used: try the same line again later`));
  }
  t.false(existsSync(join(root, 'token')));
  // The redirect was not followed: the code still works.
  t.is((await app.request('/agent/register', json({ code }))).status, 200);
});
