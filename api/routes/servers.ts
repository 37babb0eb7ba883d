/**
 * Game servers. Created in a cluster on one of its machines, through `/clusters/<id>/servers` or `/servers` with
 * `clusterId` in the body. Ports are 1024..65535, distinct within a server, and unique per machine (409).
 * `rconPassword` is write-only and generated when absent.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { validationFailed } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { behaviourIssues, consoleModeBody } from '../../schema/serverBehaviour.ts';
import { clusterServerListQuery, createServerBody, createServerVariantBody, server, serverListQuery, updateServerBody } from '../../schema/servers.ts';
import { DEFAULT_MAX_PLAYERS, type GameType } from '../../schema/games.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { principalOf } from '../identity/principal.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { CONSTRAINT_MESSAGES } from '../middleware/databaseErrors.ts';
import { notifyAgent } from '../../orchestrator/gateway/notifications.ts';
import { originOf } from '../identity/origin.ts';
import { acceptServerJob } from '../../orchestrator/jobs/serverJobs.ts';

CONSTRAINT_MESSAGES.server_ports_machine_port_key = 'A port of this server is already used by another server on the same machine';
CONSTRAINT_MESSAGES.servers_ports_distinct = 'The game, query and RCON ports of a server must differ';

const SERVER_COLUMNS = sql.fragment`
  s.id, s.cluster_id AS "clusterId", s.machine_id AS "machineId", s.name, s.game_type AS "gameType",
  s.game_port AS "gamePort", s.query_port AS "queryPort", s.rcon_port AS "rconPort", s.max_players AS "maxPlayers",
  s.status, s.desired_status AS "desiredStatus", s.players_online AS "playersOnline", s.auto_restart AS "autoRestart",
  s.start_command AS "startCommand", s.env, s.memory_limit_mb AS "memoryLimitMb", s.cpu_limit_percent AS "cpuLimitPercent",
  s.last_status_at AS "lastStatusAt", s.status_reason AS "statusReason",
  s.last_exit_code AS "lastExitCode", s.stats, s.version, s.installed_version AS "installedVersion", s.installed_at AS "installedAt", s.os_user AS "osUser",
  s.accept_eula AS "acceptEula", s.install_command AS "installCommand", s.backup_retention AS "backupRetention",
  s.ready, s.console_mode AS "consoleMode", s.stop,
  s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;
const SORT = {
  name: sql.fragment`lower(s.name)`,
  createdAt: sql.fragment`s.created_at`,
  status: sql.fragment`s.status`,
  gameType: sql.fragment`s.game_type`,
  playersOnline: sql.fragment`s.players_online`,
};

const serverParams = z.object({ id });
const success = z.object({ success: z.literal(true), message: z.string() });

const jsonOrNull = (value: Record<string, unknown> | null | undefined) => (value ? sql.jsonb(value as never) : null);

/** A generated RCON password: 24 URL-safe characters. */
const generateRconPassword = () => randomBytes(18).toString('base64url');

const getServer = (connection: CommonQueryMethods, serverId: string) =>
  connection.one(sql.type(server)`SELECT ${SERVER_COLUMNS} FROM servers s WHERE s.id = ${serverId}`);

/** Replaces the server's rows in server_ports; a port taken on the machine is a 409 (primary key). */
async function claimPorts(tx: CommonQueryMethods, serverId: string, machineId: string, ports: number[]): Promise<void> {
  await tx.query(sql.unsafe`DELETE FROM server_ports WHERE server_id = ${serverId}`);
  await tx.query(sql.unsafe`
    INSERT INTO server_ports (machine_id, port, server_id) SELECT ${machineId}, unnest(${sql.array(ports, 'int4')}), ${serverId}`);
}

function filters(query: { status?: string; gameType?: string; game?: string; machineId?: string }) {
  const gameType = query.gameType ?? query.game;
  return [
    ...(query.status ? [sql.fragment`s.status = ${query.status}`] : []),
    ...(gameType ? [sql.fragment`s.game_type = ${gameType}`] : []),
    ...(query.machineId ? [sql.fragment`s.machine_id = ${query.machineId}`] : []),
  ];
}

export function installServerRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;
  const byServer = clusterOfParam(pool, 'servers');

  async function create(ctx: Context, clusterId: string, body: z.output<typeof createServerBody>) {
    return pool.transaction(async (tx) => {
      const machineCluster = await tx.maybeOneFirst(sql.type(z.object({ clusterId: z.string() }))`
        SELECT cluster_id AS "clusterId" FROM machines WHERE id = ${body.machineId} FOR SHARE`);
      if (machineCluster !== clusterId) throw validationFailed([{ field: 'machineId', message: 'no such machine in this cluster' }]);
      const serverId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
        INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players,
                             auto_restart, start_command, env, memory_limit_mb, cpu_limit_percent, rcon_password,
                             version, accept_eula, install_command, backup_retention, ready, console_mode, stop)
        VALUES (${clusterId}, ${body.machineId}, ${body.name}, ${body.gameType}, ${body.gamePort}, ${body.queryPort}, ${body.rconPort},
                ${body.maxPlayers ?? DEFAULT_MAX_PLAYERS[body.gameType as GameType]}, ${body.autoRestart ?? true},
                ${body.startCommand ?? null}, ${body.env ? sql.jsonb(body.env) : null}, ${body.memoryLimitMb ?? null}, ${body.cpuLimitPercent ?? null},
                ${body.rconPassword ?? generateRconPassword()},
                ${body.version ?? null}, ${body.acceptEula ?? false}, ${body.installCommand ?? null}, ${body.backupRetention ?? 5},
                ${jsonOrNull(body.ready)}, ${body.consoleMode ?? null}, ${jsonOrNull(body.stop)})
        RETURNING id`);
      await claimPorts(tx, serverId, body.machineId, [body.gamePort, body.queryPort, body.rconPort]);
      await notifyAgent(tx, { type: 'servers_changed', machineId: body.machineId });
      const origin = originOf(ctx);
      await recordAudit(tx, origin, { clusterId, action: 'server.create', target: { type: 'server', id: serverId } });
      // A server that runs its game's default start command is installed at once (docs/installs-and-backups.md).
      if (body.autoInstall ?? (!body.startCommand && body.gameType !== 'CUSTOM')) {
        const install = await acceptServerJob(tx, origin, {
          serverId,
          type: 'INSTALL',
          params: { version: body.version ?? null },
          desired: null,
          requireRunning: false,
          audit: { action: 'server.install' },
        });
        ctx.set('GSM-Install-Job', install.id);
      }
      return getServer(tx, serverId);
    });
  }

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/servers',
    summary: 'List servers of a cluster',
    description: 'Filters: `status` and `gameType` (alias `game`) in any case, `machineId`.',
    tags: ['Servers'],
    auth: 'user',
    params: clusterIdParams,
    query: clusterServerListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Servers', schema: listOf(server) } },
    handler: (_ctx, { params, query }) =>
      fetchPage(pool, {
        schema: server,
        columns: SERVER_COLUMNS,
        from: sql.fragment`servers s WHERE ${sql.join([sql.fragment`s.cluster_id = ${params.clusterId}`, ...filters(query)], sql.fragment` AND `)}`,
        order: orderBy(query.sort, SORT, sql.fragment`s.id`),
        page: query,
      }),
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers',
    summary: 'List servers across your clusters',
    description: 'Every server in the clusters you can see (an API token: its scope); `clusterId` narrows to one.',
    tags: ['Servers'],
    auth: 'user',
    query: serverListQuery,
    responses: { 200: { description: 'Servers', schema: listOf(server) } },
    handler: (ctx, { query }) => {
      const principal = principalOf(ctx);
      const visible = [
        sql.fragment`s.cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ${principal.user.id})`,
        ...(principal.kind === 'TOKEN' ? [sql.fragment`s.cluster_id = ANY(${sql.array([...principal.clusterIds], 'uuid')})`] : []),
        ...(query.clusterId ? [sql.fragment`s.cluster_id = ${query.clusterId}`] : []),
      ];
      return fetchPage(pool, {
        schema: server,
        columns: SERVER_COLUMNS,
        from: sql.fragment`servers s WHERE ${sql.join([...visible, ...filters(query)], sql.fragment` AND `)}`,
        order: orderBy(query.sort, SORT, sql.fragment`s.id`),
        page: query,
      });
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/servers',
    summary: 'Create a server',
    tags: ['Servers'],
    auth: 'user',
    params: clusterIdParams,
    body: createServerBody,
    permission: { action: 'servers.manage', cluster: 'clusterId' },
    status: 201,
    responses: {
      201: { description: 'The server', schema: server, headers: { 'GSM-Install-Job': 'The INSTALL job, when the game is installed at once' } },
      409: { description: 'A port is taken on that machine' },
    },
    handler: (ctx, { params, body }) => create(ctx, params.clusterId, body),
  });

  api.route({
    method: 'post',
    path: '/api/v1/servers',
    summary: 'Create a server (variant: clusterId in the body)',
    tags: ['Servers'],
    auth: 'user',
    body: createServerVariantBody,
    permission: { action: 'servers.manage', cluster: ({ body }) => body.clusterId },
    status: 201,
    responses: {
      201: { description: 'The server', schema: server, headers: { 'GSM-Install-Job': 'The INSTALL job, when the game is installed at once' } },
      409: { description: 'A port is taken on that machine' },
    },
    handler: (ctx, { body: { clusterId, ...body } }) => create(ctx, clusterId, body),
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id',
    summary: 'Get a server',
    tags: ['Servers'],
    auth: 'user',
    params: serverParams,
    permission: { action: 'cluster.read', cluster: byServer },
    responses: { 200: { description: 'The server', schema: server } },
    handler: (_ctx, { params }) => getServer(pool, params.id),
  });

  api.route({
    method: 'patch',
    path: '/api/v1/servers/:id',
    summary: 'Update a server',
    tags: ['Servers'],
    auth: 'user',
    params: serverParams,
    body: updateServerBody,
    permission: { action: 'servers.manage', cluster: byServer },
    responses: { 200: { description: 'The server', schema: server }, 409: { description: 'A port is taken on that machine' } },
    handler: (ctx, { params, body }) =>
      pool.transaction(async (tx) => {
        const current = await tx.one(sql.type(
          z.object({
            machineId: z.string(),
            gameType: z.string(),
            gamePort: z.number(),
            queryPort: z.number(),
            rconPort: z.number(),
            startCommand: z.string().nullable(),
            consoleMode: consoleModeBody,
            stop: z.object({ mode: z.string() }).nullable(),
          }),
        )`
          SELECT machine_id AS "machineId", game_type AS "gameType", game_port AS "gamePort", query_port AS "queryPort",
                 rcon_port AS "rconPort", start_command AS "startCommand", console_mode AS "consoleMode", stop
            FROM servers WHERE id = ${params.id} FOR UPDATE`);
        const ports = {
          gamePort: body.gamePort ?? current.gamePort,
          queryPort: body.queryPort ?? current.queryPort,
          rconPort: body.rconPort ?? current.rconPort,
        };
        const distinct = new Set(Object.values(ports)).size === 3;
        if (!distinct) {
          const fields = (['gamePort', 'queryPort', 'rconPort'] as const).filter((field) => body[field] !== undefined);
          throw validationFailed(fields.map((field) => ({ field, message: 'the game, query and RCON ports of a server must differ' })));
        }
        const startCommand = body.startCommand === undefined ? current.startCommand : body.startCommand;
        if (current.gameType === 'CUSTOM' && !startCommand) throw validationFailed([{ field: 'startCommand', message: 'required for CUSTOM servers' }]);
        const behaviour = behaviourIssues(current.gameType, {
          ready: body.ready,
          consoleMode: body.consoleMode === undefined ? current.consoleMode : body.consoleMode,
          stop: body.stop === undefined ? current.stop : body.stop,
        });
        if (behaviour.length > 0) throw validationFailed(behaviour);
        await tx.query(sql.unsafe`
          UPDATE servers SET
            name = ${body.name ?? sql.fragment`name`},
            game_port = ${ports.gamePort}, query_port = ${ports.queryPort}, rcon_port = ${ports.rconPort},
            max_players = ${body.maxPlayers ?? sql.fragment`max_players`},
            auto_restart = ${body.autoRestart ?? sql.fragment`auto_restart`},
            start_command = ${startCommand},
            env = ${body.env === undefined ? sql.fragment`env` : body.env === null ? null : sql.jsonb(body.env)},
            memory_limit_mb = ${body.memoryLimitMb === undefined ? sql.fragment`memory_limit_mb` : body.memoryLimitMb},
            cpu_limit_percent = ${body.cpuLimitPercent === undefined ? sql.fragment`cpu_limit_percent` : body.cpuLimitPercent},
            version = ${body.version === undefined ? sql.fragment`version` : body.version},
            accept_eula = ${body.acceptEula ?? sql.fragment`accept_eula`},
            install_command = ${body.installCommand === undefined ? sql.fragment`install_command` : body.installCommand},
            backup_retention = ${body.backupRetention ?? sql.fragment`backup_retention`},
            rcon_password = ${body.rconPassword ?? sql.fragment`rcon_password`},
            ready = ${body.ready === undefined ? sql.fragment`ready` : jsonOrNull(body.ready)},
            console_mode = ${body.consoleMode === undefined ? sql.fragment`console_mode` : body.consoleMode},
            stop = ${body.stop === undefined ? sql.fragment`stop` : jsonOrNull(body.stop)},
            updated_at = now()
           WHERE id = ${params.id}`);
        await claimPorts(tx, params.id, current.machineId, Object.values(ports));
        await notifyAgent(tx, { type: 'servers_changed', machineId: current.machineId });
        await recordAudit(tx, originOf(ctx), { clusterId: ctx.state.clusterId as string, action: 'server.update', target: { type: 'server', id: params.id } });
        return getServer(tx, params.id);
      }),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/servers/:id',
    summary: 'Delete a server',
    tags: ['Servers'],
    auth: 'user',
    params: serverParams,
    permission: { action: 'servers.manage', cluster: byServer },
    responses: { 200: { description: 'Deleted', schema: success } },
    handler: async (ctx, { params }) => {
      await pool.transaction(async (tx) => {
        // Its jobs that have not ended can no longer be run.
        await tx.query(sql.unsafe`
          UPDATE jobs SET status = 'CANCELLED', finished_at = now(), error = ${sql.jsonb({ code: 'CANCELLED', message: 'the server was deleted' })}
           WHERE server_id = ${params.id} AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
        const machineId = await tx.oneFirst(sql.type(z.object({ machineId: z.string() }))`
          DELETE FROM servers WHERE id = ${params.id} RETURNING machine_id AS "machineId"`);
        // Its agent removes its files only on this explicit word (servers:sync's `deleted`).
        await tx.query(sql.unsafe`INSERT INTO deleted_servers (id, machine_id) VALUES (${params.id}, ${machineId}) ON CONFLICT (id) DO NOTHING`);
        await notifyAgent(tx, { type: 'servers_changed', machineId });
        await recordAudit(tx, originOf(ctx), { clusterId: ctx.state.clusterId as string, action: 'server.delete', target: { type: 'server', id: params.id } });
      });
      return { success: true, message: 'Server deleted' };
    },
  });
}
