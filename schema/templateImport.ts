/**
 * `POST /api/v1/clusters/<id>/templates/import` (docs/templates.md#importing-eggs): a Pterodactyl or Pelican egg, as
 * its text (JSON or YAML) or a URL, becomes a cluster template; the answer says what could not be mapped.
 */
import { z } from 'zod';
import { isStorableText } from './storable.ts';
import { TEMPLATE_ID_PATTERN } from './template.ts';
import { urlProblem } from './webhooks.ts';

/** The largest egg text taken (the biggest public eggs are about 60 KB, most of it the install script). */
export const MAX_EGG_TEXT = 512 * 1024;

export const templateImportBody = z
  .strictObject({
    text: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_EGG_TEXT, `must be at most ${MAX_EGG_TEXT / 1024} KiB`)
      .refine(isStorableText, 'must not contain NUL or lone surrogate characters')
      .optional()
      .meta({ description: 'The egg itself: PTDL_v1 or PTDL_v2 JSON, PLCN_v1 to PLCN_v3 JSON or YAML.' }),
    url: z
      .string()
      .max(2048, 'must be at most 2048 characters')
      .superRefine((value, context) => {
        const problem = urlProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .meta({
        description:
          'Where to read the egg: http(s), public addresses only unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, redirects not followed, at most 512 KiB within 10 s.',
      }),
    id: z
      .string()
      .regex(TEMPLATE_ID_PATTERN, 'must be a slug: lower case letters, digits and -, at most 64')
      .optional()
      .meta({ description: 'The template’s id; default: a slug of the egg’s name.' }),
  })
  .superRefine((body, context) => {
    if ((body.text === undefined) === (body.url === undefined))
      context.addIssue({ code: 'custom', path: ['text'], message: 'give the egg’s text or its url (one of them)' });
  })
  .meta({ example: { url: 'https://example.org/eggs/egg-my-game.json' } });
export type TemplateImportBody = z.infer<typeof templateImportBody>;

/** What an import says besides the template. */
export const templateImportReport = z.object({
  format: z.enum(['PTDL_v1', 'PTDL_v2', 'PLCN_v1', 'PLCN_v2', 'PLCN_v3']).meta({ description: 'The egg’s format version.' }),
  unmapped: z.array(z.string()).meta({ description: 'Every part of the egg not carried over, or carried over with a difference, in words.' }),
  tools: z.array(z.string()).meta({ description: 'Programs the installation script runs, which the machine must have.' }),
  skippedLines: z.array(z.string()).meta({ description: 'Lines of the installation script that are not run (they install packages as root).' }),
});
