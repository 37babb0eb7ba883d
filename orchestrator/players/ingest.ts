/**
 * Player reports from agents (`player:join`, `player:leave`, `players:snapshot`) into players and sessions, and ban
 * enforcement on join. The rules that make duplicates and reordering harmless live in the SQL functions of migration
 * 000007; here each report becomes one call, in one transaction with the kicks it causes. Report times are clamped to
 * the service's clock, so an agent whose clock runs ahead cannot create sessions in the future.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { playerEvent, playersSnapshotEvent } from '../../schema/agentEvents.ts';
import { createJob } from '../jobs/store.ts';
import { activeBanOn } from './bans.ts';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';
import { createTurns } from './turns.ts';

type PlayerReport = z.infer<typeof playerEvent>;
type SnapshotReport = z.infer<typeof playersSnapshotEvent>;

const clamp = (at: string) => new Date(Math.min(Date.parse(at), Date.now())).toISOString();
const ping = (value: number | undefined) => (value === undefined ? null : Math.min(Math.round(value), 2_147_483_647));

const serverRow = z.object({ clusterId: z.string(), machineId: z.string() });

/** The server, when it is on this machine. */
const serverOn = (connection: CommonQueryMethods, machineId: string, serverId: string) =>
  connection.maybeOne(sql.type(serverRow)`
    SELECT cluster_id AS "clusterId", machine_id AS "machineId" FROM servers WHERE id = ${serverId} AND machine_id = ${machineId}`);

/** Kicks a banned player off a server, with the ban's reason (a SYSTEM job). Answers the job id, or null. */
async function enforceBan(
  tx: CommonQueryMethods,
  server: z.infer<typeof serverRow> & { id: string },
  player: { id: string; steamId: string; username: string },
) {
  const ban = await activeBanOn(tx, player.id, server.id);
  if (!ban) return null;
  // One kick at a time: a snapshot right after the join must not queue a second one.
  const pending = await tx.exists(sql.unsafe`
    SELECT 1 FROM jobs WHERE server_id = ${server.id} AND player_id = ${player.id} AND type = 'KICK' AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
  if (pending) return null;
  const kick = await createJob(tx, SYSTEM_ORIGIN, {
    clusterId: server.clusterId,
    serverId: server.id,
    machineId: server.machineId,
    playerId: player.id,
    type: 'KICK',
    params: { steamId: player.steamId, username: player.username, reason: ban.reason || 'You are banned from this server', banId: ban.id },
  });
  return kick.id;
}

export type PlayerIngest = ReturnType<typeof createPlayerIngest>;
export type PlayerEvent = { kind: 'join' | 'leave'; report: PlayerReport };

/**
 * Player report transactions at once per gateway process; more wait their turn (each agent's reports keep queueing
 * into its next batch meanwhile). More at once only make the transactions contend: with 10 at once Postgres spent
 * about 300 µs of CPU per report on the 2-core benchmark machine, with 2 about 280. Agents take turns weighted by the
 * reports they store (turns.ts), so agents flooding 1,000-player snapshots cannot push another agent's join (and the
 * kick of a banned player) back.
 */
export const INGEST_CONCURRENCY = 2;

export function createPlayerIngest(pool: DatabasePool, options: { concurrency?: number } = {}) {
  const turns = createTurns(options.concurrency ?? INGEST_CONCURRENCY);
  return {
    /**
     * Applies joins and leaves in order, in one transaction and one call (the gateway batches them under load), then
     * kicks whoever joined while banned. Answers per event whether its server is on this machine (false: refused).
     */
    async events(machineId: string, events: readonly PlayerEvent[]): Promise<boolean[]> {
      return turns.run(machineId, events.length, () =>
        pool.transaction(async (tx) => {
          const serverIds = [...new Set(events.map((event) => event.report.serverId))];
          const servers = new Map(
            (
              await tx.any(sql.type(serverRow.extend({ id: z.string() }))`
            SELECT id, cluster_id AS "clusterId", machine_id AS "machineId" FROM servers
             WHERE id = ANY (${sql.array(serverIds, 'uuid')}) AND machine_id = ${machineId}`)
            ).map((server) => [server.id, server]),
          );
          const known = events.map((event) => servers.has(event.report.serverId));
          const applied = events.filter((_event, index) => known[index]);
          if (applied.length === 0) return known;
          const payload = applied.map(({ kind, report }) => ({
            serverId: report.serverId,
            kind,
            steamId: report.steamId,
            username: report.username,
            at: clamp(report.at),
            ping: ping(report.ping),
          }));
          const ids = await tx.oneFirst(sql.type(z.object({ ids: z.array(z.string().nullable()) }))`
          SELECT gsm_player_events(${sql.jsonb(payload)}) AS ids`);
          // Joins that were applied, by players with an active ban on that server.
          const joins = applied.flatMap((event, index) =>
            event.kind === 'join' && ids[index] ? [{ playerId: ids[index]!, serverId: event.report.serverId }] : [],
          );
          if (joins.length === 0) return known;
          const banned = await tx.any(sql.type(z.object({ id: z.string(), serverId: z.string(), steamId: z.string(), username: z.string() }))`
          SELECT DISTINCT p.id, j.server_id AS "serverId", p.steam_id AS "steamId", p.username
            FROM unnest(${sql.array(
              joins.map((join) => join.playerId),
              'uuid',
            )}, ${sql.array(
              joins.map((join) => join.serverId),
              'uuid',
            )}) AS j (player_id, server_id)
            JOIN players p ON p.id = j.player_id
           WHERE EXISTS (SELECT 1 FROM bans b WHERE b.player_id = j.player_id AND b.revoked_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > now())
                                               AND (b.cluster_wide OR b.server_id = j.server_id))`);
          for (const player of banned) await enforceBan(tx, { ...servers.get(player.serverId)!, id: player.serverId }, player);
          return known;
        }),
      );
    },
    /** Applies a snapshot (the truth for its server); banned players in it are kicked. */
    async snapshot(machineId: string, report: SnapshotReport): Promise<boolean> {
      return turns.run(machineId, Math.max(1, report.players.length), () =>
        pool.transaction(async (tx) => {
          const server = await serverOn(tx, machineId, report.serverId);
          if (!server) return false;
          const players = report.players.map((player) => ({ steamId: player.steamId, username: player.username, ping: ping(player.ping) }));
          const ids = await tx.oneFirst(sql.type(z.object({ ids: z.array(z.string()) }))`
          SELECT gsm_players_snapshot(${report.serverId}, ${sql.jsonb(players)}, ${clamp(report.at)}) AS ids`);
          if (ids.length === 0) return true;
          const banned = await tx.any(sql.type(z.object({ id: z.string(), steamId: z.string(), username: z.string() }))`
          SELECT p.id, p.steam_id AS "steamId", p.username FROM players p
           WHERE p.id = ANY (${sql.array(ids, 'uuid')})
             AND EXISTS (SELECT 1 FROM bans b WHERE b.player_id = p.id AND b.revoked_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > now())
                                                AND (b.cluster_wide OR b.server_id = ${report.serverId}))`);
          for (const player of banned) await enforceBan(tx, { ...server, id: report.serverId }, player);
          return true;
        }),
      );
    },
  };
}
