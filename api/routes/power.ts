/**
 * Power actions and RCON (docs/api.md). Each call validates, checks the permission (the server's cluster and the
 * caller's role there are read with the caller's token), then in one statement writes the job, the server's desired
 * status where it changes and the audit entry, and announces the job to its machine's gateway. The answer is
 * 202 with the Job and `Location`, or — with `?wait=N`, and by default for RCON (10 s) — the finished result.
 */
import { requireMachineTools } from '../../orchestrator/templates/machineTools.ts';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { id } from '../../schema/http.ts';
import { job, powerQuery, rconAnswer, rconBody, rconExecuteBody, waitSeconds, type Job, type JobType } from '../../schema/jobs.ts';
import { getJob } from '../../orchestrator/jobs/store.ts';
import { uuidV7 } from '../../sql/uuidV7.ts';
import { acceptServerJob, DESIRED_BY_TYPE, type ServerJobRequest } from '../../orchestrator/jobs/serverJobs.ts';
import { originOf } from '../identity/origin.ts';
import { serverVersion } from '../../orchestrator/servers/store.ts';

/** How long an RCON call waits for its output when `?wait` is not given. */
const RCON_DEFAULT_WAIT_S = 10;

const POWER: { type: JobType; path: string; summary: string }[] = [
  { type: 'START', path: 'start', summary: 'Start a server' },
  { type: 'STOP', path: 'stop', summary: 'Stop a server gracefully' },
  { type: 'RESTART', path: 'restart', summary: 'Restart a server' },
  { type: 'KILL', path: 'kill', summary: 'Kill a server at once (SIGKILL)' },
];

const rconQuery = z.object({ wait: waitSeconds.optional() }).strict();

export function installPowerRoutes(api: Api, deps: AppDeps) {
  const { pool, jobWaiters } = deps;

  type Request = Pick<ServerJobRequest, 'serverId' | 'type' | 'params' | 'desired' | 'requireRunning' | 'requireStopped'>;

  // One statement (server lock and desired status, job, audit entry, announcement): atomic without a transaction.
  const accept = (ctx: Context, request: Request, id?: string) =>
    acceptServerJob(pool, originOf(ctx), {
      ...request,
      id,
      clusterId: ctx.state.clusterId as string,
      audit: { action: `server.${request.type.toLowerCase()}` },
    });

  /**
   * Accepts the job and, with `seconds` > 0, waits up to that long for it to end and answers it as it is then. The
   * wait is registered under the job's id before the job exists, so its end cannot be missed (and nothing is read
   * back before it ends).
   */
  async function acceptAndSettle(ctx: Context, request: Request, seconds: number): Promise<Job> {
    if (seconds <= 0) return accept(ctx, request);
    const id = uuidV7();
    const expected = jobWaiters.expectEnd(id, seconds * 1000);
    try {
      await accept(ctx, request, id);
    } catch (error) {
      expected.cancel();
      throw error;
    }
    await expected.ended;
    return getJob(pool.reads, id);
  }

  const answerJob = (ctx: Context, current: Job) => {
    ctx.set('Location', `/api/v1/jobs/${current.id}`);
    ctx.status = current.finishedAt ? 200 : 202;
    ctx.body = current;
  };

  for (const power of POWER) {
    api.route({
      method: 'post',
      path: `/api/v1/servers/:id/${power.path}`,
      summary: power.summary,
      description: `A ${power.type} job. 202 with the Job and \`Location\`; with \`?wait=N\` (0..60) the answer waits until the job ends (200) or N seconds pass (202).`,
      tags: ['Power'],
      auth: 'user',
      params: z.object({ id }),
      query: powerQuery,
      permission: { action: 'servers.manage', server: { param: 'id' } },
      responses: {
        200: { description: 'The finished job', schema: job },
        202: { description: 'The job, accepted', schema: job, headers: { Location: 'The job' } },
        ...((power.type === 'START' || power.type === 'RESTART'
          ? { 409: { description: 'The server was never installed: its install failed or never ran (the message says why; install it first)' } }
          : {}) as Record<number, { description: string }>),
      },
      handler: async (ctx, { params, query }) =>
        answerJob(
          ctx,
          await acceptAndSettle(
            ctx,
            { serverId: params.id, type: power.type, params: {}, desired: DESIRED_BY_TYPE[power.type] ?? null, requireRunning: false },
            query.wait ?? 0,
          ),
        ),
    });
  }

  const INSTALLS = [
    {
      type: 'INSTALL' as const,
      path: 'install',
      summary: 'Install the game',
      description:
        "An INSTALL job: the agent installs the server's game in its directory (MINECRAFT: the server jar of `version`, checked by SHA-1; Steam games: SteamCMD `app_update`; CUSTOM: `installCommand`), with progress on the job. 409 while the server runs. The server is INSTALLING meanwhile and INSTALL_FAILED when it fails (its previous installation is left working).",
      requireStopped: true,
    },
    {
      type: 'UPDATE' as const,
      path: 'update',
      summary: 'Update the game',
      description:
        'An UPDATE job: like INSTALL, for an installed server (MINECRAFT: to `version`, or the latest release). A running server is stopped, updated and started again when its desired status is RUNNING.',
      requireStopped: false,
    },
  ];
  for (const install of INSTALLS) {
    api.route({
      method: 'post',
      path: `/api/v1/servers/:id/${install.path}`,
      summary: install.summary,
      description: `${install.description} 202 with the Job and \`Location\`; with \`?wait=N\` (0..60) the answer waits until the job ends (200) or N seconds pass (202).`,
      tags: ['Installs and backups'],
      auth: 'user',
      params: z.object({ id }),
      query: powerQuery,
      permission: { action: 'servers.manage', server: { param: 'id' } },
      responses: {
        200: { description: 'The finished job', schema: job },
        202: { description: 'The job, accepted', schema: job, headers: { Location: 'The job' } },
        409: {
          description: install.requireStopped
            ? 'The server is running, or it is a CUSTOM server without installCommand'
            : 'A CUSTOM server without installCommand',
        },
      },
      handler: async (ctx, { params, query }) => {
        // The version asked for travels with the job: a PATCH just before reaches the agent's configuration later.
        const version = await serverVersion(pool, params.id);
        // A machine that reported its programs and lacks one the install needs: refused now, naming each.
        await requireMachineTools(pool, params.id, install.type);
        const request = { serverId: params.id, type: install.type, params: { version: version ?? null }, desired: null, requireRunning: false };
        answerJob(ctx, await acceptAndSettle(ctx, { ...request, requireStopped: install.requireStopped }, query.wait ?? 0));
      },
    });
  }

  async function rcon(ctx: Context, serverId: string, command: string, wait: number | undefined) {
    const current = await acceptAndSettle(
      ctx,
      { serverId, type: 'RCON', params: { command }, desired: null, requireRunning: true },
      wait ?? RCON_DEFAULT_WAIT_S,
    );
    ctx.set('Location', `/api/v1/jobs/${current.id}`);
    ctx.status = current.finishedAt ? 200 : 202;
    const output = current.status === 'SUCCEEDED' && typeof current.result?.output === 'string' ? current.result.output : null;
    ctx.body = { success: current.status === 'SUCCEEDED', output, jobId: current.id, status: current.status };
  }

  const rconDescription = `Runs a console command on a running server (409 otherwise, and for a CUSTOM server with \`consoleMode\` NONE). Waits ${RCON_DEFAULT_WAIT_S} s by default (\`?wait=\` overrides): 200 \`{ success, output, jobId, status }\` when finished, 202 with \`output: null\` when not.`;

  api.route({
    method: 'post',
    path: '/api/v1/servers/:id/rcon',
    summary: 'Run an RCON command',
    description: rconDescription,
    tags: ['Power'],
    auth: 'user',
    params: z.object({ id }),
    query: rconQuery,
    body: rconBody,
    permission: { action: 'servers.manage', server: { param: 'id' } },
    responses: {
      200: { description: 'The command ran', schema: rconAnswer },
      202: { description: 'Still running', schema: rconAnswer },
      409: { description: 'The server is not running, or has no console (consoleMode NONE)' },
    },
    handler: (ctx, { params, query, body }) => rcon(ctx, params.id, body.command, query.wait),
  });

  api.route({
    method: 'post',
    path: '/api/v1/rcon/execute',
    summary: 'Run an RCON command (variant: serverId in the body)',
    description: rconDescription,
    tags: ['Power'],
    auth: 'user',
    query: rconQuery,
    body: rconExecuteBody,
    permission: { action: 'servers.manage', server: { bodyField: 'serverId' } },
    responses: {
      200: { description: 'The command ran', schema: rconAnswer },
      202: { description: 'Still running', schema: rconAnswer },
      409: { description: 'The server is not running, or has no console (consoleMode NONE)' },
    },
    handler: (ctx, { query, body }) => rcon(ctx, body.serverId, body.command, query.wait),
  });
}
