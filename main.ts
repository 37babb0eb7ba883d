/**
 * Entry point: `npm start` (every role in one process), `npm run web`, `npm run orchestrator`.
 * Parses the configuration, starts the service, logs where the API reference is, and shuts down cleanly on
 * SIGINT/SIGTERM: stop taking requests, drain in-flight ones, stop the job runner, close the pool, stop the embedded
 * database. A second signal exits at once.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, ROLES, type Config, type Role } from './schema/config.ts';
import { createLogger } from './schema/logger.ts';
import { startService, type Service } from './api/service.ts';

const { values: args } = parseArgs({ options: { role: { type: 'string' } }, strict: true });

let config: Config;
try {
  config = loadConfig({ ...process.env, ...(args.role ? { ROLE: args.role } : {}) });
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n(roles: ${ROLES.join(', ')})\n`);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(config.LOG_LEVEL);
const role: Role = config.ROLE;

let service: Service;
try {
  service = await startService(config, logger, role);
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}

const base = config.PUBLIC_URL ? config.publicUrl : `http://localhost:${service.port}`;
logger.info({ role, port: service.port, docs: `${base}/api/docs` }, `API reference at ${base}/api/docs`);

let stopping = false;
const shutdown = async (signal: NodeJS.Signals) => {
  if (stopping) {
    logger.warn({ signal }, 'second signal: exiting at once');
    process.exit(1);
  }
  stopping = true;
  logger.info({ signal }, 'shutting down');
  await service.stop();
  logger.info('stopped');
  process.exit(0);
};
process.on('SIGINT', (signal) => void shutdown(signal));
process.on('SIGTERM', (signal) => void shutdown(signal));
