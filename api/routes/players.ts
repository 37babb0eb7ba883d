/**
 * Players (docs/api.md and docs/access.md): lists, detail, sessions, a server's online players, statistics,
 * flags and notes, purchases, kicks and bans. Reading needs membership; moderation needs `players.moderate`
 * (OWNER, ADMIN, MODERATOR). Kicks and bans reach the game through durable jobs.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { notFound } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import {
  ban,
  banAnswer,
  banBody,
  banListQuery,
  kickAnswer,
  kickBody,
  moderationWait,
  playerDetail,
  playerListItem,
  playerListQuery,
  playerPatch,
  playerPatchAnswer,
  playerStats,
  purchase,
  purchaseBody,
  serverPlayers,
  session,
  sessionListQuery,
  unbanPlayerAnswer,
} from '../../schema/players.ts';
import { principalOf } from '../identity/principal.ts';
import { getJob } from '../../orchestrator/jobs/store.ts';
import { findPlayer, playerDetailOf, playerListPage, playerStatsOf, serverPlayersOf, sessionPage } from '../../orchestrator/players/store.ts';
import { banPage, createBan, getBan, revokeBan, revokePlayerBans } from '../../orchestrator/players/bans.ts';
import { originOf } from '../identity/origin.ts';
import { addPurchase, requestKick, updatePlayer } from '../../orchestrator/players/records.ts';

/** How long a kick waits for the game by default (`?wait=` overrides). */
const KICK_DEFAULT_WAIT_S = 10;

const playerParams = z.object({ id });

export function installPlayerRoutes(api: Api, deps: AppDeps) {
  const { pool, jobWaiters } = deps;
  const byBan = clusterOfParam(pool.reads, 'bans');

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/players',
    summary: "A cluster's players",
    description:
      '`search`: part of the username or platform id, any case. `online`, `serverId` (players who have played there; with `online=true`, who are on it now). ' +
      '`sort`: `playtime`, `lastSeen` (default `-lastSeen`), `firstSeen`, `username`, each with `-` for descending; sorting by playtime uses completed sessions.',
    tags: ['Players'],
    auth: 'user',
    params: clusterIdParams,
    query: playerListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Players', schema: listOf(playerListItem) } },
    handler: (_ctx, { params, query }) => playerListPage(pool, params.clusterId, { ...query, page: query }),
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/players/stats',
    summary: 'Player statistics',
    description:
      'Rolling windows: today = last 24 h, week = 7 days, month = 30 days. `active`: distinct players with a session overlapping the window; ' +
      '`new`: first seen in it; `topPlayers`: 10 by playtime; `retention.dayN`: of players first seen between N+30 and N days ago, ' +
      'the fraction with a session starting at least N days after their first session (0 when there are none).',
    tags: ['Players'],
    auth: 'user',
    params: clusterIdParams,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Statistics', schema: playerStats } },
    handler: (_ctx, { params }) => playerStatsOf(pool, params.clusterId),
  });

  api.route({
    method: 'get',
    path: '/api/v1/players/:id',
    summary: 'Get a player',
    description: 'The list fields plus `discordId`, the newest 100 sessions, purchases and notes (newest first).',
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    permission: { action: 'cluster.read', player: { param: 'id' } },
    responses: { 200: { description: 'The player', schema: playerDetail } },
    handler: (_ctx, { params }) => playerDetailOf(pool, params.id),
  });

  api.route({
    method: 'get',
    path: '/api/v1/players/:id/sessions',
    summary: "A player's sessions",
    description: 'Newest first, paginated.',
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    query: sessionListQuery,
    permission: { action: 'cluster.read', player: { param: 'id' } },
    responses: { 200: { description: 'Sessions', schema: listOf(session) } },
    handler: (_ctx, { params, query }) => sessionPage(pool, params.id, query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/players',
    summary: 'Who is on a server',
    tags: ['Players'],
    auth: 'user',
    params: z.object({ id }),
    permission: { action: 'cluster.read', cluster: clusterOfParam(pool.reads, 'servers') },
    responses: { 200: { description: 'Online players', schema: serverPlayers } },
    handler: (_ctx, { params }) => serverPlayersOf(pool, params.id),
  });

  api.route({
    method: 'patch',
    path: '/api/v1/players/:id',
    summary: "Update a player's flags or add a note",
    description: '`flags` replaces the set (≤ 20, each 1..32 of `[A-Za-z0-9_-]`); `notes` (1..2000 characters) adds a note by the caller.',
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    body: playerPatch,
    permission: { action: 'players.moderate', player: { param: 'id' } },
    responses: { 200: { description: 'The player', schema: playerPatchAnswer } },
    handler: (ctx, { params, body }) =>
      pool.transaction((tx) => updatePlayer(tx, originOf(ctx), { playerId: params.id, userId: principalOf(ctx).user.id, body })),
  });

  api.route({
    method: 'post',
    path: '/api/v1/players/:id/purchases',
    summary: 'Record a purchase',
    description: 'For store integrations: `{ productName, amount, currency? }` (ISO 4217, default USD; amounts to 4 decimal places).',
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    body: purchaseBody,
    permission: { action: 'players.moderate', player: { param: 'id' } },
    status: 201,
    responses: { 201: { description: 'The purchase', schema: purchase } },
    handler: (ctx, { params, body }) =>
      pool.transaction((tx) => addPurchase(tx, originOf(ctx), { playerId: params.id, userId: principalOf(ctx).user.id, body })),
  });

  api.route({
    method: 'post',
    path: '/api/v1/players/:id/kick',
    summary: 'Kick a player',
    description:
      `\`{ serverId?, reason? }\` — the server defaults to the one the player is on; 409 when the player is not on it. A KICK job; the answer waits up to ${KICK_DEFAULT_WAIT_S} s ` +
      '(`?wait=` overrides) for the game: 200 `{ success, message, jobId, status }` when done, 202 with `success: false` while it is still on its way.',
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    query: moderationWait,
    body: kickBody,
    permission: { action: 'players.moderate', player: { param: 'id' } },
    responses: {
      200: { description: 'Done', schema: kickAnswer },
      202: { description: 'Still on its way', schema: kickAnswer },
      409: { description: 'The player is not on that server' },
    },
    handler: async (ctx, { params, query, body }) => {
      const created = await pool.transaction((tx) => requestKick(tx, originOf(ctx), params.id, body));
      const wait = query.wait ?? KICK_DEFAULT_WAIT_S;
      if (wait > 0) await jobWaiters.waitForEnd(created.job.id, wait * 1000);
      const current = wait > 0 ? await getJob(pool.reads, created.job.id) : created.job;
      ctx.set('Location', `/api/v1/jobs/${current.id}`);
      ctx.status = current.finishedAt ? 200 : 202;
      const message =
        current.status === 'SUCCEEDED'
          ? `Kicked ${created.player.username} from ${created.server.name}`
          : current.finishedAt
            ? `The kick failed: ${current.error?.message ?? current.status}`
            : `The kick is on its way (${current.status}); follow the job`;
      ctx.body = { success: current.status === 'SUCCEEDED', message, jobId: current.id, status: current.status };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/players/:id/ban',
    summary: 'Ban a player',
    description:
      '`{ serverId, reason?, duration? (seconds; null = permanent), clusterWide? }` — `serverId` unless `clusterWide`. Writes the ban, kicks the player ' +
      "wherever it applies and pushes it to the game's own ban list (one BAN job per server, `jobIds`). A banned player who joins is kicked at once; " +
      'a cluster-wide ban also covers servers added later. Expiry lifts it automatically.',
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    body: banBody,
    permission: { action: 'players.moderate', player: { param: 'id' } },
    status: 201,
    responses: { 201: { description: 'The ban and its jobs', schema: banAnswer } },
    handler: (ctx, { params, body }) =>
      pool.transaction(async (tx) => {
        const player = await findPlayer(tx, params.id, true);
        const { ban: created, jobIds } = await createBan(tx, originOf(ctx), player, body);
        return { success: true, ban: created, jobIds };
      }),
  });

  api.route({
    method: 'post',
    path: '/api/v1/players/:id/unban',
    summary: 'Unban a player',
    description:
      'Revokes every active ban of the player (on one server or cluster-wide), as `DELETE /api/v1/bans/<id>` does for each: the records stay, ' +
      "with `revokedAt`, and the games' own ban lists are lifted at once (UNBAN jobs, `jobIds`). 409 when the player has no active ban.",
    tags: ['Players'],
    auth: 'user',
    params: playerParams,
    permission: { action: 'players.moderate', player: { param: 'id' } },
    responses: { 200: { description: 'The bans revoked and their jobs', schema: unbanPlayerAnswer }, 409: { description: 'The player has no active ban' } },
    handler: (ctx, { params }) =>
      pool.transaction(async (tx) => {
        const player = await findPlayer(tx, params.id, true);
        const { bans, jobIds } = await revokePlayerBans(tx, originOf(ctx), player.id);
        return { success: true, message: bans.length === 1 ? 'Removed 1 ban' : `Removed ${bans.length} bans`, bans, jobIds };
      }),
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/bans',
    summary: "A cluster's bans",
    description: 'Filters: `playerId`, `serverId` (bans that apply there: its own and cluster-wide ones), `active`. Newest first by default.',
    tags: ['Players'],
    auth: 'user',
    params: clusterIdParams,
    query: banListQuery,
    permission: { action: 'cluster.read', cluster: 'clusterId' },
    responses: { 200: { description: 'Bans', schema: listOf(ban) } },
    handler: (_ctx, { params, query }) => banPage(pool, params.clusterId, query),
  });

  api.route({
    method: 'get',
    path: '/api/v1/bans/:id',
    summary: 'Get a ban',
    tags: ['Players'],
    auth: 'user',
    params: z.object({ id }),
    permission: { action: 'cluster.read', cluster: byBan },
    responses: { 200: { description: 'The ban', schema: ban } },
    handler: async (_ctx, { params }) => (await getBan(pool, params.id)) ?? Promise.reject(notFound('Ban not found')),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/bans/:id',
    summary: 'Remove a ban',
    description:
      'Revokes the ban (the record stays, with `revokedAt`) and lifts it in the games at once (UNBAN jobs, `jobIds`). 409 when it is no longer active.',
    tags: ['Players'],
    auth: 'user',
    params: z.object({ id }),
    permission: { action: 'players.moderate', cluster: byBan },
    responses: {
      200: { description: 'Removed', schema: z.object({ success: z.boolean(), message: z.string(), jobIds: z.array(z.string()) }) },
      409: { description: 'The ban is not active' },
    },
    handler: (ctx, { params }) =>
      pool.transaction(async (tx) => ({ success: true, message: 'The ban has been removed', jobIds: await revokeBan(tx, originOf(ctx), params.id) })),
  });
}
