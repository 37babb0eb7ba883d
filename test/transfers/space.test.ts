/**
 * A transfer is refused at once (409 NO_SPACE, nothing reserved) when the target's last reported free space cannot
 * hold the server (its size as its agent last measured it, twice: the copy and its extraction), its local backups when
 * they follow, and what the other transfers to that machine not yet switched reserved (docs/transfers.md). The agents
 * are protocol clients that report the figures over a real connection.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json } from '../support/app.ts';
import { startGatewayApp, socketIoAgent, type GatewayApp, type TestAgent } from '../support/gateway.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { until } from '../support/wait.ts';
import { createFakeServer, freePorts, registerMachine, type AgentProcess } from '../support/agentProcess.ts';
import { accountPrefix, removeTestAccounts, startFilesAgent } from '../support/serverAccounts.ts';
import { chown, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

const MiB = 1024 * 1024;
const MARGIN = 64 * MiB;

let app: GatewayApp;
let owner: TestUser;
const agents: TestAgent[] = [];
const realAgents: AgentProcess[] = [];
const prefixes: string[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 30 });
  owner = await signUp(app);
});
test.after.always(async () => {
  for (const agent of agents) agent.close();
  await Promise.all(realAgents.map((agent) => agent.stop()));
  await app?.close();
  await Promise.all(realAgents.map((agent) => rm(agent.dataDir, { recursive: true, force: true })));
  removeTestAccounts(...prefixes);
});

const post = (path: string, payload: unknown = {}) => app.request(path, json(payload, { method: 'POST', headers: owner.auth }));

async function connect(machineId: string, token: string) {
  const agent = await socketIoAgent(app);
  agents.push(agent);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  await agent.next('authenticated');
  return agent;
}

async function reportFree(agent: TestAgent, machineId: string, freeBytes: number) {
  agent.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1, diskFreeBytes: freeBytes }, uptime: 1 });
  await until(
    async () =>
      (await app.pool.maybeOneFirst(sql.type(z.object({ free: z.coerce.number().nullable() }))`
        SELECT (metrics ->> 'diskFreeBytes')::bigint AS free FROM machines WHERE id = ${machineId}`)) === freeBytes,
    'the free space recorded',
    60_000,
  );
}

async function reportSize(agent: TestAgent, serverId: string, diskBytes: number) {
  // Sent again until recorded: a server just created is this machine's for the gateway once its sync went out.
  await until(
    async () =>
      agent.send('server:stats', { serverId, cpuPercent: 0, memoryBytes: 0, diskBytes, at: new Date().toISOString() }) === undefined &&
      (await app.pool.maybeOneFirst(sql.type(z.object({ size: z.coerce.number().nullable() }))`
        SELECT (stats ->> 'diskBytes')::bigint AS size FROM servers WHERE id = ${serverId}`)) === diskBytes,
    'the server’s size recorded',
    // The size is written every STATS_WRITE_MS (5 s), once the gateway's sync names the new server: on a loaded
    // machine that took longer than the default 15 s in one CI run.
    60_000,
  );
}

async function transfer(serverId: string, machineId: string, extra: Record<string, unknown> = {}) {
  const [game, query, rcon] = await freePorts(3);
  const answer = await post(`/api/v1/servers/${serverId}/transfer`, { machineId, allocations: { game, query, rcon }, ...extra });
  return { status: answer.status, body: await body(answer) };
}

/** Two machines of one cluster, each with its (protocol) agent connected. */
async function twoMachines() {
  const first = await registerMachine(app, owner);
  const second = await body(await post(`/api/v1/clusters/${first.clusterId}/machines`, { name: 'target' }));
  return { first, second, source: await connect(first.machineId, first.token), target: await connect(second.id, second.agentToken) };
}

const transfersOf = (serverId: string) =>
  app.pool.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM transfers WHERE server_id = ${serverId}`);

test.serial('refused at once when the server, its backups or the other transfers to the machine do not fit its last reported free space', async (t) => {
  const { first, second, source, target } = await twoMachines();
  const big = await createFakeServer(app, owner, first.clusterId, first.machineId);
  const other = await createFakeServer(app, owner, first.clusterId, first.machineId);
  await reportSize(source, big.id, 600 * MiB);
  await reportSize(source, other.id, 400 * MiB);

  // 1 GiB free; the big server needs 1200 MiB and the margin.
  await reportFree(target, second.id, 1024 * MiB);
  const refused = await transfer(big.id, second.id);
  t.is(refused.status, 409, JSON.stringify(refused.body));
  t.like(refused.body, { code: 'NO_SPACE', freeBytes: 1024 * MiB, neededBytes: 1200 * MiB + MARGIN, reservedBytes: 0 });
  t.regex(String(refused.body.message), /last reported 1073741824 bytes free/);
  t.is(await transfersOf(big.id), 0, 'nothing accepted, no port reserved');

  // 2 GiB free: it fits, and reserves its 1200 MiB.
  await reportFree(target, second.id, 2048 * MiB);
  const accepted = await transfer(big.id, second.id);
  t.is(accepted.status, 202, JSON.stringify(accepted.body));
  t.is(accepted.body.params.reservedBytes, 1200 * MiB);
  // The other server would fit alone (800 MiB and the margin), not beside what the first transfer reserved.
  const crowded = await transfer(other.id, second.id);
  t.is(crowded.status, 409, JSON.stringify(crowded.body));
  t.like(crowded.body, { code: 'NO_SPACE', reservedBytes: 1200 * MiB, neededBytes: 800 * MiB + MARGIN + 1200 * MiB });
  t.is(await transfersOf(other.id), 0);
});

test.serial('the local backups count when they follow the server, not when they stay behind', async (t) => {
  const { first, second, source, target } = await twoMachines();
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId);
  await reportSize(source, server.id, 10 * MiB);
  // A completed local backup of 1.5 GiB (its job ended as the agent reports it).
  const backup = await body(await post(`/api/v1/servers/${server.id}/backups`));
  await app.pool.query(sql.unsafe`
    UPDATE jobs SET status = 'SUCCEEDED', finished_at = now(),
                    result = ${sql.jsonb({ sizeBytes: 1536 * MiB, sha256: 'a'.repeat(64), location: 'LOCAL' })}
     WHERE id = ${backup.id}`);
  await reportFree(target, second.id, 1024 * MiB);

  const withBackups = await transfer(server.id, second.id);
  t.is(withBackups.status, 409, JSON.stringify(withBackups.body));
  t.like(withBackups.body, { code: 'NO_SPACE', neededBytes: 20 * MiB + 1536 * MiB + MARGIN });
  t.regex(String(withBackups.body.message), /local backups/);
  const without = await transfer(server.id, second.id, { includeBackups: false });
  t.is(without.status, 202, JSON.stringify(without.body));
  t.is(without.body.params.reservedBytes, 20 * MiB);
});

test.serial('the server’s last measured size still counts once its agent is gone (its live stats cleared)', async (t) => {
  const { first, second, source, target } = await twoMachines();
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId);
  await reportSize(source, server.id, 600 * MiB);
  source.close();
  await until(
    async () => (await app.pool.oneFirst(sql.unsafe`SELECT stats IS NULL FROM servers WHERE id = ${server.id}`)) === true,
    'the live stats cleared with the agent gone',
  );
  await reportFree(target, second.id, 1024 * MiB);
  const refused = await transfer(server.id, second.id);
  t.is(refused.status, 409, JSON.stringify(refused.body));
  t.like(refused.body, { code: 'NO_SPACE', neededBytes: 1200 * MiB + MARGIN });
});

test.serial('a target that reports no free space, or only an old figure, is accepted unchecked and the answer says what was not known', async (t) => {
  const { first, second, source, target } = await twoMachines();
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId);
  const other = await createFakeServer(app, owner, first.clusterId, first.machineId);
  await reportSize(source, server.id, 600 * MiB);
  // An older agent: heartbeats without diskFreeBytes.
  target.send('heartbeat', { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1 });
  await until(
    async () =>
      (await app.pool.oneFirst(sql.unsafe`SELECT metrics IS NOT NULL AND NOT metrics ? 'diskFreeBytes' FROM machines WHERE id = ${second.id}`)) === true,
    'the heartbeat recorded',
  );
  const unchecked = await transfer(server.id, second.id);
  t.is(unchecked.status, 202, JSON.stringify(unchecked.body));
  t.is(unchecked.body.params.reservedBytes, undefined);
  t.true((unchecked.body.params.spaceUnknown as string[]).some((what) => what.includes('free space')));

  // A figure far too small, but reported long ago (as if the agent stopped beating): not taken for the truth.
  await reportFree(target, second.id, 1);
  await app.pool.query(sql.unsafe`
    UPDATE machines SET metrics = jsonb_set(metrics, '{at}', to_jsonb((now() - interval '1 hour')::text)) WHERE id = ${second.id}`);
  const stale = await transfer(other.id, second.id);
  t.is(stale.status, 202, JSON.stringify(stale.body));
  t.true((stale.body.params.spaceUnknown as string[]).some((what) => what.includes('free space')));
  t.true((stale.body.params.spaceUnknown as string[]).some((what) => what.includes('never measured')));
});

test.serial('a stopped server never measured is measured by its source agent at the request, and counts', async (t) => {
  // The source is the real agent (its file helper measures the directory as the server's account); the target a
  // protocol client reporting its free space.
  const first = await registerMachine(app, owner);
  const second = await body(await post(`/api/v1/clusters/${first.clusterId}/machines`, { name: 'target' }));
  const target = await connect(second.id, second.agentToken);
  const prefix = accountPrefix();
  prefixes.push(prefix);
  const { agent, serverId, serverDir } = await startFilesAgent(app, owner, first, { prefix });
  realAgents.push(agent);
  // 96 MiB the game wrote (as its account); the server never ran here, so its agent never reported its size.
  const { uid, gid } = await stat(serverDir);
  const handle = await open(join(serverDir, 'world.bin'), 'w');
  for (let n = 0; n < 12; n++) await handle.write(Buffer.alloc(8 * MiB, n + 1));
  await handle.close();
  await chown(join(serverDir, 'world.bin'), uid, gid);
  t.is(
    await app.pool.oneFirst(sql.unsafe`SELECT coalesce((stats ->> 'diskBytes')::bigint, disk_bytes_measured) IS NULL FROM servers WHERE id = ${serverId}`),
    true,
  );

  // 200 MiB free: the 96 MiB twice and the margin do not fit (before, the size counted as nothing and it was accepted).
  await reportFree(target, second.id, 200 * MiB);
  const refused = await transfer(serverId, second.id);
  t.is(refused.status, 409, JSON.stringify(refused.body));
  t.is(refused.body.code, 'NO_SPACE');
  t.true((refused.body.neededBytes as number) >= 2 * 96 * MiB + MARGIN, JSON.stringify(refused.body));
  t.is(await transfersOf(serverId), 0);
  // The figure is kept as the server's last measured size.
  const measured = Number(await app.pool.oneFirst(sql.unsafe`SELECT disk_bytes_measured FROM servers WHERE id = ${serverId}`));
  t.true(measured >= 96 * MiB, String(measured));

  await reportFree(target, second.id, 1024 * MiB);
  const accepted = await transfer(serverId, second.id);
  t.is(accepted.status, 202, JSON.stringify(accepted.body));
  t.is(accepted.body.params.reservedBytes, 2 * measured);
  t.is(accepted.body.params.spaceUnknown, undefined, 'nothing unknown');
});

test.serial('live: true is refused (400, not offered) and changes nothing; live: false is the ordinary transfer', async (t) => {
  const { first, second } = await twoMachines();
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId);
  const live = await transfer(server.id, second.id, { live: true });
  t.is(live.status, 400, JSON.stringify(live.body));
  const detail = (live.body.details as { field: string; message: string }[]).find((one) => one.field === 'live');
  t.regex(detail?.message ?? '', /not offered/);
  t.is(await transfersOf(server.id), 0);
  const ordinary = await transfer(server.id, second.id, { live: false });
  t.is(ordinary.status, 202, JSON.stringify(ordinary.body));
});
