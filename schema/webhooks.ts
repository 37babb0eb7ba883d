/**
 * Webhooks and their deliveries as the API shows them (docs/webhooks.md).
 */
import { z } from 'zod';
import { paginationQuery } from './http.ts';
import { DURABLE_EVENT_TYPES } from './events.ts';

export const WEBHOOK_FORMATS = ['JSON', 'DISCORD'] as const;
export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
/** Types a webhook may subscribe to: every durable event type, or `*`. */
export const WEBHOOK_EVENT_TYPES = [...DURABLE_EVENT_TYPES] as const;

/** What is wrong with a webhook URL's form (scheme, credentials, length), or null. No network access. */
export function urlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry credentials (put a secret in the path or rely on the signature)';
  if (!url.hostname) return 'must name a host';
  return null;
}

const webhookUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .superRefine((value, context) => {
    const problem = urlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: 'http or https URL without credentials; private and loopback addresses are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true' });

const eventList = z
  .array(z.string().transform((value) => value.trim().toLowerCase()))
  .min(1, 'name at least one event type, or "*"')
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .superRefine((types, context) => {
    for (const type of types)
      if (type !== '*' && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))
        context.addIssue({ code: 'custom', message: `unknown event type "${type}"; expected "*" or some of ${WEBHOOK_EVENT_TYPES.join(', ')}` });
  })
  .transform((types) => (types.includes('*') ? ['*'] : [...new Set(types)]))
  .meta({ description: `Event types (${WEBHOOK_EVENT_TYPES.join(', ')}), or ["*"] for all` });

const format = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(WEBHOOK_FORMATS, { message: `expected one of ${WEBHOOK_FORMATS.join(', ')}` }));

const description = z.string().trim().max(500, 'must be at most 500 characters');

export const createWebhookBody = z
  .object({
    url: webhookUrl,
    events: eventList,
    format: format.optional(),
    description: description.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

export const updateWebhookBody = createWebhookBody.partial().strict();

export const webhook = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    url: z.string(),
    // An enum, not text: clients (the dashboard's event choices) take the list of types from the API's own schema.
    events: z.array(z.enum(['*', ...WEBHOOK_EVENT_TYPES])),
    format: z.enum(WEBHOOK_FORMATS),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });

export const webhookCreated = webhook
  .extend({ secret: z.string().meta({ description: 'Signs every delivery (GSM-Signature); shown only in this answer' }) })
  .meta({ id: 'WebhookCreated' });

export const delivery = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z
      .string()
      .nullable()
      .meta({ description: "The event's id (its cursor); for a test delivery, the test's own id (`test_` and a UUID) that its body carries" }),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number(),
    lastStatusCode: z.number().nullable(),
    lastError: z.string().nullable(),
    durationMs: z.number().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryListQuery = z
  .object({
    ...paginationQuery,
    status: z
      .string()
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(DELIVERY_STATUSES, { message: `expected one of ${DELIVERY_STATUSES.join(', ')}` }))
      .optional(),
  })
  .strict();

export const webhookListQuery = z.object({ ...paginationQuery }).strict();
