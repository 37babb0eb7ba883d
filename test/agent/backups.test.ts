/**
 * Backups with the real agent (docs/installs-and-backups.md): a running MINECRAFT world is flushed with saving paused
 * and archived (consistent), its SHA-256 and size recorded; a file changed afterwards is back as it was after a
 * restore; a restore needs a stopped server; retention deletes the oldest backups and the agent their archives; a
 * scheduled task's BACKUP step makes one; with an S3 target the archive goes to a local S3-compatible server (its
 * signatures checked) and comes back from it.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { FAKE_SERVER, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { startS3Server } from '../support/s3Store.ts';
import { scheduleOccurrence } from '../../orchestrator/tasks/store.ts';

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
const closers: (() => Promise<void>)[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  for (const close of closers) await close();
  await app?.close();
});

const request = (path: string, payload?: unknown, method = 'POST') => app.request(path, json(payload ?? {}, { method, headers: owner.auth }));
const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));
const jobEnds = async (jobId: string) => get(`/api/v1/jobs/${jobId}?wait=60`);
const sha256Of = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const consoleLines = async (serverId: string) =>
  (await get(`/api/v1/servers/${serverId}/console?lines=200`)).lines.map((line: { line: string }) => line.line.replace(/^\[[^\]]*\] \[[^\]]*\]: /, ''));

/** A MINECRAFT-style fake game (console on standard input) on a machine with its agent, started. */
async function minecraftServer(env: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const agent = await startAgent({ url: app.url, machineId, token, env });
  agents.push(agent);
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const created = await request(`/api/v1/clusters/${clusterId}/servers`, {
    name: 'world',
    gameType: 'MINECRAFT',
    machineId,
    gamePort,
    queryPort,
    rconPort,
    startCommand: `${process.execPath} ${FAKE_SERVER}`,
    env: { FAKE_MODE: 'minecraft', FAKE_READY_DELAY_MS: '50' },
    ...extra,
  });
  const server = await body(created);
  if (created.status !== 201) throw new Error(JSON.stringify(server));
  const started = await body(await request(`/api/v1/servers/${server.id}/start?wait=30`));
  if (started.status !== 'SUCCEEDED') throw new Error(JSON.stringify(started));
  return { clusterId, serverId: server.id as string, agent, dir: join(agent.dataDir, 'servers', server.id) };
}

async function backUp(serverId: string, name?: string, options: { requireConsistent?: boolean } = {}) {
  const answer = await request(`/api/v1/servers/${serverId}/backups`, { ...(name ? { name } : {}), ...options });
  if (answer.status !== 202) throw new Error(`${answer.status} ${await answer.text()}`);
  const job = await body(answer);
  const ended = await jobEnds(job.id);
  return { job: ended, backup: await get(answer.headers.get('location')!) };
}

test.serial(
  'a running MINECRAFT server that ignores save-off is archived unflushed, consistent: false with the reason; requireConsistent fails instead',
  async (t) => {
    const { serverId, agent } = await minecraftServer({}, { env: { FAKE_MODE: 'minecraft', FAKE_READY_DELAY_MS: '50', FAKE_IGNORE_SAVE_OFF: '1' } });
    const { job, backup } = await backUp(serverId, 'nightly');
    t.is(job.status, 'SUCCEEDED', JSON.stringify(job.error));
    t.like(backup, { status: 'COMPLETED', consistent: false, error: null });
    t.like(job.result, { consistent: false, message: 'backed up, not consistent' });
    t.regex(
      String(job.result.inconsistentReason),
      /the world could not be flushed \(no answer to "save-off" within \d+ ms\): archived while the game was writing/,
    );
    t.true(existsSync(join(agent.dataDir, 'backups', serverId, `${backup.id}.tar.gz`)));

    const strict = await backUp(serverId, 'strict', { requireConsistent: true });
    t.is(strict.job.status, 'FAILED');
    t.is(strict.job.error.code, 'NOT_CONSISTENT');
    t.regex(strict.job.error.message, /could not be flushed.*requireConsistent/);
    t.like(strict.backup, { status: 'FAILED', consistent: null });
    t.false(existsSync(join(agent.dataDir, 'backups', serverId, `${strict.backup.id}.tar.gz`)));
    t.is(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`), 'ONLINE', 'the server kept running');
  },
);

test.serial('a MINECRAFT server that pauses saving but never finishes its flush: the backup fails, nothing archived, saving on again', async (t) => {
  const { serverId, agent } = await minecraftServer(
    { GSM_FLUSH_TIMEOUT_MS: '1500' },
    { env: { FAKE_MODE: 'minecraft', FAKE_READY_DELAY_MS: '50', FAKE_NEVER_FLUSH: '1' } },
  );
  const { job, backup } = await backUp(serverId, 'mid-flush');
  t.is(job.status, 'FAILED');
  t.is(job.error.code, 'FLUSH_FAILED');
  t.regex(job.error.message, /not flushed \(no answer to "save-all flush" within 1500 ms\); automatic saving is on again/);
  t.like(backup, { status: 'FAILED', consistent: null });
  t.false(existsSync(join(agent.dataDir, 'backups', serverId, `${backup.id}.tar.gz`)));
  // The console reaches the service on its own path: it may come a moment after the job's result.
  await until(async () => {
    const lines = await consoleLines(serverId);
    return lines.lastIndexOf('Automatic saving is now enabled') > lines.lastIndexOf('Saving the game (this may take a moment!)');
  }, 'saving turned on again after the flush');
});

test.serial('a running MINECRAFT world is flushed and archived; a change made afterwards is undone by a restore', async (t) => {
  const { serverId, agent, dir } = await minecraftServer();
  // A change the game holds in memory: only a flush (save-all) puts it on disk.
  t.is((await body(await request(`/api/v1/servers/${serverId}/rcon`, { command: 'sim.world world/region.mca before the backup' }))).success, true);
  t.false(existsSync(join(dir, 'world', 'region.mca')));

  const { job, backup } = await backUp(serverId, 'before the wipe');
  t.is(job.status, 'SUCCEEDED', JSON.stringify(job.error));
  t.like(backup, { serverId, name: 'before the wipe', status: 'COMPLETED', consistent: true, location: 'LOCAL', jobId: job.id, error: null });
  const archive = join(agent.dataDir, 'backups', serverId, `${backup.id}.tar.gz`);
  t.is(backup.sha256, await sha256Of(archive));
  t.is(backup.sizeBytes, (await readFile(archive)).length);
  t.is(await readFile(join(dir, 'world', 'region.mca'), 'utf8'), 'before the backup', 'the flush wrote the world before it was archived');
  let lines: string[] = [];
  await until(async () => (lines = await consoleLines(serverId)).includes('Automatic saving is now enabled'), 'the console to show save-on');
  const order = ['Automatic saving is now disabled', 'Saved the game', 'Automatic saving is now enabled'].map((line) => lines.lastIndexOf(line));
  t.true(order[0]! >= 0 && order[0]! < order[1]! && order[1]! < order[2]!, JSON.stringify(lines.slice(-10)));
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT status FROM servers WHERE id = ${serverId}`), 'ONLINE', 'the server kept running');

  // Restore needs a stopped server.
  const running = await request(`/api/v1/backups/${backup.id}/restore`);
  t.is(running.status, 409);
  t.regex((await body(running)).message, /stop it first/);

  t.is((await body(await request(`/api/v1/servers/${serverId}/stop?wait=30`))).status, 'SUCCEEDED');
  await writeFile(join(dir, 'world', 'region.mca'), 'griefed');
  await writeFile(join(dir, 'world', 'new.mca'), 'made after the backup');
  const restore = await request(`/api/v1/backups/${backup.id}/restore`);
  t.is(restore.status, 202);
  const restored = await jobEnds((await body(restore)).id);
  t.is(restored.status, 'SUCCEEDED', JSON.stringify(restored.error));
  t.is(restored.type, 'RESTORE');
  t.is(await readFile(join(dir, 'world', 'region.mca'), 'utf8'), 'before the backup');
  t.false(existsSync(join(dir, 'world', 'new.mca')), 'the directory was replaced, not merged');
  t.deepEqual(
    (await readdir(join(agent.dataDir, 'servers'))).filter((name) => name.startsWith(serverId)),
    [serverId],
    'no old or half-restored directory left beside it',
  );
  t.is((await body(await request(`/api/v1/servers/${serverId}/start?wait=30`))).status, 'SUCCEEDED', 'the restored server starts');

  // A damaged archive is refused by its checksum; the directory stays as it was.
  await request(`/api/v1/servers/${serverId}/stop?wait=30`);
  const bytes = await readFile(archive);
  bytes[bytes.length - 20] ^= 0xff;
  await writeFile(archive, bytes);
  await writeFile(join(dir, 'world', 'region.mca'), 'current');
  const damaged = await jobEnds((await body(await request(`/api/v1/backups/${backup.id}/restore`))).id);
  t.is(damaged.status, 'FAILED');
  t.regex(damaged.error.code, /CHECKSUM_MISMATCH|RESTORE_FAILED/);
  t.is(await readFile(join(dir, 'world', 'region.mca'), 'utf8'), 'current');
});

test.serial('retention keeps the newest backups; deleted ones lose their archives; bad requests are 4xx', async (t) => {
  const { serverId, agent } = await minecraftServer({}, { backupRetention: 2 });
  const made: { id: string; clusterId: string }[] = [];
  for (const name of ['one', 'two', 'three']) made.push((await backUp(serverId, name)).backup);
  const listed = await get(`/api/v1/servers/${serverId}/backups`);
  t.deepEqual(
    listed.data.map((backup: { name: string }) => backup.name),
    ['three', 'two'],
  );
  t.is(listed.meta.total, 2);
  t.is((await app.request(`/api/v1/backups/${made[0].id}`, { headers: owner.auth })).status, 404);

  // The agent removes archives of backups the service no longer has, once they are a minute old.
  const dir = join(agent.dataDir, 'backups', serverId);
  const old = new Date(Date.now() - 5 * 60_000);
  for (const name of await readdir(dir)) await utimes(join(dir, name), old, old);
  await request(`/api/v1/servers/${serverId}`, { name: 'world 2' }, 'PATCH'); // any change: a servers:sync
  await until(async () => !existsSync(join(dir, `${made[0].id}.tar.gz`)), 'the oldest archive removed');
  t.true(existsSync(join(dir, `${made[1].id}.tar.gz`)));

  const deleted = await app.request(`/api/v1/backups/${made[1].id}`, { method: 'DELETE', headers: owner.auth });
  t.is(deleted.status, 200);
  await until(async () => !existsSync(join(dir, `${made[1].id}.tar.gz`)), 'the deleted backup’s archive removed');
  t.true(existsSync(join(dir, `${made[2].id}.tar.gz`)));
  t.is((await app.request(`/api/v1/backups/${made[1].id}`, { method: 'DELETE', headers: owner.auth })).status, 404);
  const audit = await get(`/api/v1/clusters/${made[2].clusterId}/audit-log?limit=100`);
  t.true(audit.data.some((entry: { action: string }) => entry.action === 'backup.delete'));

  t.is((await request(`/api/v1/servers/${serverId}/backups`, { name: '' })).status, 400);
  t.is((await request(`/api/v1/servers/${serverId}/backups`, { name: 'x', extra: 1 })).status, 400);
  t.is((await request('/api/v1/backups/not-an-id/restore')).status, 404);
  t.is((await request('/api/v1/backups/00000000-0000-7000-8000-000000000000/restore')).status, 404);
  const viewer = await signUp(app);
  await app.pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${made[2].clusterId}, ${viewer.id}, 'VIEWER')`);
  t.is((await app.request(`/api/v1/servers/${serverId}/backups`, { headers: viewer.auth })).status, 200, 'every member reads them');
  t.is((await app.request(`/api/v1/servers/${serverId}/backups`, json({}, { headers: viewer.auth }))).status, 403);
  t.is((await app.request(`/api/v1/backups/${made[2].id}/restore`, json({}, { headers: viewer.auth }))).status, 403);
});

test.serial('the nightly task: warn, save, back up — on schedule', async (t) => {
  const { clusterId, serverId } = await minecraftServer();
  const created = await request(`/api/v1/clusters/${clusterId}/tasks`, {
    name: 'nightly backup',
    schedule: '0 4 * * *',
    serverIds: [serverId],
    steps: [{ type: 'BROADCAST', message: 'Backing up the world' }, { type: 'RCON', command: 'save-all' }, { type: 'BACKUP' }],
  });
  t.is(created.status, 201, await created.clone().text());
  const task = await body(created);
  const at = new Date(Math.ceil((Date.now() + 1_500) / 1000) * 1000);
  await app.pool.transaction((tx) => scheduleOccurrence(tx, task.id, at));
  let runs: { id: string }[] = [];
  await until(async () => (runs = (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&type=TASK_RUN`)).data).length > 0, 'the run', 20_000);
  const run = await get(`/api/v1/jobs/${runs[0]!.id}?wait=60`);
  t.is(run.status, 'SUCCEEDED', JSON.stringify(run));
  const backups = (await get(`/api/v1/servers/${serverId}/backups`)).data;
  t.is(backups.length, 1);
  t.like(backups[0], { status: 'COMPLETED', consistent: true });
  t.regex(backups[0].name, /^nightly backup \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  const job = await get(`/api/v1/jobs/${backups[0].jobId}`);
  t.like(job, { type: 'BACKUP', taskId: task.id, createdBy: { kind: 'TASK', id: task.id } });
});

test.serial('with an S3 target, the archive goes to S3-compatible storage and a restore reads it back', async (t) => {
  const s3 = await startS3Server();
  closers.push(() => s3.close());
  const target = { endpoint: s3.url, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, prefix: 'gsm/' };
  const { serverId, agent, dir } = await minecraftServer({ GSM_BACKUP_S3: JSON.stringify(target) });
  await writeFile(join(dir, 'marker.txt'), 'in the backup');
  const { job, backup } = await backUp(serverId);
  t.is(job.status, 'SUCCEEDED', JSON.stringify(job.error));
  t.like(backup, { status: 'COMPLETED', location: 'S3' });
  t.false(existsSync(join(agent.dataDir, 'backups', serverId, `${backup.id}.tar.gz`)), 'no local copy kept');
  const key = `gsm/${serverId}/${backup.id}.tar.gz`;
  const stored = s3.objectBytes(key);
  t.truthy(stored, `object ${key} in the bucket`);
  t.is(createHash('sha256').update(stored!).digest('hex'), backup.sha256);
  // The agent's secret is nowhere in what it logged.
  t.false(agent.lines.some((line) => line.includes(s3.secretAccessKey)));

  t.is((await body(await request(`/api/v1/servers/${serverId}/stop?wait=30`))).status, 'SUCCEEDED');
  await writeFile(join(dir, 'marker.txt'), 'changed');
  const restored = await jobEnds((await body(await request(`/api/v1/backups/${backup.id}/restore`))).id);
  t.is(restored.status, 'SUCCEEDED', JSON.stringify(restored.error));
  t.is(await readFile(join(dir, 'marker.txt'), 'utf8'), 'in the backup');

  // Deleted: the object goes too.
  await utimes(join(agent.dataDir, 'backups', serverId, `${backup.id}.s3`), new Date(0), new Date(0));
  t.is((await app.request(`/api/v1/backups/${backup.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  await until(async () => s3.objectBytes(key) === undefined, 'the S3 object deleted');
});
