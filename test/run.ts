/**
 * `npm test`: type-checks the project, checks format, lint and the import rules (`npm run lint`), makes sure a Postgres
 * answers, then runs ava with any arguments given.
 *
 * The database is TEST_DATABASE_URL when set, else the local server at 127.0.0.1:5432; when neither answers, an
 * embedded Postgres is started for the run (data under .tmp/test-postgres) and stopped afterwards.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../sql/embedded.ts';
import { createLogger } from '../schema/logger.ts';

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<number>((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
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
const npm = process.env.npm_execpath;
const lint = npm ? await run(process.execPath, [npm, 'run', '--silent', 'lint']) : await run('npm', ['run', '--silent', 'lint']);
if (lint !== 0) {
  process.stderr.write('Lint failed (npm run lint): see the rule named above\n');
  process.exit(lint);
}

let databaseUrl = process.env.TEST_DATABASE_URL;
let stopEmbedded: (() => Promise<void>) | undefined;
if (!databaseUrl) {
  if (await answers(LOCAL_URL)) {
    databaseUrl = LOCAL_URL;
  } else {
    process.stderr.write(`No Postgres at ${LOCAL_URL}; starting an embedded one for the tests\n`);
    const embedded = await startEmbeddedDatabase({ dataDir: '.tmp/test-postgres', port: 0, logger: createLogger('warn') });
    databaseUrl = embedded.url.replace(/\/gsm$/, '/postgres');
    stopEmbedded = embedded.stop;
  }
}

const code = await run(process.execPath, [resolve('node_modules/ava/entrypoints/cli.js'), ...process.argv.slice(2)], {
  ...process.env,
  TEST_DATABASE_URL: databaseUrl,
});
await stopEmbedded?.();
process.exit(code);
