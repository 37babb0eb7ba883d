/**
 * `npm run bench -- storm`: the 4 a.m. restart storm. BENCH_SERVERS game servers (default 10,000) on BENCH_AGENTS
 * simulated agents (default 200: Socket.IO clients speaking the agent protocol, which ack every job and answer it at
 * once), held by two orchestrator processes (`--role=orchestrator`, half the agents on each). Every server has a task
 * firing at the same minute (the next minute boundary at least BENCH_LEAD_S seconds after the setup, default 20):
 * a BROADCAST warning, then a RESTART 30 s later (BENCH_DELAY_S).
 * Reports, after the minute boundary: when the last run was started, the last warning (and the last restart, after
 * its 30 s) was accepted and dispatched to its agent; task lateness (boundary → the run's warning accepted) p50/p99;
 * the CPU of the orchestrators and of the database's backends over the storm; and that every task ran exactly once
 * (one run per task, one warning and one restart per server, every run SUCCEEDED).
 * Targets: every warning dispatched within 10 s of the boundary, task lateness p99 ≤ 5 s.
 * Bounded: gives up BENCH_LIMIT_S (default 150) seconds after the boundary and reports what was done by then; the
 * database and the processes go when it ends.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { io, type Socket } from 'socket.io-client';
import { sql } from 'slonik';
import { z } from 'zod';
import { createDatabasePool } from '../../sql/pool.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { createTestDatabase } from '../support/database.ts';
import { cpuSecondsBetween, cpuTicks, isBackendOf, percentile, startService, type Service } from './support.ts';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 10_000);
const AGENTS = Number(process.env.BENCH_AGENTS ?? 200);
const LEAD_S = Number(process.env.BENCH_LEAD_S ?? 20);
const DELAY_S = Number(process.env.BENCH_DELAY_S ?? 30);
const LIMIT_S = Number(process.env.BENCH_LIMIT_S ?? 150);
const ORCHESTRATORS = 2;
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const SERVICE_LOG_DIR = process.env.BENCH_SERVICE_LOGS;

const loadAverage = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Machine = { id: string; token: string; servers: string[] };

/** A cluster, AGENTS machines and SERVERS ONLINE servers spread evenly over them, each with its restart task. */
async function seed(databaseUrl: string): Promise<{ machines: Machine[]; boundary: Date }> {
  const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 2 });
  try {
    const clusterId = randomUUID();
    const machines: Machine[] = Array.from({ length: AGENTS }, () => ({ id: randomUUID(), token: generateSecret('agent'), servers: [] }));
    const servers = Array.from({ length: SERVERS }, (_, index) => {
      const machine = machines[index % AGENTS]!;
      const id = randomUUID();
      // Ports distinct on each machine (a port of a machine belongs to one server).
      const base = 20_000 + machine.servers.length * 3;
      machine.servers.push(id);
      return { id, machineId: machine.id, base };
    });
    await pool.query(sql.unsafe`INSERT INTO clusters (id, name) VALUES (${clusterId}, 'storm')`);
    await pool.query(sql.unsafe`
      INSERT INTO machines (id, cluster_id, name, agent_token_hash)
      SELECT id, ${clusterId}, 'storm', decode(hash, 'hex')
        FROM unnest(${sql.array(
          machines.map((machine) => machine.id),
          'uuid',
        )}, ${sql.array(
          machines.map((machine) => hashSecret(machine.token).toString('hex')),
          'text',
        )}) AS m (id, hash)`);
    for (let start = 0; start < servers.length; start += 2_000) {
      const slice = servers.slice(start, start + 2_000);
      await pool.query(sql.unsafe`
        INSERT INTO servers (id, cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password, status)
        SELECT id, ${clusterId}, machine_id, 'storm', 'CUSTOM', base, base + 1, base + 2, 10, 'pw', 'ONLINE'
          FROM unnest(${sql.array(
            slice.map((server) => server.id),
            'uuid',
          )}, ${sql.array(
            slice.map((server) => server.machineId),
            'uuid',
          )}, ${sql.array(
            slice.map((server) => server.base),
            'int4',
          )}) AS s (id, machine_id, base)`);
    }
    // The next minute boundary at least LEAD_S away, as a daily cron (UTC) at that minute.
    const boundary = new Date(Math.ceil((Date.now() + LEAD_S * 1000) / 60_000) * 60_000);
    const schedule = `${boundary.getUTCMinutes()} ${boundary.getUTCHours()} * * *`;
    const steps = [
      { type: 'BROADCAST', message: `The server restarts in ${DELAY_S} seconds`, delaySeconds: 0, continueOnFailure: false },
      { type: 'RESTART', delaySeconds: DELAY_S, continueOnFailure: false },
    ];
    // Each task as the API creates it: the row, its server, its pending occurrence (graphile-worker job `task:<id>`).
    await pool.transaction(async (tx) => {
      await tx.query(sql.unsafe`
        WITH t AS (
          INSERT INTO tasks (cluster_id, name, schedule, timezone, steps, next_run_at)
          SELECT ${clusterId}, 'nightly restart', ${schedule}, 'UTC', ${sql.jsonb(steps)}, ${boundary.toISOString()}::timestamptz
            FROM generate_series(1, ${SERVERS})
          RETURNING id
        ), numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM t),
        servers AS (SELECT id, n FROM unnest(${sql.array(
          servers.map((server) => server.id),
          'uuid',
        )}) WITH ORDINALITY AS s (id, n))
        INSERT INTO task_servers (task_id, server_id, position) SELECT numbered.id, servers.id, 0 FROM numbered JOIN servers USING (n)`);
    });
    // Their occurrences' jobs, a thousand per statement (one statement for all outlasts the statement timeout).
    const taskIds = await pool.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM tasks ORDER BY id`);
    for (let start = 0; start < taskIds.length; start += 1_000) {
      await pool.query(sql.unsafe`
        SELECT graphile_worker.add_job('tasks__trigger', json_build_object('taskId', id::text, 'scheduledAt', ${boundary.toISOString()}::text),
                                       run_at => ${boundary.toISOString()}::timestamptz, job_key => 'task:' || id::text, job_key_mode => 'replace', max_attempts => 25)
          FROM unnest(${sql.array(taskIds.slice(start, start + 1_000), 'uuid')}) AS id`);
    }
    // Statistics, as a database that grew to this size has them (a fresh one without them plans the run's read of its
    // target servers as a scan of every task's: 0.3 s a batch).
    await pool.query(sql.unsafe`ANALYZE`);
    return { machines, boundary };
  } finally {
    await pool.end();
  }
}

type Agents = { sockets: Socket[]; received: Map<string, number>; duplicates: () => number };

/** The simulated agents: each authenticates as its machine, acks every job it is sent and answers it SUCCEEDED at once. */
async function connectAgents(gateways: string[], machines: Machine[]): Promise<Agents> {
  const received = new Map<string, number>();
  let duplicates = 0;
  const sockets = await Promise.all(
    machines.map(async (machine, index) => {
      const agent = io(gateways[index % gateways.length]!, { path: '/ws', transports: ['websocket'], reconnection: false });
      agent.on('job', (job: { jobId: string }, ack: (answer: object) => void) => {
        if (received.has(job.jobId)) duplicates++;
        else received.set(job.jobId, Date.now());
        ack({ accepted: true });
        agent.emit('job:result', { jobId: job.jobId, status: 'SUCCEEDED', result: { message: 'ok' }, finishedAt: new Date().toISOString() }, () => undefined);
      });
      await new Promise<void>((resolve, reject) => {
        agent.on('connect', () => agent.emit('auth', { token: machine.token, machineId: machine.id, version: '0.1.0' }));
        agent.on('authenticated', () => resolve());
        agent.on('connect_error', reject);
      });
      return agent;
    }),
  );
  return { sockets, received, duplicates: () => duplicates };
}

const summaryRow = z.object({
  runs: z.number(),
  tasksRun: z.number(),
  tasksRunTwice: z.number(),
  runsSucceeded: z.number(),
  runsEnded: z.number(),
  lastRunCreatedS: z.number().nullable(),
  warnings: z.number(),
  warningServers: z.number(),
  restarts: z.number(),
  restartServers: z.number(),
  lastWarningAcceptedS: z.number().nullable(),
  lastWarningDispatchedS: z.number().nullable(),
  warningsDispatched: z.number(),
  lastRestartAcceptedS: z.number().nullable(),
  lastRestartDispatchedS: z.number().nullable(),
  restartsDispatched: z.number(),
  lateness: z.array(z.number()).nullable(),
});

/** What the database says of the storm: seconds after the boundary (restarts: after the boundary and the delay). */
async function summary(databaseUrl: string, boundary: Date) {
  const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 1 });
  try {
    const at = boundary.toISOString();
    return await pool.one(sql.type(summaryRow)`
      WITH runs AS (SELECT * FROM jobs WHERE type = 'TASK_RUN'),
           warnings AS (SELECT * FROM jobs WHERE type = 'BROADCAST'),
           restarts AS (SELECT * FROM jobs WHERE type = 'RESTART'),
           since AS (SELECT ${at}::timestamptz AS b, ${at}::timestamptz + make_interval(secs => ${DELAY_S}) AS r)
      SELECT (SELECT count(*) FROM runs)::int AS runs,
             (SELECT count(DISTINCT task_id) FROM runs)::int AS "tasksRun",
             (SELECT count(*) FROM (SELECT task_id FROM runs GROUP BY task_id HAVING count(*) > 1) twice)::int AS "tasksRunTwice",
             (SELECT count(*) FROM runs WHERE status = 'SUCCEEDED')::int AS "runsSucceeded",
             (SELECT count(*) FROM runs WHERE finished_at IS NOT NULL)::int AS "runsEnded",
             (SELECT extract(epoch FROM max(created_at) - (SELECT b FROM since))::float8 FROM runs) AS "lastRunCreatedS",
             (SELECT count(*) FROM warnings)::int AS warnings,
             (SELECT count(DISTINCT server_id) FROM warnings)::int AS "warningServers",
             (SELECT count(*) FROM restarts)::int AS restarts,
             (SELECT count(DISTINCT server_id) FROM restarts)::int AS "restartServers",
             (SELECT extract(epoch FROM max(created_at) - (SELECT b FROM since))::float8 FROM warnings) AS "lastWarningAcceptedS",
             (SELECT extract(epoch FROM max(dispatched_at) - (SELECT b FROM since))::float8 FROM warnings) AS "lastWarningDispatchedS",
             (SELECT count(dispatched_at) FROM warnings)::int AS "warningsDispatched",
             (SELECT extract(epoch FROM max(created_at) - (SELECT r FROM since))::float8 FROM restarts) AS "lastRestartAcceptedS",
             (SELECT extract(epoch FROM max(dispatched_at) - (SELECT r FROM since))::float8 FROM restarts) AS "lastRestartDispatchedS",
             (SELECT count(dispatched_at) FROM restarts)::int AS "restartsDispatched",
             (SELECT array_agg(extract(epoch FROM created_at - (SELECT b FROM since))::float8) FROM warnings) AS lateness`);
  } finally {
    await pool.end();
  }
}

console.log(
  `Storm benchmark: ${SERVERS} servers on ${AGENTS} simulated agents, ${ORCHESTRATORS} orchestrator processes, a warning then a restart ${DELAY_S} s later; ` +
    `${cpus().length} cores, load average ${await loadAverage()} at start\n`,
);
const database = await createTestDatabase();
const services: Service[] = [];
let agents: Agents | undefined;
try {
  const setupStarted = performance.now();
  const { machines, boundary } = await seed(database.url);
  for (let index = 0; index < ORCHESTRATORS; index++)
    services.push(
      await startService(database.url, 'orchestrator', { cpuProfileDir: CPU_PROFILE_DIR, logDir: SERVICE_LOG_DIR, name: `orchestrator-${index + 1}` }),
    );
  agents = await connectAgents(
    services.map((service) => service.base),
    machines,
  );
  console.log(`set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s; the tasks fire at ${boundary.toISOString()}`);
  if (boundary.getTime() - Date.now() < 2_000) console.log('(the setup took longer than BENCH_LEAD_S: raise it for a fair start)');

  const database_ = new URL(database.url).pathname.slice(1);
  const pids = services.map((service) => service.child.pid!);
  await sleep(Math.max(0, boundary.getTime() - Date.now() - 1_000));
  const before = { service: await cpuTicks((pid) => pids.includes(pid)), postgres: await cpuTicks(isBackendOf(database_)) };
  const measuredFrom = Date.now();
  // Until every run ended (or the limit): the warnings, the wait, the restarts.
  const pool = await createDatabasePool(database.url, { maxPoolSize: 1 });
  try {
    while (Date.now() < boundary.getTime() + LIMIT_S * 1000) {
      await sleep(1_000);
      if (Date.now() < boundary.getTime() + DELAY_S * 1000) continue;
      const ended = Number(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM jobs WHERE type = 'TASK_RUN' AND finished_at IS NOT NULL`));
      if (ended >= SERVERS) break;
    }
  } finally {
    await pool.end();
  }
  const after = { service: await cpuTicks((pid) => pids.includes(pid)), postgres: await cpuTicks(isBackendOf(database_)) };
  const seconds = (Date.now() - measuredFrom) / 1000;
  const result = await summary(database.url, boundary);
  const f = (value: number | null) => (value === null ? 'none' : `${value.toFixed(1)} s`);
  const lateness = result.lateness ?? [];
  const p99 = percentile(lateness, 99);
  console.log(`\nafter the boundary (restarts: after the boundary + ${DELAY_S} s):`);
  console.log(`  runs started          ${result.runs} of ${SERVERS}, the last at ${f(result.lastRunCreatedS)}`);
  console.log(
    `  warnings accepted     ${result.warnings}, the last at ${f(result.lastWarningAcceptedS)}; dispatched ${result.warningsDispatched}, the last at ${f(result.lastWarningDispatchedS)}`,
  );
  console.log(
    `  restarts accepted     ${result.restarts}, the last at ${f(result.lastRestartAcceptedS)}; dispatched ${result.restartsDispatched}, the last at ${f(result.lastRestartDispatchedS)}`,
  );
  console.log(`  task lateness         p50 ${percentile(lateness, 50).toFixed(2)} s, p99 ${p99.toFixed(2)} s (boundary → its warning accepted)`);
  console.log(`  runs ended            ${result.runsEnded}, SUCCEEDED ${result.runsSucceeded}`);
  console.log(
    `  CPU over ${seconds.toFixed(0)} s       orchestrators ${cpuSecondsBetween(before.service, after.service).toFixed(1)} s, postgres ${cpuSecondsBetween(before.postgres, after.postgres).toFixed(1)} s ` +
      `(${((cpuSecondsBetween(before.postgres, after.postgres) * 1000) / Math.max(1, result.warnings + result.restarts + result.runs)).toFixed(2)} ms per job)`,
  );
  const once =
    result.tasksRun === SERVERS &&
    result.tasksRunTwice === 0 &&
    result.runs === SERVERS &&
    result.warningServers === result.warnings &&
    result.restartServers === result.restarts;
  console.log(
    `  exactly once          ${once ? 'yes' : 'NO'}: ${result.tasksRun} tasks ran, ${result.tasksRunTwice} twice; ${result.warnings} warnings on ${result.warningServers} servers, ` +
      `${result.restarts} restarts on ${result.restartServers}; ${agents.duplicates()} jobs sent to an agent again`,
  );
  const dispatchedIn = result.warningsDispatched === SERVERS ? result.lastWarningDispatchedS : null;
  console.log(
    `\ntargets: every warning dispatched within 10 s ${dispatchedIn !== null && dispatchedIn <= 10 ? 'met' : 'NOT met'}; task lateness p99 ≤ 5 s ${lateness.length === SERVERS && p99 <= 5 ? 'met' : 'NOT met'}; ` +
      `every task exactly once ${once && result.runsSucceeded === SERVERS ? 'met' : 'NOT met'}`,
  );
  console.log(`load average ${await loadAverage()} at the end`);
} finally {
  for (const socket of agents?.sockets ?? []) socket.close();
  await Promise.all(services.map((service) => service.stop()));
  await database.drop();
}
