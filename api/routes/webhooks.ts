/**
 * Webhooks of a cluster (docs/webhooks.md): OWNER and ADMIN create, read, change and delete them, send a test, read
 * the delivery log and ask for a delivery again. A webhook's URL may itself be a secret (a Discord webhook URL is),
 * so only they see it; the signing secret is shown once, in the create answer.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { clusterOfParam } from '../http/clusterOf.ts';
import { badRequest, validationFailed } from '../../schema/errors.ts';
import { id, listOf } from '../../schema/http.ts';
import { clusterIdParams } from '../../schema/identity.ts';
import { createWebhookBody, delivery, deliveryListQuery, updateWebhookBody, webhook, webhookCreated, webhookListQuery } from '../../schema/webhooks.ts';
import { originOf } from '../identity/origin.ts';
import { configuredResolver, targetProblem } from '../../orchestrator/webhooks/addresses.ts';
import {
  createWebhook,
  deleteWebhook,
  deliveryPage,
  findDelivery,
  getWebhook,
  queueTestDelivery,
  retryDelivery,
  updateWebhook,
  webhookPage,
} from '../../orchestrator/webhooks/store.ts';

const webhookParams = z.object({ id });
const deliveryParams = z.object({ id, deliveryId: id });

export function installWebhookRoutes(api: Api, deps: AppDeps) {
  const { pool, config } = deps;
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  const resolve = configuredResolver(config);
  const byWebhook = clusterOfParam(pool.reads, 'webhooks');
  /** The URL's host must resolve to public addresses (unless allowed): a 400 naming the problem otherwise. */
  const checkTarget = async (url: string) => {
    const problem = await targetProblem(url, allowPrivate, resolve);
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
    handler: (_ctx, { params, query }) => webhookPage(pool, params.clusterId, query),
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
      const created = await pool.transaction((tx) => createWebhook(tx, originOf(ctx), params.clusterId, body));
      ctx.set('Location', `/api/v1/webhooks/${created.id}`);
      return created;
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
      return pool.transaction((tx) => updateWebhook(tx, originOf(ctx), ctx.state.clusterId as string, params.id, body));
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
      await pool.transaction((tx) => deleteWebhook(tx, originOf(ctx), ctx.state.clusterId as string, params.id));
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
    handler: async (ctx, { params }) => {
      const queued = await pool.transaction((tx) => queueTestDelivery(tx, originOf(ctx), params.id));
      ctx.set('Location', `/api/v1/webhooks/${params.id}/deliveries/${queued.id}`);
      return queued;
    },
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
    handler: (_ctx, { params, query }) => deliveryPage(pool, params.id, query),
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
    handler: (_ctx, { params }) => findDelivery(pool, params.id, params.deliveryId),
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
    handler: (ctx, { params }) =>
      pool.transaction((tx) =>
        retryDelivery(tx, originOf(ctx), { clusterId: ctx.state.clusterId as string, webhookId: params.id, deliveryId: params.deliveryId }),
      ),
  });
}
