/**
 * What a cluster's staff write about a player (flags, notes, purchases) and the kick (a KICK job to the server the
 * player is on). Each change records an audit entry in the change's transaction.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict } from '../../schema/errors.ts';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { playerPatchAnswer, purchase, type playerPatch, type purchaseBody } from '../../schema/players.ts';
import { recordAudit } from '../audit.ts';
import { createJob } from '../jobs/store.ts';
import { findPlayer, type PlayerRef } from './store.ts';

/** Replaces the player's flags and/or adds a note written by `userId`. */
export async function updatePlayer(
  tx: CommonQueryMethods,
  origin: Origin,
  change: { playerId: string; userId: string; body: z.output<typeof playerPatch> },
): Promise<z.output<typeof playerPatchAnswer>> {
  const { playerId, userId, body } = change;
  const player = await findPlayer(tx, playerId, true);
  if (body.notes !== undefined) {
    await tx.query(sql.unsafe`INSERT INTO player_notes (player_id, content, created_by) VALUES (${playerId}, ${body.notes}, ${userId})`);
  }
  const answer = await tx.one(sql.type(playerPatchAnswer)`
    UPDATE players SET flags = ${body.flags ? sql.array(body.flags, 'text') : sql.fragment`flags`}, updated_at = now()
     WHERE id = ${playerId} RETURNING id, flags, updated_at AS "updatedAt"`);
  const action = body.flags && body.notes !== undefined ? 'player.update' : body.flags ? 'player.flags' : 'player.note';
  await recordAudit(tx, origin, { clusterId: player.clusterId, action, target: { type: 'player', id: playerId } });
  return answer;
}

/** Records a purchase by the player, entered by `userId`. */
export async function addPurchase(
  tx: CommonQueryMethods,
  origin: Origin,
  entry: { playerId: string; userId: string; body: z.output<typeof purchaseBody> },
): Promise<z.output<typeof purchase>> {
  const { playerId, userId, body } = entry;
  const player = await findPlayer(tx, playerId);
  const created = await tx.one(sql.type(purchase)`
    INSERT INTO player_purchases (player_id, product_name, amount, currency, created_by)
    VALUES (${playerId}, ${body.productName}, ${body.amount}, ${body.currency}, ${userId})
    RETURNING id, product_name AS "productName", amount::float8 AS amount, currency, created_at AS "createdAt"`);
  await recordAudit(tx, origin, { clusterId: player.clusterId, action: 'purchase.create', target: { type: 'player', id: playerId } });
  return created;
}

/**
 * Accepts a KICK job for the player on `serverId` (default: the server it is on); 409 when the player is not on it.
 */
export async function requestKick(
  tx: CommonQueryMethods,
  origin: Origin,
  playerId: string,
  request: { serverId?: string | undefined; reason: string },
): Promise<{ job: Job; player: PlayerRef; server: { machineId: string; name: string } }> {
  const player = await findPlayer(tx, playerId);
  const target = request.serverId ?? player.currentServerId;
  if (!target) throw conflict('The player is not online');
  const server = await tx.maybeOne(sql.type(z.object({ machineId: z.string(), name: z.string() }))`
    SELECT sv.machine_id AS "machineId", sv.name FROM servers sv
     WHERE sv.id = ${target} AND sv.cluster_id = ${player.clusterId}
       AND EXISTS (SELECT 1 FROM player_sessions s WHERE s.server_id = sv.id AND s.player_id = ${player.id} AND s.left_at IS NULL)`);
  if (!server) throw conflict('The player is not on that server');
  const job = await createJob(tx, origin, {
    clusterId: player.clusterId,
    serverId: target,
    machineId: server.machineId,
    playerId: player.id,
    type: 'KICK',
    params: { steamId: player.steamId, username: player.username, reason: request.reason },
  });
  await recordAudit(tx, origin, { clusterId: player.clusterId, action: 'player.kick', target: { type: 'player', id: player.id } });
  return { job, player, server };
}
