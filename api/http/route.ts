/**
 * Declarative routes. A route names its method, path, zod schemas for path/query/body and its answers; the same
 * declaration validates requests at run time and produces the OpenAPI document (api/http/openapi.ts).
 *
 * Validation rules (SPEC sections 1 and 2):
 * - a path parameter that does not parse (a malformed id) is 404, not 400;
 * - query and body failures are 400 "Validation failed" with one `details` entry per bad or unknown field.
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { AppError, notFound, validationFailed, type ErrorDetail } from '../errors.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

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
  /** Whether the route needs a bearer token. Documented in OpenAPI; enforced by the auth middleware of later issues. */
  auth: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Status of a successful answer; default 200. */
  status?: number;
  responses: Record<number, ResponseSpec>;
  /** Middleware run before validation (authentication), so an anonymous caller learns nothing from validation. */
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
    } else {
      details.push({ field: base.join('.') || '(root)', message: issue.message });
    }
  }
  return details;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, onError: (issues: z.core.$ZodIssue[]) => AppError) {
  const result = schema.safeParse(value);
  if (!result.success) throw onError(result.error.issues);
  return result.data as z.output<S>;
}

export class Api {
  readonly router = new Router();
  readonly routes: RegisteredRoute[] = [];

  route<P extends AnyObject = typeof EMPTY, Q extends AnyObject = typeof EMPTY, B extends z.ZodType = z.ZodUndefined>(
    spec: RouteSpec<P, Q, B>,
  ): void {
    const paramsSchema = spec.params ?? EMPTY;
    const querySchema = spec.query ?? EMPTY;
    const bodySchema = spec.body ?? EMPTY;
    const successStatus = spec.status ?? 200;

    const validate: Middleware = async function validateRequest(ctx, next) {
      const params = parseOrThrow(paramsSchema, ctx.params, () => notFound());
      const query = parseOrThrow(querySchema, { ...ctx.query }, (issues) => validationFailed(issuesToDetails(issues)));
      // koa-body leaves `{}` when no body was sent: a missing body is validated as an empty object, so the client
      // learns which fields are required, and a route without a body schema rejects any field sent to it.
      const body = parseOrThrow(bodySchema, ctx.request.body ?? {}, (issues) => validationFailed(issuesToDetails(issues)));
      ctx.state.input = { params, query, body };
      await next();
    };

    const handle: Middleware = async function handleRoute(ctx) {
      const result = await spec.handler(ctx, ctx.state.input as RouteInput<P, Q, B>);
      if (result !== undefined) {
        ctx.status = successStatus;
        ctx.body = result;
      } else if (ctx.body === undefined && ctx.status === 404) {
        ctx.status = 204;
      }
    };

    for (const path of [spec.path, ...(spec.aliases ?? [])]) {
      this.router.register(path, [spec.method], [...(spec.use ?? []), validate, handle]);
    }
    this.routes.push(spec as unknown as RegisteredRoute);
  }
}
