/**
 * The agent package and its install script, public (no auth) so a machine can fetch them with curl
 * (docs/agent.md#installing-it): `GET /agent/package.tgz` is always the package of this service's version (or the
 * prebuilt one AGENT_PACKAGE_FILE names).
 */
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { installScript } from '../agentPackage.ts';
import { notModified } from '../http/conditional.ts';

export function installAgentPackageRoutes(api: Api, deps: AppDeps) {
  api.route({
    method: 'get',
    path: '/agent/package.tgz',
    summary: "The agent package (npm tarball) of this service's version",
    description: 'One JavaScript file for Node.js 20 and later, no dependencies. `ETag` is its SHA-256.',
    tags: ['Agent'],
    auth: 'none',
    responses: { 200: { description: 'application/gzip' }, 304: { description: 'Not modified (If-None-Match)' } },
    handler: async (ctx) => {
      const pkg = await deps.agentPackage.get();
      ctx.set('ETag', `"${pkg.sha256}"`);
      ctx.set('X-Agent-Version', pkg.version);
      ctx.set('Cache-Control', 'no-cache');
      if (notModified(ctx, `"${pkg.sha256}"`)) return;
      ctx.type = 'application/gzip';
      ctx.attachment(pkg.fileName);
      ctx.body = pkg.tgz;
    },
  });

  api.route({
    method: 'get',
    path: '/agent/install.sh',
    summary: 'The agent install script',
    description:
      "Run by the line a machine's registration answers (`install.command`), which checks its SHA-256 (also its `ETag`) first; a single-use registration code (or an agent token) on its standard input.",
    tags: ['Agent'],
    auth: 'none',
    responses: { 200: { description: 'text/x-shellscript' } },
    handler: async (ctx) => {
      const script = await installScript();
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('ETag', `"${script.sha256}"`);
      ctx.type = 'text/x-shellscript; charset=utf-8';
      ctx.body = script.content;
    },
  });
}
