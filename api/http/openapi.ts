/**
 * The OpenAPI 3.1 document, generated from the same route declarations and zod schemas that validate requests.
 * Schemas given an `id` with `.meta({ id })` become named components; everything else is inlined.
 */
import { z } from 'zod';
import { errorBody } from '../../schema/http.ts';
import { statusName } from '../../schema/errors.ts';
import type { RegisteredRoute } from './route.ts';
import { OPERATION_IDS } from './operationIds.ts';
import { EXAMPLES } from '../../schema/examples.ts';

type JsonSchema = Record<string, unknown>;

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
  tags: { name: string; description: string }[];
};

const COMPONENT_PREFIX = '#/components/schemas/';

/** Converts a zod schema; named sub-schemas are moved into `components` and referenced from there. */
function convert(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      const out: JsonSchema = {};
      for (const [key, value] of Object.entries(node)) {
        out[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/$defs/', COMPONENT_PREFIX) : rewrite(value);
      }
      return out;
    }
    return node;
  };
  for (const [name, def] of Object.entries(defs)) components[name] = rewrite(def) as JsonSchema;
  const root = rewrite(json) as JsonSchema;
  // A named root schema: register it and answer a reference.
  const rootId = z.globalRegistry.get(schema)?.id;
  if (rootId && !root.$ref) {
    delete root.id;
    components[rootId] = root;
    return { $ref: `${COMPONENT_PREFIX}${rootId}` };
  }
  return root;
}

/** `/api/v1/clusters/:id` → `/api/v1/clusters/{id}` */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(route: RegisteredRoute, components: Record<string, JsonSchema>) {
  const list: unknown[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = convert(schema, 'input', components);
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, deprecated, ...rest } = property;
      // A boolean flag is a boolean (its string forms true/false/1/0 are what a query string carries anyway).
      if (rest.type === 'boolean') delete rest.enum;
      list.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(description ? { description } : {}),
        // Another name kept for an old spelling: accepted, shown as such, not offered.
        ...(deprecated ? { deprecated } : {}),
        schema: rest,
      });
    }
  }
  return list;
}

/** What each tag groups, shown by reference pages and generated clients. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Account: 'The signed-in user and their API tokens.',
  Agent: 'The reference agent package and its one-line install script, for machine owners.',
  Audit: "A cluster's audit log: who changed what, when, from where.",
  Auth: 'Registration, sign-in (e-mail and password, Steam, Discord), sessions and password resets.',
  Clusters: 'Clusters: the unit of ownership of machines, servers, players and members.',
  Docs: 'This API reference and its OpenAPI document.',
  Events: 'The durable event log of a cluster, as a list or a live Server-Sent Events stream, and recent console output.',
  Health: 'Liveness, readiness and Prometheus metrics, for operators and orchestrators.',
  'Installs and backups': 'Installing and updating games, and backing up and restoring server directories.',
  Jobs: 'Durable jobs: what every state-changing call on a game server becomes, until it ends.',
  Machines: 'Machines that run game servers, their agents and metrics history.',
  Members: 'Members of a cluster, their roles, and invitations.',
  Metrics: 'CPU, memory, disk and players online over time.',
  Pages: 'Web pages of invitation and password-reset links.',
  Players: 'Players, their sessions, notes, flags, purchases, kicks, bans and statistics.',
  Power: 'Starting, stopping, restarting and killing game servers, and console (RCON) commands.',
  Servers: 'Game servers: their configuration, status and console.',
  Tasks: 'Scheduled tasks: restarts, wipes, backups and announcements on a cron schedule.',
  Webhooks: 'Webhooks and Discord notifications of cluster events, and their delivery log.',
};

/** An error answer as the API gives it: `{ statusCode, message, error }` (400 adds the fields in `details`). */
function errorExample(status: number, description: string) {
  return {
    statusCode: status,
    message: status === 400 ? 'Validation failed' : description,
    error: statusName(status),
    ...(status === 400 ? { details: [{ field: 'name', message: 'must not be empty' }] } : {}),
  };
}

/** The route's readable name (operationIds.ts); one made of its method and path when the table has none. */
export function operationIdOf(route: Pick<RegisteredRoute, 'method' | 'path' | 'aliases'>): string {
  const named = [route.path, ...(route.aliases ?? [])].map((path) => OPERATION_IDS[`${route.method.toUpperCase()} ${path}`]).find(Boolean);
  return named ?? `${route.method}${toOpenApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`;
}

export function buildOpenApi(routes: readonly RegisteredRoute[], options: { version: string; serverUrl?: string }): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  const errorRef = convert(errorBody, 'output', components);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();

  for (const route of routes) {
    for (const tag of route.tags) tags.add(tag);
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.headers
          ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
          : {}),
        ...(response.schema ? { content: { 'application/json': { schema: convert(response.schema, 'output', components) } } } : {}),
      };
    }
    const errorStatuses = [
      ...(route.body || route.query ? [400] : []),
      ...(route.auth === 'user' ? [401, 403] : []),
      ...(route.params || route.permission ? [404] : []),
      ...(route.auth !== 'none' ? [429] : []),
      500,
    ];
    for (const status of errorStatuses) responses[String(status)] ??= { description: statusName(status) };
    // Every error answer is the Error record, its example with its own status (not 400 for all).
    for (const [status, response] of Object.entries(responses) as [string, { description: string; content?: unknown }][]) {
      if (Number(status) < 400 || response.content) continue;
      response.content = { 'application/json': { schema: errorRef, example: errorExample(Number(status), response.description) } };
    }
    const operation = {
      operationId: operationIdOf(route),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      ...(route.auth === 'user' ? { security: [{ bearer: [] }] } : { security: [] }),
      ...(route.permission ? { 'x-permission': route.permission.action } : {}),
      parameters: [
        ...parameters(route, components),
        ...(route.method === 'post' && route.auth === 'user'
          ? [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: false,
                description: 'Replays the first answer to this key for 24 h; another body with the same key is 422.',
                schema: { type: 'string', maxLength: 255 },
              },
            ]
          : []),
      ],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: convert(route.body, 'input', components) } } } } : {}),
      responses,
    };
    for (const path of [route.path, ...(route.aliases ?? [])]) {
      const key = toOpenApiPath(path);
      paths[key] ??= {};
      paths[key][route.method] = path === route.path ? operation : { ...operation, operationId: `${operation.operationId}Alias` };
    }
  }

  // Every record has an example (schema/examples.ts) unless its schema gives its own.
  for (const [name, component] of Object.entries(components)) {
    if (component.example === undefined && component.examples === undefined && EXAMPLES[name] !== undefined) component.example = EXAMPLES[name];
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Game Server Management API',
      version: options.version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Manage clusters, machines, game servers, scheduled tasks, members, players and API tokens. ' +
        'State-changing calls become durable jobs delivered to the agent on the machine that hosts the server.',
    },
    // First the document's own origin (relative): Try-it-out then calls whatever origin the page was opened on
    // (127.0.0.1, a LAN address, behind a proxy), never a different one a browser would refuse.
    servers: [
      { url: '/', description: 'This installation, at the address this document was fetched from' },
      ...(options.serverUrl ? [{ url: options.serverUrl, description: 'This installation, at its PUBLIC_URL' }] : []),
    ],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A session access token from /auth/login or a user API token (gsm_live_…).',
        },
      },
    },
    tags: [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
  };
}
