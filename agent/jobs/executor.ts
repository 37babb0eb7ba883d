/**
 * What each job type does on this machine (SPEC sections 4 and 5). Power jobs are requests for a state: START on an
 * ONLINE server succeeds at once ("already online"), STOP on an OFFLINE one likewise. A job ends when the server
 * reaches the state asked for; CRASHED on the way fails it.
 */
import type { ServerSupervisor } from '../servers/serverSupervisor.ts';
import { JobError, type AgentJob, type JobExecutor } from './jobRunner.ts';

/** The longest a STOP may take beyond the kill escalation before the job fails. */
const STOP_MARGIN_MS = 10_000;

export function createExecutor(options: { supervisor: (serverId: string) => ServerSupervisor | undefined; stopTimeoutMs: number }): JobExecutor {
  const serverOf = (job: AgentJob): ServerSupervisor => {
    const supervisor = job.serverId ? options.supervisor(job.serverId) : undefined;
    if (!supervisor) throw new JobError('SERVER_NOT_FOUND', `server ${job.serverId} is not on this machine`);
    return supervisor;
  };
  const stopLimitMs = options.stopTimeoutMs * 2 + STOP_MARGIN_MS;

  async function start(supervisor: ServerSupervisor, signal: AbortSignal): Promise<Record<string, unknown>> {
    supervisor.config = { ...supervisor.config, desiredStatus: 'RUNNING' };
    if (supervisor.status === 'ONLINE') return { message: 'already online' };
    if (!supervisor.running) await supervisor.start();
    const reached = await supervisor
      .waitForStatus((status) => status === 'ONLINE' || status === 'CRASHED', supervisor.adapter.startTimeoutMs + STOP_MARGIN_MS, signal)
      .catch((error: Error) => {
        throw new JobError(signal.aborted ? 'CANCELLED' : 'TIMEOUT', error.message);
      });
    if (reached === 'CRASHED') throw new JobError('CRASHED', 'the server crashed while starting');
    return { message: 'online' };
  }

  async function stop(supervisor: ServerSupervisor, signal: AbortSignal): Promise<Record<string, unknown>> {
    supervisor.config = { ...supervisor.config, desiredStatus: 'STOPPED' };
    if (!supervisor.running) return { message: 'already offline' };
    const stopping = supervisor.stop();
    await supervisor.waitForStatus((status) => status === 'OFFLINE' || status === 'CRASHED', stopLimitMs, signal).catch((error: Error) => {
      throw new JobError(signal.aborted ? 'CANCELLED' : 'TIMEOUT', error.message);
    });
    await stopping;
    return { message: 'offline' };
  }

  return {
    async execute(job, signal) {
      const supervisor = serverOf(job);
      switch (job.type) {
        case 'START':
          return start(supervisor, signal);
        case 'STOP':
          return stop(supervisor, signal);
        case 'RESTART':
          await stop(supervisor, signal);
          return { ...(await start(supervisor, signal)), message: 'restarted' };
        case 'KILL':
          supervisor.config = { ...supervisor.config, desiredStatus: 'STOPPED' };
          await supervisor.kill();
          return { message: 'killed' };
        case 'RCON': {
          if (supervisor.status !== 'ONLINE') throw new JobError('NOT_RUNNING', `the server is ${supervisor.status}`);
          const command = String(job.params.command ?? '');
          try {
            return { output: await supervisor.channel.command(command) };
          } catch (error) {
            throw new JobError('RCON_FAILED', (error as Error).message);
          }
        }
        default:
          throw new JobError('UNSUPPORTED', `${job.type} jobs are not supported by this agent yet`);
      }
    },
  };
}
