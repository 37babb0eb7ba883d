/**
 * A template's install steps on the agent (agent/installs/templateSteps.ts), as the agent's own user: a checked
 * download, unpacked (tar.gz, one level stripped, the archive removed), a script in the server's directory with its
 * environment and time-out, a download skipped when the file there already has its checksum, a missing tool failing
 * at once with its name, and a wrong checksum refusing the file.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTemplateSteps } from '../../agent/installs/templateSteps.ts';
import type { InstallContext } from '../../agent/installs/context.ts';
import { installStep, templateDocument } from '../../schema/template.ts';
import { checkVariables } from '../../orchestrator/templates/store.ts';
import { installSteamAppId } from '../../agent/installs/steam.ts';
import { redactor, shownUrl } from '../../agent/installs/redact.ts';
import { until } from '../support/wait.ts';
import { serveSteamcmd, startDownloadServer } from '../support/downloads.ts';
import { accountPrefix, isRoot, removeTestAccounts } from '../support/serverAccounts.ts';
import { Accounts, prepareServerDir } from '../../agent/servers/accounts.ts';

async function archive(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-steps-src-'));
  await mkdir(join(dir, 'game-1.0', 'bin'), { recursive: true });
  await writeFile(join(dir, 'game-1.0', 'bin', 'run.sh'), '#!/bin/sh\necho running\n');
  execFileSync('tar', ['-czf', join(dir, 'game.tar.gz'), '-C', dir, 'game-1.0']);
  return readFile(join(dir, 'game.tar.gz'));
}

test('download, unpack, script; a current download is skipped; a missing tool and a wrong checksum fail', async (t) => {
  const tarball = await archive();
  let served = 0;
  const files = createServer((request, response) => {
    served += 1;
    if (request.url === '/game.tar.gz') return void response.writeHead(200).end(tarball);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  t.teardown(() => files.close());
  const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-steps-'));
  const dir = join(dataDir, 'servers', 's1');
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  const context: InstallContext = {
    dataDir,
    manifestUrl: `${url}/none`,
    steamcmdUrl: `${url}/none`,
    retries: 0,
    backoffMs: 10,
    serverId: 's1',
    dir,
    stagingDir: join(dataDir, 'staging', 's1'),
    account: undefined,
    version: null,
    acceptEula: false,
    signal: new AbortController().signal,
    progress: () => undefined,
    line: (text) => lines.push(text),
  };
  const sha256 = createHash('sha256').update(tarball).digest('hex');
  const steps = [
    { type: 'download', url: `${url}/game.tar.gz`, path: 'game.tar.gz', sha256 },
    { type: 'unpack', archive: 'game.tar.gz', destination: 'app', stripComponents: 1 },
    { type: 'script', script: 'echo "hello from $SERVER_DIR with $GREETING" > installed.txt; echo done', env: { GREETING: 'hi' } },
  ].map((step) => installStep.parse(step));
  const outcome = await runTemplateSteps(context, { steps, tools: ['tar', 'sh'] });
  t.regex(outcome.message, /downloaded game\.tar\.gz; unpacked game\.tar\.gz; the install script succeeded/);
  t.is(await readFile(join(dir, 'app', 'bin', 'run.sh'), 'utf8'), '#!/bin/sh\necho running\n');
  t.false(existsSync(join(dir, 'game.tar.gz')), 'the archive is removed once unpacked');
  t.is(await readFile(join(dir, 'installed.txt'), 'utf8'), `hello from ${dir} with hi\n`);
  t.true(lines.includes('done'), "the script's output reaches the console");

  // Already there with its checksum: not downloaded again.
  const keep = installStep.parse({ type: 'download', url: `${url}/game.tar.gz`, path: 'kept.tar.gz', sha256 });
  await writeFile(join(dir, 'kept.tar.gz'), tarball);
  const before = served;
  t.regex((await runTemplateSteps(context, { steps: [keep] })).message, /already current/);
  t.is(served, before);

  // A tool the machine lacks: fails at once, naming it, before any step.
  await t.throwsAsync(runTemplateSteps(context, { steps, tools: ['tar', 'no-such-tool-gsm'] }), { message: /lacks what the install needs: no-such-tool-gsm/ });
  // A wrong checksum: refused, the old file kept.
  const wrong = installStep.parse({ type: 'download', url: `${url}/game.tar.gz`, path: 'kept.tar.gz', sha256: '0'.repeat(64) });
  await t.throwsAsync(runTemplateSteps(context, { steps: [wrong] }), { code: 'CHECKSUM_MISMATCH' } as never);
  t.deepEqual(await readFile(join(dir, 'kept.tar.gz')), tarball);
  // A script that fails: its exit code.
  await t.throwsAsync(runTemplateSteps(context, { steps: [installStep.parse({ type: 'script', script: 'exit 3' })] }), { message: /exited with code 3/ });
});

/** A context for steps in a fresh server directory, its console lines in `lines`. */
async function freshContext(signal = new AbortController().signal): Promise<{ context: InstallContext; dir: string; lines: string[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-steps-'));
  const dir = join(dataDir, 'servers', 's1');
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  const context: InstallContext = {
    dataDir,
    manifestUrl: 'http://127.0.0.1:9/none',
    steamcmdUrl: 'http://127.0.0.1:9/none',
    retries: 0,
    backoffMs: 10,
    serverId: 's1',
    dir,
    stagingDir: join(dataDir, 'staging', 's1'),
    account: undefined,
    version: null,
    acceptEula: false,
    signal,
    progress: () => undefined,
    line: (text) => lines.push(text),
  };
  return { context, dir, lines };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a script that backgrounds a child: the child goes with it, at its time-out, at a cancel and when the script ends', async (t) => {
  const { context, dir } = await freshContext();
  // Timed out: its whole process group is killed, the backgrounded sleep too.
  const slow = installStep.parse({ type: 'script', script: 'sleep 300 & echo $! > bg.pid; sleep 300', timeoutSeconds: 1 });
  await t.throwsAsync(runTemplateSteps(context, { steps: [slow] }), { message: /did not end within 1 s/ });
  const timedOut = Number(await readFile(join(dir, 'bg.pid'), 'utf8'));
  await until(async () => !alive(timedOut), 'the backgrounded child of the timed-out script is gone');

  // Ended by itself, leaving a child behind: the step ends (the child held its output open) and the child is gone.
  const leaves = installStep.parse({ type: 'script', script: 'sleep 300 & echo $! > left.pid; echo finished' });
  t.regex((await runTemplateSteps(context, { steps: [leaves] })).message, /the install script succeeded/);
  const left = Number(await readFile(join(dir, 'left.pid'), 'utf8'));
  await until(async () => !alive(left), 'the child the script left is gone');

  // Cancelled: the group goes too.
  const cancel = new AbortController();
  const { context: cancellable, dir: other } = await freshContext(cancel.signal);
  const running = runTemplateSteps(cancellable, { steps: [installStep.parse({ type: 'script', script: 'sleep 300 & echo $! > bg.pid; wait' })] });
  await until(async () => existsSync(join(other, 'bg.pid')) && (await readFile(join(other, 'bg.pid'), 'utf8')).trim() !== '', 'the script started its child');
  cancel.abort();
  await t.throwsAsync(running, { code: 'CANCELLED' } as never);
  const cancelled = Number(await readFile(join(other, 'bg.pid'), 'utf8'));
  await until(async () => !alive(cancelled), 'the child of the cancelled script is gone');
});

/** `work`, or a failure naming `what` once `ms` passed (an install that never ends must fail the test, not hang it). */
async function within<T>(work: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not end`)), ms)));
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

const readPid = async (file: string) => Number((await readFile(file, 'utf8')).trim());

/** Whether `pid` still runs: a killed process stays a zombie until init reaps it, and runs nothing. */
const runs = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
};

test('a script whose child leaves the group with setsid still ends when the script does (the agent as its own user)', async (t) => {
  const { context, dir } = await freshContext();
  // The escaped child holds the script's output open: the step ends on the script's exit all the same.
  const escapes = installStep.parse({ type: 'script', script: 'setsid sleep 300 & echo $! > escaped.pid; echo finished' });
  const outcome = await within(runTemplateSteps(context, { steps: [escapes] }), 'the install');
  t.regex(outcome.message, /the install script succeeded/);
  const escaped = await readPid(join(dir, 'escaped.pid'));
  // Not root: nothing tells its processes from the agent's own, so a child out of the group is left (said in the docs).
  t.teardown(() => {
    if (alive(escaped)) process.kill(escaped, 'SIGKILL');
  });
});

test.serial(
  "as root, a child that leaves the group with setsid goes with the account's other processes: at the script's end, its time-out and a cancel",
  async (t) => {
    if (!isRoot) return t.pass('needs root (CI runs as root)');
    const prefix = accountPrefix();
    t.teardown(() => removeTestAccounts(prefix));
    const dataDir = await mkdtemp(join(tmpdir(), 'gsm-steps-root-'));
    await chmod(dataDir, 0o711);
    await mkdir(join(dataDir, 'servers'), { mode: 0o711 });
    const serverId = randomUUID();
    const account = await new Accounts({ user: prefix, enabled: true, dataDir }).forServer(serverId)!;
    const dir = join(dataDir, 'servers', serverId);
    await prepareServerDir(dir, account);
    const contextOf = (signal: AbortSignal): InstallContext => ({
      dataDir,
      manifestUrl: 'http://127.0.0.1:9/none',
      steamcmdUrl: 'http://127.0.0.1:9/none',
      retries: 0,
      backoffMs: 10,
      serverId,
      dir,
      stagingDir: join(dataDir, 'staging', serverId),
      account,
      version: null,
      acceptEula: false,
      signal,
      progress: () => undefined,
      line: () => undefined,
    });
    const escaping = (file: string, rest: string) =>
      installStep.parse({ type: 'script', script: `setsid sleep 300 & echo $! > ${file}; ${rest}`, timeoutSeconds: 2 });

    const outcome = await within(runTemplateSteps(contextOf(new AbortController().signal), { steps: [escaping('ended.pid', 'echo finished')] }), 'the install');
    t.regex(outcome.message, /the install script succeeded/);
    t.false(runs(await readPid(join(dir, 'ended.pid'))), 'the escaped child is gone once the step has ended');

    await t.throwsAsync(within(runTemplateSteps(contextOf(new AbortController().signal), { steps: [escaping('timed.pid', 'sleep 300')] }), 'the install'), {
      message: /did not end within 2 s/,
    });
    t.false(runs(await readPid(join(dir, 'timed.pid'))), "the timed-out script's escaped child is gone");

    const cancel = new AbortController();
    const cancelled = runTemplateSteps(contextOf(cancel.signal), { steps: [escaping('cancelled.pid', 'sleep 300')] });
    await until(
      async () => existsSync(join(dir, 'cancelled.pid')) && (await readFile(join(dir, 'cancelled.pid'), 'utf8')).trim() !== '',
      'the script started its child',
    );
    cancel.abort();
    await t.throwsAsync(within(cancelled, 'the install'), { code: 'CANCELLED' } as never);
    t.false(runs(await readPid(join(dir, 'cancelled.pid'))), "the cancelled script's escaped child is gone");
  },
);

test("SteamCMD's commands, the beta password among them, come from a script of its own (0600, removed after), never its command line", async (t) => {
  const downloads = await startDownloadServer();
  t.teardown(() => downloads.close());
  const { context, dir } = await freshContext();
  const steamcmdUrl = await serveSteamcmd(downloads);
  const password = 'Open.Sesame_42';
  const outcome = await installSteamAppId({ ...context, steamcmdUrl }, 258550, { branch: 'staging', betaPassword: password });
  t.is(outcome.message, 'installed Steam app 258550');
  t.is(await readFile(join(dir, 'installed-app-258550.txt'), 'utf8'), 'app 258550 installed by root\nrunscript mode 600\nbeta password on no command line\n');
  const home = join(context.dataDir, 'steamcmd', context.serverId);
  t.deepEqual(
    (await readdir(home)).filter((name) => name.startsWith('runscript.')),
    [],
    'the script is removed after',
  );
});

test('what an install says hides secret values, URL credentials and query strings', async (t) => {
  const { context } = await freshContext();
  const secret = 's3cr3t-T0ken';
  const step = installStep.parse({ type: 'download', url: `http://user:pa55word@127.0.0.1:9/game.zip?token=${secret}&x=1`, path: 'game.zip' });
  const error = await t.throwsAsync(runTemplateSteps(context, { steps: [step] }));
  const redact = redactor([secret]);
  const shown = redact(error!.message);
  t.false(shown.includes(secret) || shown.includes('pa55word') || shown.includes('token='), shown);
  t.regex(shown, /http:\/\/127\.0\.0\.1:9\/game\.zip\?…/);
  // A value in a line as written and URL-encoded; short values are left alone.
  t.is(redact(`pass ${secret} and ${encodeURIComponent('a b/' + secret)}`), `pass *** and a%20b%2F***`);
  t.is(redactor(['ab'])('abc'), 'abc');
  t.is(shownUrl('see https://u:p@example.org/a/b?c=d#e now'), 'see https://example.org/a/b?…#e now');
});

test('{{SERVER_DIR}} and {{MEMORY_MB}} are filled in install steps', async (t) => {
  const { context, dir } = await freshContext();
  const step = installStep.parse({ type: 'script', script: 'echo "$MEM $WHERE" > filled.txt', env: { MEM: '{{MEMORY_MB}}', WHERE: '{{SERVER_DIR}}' } });
  await runTemplateSteps({ ...context, memoryMb: 1234 }, { steps: [step] });
  t.is(await readFile(join(dir, 'filled.txt'), 'utf8'), `1234 ${dir}\n`);
});

test('a SteamCMD branch or beta password is a safe word: refused in the template, in a variable value and by the agent', async (t) => {
  const steam = (extra: Record<string, unknown>) => installStep.safeParse({ type: 'steamcmd', appId: 258550, ...extra });
  t.true(steam({ branch: 'staging', betaPassword: '{{BETA_PASSWORD}}' }).success);
  for (const bad of ['public +quit', 'a\n+app_update 1', 'x;y', 'b'.repeat(65), '{{A}}{{B}}']) t.false(steam({ branch: bad }).success, bad);
  t.false(steam({ betaPassword: 'pw +quit' }).success);

  const document = templateDocument.parse({
    id: 'steamy',
    name: 'Steamy',
    variables: [
      { name: 'BRANCH', default: '' },
      { name: 'BETA_PASSWORD', default: '', secret: true },
    ],
    start: { command: './game' },
    ready: { mode: 'IMMEDIATE' },
    stop: { mode: 'SIGNAL', signal: 'SIGINT' },
    console: { mode: 'NONE' },
    ports: [{ name: 'game', protocol: 'udp' }],
    install: { steps: [{ type: 'steamcmd', appId: 258550, branch: '{{BRANCH}}', betaPassword: '{{BETA_PASSWORD}}' }] },
  });
  t.notThrows(() => checkVariables(document, { BRANCH: 'staging-2', BETA_PASSWORD: 'Open.Sesame_1' }));
  for (const [name, value] of [
    ['BRANCH', 'public +quit +app_update 1'],
    ['BETA_PASSWORD', 'pw\n+quit'],
  ] as const) {
    const error = t.throws(() => checkVariables(document, { [name]: value })) as Error & { status: number; details: { field: string; message: string }[] };
    t.is(error.status, 400);
    t.is(error.details[0]!.field, `variables.${name}`);
    t.regex(error.details[0]!.message, /SteamCMD/);
  }

  // The agent checks again before building SteamCMD's command line (nothing is downloaded or run).
  const { context } = await freshContext();
  await t.throwsAsync(installSteamAppId(context, 258550, { branch: 'public\n+app_update 1' }), { message: /SteamCMD branch is refused/ });
  await t.throwsAsync(installSteamAppId(context, 258550, { betaPassword: 'pw +quit' }), { message: /SteamCMD beta password is refused/ });
});
