/**
 * Installs and updates with the real agent (docs/installs-and-backups.md), downloading from a local HTTP server: a
 * new MINECRAFT server installs itself from the version manifest and starts with its default start command (`java`
 * here is a stand-in that runs the fake game); an UPDATE of a running server stops, updates and starts it; a jar whose
 * SHA-1 is wrong is refused and the previous installation keeps working; SteamCMD is installed on first use, its
 * progress becomes the job's, a failed run is tried again; CUSTOM runs installCommand; a running server cannot be
 * installed over (409).
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, FAKE_SERVER, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { fakeJar, serveMinecraft, serveSteamcmd, startDownloadServer, type DownloadServer } from '../support/downloads.ts';
import { accountNameOf } from '../../agent/servers/accounts.ts';

let app: GatewayApp;
let owner: TestUser;
let downloads: DownloadServer;
let shims: string;
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  owner = await signUp(app);
  downloads = await startDownloadServer();
  // `java -Xmx… -jar server.jar nogui` (the default start command) runs the fake game, as Minecraft would once installed.
  shims = await mkdtemp(join(tmpdir(), 'gsm-shims-'));
  await writeFile(
    join(shims, 'java'),
    `#!/bin/sh\n[ -f server.jar ] || { echo "Error: Unable to access jarfile server.jar"; exit 1; }\nhead -n 1 server.jar\nexec "${process.execPath}" "${FAKE_SERVER}"\n`,
  );
  await chmod(join(shims, 'java'), 0o755);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await downloads?.close();
  await app?.close();
});

const request = (path: string, payload?: unknown, method = 'POST') => app.request(path, json(payload ?? {}, { method, headers: owner.auth }));
const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));
const statusOf = async (serverId: string) => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`));
const jobEnds = async (jobId: string, timeoutMs = 30_000) => {
  let job: Record<string, any> = {};
  await until(
    async () => {
      job = await get(`/api/v1/jobs/${jobId}`);
      return job.finishedAt !== null;
    },
    `job ${jobId} to end`,
    timeoutMs,
  );
  return job;
};
/** The job's progress as its job.updated events said it. */
const progressOf = async (clusterId: string, jobId: string) => {
  const events = await get(`/api/v1/clusters/${clusterId}/events?type=job.updated&limit=100`);
  return (events.data as { data: { id: string; progress: { percent: number | null; message: string } | null } }[])
    .filter((event) => event.data.id === jobId && event.data.progress)
    .map((event) => event.data.progress!);
};

async function machineWithAgent(env: Record<string, string> = {}, options: { accounts?: boolean } = {}) {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({
    url: app.url,
    machineId,
    token,
    ...options,
    env: { PATH: `${shims}:${process.env.PATH}`, GSM_MINECRAFT_MANIFEST_URL: `${downloads.url}/mc/version_manifest_v2.json`, ...env },
  });
  agents.push(agent);
  await until(async () => (await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`)) === 'ONLINE', 'machine ONLINE');
  return { clusterId, machineId, agent };
}

async function createMinecraft(clusterId: string, machineId: string, extra: Record<string, unknown> = {}) {
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const response = await request(`/api/v1/clusters/${clusterId}/servers`, {
    name: 'survival',
    gameType: 'MINECRAFT',
    machineId,
    gamePort,
    queryPort,
    rconPort,
    acceptEula: true,
    env: { FAKE_MODE: 'minecraft', FAKE_READY_DELAY_MS: '50' },
    ...extra,
  });
  const server = await body(response);
  if (response.status !== 201) throw new Error(JSON.stringify(server));
  return { server, installJob: response.headers.get('gsm-install-job') };
}

const dirOf = (agent: AgentProcess, serverId: string) => join(agent.dataDir, 'servers', serverId);

test.serial('a new MINECRAFT server installs itself from the version manifest, then starts with its default start command', async (t) => {
  serveMinecraft(downloads, ['1.21.3', '1.21.4']);
  const { clusterId, machineId, agent } = await machineWithAgent();
  const { server, installJob } = await createMinecraft(clusterId, machineId);
  t.truthy(installJob, 'the create answer names the INSTALL job');
  const installed = await jobEnds(installJob!);
  t.is(installed.type, 'INSTALL');
  t.is(installed.status, 'SUCCEEDED', JSON.stringify(installed.error));
  t.is(installed.result.version, '1.21.4', 'no version: the latest release');
  const dir = dirOf(agent, server.id);
  t.deepEqual(await readFile(join(dir, 'server.jar')), fakeJar('1.21.4'));
  t.regex(await readFile(join(dir, 'eula.txt'), 'utf8'), /^eula=true$/m);
  t.false(existsSync(join(agent.dataDir, 'staging', server.id)), 'nothing left in the staging directory');
  const record = await get(`/api/v1/servers/${server.id}`);
  t.like(record, { installedVersion: '1.21.4', status: 'OFFLINE', version: null });
  t.truthy(record.installedAt);
  // INSTALLING while it ran: the durable status events say so.
  const statuses = await get(`/api/v1/clusters/${clusterId}/events?type=server.status&serverId=${server.id}`);
  t.true(statuses.data.some((event: { data: { status: string } }) => event.data.status === 'INSTALLING'));

  const started = await body(await request(`/api/v1/servers/${server.id}/start?wait=30`));
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started.error));
  t.is(await statusOf(server.id), 'ONLINE');
  // A running server is not installed over.
  const refused = await request(`/api/v1/servers/${server.id}/install`);
  t.is(refused.status, 409);
  t.regex((await body(refused)).message, /stop it first/);
});

test.serial('UPDATE of a running server: stopped, updated to the version asked for, started again; a jar with a wrong SHA-1 is refused', async (t) => {
  serveMinecraft(downloads, ['1.20.1', '1.21.0', '1.21.1'], { wrongSha1: ['1.21.1'] });
  const { clusterId, machineId, agent } = await machineWithAgent();
  const { server, installJob } = await createMinecraft(clusterId, machineId, { version: '1.20.1', acceptEula: false });
  t.is((await jobEnds(installJob!)).status, 'SUCCEEDED');
  const dir = dirOf(agent, server.id);
  t.false(existsSync(join(dir, 'eula.txt')), 'no eula.txt without acceptEula');
  await request(`/api/v1/servers/${server.id}`, { acceptEula: true }, 'PATCH');
  t.is((await body(await request(`/api/v1/servers/${server.id}/start?wait=30`))).status, 'SUCCEEDED');

  t.is((await request(`/api/v1/servers/${server.id}`, { version: '1.21.0' }, 'PATCH')).status, 200);
  const updated = await jobEnds((await body(await request(`/api/v1/servers/${server.id}/update`))).id);
  t.is(updated.status, 'SUCCEEDED', JSON.stringify(updated.error));
  t.is(updated.result.version, '1.21.0');
  t.deepEqual(await readFile(join(dir, 'server.jar')), fakeJar('1.21.0'));
  await until(async () => (await statusOf(server.id)) === 'ONLINE', 'ONLINE again after the update');
  t.is((await get(`/api/v1/servers/${server.id}`)).installedVersion, '1.21.0');
  const statuses = (await get(`/api/v1/clusters/${clusterId}/events?type=server.status&serverId=${server.id}&limit=100`)).data.map(
    (event: { data: { status: string } }) => event.data.status,
  );
  const sinceUpdate = statuses.slice(statuses.lastIndexOf('STOPPING'));
  t.deepEqual(
    sinceUpdate.filter((status: string, index: number) => status !== sinceUpdate[index - 1]),
    ['STOPPING', 'OFFLINE', 'INSTALLING', 'OFFLINE', 'STARTING', 'ONLINE'],
  );

  // The same version again downloads nothing.
  const jarHits = downloads.hits.get('/mc/jars/1.21.0/server.jar');
  const again = await jobEnds((await body(await request(`/api/v1/servers/${server.id}/update`))).id);
  t.is(again.result.message, 'Minecraft 1.21.0 is already installed');
  t.is(downloads.hits.get('/mc/jars/1.21.0/server.jar'), jarHits);

  // A wrong checksum: refused, the previous installation stays and runs.
  await request(`/api/v1/servers/${server.id}`, { version: '1.21.1' }, 'PATCH');
  const refused = await jobEnds((await body(await request(`/api/v1/servers/${server.id}/update`))).id);
  t.is(refused.status, 'FAILED');
  t.is(refused.error.code, 'CHECKSUM_MISMATCH');
  t.regex(refused.error.message, /SHA-1 [0-9a-f]{40} is not the expected/);
  t.deepEqual(await readFile(join(dir, 'server.jar')), fakeJar('1.21.0'), 'the working jar was not replaced');
  t.false(existsSync(join(agent.dataDir, 'staging', server.id)));
  await until(async () => (await statusOf(server.id)) === 'ONLINE', 'started again on its previous installation');
  const failedStatus = (await get(`/api/v1/clusters/${clusterId}/events?type=server.status&serverId=${server.id}&limit=100`)).data.find(
    (event: { data: { status: string } }) => event.data.status === 'INSTALL_FAILED',
  );
  t.regex(failedStatus.data.reason, /update failed: .*SHA-1/);

  // A version the manifest does not have.
  await request(`/api/v1/servers/${server.id}`, { version: '9.9.9' }, 'PATCH');
  const missing = await jobEnds((await body(await request(`/api/v1/servers/${server.id}/update`))).id);
  t.is(missing.error.code, 'VERSION_NOT_FOUND');
});

test.serial('SteamCMD: installed once on first use, progress reported on the job, a failed run tried again', async (t) => {
  const steamcmdUrl = await serveSteamcmd(downloads, { failures: 1 });
  const { clusterId, machineId, agent } = await machineWithAgent({ GSM_STEAMCMD_URL: steamcmdUrl });
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const created = await request(`/api/v1/clusters/${clusterId}/servers`, { name: 'rust', gameType: 'RUST', machineId, gamePort, queryPort, rconPort });
  t.is(created.status, 201);
  const server = await body(created);
  const installed = await jobEnds(created.headers.get('gsm-install-job')!);
  t.is(installed.status, 'SUCCEEDED', JSON.stringify(installed.error));
  t.regex(await readFile(join(dirOf(agent, server.id), 'installed-app-258550.txt'), 'utf8'), /^app 258550 installed by /);
  const progress = await progressOf(clusterId, installed.id);
  t.true(
    progress.some((entry) => entry.message === 'SteamCMD: downloading' && entry.percent !== null && entry.percent > 0 && entry.percent < 100),
    JSON.stringify(progress),
  );
  t.is(downloads.hits.get('/steamcmd_linux.tar.gz'), 1);
  // The console showed SteamCMD's own lines, the failed first run and its retry.
  const consoleLines = (await get(`/api/v1/servers/${server.id}/console?lines=100`)).lines.map((line: { line: string }) => line.line);
  t.true(consoleLines.includes("Error! App '258550' state is 0x6 after update job."), JSON.stringify(consoleLines));
  t.true(consoleLines.includes('[gsm] SteamCMD: app 258550 is in state 0x6 after the update; trying again'));
  t.true(consoleLines.includes("Success! App '258550' fully installed."));

  // A second server on the machine reuses the downloaded SteamCMD.
  const [p1, p2, p3] = await freePorts(3);
  const second = await request(`/api/v1/clusters/${clusterId}/servers`, {
    name: 'rust 2',
    gameType: 'RUST',
    machineId,
    gamePort: p1,
    queryPort: p2,
    rconPort: p3,
  });
  t.is((await jobEnds(second.headers.get('gsm-install-job')!)).status, 'SUCCEEDED');
  t.is(downloads.hits.get('/steamcmd_linux.tar.gz'), 1);
});

test.serial('SteamCMD reporting a full disk fails the install at once, saying so; the server is INSTALL_FAILED', async (t) => {
  downloads.put('/steamcmd_linux.tar.gz', Buffer.alloc(0));
  const steamcmdUrl = await serveSteamcmd(downloads, { diskFull: true });
  const { clusterId, machineId } = await machineWithAgent({ GSM_STEAMCMD_URL: steamcmdUrl });
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const created = await request(`/api/v1/clusters/${clusterId}/servers`, { name: 'ark', gameType: 'VALHEIM', machineId, gamePort, queryPort, rconPort });
  const server = await body(created);
  const failed = await jobEnds(created.headers.get('gsm-install-job')!);
  t.is(failed.status, 'FAILED');
  t.is(failed.error.code, 'DISK_FULL');
  t.regex(failed.error.message, /0x202 .*not enough disk space/);
  t.true(failed.error.consoleTail.some((line: string) => line.includes('0x202')));
  await until(async () => (await statusOf(server.id)) === 'INSTALL_FAILED', 'INSTALL_FAILED');
  t.regex((await get(`/api/v1/servers/${server.id}`)).statusReason, /install failed: .*disk space/);
});

test.serial('CUSTOM: installCommand runs in the server directory; a failing one fails the job with its output', async (t) => {
  const { clusterId, machineId, agent } = await machineWithAgent();
  const good = await createFakeServer(app, owner, clusterId, machineId, {
    autoInstall: true,
    installCommand: `sh -c "echo fetched > payload.txt && echo done installing"`,
  });
  const jobs = await get(`/api/v1/clusters/${clusterId}/jobs?serverId=${good.id}&type=INSTALL`);
  t.is(jobs.data.length, 1);
  t.is((await jobEnds(jobs.data[0].id)).status, 'SUCCEEDED');
  t.is(await readFile(join(dirOf(agent, good.id), 'payload.txt'), 'utf8'), 'fetched\n');

  const bad = await createFakeServer(app, owner, clusterId, machineId, { installCommand: `sh -c "echo cannot reach the mirror; exit 4"` });
  t.is((await get(`/api/v1/clusters/${clusterId}/jobs?serverId=${bad.id}&type=INSTALL`)).data.length, 0, 'a start command of its own: not installed at once');
  const failed = await jobEnds((await body(await request(`/api/v1/servers/${bad.id}/install`))).id);
  t.like(failed, { status: 'FAILED', error: { code: 'INSTALL_FAILED', message: 'installCommand exited with code 4' } });
  t.deepEqual(failed.error.consoleTail, ['cannot reach the mirror']);
  t.is(await statusOf(bad.id), 'INSTALL_FAILED');
  // Fixed and installed again: the status clears.
  await request(`/api/v1/servers/${bad.id}`, { installCommand: 'true' }, 'PATCH');
  t.is((await jobEnds((await body(await request(`/api/v1/servers/${bad.id}/install`))).id)).status, 'SUCCEEDED');
  t.is(await statusOf(bad.id), 'OFFLINE');
});

test.serial('as root, SteamCMD, its script (0600) and the installed files belong to the server’s own account', async (t) => {
  if (process.getuid?.() !== 0) return t.pass('needs root (CI runs as root)');
  const steamcmdUrl = await serveSteamcmd(downloads);
  const { clusterId, machineId, agent } = await machineWithAgent({ GSM_STEAMCMD_URL: steamcmdUrl }, { accounts: true });
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const created = await request(`/api/v1/clusters/${clusterId}/servers`, { name: 'cs', gameType: 'CS2', machineId, gamePort, queryPort, rconPort });
  const server = await body(created);
  t.is((await jobEnds(created.headers.get('gsm-install-job')!)).status, 'SUCCEEDED');
  const account = accountNameOf('gsm', server.id);
  t.is(await readFile(join(dirOf(agent, server.id), 'installed-app-730.txt'), 'utf8'), `app 730 installed by ${account}\nrunscript mode 600\n`);
});

test('install and update: OWNER and ADMIN only, unknown servers 404, bad fields 400', async (t) => {
  const { clusterId, machineId } = await registerMachine(app, owner);
  const { server } = await createMinecraft(clusterId, machineId, { autoInstall: false });
  t.is((await get(`/api/v1/clusters/${clusterId}/jobs?serverId=${server.id}`)).data.length, 0, 'autoInstall: false');
  const viewer = await signUp(app);
  await app.pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${viewer.id}, 'MODERATOR')`);
  t.is((await app.request(`/api/v1/servers/${server.id}/install`, json({}, { headers: viewer.auth }))).status, 403);
  t.is((await request('/api/v1/servers/00000000-0000-7000-8000-000000000000/update')).status, 404);
  // Not known to its agent yet (status INSTALLING until its first report): an install is accepted, not a 409.
  t.is(await statusOf(server.id), 'INSTALLING');
  t.is((await request(`/api/v1/servers/${server.id}/install`)).status, 202);
  for (const bad of [
    { version: '' },
    { version: 'a b' },
    { version: 'x'.repeat(65) },
    { backupRetention: 0 },
    { backupRetention: 101 },
    { installCommand: 'a\nb' },
  ]) {
    const answer = await request(`/api/v1/servers/${server.id}`, bad, 'PATCH');
    t.is(answer.status, 400, JSON.stringify(bad));
  }
  const badCustom = await request(`/api/v1/clusters/${clusterId}/servers`, {
    name: 'c',
    gameType: 'CUSTOM',
    machineId,
    gamePort: 41000,
    queryPort: 41001,
    rconPort: 41002,
    startCommand: 'x',
    autoInstall: true,
  });
  t.is(badCustom.status, 400);
  t.deepEqual((await body(badCustom)).details, [{ field: 'installCommand', message: 'required to install a CUSTOM server' }]);
  t.like(await get(`/api/v1/servers/${server.id}`), { version: null, acceptEula: true, installCommand: null, backupRetention: 5, installedVersion: null });
});
