/**
 * The agent upgrading itself when the service says so (`agent:upgrade`, docs/upgrades.md#upgrading-the-agents): it
 * downloads the service's package, checks its SHA-256 and version against the command, unpacks it next to the
 * installed package and, once all of that worked, answers that it accepts; then it replaces the installed package in
 * one rename (as the install script does) and restarts (run.ts): under systemd it exits and the unit starts the new
 * version, elsewhere it executes itself again in the same process. Game servers keep running and are adopted by the new
 * agent. Anything that fails before the answer leaves the installed package as it was and is the refusal's reason.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AgentUpgradeEvent } from '../../schema/agentEvents.ts';
import { compareVersions } from '../../schema/agentVersions.ts';
import { packageManifest, readPackageArchive } from '../../schema/packageArchive.ts';

/** The installed package's entry point, as `npm pack` and the install script lay it out. */
const BUNDLE = 'gsm-agent.mjs';
/** How long the download may take. */
const DOWNLOAD_TIMEOUT_MS = 120_000;
/** A package larger than this is refused (the agent's is a few MB). */
const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;

export type UpgradeAnswer = { accepted: true; version: string } | { accepted: false; reason: string };

/** A checked package unpacked next to the installed one, ready to replace it. */
export type StagedUpgrade = { version: string; prefix: string; staged: string };

/**
 * Why the agent may not replace the package at `prefix` by name, or null. Every name the upgrade touches (`<prefix>`,
 * `.old`, `.failed`, the marker, the staging folder) sits in the prefix's parent folder, so that folder must be the
 * agent's own: owned by root (or the agent's user) and writable by nobody else, read through a descriptor without
 * following a link. Otherwise anyone who may write there could put a package or a link in the agent's way.
 */
export async function parentProblem(prefix: string): Promise<string | null> {
  const parent = dirname(prefix);
  try {
    const handle = await open(parent, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    const info = await handle.stat().finally(() => handle.close());
    if (info.uid !== 0 && info.uid !== process.getuid?.()) return `${parent} belongs to another user (uid ${info.uid}); upgrade the agent by hand`;
    if ((info.mode & 0o022) !== 0) return `${parent} may be written by other users; upgrade the agent by hand`;
    return null;
  } catch (error) {
    return `${parent} cannot be checked (${(error as Error).message}); upgrade the agent by hand`;
  }
}

/** The installed package's folder (the one holding the running gsm-agent.mjs and its package.json), or why there is none. */
async function installedPrefix(): Promise<{ prefix: string } | { reason: string }> {
  const script = process.argv[1] ? await realpath(process.argv[1]).catch(() => process.argv[1]!) : '';
  if (basename(script) !== BUNDLE) {
    return { reason: `this agent does not run from an installed package (it runs ${script || 'no script'}); upgrade it by hand` };
  }
  const prefix = dirname(script);
  const manifest = await readFile(join(prefix, 'package.json'), 'utf8').catch(() => null);
  if (!manifest || (JSON.parse(manifest) as { name?: string }).name !== 'gsm-agent') {
    return { reason: `${prefix} holds no gsm-agent package.json; upgrade the agent by hand` };
  }
  const problem = await parentProblem(prefix);
  return problem ? { reason: problem } : { prefix };
}

/** Downloads `url`, stopping as soon as more than `maxBytes` arrived (the body is never buffered past the limit). */
export async function download(url: string, maxBytes = MAX_PACKAGE_BYTES): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'error' });
  if (!response.ok) throw new Error(`downloading ${url} answered HTTP ${response.status}`);
  const tooLarge = () => new Error(`the package at ${url} is larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response.body ?? []) {
    received += (chunk as Uint8Array).length;
    if (received > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why the agent will not upgrade itself over this connection, or null: the gateway connection and the package URL must
 * both be https/wss (whoever could pose as the service over plain http would choose what runs as root on the
 * machine), loopback addresses excepted.
 */
export function insecureUpgradeRefusal(gatewayUrl: string, packageUrl: string): string | null {
  for (const [what, address] of [
    ['the connection to the service', gatewayUrl],
    ['the package URL', packageUrl],
  ] as const) {
    const url = new URL(address);
    if (url.protocol === 'https:' || url.protocol === 'wss:' || LOOPBACK.test(url.hostname)) continue;
    return `${what} (${url.origin}) is not https/wss; the agent upgrades itself only over an encrypted, verified connection (upgrade it by hand with the install line)`;
  }
  return null;
}

/** Whether `version` (x.y.z) satisfies an engines.node range of the common forms (>=, >, <=, <, =, ^, ~, x.y.z, ||). */
export function satisfiesEngine(version: string, range: string): boolean {
  const parts = (v: string) =>
    v
      .replace(/^v/, '')
      .split(/[.-]/)
      .slice(0, 3)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
  const compare = (a: number[], b: number[]) => {
    for (let index = 0; index < 3; index++) if ((a[index] ?? 0) !== (b[index] ?? 0)) return (a[index] ?? 0) - (b[index] ?? 0);
    return 0;
  };
  const have = parts(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => {
        const match = /^(>=|<=|>|<|=|\^|~)?\s*v?([\d.x*]+)$/.exec(comparator);
        if (!match) throw new Error(`cannot read engines.node "${range}"`);
        const given = match[2]!.split('.').filter((part) => part !== 'x' && part !== '*');
        const want = given.map(Number);
        const diff = compare(have, want);
        switch (match[1]) {
          case '>=':
            return diff >= 0;
          case '>':
            return diff > 0;
          case '<=':
            return diff <= 0;
          case '<':
            return diff < 0;
          case '^':
            return diff >= 0 && have[0] === want[0];
          case '~':
            return diff >= 0 && have[0] === want[0] && (want.length < 2 || have[1] === want[1]);
          default:
            return want.every((part, index) => have[index] === part);
        }
      }),
  );
}

/** Runs the staged bundle as the new agent would run (`--version`): it must load and print the version it claims. */
async function tryStaged(staged: string, version: string): Promise<void> {
  const output = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [join(staged, BUNDLE), '--version'], { timeout: 30_000, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`the new agent does not start on this machine: ${(stderr || error.message).trim().slice(0, 500)}`)) : resolve(stdout),
    ),
  );
  if (output.trim() !== version) throw new Error(`the new agent says it is version ${output.trim().slice(0, 100)}, not ${version}`);
}

/**
 * Downloads and checks the package `command` names and unpacks it beside the installed one; throws with the reason
 * when it cannot (nothing installed is touched). `gatewayUrl` is where the package is when the command names no URL.
 */
export async function stageUpgrade(command: AgentUpgradeEvent, currentVersion: string, gatewayUrl: string): Promise<StagedUpgrade> {
  if (compareVersions(command.version, currentVersion) < 0) {
    throw new Error(`the service's package (${command.version}) is older than this agent (${currentVersion}); the agent does not downgrade itself`);
  }
  const installed = await installedPrefix();
  if ('reason' in installed) throw new Error(installed.reason);
  const url = new URL(command.url ?? '/agent/package.tgz', gatewayUrl.replace(/^ws/, 'http'));
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`the package URL ${url.href} is not http or https`);
  const insecure = insecureUpgradeRefusal(gatewayUrl, url.href);
  if (insecure) throw new Error(insecure);
  const tgz = await download(url.href);
  const sha256 = createHash('sha256').update(tgz).digest('hex');
  if (sha256 !== command.sha256) throw new Error(`the downloaded package's SHA-256 is ${sha256}, not ${command.sha256}; nothing was installed`);
  const entries = readPackageArchive(tgz);
  const manifest = packageManifest(entries);
  if (manifest.name !== 'gsm-agent') throw new Error(`the downloaded package is ${manifest.name}, not gsm-agent`);
  if (manifest.version !== command.version) throw new Error(`the downloaded package is version ${manifest.version}, not ${command.version}`);
  if (!entries.some((entry) => entry.name === BUNDLE)) throw new Error(`the downloaded package holds no ${BUNDLE}`);
  const engine = manifest.engines?.node;
  if (engine && !satisfiesEngine(process.versions.node, engine)) {
    throw new Error(`the new agent needs Node.js ${engine}; this machine runs ${process.versions.node}`);
  }
  // A fresh folder of a name nobody can foresee, 0700 until it is whole: nothing can be put in it meanwhile.
  const staged = await mkdtemp(`${installed.prefix}${STAGING}`);
  try {
    for (const entry of entries) {
      const path = join(staged, entry.name);
      await mkdir(dirname(path), { recursive: true, mode: 0o755 });
      // A new file (O_EXCL), its mode set on its own descriptor: no name is followed, whatever the umask.
      const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await file.writeFile(entry.content);
        await file.chmod(entry.name === BUNDLE ? 0o755 : (entry.mode || 0o644) & 0o777);
      } finally {
        await file.close();
      }
    }
    const folder = await open(staged, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    await folder.chmod(0o755).finally(() => folder.close());
  } catch (error) {
    await rm(staged, { recursive: true, force: true }).catch(() => undefined);
    throw new Error(`could not unpack the package beside ${installed.prefix}: ${(error as Error).message}`, { cause: error });
  }
  try {
    await tryStaged(staged, manifest.version);
  } catch (error) {
    await rm(staged, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  return { version: manifest.version, prefix: installed.prefix, staged };
}

/** The exit status that asks whatever runs the agent to start it again (the installer's systemd unit does so). */
export const RESTART_EXIT_CODE = 75;
/** How many starts the new agent gets to authenticate before the previous one is put back. */
const STARTS_BEFORE_ROLLBACK = 3;
/** How long a started new agent may take to authenticate before the previous one is put back. */
export const ROLLBACK_AFTER_MS = 5 * 60_000;

type UpgradeMarker = { from: string; to: string; starts: number };
/**
 * What the startup check did: finished or undid an upgrade, which staging folders it removed, and why it could not
 * remove them (the check of the last upgrade is done all the same).
 */
export type StartupCheck = { state: 'none' | 'pending' | 'rollback'; note?: string; swept?: string[]; sweepError?: string };
const markerOf = (prefix: string) => `${prefix}.upgrade.json`;

/**
 * Puts the staged package in the installed one's place. The old one is kept as `<prefix>.old`, with a marker beside
 * it, until the new agent has authenticated with the service (upgradeConfirmed); startUpgraded puts it back otherwise.
 */
export async function installStaged(upgrade: StagedUpgrade, currentVersion: string): Promise<void> {
  const old = `${upgrade.prefix}.old`;
  await rm(old, { recursive: true, force: true });
  await writeFile(markerOf(upgrade.prefix), JSON.stringify({ from: currentVersion, to: upgrade.version, starts: 0 } satisfies UpgradeMarker));
  await rename(upgrade.prefix, old);
  try {
    await rename(upgrade.staged, upgrade.prefix);
  } catch (error) {
    await rename(old, upgrade.prefix);
    await rm(markerOf(upgrade.prefix), { force: true });
    throw error;
  }
}

/**
 * At agent startup: staging folders an interrupted upgrade left are removed; a package swap cut between its two renames
 * is finished backwards (the previous package put back); a new agent that has started STARTS_BEFORE_ROLLBACK times
 * without authenticating is replaced by the previous one.
 * Answers 'rollback' when the previous package was put back (the caller restarts), else whether an upgrade awaits
 * confirmation ('pending') or not ('none').
 */
export async function checkUpgradeAtStartup(): Promise<StartupCheck> {
  const installed = await installedPrefix();
  if ('reason' in installed) return { state: 'none' };
  return startupCheck(installed.prefix);
}

export async function startupCheck(prefix: string): Promise<StartupCheck> {
  // A folder others may write in: what lies beside the package there is not the agent's to put in its place.
  if (await parentProblem(prefix)) return { state: 'none' };
  // The check of the last upgrade first: leftovers that cannot be removed must not turn it off.
  const check = await swapCheck(prefix);
  try {
    const swept = await sweepStaging(prefix);
    return swept.length > 0 ? { ...check, swept } : check;
  } catch (error) {
    return { ...check, sweepError: (error as Error).message };
  }
}

/**
 * The staging folder's name after the prefix (stageUpgrade), followed by mkdtemp's six characters: its own, so the sweep
 * never takes the install script's `<prefix>.new.<pid>` for one.
 */
const STAGING = '.staging.';
const STAGING_SUFFIX = /^[A-Za-z0-9]{6}$/;

/**
 * Removes the staging folders (`<prefix>.staging.XXXXXX`) that an upgrade cut short left beside the package (the agent
 * stopped while it unpacked, or before its swap): only when the parent folder is the agent's own
 * (checked by the caller) and each is a folder (not a link) owned by root or the agent's user, as the agent makes them.
 * At startup nothing is being staged yet. Answers the names removed.
 */
async function sweepStaging(prefix: string): Promise<string[]> {
  const parent = dirname(prefix);
  const start = `${basename(prefix)}${STAGING}`;
  const swept: string[] = [];
  for (const name of await readdir(parent)) {
    if (!name.startsWith(start) || !STAGING_SUFFIX.test(name.slice(start.length))) continue;
    const path = join(parent, name);
    const info = await lstat(path).catch(() => null);
    if (!info?.isDirectory() || (info.uid !== 0 && info.uid !== process.getuid?.())) continue;
    await rm(path, { recursive: true, force: true });
    swept.push(name);
  }
  return swept;
}

/** Finishes or undoes the last package swap (see startupCheck). */
async function swapCheck(prefix: string): Promise<StartupCheck> {
  const old = `${prefix}.old`;
  if (!existsSync(join(prefix, BUNDLE)) && existsSync(join(old, BUNDLE))) {
    await rm(prefix, { recursive: true, force: true });
    await rename(old, prefix);
    await rm(markerOf(prefix), { force: true });
    return { state: 'rollback', note: 'the package swap of an upgrade was cut short; the previous agent was put back' };
  }
  const marker = await readFile(markerOf(prefix), 'utf8')
    .then((text) => JSON.parse(text) as UpgradeMarker)
    .catch(() => null);
  if (!marker || !existsSync(join(old, BUNDLE))) return { state: 'none' };
  if (marker.starts >= STARTS_BEFORE_ROLLBACK) return rollBack(prefix, `agent ${marker.to} started ${marker.starts} times without reaching the service`);
  await writeFile(markerOf(prefix), JSON.stringify({ ...marker, starts: marker.starts + 1 }));
  return { state: 'pending' };
}

/** Puts the previous package back (the failed one is kept as `<prefix>.failed` for a look). */
export async function rollBack(prefix: string, why: string): Promise<{ state: 'rollback'; note: string }> {
  const failed = `${prefix}.failed`;
  await rm(failed, { recursive: true, force: true });
  await rename(prefix, failed);
  await rename(`${prefix}.old`, prefix);
  await rm(markerOf(prefix), { force: true });
  return { state: 'rollback', note: `${why}; the previous agent was put back (the new one is in ${failed})` };
}

/** The new agent has authenticated: the previous package is no longer needed. */
export async function upgradeConfirmed(): Promise<void> {
  const installed = await installedPrefix();
  if ('reason' in installed) return;
  await rm(markerOf(installed.prefix), { force: true });
  await rm(`${installed.prefix}.old`, { recursive: true, force: true });
  await rm(`${installed.prefix}.failed`, { recursive: true, force: true });
}

/** Rolls back the pending upgrade of the installed package (it did not authenticate in time). */
export async function rollBackInstalled(why: string): Promise<string | null> {
  const installed = await installedPrefix();
  if ('reason' in installed || !existsSync(markerOf(installed.prefix))) return null;
  return (await rollBack(installed.prefix, why)).note;
}

/** Whether systemd runs this agent as a service. */
export const underSystemd = () => process.env.INVOCATION_ID !== undefined && existsSync('/run/systemd/system');

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/**
 * Runs the installed agent again with the same command line in this very process where Node.js can (`process.execve`,
 * Node.js 22.15 and later: the pid, and so what started the agent, stays). Elsewhere it answers, and the caller exits
 * with RESTART_EXIT_CODE for the service manager to start the agent again (no second, detached agent is spawned).
 */
export function restartInPlace(): void {
  const args = [...process.execArgv, ...process.argv.slice(1)];
  const execve = (process as unknown as { execve?: Execve }).execve;
  if (execve) execve(process.execPath, [process.execPath, ...args], process.env);
}
