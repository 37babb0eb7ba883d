/**
 * Webhooks and their deliveries as rows (docs/webhooks.md): a cluster's webhooks are created, changed and deleted
 * here, a test or a retry is queued at the front of the webhook's deliveries, and the deliverer (deliverer.ts) is woken
 * through `gsm_webhooks`. Every change records an audit entry in the change's transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict, notFound } from '../../schema/errors.ts';
import type { Origin } from '../../schema/origin.ts';
import { delivery, webhook, type createWebhookBody, type deliveryListQuery, type updateWebhookBody, type webhookListQuery } from '../../schema/webhooks.ts';
import { fetchPage } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';

const WEBHOOK_COLUMNS = sql.fragment`
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

type Webhook = z.output<typeof webhook>;
type Delivery = z.output<typeof delivery>;

/** `whsec_` and 32 random bytes in base64url: the key of every delivery's HMAC. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export const getWebhook = async (connection: CommonQueryMethods, webhookId: string): Promise<Webhook> => {
  const row = await connection.maybeOne(sql.type(webhook)`SELECT ${WEBHOOK_COLUMNS} FROM webhooks w WHERE w.id = ${webhookId}`);
  if (!row) throw notFound('Webhook not found');
  return row;
};

/** A test event's id: `test_<uuid>`, so it is never taken for an event log id (those are digits) nor for another test. */
const testEventId = () => `test_${randomUUID()}`;

/** "Now", and ahead of whatever the webhook has waiting: a test or a retry is sent next, not behind a backlog. */
const frontOfQueue = (webhookId: string) => sql.fragment`
  LEAST(now(), (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = 'PENDING') - interval '1 millisecond')`;

const getDelivery = (connection: CommonQueryMethods, deliveryId: string): Promise<Delivery> =>
  connection.one(sql.type(delivery)`SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM} WHERE d.id = ${deliveryId}`);

/** One page of a cluster's webhooks, oldest first. */
export const webhookPage = (connection: CommonQueryMethods, clusterId: string, query: z.output<typeof webhookListQuery>) =>
  fetchPage(connection, {
    schema: webhook,
    columns: WEBHOOK_COLUMNS,
    from: sql.fragment`webhooks w WHERE w.cluster_id = ${clusterId}`,
    order: sql.fragment`ORDER BY w.created_at, w.id`,
    page: query,
  });

/** Creates a webhook with a new secret (answered this once), at most WEBHOOKS_PER_CLUSTER per cluster (409). */
export async function createWebhook(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  body: z.output<typeof createWebhookBody>,
): Promise<Webhook & { secret: string }> {
  const secret = newSecret();
  // Serialises creations in the cluster, so the limit holds under concurrent requests.
  await tx.query(sql.unsafe`SELECT 1 FROM clusters WHERE id = ${clusterId} FOR UPDATE`);
  const count = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM webhooks WHERE cluster_id = ${clusterId}`);
  if (count >= WEBHOOKS_PER_CLUSTER) throw conflict(`A cluster has at most ${WEBHOOKS_PER_CLUSTER} webhooks; delete one first`);
  const webhookId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO webhooks (cluster_id, url, events, format, description, enabled, secret)
    VALUES (${clusterId}, ${body.url}, ${sql.array(body.events, 'text')}, ${body.format ?? 'JSON'}, ${body.description ?? null},
            ${body.enabled ?? true}, ${secret})
    RETURNING id`);
  await recordAudit(tx, origin, { clusterId, action: 'webhook.create', target: { type: 'webhook', id: webhookId } });
  return { ...(await getWebhook(tx, webhookId)), secret };
}

/**
 * Changes the fields the body names. Enabling clears `disabledReason` and the failure count, so the deliveries kept
 * while disabled are sent.
 */
export async function updateWebhook(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  webhookId: string,
  body: z.output<typeof updateWebhookBody>,
): Promise<Webhook> {
  const sets = [
    ...(body.url !== undefined ? [sql.fragment`url = ${body.url}`] : []),
    ...(body.events !== undefined ? [sql.fragment`events = ${sql.array(body.events, 'text')}`] : []),
    ...(body.format !== undefined ? [sql.fragment`format = ${body.format}`] : []),
    ...(body.description !== undefined ? [sql.fragment`description = ${body.description}`] : []),
    ...(body.enabled === true ? [sql.fragment`enabled = true, disabled_reason = NULL, consecutive_failures = 0`] : []),
    ...(body.enabled === false ? [sql.fragment`enabled = false, disabled_reason = NULL`] : []),
  ];
  const changed = await tx.query(sql.unsafe`UPDATE webhooks SET ${sql.join(sets, sql.fragment`, `)}, updated_at = now() WHERE id = ${webhookId}`);
  if (changed.rowCount === 0) throw notFound('Webhook not found');
  await recordAudit(tx, origin, { clusterId, action: 'webhook.update', target: { type: 'webhook', id: webhookId } });
  return getWebhook(tx, webhookId);
}

export async function deleteWebhook(tx: CommonQueryMethods, origin: Origin, clusterId: string, webhookId: string): Promise<void> {
  const deleted = await tx.query(sql.unsafe`DELETE FROM webhooks WHERE id = ${webhookId}`);
  if (deleted.rowCount === 0) throw notFound('Webhook not found');
  await recordAudit(tx, origin, { clusterId, action: 'webhook.delete', target: { type: 'webhook', id: webhookId } });
}

/** Queues a `webhook.test` delivery for this webhook only (also when disabled), at the front of its queue. */
export async function queueTestDelivery(tx: CommonQueryMethods, origin: Origin, webhookId: string): Promise<Delivery> {
  const target = await getWebhook(tx, webhookId);
  // Receivers de-duplicate on the event id: a test has one of its own, never one the event log could give.
  const body = { id: testEventId(), type: 'webhook.test', clusterId: target.clusterId, at: new Date().toISOString(), data: { webhookId: target.id } };
  const deliveryId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO webhook_deliveries (webhook_id, event_type, body, next_attempt_at)
    VALUES (${webhookId}, 'webhook.test', ${sql.jsonb(body)}, ${frontOfQueue(webhookId)}) RETURNING id`);
  await tx.query(sql.unsafe`SELECT pg_notify('gsm_webhooks', 'test')`);
  await recordAudit(tx, origin, { clusterId: target.clusterId, action: 'webhook.test', target: { type: 'webhook', id: webhookId } });
  return getDelivery(tx, deliveryId);
}

/** One page of a webhook's deliveries, newest first. */
export const deliveryPage = (connection: CommonQueryMethods, webhookId: string, query: z.output<typeof deliveryListQuery>) =>
  fetchPage(connection, {
    schema: delivery,
    columns: DELIVERY_COLUMNS,
    from: sql.fragment`${DELIVERY_FROM} WHERE d.webhook_id = ${webhookId} ${query.status ? sql.fragment`AND d.status = ${query.status}` : sql.fragment``}`,
    order: sql.fragment`ORDER BY d.created_at DESC, d.id DESC`,
    page: query,
  });

/** One delivery of the webhook (404 for another webhook's). */
export async function findDelivery(connection: CommonQueryMethods, webhookId: string, deliveryId: string): Promise<Delivery> {
  const found = await connection.maybeOne(
    sql.type(delivery)`SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM} WHERE d.id = ${deliveryId} AND d.webhook_id = ${webhookId}`,
  );
  if (!found) throw notFound('Delivery not found');
  return found;
}

/**
 * Sends a delivery again now, with the same id, restarting its retry schedule; 409 while it is being sent.
 */
export async function retryDelivery(
  tx: CommonQueryMethods,
  origin: Origin,
  target: { clusterId: string; webhookId: string; deliveryId: string },
): Promise<Delivery> {
  const { clusterId, webhookId, deliveryId } = target;
  const row = await tx.maybeOne(sql.type(z.object({ sending: z.boolean() }))`
    SELECT (lease_until IS NOT NULL AND lease_until > now()) AS sending FROM webhook_deliveries
     WHERE id = ${deliveryId} AND webhook_id = ${webhookId} FOR UPDATE`);
  if (!row) throw notFound('Delivery not found');
  if (row.sending) throw conflict('This delivery is being sent right now; look again in a few seconds');
  await tx.query(sql.unsafe`
    UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = ${frontOfQueue(webhookId)}, attempts_before_retry = attempts, delivered_at = NULL,
           lease_until = NULL, lease_token = NULL
     WHERE id = ${deliveryId}`);
  await tx.query(sql.unsafe`SELECT pg_notify('gsm_webhooks', 'retry')`);
  await recordAudit(tx, origin, { clusterId, action: 'webhook.retry', target: { type: 'webhook_delivery', id: deliveryId } });
  return getDelivery(tx, deliveryId);
}
