/**
 * `npm run bench -- agent`: the agent as machine owners install it (the packed `gsm-agent`, run by the machine's own
 * Node.js 20) beside the agent as it was before it became a package (run from a checkout of the commit given by
 * BENCH_AGENT_BASELINE, default the last commit before the package, with the service's node_modules and Node.js 24).
 * Figures: installed size, idle RSS, RSS with 20 supervised servers, CPU per 1,000 console lines relayed, and the time
 * from a kill -9 of the agent to all 20 servers ONLINE again under a new agent (adopted by the package; killed and
 * restarted by the old agent), with how many game processes survived.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'slonik';
import { buildAgentPackage } from '../../api/agentPackage.ts';
import { SourceRconClient } from '../../agent/rcon/sourceRcon.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { body, json } from '../support/app.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { FAKE_SERVER, freePorts, registerMachine } from '../support/agentProcess.ts';

const SERVERS = Number(process.env.BENCH_AGENT_SERVERS ?? 20);
const FLOOD_LINES_PER_SECOND = 2_000;
const FLOOD_SECONDS = 10;
const BASELINE = process.env.BENCH_AGENT_BASELINE ?? '1db6ac5';
const NODE20 = process.env.BENCH_NODE20 ?? process.env.GSM_TEST_NODE20 ?? '/usr/bin/node';

type Variant = { name: string; command: string[]; env: NodeJS.ProcessEnv; installedBytes: number; cleanup: () => Promise<void> };

const du = (path: string) => Number(execFileSync('du', ['-sbL', path], { encoding: 'utf8' }).split('\t')[0]);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  let lastSaid = Date.now();
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
    if (await check()) return;
    if (Date.now() - lastSaid > 10_000) {
      lastSaid = Date.now();
      process.stderr.write(`still waiting: ${what}\n`);
    }
  }
  throw new Error(`timed out: ${what}`);
}

async function packageVariant(): Promise<Variant> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-bench-pkg-'));
  const { tgz, version } = await buildAgentPackage();
  await writeFile(join(dir, 'package.tgz'), tgz);
  execFileSync('tar', ['-xzf', join(dir, 'package.tgz'), '-C', dir]);
  const node20 = execFileSync(NODE20, ['--version'], { encoding: 'utf8' }).trim();
  return {
    name: `gsm-agent ${version} package (Node ${node20})`,
    command: [NODE20, join(dir, 'package', 'gsm-agent.mjs'), 'run'],
    env: {},
    installedBytes: du(join(dir, 'package')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The agent at BASELINE, from a worktree of this repository sharing its node_modules (as it had to be installed). */
async function baselineVariant(): Promise<Variant | undefined> {
  const dir = join(tmpdir(), `gsm-bench-baseline-${process.pid}`);
  try {
    execFileSync('git', ['worktree', 'add', '--detach', '--force', dir, BASELINE], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  await symlink(resolve('node_modules'), join(dir, 'node_modules'));
  return {
    name: `agent at ${BASELINE} from a checkout (Node ${process.version})`,
    command: [process.execPath, join(dir, 'agent', 'main.ts')],
    env: {},
    installedBytes: du(resolve('node_modules')) + du(join(dir, 'agent')) + du(join(dir, 'schema')),
    cleanup: async () => {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
    },
  };
}

const rssOf = async (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const cpuMsOf = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
};

type Figures = { installedBytes: number; idleRss: number; busyRss: number; cpuMsPer1000Lines: number; recoverMs: number; survived: number };

async function measure(app: GatewayApp, owner: TestUser, variant: Variant): Promise<Figures> {
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-bench-agent-'));
  const start = (): ChildProcess =>
    spawn(variant.command[0], [...variant.command.slice(1), '--url', app.url, '--machine-id', machineId, '--data-dir', dataDir, '--stop-timeout-ms', '2000'], {
      stdio: 'ignore',
      env: { PATH: process.env.PATH, GSM_AGENT_TOKEN: token, LOG_LEVEL: 'warn', ...variant.env },
    });
  const machineOnline = () =>
    until(async () => String(await app.pool.oneFirst(sql.unsafe`SELECT status FROM machines WHERE id = ${machineId}`)) === 'ONLINE', 'machine ONLINE');
  let agent = start();
  await machineOnline();
  await sleep(3_000);
  const idleRss = await rssOf(agent.pid!);

  // SERVERS small stdin-console servers (a shell that prints the ready line and then reads its console), and one fake
  // game that floods its console on request.
  const ids: string[] = [];
  for (let i = 0; i < SERVERS; i++) {
    const [gamePort, queryPort, rconPort] = await freePorts(3);
    const created = await body(
      await app.request(
        `/api/v1/clusters/${clusterId}/servers`,
        json(
          { name: `s${i}`, gameType: 'MINECRAFT', machineId, gamePort, queryPort, rconPort, startCommand: `/bin/sh -c 'echo "Done (0.1s)!"; exec cat'` },
          { headers: owner.auth },
        ),
      ),
    );
    ids.push(created.id as string);
  }
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        {
          name: 'flood',
          gameType: 'CUSTOM',
          machineId,
          gamePort,
          queryPort,
          rconPort,
          rconPassword: 'bench-password',
          startCommand: `${process.execPath} ${FAKE_SERVER}`,
        },
        { headers: owner.auth },
      ),
    ),
  );
  await app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`UPDATE servers SET desired_status = 'RUNNING' WHERE machine_id = ${machineId}`);
    await notifyAgent(tx, { type: 'servers_changed', machineId });
  });
  const onlineCount = async () =>
    Number(await app.pool.oneFirst(sql.unsafe`SELECT count(*) FROM servers WHERE machine_id = ${machineId} AND status = 'ONLINE'`));
  await until(async () => (await onlineCount()) === SERVERS + 1, 'all servers ONLINE', 180_000).catch(async (error: unknown) => {
    const statuses = await app.pool.any(sql.unsafe`SELECT name, status, status_reason FROM servers WHERE machine_id = ${machineId} AND status <> 'ONLINE'`);
    const all = await app.pool.any(sql.unsafe`SELECT status, count(*) FROM servers WHERE machine_id = ${machineId} GROUP BY status`);
    throw new Error(`${(error as Error).message} (${variant.name}): ${JSON.stringify(statuses)} ${JSON.stringify(all)}`);
  });
  await sleep(5_000);
  const busyRss = await rssOf(agent.pid!);

  const rcon = new SourceRconClient({ host: '127.0.0.1', port: rconPort, password: 'bench-password' });
  const cpuBefore = await cpuMsOf(agent.pid!);
  await rcon.command(`sim.flood ${FLOOD_LINES_PER_SECOND} ${FLOOD_SECONDS}`);
  await sleep(FLOOD_SECONDS * 1000 + 1_000);
  const cpuMsPer1000Lines = (((await cpuMsOf(agent.pid!)) - cpuBefore) / (FLOOD_LINES_PER_SECOND * FLOOD_SECONDS)) * 1000;
  await rcon.close();

  // kill -9, a new agent, and the time until every server is ONLINE again.
  const pidsBefore = await gamePids(dataDir, ids);
  agent.kill('SIGKILL');
  await new Promise((done) => agent.once('exit', done));
  await until(async () => (await onlineCount()) < SERVERS + 1, 'the service sees the agent gone', 30_000);
  const restartedAt = Date.now();
  agent = start();
  await until(async () => (await onlineCount()) === SERVERS + 1, 'all servers ONLINE again', 120_000);
  const recoverMs = Date.now() - restartedAt;
  const pidsAfter = await gamePids(dataDir, ids);
  const survived = ids.filter((id) => pidsBefore.get(id) !== undefined && pidsBefore.get(id) === pidsAfter.get(id)).length;

  await app.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`UPDATE servers SET desired_status = 'STOPPED' WHERE machine_id = ${machineId}`);
    await notifyAgent(tx, { type: 'servers_changed', machineId });
  });
  await until(async () => (await onlineCount()) === 0, 'all stopped', 60_000).catch(() => undefined);
  agent.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  return { installedBytes: variant.installedBytes, idleRss, busyRss, cpuMsPer1000Lines, recoverMs, survived };
}

/** Game pids by server: the package's run state, or the old agent's server.pid files. */
async function gamePids(dataDir: string, ids: string[]): Promise<Map<string, number | undefined>> {
  const pids = new Map<string, number | undefined>();
  for (const id of ids) {
    const fromRun = await readFile(join(dataDir, 'run', id, 'process.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { pid: number }).pid,
      () => undefined,
    );
    const fromPidFile = await readFile(join(dataDir, 'servers', id, 'server.pid'), 'utf8').then(
      (text) => Number(text.trim()),
      () => undefined,
    );
    pids.set(id, fromRun ?? fromPidFile);
  }
  return pids;
}

if (!existsSync(NODE20)) process.stderr.write(`${NODE20} not found: the package runs under this Node.js instead\n`);
const app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
const owner = await signUp(app);
const variants = [await packageVariant(), await baselineVariant()].filter((variant): variant is Variant => variant !== undefined);
const results: [Variant, Figures][] = [];
try {
  for (const variant of variants) results.push([variant, await measure(app, owner, variant)]);
} finally {
  for (const variant of variants) await variant.cleanup().catch(() => undefined);
  await app.close();
}

const rows: [string, (figures: Figures) => string][] = [
  ['installed size (without Node.js)', (f) => mb(f.installedBytes)],
  ['RSS idle, connected', (f) => mb(f.idleRss)],
  [`RSS with ${SERVERS + 1} supervised servers`, (f) => mb(f.busyRss)],
  ['CPU per 1,000 console lines relayed', (f) => `${f.cpuMsPer1000Lines.toFixed(1)} ms`],
  [`kill -9 → all ${SERVERS + 1} servers ONLINE again`, (f) => `${(f.recoverMs / 1000).toFixed(1)} s`],
  [`game processes that survived (of ${SERVERS})`, (f) => String(f.survived)],
];
const [ours, baseline] = results;
process.stdout.write(`\n${'figure'.padEnd(42)}${ours[0].name.padEnd(44)}${baseline ? baseline[0].name : ''}\n`);
for (const [label, format] of rows) process.stdout.write(`${label.padEnd(42)}${format(ours[1]).padEnd(44)}${baseline ? format(baseline[1]) : ''}\n`);
process.exit(0);
