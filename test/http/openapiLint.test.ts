/**
 * The OpenAPI document lints clean with `@redocly/cli lint` and its recommended rules (the few switched off are listed
 * with their reasons in .redocly.yaml), so generated clients and API tools accept it.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useTestApp } from '../support/app.ts';

const app = useTestApp(test);
const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const config = fileURLToPath(new URL('../../.redocly.yaml', import.meta.url));

test('@redocly/cli lint (recommended rules): no error, no warning', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-openapi-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  await writeFile(file, await (await app().request('/api/docs/openapi.json')).text());
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', config, '--format=stylish'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 120_000,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  t.is(run.status, 0, output);
  t.notRegex(output, /\b(error|warning)\b/, output);
});
