/**
 * A server's recent console (docs/events.md, "Live console"): the last lines its agent relayed, from the console
 * history every API process can read (a Redis list with REDIS_URL). Live lines come through the `/live` namespace or
 * the event stream (`types=server.console&serverId=…`).
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { id } from '../../schema/http.ts';
import { HISTORY_LINES } from '../../orchestrator/live/consoleHistory.ts';

const consoleQuery = z
  .object({
    lines: z.coerce
      .number({ message: 'expected a number' })
      .int('expected a whole number')
      .min(1, `expected 1..${HISTORY_LINES}`)
      .max(HISTORY_LINES, `expected 1..${HISTORY_LINES}`)
      .optional()
      .meta({ description: `How many of the last lines (1..${HISTORY_LINES}, default 100)`, type: 'integer' }),
  })
  .strict();

export const consoleLine = z
  .object({ at: z.string(), line: z.string() })
  .meta({ id: 'ConsoleLine', example: { at: '2026-11-24T03:00:00.000Z', line: '[12:00:00] [Server thread/INFO]: Done (4.2s)!' } });
export const consoleAnswer = z.object({ serverId: z.string(), lines: z.array(consoleLine) }).meta({ id: 'Console' });

export function installConsoleRoutes(api: Api, deps: AppDeps) {
  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/console',
    summary: "A server's recent console",
    description: `The last \`lines\` console lines (1..${HISTORY_LINES}, default 100), oldest first, as its agent relayed them. Every member of the cluster. Lines past 5,000 a second per server are dropped and replaced by one \`[gsm] N lines dropped\` line.`,
    tags: ['Servers'],
    auth: 'user',
    params: z.object({ id }),
    query: consoleQuery,
    permission: { action: 'cluster.read', server: { param: 'id' } },
    responses: { 200: { description: 'The recent console', schema: consoleAnswer } },
    handler: async (_ctx, { params, query }) => ({ serverId: params.id, lines: await deps.live.history.recent(params.id.toLowerCase(), query.lines ?? 100) }),
  });
}
