/**
 * Transfers between two machines with two real agents (docs/transfers.md): a running server with a 64 MiB directory and
 * a local backup ends ONLINE on the target with its files and backup identical by SHA-256 (and, as root, owned by its
 * account there), its old ports freed and a `server.transferred` event; power and file actions meanwhile answer 409
 * naming the job; a cancel before the switch leaves it running on its source, a cancel that comes when the copy is
 * complete but not yet switched too; either agent killed during the copy and started again: the copy resumes from what
 * the target had acknowledged.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { chown, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { body, json } from '../support/app.ts';
import { until } from '../support/wait.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { isRoot, removeTestAccounts } from '../support/serverAccounts.ts';
import { requestTransferCancel } from '../../orchestrator/transfers/cancel.ts';
import { reservedOn } from '../../orchestrator/transfers/store.ts';
import { createDatabasePool } from '../../sql/pool.ts';

const MiB = 1024 * 1024;
/** The game's directory: one big file of random bytes (gzip cannot shrink it) and a small one with a mode of its own. */
const BIG_BYTES = 64 * MiB;
const LONG_MS = 600_000;

let app: GatewayApp;
let owner: TestUser;
const agents: AgentProcess[] = [];
const prefixes: string[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
  owner = await signUp(app);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
  // The agents' data directories (each test's 64 MiB and its copies), and the accounts of this file's own prefixes.
  await Promise.all(agents.map((agent) => rm(agent.dataDir, { recursive: true, force: true })));
  removeTestAccounts(...prefixes);
});

const request = (path: string, payload?: unknown, method = 'POST') => app.request(path, json(payload ?? {}, { method, headers: owner.auth }));
const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));
const sha256Of = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

type Machine = { machineId: string; token: string; agent: AgentProcess; prefix: string };

async function agentFor(machineId: string, token: string, prefix: string, dataDir?: string) {
  const agent = await startAgent({ url: app.url, machineId, token, accounts: isRoot, env: { GSM_USER: prefix }, ...(dataDir ? { dataDir } : {}) });
  agents.push(agent);
  return agent;
}

/** Two machines of one cluster, each with its agent (as root: accounts of a prefix of its own), and a server on the first, running. */
async function twoMachines() {
  const first = await registerMachine(app, owner);
  const second = await body(await request(`/api/v1/clusters/${first.clusterId}/machines`, { name: 'target' }));
  const machines: Machine[] = [];
  for (const [machineId, token] of [
    [first.machineId, first.token],
    [second.id as string, second.agentToken as string],
  ] as const) {
    const prefix = `gx${randomBytes(2).toString('hex')}`;
    prefixes.push(prefix);
    machines.push({ machineId, token, prefix, agent: await agentFor(machineId, token, prefix) });
  }
  const [source, target] = machines as [Machine, Machine];
  for (const machine of machines) await until(async () => (await get(`/api/v1/machines/${machine.machineId}`)).status === 'ONLINE', 'machine online', 60_000);
  const server = await createFakeServer(app, owner, first.clusterId, source.machineId, { autoRestart: false });
  const started = await body(await request(`/api/v1/servers/${server.id}/start?wait=60`));
  if (started.status !== 'SUCCEEDED') throw new Error(JSON.stringify(started));
  // The game's files, as its account would have them.
  const dir = join(source.agent.dataDir, 'servers', server.id);
  const owner_ = await stat(dir);
  await writeFile(join(dir, 'world.bin'), randomBytes(BIG_BYTES));
  await writeFile(join(dir, 'start.sh'), '#!/bin/sh\necho hi\n', { mode: 0o750 });
  for (const name of ['world.bin', 'start.sh']) await chown(join(dir, name), owner_.uid, owner_.gid);
  return { clusterId: first.clusterId, serverId: server.id, source, target, dir };
}

async function transfer(serverId: string, machineId: string, extra: Record<string, unknown> = {}) {
  const [game, query, rcon] = await freePorts(3);
  const answer = await request(`/api/v1/servers/${serverId}/transfer`, { machineId, allocations: { game, query, rcon }, ...extra });
  const job = await body(answer);
  if (answer.status !== 202) throw new Error(`${answer.status} ${JSON.stringify(job)}`);
  return { job, ports: { game: game!, query: query!, rcon: rcon! } };
}

const jobOf = (jobId: string) => get(`/api/v1/jobs/${jobId}`);
async function ended(jobId: string) {
  let job: Record<string, any> = {};
  await until(async () => ['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'].includes((job = await jobOf(jobId)).status), 'the transfer ended', LONG_MS);
  return job;
}

test.serial('a running server with its files and a local backup moves to the other machine and is ONLINE there, identical', async (t) => {
  t.timeout(LONG_MS);
  const { clusterId, serverId, source, target, dir } = await twoMachines();
  const backup = await body(await request(`/api/v1/servers/${serverId}/backups`, {}));
  const backupJob = await get(`/api/v1/jobs/${backup.id}?wait=60`);
  t.is(backupJob.status, 'SUCCEEDED', JSON.stringify(backupJob));
  const backupId = backupJob.params.backupId as string;
  const backupSha = (await get(`/api/v1/backups/${backupId}`)).sha256 as string;
  const worldSha = await sha256Of(join(dir, 'world.bin'));
  const oldPorts = (await get(`/api/v1/servers/${serverId}`)).ports as { name: string; port: number }[];

  const { job, ports } = await transfer(serverId, target.machineId);
  t.is(job.type, 'TRANSFER');
  // Power and file actions meanwhile: 409 naming the transfer.
  const refused = await request(`/api/v1/servers/${serverId}/restart`);
  t.is(refused.status, 409);
  t.is((await body(refused)).jobId, job.id);
  const files = await app.request(`/api/v1/servers/${serverId}/files?path=/`, { headers: owner.auth });
  t.is(files.status, 409);

  const done = await ended(job.id);
  t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
  t.is(done.result.archiveSha256.length, 64);
  t.deepEqual(done.result.backups, [backupId]);
  await until(async () => (await get(`/api/v1/servers/${serverId}`)).status === 'ONLINE', 'ONLINE on the target', 120_000);
  const moved = await get(`/api/v1/servers/${serverId}`);
  t.is(moved.machineId, target.machineId);
  t.is(moved.gamePort, ports.game);

  const there = join(target.agent.dataDir, 'servers', serverId);
  t.is(await sha256Of(join(there, 'world.bin')), worldSha);
  t.is((await stat(join(there, 'start.sh'))).mode & 0o777, 0o750, 'modes kept');
  if (isRoot) {
    const uid = Number(spawnSync('stat', ['-c', '%u', there], { encoding: 'utf8' }).stdout.trim());
    t.not(uid, 0, 'the directory is the account’s');
    t.is((await stat(join(there, 'world.bin'))).uid, uid, 'the files belong to the server’s account on the target');
    t.not(uid, (await stat(dir).catch(() => ({ uid: -1 }))).uid);
  }
  t.is(await sha256Of(join(target.agent.dataDir, 'backups', serverId, `${backupId}.tar.gz`)), backupSha, 'the backup came along, identical');
  // The source's copy is gone, and its old ports free.
  await until(async () => !existsSync(dir), 'source directory removed', 60_000);
  t.false(existsSync(join(source.agent.dataDir, 'backups', serverId, `${backupId}.tar.gz`)));
  const sourcePorts = (await get(`/api/v1/machines/${source.machineId}/allocations`)).allocations as { port: number }[];
  t.false(
    sourcePorts.some((held) => oldPorts.some((old) => old.port === held.port)),
    'the old ports are free',
  );
  const events = await get(`/api/v1/clusters/${clusterId}/events?types=server.transferred`);
  t.is(events.data.length, 1);
  t.is(events.data[0].data.toMachineId, target.machineId);
  // The restore of the moved backup works on the target.
  t.is((await request(`/api/v1/servers/${serverId}/start`)).status, 202);
});

test.serial(
  'without includeBackups the local backups are named in the answer, deleted at the switch with an audit entry each, and removed from the source',
  async (t) => {
    t.timeout(LONG_MS);
    const { serverId, source, target } = await twoMachines();
    const backup = await body(await request(`/api/v1/servers/${serverId}/backups`, {}));
    const backupJob = await get(`/api/v1/jobs/${backup.id}?wait=60`);
    t.is(backupJob.status, 'SUCCEEDED', JSON.stringify(backupJob));
    const backupId = backupJob.params.backupId as string;
    const sourceFile = join(source.agent.dataDir, 'backups', serverId, `${backupId}.tar.gz`);
    t.true(existsSync(sourceFile));

    const { job } = await transfer(serverId, target.machineId, { includeBackups: false });
    t.deepEqual(job.params.backupsToDelete, [backupId], 'the answer says which backups stay behind and go');
    const done = await ended(job.id);
    t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
    t.deepEqual(done.result.backups, []);
    t.deepEqual(done.result.backupsDeleted, [backupId]);
    // Not listed as restorable on a machine that does not have its file.
    const listed = await get(`/api/v1/servers/${serverId}/backups`);
    t.false(
      (listed.data as { id: string }[]).some((one) => one.id === backupId),
      JSON.stringify(listed),
    );
    t.is((await app.request(`/api/v1/backups/${backupId}`, { headers: owner.auth })).status, 404);
    const audited = await app.pool.any(sql.type(z.object({ actorKind: z.string(), details: z.record(z.string(), z.unknown()) }))`
    SELECT actor_kind AS "actorKind", details FROM audit_log WHERE action = 'backup.delete' AND target_id = ${backupId}`);
    t.is(audited.length, 1);
    t.is(audited[0]!.details.transferJobId, job.id);
    await until(async () => !existsSync(sourceFile), 'the backup’s file removed from the source', 60_000);
    t.false(existsSync(join(target.agent.dataDir, 'backups', serverId, `${backupId}.tar.gz`)));
  },
);

test.serial('a transfer cancelled during its copy leaves the server running on its source as before', async (t) => {
  t.timeout(LONG_MS);
  const { serverId, source, target, dir } = await twoMachines();
  const { job } = await transfer(serverId, target.machineId, { bandwidthLimit: 2 * MiB });
  await until(async () => ((await jobOf(job.id)).progress?.bytesDone ?? 0) > 0, 'copying', LONG_MS);
  const cancel = await request(`/api/v1/jobs/${job.id}/cancel`);
  t.true([200, 202].includes(cancel.status), await cancel.text());
  const done = await ended(job.id);
  t.is(done.status, 'CANCELLED', JSON.stringify(done));
  await until(async () => (await get(`/api/v1/servers/${serverId}`)).status === 'ONLINE', 'ONLINE again on the source', 120_000);
  t.is((await get(`/api/v1/servers/${serverId}`)).machineId, source.machineId);
  t.true(existsSync(join(dir, 'world.bin')));
  t.false(existsSync(join(target.agent.dataDir, 'servers', serverId)), 'nothing left on the target');
  // Power actions work again.
  t.is((await request(`/api/v1/servers/${serverId}/restart`)).status, 202);
});

test.serial('a transfer without includeBackups that is cancelled keeps the backups (records and files) and releases what it reserved', async (t) => {
  t.timeout(LONG_MS);
  const { serverId, source, target } = await twoMachines();
  const backup = await body(await request(`/api/v1/servers/${serverId}/backups`, {}));
  const backupJob = await get(`/api/v1/jobs/${backup.id}?wait=60`);
  t.is(backupJob.status, 'SUCCEEDED', JSON.stringify(backupJob));
  const backupId = backupJob.params.backupId as string;
  const { job } = await transfer(serverId, target.machineId, { includeBackups: false, bandwidthLimit: 2 * MiB });
  t.deepEqual(job.params.backupsToDelete, [backupId]);
  t.is(typeof job.params.reservedBytes, 'number', 'checked against the target’s reported room, and reserved there');
  await until(async () => ((await jobOf(job.id)).progress?.bytesDone ?? 0) > 0, 'copying', LONG_MS);
  t.true([200, 202].includes((await request(`/api/v1/jobs/${job.id}/cancel`)).status));
  const done = await ended(job.id);
  t.is(done.status, 'CANCELLED', JSON.stringify(done));
  t.deepEqual(done.result.backupsDeleted, []);
  t.is((await get(`/api/v1/backups/${backupId}`)).id, backupId, 'the backup’s record is kept');
  t.true(existsSync(join(source.agent.dataDir, 'backups', serverId, `${backupId}.tar.gz`)), 'and its file');
  const held = await app.pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM transfer_ports WHERE job_id = ${job.id}`);
  t.is(held, 0, 'the target’s ports are released');
  t.is(await reservedOn(app.pool, target.machineId), 0, 'and the room it reserved on the target');
});

test.serial('bans the source parked (the server stopped), before the transfer and during it, reach the target’s list', async (t) => {
  t.timeout(LONG_MS);
  const { clusterId, serverId, target } = await twoMachines();
  const players: { id: string; steamId: string }[] = [];
  for (const steamId of ['76561198000000071', '76561198000000072']) {
    const joined = await body(await request(`/api/v1/servers/${serverId}/rcon`, { command: `sim.join ${steamId} P${steamId.slice(-2)}` }));
    t.true(joined.success, JSON.stringify(joined));
    let found: { id: string } | undefined;
    await until(async () => (found = (await get(`/api/v1/clusters/${clusterId}/players?search=${steamId}`)).data[0]) !== undefined, 'the player known');
    players.push({ id: found!.id, steamId });
  }
  t.is((await body(await request(`/api/v1/servers/${serverId}/stop?wait=60`))).status, 'SUCCEEDED');
  const ban = async (playerId: string) => {
    const { ban: made, jobIds } = await body(await request(`/api/v1/players/${playerId}/ban`, { serverId, reason: 'cheat' }));
    const job = await get(`/api/v1/jobs/${jobIds[0]}?wait=60`);
    t.like(job, { status: 'SUCCEEDED', result: { deferred: true } }, 'parked on the source, the server stopped');
    return made.id as string;
  };
  const before = await ban(players[0]!.id);
  const { job } = await transfer(serverId, target.machineId, { bandwidthLimit: 4 * MiB });
  await until(async () => ((await jobOf(job.id)).progress?.bytesDone ?? 0) > 0, 'copying', LONG_MS);
  const during = await ban(players[1]!.id);
  t.is((await ended(job.id)).status, 'SUCCEEDED');
  const onTarget = await app.pool.any(sql.type(z.object({ banId: z.string(), status: z.string() }))`
    SELECT params->>'banId' AS "banId", status FROM jobs WHERE server_id = ${serverId} AND machine_id = ${target.machineId} AND type = 'BAN'`);
  t.deepEqual(onTarget.map((one) => one.banId).sort(), [before, during].sort());
  const pendingFile = join(target.agent.dataDir, 'run', serverId, '.gsm-pending-moderation.json');
  await until(async () => {
    const parked = JSON.parse(await readFile(pendingFile, 'utf8').catch(() => '[]')) as { type: string; steamId: string }[];
    return players.every((player) => parked.some((action) => action.type === 'BAN' && action.steamId === player.steamId));
  }, 'both bans waiting on the target for the game');
});

for (const role of ['target', 'source'] as const)
  test.serial(`the ${role}’s agent killed during the copy and started again: the copy resumes from what the target acknowledged`, async (t) => {
    t.timeout(LONG_MS);
    const { serverId, source, target, dir } = await twoMachines();
    const killed = role === 'source' ? source : target;
    const worldSha = await sha256Of(join(dir, 'world.bin'));
    const { job } = await transfer(serverId, target.machineId, { bandwidthLimit: 4 * MiB });
    let seen = 0;
    await until(async () => (seen = (await jobOf(job.id)).progress?.bytesDone ?? 0) > 8 * MiB, 'copying', LONG_MS);
    killed.agent.child.kill('SIGKILL');
    await killed.agent.exited;
    // What each keeps is on its disk (the source's archive and list of items, the target's part files).
    killed.agent = await agentFor(killed.machineId, killed.token, killed.prefix, killed.agent.dataDir);
    const done = await ended(job.id);
    t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
    const resumes = done.result.resumes as { fromBytes: number; acknowledgedBefore: number }[];
    t.true(resumes.length >= 1, JSON.stringify(resumes));
    t.true(resumes[0]!.fromBytes >= seen, `resumed from ${resumes[0]!.fromBytes}, after ${seen} bytes were acknowledged: not from zero`);
    await until(async () => (await get(`/api/v1/servers/${serverId}`)).status === 'ONLINE', 'ONLINE on the target', 120_000);
    t.is((await get(`/api/v1/servers/${serverId}`)).machineId, target.machineId);
    t.is(await sha256Of(join(target.agent.dataDir, 'servers', serverId, 'world.bin')), worldSha);
  });

test.serial('a cancel that comes after the last chunk, while the target puts the copy in place, rolls back instead of stranding the switch', async (t) => {
  t.timeout(LONG_MS);
  const { serverId, source, target, dir } = await twoMachines();
  const { job } = await transfer(serverId, target.machineId);
  // The window: every byte acknowledged (the copy's last cancel check is behind it), the target still extracting. The
  // test holds the transfer's row there, so the runner's next write to it waits, and asks for the cancel meanwhile:
  // the runner sees it only once the copy is in place, just before its switch.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let pid = 0;
  let holding: Promise<void> | undefined;
  const row = z.object({ phase: z.string(), bytesDone: z.coerce.number(), bytesTotal: z.coerce.number().nullable() });
  for (;;) {
    let locked: (pid: number) => void = () => {};
    const lockedBy = new Promise<number>((resolve) => (locked = resolve));
    const attempt = app.pool.transaction(async (tx) => {
      const now = await tx.one(sql.type(row)`
        SELECT phase, bytes_done AS "bytesDone", bytes_total AS "bytesTotal" FROM transfers WHERE job_id = ${job.id} FOR UPDATE`);
      if (now.phase !== 'COPY' && now.phase !== 'CHECK_SPACE' && now.phase !== 'STOP' && now.phase !== 'PACK')
        throw new Error(`the transfer went on to ${now.phase} before the test held it`);
      if (now.phase !== 'COPY' || now.bytesTotal === null || now.bytesDone < now.bytesTotal) return locked(0);
      await requestTransferCancel(tx, job.id);
      locked(await tx.oneFirst(sql.type(z.object({ pid: z.number() }))`SELECT pg_backend_pid() AS pid`));
      await held;
    });
    pid = await Promise.race([lockedBy, attempt.then(() => 0)]);
    holding = attempt;
    if (pid) break;
    await attempt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // The runner is past the copy's own checks: its next write to the row waits for the test's transaction. (Looked at
  // through a pool of its own: the service's may be busy with writes waiting for the same row.) The lease's renewal
  // (every 3 s) may be queued for the row first: the write then waits behind it, and is blocked by the renewal, which
  // the test's transaction blocks.
  const watcher = await createDatabasePool(app.database.url, { maxPoolSize: 1 });
  await until(
    async () =>
      (await watcher.oneFirst(sql.type(z.object({ waiting: z.number() }))`
        SELECT count(*)::int AS waiting FROM pg_stat_activity a
         WHERE a.query LIKE 'UPDATE transfers SET updated_at%'
           AND (${pid}::int = ANY (pg_blocking_pids(a.pid))
                OR EXISTS (SELECT 1 FROM unnest(pg_blocking_pids(a.pid)) AS ahead(pid) WHERE ${pid}::int = ANY (pg_blocking_pids(ahead.pid))))`)) > 0,
    'the runner waiting for the row after the copy',
    120_000,
  ).finally(() => watcher.end());
  release();
  await holding;
  let done: Record<string, any> = {};
  await until(
    async () => ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes((done = await jobOf(job.id)).status),
    'the transfer ended, not stuck in SWITCH',
    180_000,
  );
  t.is(done.status, 'CANCELLED', JSON.stringify(done));
  await until(async () => (await get(`/api/v1/servers/${serverId}`)).status === 'ONLINE', 'ONLINE again on the source', 120_000);
  t.is((await get(`/api/v1/servers/${serverId}`)).machineId, source.machineId);
  t.true(existsSync(join(dir, 'world.bin')));
  t.false(existsSync(join(target.agent.dataDir, 'servers', serverId)), 'nothing left on the target');
});

test.serial('a machine a transfer uses cannot be deleted (409 naming the job), and a server with a job under way cannot be transferred (409)', async (t) => {
  t.timeout(LONG_MS);
  const { serverId, source, target } = await twoMachines();
  const { job } = await transfer(serverId, target.machineId, { bandwidthLimit: 65_536 });
  for (const machineId of [target.machineId, source.machineId]) {
    const refused = await app.request(`/api/v1/machines/${machineId}?force=true`, { method: 'DELETE', headers: owner.auth });
    t.is(refused.status, 409);
    t.true(String((await body(refused)).message).includes(job.id));
  }
  t.true([200, 202].includes((await request(`/api/v1/jobs/${job.id}/cancel`)).status));
  t.is((await ended(job.id)).status, 'CANCELLED');
  // A job the source's agent has not taken yet (it is away): the transfer would archive files that job may change.
  await source.agent.stop();
  await until(async () => (await get(`/api/v1/machines/${source.machineId}`)).status !== 'ONLINE', 'source offline', 60_000);
  const pending = await request(`/api/v1/servers/${serverId}/start`);
  t.is(pending.status, 202, await pending.clone().text());
  const pendingJob = await body(pending);
  const [game, query, rcon] = await freePorts(3);
  const busy = await request(`/api/v1/servers/${serverId}/transfer`, { machineId: target.machineId, allocations: { game, query, rcon } });
  t.is(busy.status, 409);
  const answer = await body(busy);
  t.is(answer.code, 'JOB_IN_PROGRESS');
  t.is(answer.jobId, pendingJob.id);
});

/**
 * Holds the transfer's row once every byte is copied (the target still putting the copy in place, the switch not
 * made): `during` runs meanwhile, in the holding transaction's time; the runner goes on when it returns.
 */
async function whileCopiedNotSwitched(jobId: string, during: () => Promise<void>) {
  const row = z.object({ phase: z.string(), bytesDone: z.coerce.number(), bytesTotal: z.coerce.number().nullable() });
  for (;;) {
    const held = await app.pool.transaction(async (tx) => {
      const now = await tx.one(sql.type(row)`
        SELECT phase, bytes_done AS "bytesDone", bytes_total AS "bytesTotal" FROM transfers WHERE job_id = ${jobId} FOR UPDATE`);
      if (!['COPY', 'CHECK_SPACE', 'STOP', 'PACK'].includes(now.phase)) throw new Error(`the transfer went on to ${now.phase} before the test held it`);
      if (now.phase !== 'COPY' || now.bytesTotal === null || now.bytesDone < now.bytesTotal) return false;
      await during();
      return true;
    });
    if (held) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test.serial('a ban queued for the source when the switch comes moves to the target and runs there once; RCON meanwhile is a 409', async (t) => {
  t.timeout(LONG_MS);
  const { clusterId, serverId, source, target } = await twoMachines();
  const steamId = '76561198000000081';
  const joined = await body(await request(`/api/v1/servers/${serverId}/rcon`, { command: `sim.join ${steamId} P81` }));
  t.true(joined.success, JSON.stringify(joined));
  let player: { id: string } | undefined;
  await until(async () => (player = (await get(`/api/v1/clusters/${clusterId}/players?search=${steamId}`)).data[0]) !== undefined, 'the player known');

  const { job } = await transfer(serverId, target.machineId);
  // RCON is refused while the server moves: no RCON job can be waiting for the source at the switch.
  const rcon = await request(`/api/v1/servers/${serverId}/rcon`, { command: 'status' });
  t.is(rcon.status, 409);
  t.like(await body(rcon), { code: 'TRANSFER_IN_PROGRESS', jobId: job.id });

  let banId = '';
  let banJobId = '';
  await whileCopiedNotSwitched(job.id, async () => {
    // The source's agent is gone (the copy no longer needs it): the ban waits for it, QUEUED, when the switch comes.
    await source.agent.stop();
    const made = await body(await request(`/api/v1/players/${player!.id}/ban`, { serverId, reason: 'cheat' }));
    banId = made.ban.id as string;
    banJobId = made.jobIds[0] as string;
    t.like(await jobOf(banJobId), { status: 'QUEUED', machineId: source.machineId });
  });
  const done = await ended(job.id);
  t.is(done.status, 'SUCCEEDED', JSON.stringify(done));
  t.false(done.result.sourceCleanedUp, 'the source was away at the clean up');

  let ban: Record<string, any> = {};
  await until(async () => ['SUCCEEDED', 'FAILED', 'EXPIRED'].includes((ban = await jobOf(banJobId)).status), 'the ban ran', 120_000);
  t.like(ban, { status: 'SUCCEEDED', machineId: target.machineId }, 'the same job, run by the target');
  const jobs = await app.pool.any(sql.type(z.object({ machineId: z.string(), status: z.string() }))`
    SELECT machine_id AS "machineId", status FROM jobs WHERE type = 'BAN' AND params->>'banId' = ${banId}`);
  t.deepEqual(jobs, [{ machineId: target.machineId, status: 'SUCCEEDED' }], 'once: not given again to the target, nor left for the source');
  // The source comes back: nothing of that ban is sent to it.
  source.agent = await agentFor(source.machineId, source.token, source.prefix, source.agent.dataDir);
  await until(async () => (await get(`/api/v1/machines/${source.machineId}`)).status === 'ONLINE', 'the source back', 60_000);
  const count = await app.pool.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM jobs WHERE params->>'banId' = ${banId} AND machine_id = ${source.machineId}`);
  t.is(count, 0);
});

test.serial('a server that does not start on its target: START_FAILED says why, the server stays there usable, nothing of the transfer is left', async (t) => {
  t.timeout(LONG_MS);
  const { serverId, source, target, dir } = await twoMachines();
  const [game, query, rcon] = await freePorts(3);
  // The game's RCON port on the target is taken by another process: the agent refuses to start the game (PORT_IN_USE).
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(rcon, '0.0.0.0', resolve));
  let squatting = true;
  t.teardown(() => void (squatting && squatter.close()));
  const accepted = await request(`/api/v1/servers/${serverId}/transfer`, { machineId: target.machineId, allocations: { game, query, rcon } });
  const job = await body(accepted);
  t.is(accepted.status, 202, JSON.stringify(job));

  const done = await ended(job.id);
  t.is(done.status, 'FAILED', JSON.stringify(done));
  t.is(done.error.code, 'START_FAILED');
  t.regex(done.error.message, /PORT_IN_USE/, 'it says why');
  t.is(done.result.machineId, target.machineId);
  t.true(done.result.sourceCleanedUp);
  const server = await get(`/api/v1/servers/${serverId}`);
  t.is(server.machineId, target.machineId, 'on the target, to stay');
  t.is(server.gamePort, game);
  // Clean: no port reserved, no transfer files on either machine; the source keeps the server's files (for whoever
  // looks into it), the target has them in place.
  t.is(await app.pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM transfer_ports WHERE job_id = ${job.id}`), 0);
  await until(async () => !existsSync(join(source.agent.dataDir, 'transfers', job.id)), 'the source’s transfer files removed', 60_000);
  await until(async () => !existsSync(join(target.agent.dataDir, 'transfers', job.id)), 'the target’s transfer files removed', 60_000);
  t.true(existsSync(join(dir, 'world.bin')));
  t.true(existsSync(join(target.agent.dataDir, 'servers', serverId, 'world.bin')));

  // Usable: no 409 any more, and once the port is free it starts there.
  squatting = false;
  await new Promise((resolve) => squatter.close(resolve));
  const started = await body(await request(`/api/v1/servers/${serverId}/start?wait=60`));
  t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
  await until(async () => (await get(`/api/v1/servers/${serverId}`)).status === 'ONLINE', 'ONLINE on the target', 120_000);
});
