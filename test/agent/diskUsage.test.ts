/**
 * Disk-usage measurement (agent/files/diskUsage.ts, docs/files.md#disk-usage) with real file helper processes: a
 * measurement is not a use of a server's helper, so it never keeps one alive — a helper started only to measure ends
 * with the measurement, and a running one still ends when idle although measurements keep coming.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskUsage } from '../../agent/files/diskUsage.ts';
import { FileSessions } from '../../agent/files/fileSessions.ts';
import { Accounts } from '../../agent/servers/accounts.ts';
import { until } from '../support/wait.ts';

async function sessions(t: { teardown: (fn: () => Promise<void>) => void }, idleMs: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-usage-'));
  const serverId = randomUUID();
  await mkdir(join(dataDir, 'servers', serverId), { recursive: true });
  await writeFile(join(dataDir, 'servers', serverId, 'world.dat'), Buffer.alloc(64 * 1024, 1));
  // Servers run as the agent's own user here: the helpers are real processes all the same.
  const files = new FileSessions({ dataDir, accounts: new Accounts({ user: 'gsm', enabled: false, dataDir }), denyListOf: () => [], idleMs });
  t.teardown(async () => {
    await files.stopAll();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { files, serverId };
}

test('a helper started only to measure disk usage is stopped when the measurement ends', async (t) => {
  const { files, serverId } = await sessions(t, 10 * 60_000);
  const usage = new DiskUsage(files, 60_000);
  t.is(usage.of(serverId), undefined, 'no figure before the first measurement');
  await until(async () => usage.of(serverId) !== undefined, 'a figure');
  t.true(usage.of(serverId)! >= 64 * 1024);
  t.deepEqual(files.running(), [], 'no helper left running');
});

test('measurements do not keep a running helper alive: it still ends when idle, and one in use is not stopped by them', async (t) => {
  const { files, serverId } = await sessions(t, 1_500);
  const helper = await files.helperFor(serverId);
  const usage = new DiskUsage(files, 100);
  await until(async () => usage.of(serverId) !== undefined, 'a figure');
  t.true(helper.alive, 'the measurement borrowed the helper in use and left it running');
  t.deepEqual(files.running(), [serverId]);
  // A measurement asked for every 100 ms (as often as stats could ask): the helper still ends once idle.
  await until(async () => {
    usage.of(serverId);
    return !helper.alive && !files.running().includes(serverId);
  }, 'the idle helper ends');
  t.pass();
});
