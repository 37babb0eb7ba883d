/**
 * Players, sessions, notes, purchases, bans and statistics (docs/api.md).
 */
import { z } from 'zod';
import { booleanQuery, id, nameOfAtMost, paginationQuery, sortQuery, timestamp } from './http.ts';
import { JOB_STATUSES } from './jobs.ts';

const noNul = (value: string) => !value.includes('\u0000');

export const currentServer = z.object({ id: z.string(), name: z.string() });

export const playerListItem = z
  .object({
    id: z.string(),
    username: z.string(),
    steamId: z.string().describe('Identifier on a game platform (a Minecraft player: its name or UUID)'),
    uuid: z.string().nullable(),
    playtime: z.int().describe('Seconds played, including the current session'),
    firstSeen: timestamp,
    lastSeen: timestamp,
    online: z.boolean(),
    currentServer: currentServer.nullable(),
    flags: z.array(z.string()),
  })
  .meta({ id: 'Player' });

export const session = z
  .object({
    id: z.string(),
    serverId: z.string(),
    serverName: z.string(),
    joinedAt: timestamp,
    leftAt: timestamp.nullable().describe('Null while the session is open'),
    duration: z.int().describe('Seconds; for an open session, so far'),
  })
  .meta({ id: 'Session' });

export const purchase = z
  .object({ id: z.string(), productName: z.string(), amount: z.number(), currency: z.string(), createdAt: timestamp })
  .meta({ id: 'Purchase' });

export const note = z.object({ id: z.string(), content: z.string(), createdBy: z.string(), createdAt: timestamp }).meta({ id: 'Note' });

export const playerDetail = playerListItem
  .extend({
    clusterId: z.string(),
    discordId: z.string().nullable(),
    sessions: z.array(session).describe('The newest 100; all of them at /api/v1/players/{id}/sessions'),
    purchases: z.array(purchase),
    notes: z.array(note).describe('Newest first'),
  })
  .meta({ id: 'PlayerDetail' });

export const PLAYER_SORTS = ['playtime', 'lastSeen', 'firstSeen', 'username'] as const;

export const playerListQuery = z
  .object({
    ...paginationQuery,
    search: z
      .string()
      .trim()
      .min(1, 'search must not be empty')
      .max(64, 'search must be at most 64 characters')
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
      .refine((value) => !/[\u0000-\u001f]/.test(value), 'must not contain control characters')
      .optional()
      .meta({ description: 'Part of the username or platform id, any case' }),
    online: booleanQuery.optional(),
    serverId: id.optional().meta({ description: 'Players who have played on this server (with online=true: who are on it now)' }),
    sort: sortQuery(PLAYER_SORTS, '-lastSeen'),
  })
  .strict();

export const sessionListQuery = z.object({ ...paginationQuery }).strict();

export const onlinePlayer = z
  .object({ id: z.string(), username: z.string(), steamId: z.string(), joinedAt: timestamp, ping: z.number().nullable() })
  .meta({ id: 'OnlinePlayer' });
export const serverPlayers = z.object({ online: z.int(), max: z.int(), players: z.array(onlinePlayer) }).meta({ id: 'ServerPlayers' });

export const FLAG_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const playerPatch = z
  .object({
    flags: z
      .array(z.string().regex(FLAG_PATTERN, 'each flag is 1..32 characters of A-Z, a-z, 0-9, _ and -'))
      .max(20, 'at most 20 flags')
      .refine((flags) => new Set(flags).size === flags.length, 'flags must not repeat')
      .optional()
      .describe('Replaces the set'),
    notes: z
      .string()
      .min(1, 'must not be empty')
      .max(2000, 'must be at most 2000 characters')
      .refine(noNul, 'must not contain NUL')
      .optional()
      .describe('Adds a note by the caller'),
  })
  .strict()
  .refine((body) => body.flags !== undefined || body.notes !== undefined, { message: 'give flags, notes or both' });
export const playerPatchAnswer = z.object({ id: z.string(), flags: z.array(z.string()), updatedAt: timestamp });

export const purchaseBody = z
  .object({
    // Shown in the dashboard and exports like any name: one line, nothing invisible that could reorder what is around it.
    productName: nameOfAtMost(200),
    amount: z
      .number()
      .min(-1e12)
      .max(1e12)
      .refine((value) => Number(value.toFixed(4)) === value, 'at most 4 decimal places'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'a three-letter ISO 4217 code')
      .transform((value) => value.toUpperCase())
      .optional()
      .default('USD'),
  })
  .strict();

const reason = z.string().max(500, 'must be at most 500 characters').refine(noNul, 'must not contain NUL');

export const kickBody = z.object({ serverId: id.optional().describe("Default: the player's current server"), reason: reason.optional().default('') }).strict();
export const moderationWait = z
  .object({
    wait: z
      .string()
      .regex(/^\d{1,2}$/, 'wait must be a whole number of seconds')
      .transform(Number)
      .pipe(z.number().max(60, 'wait must be at most 60 seconds'))
      .optional()
      .meta({ type: 'integer', description: 'Seconds to wait for the kick to happen (0..60, default 10).' }),
  })
  .strict();
export const kickAnswer = z.object({ success: z.boolean(), message: z.string(), jobId: z.string(), status: z.enum(JOB_STATUSES) }).meta({ id: 'KickAnswer' });

export const ban = z
  .object({
    id: z.string(),
    playerId: z.string(),
    clusterId: z.string(),
    serverId: z.string().nullable(),
    reason: z.string(),
    clusterWide: z.boolean(),
    expiresAt: timestamp.nullable().describe('Null: permanent'),
    createdBy: z.string().describe('User id'),
    createdAt: timestamp,
    revokedAt: timestamp.nullable(),
    active: z.boolean().describe('Not revoked and not expired'),
    player: z
      .object({ id: z.string(), username: z.string(), steamId: z.string().nullable() })
      .describe('The banned player as people know it (its id is also `playerId`)'),
    serverName: z.string().nullable().describe("The name of the ban's server (`serverId`); null for a cluster-wide ban"),
  })
  .meta({ id: 'Ban' });

export const banBody = z
  .object({
    serverId: id.optional().describe('Required unless clusterWide'),
    reason: reason.optional().default(''),
    duration: z
      .int('duration must be a whole number of seconds')
      .min(1, 'duration must be at least 1 second')
      .max(10 * 365 * 86_400, 'duration must be at most 10 years')
      .nullable()
      .optional()
      .describe('Seconds; null or absent: permanent'),
    clusterWide: z.boolean().optional().default(false),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.clusterWide && !body.serverId) ctx.addIssue({ code: 'custom', path: ['serverId'], message: 'required unless clusterWide is true' });
    if (body.clusterWide && body.serverId) ctx.addIssue({ code: 'custom', path: ['serverId'], message: 'a cluster-wide ban names no server' });
  });
export const banAnswer = z.object({ success: z.boolean(), ban, jobIds: z.array(z.string()) }).meta({ id: 'BanAnswer' });
export const unbanAnswer = z.object({ success: z.boolean(), message: z.string(), jobIds: z.array(z.string()) });
export const unbanPlayerAnswer = z
  .object({
    success: z.boolean(),
    message: z.string(),
    bans: z.array(ban).describe('The bans revoked (each with `revokedAt`)'),
    jobIds: z.array(z.string()).describe('UNBAN jobs, one per server where no ban of the player applies any more'),
  })
  .meta({ id: 'UnbanAnswer' });

export const banListQuery = z
  .object({
    ...paginationQuery,
    playerId: id.optional(),
    serverId: id.optional().meta({ description: 'Bans that apply to this server (its own and cluster-wide ones)' }),
    active: booleanQuery.optional(),
    sort: sortQuery(['createdAt', 'expiresAt'], '-createdAt'),
  })
  .strict();

const windows = z.object({ today: z.int(), week: z.int(), month: z.int() });
export const playerStats = z
  .object({
    total: z.int(),
    active: windows.describe('Distinct players with a session overlapping the last 24 h / 7 days / 30 days'),
    new: windows.describe('Players first seen in the window'),
    topPlayers: z.array(z.object({ id: z.string(), username: z.string(), playtime: z.int() })).describe('10 by playtime'),
    retention: z
      .object({ day1: z.number(), day7: z.number(), day30: z.number() })
      .describe('dayN: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first'),
  })
  .meta({ id: 'PlayerStats' });
