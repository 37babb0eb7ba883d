/**
 * The server supervisor with real processes: what it makes of a game's output from the very first line.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { ProcessRuntime } from '../../agent/runtime/processRuntime.ts';
import { ServerSupervisor } from '../../agent/servers/serverSupervisor.ts';

/** Long enough for a loaded machine; a start that lost its ready line never gets there (its time-out is minutes). */
const STATUS_TIMEOUT_MS = 10_000;
const STARTS = 8;

/**
 * A game that prints its ready line the moment it runs (a shell starts in about a millisecond, far sooner than the
 * agent's own bookkeeping after spawn), then waits for `stop` on its console.
 */
const INSTANT_MINECRAFT = `/bin/sh -c 'echo "[12:00:00] [Server thread/INFO]: Done (0.001s)! For help, type \\"help\\""; while read line; do [ "$line" = stop ] && exit 0; done'`;

function config(startCommand: string): ServerConfig {
  return {
    id: 'instant',
    name: 'instant',
    gameType: 'MINECRAFT',
    gamePort: 25565,
    queryPort: 25565,
    rconPort: 25575,
    rconPassword: 'unused-password',
    maxPlayers: 4,
    desiredStatus: 'RUNNING',
    autoRestart: false,
    startCommand,
    env: null,
  };
}

test('a game that prints its ready line at once becomes ONLINE, start after start', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-supervisor-'));
  const supervisor = new ServerSupervisor(config(INSTANT_MINECRAFT), {
    dataDir,
    runtime: new ProcessRuntime(),
    report: () => undefined,
    termAfterMs: 2_000,
    killAfterMs: 4_000,
  });
  t.teardown(async () => {
    await supervisor.kill();
    await supervisor.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  for (let start = 1; start <= STARTS; start++) {
    await supervisor.start();
    const status = await supervisor.waitForStatus((status) => status !== 'STARTING', STATUS_TIMEOUT_MS).catch((error: Error) => error.message);
    t.is(status, 'ONLINE', `start ${start} of ${STARTS}`);
    if (status !== 'ONLINE') return;
    await supervisor.stop();
    t.is(await supervisor.waitForStatus((status) => status === 'OFFLINE', STATUS_TIMEOUT_MS), 'OFFLINE');
  }
});
