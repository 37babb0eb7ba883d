/**
 * The import rules of docs/architecture.md are enforced: an upward import in a scratch tree shaped like ours makes
 * dependency-cruiser fail with the name of the rule it breaks, and the same tree without it passes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import test from 'ava';

const CONFIG = resolve('.dependency-cruiser.cjs');
const CRUISER = resolve('node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

async function cruise(files: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), 'gsm-rules-'));
  try {
    await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const result = spawnSync(process.execPath, [CRUISER, '--config', CONFIG, ...new Set(Object.keys(files).map((path) => path.split('/')[0]))], {
      cwd: root,
      encoding: 'utf8',
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const layered = {
  'schema/errors.ts': 'export const x = 1;\n',
  'sql/pool.ts': "import { x } from '../schema/errors.ts';\nexport const y = x;\n",
  'orchestrator/jobs.ts': "import { y } from '../sql/pool.ts';\nexport const z = y;\n",
  'api/routes.ts': "import { z } from '../orchestrator/jobs.ts';\nexport const w = z;\n",
  'agent/main.ts': "import { x } from '../schema/errors.ts';\nexport const v = x;\n",
  'api/clients/typescript/src/client.ts': "import type { T } from './schema.d.ts';\nexport const c: T | 1 = 1;\n",
  'api/clients/typescript/src/schema.d.ts': 'export type T = number;\n',
  'api/dashboard/app/main.tsx': "import { c } from '../../clients/typescript/src/client.ts';\nimport { u } from './ui.tsx';\nexport const d = c + u;\n",
  'api/dashboard/app/ui.tsx': 'export const u = 1;\n',
};

test('imports that point down the layers pass', async (t) => {
  const { status, output } = await cruise(layered);
  t.is(status, 0, output);
});

const violations: [string, Record<string, string>][] = [
  ['schema-imports-nothing-of-ours', { 'schema/errors.ts': "import { w } from '../api/routes.ts';\nexport const x = w;\n" }],
  ['orchestrator-never-imports-api', { 'orchestrator/jobs.ts': "import { w } from '../api/routes.ts';\nexport const z = w;\n" }],
  ['sql-sees-only-schema', { 'sql/pool.ts': "import { z } from '../orchestrator/jobs.ts';\nexport const y = z;\n" }],
  ['agent-sees-only-schema', { 'agent/main.ts': "import { y } from '../sql/pool.ts';\nexport const v = y;\n" }],
  ['api-never-imports-agent', { 'api/routes.ts': "import { v } from '../agent/main.ts';\nexport const w = v;\n" }],
  [
    'clients-import-nothing-of-the-service',
    { 'api/clients/typescript/src/client.ts': "import { x } from '../../../../schema/errors.ts';\nexport const c = x;\n" },
  ],
  ['dashboard-app-sees-only-the-clients', { 'api/dashboard/app/ui.tsx': "import { w } from '../../routes.ts';\nexport const u = w;\n" }],
];

for (const [rule, change] of violations) {
  test(`an import breaking ${rule} fails the check and names the rule`, async (t) => {
    const { status, output } = await cruise({ ...layered, ...change });
    t.not(status, 0);
    t.regex(output, new RegExp(`error ${rule}:`));
  });
}
