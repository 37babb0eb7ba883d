/**
 * `npm run admin -- <command>`: operator commands run against the installation's database (DATABASE_URL, or the
 * embedded one under DATA_DIR — stop the service first when it uses the embedded database).
 *
 *   create-user <email> <password> [display name]
 *   reset-password <email> <password>
 *   set-tier <email> <FREE|PRO|ENTERPRISE>
 */
import { ConfigError, loadConfig, type Config } from '../schema/config.ts';
import { createLogger } from '../schema/logger.ts';
import { startEmbeddedDatabase } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';
import { createDatabasePool } from '../sql/pool.ts';
import { createUser, setPassword, setTier } from './identity/users.ts';
import { MIN_PASSWORD_LENGTH } from '../schema/identity.ts';
import { TIERS, type Tier } from '../schema/identity.ts';

const USAGE = `usage: npm run admin -- create-user <email> <password> [display name]
       npm run admin -- reset-password <email> <password>
       npm run admin -- set-tier <email> <${TIERS.join('|')}>`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

const [command, email, value, ...rest] = process.argv.slice(2);
if (!command || !email || !value) fail(USAGE);
if (!/^[^@\s]+@[^@\s]+$/.test(email!)) fail(`not an e-mail address: ${email}`);
if (command !== 'set-tier' && value!.length < MIN_PASSWORD_LENGTH) fail(`passwords have at least ${MIN_PASSWORD_LENGTH} characters`);
if (command === 'set-tier' && !TIERS.includes(value as Tier)) fail(`tier must be one of ${TIERS.join(', ')}`);

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}
const logger = createLogger('warn');
const embedded = config!.DATABASE_URL ? undefined : await startEmbeddedDatabase({ dataDir: config!.DATA_DIR, port: config!.EMBEDDED_POSTGRES_PORT, logger });
const databaseUrl = config!.DATABASE_URL ?? embedded!.url;
await migrate(databaseUrl, { logger });
const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 1 });

let code = 0;
try {
  if (command === 'create-user') {
    const user = await createUser(pool, { email: email!, password: value!, displayName: rest.join(' ') || email!.split('@')[0]!, tier: config!.DEFAULT_TIER });
    process.stdout.write(`created user ${user.id} <${user.email}> (${user.tier})\n`);
  } else if (command === 'reset-password') {
    if (!(await setPassword(pool, email!, value!))) throw new Error(`no user with e-mail ${email}`);
    process.stdout.write(`password of <${email}> reset\n`);
  } else if (command === 'set-tier') {
    if (!(await setTier(pool, email!, value as Tier))) throw new Error(`no user with e-mail ${email}`);
    process.stdout.write(`tier of <${email}> is now ${value}\n`);
  } else {
    throw new Error(USAGE);
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await pool.end();
  await embedded?.stop();
}
process.exit(code);
