/**
 * The templates API's bodies and answers (docs/api.md#templates); the template format itself is template.ts.
 */
import { z } from 'zod';
import { GAME_TYPES } from './games.ts';
import { paginationQuery, timestamp } from './http.ts';
import { PLATFORMS, templateDocument } from './template.ts';

const summaryFields = {
  id: z.string().meta({ description: "A built-in's id is its slug (`rust`); a cluster template's is a uuid." }),
  clusterId: z.string().nullable().meta({ description: 'The cluster it belongs to; null: built in.' }),
  builtIn: z.boolean(),
  slug: z.string(),
  name: z.string(),
  version: z.int(),
  description: z.string().nullable(),
  gameType: z.enum(GAME_TYPES),
  tags: z.array(z.string()),
  platforms: z.array(z.enum(PLATFORMS)),
  createdAt: timestamp.nullable(),
  updatedAt: timestamp.nullable(),
};

export const templateSummary = z.object(summaryFields).meta({ id: 'TemplateSummary' });
export const templateRecord = z
  .object({
    ...summaryFields,
    document: z.record(z.string(), z.unknown()).meta({ description: 'The whole template (docs/templates.md); secret variables without their `default`.' }),
    secretDefaults: z
      .array(z.string())
      .optional()
      .meta({ description: 'The secret variables that have a default: never returned; a PATCH that leaves out their `default` keeps it.' }),
  })
  .meta({ id: 'Template' });

const text = (what: string) => z.string().trim().min(1).max(100).optional().meta({ description: what });
export const templateListQuery = z
  .object({
    ...paginationQuery,
    name: text('Part of the name or id, in any case.'),
    tag: text('A tag the template has.'),
    clusterId: z.uuid().optional().meta({ description: 'Only this cluster’s own templates.' }),
  })
  .strict();
export const clusterTemplateListQuery = templateListQuery.omit({ clusterId: true });

/** A template document as a request body (create, replace). */
export const templateBody = templateDocument.meta({ id: 'TemplateDocument' });
export const templateParams = z.object({ id: z.string().min(1).max(64) });
export const clusterTemplateParams = z.object({
  clusterId: z.uuid().transform((value) => value.toLowerCase()),
  id: z.uuid().transform((value) => value.toLowerCase()),
});
