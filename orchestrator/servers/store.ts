/**
 * Servers as rows (docs/api.md): created, listed, changed and deleted here; the HTTP routes parse, authorize and call.
 * Every change tells the server's agent (servers:sync) and records an audit entry in the change's transaction.
 */
import { randomBytes } from 'node:crypto';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { AppError, validationFailed } from '../../schema/errors.ts';
import { DEFAULT_MAX_PLAYERS, type GameType } from '../../schema/games.ts';
import type { Origin } from '../../schema/origin.ts';
import { agentVersionIssues, behaviourIssues, consoleModeBody } from '../../schema/serverBehaviour.ts';
import { server, type clusterServerListQuery, type createServerBody, type serverListQuery, type updateServerBody } from '../../schema/servers.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';
import { notifyAgent } from '../gateway/notifications.ts';
import { acceptServerJob } from '../jobs/serverJobs.ts';
import { cancelServerJobs } from '../jobs/cancel.ts';
import { builtInCatalogue, GAME_TYPE_TEMPLATES } from '../templates/catalogue.ts';
import { latestTemplateVersion } from '../templates/versions.ts';
import { checkVariables, findTemplate, requireVariables, type FoundTemplate } from '../templates/store.ts';
import { requireMachineTools } from '../templates/machineTools.ts';
import { portPlanOf, templatePortPlan, type QueryProtocol } from '../../schema/gamePorts.ts';
import { assignPorts, claimPorts, lockMachinePorts, serverAllocations, type Allocation } from './ports.ts';

/**
 * The statuses in which the server's game process may be running and holding its ports: they do not move then. UNKNOWN
 * (its agent is away) counts when the server is meant to run. INSTALLING is also a server never installed: no game runs.
 */
const PORTS_HELD = new Set(['STARTING', 'ONLINE', 'UNRESPONSIVE', 'STOPPING', 'RESTARTING']);

/**
 * The server's port plan: its template's ports and query (a built-in or the cluster's; a server whose cluster template
 * is gone: its game type's built-in), else (CUSTOM) the seed's three; with the server's own query protocol over either
 * (NONE: not queried).
 */
function planOf(gameType: string, queryProtocol: string | null | undefined, template: FoundTemplate | undefined) {
  const own = queryProtocol === undefined || queryProtocol === null ? undefined : queryProtocol === 'NONE' ? null : (queryProtocol as QueryProtocol);
  const document = template?.document ?? builtInCatalogue().byGameType.get(gameType as GameType);
  return document ? templatePortPlan(gameType as GameType, document, own) : portPlanOf(gameType as GameType, own);
}
const portOf = (allocations: readonly Allocation[], name: string) => allocations.find((allocation) => allocation.name === name)!.port;
/** The ready port of a CUSTOM server must be one of its ports, checked once they are known. */
function readyPortIssues(ready: unknown, allocations: readonly Allocation[]) {
  const port = (ready as { mode?: string; port?: number } | null | undefined)?.port;
  if (port === undefined || allocations.some((allocation) => allocation.port === port)) return [];
  return [{ field: 'ready', message: `port must be one of the server's own ports (${allocations.map((a) => `${a.name} ${a.port}`).join(', ')})` }];
}

let serverColumnsFragment: ReturnType<typeof sql.fragment> | undefined;
/** The record's columns (built at the first use: the newest template versions read the catalogue). */
const serverColumns = () =>
  (serverColumnsFragment ??= sql.fragment`
  s.id, s.cluster_id AS "clusterId", s.machine_id AS "machineId", s.name, s.game_type AS "gameType",
  s.game_port AS "gamePort", s.query_port AS "queryPort", s.rcon_port AS "rconPort", s.max_players AS "maxPlayers",
  s.status, s.desired_status AS "desiredStatus", s.players_online AS "playersOnline", s.auto_restart AS "autoRestart",
  s.start_command AS "startCommand", s.env, s.memory_limit_mb AS "memoryLimitMb", s.cpu_limit_percent AS "cpuLimitPercent",
  s.last_status_at AS "lastStatusAt", s.status_reason AS "statusReason",
  s.last_exit_code AS "lastExitCode", s.stats, s.version, s.installed_version AS "installedVersion", s.installed_at AS "installedAt", s.os_user AS "osUser",
  s.accept_eula AS "acceptEula", s.install_command AS "installCommand", s.backup_retention AS "backupRetention",
  s.ready, s.console_mode AS "consoleMode", s.stop,
  s.template_id AS "templateId", s.template_version AS "templateVersion",
  CASE WHEN s.template_id IS NOT NULL THEN ${latestTemplateVersion()} END AS "templateLatestVersion", s.variables,
  (SELECT coalesce(jsonb_object_agg(v.key, true), '{}') FROM jsonb_object_keys(s.secret_variables) v(key)) AS "secretVariables",
  coalesce((SELECT json_agg(json_build_object('name', p.name, 'port', p.port, 'protocol', p.protocol) ORDER BY p.port)
              FROM server_ports p WHERE p.server_id = s.id), '[]') AS ports,
  s.query_protocol AS "queryProtocol", s.query, s.unresponsive_after AS "unresponsiveAfter",
  s.restart_when_unresponsive AS "restartWhenUnresponsive",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt"`);
const SORT = {
  name: sql.fragment`lower(s.name)`,
  createdAt: sql.fragment`s.created_at`,
  status: sql.fragment`s.status`,
  gameType: sql.fragment`s.game_type`,
  playersOnline: sql.fragment`s.players_online`,
};

type Server = z.output<typeof server>;

const jsonOrNull = (value: Record<string, unknown> | null | undefined) => (value ? sql.jsonb(value as never) : null);

/** A generated RCON password: 24 URL-safe characters. */
const generateRconPassword = () => randomBytes(18).toString('base64url');

export const getServer = (connection: CommonQueryMethods, serverId: string): Promise<Server> =>
  connection.one(sql.type(server)`SELECT ${serverColumns()} FROM servers s WHERE s.id = ${serverId}`);

/** The version a server is set to install (null: the latest), or null for no such server. */
export const serverVersion = (connection: CommonQueryMethods, serverId: string): Promise<string | null> =>
  connection.maybeOneFirst(sql.type(z.object({ version: z.string().nullable() }))`SELECT version FROM servers WHERE id = ${serverId}`);

function filters(query: { status?: string; gameType?: string; game?: string; machineId?: string }) {
  const gameType = query.gameType ?? query.game;
  return [
    ...(query.status ? [sql.fragment`s.status = ${query.status}`] : []),
    ...(gameType ? [sql.fragment`s.game_type = ${gameType}`] : []),
    ...(query.machineId ? [sql.fragment`s.machine_id = ${query.machineId}`] : []),
  ];
}

/** One page of a cluster's servers. */
export const clusterServerPage = (connection: CommonQueryMethods, clusterId: string, query: z.output<typeof clusterServerListQuery>) =>
  fetchPage(connection, {
    schema: server,
    columns: serverColumns(),
    from: sql.fragment`servers s WHERE ${sql.join([sql.fragment`s.cluster_id = ${clusterId}`, ...filters(query)], sql.fragment` AND `)}`,
    order: orderBy(query.sort, SORT, sql.fragment`s.id`),
    page: query,
  });

/** Who lists servers across clusters: a user sees their clusters' servers; an API token only those of its scope too. */
export type ServerViewer = { userId: string; tokenClusterIds: readonly string[] | null };

/** One page of the servers of every cluster `viewer` can see. */
export function visibleServerPage(connection: CommonQueryMethods, viewer: ServerViewer, query: z.output<typeof serverListQuery>) {
  const visible = [
    sql.fragment`s.cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ${viewer.userId})`,
    ...(viewer.tokenClusterIds ? [sql.fragment`s.cluster_id = ANY(${sql.array([...viewer.tokenClusterIds], 'uuid')})`] : []),
    ...(query.clusterId ? [sql.fragment`s.cluster_id = ${query.clusterId}`] : []),
  ];
  return fetchPage(connection, {
    schema: server,
    columns: serverColumns(),
    from: sql.fragment`servers s WHERE ${sql.join([...visible, ...filters(query)], sql.fragment` AND `)}`,
    order: orderBy(query.sort, SORT, sql.fragment`s.id`),
    page: query,
  });
}

/**
 * Creates a server in `clusterId` on `tx` (the request's transaction) and, for a server that runs its game's default
 * start command, accepts its INSTALL job at once (docs/installs-and-backups.md).
 */
export async function createServer(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  body: z.output<typeof createServerBody>,
): Promise<{ server: Server; installJobId: string | null }> {
  const machine = await tx.maybeOne(sql.type(z.object({ clusterId: z.string(), agentVersion: z.string().nullable() }))`
    SELECT cluster_id AS "clusterId", agent_version AS "agentVersion" FROM machines WHERE id = ${body.machineId} FOR SHARE`);
  if (machine?.clusterId !== clusterId) throw validationFailed([{ field: 'machineId', message: 'no such machine in this cluster' }]);
  const tooOld = agentVersionIssues(machine.agentVersion, body);
  if (tooOld.length > 0) throw validationFailed(tooOld);
  const template = await serverTemplate(tx, clusterId, body.gameType as GameType, body.templateId ?? null);
  const values = template ? checkVariables(template.document, body.variables ?? {}) : noVariables(body.variables);
  if (template) requireVariables(template.document, { ...values.plain, ...values.secret });
  await lockMachinePorts(tx, body.machineId);
  const allocations = await assignPorts(tx, {
    machineId: body.machineId,
    serverId: null,
    plan: planOf(body.gameType, body.queryProtocol, template),
    requested: { ...body.ports, game: body.gamePort, query: body.queryPort, rcon: body.rconPort },
  });
  const readyIssues = readyPortIssues(body.ready, allocations);
  if (readyIssues.length > 0) throw validationFailed(readyIssues);
  const [gamePort, queryPort, rconPort] = [portOf(allocations, 'game'), portOf(allocations, 'query'), portOf(allocations, 'rcon')];
  const serverId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players,
                         auto_restart, start_command, env, memory_limit_mb, cpu_limit_percent, rcon_password,
                         version, accept_eula, install_command, backup_retention, ready, console_mode, stop,
                         template_id, template_version, variables, secret_variables,
                         query_protocol, unresponsive_after, restart_when_unresponsive)
    VALUES (${clusterId}, ${body.machineId}, ${body.name}, ${body.gameType}, ${gamePort}, ${queryPort}, ${rconPort},
            ${body.maxPlayers ?? template?.document.defaultMaxPlayers ?? DEFAULT_MAX_PLAYERS[body.gameType as GameType]}, ${body.autoRestart ?? true},
            ${body.startCommand ?? null}, ${body.env ? sql.jsonb(body.env) : null}, ${body.memoryLimitMb ?? null}, ${body.cpuLimitPercent ?? null},
            ${body.rconPassword ?? generateRconPassword()},
            ${body.version ?? null}, ${body.acceptEula ?? false}, ${body.installCommand ?? null}, ${body.backupRetention ?? 5},
            ${jsonOrNull(body.ready)}, ${body.consoleMode ?? null}, ${jsonOrNull(body.stop)},
            ${template?.id ?? null}, ${template?.document.version ?? null}, ${sql.jsonb(values.plain)}, ${sql.jsonb(values.secret)},
            ${body.queryProtocol ?? null}, ${body.unresponsiveAfter ?? 5}, ${body.restartWhenUnresponsive ?? false})
    RETURNING id`);
  await claimPorts(tx, serverId, body.machineId, allocations);
  await notifyAgent(tx, { type: 'servers_changed', machineId: body.machineId });
  await recordAudit(tx, origin, { clusterId, action: 'server.create', target: { type: 'server', id: serverId } });
  let installJobId: string | null = null;
  if (body.autoInstall ?? (!body.startCommand && (body.gameType !== 'CUSTOM' || (template?.document.install?.steps.length ?? 0) > 0))) {
    // The same refusal as an INSTALL of the server would meet: the whole creation is undone with it.
    await requireMachineTools(tx, serverId, 'INSTALL', { atCreate: true });
    const install = await acceptServerJob(tx, origin, {
      serverId,
      type: 'INSTALL',
      params: { version: body.version ?? null },
      desired: null,
      requireRunning: false,
      audit: { action: 'server.install' },
    });
    installJobId = install.id;
  }
  return { server: await getServer(tx, serverId), installJobId };
}

/** Changes a server of `clusterId` on `tx` (the request's transaction): what the body leaves out stays as it is. */
export async function updateServer(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  serverId: string,
  body: z.output<typeof updateServerBody>,
): Promise<Server> {
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
      ready: z.object({ mode: z.string(), port: z.number().optional() }).nullable(),
      agentVersion: z.string().nullable(),
      templateId: z.string().nullable(),
      variables: z.record(z.string(), z.string()),
      secretVariables: z.record(z.string(), z.string()),
      queryProtocol: z.string().nullable(),
      status: z.string(),
      desiredStatus: z.string(),
    }),
  )`
    SELECT status, desired_status AS "desiredStatus", template_id AS "templateId", variables, secret_variables AS "secretVariables", machine_id AS "machineId", game_type AS "gameType", game_port AS "gamePort", query_port AS "queryPort",
           rcon_port AS "rconPort", start_command AS "startCommand", console_mode AS "consoleMode", stop, ready,
           query_protocol AS "queryProtocol",
           (SELECT agent_version FROM machines WHERE machines.id = servers.machine_id) AS "agentVersion"
      FROM servers WHERE id = ${serverId} FOR UPDATE`);
  const seedPorts = {
    gamePort: body.gamePort ?? current.gamePort,
    queryPort: body.queryPort ?? current.queryPort,
    rconPort: body.rconPort ?? current.rconPort,
  };
  if (new Set(Object.values(seedPorts)).size !== 3) {
    const fields = (['gamePort', 'queryPort', 'rconPort'] as const).filter((field) => body[field] !== undefined);
    throw validationFailed(fields.map((field) => ({ field, message: 'the game, query and RCON ports of a server must differ' })));
  }
  // Whether a process of it runs (or may: UNKNOWN but meant to run). It holds its ports, and goes on running its old
  // template: which version of a new one it runs is unknown (null) until its next start, when its agent reports it.
  const holdsRun = PORTS_HELD.has(current.status) || (current.status === 'UNKNOWN' && current.desiredStatus === 'RUNNING');
  // A new template (or none: null, the game type's built-in again), then the variables against it: values of the old
  // template's variables that the new one also has are kept.
  const templateChanges = body.templateId !== undefined;
  const template = await serverTemplate(tx, clusterId, current.gameType as GameType, templateChanges ? body.templateId! : current.templateId, !templateChanges);
  const queryProtocol = body.queryProtocol === undefined ? current.queryProtocol : body.queryProtocol;
  // A new template brings its own ports: those of the old one it does not declare are given up, its new ones picked.
  const portsAsked = templateChanges || body.gamePort !== undefined || body.queryPort !== undefined || body.rconPort !== undefined || body.ports !== undefined;
  let allocations: Allocation[] | undefined;
  if (portsAsked) {
    await lockMachinePorts(tx, current.machineId);
    const held = await serverAllocations(tx, serverId);
    const plan = planOf(current.gameType, queryProtocol, template);
    // An extra port not in the body and not of its template (or game) is given up; the plan's extras are kept (or picked).
    const kept = Object.fromEntries(Object.entries(held).filter(([name]) => plan.ports.some((port) => port.name === name) || body.ports?.[name] !== undefined));
    allocations = await assignPorts(tx, {
      machineId: current.machineId,
      serverId,
      plan,
      requested: { ...body.ports, game: body.gamePort, query: body.queryPort, rcon: body.rconPort },
      current: body.ports === undefined && !templateChanges ? held : kept,
      // Without `ports` in the body, the server's own extras (a CUSTOM server's) are kept, not given up.
      extras: body.ports === undefined && !templateChanges ? Object.keys(held) : [],
    });
    // A running server's process holds its ports: they move only while it is stopped (its run keeps what it started with).
    const moved =
      allocations.some((allocation) => held[allocation.name] !== allocation.port) ||
      Object.keys(held).some((name) => !allocations!.some((allocation) => allocation.name === name));
    if (moved && holdsRun) throw new AppError(409, `The server is ${current.status}: stop it before changing its ports (its process holds them while it runs)`);
  }
  const ports = allocations
    ? { gamePort: portOf(allocations, 'game'), queryPort: portOf(allocations, 'query'), rconPort: portOf(allocations, 'rcon') }
    : seedPorts;
  const startCommand = body.startCommand === undefined ? current.startCommand : body.startCommand;
  const merged = Object.fromEntries(
    Object.entries({ ...current.variables, ...current.secretVariables, ...(body.variables ?? {}) }).filter(
      ([name, value]) => value !== '' && (!templateChanges || template?.document.variables.some((variable) => variable.name === name)),
    ),
  );
  if (body.variables) {
    if (template) checkVariables(template.document, body.variables);
    else noVariables(body.variables);
  }
  const values = template ? checkVariables(template.document, merged) : { plain: {}, secret: {} };
  // A value stored as a secret stays one, even when a new template declares its variable plain: it is never shown.
  for (const name of Object.keys(current.secretVariables))
    if (name in values.plain && body.variables?.[name] === undefined) {
      values.secret[name] = values.plain[name]!;
      delete values.plain[name];
    }
  if (template) requireVariables(template.document, merged);
  if (current.gameType === 'CUSTOM' && !startCommand && !template) throw validationFailed([{ field: 'startCommand', message: 'required for CUSTOM servers' }]);
  // The ready port is checked against the ports when either changes: a PATCH of anything else is not refused over
  // a setting it does not touch.
  const portsChange = body.ready !== undefined || body.gamePort !== undefined || body.queryPort !== undefined || body.rconPort !== undefined;
  const behaviour = behaviourIssues(current.gameType, {
    ...(portsChange ? ports : {}),
    ready: body.ready === undefined ? current.ready : body.ready,
    consoleMode: body.consoleMode === undefined ? current.consoleMode : body.consoleMode,
    stop: body.stop === undefined ? current.stop : body.stop,
  });
  if (behaviour.length > 0) throw validationFailed(behaviour);
  const tooOld = agentVersionIssues(current.agentVersion, body);
  if (tooOld.length > 0) throw validationFailed(tooOld);
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
      template_id = ${template?.id ?? null},
      template_version = ${
        templateChanges && (template?.id ?? null) !== current.templateId
          ? holdsRun
            ? null
            : (template?.document.version ?? null)
          : sql.fragment`template_version`
      },
      variables = ${sql.jsonb(values.plain)}, secret_variables = ${sql.jsonb(values.secret)},
      query_protocol = ${queryProtocol},
      unresponsive_after = ${body.unresponsiveAfter ?? sql.fragment`unresponsive_after`},
      restart_when_unresponsive = ${body.restartWhenUnresponsive ?? sql.fragment`restart_when_unresponsive`},
      -- A server no longer queried keeps no query state.
      query = ${queryProtocol === 'NONE' ? null : sql.fragment`query`},
      updated_at = now()
     WHERE id = ${serverId}`);
  if (allocations) await claimPorts(tx, serverId, current.machineId, allocations);
  await notifyAgent(tx, { type: 'servers_changed', machineId: current.machineId });
  await recordAudit(tx, origin, { clusterId, action: 'server.update', target: { type: 'server', id: serverId } });
  return getServer(tx, serverId);
}

/**
 * The template a server of `clusterId` runs: `templateId` (a built-in, or one of the cluster's own: else 400), or for
 * null the built-in of its game type (none for CUSTOM). It must report the server's game type and run on Linux.
 * `stored`: the id is the server's already (a deleted one is then no template rather than a 400).
 */
async function serverTemplate(
  tx: CommonQueryMethods,
  clusterId: string,
  gameType: GameType,
  templateId: string | null,
  stored = false,
): Promise<FoundTemplate | undefined> {
  const id = templateId ?? GAME_TYPE_TEMPLATES[gameType];
  if (id === undefined) return undefined;
  const template = await findTemplate(tx, [clusterId], id);
  if (!template) {
    if (stored) return undefined;
    throw validationFailed([{ field: 'templateId', message: `no template ${id} (GET /api/v1/templates lists them)` }]);
  }
  if (stored) return template;
  if (template.document.gameType !== gameType)
    throw validationFailed([{ field: 'templateId', message: `${id} is a ${template.document.gameType} template; this server's gameType is ${gameType}` }]);
  if (!template.document.platforms.includes('linux'))
    throw validationFailed([{ field: 'templateId', message: `${id} runs only on ${template.document.platforms.join(', ')}; agents run Linux` }]);
  return template;
}

/** Variables for a server without a template: none may be given. */
function noVariables(values: Record<string, string> | undefined): { plain: Record<string, string>; secret: Record<string, string> } {
  const names = Object.keys(values ?? {});
  if (names.length > 0) throw validationFailed(names.map((name) => ({ field: `variables.${name}`, message: 'the server has no template with variables' })));
  return { plain: {}, secret: {} };
}

/** Deletes a server of `clusterId` on `tx` (the request's transaction), with its jobs that have not ended (cancelled). */
export async function deleteServer(tx: CommonQueryMethods, origin: Origin, clusterId: string, serverId: string): Promise<void> {
  // Its jobs that have not ended can no longer be run.
  await cancelServerJobs(tx, [serverId]);
  const machineId = await tx.oneFirst(sql.type(z.object({ machineId: z.string() }))`
    DELETE FROM servers WHERE id = ${serverId} RETURNING machine_id AS "machineId"`);
  // Its agent removes its files only on this explicit word (servers:sync's `deleted`).
  await tx.query(sql.unsafe`INSERT INTO deleted_servers (id, machine_id) VALUES (${serverId}, ${machineId}) ON CONFLICT (id) DO NOTHING`);
  await notifyAgent(tx, { type: 'servers_changed', machineId });
  await recordAudit(tx, origin, { clusterId, action: 'server.delete', target: { type: 'server', id: serverId } });
}

/** The server's port plan as it stands (a transfer picks its ports on the target machine by it). */
export async function serverPortPlan(tx: CommonQueryMethods, serverId: string) {
  const row = await tx.one(
    sql.type(z.object({ clusterId: z.string(), gameType: z.string(), templateId: z.string().nullable(), queryProtocol: z.string().nullable() }))`
      SELECT cluster_id AS "clusterId", game_type AS "gameType", template_id AS "templateId", query_protocol AS "queryProtocol" FROM servers WHERE id = ${serverId}`,
  );
  const template = await serverTemplate(tx, row.clusterId, row.gameType as GameType, row.templateId, true);
  return planOf(row.gameType, row.queryProtocol, template);
}
