/**
 * `npm run admin -- <command>`: operator commands run against the installation's database: DATABASE_URL, or the
 * embedded one under DATA_DIR — the running service's own when it runs (found through its `postmaster.pid`), else
 * started for the command and stopped after. Every failure is one line on standard error and exit status 1 (2 for
 * a usage error); a password given as `-` or left out is read from standard input, so it stays out of `ps` and the
 * shell's history.
 *
 *   create-user <email> [password|-] [display name]
 *   reset-password <email> [password|-]     (ends every session of the user)
 *   set-tier <email> <FREE|PRO|ENTERPRISE>
 */
import { ConfigError, loadConfig } from '../schema/config.ts';
import { createLogger } from '../schema/logger.ts';
import { findRunningEmbeddedDatabase, startEmbeddedDatabase, type EmbeddedDatabase } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';
import { createDatabasePool, type DatabasePool } from '../sql/pool.ts';
import { sql } from 'slonik';
import { createUser, setPassword, setTier } from './identity/users.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, TIERS, type Tier } from '../schema/identity.ts';
import { name } from '../schema/http.ts';

const USAGE = `usage: npm run admin -- create-user <email> [password|-] [display name]
       npm run admin -- reset-password <email> [password|-]
       npm run admin -- set-tier <email> <${TIERS.join('|')}>
A password given as - or left out is read from standard input.`;

class UsageError extends Error {}

/** One line, whatever the error: a configuration error's list of variables is joined, Postgres errors are named. */
function oneLine(error: unknown): string {
  if (error instanceof ConfigError) return error.message.replace(/:\n\s*/, ': ').replace(/\n\s*/g, '; ');
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT') return `cannot reach the database (${message})`;
  // slonik wraps the driver's error; the constraint is named on either.
  const { constraint, cause } = (error ?? {}) as { constraint?: string; cause?: { constraint?: string } };
  if ((constraint ?? cause?.constraint) === 'users_email_key') return 'a user with this e-mail already exists';
  return message.split('\n')[0]!;
}

/** At a terminal: a prompt, and the typed characters are not shown. */
async function readHiddenLine(): Promise<string> {
  process.stderr.write('password: ');
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  let text = '';
  try {
    for await (const chunk of stdin) {
      for (const c of String(chunk)) {
        if (c === '\r' || c === '\n') return text;
        if (c === '\u0003') throw new UsageError('cancelled');
        if (c === '\u007f' || c === '\b') text = text.slice(0, -1);
        else text += c;
      }
    }
    return text;
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}

async function readStdinLine(): Promise<string> {
  if (process.stdin.isTTY) return readHiddenLine();
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}

async function passwordArgument(value: string | undefined): Promise<string> {
  const password = value === undefined || value === '-' ? await readStdinLine() : value;
  if (password.length < MIN_PASSWORD_LENGTH) throw new UsageError(`passwords have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new UsageError(`passwords have at most ${MAX_PASSWORD_LENGTH} characters`);
  return password;
}

function displayNameArgument(value: string): string {
  const parsed = name.safeParse(value);
  if (!parsed.success) throw new UsageError(`the display name ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

async function run(args: string[]): Promise<string> {
  const [command, email, value, ...rest] = args;
  if (!command || !email || !['create-user', 'reset-password', 'set-tier'].includes(command)) throw new UsageError(USAGE);
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError(`not an e-mail address: ${email}`);
  if (command === 'set-tier' && !TIERS.includes(value as Tier)) throw new UsageError(`tier must be one of ${TIERS.join(', ')}`);
  // The display name obeys the rule of the API's (docs/api.md#names), checked before a password is read from stdin.
  const displayName = command === 'create-user' ? displayNameArgument(rest.join(' ') || email.split('@')[0]!) : '';
  const password = command === 'set-tier' ? '' : await passwordArgument(value);

  const config = loadConfig();
  const logger = createLogger('silent');
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const running = await findRunningEmbeddedDatabase(config.DATA_DIR);
    if (running) databaseUrl = running.url;
    else {
      embedded = await startEmbeddedDatabase({ dataDir: config.DATA_DIR, port: config.EMBEDDED_POSTGRES_PORT, logger });
      databaseUrl = embedded.url;
    }
  }
  let pool: DatabasePool | undefined;
  try {
    await migrate(databaseUrl, { logger });
    pool = await createDatabasePool(databaseUrl, { maxPoolSize: 1 });
    if (command === 'create-user') {
      const user = await createUser(pool, { email, password, displayName, tier: config.DEFAULT_TIER });
      return `created user ${user.id} <${user.email}> (${user.tier})`;
    }
    if (command === 'reset-password') {
      await pool.transaction(async (tx) => {
        const userId = await setPassword(tx, email, password);
        if (!userId) throw new Error(`no user with e-mail ${email}`);
        await tx.query(sql.unsafe`
          INSERT INTO audit_log (actor_kind, actor_name, action, target_type, target_id)
          VALUES ('SYSTEM', 'npm run admin', 'user.password_reset', 'user', ${userId})`);
      });
      return `password of <${email}> reset; every session of the user has ended, its API tokens and SSH keys are deleted and Steam/Discord unlinked`;
    }
    if (!(await setTier(pool, email, value as Tier))) throw new Error(`no user with e-mail ${email}`);
    return `tier of <${email}> is now ${value}`;
  } finally {
    await pool?.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
  }
}

try {
  process.stdout.write(`${await run(process.argv.slice(2))}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error instanceof UsageError ? error.message : `admin: ${oneLine(error)}`}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
}
