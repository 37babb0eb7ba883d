/**
 * Our full middleware stack (request id, log line, metrics, error handler, body parser, router, validation,
 * authentication, rate limit, authorization) with production settings: info-level JSON logs (one line per request) on
 * standard output and a real pool. RATE_LIMIT defaults to off here; the auth benchmark turns it on.
 */
import { createApp } from '../../../api/app.ts';
import { startHttpServer } from '../../../api/server.ts';
import { createDatabasePool } from '../../../sql/pool.ts';
import { createLogger } from '../../../schema/logger.ts';
import { createAppDeps } from '../../../api/deps.ts';
import { generatePasetoKey } from '../../../api/identity/secrets.ts';
import { loadConfig } from '../../../schema/config.ts';
import { BUCKETS } from '../../../api/rateLimit/tiers.ts';
import { VERSION } from '../../../api/service.ts';

const databaseUrl = process.argv[2]!;
// RATE_LIMIT and REDIS_URL come from the benchmark's environment for this server.
const config = loadConfig({ RATE_LIMIT: process.env.RATE_LIMIT ?? 'off', REDIS_URL: process.env.REDIS_URL, DATABASE_URL: databaseUrl });
if (process.env.BENCH_UNLIMITED_BUCKETS) {
  // Buckets too large to run dry under load: every request does the limiter's work and is answered 200, so the
  // limiter's cost is measured rather than the (cheaper) 429 path.
  for (const bucket of Object.values(BUCKETS)) Object.assign(bucket as { perMinute: number; burst: number }, { perMinute: 1e12, burst: 1e12 });
}
const pool = await createDatabasePool(databaseUrl);
// The production logger: one JSON line per request to standard output, which the benchmark sends to /dev/null.
const logger = createLogger('info');
const deps = await createAppDeps({ config, logger, pool, databaseUrl, secrets: { pasetoKey: generatePasetoKey() }, version: VERSION });
const server = await startHttpServer(createApp(deps), { port: 0, host: '127.0.0.1' });
console.error(`PORT ${server.port}`);
const stop = async () => {
  await server.close(1_000);
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
