/**
 * What each job type does on this machine (docs/servers.md and docs/api.md). Power jobs are requests for a state: START on an
 * ONLINE server succeeds at once ("already online"), STOP on an OFFLINE one likewise. A job ends when the server
 * reaches the state asked for; CRASHED on the way fails it.
 */
import type { ServerSupervisor } from '../servers/serverSupervisor.ts';
import { DEFAULT_STOP_GRACE_SECONDS } from '../../schema/serverBehaviour.ts';
import type { PlayerInfo } from '../games/adapter.ts';
import { wipe, WipeError } from '../servers/wipe.ts';
import type { Account } from '../servers/accounts.ts';
import { InstallError } from '../installs/download.ts';
import { runInstallJob, type InstallSettings } from '../installs/installer.ts';
import { runBackupJob, runRestoreJob, type BackupSettings } from '../backups/backupJobs.ts';
import type { FileSessions } from '../files/fileSessions.ts';
import { runFileJob } from '../files/fileJobs.ts';
import { CONSOLE_TAIL_LINES, JobError, type AgentJob, type JobExecutor } from './jobRunner.ts';

/** The longest a STOP may take beyond the kill escalation before the job fails. */
const STOP_MARGIN_MS = 10_000;

export type ExecutorOptions = {
  /**
   * The server's supervisor, waiting for it when this machine has not set it up yet (its configuration can arrive
   * after the job); undefined when it is still not there after `timeoutMs`.
   */
  supervisor: (serverId: string, timeoutMs: number, signal: AbortSignal) => Promise<ServerSupervisor | undefined>;
  stopTimeoutMs: number;
  now?: () => number;
  /** Where installs download from (INSTALL, UPDATE). */
  installs?: InstallSettings;
  /** Where backups go (BACKUP, RESTORE). */
  backups?: BackupSettings;
  /** The account a server runs as (undefined: the agent's own user). */
  accountFor?: (serverId: string) => Promise<Account | undefined>;
  /** The servers' file helpers (FILE_COMPRESS, FILE_EXTRACT). */
  files?: FileSessions;
};

export function createExecutor(options: ExecutorOptions): JobExecutor {
  const now = options.now ?? Date.now;
  /** A job for a server not set up yet waits for its configuration until the job's deadline, never fails sooner. */
  const serverOf = async (job: AgentJob, signal: AbortSignal): Promise<ServerSupervisor> => {
    if (!job.serverId) throw new JobError('SERVER_NOT_FOUND', 'the job names no server');
    const supervisor = await options.supervisor(job.serverId, Date.parse(job.deadline) - now(), signal).catch((error: unknown) => {
      throw new JobError('CANCELLED', error instanceof Error ? error.message : 'cancelled');
    });
    if (!supervisor) throw new JobError('SERVER_NOT_FOUND', `server ${job.serverId} was not set up on this machine before the job's deadline`);
    return supervisor;
  };
  const stopLimitMs = options.stopTimeoutMs * 2 + STOP_MARGIN_MS;

  async function start(supervisor: ServerSupervisor, signal: AbortSignal): Promise<Record<string, unknown>> {
    // A START after a failed install never reaches here (the service refuses it with 409 until an install has
    // succeeded); after a failed UPDATE the previous installation is still there and starts.
    supervisor.setDesiredStatus('RUNNING');
    if (supervisor.status === 'ONLINE') return { message: 'already online' };
    if (supervisor.status === 'UNRESPONSIVE' && supervisor.running) return { message: 'already running (unresponsive to queries)' };
    // Asked for (a START, or an UPDATE's restart): a hold after given-up crashes and the back-off are cleared.
    if (!supervisor.running) await supervisor.startAsked();
    const reached = await supervisor
      .waitForStatus((status) => status === 'ONLINE' || status === 'CRASHED', supervisor.startTimeoutMs + STOP_MARGIN_MS, signal)
      .catch((error: Error) => {
        throw new JobError(signal.aborted ? 'CANCELLED' : 'TIMEOUT', error.message);
      });
    if (reached === 'CRASHED') {
      const code = supervisor.statusExitCode;
      const reason = supervisor.statusMessage ?? (code !== undefined && code !== null ? `exited with code ${code}` : undefined);
      // Its process never ran: a port another process holds (named in the message).
      if (supervisor.startFailureCode) throw new JobError(supervisor.startFailureCode, reason ?? 'the server could not start');
      throw new JobError('CRASHED', `the server crashed while starting${reason ? `: ${reason}` : ''}`, supervisor.consoleTail(CONSOLE_TAIL_LINES));
    }
    return { message: 'online' };
  }

  async function stop(supervisor: ServerSupervisor, signal: AbortSignal): Promise<Record<string, unknown>> {
    supervisor.setDesiredStatus('STOPPED');
    if (!supervisor.running) {
      // No process, but a restart may be pending (RESTARTING during its back-off): it is called off and said OFFLINE.
      // Only then: a server that never ran (its first status still to come) is left as it is.
      if (supervisor.status === 'RESTARTING') await supervisor.stop();
      return { message: 'already offline' };
    }
    const stopping = supervisor.stop();
    // A server's own stop waits its graceSeconds before SIGTERM, then the usual time to SIGKILL.
    const own = supervisor.config.stop;
    const limitMs = own ? Math.max(stopLimitMs, (own.graceSeconds ?? DEFAULT_STOP_GRACE_SECONDS) * 1000 + options.stopTimeoutMs + STOP_MARGIN_MS) : stopLimitMs;
    await supervisor
      .waitForStatus((status) => status === 'OFFLINE' || status === 'CRASHED', limitMs, signal)
      .catch((error: Error) => {
        throw new JobError(signal.aborted ? 'CANCELLED' : 'TIMEOUT', error.message);
      });
    await stopping;
    return { message: 'offline' };
  }

  /**
   * A RESTART that a process of this agent before this one accepted (it stopped, or was killed, before storing the
   * result, so the service sent it again) is done when the server runs a process started since it was accepted: that
   * process is the restart's, or a start since (a START, a crash's restart) that gave the server a fresh process all
   * the same. It then completes as a START: at once when online, else when the process is. Without this, an agent
   * replaced mid-restart restarted the game twice. Both times are monotonic (the job's acceptance in this process's
   * clock, the process's age since boot), so a step of the wall clock cannot skip a restart.
   */
  const restartedSince = (supervisor: ServerSupervisor, job: AgentJob): boolean => {
    const age = supervisor.processAgeMs;
    if (job.acceptedAt === undefined || job.acceptedAt >= 0 || age === undefined) return false;
    return age < performance.now() - job.acceptedAt;
  };

  /** Runs a console action on a running server; a console failure fails the job with `code`. */
  async function viaConsole(supervisor: ServerSupervisor, code: string, action: (channel: ServerSupervisor['channel']) => Promise<void>): Promise<void> {
    if (!supervisor.running || (supervisor.status !== 'ONLINE' && supervisor.status !== 'UNRESPONSIVE'))
      throw new JobError('NOT_RUNNING', `the server is ${supervisor.status}`);
    try {
      await action(supervisor.channel);
    } catch (error) {
      throw new JobError(code, (error as Error).message);
    }
  }

  /**
   * KICK, BAN and UNBAN through the game's own commands. A BAN or UNBAN for a server that is not running waits on disk
   * and reaches the game's list as soon as the server is online (meanwhile the service enforces bans on join); it
   * answers SUCCEEDED with `applied: false, deferred: true`.
   */
  async function moderate(supervisor: ServerSupervisor, job: AgentJob): Promise<Record<string, unknown>> {
    const player: PlayerInfo = { steamId: String(job.params.steamId ?? ''), username: String(job.params.username ?? job.params.steamId ?? '') };
    if (!player.steamId) throw new JobError('INVALID_JOB', 'the job names no player');
    const reason = String(job.params.reason ?? '');
    if (job.type !== 'KICK' && supervisor.status !== 'ONLINE') {
      await supervisor.pendingModeration.add({ type: job.type as 'BAN' | 'UNBAN', steamId: player.steamId, username: player.username, reason });
      return { message: `the server is ${supervisor.status}; applied to the game when it is next online`, applied: false, deferred: true };
    }
    const { adapter } = supervisor;
    if (job.type === 'KICK') await viaConsole(supervisor, 'KICK_FAILED', (channel) => adapter.kick(channel, player, reason));
    else if (job.type === 'BAN') {
      await viaConsole(supervisor, 'BAN_FAILED', (channel) => adapter.ban(channel, player, reason));
      // Not every game's ban command disconnects the player: kick too (a player already gone is not a failure).
      await viaConsole(supervisor, 'KICK_FAILED', (channel) => adapter.kick(channel, player, reason)).catch(() => undefined);
    } else await viaConsole(supervisor, 'UNBAN_FAILED', (channel) => adapter.unban(channel, player));
    // The game's answer to a kick is not reliable across games; the next player list tells the service the truth.
    void supervisor.snapshotPlayers();
    return { message: `${job.type.toLowerCase()} sent`, applied: true };
  }

  return {
    async execute(job, signal, progress) {
      const supervisor = await serverOf(job, signal);
      const account = async () => options.accountFor?.(supervisor.config.id);
      switch (job.type) {
        case 'START':
          return start(supervisor, signal);
        case 'STOP':
          return stop(supervisor, signal);
        case 'RESTART':
          if (restartedSince(supervisor, job))
            return {
              ...(await start(supervisor, signal)),
              message: 'a process started since the restart was accepted runs (the agent was replaced meanwhile)',
            };
          await stop(supervisor, signal);
          return { ...(await start(supervisor, signal)), message: 'restarted' };
        case 'KILL':
          supervisor.setDesiredStatus('STOPPED');
          await supervisor.kill();
          return { message: 'killed' };
        case 'RCON': {
          if (supervisor.status !== 'ONLINE' && supervisor.status !== 'UNRESPONSIVE') throw new JobError('NOT_RUNNING', `the server is ${supervisor.status}`);
          const command = String(job.params.command ?? '');
          try {
            return { output: await supervisor.channel.command(command) };
          } catch (error) {
            throw new JobError('RCON_FAILED', (error as Error).message);
          }
        }
        case 'KICK':
        case 'BAN':
        case 'UNBAN':
          return moderate(supervisor, job);
        case 'BROADCAST': {
          const message = String(job.params.message ?? '');
          await viaConsole(supervisor, 'BROADCAST_FAILED', (channel) => supervisor.adapter.broadcast(channel, message));
          return { message: 'broadcast sent' };
        }
        case 'WIPE': {
          if (supervisor.running || supervisor.status === 'STARTING') {
            throw new JobError('SERVER_RUNNING', `the server is ${supervisor.status}: stop it before wiping`);
          }
          try {
            // As the owner of the server's directory (wipe.ts): a WIPE sets up no account.
            const deleted = await wipe(supervisor.dir, supervisor.adapter.wipePaths);
            return { message: `wiped ${deleted.length} path(s)`, deleted };
          } catch (error) {
            throw new JobError(error instanceof WipeError ? 'WIPE_REFUSED' : 'WIPE_FAILED', (error as Error).message);
          }
        }
        case 'INSTALL':
        case 'UPDATE': {
          if (!options.installs) throw new JobError('UNSUPPORTED', `${job.type} jobs are not set up on this agent`);
          if (job.type === 'INSTALL' && (supervisor.running || supervisor.status === 'STARTING'))
            throw new JobError('SERVER_RUNNING', `the server is ${supervisor.status}: stop it before installing`);
          try {
            return await runInstallJob(supervisor, job as AgentJob & { type: 'INSTALL' | 'UPDATE' }, {
              ...options.installs,
              account: await account(),
              signal,
              progress,
              // Stopped for the update only: the desired status the service set stays as it is.
              stop: async () => {
                const desired = supervisor.config.desiredStatus;
                await stop(supervisor, signal);
                supervisor.setDesiredStatus(desired);
              },
              start: () => start(supervisor, signal),
            });
          } catch (error) {
            if (error instanceof InstallError) throw new JobError(error.code, error.message, error.consoleTail);
            throw error;
          }
        }
        case 'BACKUP':
          if (!options.backups) throw new JobError('UNSUPPORTED', 'BACKUP jobs are not set up on this agent');
          return runBackupJob(supervisor, job.params, { ...options.backups, account: await account(), signal, progress });
        case 'RESTORE':
          if (!options.backups) throw new JobError('UNSUPPORTED', 'RESTORE jobs are not set up on this agent');
          return runRestoreJob(supervisor, job.params, { ...options.backups, account: await account(), signal, progress });
        case 'FILE_COMPRESS':
        case 'FILE_EXTRACT':
          if (!options.files) throw new JobError('UNSUPPORTED', `${job.type} jobs are not set up on this agent`);
          return runFileJob(options.files, job, signal, progress);
        default:
          throw new JobError('UNSUPPORTED', `${job.type} jobs are not supported by this agent`);
      }
    },
  };
}
