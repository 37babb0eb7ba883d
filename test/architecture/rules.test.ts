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
    const roots = new Set(
      Object.keys(files)
        .map((path) => path.split('/')[0])
        .filter((root) => root !== 'node_modules'),
    );
    const result = spawnSync(process.execPath, [CRUISER, '--config', CONFIG, ...roots], {
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
  // A route hands a connection on (a type import of slonik) to a domain function that builds the SQL.
  'api/routes/members.ts':
    "import type { Connection } from 'slonik';\nimport { listMembers } from '../../orchestrator/members.ts';\nexport const r = (c: Connection) => listMembers(c);\n",
  'orchestrator/members.ts':
    "import { sql, type Connection } from 'slonik';\nimport { fetchPage } from '../sql/listing.ts';\nexport const listMembers = (c: Connection) => fetchPage(c, sql);\n",
  'sql/listing.ts': "import { sql } from 'slonik';\nexport const fetchPage = (c: unknown, s: typeof sql) => [c, s];\n",
  'node_modules/slonik/package.json': '{ "name": "slonik", "main": "index.js", "types": "index.d.ts" }\n',
  'node_modules/slonik/index.js': 'export const sql = {};\n',
  'node_modules/slonik/index.d.ts': 'export declare const sql: object;\nexport type Connection = object;\n',
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
  ['routes-build-no-sql', { 'api/routes/members.ts': "import { sql } from 'slonik';\nexport const r = () => sql;\n" }],
  ['routes-build-no-sql', { 'api/routes/members.ts': "import { fetchPage } from '../../sql/listing.ts';\nexport const r = () => fetchPage(null, {});\n" }],
  ['dashboard-app-sees-only-the-clients', { 'api/dashboard/app/ui.tsx': "import { w } from '../../routes.ts';\nexport const u = w;\n" }],
];

for (const [rule, change] of violations) {
  const title = `an import breaking ${rule} fails the check and names the rule`;
  const what = rule === 'routes-build-no-sql' ? ` (${Object.values(change)[0]!.split('\n')[0]})` : '';
  test(`${title}${what}`, async (t) => {
    const { status, output } = await cruise({ ...layered, ...change });
    t.not(status, 0);
    t.regex(output, new RegExp(`error ${rule}:`));
  });
}
