/**
 * What the agent writes to cgroup v2 for a server's limits. The machines this suite runs on have no cgroup v2 memory
 * and cpu controllers (their unified hierarchy is empty), so the files are checked in a directory laid out like a
 * delegated cgroup; the kernel's enforcement itself is not exercised here (docs/agent.md#limits says where it applies).
 */
import test from 'ava';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cgroups } from '../../agent/runtime/cgroups.ts';

test('limits become memory.max, memory.swap.max, cpu.max and pids.max; the agent moves itself into a leaf; OOM kills are counted', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'gsm-cgroup-'));
  await writeFile(join(base, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
  const cgroups = new Cgroups();
  t.true(await cgroups.setUp(base));
  t.true(cgroups.available);
  t.is(await readFile(join(base, 'gsm-agent', 'cgroup.procs'), 'utf8'), String(process.pid));
  t.is(await readFile(join(base, 'cgroup.subtree_control'), 'utf8'), '+memory +cpu +pids');

  const dir = await cgroups.prepare('server-1', { memoryLimitMb: 512, cpuLimitPercent: 150 });
  t.is(dir, join(base, 'gsm-server-server-1'));
  t.is(await readFile(join(dir!, 'memory.max'), 'utf8'), String(512 * 1024 * 1024));
  t.is(await readFile(join(dir!, 'memory.swap.max'), 'utf8'), '0');
  t.is(await readFile(join(dir!, 'cpu.max'), 'utf8'), '150000 100000');
  t.is(await readFile(join(dir!, 'pids.max'), 'utf8'), '4096', 'a fork bomb stops at the default');
  await cgroups.prepare('server-1', { memoryLimitMb: null, cpuLimitPercent: null });
  t.is(await readFile(join(dir!, 'memory.max'), 'utf8'), 'max');
  t.is(await readFile(join(dir!, 'cpu.max'), 'utf8'), 'max 100000');

  t.is(await cgroups.oomKills(dir!), 0);
  await writeFile(join(dir!, 'memory.events'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n');
  t.is(await cgroups.oomKills(dir!), 1);
});

test('without the memory and cpu controllers, or without write access, limits are not enforced by cgroups and say why', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'gsm-cgroup-'));
  await writeFile(join(base, 'cgroup.controllers'), 'pids\n');
  const cgroups = new Cgroups();
  t.false(await cgroups.setUp(base));
  t.regex(cgroups.reason, /controllers memory and cpu are not available/);
  t.is(await cgroups.prepare('x', { memoryLimitMb: 100 }), undefined);
  t.false(await cgroups.setUp(join(base, 'missing')));
  const none = new Cgroups();
  t.false(await none.setUp(''));
  t.regex(none.reason, /no cgroup v2/);
});

test('pids.max follows the agent’s serverPidsMax; without the pids controller it is not written', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'gsm-cgroup-'));
  await writeFile(join(base, 'cgroup.controllers'), 'cpu memory pids\n');
  const dir = await new Cgroups({ pidsMax: 500 }).prepare('s', {}).then(async (none) => {
    t.is(none, undefined, 'not set up yet');
    const cgroups = new Cgroups({ pidsMax: 500 });
    t.true(await cgroups.setUp(base));
    return cgroups.prepare('s', {});
  });
  t.is(await readFile(join(dir!, 'pids.max'), 'utf8'), '500');
  const other = await mkdtemp(join(tmpdir(), 'gsm-cgroup-'));
  await writeFile(join(other, 'cgroup.controllers'), 'cpu memory\n');
  const without = new Cgroups({ pidsMax: 500 });
  t.true(await without.setUp(other));
  t.is(await readFile(join(other, 'cgroup.subtree_control'), 'utf8'), '+memory +cpu');
  const plain = await without.prepare('s', {});
  await t.throwsAsync(readFile(join(plain!, 'pids.max'), 'utf8'), { code: 'ENOENT' });
});
