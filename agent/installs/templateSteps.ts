/**
 * A template's install or update steps (docs/templates.md#install-and-update-steps), in order, each as the server's
 * account in its directory: downloads are fetched into the agent's staging directory, checked, and copied into place
 * by a helper running as the account (root never writes by path in the game's tree); archives are unpacked, and
 * scripts run, as the account. A download whose file is already there with the same checksum is skipped, SteamCMD's
 * app_update and the Minecraft manifest step are no-ops when current: an update of a current server changes nothing.
 */
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstallStep, ResolvedTemplate } from '../../schema/template.ts';
import { runAs } from '../servers/accounts.ts';
import type { InstallContext } from './context.ts';
import { download, InstallError } from './download.ts';
import { installMinecraft } from './minecraft.ts';
import { installSteamAppId } from './steam.ts';
import { runInstallProcess } from './installProcess.ts';

/** `{{SERVER_DIR}}` and `{{MEMORY_MB}}` are the agent's to fill (the service knows neither the directory nor the memory). */
const fill = (text: string, context: InstallContext) =>
  text.replaceAll('{{SERVER_DIR}}', context.dir).replaceAll('{{MEMORY_MB}}', String(context.memoryMb ?? DEFAULT_MEMORY_MB));
const DEFAULT_MEMORY_MB = 2048;

/** The programs of `tools` that are not on the agent's PATH (checked as the account would run them). */
export async function missingTools(tools: readonly string[], context: InstallContext): Promise<string[]> {
  const missing: string[] = [];
  for (const tool of tools) {
    const found = await runAs(context.account, 'sh', ['-c', 'command -v -- "$1" >/dev/null', 'sh', tool], { timeoutMs: 10_000 });
    if (found.code !== 0) missing.push(tool);
  }
  return missing;
}

async function asAccount(
  context: InstallContext,
  script: string,
  args: string[],
  stdin?: number,
): Promise<{ code: number | null; stdout: string; stderr: string; error?: Error }> {
  return runAs(context.account, 'sh', ['-c', script, 'sh', ...args], {
    cwd: context.dir,
    output: true,
    timeoutMs: 30 * 60_000,
    ...(stdin === undefined ? {} : { stdin }),
  });
}

async function downloadStep(context: InstallContext, step: Extract<InstallStep, { type: 'download' }>): Promise<string> {
  const url = fill(step.url, context);
  const wanted = step.sha256 ?? step.sha1;
  if (wanted) {
    const tool = step.sha256 ? 'sha256sum' : 'sha1sum';
    const current = await asAccount(context, `if [ -f "$1" ]; then ${tool} -- "$1"; fi`, [step.path]);
    if (current.code === 0 && current.stdout.split(/\s/)[0]?.toLowerCase() === wanted.toLowerCase()) return `${step.path} is already current`;
  }
  await mkdir(context.stagingDir, { recursive: true, mode: 0o700 });
  const staged = join(context.stagingDir, `download-${step.path.replaceAll('/', '_')}`);
  await download(url, staged, {
    signal: context.signal,
    retries: context.retries,
    backoffMs: context.backoffMs,
    ...(step.sha256 ? { sha256: step.sha256 } : {}),
    ...(step.sha1 ? { sha1: step.sha1 } : {}),
    onProgress: (received, total) => context.progress(total ? Math.min(99, Math.floor((received / total) * 100)) : null, `downloading ${step.path}`),
  });
  const input = await open(staged, 'r');
  try {
    const placed = await asAccount(
      context,
      'mkdir -p -- "$(dirname -- "$1")" && cat > "$1.gsm-new" && if [ "$2" = 1 ]; then chmod +x "$1.gsm-new"; fi && mv -f -- "$1.gsm-new" "$1"',
      [step.path, step.executable ? '1' : '0'],
      input.fd,
    );
    if (placed.error || placed.code !== 0)
      throw new InstallError('INSTALL_FAILED', `${step.path}: could not be written (${placed.stderr.split('\n')[0] || placed.error?.message})`);
  } finally {
    await input.close();
    await rm(staged, { force: true });
  }
  return `downloaded ${step.path}`;
}

async function unpackStep(context: InstallContext, step: Extract<InstallStep, { type: 'unpack' }>): Promise<string> {
  const format =
    step.format !== 'auto'
      ? step.format
      : /\.zip$/i.test(step.archive)
        ? 'zip'
        : /\.(tar\.gz|tgz)$/i.test(step.archive)
          ? 'tar.gz'
          : /\.(tar\.xz|txz)$/i.test(step.archive)
            ? 'tar.xz'
            : 'tar';
  const strip = step.stripComponents ? `--strip-components=${step.stripComponents}` : '';
  const command =
    format === 'zip'
      ? 'mkdir -p -- "$2" && unzip -o -q -- "$1" -d "$2"'
      : `mkdir -p -- "$2" && tar -x${format === 'tar.gz' ? 'z' : format === 'tar.xz' ? 'J' : ''}f "$1" -C "$2" --no-same-owner ${strip}`;
  const done = await asAccount(context, `${command}${step.removeArchive ? ' && rm -f -- "$1"' : ''}`, [step.archive, step.destination]);
  if (done.error || done.code !== 0)
    throw new InstallError('INSTALL_FAILED', `unpacking ${step.archive} failed: ${done.stderr.split('\n')[0] || done.error?.message || `exit ${done.code}`}`);
  return `unpacked ${step.archive}`;
}

async function scriptStep(context: InstallContext, step: Extract<InstallStep, { type: 'script' }>): Promise<string> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: context.dir,
    SERVER_DIR: context.dir,
    ...(context.account ? { USER: context.account.name, LOGNAME: context.account.name } : {}),
    ...Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, fill(value, context)])),
  };
  await runInstallProcess(context, {
    command: step.shell === 'bash' ? 'bash' : 'sh',
    args: ['-c', step.script],
    env,
    what: 'the install script',
    timeoutMs: step.timeoutSeconds * 1000,
  });
  return 'the install script succeeded';
}

/** Runs the steps in order; answers the version installed (the Minecraft step's) and what was done. */
export async function runTemplateSteps(
  context: InstallContext,
  steps: NonNullable<ResolvedTemplate['install']>,
): Promise<{ version: string | null; message: string }> {
  const missing = await missingTools(steps.tools ?? [], context);
  if (missing.length > 0) throw new InstallError('NOT_INSTALLABLE', `this machine lacks what the install needs: ${missing.join(', ')}`);
  let version: string | null = null;
  const done: string[] = [];
  for (const [index, given] of steps.steps.entries()) {
    // Every text of the step but a script's own (its `$VARS` read the environment, whose values are filled).
    const step = Object.fromEntries(
      Object.entries(given).map(([key, value]) => [key, typeof value === 'string' && key !== 'script' ? fill(value, context) : value]),
    ) as InstallStep;
    if (context.signal.aborted) throw new InstallError('CANCELLED', 'cancelled');
    context.progress(null, `step ${index + 1} of ${steps.steps.length}: ${step.type}`);
    switch (step.type) {
      case 'download':
        done.push(await downloadStep(context, step));
        break;
      case 'unpack':
        done.push(await unpackStep(context, step));
        break;
      case 'script':
        done.push(await scriptStep(context, step));
        break;
      case 'steamcmd':
        done.push(
          (
            await installSteamAppId(context, step.appId, {
              validate: step.validate,
              ...(step.branch ? { branch: step.branch } : {}),
              ...(step.betaPassword ? { betaPassword: step.betaPassword } : {}),
              ...(step.platform ? { platform: step.platform } : {}),
            })
          ).message,
        );
        break;
      case 'minecraftManifest': {
        // The version the job asks for wins (a change just before it may not have reached this agent's configuration).
        const fromStep = step.version === '' || step.version === 'latest' ? null : step.version;
        const installed = await installMinecraft({ ...context, version: context.version ?? fromStep });
        version = installed.version;
        done.push(installed.message);
        break;
      }
    }
  }
  return { version, message: done.length > 0 ? done.join('; ') : 'nothing to install' };
}
