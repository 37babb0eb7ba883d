/**
 * Our full middleware stack (request id, log line, metrics, error handler, body parser, router, validation) with
 * production settings: info-level JSON logs (one line per request) on standard output and a real pool.
 */
import { createApp } from '../../api/app.ts';
import { startHttpServer } from '../../api/server.ts';
import { createDatabasePool } from '../../database/pool.ts';
import { createLogger } from '../../observability/logger.ts';
import { createAppDeps } from '../../api/deps.ts';
import { generatePasetoKey } from '../../identity/secrets.ts';
import { loadConfig } from '../../schema/config.ts';
import { VERSION } from '../../service.ts';

const databaseUrl = process.argv[2]!;
const config = loadConfig({ DATABASE_URL: databaseUrl });
const pool = await createDatabasePool(databaseUrl);
// The production logger: one JSON line per request to standard output, which the benchmark sends to /dev/null.
const logger = createLogger('info');
const deps = await createAppDeps({ config, logger, pool, secrets: { pasetoKey: generatePasetoKey() }, version: VERSION });
const { koa } = createApp(deps);
const server = await startHttpServer(koa, { port: 0, host: '127.0.0.1' });
console.error(`PORT ${server.port}`);
process.on('SIGTERM', async () => {
  await server.close(1_000);
  await pool.end();
  process.exit(0);
});
