/**
 * Player ingest fairness: agents take turns for the ingest's transactions (orchestrator/players/turns.ts), so agents
 * flooding snapshots cannot push another agent's join back. Real Postgres; order is asserted, never wall-clock time.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { createPlayerIngest } from '../../orchestrator/players/ingest.ts';
import { createDatabasePool, type DatabasePool } from '../../sql/pool.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let database: TestDatabase;
let pool: DatabasePool;
test.before(async () => {
  database = await createTestDatabase();
  pool = await createDatabasePool(database.url, { maxPoolSize: 4 });
});
test.after.always(async () => {
  await pool?.end();
  await database?.drop();
});

/** `count` machines of one cluster, each with one ONLINE server. */
async function machinesWithServers(count: number) {
  const clusterId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`INSERT INTO clusters (name) VALUES ('turns') RETURNING id`);
  const agents: { machineId: string; serverId: string }[] = [];
  for (let index = 0; index < count; index++) {
    const machineId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
      INSERT INTO machines (cluster_id, name, agent_token_hash) VALUES (${clusterId}, ${`m${index}`}, ${sql.binary(randomBytes(32))}) RETURNING id`);
    const port = 20_000 + index * 3;
    const serverId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
      INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status, last_status_at)
      VALUES (${clusterId}, ${machineId}, ${`s${index}`}, 'RUST', ${port}, ${port + 1}, ${port + 2}, 1000, 'x', 'ONLINE', now() - interval '3 hours')
      RETURNING id`);
    agents.push({ machineId, serverId });
  }
  return agents;
}

test("agents take turns: however many snapshots noisy agents queue, a quiet agent's join is stored next", async (t) => {
  // The ingest as the gateway uses it, one transaction at a time so that the order is exact.
  const ingest = createPlayerIngest(pool, { concurrency: 1 });
  const [quiet, ...noisy] = await machinesWithServers(4);
  const stored: string[] = [];
  const snapshot = (index: number) =>
    ingest
      .snapshot(noisy[index]!.machineId, {
        serverId: noisy[index]!.serverId,
        players: Array.from({ length: 200 }, (_, n) => ({ steamId: `noisy-${index}-${n}`, username: `noisy ${n}` })),
        at: new Date().toISOString(),
      })
      .then(() => void stored.push(`noisy ${index}`));
  // The noisy agents have each had a turn already, as they do in a flood.
  await Promise.all(noisy.map((_, index) => snapshot(index)));
  stored.length = 0;
  // Each noisy agent queues three more snapshots; then the quiet agent reports one join.
  const flood = noisy.flatMap((_, index) => [snapshot(index), snapshot(index), snapshot(index)]);
  const join = ingest
    .events(quiet!.machineId, [
      { kind: 'join', report: { serverId: quiet!.serverId, steamId: '76561198000000042', username: 'quiet', at: new Date().toISOString() } },
    ])
    .then((known) => void stored.push(known[0] ? 'quiet' : 'quiet refused'));
  await Promise.all([...flood, join]);
  // The snapshot already running when the join came finishes first; the join is next, not behind the nine.
  t.is(stored.indexOf('quiet'), 1, stored.join(', '));
  // And the noisy agents took turns among themselves.
  t.deepEqual(
    stored.filter((entry) => entry !== 'quiet'),
    ['noisy 0', 'noisy 1', 'noisy 2', 'noisy 0', 'noisy 1', 'noisy 2', 'noisy 0', 'noisy 1', 'noisy 2'],
  );
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM player_sessions WHERE server_id = ${quiet!.serverId} AND left_at IS NULL`), 1);
});

test('turns are weighted by the reports stored: an agent reporting join after join still goes before each snapshot', async (t) => {
  const ingest = createPlayerIngest(pool, { concurrency: 1 });
  const [quiet, ...noisy] = await machinesWithServers(4);
  const stored: string[] = [];
  const snapshot = (index: number) =>
    ingest
      .snapshot(noisy[index]!.machineId, {
        serverId: noisy[index]!.serverId,
        players: Array.from({ length: 200 }, (_, n) => ({ steamId: `loud-${index}-${n}`, username: `loud ${n}` })),
        at: new Date().toISOString(),
      })
      .then(() => void stored.push('snapshot'));
  const flood = noisy.flatMap((_, index) => [snapshot(index), snapshot(index), snapshot(index)]);
  // Each join is sent once the previous one is stored, as an agent does with a join every now and then.
  for (let n = 0; n < 3; n++) {
    const at = new Date().toISOString();
    await ingest.events(quiet!.machineId, [{ kind: 'join', report: { serverId: quiet!.serverId, steamId: `quiet-${n}`, username: 'quiet', at } }]);
    stored.push('join');
  }
  await Promise.all(flood);
  // Taking turns one piece of work each, the second join would wait for all three noisy agents; weighted, it waits
  // only for the snapshot running when it came.
  t.deepEqual(stored.slice(0, 6), ['snapshot', 'join', 'snapshot', 'join', 'snapshot', 'join'], stored.join(', '));
});

test("a report whose transaction fails frees its slot: the same agent's next report is stored", async (t) => {
  const ingest = createPlayerIngest(pool, { concurrency: 2 });
  const [agent] = await machinesWithServers(1);
  // A server id Postgres refuses: the transaction fails, the next report of the same agent still runs.
  const broken = ingest.snapshot(agent!.machineId, { serverId: 'not-a-uuid', players: [], at: new Date().toISOString() });
  const fine = ingest.snapshot(agent!.machineId, { serverId: agent!.serverId, players: [{ steamId: 'a', username: 'a' }], at: new Date().toISOString() });
  await t.throwsAsync(broken);
  t.true(await fine);
});
