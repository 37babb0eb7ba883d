import test, { type ExecutionContext } from 'ava';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputLog, MAX_LINE_BYTES } from '../../agent/runtime/outputLog.ts';
import { ProcessRuntime } from '../../agent/runtime/processRuntime.ts';
import { refusingFallocate } from '../support/fakeFallocate.ts';

// Real child processes: small node scripts in a temp dir, run with this very node binary.
const SCRIPTS = {
  'echo.mjs': `console.log('out one'); console.error('err one'); console.log('port=' + process.env.GAME_PORT + ' cwd=' + process.cwd() + ' args=' + process.argv.slice(2).join(','));
process.stdout.write('partial without newline'); process.exitCode = Number(process.argv[2] ?? 0);`,
  'stdinStop.mjs': `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => { if (line === 'stop') { console.log('saving world'); process.exit(0); } });
console.log('ready');`,
  'deaf.mjs': `console.log('ready'); setInterval(() => {}, 1000);`,
  'ignoreTerm.mjs': `process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('ready'); setInterval(() => {}, 1000);`,
  'flood.mjs': `process.stdout.write('y'.repeat(200_000) + '\\nafter\\n');`,
  // Writes in bursts (each one wakes a read of the spool), the last burst right before exiting.
  'bursts.mjs': `for (let burst = 0; burst < 20; burst++) { for (let line = 0; line < 50; line++) console.log('burst ' + burst + ' line ' + line); await new Promise((r) => setTimeout(r, burst % 5)); }`,
  // The grandchild ignores SIGTERM and shares the pipes: only a group SIGKILL removes it.
  'forker.mjs': `import { spawn } from 'node:child_process';
const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('grandchild up')"], { stdio: 'inherit' });
console.log('grandchild ' + child.pid); setInterval(() => {}, 1000);`,
};

let dir = '';
const runtime = new ProcessRuntime();

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gsm-runtime-'));
  for (const [name, body] of Object.entries(SCRIPTS)) await writeFile(join(dir, name), body);
});

test.after.always(() => rm(dir, { recursive: true, force: true }));

/**
 * Starts a script and records every line from the very start, with a way to await a given line. The process is
 * killed when the test ends, whatever happened (tests in a file run concurrently, so cleanup is per test).
 */
async function run(t: ExecutionContext, script: keyof typeof SCRIPTS, args: string[] = [], env: Record<string, string> = {}) {
  const proc = await runtime.start({ command: process.execPath, args: [join(dir, script), ...args], cwd: dir, env });
  t.teardown(() => proc.kill());
  const lines: string[] = [];
  proc.on('line', (stream, line) => lines.push(`${stream}: ${line}`));
  const waitFor = (pattern: RegExp, timeoutMs = 5_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line ${pattern} in ${JSON.stringify(lines)}`)), timeoutMs);
      const check = () => {
        const found = lines.find((line) => pattern.test(line));
        if (found === undefined) return;
        clearTimeout(timer);
        proc.off('line', check);
        resolve(found);
      };
      proc.on('line', check);
      check();
    });
  return { proc, lines, waitFor };
}

/** Alive and not a zombie (in a container, PID 1 may never reap the orphaned grandchild). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

const eventually = async (condition: () => boolean | Promise<boolean>, timeoutMs = 3_000) => {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    if (await condition()) return true;
  }
  return condition();
};

test('start runs the command in cwd with exactly the given env, and captures stdout and stderr lines', async (t) => {
  t.timeout(10_000);
  const { proc, lines } = await run(t, 'echo.mjs', ['0', 'a b'], { GAME_PORT: '27015' });
  t.true(proc.pid > 0);
  t.like(await proc.wait(), { exitCode: 0, signal: null });
  // Both go to one spool, in the order the game wrote them (the console shows them interleaved as printed).
  t.deepEqual(lines.slice().sort(), ['stdout: err one', 'stdout: out one', 'stdout: partial without newline', `stdout: port=27015 cwd=${dir} args=0,a b`]);
});

test('wait() resolves with every line read, even when the process exits while a read of its output is under way', async (t) => {
  t.timeout(60_000);
  // Many short-lived processes at once: exits land in the middle of reads.
  const runs = await Promise.all(Array.from({ length: 12 }, () => run(t, 'bursts.mjs')));
  for (const { proc, lines } of runs) {
    await proc.wait();
    t.is(lines.length, 1000);
    t.is(lines.at(-1), 'stdout: burst 19 line 49');
  }
});

test('a line without a newline is cut at 64 Ki characters, so a flood cannot fill memory', async (t) => {
  t.timeout(10_000);
  const { proc, lines } = await run(t, 'flood.mjs');
  await proc.wait();
  t.deepEqual(lines, [`stdout: ${'y'.repeat(64 * 1024)}`, 'stdout: after']);
});

test('wait and inspect report the exit code, and the signal of a process killed from outside', async (t) => {
  t.timeout(10_000);
  const exited = (await run(t, 'echo.mjs', ['3'])).proc;
  const info = await exited.wait();
  t.is(info.exitCode, 3);
  t.is(info.signal, null);
  t.false(Number.isNaN(Date.parse(info.at)));
  t.like(exited.inspect(), { pid: exited.pid, running: false, exitCode: 3, signal: null });
  t.throws(() => exited.write('anything'), { message: /is not running/ });

  const { proc, waitFor } = await run(t, 'deaf.mjs');
  await waitFor(/ready/);
  const state = proc.inspect();
  t.like(state, { running: true, exitCode: null, signal: null });
  t.true(Date.parse(state.startedAt) <= Date.now());
  process.kill(proc.pid, 'SIGTERM');
  t.like(await proc.wait(), { exitCode: null, signal: 'SIGTERM' });
  t.like(proc.inspect(), { running: false, exitCode: null, signal: 'SIGTERM' });
});

test('graceful stop: the stop command on stdin ends the process before any signal', async (t) => {
  t.timeout(10_000);
  const { proc, lines, waitFor } = await run(t, 'stdinStop.mjs');
  await waitFor(/ready/);
  const began = Date.now();
  const [info, again] = await Promise.all([
    proc.stop({ graceful: () => proc.write('stop'), termAfterMs: 5_000, killAfterMs: 8_000 }),
    proc.stop({ termAfterMs: 0, killAfterMs: 0 }), // a second stop shares the first one's escalation
  ]);
  t.like(info, { exitCode: 0, signal: null, stoppedBy: 'graceful' });
  t.deepEqual(again, info);
  t.true(Date.now() - began < 3_000);
  t.true(lines.includes('stdout: saving world'));
  t.like(await proc.stop({ termAfterMs: 0, killAfterMs: 0 }), { exitCode: 0 }, 'stopping a stopped process answers at once');
});

test('SIGTERM after termAfterMs when the graceful command is ignored', async (t) => {
  t.timeout(10_000);
  const { proc, waitFor } = await run(t, 'deaf.mjs');
  await waitFor(/ready/);
  let gracefulCalled = false;
  const began = Date.now();
  const info = await proc.stop({
    graceful: () => {
      gracefulCalled = true;
      proc.write('stop');
    },
    termAfterMs: 300,
    killAfterMs: 5_000,
  });
  const elapsed = Date.now() - began;
  t.true(gracefulCalled);
  t.like(info, { exitCode: null, signal: 'SIGTERM', stoppedBy: 'SIGTERM' });
  t.true(elapsed >= 290 && elapsed < 3_000, `took ${elapsed} ms`);
});

test('SIGKILL at killAfterMs (from the start of stop) when SIGTERM is ignored; a failing graceful step is harmless', async (t) => {
  t.timeout(10_000);
  const { proc, lines, waitFor } = await run(t, 'ignoreTerm.mjs');
  await waitFor(/ready/);
  const began = Date.now();
  const info = await proc.stop({
    graceful: () => Promise.reject(new Error('RCON refused')),
    termAfterMs: 200,
    killAfterMs: 2_000, // the child has 1.8 s to print that it ignores SIGTERM, even on a loaded machine
  });
  const elapsed = Date.now() - began;
  t.like(info, { exitCode: null, signal: 'SIGKILL', stoppedBy: 'SIGKILL' });
  t.true(elapsed >= 1_990 && elapsed < 5_000, `took ${elapsed} ms`);
  t.true(lines.includes('stdout: ignoring SIGTERM'), 'SIGTERM was delivered first');
});

test('kill() ends the process at once with SIGKILL', async (t) => {
  t.timeout(10_000);
  const { proc, waitFor } = await run(t, 'ignoreTerm.mjs');
  await waitFor(/ready/);
  const began = Date.now();
  t.like(await proc.kill(), { exitCode: null, signal: 'SIGKILL' });
  t.true(Date.now() - began < 2_000);
  t.false(proc.inspect().running);
});

for (const how of ['stop', 'kill'] as const) {
  test(`a forked grandchild that ignores SIGTERM is gone after ${how}`, async (t) => {
    t.timeout(10_000);
    const { proc, waitFor } = await run(t, 'forker.mjs');
    const grandchild = Number((await waitFor(/grandchild \d+/)).split(' ').pop());
    t.teardown(() => {
      if (isAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
    });
    await waitFor(/grandchild up/);
    t.true(isAlive(grandchild));
    const info = how === 'stop' ? await proc.stop({ termAfterMs: 100, killAfterMs: 5_000 }) : await proc.kill();
    t.is(info.signal, how === 'stop' ? 'SIGTERM' : 'SIGKILL');
    t.true(await eventually(() => !isAlive(grandchild)), `grandchild ${grandchild} still alive`);
  });
}

test('a missing executable or working directory rejects start() with a clear error', async (t) => {
  t.timeout(10_000);
  const spec = { args: [], cwd: dir, env: { PATH: process.env.PATH ?? '' } };
  await t.throwsAsync(runtime.start({ ...spec, command: 'gsm-no-such-command' }), {
    message: 'command not found: gsm-no-such-command',
  });
  await t.throwsAsync(runtime.start({ ...spec, command: join(dir, 'missing.sh') }), { message: /^command not found: / });
  const notExecutable = join(dir, 'echo.mjs');
  await t.throwsAsync(runtime.start({ ...spec, command: notExecutable }), { message: /permission denied/ });
  await t.throwsAsync(runtime.start({ ...spec, command: process.execPath, cwd: join(dir, 'nope') }), {
    message: /working directory not found/,
  });
});

test('the output log rotates at its cap, keeping one old file, and tail answers the newest lines', async (t) => {
  const serverDir = await mkdtemp(join(dir, 'server-'));
  const log = await OutputLog.open(join(serverDir, 'logs'), { maxBytes: 100, keepLines: 5 });
  const lines = Array.from({ length: 30 }, (_, i) => `line-${String(i).padStart(2, '0')}`); // 8 bytes each with \n
  for (const line of lines) log.append(line);
  t.deepEqual(log.tail(3), ['line-27', 'line-28', 'line-29']);
  t.deepEqual(log.tail(), lines.slice(25), 'no more than keepLines');
  await log.close();
  const read = (name: string) => readFile(join(serverDir, 'logs', name), 'utf8');
  t.is(await read('console.log'), `${lines.slice(24).join('\n')}\n`);
  t.is(await read('console.log.1'), `${lines.slice(12, 24).join('\n')}\n`);
  t.true((await stat(join(serverDir, 'logs', 'console.log.1'))).size <= 100);
  await t.throwsAsync(stat(join(serverDir, 'logs', 'console.log.2')));

  // Reopening appends, and counts what is already there towards the cap.
  const reopened = await OutputLog.open(join(serverDir, 'logs'), { maxBytes: 100 });
  for (const line of lines.slice(0, 7)) reopened.append(line);
  await reopened.close();
  t.is(await read('console.log.1'), `${[...lines.slice(24), ...lines.slice(0, 6)].join('\n')}\n`);
  t.is(await read('console.log'), 'line-06\n');
});

test('the output log truncates lines over 8 KiB and records a live process', async (t) => {
  t.timeout(10_000);
  const serverDir = await mkdtemp(join(dir, 'server-'));
  const log = await OutputLog.open(join(serverDir, 'logs'));
  log.append('x'.repeat(10_000));
  log.append('é'.repeat(5_000)); // 10 000 bytes; cut on a character boundary
  const [ascii, accented] = log.tail(2);
  t.is(ascii, `${'x'.repeat(MAX_LINE_BYTES)} [truncated]`);
  t.is(accented, `${'é'.repeat(MAX_LINE_BYTES / 2)} [truncated]`);

  const { proc } = await run(t, 'echo.mjs');
  const detach = log.attach(proc);
  await proc.wait();
  detach();
  t.deepEqual(log.tail(4).slice().sort(), ['err one', 'out one', 'partial without newline', `port=undefined cwd=${dir} args=`]);
  await log.close();
  t.true((await readFile(log.path, 'utf8')).endsWith('partial without newline\n'));
});

/** Writes an identity file naming `pid` with another start time: what a reused pid looks like. */
async function forgeStartTime(runDir: string): Promise<void> {
  const file = join(runDir, 'process.json');
  const identity = JSON.parse(await readFile(file, 'utf8')) as { startTicks: string };
  await writeFile(file, JSON.stringify({ ...identity, startTicks: String(Number(identity.startTicks) + 1) }));
}

test('a process outlives its runtime: a new runtime adopts it, reads on from where the last one stopped, and sends it stdin commands', async (t) => {
  t.timeout(20_000);
  const runDir = await mkdtemp(join(dir, 'run-'));
  const first = new ProcessRuntime();
  const proc = await first.start({ command: process.execPath, args: [join(dir, 'stdinStop.mjs')], cwd: dir, env: {}, runDir });
  t.teardown(() => {
    if (isAlive(proc.pid)) process.kill(-proc.pid, 'SIGKILL');
  });
  const before: string[] = [];
  proc.on('line', (_stream, line) => before.push(line));
  t.true(await eventually(() => before.includes('ready')));
  proc.write('echo one');
  first.detachAll(); // the agent exits (or is killed): nothing stops the game

  t.true(isAlive(proc.pid));
  const second = new ProcessRuntime();
  const adopted = await second.adopt(runDir);
  if (adopted === undefined || adopted === 'gone') return t.fail(`not adopted: ${adopted}`);
  t.is(adopted.pid, proc.pid);
  t.true(adopted.adopted);
  const after: string[] = [];
  adopted.on('line', (_stream, line) => after.push(line));
  adopted.resume();
  adopted.write('stop'); // through the named pipe, to the same process
  const exit = await adopted.wait();
  t.true(after.includes('saving world'), JSON.stringify(after));
  t.false(after.includes('ready'), 'lines the first runtime read are not repeated');
  t.like(exit, { exitCode: null, adopted: true });
  t.is(await second.adopt(runDir), undefined, 'nothing left to adopt once it ended');
});

test('a pid that now names another process (another start time) is never adopted nor signalled', async (t) => {
  t.timeout(10_000);
  const runDir = await mkdtemp(join(dir, 'run-'));
  const first = new ProcessRuntime();
  const proc = await first.start({ command: process.execPath, args: [join(dir, 'deaf.mjs')], cwd: dir, env: {}, runDir });
  t.teardown(() => proc.kill());
  first.detachAll();
  await forgeStartTime(runDir);
  t.is(await new ProcessRuntime().adopt(runDir), 'gone');
  t.true(isAlive(proc.pid), 'the stranger was not touched');
});

test('a game whose console is stdin never sees end-of-file while no agent writes to it', async (t) => {
  t.timeout(10_000);
  const script = join(dir, 'eofWatcher.mjs');
  await writeFile(script, `process.stdin.on('end', () => { console.log('EOF'); process.exit(3); }); process.stdin.resume(); console.log('ready');`);
  const runDir = await mkdtemp(join(dir, 'run-'));
  const first = new ProcessRuntime();
  const proc = await first.start({ command: process.execPath, args: [script], cwd: dir, env: {}, runDir });
  t.teardown(() => proc.kill());
  proc.write('hello');
  first.detachAll();
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.true(isAlive(proc.pid));
  const adopted = await new ProcessRuntime().adopt(runDir);
  t.true(adopted !== undefined && adopted !== 'gone');
  if (typeof adopted === 'object') await adopted.kill();
});

test('the output spool read past 1 MiB is freed (a hole punched) while the game writes, and no line is lost', async (t) => {
  t.timeout(30_000);
  const script = join(dir, 'steadyOutput.mjs');
  // 3,000 numbered lines of 1 KiB in bursts over about 2 s: the spool is freed twice while the game goes on writing.
  await writeFile(
    script,
    `let n = 0; const burst = () => { for (let i = 0; i < 100; i++) process.stdout.write(String(n++).padStart(6, '0') + 'z'.repeat(1017) + '\\n'); if (n < 3000) setTimeout(burst, 60); else setTimeout(() => { console.log('tail line'); setInterval(() => {}, 1000); }, 300); }; burst();`,
  );
  const runDir = await mkdtemp(join(dir, 'run-'));
  const big = await runtime.start({ command: process.execPath, args: [script], cwd: dir, env: {}, runDir });
  t.teardown(() => big.kill());
  const seen: string[] = [];
  big.on('line', (_stream, line) => seen.push(line));
  t.true(await eventually(() => seen.includes('tail line'), 20_000));
  t.is(seen.length, 3001, 'every line once, nothing else');
  t.true(
    seen.slice(0, 3000).every((line, index) => line.length === 1023 && line.startsWith(String(index).padStart(6, '0'))),
    'in order',
  );
  // The file keeps its size (the game appends at its end); what was read no longer takes disk space.
  const spool = join(runDir, 'output');
  t.true((await stat(spool)).size > 3000 * 1024);
  t.true(await eventually(async () => (await stat(spool)).blocks * 512 < 1024 * 1024, 5_000), 'the read part freed');
});

test.serial('a spool that cannot be freed (fallocate fails) says so in the console and loses nothing', async (t) => {
  t.timeout(30_000);
  // Serial: the other tests of this file run after.
  const restorePath = await refusingFallocate(dir, 'fallocate: refused for the test');
  try {
    const script = join(dir, 'refusedFree.mjs');
    await writeFile(
      script,
      `const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 1500; i++) process.stdout.write(line); console.log('done'); setInterval(() => {}, 1000);`,
    );
    const runDir = await mkdtemp(join(dir, 'run-'));
    const proc = await runtime.start({ command: process.execPath, args: [script], cwd: dir, env: {}, runDir });
    t.teardown(() => proc.kill());
    const seen: string[] = [];
    const notices: string[] = [];
    proc.on('line', (_stream, line) => seen.push(line));
    proc.on('notice', (line) => notices.push(line));
    t.true(await eventually(() => seen.includes('done') && notices.length > 0, 10_000));
    t.is(seen.filter((line) => line.length === 1023).length, 1500);
    t.true(
      notices.some((line) =>
        /^\[gsm\] could not free the output spool's read part \(fallocate exited 1: fallocate: refused for the test\); trying again$/.test(line),
      ),
      JSON.stringify(notices),
    );
    // The agent's words are not the game's output: game line handlers (readiness, players, stdin answers) never see them.
    t.deepEqual(
      seen.filter((line) => line.startsWith('[gsm]')),
      [],
    );
  } finally {
    restorePath();
  }
});

test('an agent that adopts a process behind a freed part of its spool, its offset lost, shows no hole as a line', async (t) => {
  t.timeout(30_000);
  const script = join(dir, 'bigThenEcho.mjs');
  await writeFile(
    script,
    `import { createInterface } from 'node:readline'; const line = 'y'.repeat(1023) + '\\n'; for (let i = 0; i < 1500; i++) process.stdout.write(line); console.log('written'); createInterface({ input: process.stdin }).on('line', (l) => console.log('echo ' + l));`,
  );
  const runDir = await mkdtemp(join(dir, 'run-'));
  const first = new ProcessRuntime();
  const proc = await first.start({ command: process.execPath, args: [script], cwd: dir, env: {}, runDir });
  t.teardown(() => {
    if (isAlive(proc.pid)) process.kill(-proc.pid, 'SIGKILL');
  });
  const before: string[] = [];
  proc.on('line', (_stream, line) => before.push(line));
  t.true(await eventually(() => before.includes('written'), 10_000));
  const spool = join(runDir, 'output');
  t.true(await eventually(async () => (await stat(spool)).blocks * 512 < 1024 * 1024, 5_000), 'the read part freed');
  first.detachAll();
  // As after a crash that lost the saved offset: the next agent starts 256 KiB before the end, inside the hole.
  await writeFile(join(runDir, 'output.offset'), '');
  const adopted = await new ProcessRuntime().adopt(runDir);
  if (adopted === undefined || adopted === 'gone') return t.fail(`not adopted: ${adopted}`);
  const after: string[] = [];
  adopted.on('line', (_stream, line) => after.push(line));
  adopted.resume();
  adopted.write('one');
  adopted.write('two');
  t.true(await eventually(() => after.includes('echo two'), 10_000), JSON.stringify(after.map((line) => line.slice(0, 40))));
  t.false(
    after.some((line) => line.includes('\0')),
    'no line of the hole',
  );
  await adopted.kill();
});
