/**
 * The web dashboard (docs/dashboard.md): `GET /` is its page, `GET /dashboard/<file>` its content-hashed script and
 * style sheet (api/dashboard/build.ts). The page is never cached and names the current assets; assets are immutable
 * for a year and sent compressed as the browser accepts (Brotli, then gzip). A strict Content-Security-Policy: this
 * origin only, for scripts, styles, calls and the /live socket.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { notFound } from '../../schema/errors.ts';
import { notModified } from '../http/conditional.ts';
import { dashboardAssets, type Asset } from '../dashboard/build.ts';

/**
 * The page's one inline script: when its script or style sheet cannot be loaded (a page from one version of the service
 * naming assets that another answered for, during an upgrade behind a load balancer; a proxy in the way), it says so
 * and offers a reload instead of leaving "Loading…". Allowed by its hash in the CSP, nothing else inline is.
 */
const BOOT_WATCH = `addEventListener('error', function (event) {
  var failed = event.target;
  if (!failed || (failed.tagName !== 'SCRIPT' && failed.tagName !== 'LINK')) return;
  var app = document.getElementById('app');
  if (!app || app.hasAttribute('data-started')) return;
  var message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = 'The dashboard could not load its files (the service may have just been upgraded). ';
  var reload = document.createElement('a');
  reload.href = location.href;
  reload.textContent = 'Reload the page';
  reload.addEventListener('click', function (click) { click.preventDefault(); location.reload(); });
  message.appendChild(reload);
  app.replaceChildren(message);
}, true);`;
const BOOT_WATCH_HASH = `'sha256-${createHash('sha256').update(BOOT_WATCH).digest('base64')}'`;

/** This origin only; `connect-src` names the WebSocket form of it too, for browsers whose 'self' does not cover it. */
const contentSecurityPolicy = (ctx: Context) => {
  const socket = /^[A-Za-z0-9.\-:[\]]{1,300}$/.test(ctx.host) ? ` ${ctx.protocol === 'https' ? 'wss' : 'ws'}://${ctx.host}` : '';
  return `default-src 'none'; script-src 'self' ${BOOT_WATCH_HASH}; style-src 'self'; img-src 'self' data:; connect-src 'self'${socket}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
};

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function secure(ctx: Context) {
  ctx.set('Content-Security-Policy', contentSecurityPolicy(ctx));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
}

/** Sends `asset` compressed as the request accepts (the encodings were made once, at build). */
function sendAsset(ctx: Context, asset: Asset) {
  ctx.set('ETag', asset.etag);
  ctx.set('Vary', 'Accept-Encoding');
  ctx.type = asset.type;
  const accepts = ctx.get('Accept-Encoding');
  if (/\bbr\b/.test(accepts)) {
    ctx.set('Content-Encoding', 'br');
    ctx.body = asset.brotli;
  } else if (/\bgzip\b/.test(accepts)) {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzip;
  } else {
    ctx.body = asset.body;
  }
}

export function installDashboardRoutes(api: Api, deps: AppDeps) {
  const { config } = deps;
  // Built now, in the background: the first page load does not wait for it.
  dashboardAssets().catch((error: unknown) => deps.logger.error({ err: error }, 'the dashboard could not be built'));

  api.route({
    method: 'get',
    path: '/',
    summary: 'The web dashboard',
    description: 'The operators’ dashboard (an HTML page; its script and style sheet are served at `/dashboard/<file>`).',
    tags: ['Pages'],
    auth: 'none',
    responses: { 200: { description: 'HTML page' } },
    handler: async (ctx) => {
      const { script, style, preload } = await dashboardAssets();
      secure(ctx);
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      const settings = {
        'data-discord': String(Boolean(config.DISCORD_CLIENT_ID)),
        'data-registration': String(config.ALLOW_REGISTRATION !== false),
        'data-version': deps.version,
      };
      ctx.body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Game servers</title>
<link rel="icon" href="data:,">
<script>${BOOT_WATCH}</script>
<link rel="stylesheet" href="/dashboard/${style.name}">
${preload.map((chunk) => `<link rel="modulepreload" href="/dashboard/${chunk.name}">\n`).join('')}<script type="module" src="/dashboard/${script.name}"></script>
</head>
<body ${Object.entries(settings)
        .map(([name, value]) => `${name}="${escapeAttribute(value)}"`)
        .join(' ')}>
<div id="app"><p class="loading">Loading…</p></div>
<noscript>The dashboard needs JavaScript. The API is at <a href="/api/docs">/api/docs</a>.</noscript>
</body>
</html>
`;
    },
  });

  api.route({
    method: 'get',
    path: '/dashboard/:file',
    summary: 'A script or style sheet of the dashboard',
    description: 'Named by its content’s hash: cached for a year. Compressed with Brotli or gzip when the request accepts it.',
    tags: ['Pages'],
    auth: 'none',
    params: z.object({ file: z.string() }),
    responses: { 200: { description: 'The asset' }, 304: { description: 'Not modified (If-None-Match)' }, 404: { description: 'No such asset' } },
    handler: async (ctx, { params }) => {
      const asset = (await dashboardAssets()).byName.get(params.file);
      if (!asset) throw notFound('No such dashboard asset (the page names the current ones)');
      secure(ctx);
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      if (notModified(ctx, asset.etag)) return;
      sendAsset(ctx, asset);
    },
  });
}
