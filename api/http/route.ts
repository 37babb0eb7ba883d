/**
 * Declarative routes. A route names its method, path, zod schemas for path/query/body and its answers; the same
 * declaration validates requests at run time and produces the OpenAPI document (api/http/openapi.ts).
 *
 * Validation rules (docs/api.md):
 * - a path parameter that does not parse (a malformed id) is 404, not 400;
 * - query and body failures are 400 "Validation failed" with one `details` entry per bad or unknown field.
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { type AppError, notFound, validationFailed, type ErrorDetail } from '../../schema/errors.ts';
import type { Permission, Role } from '../../schema/roles.ts';
import { rawId, type AccessScope } from '../identity/principal.ts';
import type { ClusterResource } from '../identity/access.ts';
import { indexRoutes } from './routeIndex.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type AuthLevel = 'none' | 'signin' | 'user';

/** How the route layer authenticates, rate-limits and authorizes; given by the app (absent in bare test apps). */
export type AccessHooks = {
  /** Authenticates; with `scopeOf`, also reads the caller's membership of the cluster (or server's cluster) it names. */
  authenticate: (scopeOf: ((ctx: Context) => AccessScope) | null) => Middleware;
  /** Rate limits (null when they are off: the route then has no layer for them). */
  rateLimitPrincipal: Middleware | null;
  rateLimitSignIn: Middleware | null;
  /** Replays answers to a repeated `Idempotency-Key` (POST routes of authenticated callers). */
  idempotency: Middleware;
  /** Checks the caller's role in the cluster; answers the role, or throws 404/403. */
  authorize: (ctx: Context, clusterId: string, permission: Permission) => Promise<Role>;
  /** The same for the cluster of a server or player (404 when there is none); answers the cluster too. */
  authorizeResource: (ctx: Context, resource: ClusterResource, permission: Permission) => Promise<{ clusterId: string; role: Role }>;
};

/**
 * A server whose cluster a route acts in: the name of a path parameter or of a body field holding its id. Its cluster
 * and the caller's role there are read in the same query as the caller's token.
 */
export type ServerRef = { param: string } | { bodyField: string };

type AnyObject = z.ZodType<Record<string, unknown>>;

export type ResponseSpec = { description: string; schema?: z.ZodType; headers?: Record<string, string> };

export type RouteInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> = {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
};

export type RouteSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> = {
  method: HttpMethod;
  /** Koa path syntax (`/api/v1/clusters/:id`). */
  path: string;
  /** Further paths serving the same operation (for example `/auth/login` beside `/api/v1/auth/login`). */
  aliases?: string[];
  summary: string;
  description?: string;
  tags: string[];
  /**
   * Who may call: `none` (health, docs), `signin` (anonymous sign-in endpoints, rate limited per client address) or
   * `user` (a bearer token: session access token or user API token; rate limited per principal).
   */
  auth: AuthLevel;
  /** For cluster resources: the permission needed, and how to find the cluster from the validated input. */
  permission?:
    | {
        action: Permission;
        /**
         * The cluster: the name of a path parameter holding its id (the caller's membership is then read in the same
         * query as the caller's token), or a function finding it from the validated input (for resources inside a cluster).
         */
        cluster: string | ((input: RouteInput<P, Q, B>) => string | Promise<string>);
      }
    | {
        action: Permission;
        /** The cluster is that of this server (see ServerRef); `ctx.state.clusterId` is set to it. */
        server: ServerRef;
      }
    | {
        action: Permission;
        /** The cluster is that of the player whose id is this path parameter; read with the token, as for servers. */
        player: { param: string };
      };
  params?: P;
  query?: Q;
  body?: B;
  /** Status of a successful answer; default 200. */
  status?: number;
  responses: Record<number, ResponseSpec>;
  /**
   * False: an `Idempotency-Key` is ignored (nothing of the request is kept), for routes whose body is a secret that
   * must not outlive the request (a password change). Default: POST routes of authenticated callers honour it.
   */
  idempotent?: false;
  /** Further middleware run after authentication and before validation. */
  use?: Middleware[];
  handler: (ctx: Context, input: RouteInput<P, Q, B>) => unknown;
};

/** A registered route, kept for the OpenAPI document. */
export type RegisteredRoute = RouteSpec<AnyObject, AnyObject, z.ZodType>;

const EMPTY = z.object({}).strict();

/** Turns zod issues into the seed's `details`, one entry per field; unknown keys get one entry each. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ field: [...base, key].join('.'), message: 'Unknown field' });
    } else if (issue.code === 'invalid_key' && issue.issues[0]) {
      // A record's key refused by its own schema (an environment variable's name): that schema's message, not "Invalid key in record".
      details.push({ field: base.join('.'), message: issue.issues[0].message });
    } else {
      details.push({ field: base.join('.') || '(root)', message: issue.message });
    }
  }
  return details;
}

/** Fields (dotted paths) whose text contains a NUL character, which Postgres cannot store. */
function nulFields(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [path.join('.') || '(root)'] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => nulFields(item, [...path, String(index)]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [...(key.includes('\u0000') ? [[...path, key].join('.')] : []), ...nulFields(item, [...path, key])]);
  }
  return [];
}

function rejectNul(...values: unknown[]): void {
  const fields = values.flatMap((value) => nulFields(value));
  if (fields.length > 0) throw validationFailed(fields.map((field) => ({ field, message: 'must not contain NUL characters' })));
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, onError: (issues: z.core.$ZodIssue[]) => AppError) {
  const result = schema.safeParse(value);
  if (!result.success) throw onError(result.error.issues);
  return result.data as z.output<S>;
}

/**
 * How the authentication step finds, in the raw request, the cluster or server a route acts in (the raw value, when it
 * is an id at all: validation, and the 404 for a malformed id, come later; authorization checks it is the validated one).
 */
function scopeReader(permission: RouteSpec<AnyObject, AnyObject, z.ZodType>['permission']): ((ctx: Context) => AccessScope) | null {
  if (!permission) return null;
  const none = { clusterId: null, serverId: null, playerId: null };
  if ('server' in permission) {
    const ref = permission.server;
    return 'param' in ref
      ? (ctx) => ({ ...none, serverId: rawId(ctx.params?.[ref.param]) })
      : (ctx) => ({ ...none, serverId: rawId((ctx.request.body as Record<string, unknown> | undefined)?.[ref.bodyField]) });
  }
  if ('player' in permission) {
    const param = permission.player.param;
    return (ctx) => ({ ...none, playerId: rawId(ctx.params?.[param]) });
  }
  const param = permission.cluster;
  return typeof param === 'string' ? (ctx) => ({ ...none, clusterId: rawId(ctx.params?.[param]) }) : null;
}

export class Api {
  readonly router = new Router();
  readonly routes: RegisteredRoute[] = [];
  readonly #access: AccessHooks | undefined;

  constructor(access?: AccessHooks) {
    this.#access = access;
    indexRoutes(this.router);
  }

  /** The middleware that runs before validation for an auth level: authentication first, then the rate limit. */
  #gate(auth: AuthLevel, scopeOf: ((ctx: Context) => AccessScope) | null): Middleware[] {
    const access = this.#access;
    if (auth === 'none') return [];
    if (!access) throw new Error(`routes with auth "${auth}" need access hooks`);
    const gate = auth === 'user' ? [access.authenticate(scopeOf), access.rateLimitPrincipal] : [access.rateLimitSignIn];
    return gate.filter((layer) => layer !== null);
  }

  route<P extends AnyObject = typeof EMPTY, Q extends AnyObject = typeof EMPTY, B extends z.ZodType = z.ZodUndefined>(spec: RouteSpec<P, Q, B>): void {
    const paramsSchema = spec.params ?? EMPTY;
    const querySchema = spec.query ?? EMPTY;
    const bodySchema = spec.body ?? EMPTY;
    const successStatus = spec.status ?? 200;

    const validate = (ctx: Context): RouteInput<P, Q, B> => {
      const params = parseOrThrow(paramsSchema, ctx.params, () => notFound());
      rejectNul(ctx.query, ctx.request.body);
      const query = parseOrThrow(querySchema, { ...ctx.query }, (issues) => validationFailed(issuesToDetails(issues)));
      // koa-body leaves `{}` when no body was sent: a missing body is validated as an empty object, so the client
      // learns which fields are required, and a route without a body schema rejects any field sent to it.
      const body = parseOrThrow(bodySchema, ctx.request.body ?? {}, (issues) => validationFailed(issuesToDetails(issues)));
      return { params, query, body } as RouteInput<P, Q, B>;
    };

    const permission = spec.permission;
    const access = this.#access;
    if (permission && !access) throw new Error('routes with a permission need access hooks');
    /** Checks the caller's role for the route's permission (none without one), noting the cluster and the role. */
    const authorize =
      permission && access
        ? async (ctx: Context, input: RouteInput<P, Q, B>): Promise<void> => {
            if ('server' in permission || 'player' in permission) {
              const values = input.params as Record<string, unknown>;
              const resource: ClusterResource =
                'player' in permission
                  ? { kind: 'player', id: String(values[permission.player.param]) }
                  : {
                      kind: 'server',
                      id: String(
                        'param' in permission.server ? values[permission.server.param] : (input.body as Record<string, unknown>)[permission.server.bodyField],
                      ),
                    };
              const granted = await access.authorizeResource(ctx, resource, permission.action);
              ctx.state.clusterId = granted.clusterId;
              ctx.state.role = granted.role;
              return;
            }
            const clusterId =
              typeof permission.cluster === 'string' ? String((input.params as Record<string, unknown>)[permission.cluster]) : await permission.cluster(input);
            ctx.state.clusterId = clusterId;
            ctx.state.role = await access.authorize(ctx, clusterId, permission.action);
          }
        : null;

    const handle = async (ctx: Context, input: RouteInput<P, Q, B>): Promise<void> => {
      const result = await spec.handler(ctx, input);
      if (result !== undefined) {
        ctx.status = successStatus;
        ctx.body = result;
      } else if (ctx.body === undefined && ctx.status === 404) {
        ctx.status = 204;
      }
    };

    // After validation and authorization: only the handler's own answers are remembered for a key.
    const idempotency = spec.method === 'post' && spec.auth === 'user' && spec.idempotent !== false && access ? access.idempotency : null;
    /** Validation, authorization, the idempotency check and the handler, in that order, as one layer. */
    const run: Middleware = async function runRoute(ctx) {
      const input = validate(ctx);
      ctx.state.input = input;
      if (authorize) await authorize(ctx, input);
      if (idempotency) await idempotency(ctx, () => handle(ctx, input));
      else await handle(ctx, input);
    };

    for (const path of [spec.path, ...(spec.aliases ?? [])]) {
      this.router.register(path, [spec.method], [...this.#gate(spec.auth, scopeReader(permission)), ...(spec.use ?? []), run]);
    }
    this.routes.push(spec as unknown as RegisteredRoute);
  }
}
