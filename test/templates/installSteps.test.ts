/**
 * A template's install steps on the agent (agent/installs/templateSteps.ts), as the agent's own user: a checked
 * download, unpacked (tar.gz, one level stripped, the archive removed), a script in the server's directory with its
 * environment and time-out, a download skipped when the file there already has its checksum, a missing tool failing
 * at once with its name, and a wrong checksum refusing the file.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTemplateSteps } from '../../agent/installs/templateSteps.ts';
import type { InstallContext } from '../../agent/installs/context.ts';
import { installStep } from '../../schema/template.ts';

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
