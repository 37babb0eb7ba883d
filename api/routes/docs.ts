/**
 * The interactive API reference (Swagger UI) and its OpenAPI document. The page's assets come from the
 * swagger-ui-dist package and are served here, so the page works with no internet access.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Api } from '../http/route.ts';
import { buildOpenApi, type OpenApiDocument } from '../http/openapi.ts';
import type { AppDeps } from '../context.ts';

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
} as const;
type AssetName = keyof typeof ASSETS;

/** Assets change only with the package version, so browsers may keep them for a day. */
const ASSET_CACHE = 'public, max-age=86400';

/** Scripts and styles only from this origin: the page must not depend on (or leak to) any other host. */
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Game Server Management API reference</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/docs/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null
});
`;

export function installDocsRoutes(api: Api, deps: AppDeps) {
  // Built on first request, after every route has been registered; the document never changes at run time.
  let documentJson: string | undefined;
  const assetCache = new Map<AssetName, Buffer>();

  api.route({
    method: 'get',
    path: '/api/docs',
    summary: 'Interactive API reference',
    tags: ['Docs'],
    auth: 'none',
    responses: { 200: { description: 'HTML page' } },
    handler: (ctx) => {
      ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    },
  });

  api.route({
    method: 'get',
    path: '/api/docs/init.js',
    summary: 'Start-up script of the reference page',
    tags: ['Docs'],
    auth: 'none',
    responses: { 200: { description: 'JavaScript' } },
    handler: (ctx) => {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INIT_SCRIPT;
    },
  });

  api.route({
    method: 'get',
    path: '/api/docs/openapi.json',
    summary: 'OpenAPI 3.1 document',
    description: 'Generated from the zod schemas that validate requests.',
    tags: ['Docs'],
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
    handler: (ctx) => {
      documentJson ??= JSON.stringify(openApiDocument(api, deps));
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = documentJson;
    },
  });

  api.route({
    method: 'get',
    path: '/api/docs/assets/:file',
    summary: 'Static asset of the reference page',
    tags: ['Docs'],
    auth: 'none',
    params: z.object({ file: z.enum(Object.keys(ASSETS) as [AssetName, ...AssetName[]]) }),
    responses: { 200: { description: 'The asset' } },
    handler: async (ctx, { params }) => {
      let content = assetCache.get(params.file);
      if (!content) {
        content = await readFile(join(SWAGGER_DIR, params.file));
        assetCache.set(params.file, content);
      }
      ctx.set('Cache-Control', ASSET_CACHE);
      ctx.type = ASSETS[params.file];
      ctx.body = content;
    },
  });
}

/** The document for this app's routes (also used by tests to compare against the router). */
export const openApiDocument = (api: Api, deps: AppDeps): OpenApiDocument =>
  buildOpenApi(api.routes, { version: deps.version, serverUrl: deps.config.PUBLIC_URL });
