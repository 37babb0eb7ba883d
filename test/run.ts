/**
 * `npm test`: makes sure what the tests need is there (test/prerequisites.ts: on Debian as root it installs and starts
 * what is missing with .ci/setup, saying what first; GSM_TEST_SETUP=0 never installs; elsewhere it names all of it in
 * one message), type-checks the project, checks format,
 * lint and the import rules (`npm run lint`), makes sure a Postgres answers, then runs ava with any arguments given.
 *
 * The database is TEST_DATABASE_URL when set, else the local server at 127.0.0.1:5432; when neither answers, an
 * embedded Postgres is started for the run (data under .tmp/test-postgres) and stopped afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../sql/embedded.ts';
import { createLogger } from '../schema/logger.ts';
import { canSetUp, findNode20, LOCAL_NODE20_PREFIX, missingPrerequisites, NODE20_PACKAGE, setupAllowed } from './prerequisites.ts';

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** The connections the tests may hold at once, at their peak (.ci/run gives the machine's cluster as many). */
const TEST_CONNECTIONS = 300;

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<number>((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', () => done(127)); // not found: reported as a shell would
  });

/** What a Postgres allows at once (max_connections); undefined when it does not answer. */
async function maxConnections(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ max_connections: string }>('SHOW max_connections');
    return Number(rows[0]?.max_connections);
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const npm = process.env.npm_execpath;
const runNpm = (args: string[]) => (npm ? run(process.execPath, [npm, ...args]) : run('npm', args));

let missing = await missingPrerequisites();
if (missing.length > 0 && setupAllowed() && canSetUp()) {
  process.stderr.write(
    `Missing for the tests: ${missing.map((item) => item.what).join(', ')}; installing with .ci/setup (apt-get as root; GSM_TEST_SETUP=0 skips this)\n`,
  );
  await run('bash', ['.ci/setup']);
  missing = await missingPrerequisites();
}
// The packed agent is tested under Node.js 20, the oldest line it supports; npm has one for any machine.
let node20 = findNode20();
if (!node20 && setupAllowed()) {
  process.stderr.write(
    `No Node.js 20 (GSM_TEST_NODE20, node on PATH, nvm's, /usr/bin/node); installing ${NODE20_PACKAGE} from npm into ${LOCAL_NODE20_PREFIX} (GSM_TEST_SETUP=0 skips this)\n`,
  );
  // The package's install script fetches the binary for this platform: npm runs it unless scripts are switched off,
  // so this one install says explicitly that it needs it.
  await mkdir(LOCAL_NODE20_PREFIX, { recursive: true });
  await writeFile(join(LOCAL_NODE20_PREFIX, 'package.json'), '{ "private": true }\n');
  await runNpm([
    'install',
    '--prefix',
    LOCAL_NODE20_PREFIX,
    '--ignore-scripts=false',
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    NODE20_PACKAGE,
  ]);
  node20 = findNode20();
}
if (!node20) missing.push({ what: 'Node.js 20', fix: `npm install --prefix ${LOCAL_NODE20_PREFIX} ${NODE20_PACKAGE}, or set GSM_TEST_NODE20 to one` });
if (missing.length > 0) {
  const list = missing.map((item) => `  - ${item.what}: ${item.fix}`).join('\n');
  // Test files named on the command line may not need them all: say so, and run them.
  const named = process.argv.slice(2).some((arg) => !arg.startsWith('-'));
  process.stderr.write(
    `${named ? 'Warning: the tests' : 'The tests'} need what this machine lacks (on Debian as root, npm test installs it all with .ci/setup):\n${list}\n`,
  );
  if (!named) process.exit(1);
}

// The service and its tests, then the dashboard's browser code (its own settings: the DOM, JSX for Preact).
for (const project of ['.', 'api/dashboard/app']) {
  const typeCheck = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '--noEmit', '-p', project]);
  if (typeCheck !== 0) {
    process.stderr.write(`Type check failed (tsc --noEmit -p ${project})\n`);
    process.exit(typeCheck);
  }
}

// Prettier (format), ESLint (lint) and dependency-cruiser (imports point one way: docs/architecture.md).
const lint = await runNpm(['run', '--silent', 'lint']);
if (lint !== 0) {
  process.stderr.write('Lint failed (npm run lint): see the rule named above\n');
  process.exit(lint);
}

let databaseUrl = process.env.TEST_DATABASE_URL;
// What the tests' Postgres allows at once (the embedded one is started with TEST_CONNECTIONS).
let allowed = databaseUrl ? await maxConnections(databaseUrl) : undefined;
let stopEmbedded: (() => Promise<void>) | undefined;
if (!databaseUrl) {
  allowed = await maxConnections(LOCAL_URL);
  if (allowed !== undefined) {
    databaseUrl = LOCAL_URL;
  } else {
    process.stderr.write(`No Postgres at ${LOCAL_URL}; starting an embedded one for the tests\n`);
    const embedded = await startEmbeddedDatabase({
      dataDir: '.tmp/test-postgres',
      port: 0,
      logger: createLogger('warn'),
      maxConnections: TEST_CONNECTIONS,
    });
    databaseUrl = embedded.url.replace(/\/gsm$/, '/postgres');
    stopEmbedded = embedded.stop;
  }
}

// Two test files run at a time, some with several service processes (each with its pools and graphile-worker's):
// together they pass Postgres's default of 100 connections now and then, and a test fails with "too many clients".
if (allowed !== undefined && allowed < TEST_CONNECTIONS) {
  process.stderr.write(
    `Warning: this Postgres allows ${allowed} connections; the tests may need up to ${TEST_CONNECTIONS} at moments ` +
      `(ALTER SYSTEM SET max_connections = ${TEST_CONNECTIONS}, then restart it; .ci/run does so for the machine's cluster)\n`,
  );
}

const code = await run(process.execPath, [resolve('node_modules/ava/entrypoints/cli.js'), ...process.argv.slice(2)], {
  ...process.env,
  TEST_DATABASE_URL: databaseUrl,
  ...(node20 ? { GSM_TEST_NODE20: node20 } : {}),
});
await stopEmbedded?.();
process.exit(code);
