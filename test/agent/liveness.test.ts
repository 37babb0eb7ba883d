/**
 * Query and liveness in the server supervisor, with a real fake game process answering A2S (test/fixtures/):
 * players from the query, UNRESPONSIVE after N failed queries and ONLINE again when it answers, a restart only when
 * the server asks for it, and PORT_IN_USE before a start.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { ProcessRuntime } from '../../agent/runtime/processRuntime.ts';
import { RestartPolicy } from '../../agent/runtime/restartPolicy.ts';
import { ServerSupervisor } from '../../agent/servers/serverSupervisor.ts';
import { FAKE_SERVER } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';
import { freePorts } from '../support/ports.ts';

const STATUS_TIMEOUT_MS = 15_000;

type Report = { event: string; data: Record<string, unknown> };

async function supervised(t: import('ava').ExecutionContext, own: Partial<ServerConfig>, env: Record<string, string> = {}, policy = new RestartPolicy()) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-liveness-'));
  const [gamePort, queryPort, rconPort] = await freePorts(3);
  const reports: Report[] = [];
  const config: ServerConfig = {
    id: '00000000-0000-4000-8000-000000000035',
    name: 'liveness',
    gameType: 'CUSTOM',
    gamePort: gamePort!,
    queryPort: queryPort!,
    rconPort: rconPort!,
    rconPassword: 'unused-password',
    maxPlayers: 16,
    desiredStatus: 'RUNNING',
    autoRestart: true,
    startCommand: `${process.execPath} ${FAKE_SERVER}`,
    env: { FAKE_NO_RCON: '1', FAKE_QUERY: 'a2s', QUERY_PORT: String(queryPort), GAME_PORT: String(gamePort), FAKE_READY_DELAY_MS: '0', ...env },
    ready: { mode: 'LINE', pattern: 'Server ready' },
    consoleMode: 'STDIN',
    stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
    queryProtocol: 'A2S',
    unresponsiveAfter: 2,
    ...own,
  };
  const supervisor = new ServerSupervisor(config, {
    dataDir,
    runtime: new ProcessRuntime(),
    report: (event, data) => reports.push({ event, data }),
    termAfterMs: 2_000,
    killAfterMs: 4_000,
    queryIntervalMs: 250,
    restartPolicy: policy,
  });
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  const statuses = () => reports.filter((report) => report.event === 'server:status').map((report) => report.data);
  return { supervisor, reports, statuses, config };
}

test('players from the query; UNRESPONSIVE after N failed queries, not restarted unless asked; ONLINE again when it answers', async (t) => {
  const { supervisor, reports, statuses } = await supervised(t, {}, { FAKE_PLAYERS: '1:Alice,2:Bob' });
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  const queries = () => reports.filter((report) => report.event === 'server:query').map((report) => report.data);
  await until(async () => queries().some((query) => query.answering === true), 'an answered query');
  t.like(
    queries().find((query) => query.answering)!,
    { protocol: 'A2S', players: 2, maxPlayers: 16, map: 'Procedural Map', version: '2.0.0', failures: 0, error: null },
  );
  t.deepEqual(queries().find((query) => query.answering)!.playerNames, ['Alice', 'Bob']);
  // Its console cannot list players (STDIN): the query's names are the players' snapshot.
  await until(async () => reports.some((report) => report.event === 'players:snapshot'), 'a snapshot');
  const snapshot = reports.find((report) => report.event === 'players:snapshot')!.data;
  t.deepEqual(snapshot.players, [
    { steamId: 'query:Alice', username: 'Alice' },
    { steamId: 'query:Bob', username: 'Bob' },
  ]);

  await supervisor.channel.command('sim.mute');
  t.is(await supervisor.waitForStatus((status) => status === 'UNRESPONSIVE', STATUS_TIMEOUT_MS), 'UNRESPONSIVE');
  const unresponsive = statuses().find((status) => status.status === 'UNRESPONSIVE')!;
  t.regex(String(unresponsive.message), /^no answer to 2 queries in a row \(no answer \(timed out\)\)$/);
  // Left running: no restart was asked for.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.is(supervisor.status, 'UNRESPONSIVE');
  t.true(supervisor.running);
  t.false(statuses().some((status) => status.status === 'RESTARTING' || status.status === 'CRASHED'));
  t.true(
    queries()
      .filter((query) => !query.answering)
      .every((query) => (query.failures as number) >= 1),
  );

  await supervisor.channel.command('sim.unmute');
  t.is(await supervisor.waitForStatus((status) => status === 'ONLINE', STATUS_TIMEOUT_MS), 'ONLINE');
  t.is(statuses().at(-1)!.message, 'answering queries again');
});

test('restartWhenUnresponsive: the crash policy restarts an UNRESPONSIVE server, saying why; a server without a query is never UNRESPONSIVE', async (t) => {
  const { supervisor, statuses } = await supervised(t, { restartWhenUnresponsive: true });
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  await until(async () => supervisor.running, 'running');
  await supervisor.channel.command('sim.hang');
  await until(async () => statuses().some((status) => status.status === 'RESTARTING'), 'RESTARTING', STATUS_TIMEOUT_MS);
  const restarting = statuses().find((status) => status.status === 'RESTARTING')!;
  t.regex(String(restarting.message), /^restarted by the agent: unresponsive, no answer to 2 queries in a row/);
  // The hung game ignores SIGTERM: killed, started again, and answering.
  // Each status once (STARTING is reported again with what it waits for).
  const sequence = () =>
    statuses()
      .map((status) => status.status)
      .filter((status, index, all) => status !== all[index - 1]);
  await until(async () => sequence().lastIndexOf('ONLINE') > sequence().indexOf('RESTARTING'), 'ONLINE again', STATUS_TIMEOUT_MS);
  t.deepEqual(sequence().slice(sequence().indexOf('UNRESPONSIVE')), ['UNRESPONSIVE', 'RESTARTING', 'STARTING', 'ONLINE']);

  const { supervisor: plain, statuses: plainStatuses } = await supervised(t, { queryProtocol: null, restartWhenUnresponsive: true });
  await plain.start();
  t.is(await plain.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  await plain.channel.command('sim.hang');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.is(plain.status, 'ONLINE', 'CUSTOM without a query protocol: never queried');
  t.false(plainStatuses().some((status) => status.status === 'UNRESPONSIVE'));
});

test("a STOP during an unresponsive restart's back-off calls the restart off and reports OFFLINE", async (t) => {
  const { supervisor, statuses } = await supervised(t, { restartWhenUnresponsive: true }, {}, new RestartPolicy({ baseMs: 60_000 }));
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'ONLINE');
  await until(async () => supervisor.running, 'running');
  await supervisor.channel.command('sim.hang');
  // Killed (the hung game ignores SIGTERM), then RESTARTING for the back-off with no process.
  await until(async () => supervisor.status === 'RESTARTING' && !supervisor.running, 'RESTARTING without a process', STATUS_TIMEOUT_MS);
  supervisor.setDesiredStatus('STOPPED');
  await supervisor.stop();
  t.is(supervisor.status, 'OFFLINE');
  t.is(statuses().at(-1)!.status, 'OFFLINE');
});

test('a port held by another process fails the start with PORT_IN_USE naming that process', async (t) => {
  const { supervisor, config, statuses } = await supervised(t, {});
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(config.rconPort, '0.0.0.0', () => resolve()));
  t.teardown(() => holder.close());
  await supervisor.start();
  t.is(await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS), 'CRASHED');
  t.is(supervisor.startFailureCode, 'PORT_IN_USE');
  t.regex(
    String(statuses().at(-1)!.message),
    new RegExp(`^PORT_IN_USE: port ${config.rconPort}/TCP \\(its rcon port\\) is in use: held by pid ${process.pid} `),
  );
});
