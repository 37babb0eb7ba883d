/**
 * Importing a Pterodactyl or Pelican egg as a cluster template (docs/templates.md#importing-eggs): OWNER and ADMIN,
 * audited. The egg comes as text or from a URL (read under the webhooks' SSRF rules); the answer is the template and,
 * in words, everything the import could not map.
 */
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { badRequest } from '../../schema/errors.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { templateImportBody, templateImportReport } from '../../schema/templateImport.ts';
import { templateRecord } from '../../schema/templates.ts';
import { originOf } from '../identity/origin.ts';
import { importEggFrom } from '../../orchestrator/templates/eggFetch.ts';
import { EggFormatError } from '../../orchestrator/templates/eggs.ts';
import { createImportedTemplate } from '../../orchestrator/templates/importStore.ts';
import { recordOf } from './templates.ts';

const importAnswer = templateImportReport.extend({ template: templateRecord }).meta({ id: 'TemplateImport' });

export function installTemplateImportRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/templates/import',
    summary: 'Import a Pterodactyl or Pelican egg',
    description:
      'Creates a cluster template from an egg: PTDL_v1, PTDL_v2 (JSON), PLCN_v1 to PLCN_v3 (JSON or YAML), given as `text` or read from `url` (public addresses only unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, no redirects, at most 512 KiB within 10 s). Its installation script runs as the server’s account, its package installs not run; `tools` lists the programs it needs on the machine. `unmapped` lists, in words, every part of the egg not carried over or carried over with a difference.',
    tags: ['Templates'],
    auth: 'user',
    params: clusterIdParams,
    body: templateImportBody,
    permission: { action: 'templates.manage', cluster: 'clusterId' },
    status: 201,
    responses: {
      201: { description: 'The template, and what the import could not map', schema: importAnswer },
      400: { description: 'Not an egg of these formats (each problem named), or the URL could not be read' },
      409: { description: 'The cluster has a template with that id (slug) already' },
    },
    handler: async (ctx, { params, body }) => {
      let imported;
      try {
        imported = await importEggFrom(body.url !== undefined ? { url: body.url } : { text: body.text! }, {
          ...(body.id ? { id: body.id } : {}),
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
          userAgent: 'game-server-manager template import',
        });
      } catch (error) {
        if (error instanceof EggFormatError)
          throw badRequest(
            `The egg cannot be imported: ${error.problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`.slice(0, 1000),
            error.problems,
          );
        throw error;
      }
      const created = await pool.transaction((tx) => createImportedTemplate(tx, originOf(ctx), params.clusterId, imported));
      ctx.set('Location', `/api/v1/clusters/${params.clusterId}/templates/${created.template.id}`);
      return { ...created, template: recordOf(created.template) };
    },
  });
}
