/**
 * The rate-limit test app on the Redis limiter, as its own process, for the test that several API nodes share one
 * budget. Listens on a free port and prints it as the first line of standard output; stops on SIGTERM.
 *
 * Usage: node test/support/rateLimitServer.ts <redis url> <key prefix> [command timeout ms]
 */
import { startHttpServer } from '../../api/server.ts';
import { createRedisLimiter } from '../../api/rateLimit/redisLimiter.ts';
import { createLogger } from '../../schema/logger.ts';
import { createRateLimitApp } from './rateLimitApp.ts';

const [url, prefix, timeout] = process.argv.slice(2);
if (!url || !prefix) {
  process.stderr.write('Usage: node test/support/rateLimitServer.ts <redis url> <key prefix> [command timeout ms]\n');
  process.exit(2);
}

const logger = createLogger('warn');
const limiter = await createRedisLimiter({ url, prefix, logger, timeoutMs: timeout ? Number(timeout) : undefined });
const server = await startHttpServer({ koa: createRateLimitApp(limiter, logger) }, { port: 0, host: '127.0.0.1' });
process.stdout.write(`${server.port}\n`);

const stop = async () => {
  await server.close(1_000);
  await limiter.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
