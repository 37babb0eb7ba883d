/**
 * Webhooks of a cluster (docs/webhooks.md): OWNER and ADMIN create, read, change and delete them, send a test, read
 * the delivery log and ask for a delivery again. A webhook's URL may itself be a secret (a Discord webhook URL is),
 * so only they see it; the signing secret is shown once, in the create answer.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { badRequest, conflict, notFound, validationFailed } from '../../schema/errors.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { createWebhookBody, delivery, deliveryListQuery, updateWebhookBody, webhook, webhookCreated, webhookListQuery } from '../../schema/webhooks.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { fetchPage } from '../../sql/listing.ts';
import { originOf } from '../identity/origin.ts';
import { targetProblem } from '../../orchestrator/webhooks/addresses.ts';
import { randomBytes, randomUUID } from 'node:crypto';

export const WEBHOOK_COLUMNS = sql.fragment`
  w.id, w.cluster_id AS "clusterId", w.url, w.events, w.format, w.description, w.enabled, w.disabled_reason AS "disabledReason",
  w.created_at AS "createdAt", w.updated_at AS "updatedAt"`;
// A test is in no event log: its id is the one its body carries, so the log shows what the receiver saw.
const DELIVERY_COLUMNS = sql.fragment`
  d.id, d.webhook_id AS "webhookId",
  CASE WHEN e.position IS NOT NULL THEN lpad(e.position::text, 16, '0') WHEN d.event_id IS NULL AND d.event_type = 'webhook.test' THEN d.body->>'id' END AS "eventId",
  d.event_type AS "eventType", d.status, d.attempts, d.last_status_code AS "lastStatusCode", d.last_error AS "lastError",
  d.duration_ms AS "durationMs", CASE WHEN d.status = 'PENDING' THEN d.next_attempt_at END AS "nextAttemptAt",
  d.created_at AS "createdAt", d.delivered_at AS "deliveredAt"`;
const DELIVERY_FROM = sql.fragment`webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id`;

/** Webhooks one cluster may have: each event is a delivery per webhook, written in the event's own transaction. */
export const WEBHOOKS_PER_CLUSTER = 20;

const webhookParams = z.object({ id });
const deliveryParams = z.object({ id, deliveryId: id });

/** `whsec_` and 32 random bytes in base64url: the key of every delivery's HMAC. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

const getWebhook = async (connection: CommonQueryMethods, webhookId: string) => {
  const row = await connection.maybeOne(sql.type(webhook)`SELECT ${WEBHOOK_COLUMNS} FROM webhooks w WHERE w.id = ${webhookId}`);
  if (!row) throw notFound('Webhook not found');
  return row;
};

/** A test event's id: `test_<uuid>`, so it is never taken for an event log id (those are digits) nor for another test. */
const testEventId = () => `test_${randomUUID()}`;

/** "Now", and ahead of whatever the webhook has waiting: a test or a retry is sent next, not behind a backlog. */
const frontOfQueue = (webhookId: string) => sql.fragment`
  LEAST(now(), (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = 'PENDING') - interval '1 millisecond')`;

const getDelivery = (connection: CommonQueryMethods, deliveryId: string) =>
  connection.one(sql.type(delivery)`SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM} WHERE d.id = ${deliveryId}`);

export function installWebhookRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  const byWebhook = clusterOfParam(pool, 'webhooks');
  /** The URL's host must resolve to public addresses (unless allowed): a 400 naming the problem otherwise. */
  const checkTarget = async (url: string) => {
    const problem = await targetProblem(url, allowPrivate);
    if (problem) throw validationFailed([{ field: 'url', message: problem }]);
  };

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/webhooks',
    summary: 'List webhooks',
    tags: ['Webhooks'],
    auth: 'user',
    params: clusterIdParams,
    query: webhookListQuery,
    permission: { action: 'webhooks.manage', cluster: 'clusterId' },
    responses: { 200: { description: 'Webhooks (without their secrets)', schema: listOf(webhook) } },
    handler: (_ctx, { params, query }) =>
      fetchPage(pool, {
        schema: webhook,
        columns: WEBHOOK_COLUMNS,
        from: sql.fragment`webhooks w WHERE w.cluster_id = ${params.clusterId}`,
        order: sql.fragment`ORDER BY w.created_at, w.id`,
        page: query,
      }),
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/webhooks',
    summary: 'Create a webhook',
    description:
      'Each durable event of the cluster whose type is in `events` (or all, with `["*"]`) is POSTed to `url`: the event envelope (`format` JSON) or a Discord message (`format` DISCORD), signed with the `secret` shown only in this answer. The URL must resolve to public addresses unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.',
    tags: ['Webhooks'],
    auth: 'user',
    params: clusterIdParams,
    body: createWebhookBody,
    permission: { action: 'webhooks.manage', cluster: 'clusterId' },
    status: 201,
    responses: { 201: { description: 'The webhook, with its secret', schema: webhookCreated }, 409: { description: `The cluster has ${20} webhooks already` } },
    handler: async (ctx, { params, body }) => {
      await checkTarget(body.url);
      const secret = newSecret();
      return pool.transaction(async (tx) => {
        // Serialises creations in the cluster, so the limit holds under concurrent requests.
        await tx.query(sql.unsafe`SELECT 1 FROM clusters WHERE id = ${params.clusterId} FOR UPDATE`);
        const count = await tx.oneFirst(
          sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM webhooks WHERE cluster_id = ${params.clusterId}`,
        );
        if (count >= WEBHOOKS_PER_CLUSTER) throw conflict(`A cluster has at most ${WEBHOOKS_PER_CLUSTER} webhooks; delete one first`);
        const webhookId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO webhooks (cluster_id, url, events, format, description, enabled, secret)
          VALUES (${params.clusterId}, ${body.url}, ${sql.array(body.events, 'text')}, ${body.format ?? 'JSON'}, ${body.description ?? null},
                  ${body.enabled ?? true}, ${secret})
          RETURNING id`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'webhook.create', target: { type: 'webhook', id: webhookId } });
        ctx.set('Location', `/api/v1/webhooks/${webhookId}`);
        return { ...(await getWebhook(tx, webhookId)), secret };
      });
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/webhooks/:id',
    summary: 'Get a webhook',
    tags: ['Webhooks'],
    auth: 'user',
    params: webhookParams,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    responses: { 200: { description: 'The webhook', schema: webhook } },
    handler: (_ctx, { params }) => getWebhook(pool, params.id),
  });

  api.route({
    method: 'patch',
    path: '/api/v1/webhooks/:id',
    summary: 'Change a webhook',
    description:
      'Any of `url`, `events`, `format`, `description`, `enabled`. Enabling a disabled webhook clears `disabledReason` and its failure count; the deliveries it kept while disabled are sent.',
    tags: ['Webhooks'],
    auth: 'user',
    params: webhookParams,
    body: updateWebhookBody,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    responses: { 200: { description: 'The webhook', schema: webhook } },
    handler: async (ctx, { params, body }) => {
      if (Object.keys(body).length === 0) throw badRequest('Nothing to change: send at least one field');
      if (body.url !== undefined) await checkTarget(body.url);
      return pool.transaction(async (tx) => {
        const sets = [
          ...(body.url !== undefined ? [sql.fragment`url = ${body.url}`] : []),
          ...(body.events !== undefined ? [sql.fragment`events = ${sql.array(body.events, 'text')}`] : []),
          ...(body.format !== undefined ? [sql.fragment`format = ${body.format}`] : []),
          ...(body.description !== undefined ? [sql.fragment`description = ${body.description}`] : []),
          ...(body.enabled === true ? [sql.fragment`enabled = true, disabled_reason = NULL, consecutive_failures = 0`] : []),
          ...(body.enabled === false ? [sql.fragment`enabled = false, disabled_reason = NULL`] : []),
        ];
        const changed = await tx.query(sql.unsafe`UPDATE webhooks SET ${sql.join(sets, sql.fragment`, `)}, updated_at = now() WHERE id = ${params.id}`);
        if (changed.rowCount === 0) throw notFound('Webhook not found');
        await recordAudit(tx, originOf(ctx), {
          clusterId: ctx.state.clusterId as string,
          action: 'webhook.update',
          target: { type: 'webhook', id: params.id },
        });
        return getWebhook(tx, params.id);
      });
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/webhooks/:id',
    summary: 'Delete a webhook',
    description: 'With its delivery log; deliveries not yet sent are not sent.',
    tags: ['Webhooks'],
    auth: 'user',
    params: webhookParams,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    responses: { 204: { description: 'Deleted' } },
    handler: async (ctx, { params }) => {
      await pool.transaction(async (tx) => {
        const deleted = await tx.query(sql.unsafe`DELETE FROM webhooks WHERE id = ${params.id}`);
        if (deleted.rowCount === 0) throw notFound('Webhook not found');
        await recordAudit(tx, originOf(ctx), {
          clusterId: ctx.state.clusterId as string,
          action: 'webhook.delete',
          target: { type: 'webhook', id: params.id },
        });
      });
      ctx.status = 204;
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/webhooks/:id/test',
    summary: 'Send a test delivery',
    description:
      "Queues a `webhook.test` event for this webhook only (also when it is disabled: a test is how to check it works again) and answers its Delivery; follow it in the delivery log. The test event's `id` is `test_` and a UUID, its own, never an id of the event log.",
    tags: ['Webhooks'],
    auth: 'user',
    params: webhookParams,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    status: 202,
    responses: { 202: { description: 'The test delivery', schema: delivery } },
    handler: async (ctx, { params }) =>
      pool.transaction(async (tx) => {
        const target = await getWebhook(tx, params.id);
        // Receivers de-duplicate on the event id: a test has one of its own, never one the event log could give.
        const body = { id: testEventId(), type: 'webhook.test', clusterId: target.clusterId, at: new Date().toISOString(), data: { webhookId: target.id } };
        const deliveryId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO webhook_deliveries (webhook_id, event_type, body, next_attempt_at)
          VALUES (${params.id}, 'webhook.test', ${sql.jsonb(body)}, ${frontOfQueue(params.id)}) RETURNING id`);
        await tx.query(sql.unsafe`SELECT pg_notify('gsm_webhooks', 'test')`);
        await recordAudit(tx, originOf(ctx), { clusterId: target.clusterId, action: 'webhook.test', target: { type: 'webhook', id: params.id } });
        ctx.set('Location', `/api/v1/webhooks/${params.id}/deliveries/${deliveryId}`);
        return getDelivery(tx, deliveryId);
      }),
  });

  api.route({
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries',
    summary: "A webhook's delivery log",
    description: 'Newest first; filter `status` (PENDING, SUCCEEDED, FAILED).',
    tags: ['Webhooks'],
    auth: 'user',
    params: webhookParams,
    query: deliveryListQuery,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    responses: { 200: { description: 'Deliveries', schema: listOf(delivery) } },
    handler: (_ctx, { params, query }) =>
      fetchPage(pool, {
        schema: delivery,
        columns: DELIVERY_COLUMNS,
        from: sql.fragment`${DELIVERY_FROM} WHERE d.webhook_id = ${params.id} ${query.status ? sql.fragment`AND d.status = ${query.status}` : sql.fragment``}`,
        order: sql.fragment`ORDER BY d.created_at DESC, d.id DESC`,
        page: query,
      }),
  });

  api.route({
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries/:deliveryId',
    summary: 'Get a delivery',
    tags: ['Webhooks'],
    auth: 'user',
    params: deliveryParams,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    responses: { 200: { description: 'The delivery', schema: delivery } },
    handler: async (_ctx, { params }) => {
      const found = await pool.maybeOne(
        sql.type(delivery)`SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM} WHERE d.id = ${params.deliveryId} AND d.webhook_id = ${params.id}`,
      );
      if (!found) throw notFound('Delivery not found');
      return found;
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/webhooks/:id/deliveries/:deliveryId/retry',
    summary: 'Send a delivery again',
    description:
      'Sends it again now, with the same `GSM-Delivery` id (receivers dedupe on it), and restarts its retry schedule. 409 while it is being sent; a delivery of a disabled webhook waits until the webhook is enabled.',
    tags: ['Webhooks'],
    auth: 'user',
    params: deliveryParams,
    permission: { action: 'webhooks.manage', cluster: byWebhook },
    status: 202,
    responses: { 202: { description: 'The delivery, PENDING again', schema: delivery }, 409: { description: 'Being sent right now' } },
    handler: async (ctx, { params }) =>
      pool.transaction(async (tx) => {
        const row = await tx.maybeOne(sql.type(z.object({ sending: z.boolean() }))`
          SELECT (lease_until IS NOT NULL AND lease_until > now()) AS sending FROM webhook_deliveries
           WHERE id = ${params.deliveryId} AND webhook_id = ${params.id} FOR UPDATE`);
        if (!row) throw notFound('Delivery not found');
        if (row.sending) throw conflict('This delivery is being sent right now; look again in a few seconds');
        await tx.query(sql.unsafe`
          UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = ${frontOfQueue(params.id)}, attempts_before_retry = attempts, delivered_at = NULL,
                 lease_until = NULL, lease_token = NULL
           WHERE id = ${params.deliveryId}`);
        await tx.query(sql.unsafe`SELECT pg_notify('gsm_webhooks', 'retry')`);
        await recordAudit(tx, originOf(ctx), {
          clusterId: ctx.state.clusterId as string,
          action: 'webhook.retry',
          target: { type: 'webhook_delivery', id: params.deliveryId },
        });
        return getDelivery(tx, params.deliveryId);
      }),
  });
}
