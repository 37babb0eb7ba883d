/**
 * The Koa application. Reads top to bottom as the request pipeline: observation (request id, log line, metrics), the single error
 * middleware, the JSON body parser, then the routes of each resource.
 */
import Koa from 'koa';
import { Api } from './http/route.ts';
import type { AppDeps } from './context.ts';
import { observeRequest } from './middleware/observeRequest.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { jsonBody } from './middleware/jsonBody.ts';
import { installHealthRoutes } from './routes/health.ts';
import { installDocsRoutes } from './routes/docs.ts';

export type App = { koa: Koa; api: Api };

export type AppOptions = {
  /** Serve the REST API. A pure orchestrator process serves only health, metrics and (later) the agent gateway. */
  api?: boolean;
};

export function createApp(deps: AppDeps, options: AppOptions = {}): App {
  const koa = new Koa({ proxy: deps.config.TRUST_PROXY });
  // Errors are answered and logged by errorHandler; Koa's default stderr printing would duplicate them.
  koa.silent = true;
  const api = new Api();

  koa.use(observeRequest(deps.logger, deps.metrics));
  koa.use(errorHandler(deps.logger));
  koa.use(jsonBody());

  installHealthRoutes(api, deps);
  if (options.api ?? true) {
    installDocsRoutes(api, deps);
  }

  koa.use(api.router.routes());
  koa.use(api.router.allowedMethods());
  return { koa, api };
}
