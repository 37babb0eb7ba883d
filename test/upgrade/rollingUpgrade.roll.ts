/**
 * The rolling upgrade, end to end (docs/upgrades.md, "The roll, tested"): the previous release's code
 * (test/support/previousRelease.ts) runs as 2 web and 2 orchestrator processes on one database and one Redis, the web
 * processes behind one balancing TCP proxy (the API, `/live`) and the orchestrators behind another (the agents), with
 * two machines whose agents are the previous release's too, each running a fake game. Under traffic (reads from four
 * clients, RCON jobs on one game where three players are connected, RESTART jobs on the other, a `/live` console
 * follower), the roll: `npm run migrate` (this build's migrations: expand first, the old code runs on them), each
 * web process replaced by this build's one at a time (SIGTERM, then the new one on its port), each orchestrator the
 * same way, then each agent (its owner replaces the process; its game keeps running and is adopted): the order of
 * docs/operations.md#upgrading. Then: not one
 * request failed behind the proxy, every job SUCCEEDED and ran exactly once at the game (its command log), no player
 * left, no console line the follower should have seen is missing, and the games run in the processes they started in.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { generatePasetoKey } from '../../api/identity/secrets.ts';
import { createEmptyDatabase } from '../support/database.ts';
import { startMain, type Started } from '../support/mainProcess.ts';
import { call, startBalancer } from '../support/balancer.ts';
import { connectViewer, type LiveViewer } from '../support/liveClient.ts';
import { FAKE_SERVER, freePorts, startAgent, type AgentProcess } from '../support/agentProcess.ts';
import { checkoutPreviousRelease, PREVIOUS_RELEASE, previousReleaseMissing, ROOT } from '../support/previousRelease.ts';
import { useTestRedis, REDIS_URL } from '../support/redis.ts';
import { until } from '../support/wait.ts';

const redis = useTestRedis(test);
/** The release rolled from: the previous one, or ROLL_FROM (a commit, e.g. HEAD to roll this release onto itself). */
const FROM = process.env.ROLL_FROM ? execFileSync('git', ['-C', ROOT, 'rev-parse', process.env.ROLL_FROM], { encoding: 'utf8' }).trim() : PREVIOUS_RELEASE;
const missing = previousReleaseMissing(FROM);
if (missing) console.warn(`rollingUpgrade.test.ts skipped: ${missing}`);

type Role = 'web' | 'orchestrator';
const PLAYERS = ['76561198000000001 Alice', '76561198000000002 Bob', '76561198000000003 Carol'];

/** `npm run migrate` of this build on `databaseUrl`: its exit status and output. */
function runMigrate(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', 'migrate'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

(missing ? test.skip : test)(
  `a rolling upgrade from ${FROM.slice(0, 7)} under traffic: no job lost or run twice, no request failed, no player thrown off, no console line lost`,
  async (t) => {
    t.timeout(480_000);
    await roll(t).catch((error: Error) => {
      if (process.env.ROLL_DEBUG) console.error(error);
      throw error;
    });
  },
);

async function roll(t: ExecutionContext) {
  {
    const setupStarted = Date.now();
    const note = (what: string) => process.env.ROLL_DEBUG && console.error(`${((Date.now() - setupStarted) / 1000).toFixed(1)} s ${what}`);
    const oldTree = await checkoutPreviousRelease(t, FROM);
    const database = await createEmptyDatabase();
    if (process.env.ROLL_DEBUG) console.error(`database ${database.name}`);
    t.teardown(() => database.drop());
    /** One query on a connection of its own, tried again while the shared Postgres has no connection to spare. */
    const query = async (text: string) => {
      for (let attempt = 0; ; attempt++) {
        const client = new pg.Client({ connectionString: database.url });
        client.on('error', () => undefined);
        try {
          await client.connect();
          return (await client.query(text)).rows;
        } catch (error) {
          if ((error as { code?: string }).code !== '53300' || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        } finally {
          await client.end().catch(() => undefined);
        }
      }
    };
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: redis.prefix,
      PASETO_KEY: generatePasetoKey(),
      HOST: '127.0.0.1',
      RATE_LIMIT: 'off',
      // The default heartbeat (10 s): a machine silent for three beats is swept OFFLINE and its servers UNKNOWN at once,
      // which closes their players' sessions; with 1 s beats a loaded machine's late beats did that mid-roll.
      // The reconnect grace above the time an agent takes to be replaced (docs/operations.md#upgrading): within it,
      // the servers of a machine whose agent is away keep their status and their players.
      AGENT_RECONNECT_GRACE_SECONDS: '300',
      SHUTDOWN_TIMEOUT_MS: '20000',
      // Few connections each: the test's Postgres is shared (its max_connections) with the other test files.
      DATABASE_POOL_SIZE: '3',
    };

    // The four processes, each on a port of its own that its replacement takes over.
    const slots: { role: Role; port: number; process?: Started; release?: 'previous' | 'this' }[] = [];
    const ports = await freePorts(4);
    for (const [index, role] of (['web', 'web', 'orchestrator', 'orchestrator'] as const).entries()) slots.push({ role, port: ports[index]! });
    const running = new Set<Started>();
    t.teardown(async () => {
      for (const started of running) started.child.kill('SIGKILL');
    });
    const start = async (slot: (typeof slots)[number], release: 'previous' | 'this') => {
      const dataDir = await mkdtemp(join(tmpdir(), 'gsm-roll-'));
      await chmod(dataDir, 0o755);
      t.teardown(() => rm(dataDir, { recursive: true, force: true }));
      // A process that could not start because the shared Postgres had no connection to spare starts again.
      let started: Started | undefined;
      for (let attempt = 1; !started; attempt++) {
        try {
          started = await startMain(
            { ...env, PORT: String(slot.port), DATA_DIR: dataDir },
            [`--role=${slot.role}`],
            release === 'previous' ? oldTree : undefined,
          );
        } catch (error) {
          if (!/too many clients/.test((error as Error).message) || attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
      slot.process = started;
      slot.release = release;
      running.add(slot.process);
    };
    /** SIGTERM to the process of `slot`, its exit (0), and this build's process started on its port. */
    const replace = async (slot: (typeof slots)[number]) => {
      const old = slot.process!;
      old.child.kill('SIGTERM');
      const code = await old.exited;
      running.delete(old);
      t.is(code, 0, `the previous release's ${slot.role} on ${slot.port} exits 0 on SIGTERM:\n${old.lines.slice(-20).join('\n')}`);
      await start(slot, 'this');
    };

    // The previous release: the first process migrates the empty database to its own migrations, then the others.
    await start(slots[0]!, 'previous');
    await Promise.all(slots.slice(1).map((slot) => start(slot, 'previous')));
    note('previous release started');
    const web = await startBalancer(slots.filter((slot) => slot.role === 'web').map((slot) => ({ host: '127.0.0.1', port: slot.port })));
    const gateway = await startBalancer(slots.filter((slot) => slot.role === 'orchestrator').map((slot) => ({ host: '127.0.0.1', port: slot.port })));
    t.teardown(() => web.close());
    t.teardown(() => gateway.close());
    const port = web.port;
    const api = async (method: string, path: string, headers: Record<string, string> = {}, payload?: unknown) => {
      const answer = await call(port, method, path, headers, payload);
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };

    const credentials = { email: 'owner@example.test', password: 'correct horse battery staple', displayName: 'Owner' };
    await api('POST', '/auth/register', {}, credentials);
    const login = await api('POST', '/auth/login', {}, { email: credentials.email, password: credentials.password });
    const token = login.accessToken as string;
    const auth = { Authorization: `Bearer ${token}` };
    const clusterId = (await api('POST', '/api/v1/clusters', auth, { name: 'Roll' })).id as string;
    const logs = await mkdtemp(join(tmpdir(), 'gsm-roll-logs-'));
    t.teardown(() => rm(logs, { recursive: true, force: true }));

    // Two machines, each with a fake game that logs every command it runs (FAKE_COMMAND_LOG) and an agent of the
    // previous release that keeps its games when it stops, as installed agents do.
    const machines: { id: string; token: string; serverId: string; log: string; agent?: AgentProcess; dataDir?: string }[] = [];
    for (const name of ['players', 'power']) {
      const machine = await api('POST', `/api/v1/clusters/${clusterId}/machines`, auth, { name });
      const log = join(logs, `${name}.log`);
      let server: { id: string } | undefined;
      for (let attempt = 0; !server; attempt++) {
        const [gamePort, queryPort, rconPort] = await freePorts(3);
        const created = await call(port, 'POST', `/api/v1/clusters/${clusterId}/servers`, auth, {
          name,
          gameType: 'CUSTOM',
          machineId: machine.id,
          gamePort,
          queryPort,
          rconPort,
          rconPassword: 'fake-password',
          startCommand: `/usr/bin/env FAKE_COMMAND_LOG=${log} ${process.execPath} ${FAKE_SERVER}`,
        });
        if (created.status === 201) server = created.body;
        else if (created.status !== 409 || attempt > 3) throw new Error(JSON.stringify(created.body));
      }
      machines.push({ id: machine.id, token: machine.agentToken, serverId: server.id, log });
    }
    const gatewayUrl = `http://127.0.0.1:${gateway.port}`;
    const startMachineAgent = async (machine: (typeof machines)[number], release: 'previous' | 'this') => {
      machine.agent = await startAgent({
        url: gatewayUrl,
        machineId: machine.id,
        token: machine.token,
        keepServers: true,
        dataDir: machine.dataDir,
        ...(release === 'previous' ? { program: join(oldTree, 'agent/cli.ts'), withoutSftp: true } : {}),
      });
      machine.dataDir = machine.agent.dataDir;
      const agent = machine.agent;
      t.teardown(() => void agent.child.kill('SIGKILL'));
    };
    // Generous: a loaded machine starts an agent slowly (its log says why, should it not come).
    const online = (machine: (typeof machines)[number]) =>
      until(async () => (await api('GET', `/api/v1/machines/${machine.id}`, auth)).status === 'ONLINE', `machine ${machine.id} ONLINE`, 90_000).catch(
        (error: Error) => {
          throw new Error(`${error.message}; its agent's log:\n${machine.agent!.lines.slice(-30).join('\n')}`);
        },
      );
    for (const machine of machines) await startMachineAgent(machine, 'previous');
    for (const machine of machines) await online(machine);
    // The games, stopped by the test's end (the agents keep them).
    t.teardown(async () => {
      for (const machine of machines) {
        const text = await readFile(machine.log, 'utf8').catch(() => '');
        for (const [, pid] of text.matchAll(/^start (\d+)$/gm)) {
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            // gone already
          }
        }
      }
    });
    const [players, power] = machines as [(typeof machines)[number], (typeof machines)[number]];
    for (const machine of machines) {
      const started = await api('POST', `/api/v1/servers/${machine.serverId}/start?wait=30`, auth);
      t.is(started.status, 'SUCCEEDED', JSON.stringify(started));
    }
    for (const player of PLAYERS) t.true((await api('POST', `/api/v1/servers/${players.serverId}/rcon`, auth, { command: `sim.join ${player}` })).success);
    await until(async () => (await api('GET', `/api/v1/servers/${players.serverId}/players`, auth)).online === PLAYERS.length, 'the players online', 30_000);

    note('world ready');
    // The traffic.
    const failures: string[] = [];
    let traffic = true;
    let reads = 0;
    const readers = Array.from({ length: 4 }, async (_, index) => {
      const paths = [
        `/api/v1/clusters/${clusterId}`,
        `/api/v1/clusters/${clusterId}/servers`,
        `/api/v1/servers/${players.serverId}/players`,
        `/api/v1/clusters/${clusterId}/machines`,
      ];
      for (let round = 0; traffic; round++) {
        const path = paths[(index + round) % paths.length]!;
        try {
          const answer = await call(port, 'GET', path, auth);
          if (answer.status !== 200) failures.push(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
          else reads++;
        } catch (error) {
          failures.push(`GET ${path}: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    /** Each job the traffic asked for: its id (once accepted) and what it should have done at the game. */
    const jobs: { kind: 'RCON' | 'RESTART'; id?: string; effect: string }[] = [];
    const ask = async (kind: 'RCON' | 'RESTART', path: string, effect: string, payload?: unknown) => {
      const job: (typeof jobs)[number] = { kind, effect };
      jobs.push(job);
      try {
        const answer = await call(port, 'POST', path, auth, payload);
        if (answer.status !== 200 && answer.status !== 202) failures.push(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        job.id = (answer.body.jobId ?? answer.body.id) as string | undefined;
      } catch (error) {
        failures.push(`POST ${path}: ${(error as Error).message}`);
      }
    };
    let said = 0;
    const rcon = (async () => {
      while (traffic) {
        const text = `roll-${++said}`;
        await ask('RCON', `/api/v1/servers/${players.serverId}/rcon?wait=30`, `say ${text}`, { command: `say ${text}` });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const restarts = (async () => {
      while (traffic) {
        await ask('RESTART', `/api/v1/servers/${power.serverId}/restart?wait=30`, 'start');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    // The console follower: `/live` through the proxy, subscribed to the players' game's console; told to reconnect
    // (or cut off), it connects again through the proxy and subscribes again after the last line it saw (`after`, the
    // line's sequence: the kept lines after it fill the gap), or, from a process of the previous release, which does
    // not take `after`, with the last 100 lines.
    const seen = new Set<string>();
    let lastSeq: number | undefined;
    const take = (lines: { line: string; seq?: number }[]) => {
      for (const { line, seq } of lines) {
        seen.add(line);
        if (typeof seq === 'number' && (lastSeq === undefined || seq > lastSeq)) lastSeq = seq;
      }
    };
    let follower: LiveViewer | undefined;
    let reconnects = 0;
    let following = true;
    const follow = async (): Promise<void> => {
      while (following) {
        try {
          const viewer = await connectViewer(`http://127.0.0.1:${port}`, token);
          follower = viewer;
          viewer.socket.on('event', (event: { type: string; data: { lines: { line: string; seq?: number }[] } }) => {
            if (event.type === 'server.console') take(event.data.lines);
          });
          for (const event of viewer.events) if (event.type === 'server.console') take((event.data as { lines: { line: string; seq?: number }[] }).lines);
          let answer = await viewer.request('subscribe', { serverId: players.serverId, console: true, ...(lastSeq !== undefined && { after: lastSeq }) });
          if (answer?.ok === false && lastSeq !== undefined) answer = await viewer.request('subscribe', { serverId: players.serverId, console: true });
          if (answer?.ok === false) throw new Error(JSON.stringify(answer));
          await viewer.disconnected;
          viewer.close();
        } catch {
          // not reachable this instant: again below
        }
        if (!following) return;
        reconnects++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const following$ = follow();
    t.teardown(() => {
      traffic = false;
      following = false;
      follower?.close();
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    // The roll.
    const rollStarted = Date.now();
    const steps: string[] = [];
    let phase = 'before the roll';
    const step = (what: string) => {
      steps.push(`${((Date.now() - rollStarted) / 1000).toFixed(1)} s ${what}`);
      if (process.env.ROLL_DEBUG) console.error(steps.at(-1));
    };
    // What the service recorded during the roll, and in which step: each change of a server's or machine's status and
    // each player session closed (a failure names the step that threw the players off).
    const changes: string[] = [];
    let watching = true;
    const watcher = (async () => {
      const seenState = new Map<string, string>();
      while (watching) {
        const rows = await query(`
          SELECT 'server ' || name AS what, status || coalesce(' (' || status_reason || ')', '') AS state FROM servers
          UNION ALL SELECT 'machine ' || name, status FROM machines
          UNION ALL SELECT 'session ' || id::text, CASE WHEN left_at IS NULL THEN 'open' ELSE 'closed at ' || left_at::text END FROM player_sessions`).catch(
          () => [],
        );
        for (const row of rows as { what: string; state: string }[]) {
          if (seenState.get(row.what) === row.state) continue;
          seenState.set(row.what, row.state);
          changes.push(`${((Date.now() - rollStarted) / 1000).toFixed(1)} s [${phase}] ${row.what}: ${row.state}`);
          if (process.env.ROLL_DEBUG) console.error(changes.at(-1));
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    phase = 'npm run migrate';
    const migrated = await runMigrate(database.url);
    if (migrated.code !== 0) throw new Error(`npm run migrate exited with ${migrated.code}:\n${migrated.output}`);
    step('npm run migrate (this build): the previous release runs on the expanded schema');
    for (const slot of slots.filter((slot) => slot.role === 'web')) {
      phase = `replacing the web on ${slot.port}`;
      await replace(slot);
      step(`web on ${slot.port} replaced`);
    }
    for (const slot of slots.filter((slot) => slot.role === 'orchestrator')) {
      phase = `replacing the orchestrator on ${slot.port}`;
      await replace(slot);
      step(`orchestrator on ${slot.port} replaced`);
    }
    for (const machine of machines) {
      phase = `replacing the agent of ${machine.id}`;
      const old = machine.agent!;
      t.is(await old.stop(), 0);
      await startMachineAgent(machine, 'this');
      await online(machine);
      step(`agent of ${machine.id} replaced`);
    }
    const rollMs = Date.now() - rollStarted;
    phase = 'after the roll';
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    traffic = false;
    await Promise.all([...readers, rcon, restarts]);
    watching = false;
    await watcher;

    // Every job ended SUCCEEDED (none lost), and did what it says at the game exactly once (none run twice).
    const statuses = new Map<string, string>();
    for (const job of jobs) {
      if (!job.id) continue;
      const ended = await api('GET', `/api/v1/jobs/${job.id}?wait=30`, auth);
      statuses.set(job.id, ended.status);
    }
    const lost = jobs.filter((job) => !job.id || statuses.get(job.id) !== 'SUCCEEDED');
    const [playersLog, powerLog] = await Promise.all(machines.map(async (machine) => (await readFile(machine.log, 'utf8')).split('\n')));
    const rconJobs = jobs.filter((job) => job.kind === 'RCON');
    const twice = rconJobs.filter((job) => playersLog!.filter((line) => line === job.effect).length > 1).map((job) => job.effect);
    const notRun = rconJobs.filter((job) => !playersLog!.includes(job.effect)).map((job) => job.effect);
    const restartJobs = jobs.filter((job) => job.kind === 'RESTART');
    const gameStarts = powerLog!.filter((line) => line.startsWith('start ')).length;
    const playersGameStarts = playersLog!.filter((line) => line.startsWith('start ')).length;

    // No player left: the game still has them, the service still counts them online, and no session was closed.
    const playersOnline = (await api('GET', `/api/v1/servers/${players.serverId}/players`, auth)).online as number;
    const closed = Number((await query('SELECT count(*) FROM player_sessions WHERE left_at IS NOT NULL'))[0].count);
    const servers = (await query('SELECT name, status FROM servers ORDER BY name')) as { name: string; status: string }[];

    // Every line a SUCCEEDED `say` printed reached the follower.
    await until(async () => rconJobs.every((job) => seen.has(`[Chat] ${job.effect.slice(4)}`)), 'the console lines', 10_000).catch(() => undefined);
    const consoleLost = rconJobs.filter((job) => !seen.has(`[Chat] ${job.effect.slice(4)}`)).map((job) => job.effect);
    following = false;
    follower?.close();
    await following$;

    // All the figures first, so that a failure shows every one of them, the roll's steps and what changed in which.
    t.log(
      `roll ${rollMs} ms (setup ${rollStarted - setupStarted} ms): ${rconJobs.length} RCON jobs, ${restartJobs.length} RESTART jobs, ${reads} reads; ` +
        `jobs lost ${lost.length}, run twice ${twice.length} (RCON) and ${gameStarts - 1 - restartJobs.length} (RESTART), RCON jobs that never reached the game ${notRun.length}, ` +
        `requests failed ${failures.length}, players disconnected ${closed} (online ${playersOnline} of ${PLAYERS.length}), ` +
        `console lines lost ${consoleLost.length} (follower reconnected ${reconnects} times); proxy retried ${web.counts.refused} refused web and ` +
        `${gateway.counts.refused} refused gateway connections`,
    );
    t.log(`the roll's steps:\n${steps.join('\n')}`);
    t.log(`statuses and sessions during the roll:\n${changes.join('\n')}`);
    t.deepEqual(
      lost.map((job) => `${job.kind} ${job.effect} ${job.id ?? '(not accepted)'} ${job.id ? statuses.get(job.id) : ''}`),
      [],
      'jobs lost',
    );
    t.deepEqual(twice, [], 'RCON jobs run twice at the game');
    t.deepEqual(notRun, [], 'RCON jobs that never reached the game');
    t.is(gameStarts, 1 + restartJobs.length, 'the power game started once, then once per RESTART job (none run twice)');
    t.deepEqual(failures, [], 'requests failed behind the proxy');
    t.is(closed, 0, "player sessions closed during the roll (the log above says in which step the players' server changed status)");
    t.is(playersOnline, PLAYERS.length, 'players the service counts online after the roll');
    t.is(playersGameStarts, 1, "the players' game ran in one process all along (adopted)");
    t.deepEqual(
      servers.filter((row) => row.status !== 'ONLINE'),
      [],
      'servers not ONLINE after the roll',
    );
    t.deepEqual(consoleLost, [], 'console lines lost');
    t.true(
      rconJobs.length > 10 && restartJobs.length > 2 && reads > 50,
      `traffic: ${rconJobs.length} RCON jobs, ${restartJobs.length} restarts, ${reads} reads`,
    );
    t.deepEqual(
      slots.filter((slot) => slot.release !== 'this').map((slot) => `${slot.role} on ${slot.port}`),
      [],
      'processes still of the previous release',
    );
    for (const machine of machines) await machine.agent!.stop();
    for (const slot of slots) {
      slot.process!.child.kill('SIGTERM');
      await slot.process!.exited;
      running.delete(slot.process!);
    }
  }
}
