/**
 * INSTALL and UPDATE jobs (docs/installs-and-backups.md). The server is held stopped while its files change (nothing
 * starts it meanwhile) and reported INSTALLING; it ends OFFLINE, or INSTALL_FAILED saying why, with the installer's
 * last lines in the job's `error.consoleTail`. An UPDATE of a running server stops it first and starts it again
 * afterwards when its desired status is RUNNING (also when the update failed: the previous installation is intact).
 *
 * Recipes: MINECRAFT (minecraft.ts), the Steam games (steam.ts), CUSTOM (the server's `installCommand`, run in its
 * directory as its account like its start command).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '../../schema/agentEvents.ts';
import { endProcessesOf, prepareServerDir, type Account } from '../servers/accounts.ts';
import type { ServerSupervisor } from '../servers/serverSupervisor.ts';
import { buildLaunch, CommandLineError } from '../runtime/commandLine.ts';
import { InstallError } from './download.ts';
import { installMinecraft } from './minecraft.ts';
import { installSteamApp, STEAM_APPS } from './steam.ts';
import { runTemplateSteps } from './templateSteps.ts';
import { runInstallProcess } from './installProcess.ts';
import { redactor } from './redact.ts';
import type { InstallContext, InstallSettings } from './context.ts';

export type { InstallSettings } from './context.ts';

async function runInstallCommand(context: InstallContext, config: ServerConfig): Promise<{ version: string | null; message: string }> {
  if (!config.installCommand) throw new InstallError('NOT_INSTALLABLE', 'this CUSTOM server has no installCommand');
  let launch;
  try {
    launch = buildLaunch({ ...config, startCommand: config.installCommand }, context.dir);
  } catch (error) {
    if (error instanceof CommandLineError) throw new InstallError('INSTALL_FAILED', `installCommand: ${error.message}`);
    throw error;
  }
  const env = context.account ? { ...launch.env, HOME: context.dir, USER: context.account.name, LOGNAME: context.account.name } : launch.env;
  context.progress(null, 'running installCommand');
  await runInstallProcess(context, { command: launch.command, args: launch.args, env, what: 'installCommand' });
  return { version: null, message: 'installCommand succeeded' };
}

/** Installs with the server's recipe; the server must not run (the caller holds it stopped). */
async function install(context: InstallContext, config: ServerConfig, type: InstallJob['type']): Promise<{ version: string | null; message: string }> {
  if (context.account) await prepareServerDir(context.dir, context.account);
  else await mkdir(context.dir, { recursive: true });
  try {
    // A template's steps (an update's own, else the install's again); a server's own installCommand still wins.
    const steps =
      config.template && !config.installCommand
        ? type === 'UPDATE'
          ? (config.template.update ?? config.template.install)
          : config.template.install
        : undefined;
    if (steps) return await runTemplateSteps(context, steps);
    if (config.gameType === 'MINECRAFT') return await installMinecraft(context);
    if (STEAM_APPS[config.gameType]) return await installSteamApp(context, config.gameType);
    return await runInstallCommand(context, config);
  } finally {
    await rm(context.stagingDir, { recursive: true, force: true });
    // Nothing an install started (a daemon an installCommand or SteamCMD left behind) outlives it.
    if (context.account) await endProcessesOf(context.account);
  }
}

export type InstallJob = { type: 'INSTALL' | 'UPDATE'; params: Record<string, unknown> };

/** Runs an INSTALL or UPDATE job on `supervisor`'s server; answers the job's result, or throws an InstallError. */
export async function runInstallJob(
  supervisor: ServerSupervisor,
  job: InstallJob,
  options: InstallSettings & {
    account: Account | undefined;
    signal: AbortSignal;
    progress: (percent: number | null, message: string) => void;
    /** Stops a running server for an UPDATE (the executor's graceful stop, waiting for OFFLINE). */
    stop: () => Promise<unknown>;
    start: () => Promise<unknown>;
  },
): Promise<Record<string, unknown>> {
  // The latest configuration: an UPDATE of a running server installs what its next start runs.
  const config = supervisor.latestConfig;
  const wasRunning = supervisor.running;
  if (wasRunning) {
    if (job.type === 'INSTALL') throw new InstallError('INSTALL_FAILED', `the server is ${supervisor.status}: stop it before installing`);
    options.progress(null, 'stopping the server for the update');
    await options.stop();
  }
  // The version asked for travels with the job (a change just before it may not have reached this agent's configuration).
  const version = 'version' in job.params ? ((job.params.version as string | null) ?? null) : (config.version ?? null);
  // Nothing the install says shows a secret: its variables' values, URL credentials and query strings (redact.ts).
  const redact = redactor([...(config.template?.secrets ?? []), config.rconPassword]);
  const context: InstallContext = {
    ...options,
    serverId: config.id,
    dir: supervisor.dir,
    stagingDir: join(options.dataDir, 'staging', config.id),
    version,
    acceptEula: config.acceptEula === true,
    memoryMb: supervisor.memoryMb,
    progress: (percent, message) => options.progress(percent, redact(message)),
    line: (text) => supervisor.relayConsole(redact(text)),
  };
  let outcome: { version: string | null; message: string };
  try {
    // The installer's last lines reach the console before the job's result is sent (a script reading the console once
    // the job ended sees them).
    outcome = await supervisor.maintain(job.type, () => install(context, config, job.type), 'INSTALLING').finally(() => supervisor.flushConsole());
  } catch (error) {
    const failure =
      error instanceof InstallError
        ? new InstallError(error.code, redact(error.message), error.consoleTail?.map(redact))
        : new InstallError(context.signal.aborted ? 'CANCELLED' : 'INSTALL_FAILED', redact((error as Error).message));
    supervisor.report('INSTALL_FAILED', `${job.type.toLowerCase()} failed: ${failure.message}`.slice(0, 2000));
    if (job.type === 'UPDATE' && wasRunning && supervisor.config.desiredStatus === 'RUNNING') await options.start().catch(() => undefined);
    throw failure;
  }
  outcome = { ...outcome, message: redact(outcome.message) };
  supervisor.report('OFFLINE', outcome.message);
  options.progress(100, outcome.message);
  // Its desired status says it should run (an update of a running server, or an install of one that could not start).
  if (supervisor.config.desiredStatus === 'RUNNING') await options.start();
  return { message: outcome.message, ...(outcome.version ? { version: outcome.version } : {}) };
}
