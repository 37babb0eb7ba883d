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
import { consoleLine, consoleSequenceQuery } from '../../schema/console.ts';

const consoleQuery = z
  .object({
    lines: z.coerce
      .number({ message: 'expected a number' })
      .int('expected a whole number')
      .min(1, `expected 1..${HISTORY_LINES}`)
      .max(HISTORY_LINES, `expected 1..${HISTORY_LINES}`)
      .optional()
      .meta({
        description: `How many lines (1..${HISTORY_LINES}; default 100, or ${HISTORY_LINES} with \`after\`): the last ones, or with \`after\` the first ones after it`,
        type: 'integer',
      }),
    after: consoleSequenceQuery.optional(),
  })
  .strict();

export const consoleAnswer = z
  .object({
    serverId: z.string(),
    lines: z.array(consoleLine),
    seq: z.number().int().nullable().describe('The sequence of the last line answered (null: none): resume after it (`after`, `/live` subscribe `after`)'),
    gap: z.boolean().describe('With `after`: lines after it are no longer kept (the history holds the last 1,000), so some were missed'),
  })
  .meta({ id: 'Console' });

export function installConsoleRoutes(api: Api, deps: AppDeps) {
  api.route({
    method: 'get',
    path: '/api/v1/servers/:id/console',
    summary: "A server's recent console",
    description:
      `The last \`lines\` console lines (1..${HISTORY_LINES}, default 100), oldest first, as its agent relayed them; with \`after\` (a line's \`seq\`), ` +
      "the lines after it instead (a resume: page on with the answer's `seq`). Every member of the cluster. Lines past 5,000 a second per server are dropped and replaced by one `[gsm] N lines dropped` line.",
    tags: ['Servers'],
    auth: 'user',
    params: z.object({ id }),
    query: consoleQuery,
    permission: { action: 'cluster.read', server: { param: 'id' } },
    responses: { 200: { description: 'The recent console', schema: consoleAnswer } },
    handler: async (_ctx, { params, query }) => {
      const serverId = params.id.toLowerCase();
      const { lines, gap } =
        query.after === undefined
          ? { lines: await deps.live.history.recent(serverId, query.lines ?? 100), gap: false }
          : await deps.live.history
              .since(serverId, query.after)
              .then((resumed) => ({ ...resumed, lines: resumed.lines.slice(0, query.lines ?? HISTORY_LINES) }));
      return { serverId: params.id, lines, seq: lines.at(-1)?.seq ?? query.after ?? null, gap };
    },
  });
}
