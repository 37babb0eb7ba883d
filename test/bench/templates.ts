/**
 * `npm run bench -- templates`: what a game template adds to a start job, in one run on this machine. A start job is
 * accepted (one transaction: the job row, the server's desired status, and with a template the version it will run)
 * and its server's configuration, template resolved, goes to the agent (servers:sync). Printed side by side:
 * (a) accepting a START of a server without a template (the baseline), (b) of a server with a built-in template and
 * (c) with a cluster template, and (d) resolving the template into the configuration the agent receives (built-in and
 * cluster template, as the sync does it). Accepts are timed inside their transaction (the COMMIT's disk flush, the
 * same for all, left out). Target: (b or c − a) + d ≤ 1 ms. BENCH_JOBS jobs each per round, 3 rounds (default 500).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';
import { createDatabasePool } from '../../sql/pool.ts';
import { migrate } from '../../sql/migrate.ts';
import { acceptServerJob } from '../../orchestrator/jobs/serverJobs.ts';
import { builtInCatalogue } from '../../orchestrator/templates/catalogue.ts';
import { serverSpec, type TemplatedServerRow } from '../../orchestrator/templates/spec.ts';
import { createTestDatabase } from '../support/database.ts';
import { percentile } from './support.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 500);

const database = await createTestDatabase();
await migrate(database.url);
const pool = await createDatabasePool(database.url);
const cluster = randomUUID();
const machine = randomUUID();
const plain = randomUUID();
const builtIn = randomUUID();
const own = randomUUID();
const clusterTemplate = randomUUID();
const rust = builtInCatalogue().templates.get('rust')!;
const ownDocument = {
  ...rust,
  id: 'my-rust',
  variables: [{ name: 'WORLD', default: 'w', validation: { type: 'string' }, userViewable: true, userEditable: true, secret: false }],
};
await pool.transaction(async (tx) => {
  await tx.query(sql.unsafe`INSERT INTO clusters (id, name) VALUES (${cluster}, 'bench')`);
  await tx.query(
    sql.unsafe`INSERT INTO machines (id, cluster_id, name, agent_token_hash) VALUES (${machine}, ${cluster}, 'bench', ${sql.binary(Buffer.alloc(32))})`,
  );
  await tx.query(
    sql.unsafe`INSERT INTO cluster_templates (id, cluster_id, slug, version, document) VALUES (${clusterTemplate}, ${cluster}, 'my-rust', 1, ${sql.jsonb(ownDocument as never)})`,
  );
  for (const [index, [id, gameType, templateId]] of [
    [plain, 'CUSTOM', null],
    [builtIn, 'RUST', 'rust'],
    [own, 'RUST', clusterTemplate],
  ].entries()) {
    const base = 30_000 + index * 3;
    await tx.query(sql.unsafe`
      INSERT INTO servers (id, cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status, start_command, template_id)
      VALUES (${id}, ${cluster}, ${machine}, 'bench', ${gameType}, ${base}, ${base + 1}, ${base + 2}, 10, 'pw', 'OFFLINE', './run', ${templateId})`);
  }
});

async function acceptTimes(serverId: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < JOBS; i += 1) {
    // Inside the transaction, its COMMIT (a disk flush, the same with or without a template) left out.
    await pool.transaction(async (tx) => {
      const started = performance.now();
      await acceptServerJob(tx, SYSTEM_ORIGIN, {
        serverId,
        type: 'START',
        params: {},
        desired: 'RUNNING',
        requireRunning: false,
        createdBy: { kind: 'SYSTEM', id: null },
      });
      times.push(performance.now() - started);
    });
  }
  return times;
}

function resolveTimes(row: TemplatedServerRow): number[] {
  const times: number[] = [];
  for (let i = 0; i < JOBS * 20; i += 1) {
    const started = performance.now();
    serverSpec(row);
    times.push(performance.now() - started);
  }
  return times;
}

const row = (templateId: string, document: unknown): TemplatedServerRow => ({
  id: randomUUID(),
  name: 'bench',
  gameType: 'RUST',
  gamePort: 30000,
  queryPort: 30001,
  rconPort: 30002,
  rconPassword: 'pw',
  maxPlayers: 50,
  desiredStatus: 'RUNNING',
  autoRestart: true,
  startCommand: null,
  env: null,
  templateId,
  variables: { WORLD: 'x' },
  secretVariables: {},
  clusterTemplate: document === null ? null : { id: templateId, version: 1, document },
});

// Warm-up (plans, connections, the parsed-document cache), then the measurements, interleaved by rounds.
await acceptTimes(plain);
await acceptTimes(builtIn);
const results = { plain: [] as number[], builtIn: [] as number[], own: [] as number[] };
for (let round = 0; round < 3; round += 1) {
  results.plain.push(...(await acceptTimes(plain)));
  results.builtIn.push(...(await acceptTimes(builtIn)));
  results.own.push(...(await acceptTimes(own)));
}
const resolveBuiltIn = resolveTimes(row('rust', null));
const resolveOwn = resolveTimes(row(clusterTemplate, ownDocument));

const ms = (value: number) => `${value.toFixed(3)} ms`;
const line = (name: string, times: number[]) =>
  `${name.padEnd(58)} p50 ${ms(percentile(times, 50)).padStart(10)}   p99 ${ms(percentile(times, 99)).padStart(10)}`;
process.stdout.write(
  [
    `templates: ${JOBS * 3} START jobs accepted per kind, on this machine`,
    line('(a) accept START, no template (baseline)', results.plain),
    line('(b) accept START, built-in template (+ its version recorded)', results.builtIn),
    line('(c) accept START, cluster template (+ its version recorded)', results.own),
    line('(d) resolve for the agent, built-in template', resolveBuiltIn),
    line('(d) resolve for the agent, cluster template', resolveOwn),
    `added by a template (p50): built-in ${ms(percentile(results.builtIn, 50) - percentile(results.plain, 50) + percentile(resolveBuiltIn, 50))}, cluster ${ms(
      percentile(results.own, 50) - percentile(results.plain, 50) + percentile(resolveOwn, 50),
    )} (target ≤ 1 ms)`,
    '',
  ].join('\n'),
);
await pool.end();
await database.drop();
