/**
 * Bans (docs/api.md). A ban applies to one server or, `clusterWide`, to every server of the cluster, present
 * and future. Writing one pushes it to the game's own ban list on each server it applies to (BAN jobs, which also kick
 * the player); a player who joins a server while banned there is kicked at once by the service (players/ingest.ts), so
 * servers created later and servers that were offline are covered too. Expiry is a graphile-worker job at `expiresAt`
 * (job key per ban); revoking lifts it at once. Lifting sends UNBAN only to servers where no other active ban of the
 * player still applies.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { badRequest, conflict, notFound } from '../../schema/errors.ts';
import { recordAudit } from '../audit.ts';
import { SYSTEM_ORIGIN, type Origin } from '../../schema/origin.ts';
import { createJob, type JobCreator } from '../jobs/store.ts';
import { moveQueuedJobs } from '../jobs/delivery.ts';
import { ban as banSchema, type banListQuery } from '../../schema/players.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import type { PlayerRef } from './store.ts';

export const BAN_EXPIRE_TASK = 'bans__expire';
/** BAN and UNBAN jobs wait this long for an absent agent (power jobs: 10 minutes). */
const MODERATION_TTL_MS = 24 * 3_600_000;

export const BAN_COLUMNS = sql.fragment`
  b.id, b.player_id AS "playerId", b.cluster_id AS "clusterId", b.server_id AS "serverId", b.reason, b.cluster_wide AS "clusterWide",
  b.expires_at AS "expiresAt", b.created_by AS "createdBy", b.created_at AS "createdAt", b.revoked_at AS "revokedAt",
  (b.revoked_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > now())) AS active,
  (SELECT jsonb_build_object('id', p.id, 'username', p.username, 'steamId', p.steam_id) FROM players p WHERE p.id = b.player_id) AS player,
  (SELECT s.name FROM servers s WHERE s.id = b.server_id) AS "serverName"`;

/** A ban applies to `server` (a column or value) when it is cluster-wide or names it. */
export const ACTIVE_BAN = sql.fragment`b.revoked_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > now())`;

const target = z.object({ id: z.string(), machineId: z.string() });
type Target = z.infer<typeof target>;

export const getBan = (connection: CommonQueryMethods, banId: string) =>
  connection.maybeOne(sql.type(banSchema)`SELECT ${BAN_COLUMNS} FROM bans b WHERE b.id = ${banId}`);

/** The active ban of a player that applies on a server, if any (newest first). */
export const activeBanOn = (connection: CommonQueryMethods, playerId: string, serverId: string) =>
  connection.maybeOne(sql.type(z.object({ id: z.string(), reason: z.string() }))`
    SELECT b.id, b.reason FROM bans b
     WHERE b.player_id = ${playerId} AND ${ACTIVE_BAN} AND (b.cluster_wide OR b.server_id = ${serverId})
     ORDER BY b.created_at DESC LIMIT 1`);

/** The servers a ban applies to today. */
const targetsOf = (connection: CommonQueryMethods, ban: { clusterId: string; serverId: string | null; clusterWide: boolean }) =>
  connection.any(sql.type(target)`
    SELECT id, machine_id AS "machineId" FROM servers
     WHERE cluster_id = ${ban.clusterId} ${ban.clusterWide ? sql.fragment`` : sql.fragment`AND id = ${ban.serverId}`}
     ORDER BY created_at, id`);

type Player = Pick<PlayerRef, 'id' | 'clusterId' | 'steamId' | 'username'>;

async function moderationJobs(
  tx: CommonQueryMethods,
  origin: Origin,
  type: 'BAN' | 'UNBAN',
  player: Player,
  servers: readonly Target[],
  params: Record<string, unknown>,
  createdBy?: JobCreator,
): Promise<string[]> {
  const ids: string[] = [];
  for (const server of servers) {
    const created = await createJob(tx, origin, {
      clusterId: player.clusterId,
      serverId: server.id,
      machineId: server.machineId,
      playerId: player.id,
      type,
      params: { steamId: player.steamId, username: player.username, ...params },
      createdBy,
      // The game's list must follow the ban even when the machine is away for a while.
      ttlMs: MODERATION_TTL_MS,
    });
    ids.push(created.id);
  }
  return ids;
}

export type BanInput = { serverId?: string; reason: string; duration?: number | null; clusterWide: boolean };

/** Writes the ban, its expiry and the BAN jobs, in `tx` (the request's transaction). */
export async function createBan(tx: CommonQueryMethods, origin: Origin, player: Player, input: BanInput) {
  if (input.serverId) {
    const inCluster = await tx.exists(sql.unsafe`SELECT 1 FROM servers WHERE id = ${input.serverId} AND cluster_id = ${player.clusterId}`);
    if (!inCluster) throw badRequest('Validation failed', [{ field: 'serverId', message: "no such server in the player's cluster" }]);
  }
  const createdBy = origin.userId;
  const created = await tx.one(sql.type(banSchema)`
    INSERT INTO bans AS b (cluster_id, player_id, server_id, reason, cluster_wide, expires_at, created_by)
    VALUES (${player.clusterId}, ${player.id}, ${input.clusterWide ? null : input.serverId!}, ${input.reason}, ${input.clusterWide},
            ${input.duration ? sql.fragment`now() + make_interval(secs => ${input.duration})` : null}, ${createdBy})
    RETURNING ${BAN_COLUMNS}`);
  if (created.expiresAt) {
    await tx.query(sql.unsafe`
      SELECT graphile_worker.add_job(${BAN_EXPIRE_TASK}, json_build_object('banId', ${created.id}::text),
                                     run_at => ${created.expiresAt}::timestamptz, job_key => ${`ban:${created.id}`}, max_attempts => 25)`);
  }
  const jobIds = await moderationJobs(tx, origin, 'BAN', player, await targetsOf(tx, created), { reason: input.reason, banId: created.id });
  await recordAudit(tx, origin, { clusterId: player.clusterId, action: 'ban.create', target: { type: 'player', id: player.id } });
  return { ban: created, jobIds };
}

/**
 * UNBAN jobs for the servers the ban applied to, skipping those where another active ban of the player still
 * applies (the game's list must keep the player there).
 */
async function lift(tx: CommonQueryMethods, origin: Origin, banId: string, createdBy?: JobCreator): Promise<string[]> {
  const ban = await tx.one(sql.type(z.object({ playerId: z.string(), clusterId: z.string(), serverId: z.string().nullable(), clusterWide: z.boolean() }))`
    SELECT player_id AS "playerId", cluster_id AS "clusterId", server_id AS "serverId", cluster_wide AS "clusterWide" FROM bans WHERE id = ${banId}`);
  const player = await tx.one(sql.type(z.object({ id: z.string(), clusterId: z.string(), steamId: z.string(), username: z.string() }))`
    SELECT id, cluster_id AS "clusterId", steam_id AS "steamId", username FROM players WHERE id = ${ban.playerId}`);
  const servers = await targetsOf(tx, ban);
  const stillBanned = new Set(
    await tx.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT s.id FROM servers s JOIN bans b ON b.player_id = ${ban.playerId} AND b.id <> ${banId} AND ${ACTIVE_BAN}
                                          AND (b.cluster_wide OR b.server_id = s.id)
       WHERE s.cluster_id = ${ban.clusterId}`),
  );
  await tx.query(sql.unsafe`UPDATE bans SET lifted_at = now() WHERE id = ${banId}`);
  return moderationJobs(
    tx,
    origin,
    'UNBAN',
    player,
    servers.filter((server) => !stillBanned.has(server.id)),
    { banId },
    createdBy,
  );
}

/** `DELETE /bans/<id>`: revokes (the row stays) and lifts it in the games at once. */
/** Ban changes of one player run one after another (each sees the others' outcome when lifting). */
const lockPlayerOfBan = (tx: CommonQueryMethods, banId: string) =>
  tx.query(sql.unsafe`SELECT 1 FROM players WHERE id = (SELECT player_id FROM bans WHERE id = ${banId}) FOR UPDATE`);

export async function revokeBan(tx: CommonQueryMethods, origin: Origin, banId: string) {
  await lockPlayerOfBan(tx, banId);
  const row = await tx.maybeOne(sql.type(z.object({ clusterId: z.string(), playerId: z.string(), revoked: z.boolean(), expired: z.boolean() }))`
    SELECT cluster_id AS "clusterId", player_id AS "playerId", revoked_at IS NOT NULL AS revoked, coalesce(expires_at <= now(), false) AS expired
      FROM bans WHERE id = ${banId} FOR UPDATE`);
  if (!row) throw notFound('Ban not found');
  if (row.revoked) throw conflict('The ban has already been removed');
  if (row.expired) throw conflict('The ban has already expired');
  await tx.query(sql.unsafe`UPDATE bans SET revoked_at = now(), revoked_by = ${origin.userId} WHERE id = ${banId}`);
  await tx.query(sql.unsafe`SELECT graphile_worker.remove_job(${`ban:${banId}`})`);
  const jobIds = await lift(tx, origin, banId);
  await recordAudit(tx, origin, { clusterId: row.clusterId, action: 'ban.revoke', target: { type: 'ban', id: banId } });
  return jobIds;
}

/**
 * `POST /players/<id>/unban`: revokes every active ban of the player (the caller has locked the player), each as
 * `DELETE /bans/<id>` does, so each is audited and gives its `ban.revoked` event; 409 when there is none. Answers the
 * revoked bans and the UNBAN jobs.
 */
export async function revokePlayerBans(tx: CommonQueryMethods, origin: Origin, playerId: string) {
  const banIds = await tx.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT b.id FROM bans b WHERE b.player_id = ${playerId} AND ${ACTIVE_BAN} ORDER BY b.created_at, b.id`);
  if (banIds.length === 0) throw conflict('The player has no active ban');
  const jobIds: string[] = [];
  // One after another: each lift sees the bans still to be revoked and leaves their servers to the last of them.
  for (const banId of banIds) jobIds.push(...(await revokeBan(tx, origin, banId)));
  const bans = await tx.many(sql.type(banSchema)`SELECT ${BAN_COLUMNS} FROM bans b WHERE b.id = ANY(${sql.array(banIds, 'uuid')}) ORDER BY b.created_at, b.id`);
  return { bans, jobIds };
}

/** The expiry task: lifts an expired ban once (a revoked or already lifted one is left alone). */
export async function expireBan(tx: CommonQueryMethods, banId: string): Promise<string[] | null> {
  await lockPlayerOfBan(tx, banId);
  const ban = await tx.maybeOne(sql.type(z.object({ due: z.boolean() }))`
    SELECT expires_at <= now() AS due FROM bans WHERE id = ${banId} AND revoked_at IS NULL AND lifted_at IS NULL AND expires_at IS NOT NULL FOR UPDATE`);
  if (!ban) return null;
  // Run a moment early (clocks): throwing makes graphile-worker try again shortly.
  if (!ban.due) throw new Error(`ban ${banId} has not expired yet`);
  return lift(tx, SYSTEM_ORIGIN, banId);
}

/** One page of a cluster's bans: of a player, those that apply to a server (its own and cluster-wide ones), active or not. */
export function banPage(connection: CommonQueryMethods, clusterId: string, query: z.output<typeof banListQuery>) {
  const filters = [
    sql.fragment`b.cluster_id = ${clusterId}`,
    ...(query.playerId ? [sql.fragment`b.player_id = ${query.playerId}`] : []),
    ...(query.serverId ? [sql.fragment`(b.cluster_wide OR b.server_id = ${query.serverId})`] : []),
    ...(query.active === undefined ? [] : [query.active ? sql.fragment`${ACTIVE_BAN}` : sql.fragment`NOT (${ACTIVE_BAN})`]),
  ];
  return fetchPage(connection, {
    schema: banSchema,
    columns: BAN_COLUMNS,
    from: sql.fragment`bans b WHERE ${sql.join(filters, sql.fragment` AND `)}`,
    order: orderBy(query.sort, { createdAt: sql.fragment`b.created_at`, expiresAt: sql.fragment`b.expires_at` }, sql.fragment`b.id`),
    page: query,
  });
}

/**
 * At a transfer's switch (docs/transfers.md), in its transaction: the server's game ban list on the target must end as
 * the service says. KICK, BAN and UNBAN jobs of the server not yet delivered to the source go to the target instead;
 * the latest BAN or UNBAN of each ban that the source took without applying it to the game (parked on its disk until
 * the server is online, or still under way there) is given again to the target, when it still holds (a BAN of a ban
 * still active, an UNBAN of a player no active ban applies to on the server). Answers the jobs moved and made.
 */
export async function moderationFollowsTransfer(
  tx: CommonQueryMethods,
  input: { serverId: string; sourceMachineId: string; targetMachineId: string },
): Promise<{ moved: readonly string[]; reissued: string[] }> {
  const moved = await moveQueuedJobs(tx, { serverId: input.serverId, from: input.sourceMachineId, to: input.targetMachineId, types: ['KICK', 'BAN', 'UNBAN'] });
  const pending = await tx.any(
    sql.type(
      z.object({
        type: z.enum(['BAN', 'UNBAN']),
        banId: z.string(),
        params: z.record(z.string(), z.unknown()),
        clusterId: z.string(),
        playerId: z.string(),
        stillApplies: z.boolean(),
        parked: z.boolean(),
      }),
    )`
    SELECT DISTINCT ON (j.params->>'banId') j.type, j.params->>'banId' AS "banId", j.params, j.cluster_id AS "clusterId", j.player_id AS "playerId",
           CASE WHEN j.type = 'BAN' THEN EXISTS (SELECT 1 FROM bans b WHERE b.id = (j.params->>'banId')::uuid AND ${ACTIVE_BAN})
                ELSE NOT EXISTS (SELECT 1 FROM bans b WHERE b.player_id = j.player_id AND ${ACTIVE_BAN} AND (b.cluster_wide OR b.server_id = j.server_id))
           END AS "stillApplies",
           (j.status IN ('DISPATCHED', 'RUNNING') OR (j.status = 'SUCCEEDED' AND j.result->>'deferred' = 'true')) AS parked
      FROM jobs j
     WHERE j.server_id = ${input.serverId} AND j.machine_id = ${input.sourceMachineId} AND j.type IN ('BAN', 'UNBAN')
       AND j.player_id IS NOT NULL AND j.params ? 'banId' AND j.status <> 'QUEUED'
     ORDER BY j.params->>'banId', j.created_at DESC, j.id DESC`,
  );
  const reissued: string[] = [];
  for (const job of pending) {
    if (!job.stillApplies || !job.parked) continue;
    const created = await createJob(tx, SYSTEM_ORIGIN, {
      clusterId: job.clusterId,
      serverId: input.serverId,
      machineId: input.targetMachineId,
      playerId: job.playerId,
      type: job.type,
      params: job.params,
      ttlMs: MODERATION_TTL_MS,
    });
    reissued.push(created.id);
  }
  return { moved, reissued };
}
