/**
 * Serves the invitation and password-reset pages (`/invite`, `/reset-password`) and their script; what the pages are
 * is api/onboardingPages/.
 */
import type { Api } from '../http/route.ts';
import type { AppDeps } from '../context.ts';
import { pageHtml, SCRIPT, SCRIPT_PATH, secure } from '../onboardingPages/page.ts';

export function installOnboardingPageRoutes(api: Api, deps: AppDeps) {
  const discord = Boolean(deps.config.DISCORD_CLIENT_ID);
  for (const [path, page, title] of [
    ['/invite', 'invite', 'Join a cluster'],
    ['/reset-password', 'reset', 'Choose a new password'],
  ] as const) {
    api.route({
      method: 'get',
      path,
      summary: page === 'invite' ? 'Invitation page (the link of an invitation)' : 'Password reset page (the link of a reset e-mail)',
      tags: ['Pages'],
      auth: 'none',
      responses: { 200: { description: 'HTML page' } },
      handler: (ctx) => {
        secure(ctx);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = pageHtml(page, title, discord);
      },
    });
  }
  api.route({
    method: 'get',
    path: SCRIPT_PATH,
    summary: 'Script of the invitation and password reset pages',
    tags: ['Pages'],
    auth: 'none',
    responses: { 200: { description: 'JavaScript' } },
    handler: (ctx) => {
      secure(ctx);
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = SCRIPT;
    },
  });
}
