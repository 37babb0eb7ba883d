/**
 * The cluster's webhooks (OWNER, ADMIN; docs/webhooks.md): the list, create (the signing secret shown once), edit,
 * enable and disable, delete, send a test, and a webhook's deliveries with their outcome and a retry for a failed one.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { all, api } from '../session.ts';
import type { PageProps } from '../nav.ts';
import { Action, can, Field, Form, formatTime, Notice, Pager, Select, Show, ShownOnce, Status, Table, useFieldError, useLoad } from '../ui.tsx';

type Webhook = Schemas['Webhook'];
type Delivery = Schemas['WebhookDelivery'];
/** The durable event types a webhook may follow (docs/events.md). */
const EVENT_TYPES = [
  'server.status',
  'machine.status',
  'job.updated',
  'player.joined',
  'player.left',
  'ban.created',
  'ban.revoked',
  'task.run.finished',
  'webhook.disabled',
];

export function WebhooksPage({ cluster }: PageProps) {
  const webhooks = useLoad(() => all<Webhook>(`/api/v1/clusters/${cluster.id}/webhooks`), [cluster.id]);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [created, setCreated] = useState<Schemas['WebhookCreated'] | null>(null);
  const [open, setOpen] = useState<string | null>(null); // the webhook whose deliveries are shown
  const [tested, setTested] = useState(0); // a test sent: its webhook's deliveries are read again
  if (!can(cluster.role, 'manage')) return <Notice kind="error">Only an OWNER or an ADMIN of the cluster manages its webhooks.</Notice>;
  const shownWebhook = webhooks.data?.find((webhook) => webhook.id === open);
  return (
    <section>
      <header class="page-head">
        <h1>Webhooks</h1>
        <button type="button" onClick={() => setEditing(editing ? null : 'new')} aria-expanded={editing !== null}>
          {editing ? 'Close' : 'New webhook'}
        </button>
      </header>
      <p class="muted">A webhook sends the cluster's events to a URL as they happen: JSON signed with its secret, or a Discord message.</p>
      {editing && (
        <WebhookForm
          key={editing === 'new' ? 'new' : editing.id}
          clusterId={cluster.id}
          webhook={editing === 'new' ? null : editing}
          onSaved={(answer) => {
            if (answer && 'secret' in answer) setCreated(answer as Schemas['WebhookCreated']);
            setEditing(null);
            webhooks.reload();
          }}
        />
      )}
      {created && (
        <ShownOnce
          label="New webhook's secret"
          notice={`Webhook created. Copy its signing secret now: it is shown only once.`}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      <Show loaded={webhooks}>
        {(rows) => (
          <Table
            label="Webhooks"
            rows={rows}
            rowKey={(webhook) => webhook.id}
            empty="No webhooks yet."
            columns={[
              {
                title: 'URL',
                cell: (webhook) => (
                  <>
                    <code class="url">{webhook.url}</code>
                    {webhook.description && <div class="muted">{webhook.description}</div>}
                  </>
                ),
              },
              { title: 'Events', cell: (webhook) => webhook.events.join(', ') },
              { title: 'Format', cell: (webhook) => webhook.format },
              {
                title: 'State',
                cell: (webhook) => (
                  <>
                    <Status status={webhook.enabled ? 'ACTIVE' : 'DISABLED'} />
                    {webhook.disabledReason && <div class="muted">{webhook.disabledReason}</div>}
                  </>
                ),
              },
              {
                title: 'Actions',
                cell: (webhook: Webhook) => (
                  <div class="buttons">
                    <button type="button" class="secondary" onClick={() => setEditing(webhook)} aria-label={`Edit ${webhook.url}`}>
                      Edit
                    </button>
                    <Action
                      label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.url}`}
                      run={async () => (
                        await api.request('patch', `/api/v1/webhooks/${webhook.id}`, { body: { enabled: !webhook.enabled } }),
                        webhooks.reload()
                      )}
                    >
                      {webhook.enabled ? 'Disable' : 'Enable'}
                    </Action>
                    <Action
                      label={`Send a test to ${webhook.url}`}
                      run={async () => {
                        await api.post(`/api/v1/webhooks/${webhook.id}/test`);
                        setOpen(webhook.id);
                        setTested(tested + 1);
                      }}
                    >
                      Send test
                    </Action>
                    <button
                      type="button"
                      class="secondary"
                      aria-expanded={open === webhook.id}
                      aria-label={`Deliveries of ${webhook.url}`}
                      onClick={() => setOpen(open === webhook.id ? null : webhook.id)}
                    >
                      Deliveries
                    </button>
                    <Action
                      class="danger"
                      label={`Delete ${webhook.url}`}
                      confirm={`Delete the webhook to ${webhook.url}? Its delivery log goes with it.`}
                      run={async () => {
                        await api.request('delete', `/api/v1/webhooks/${webhook.id}`);
                        if (open === webhook.id) setOpen(null);
                        webhooks.reload();
                      }}
                    >
                      Delete
                    </Action>
                  </div>
                ),
              },
            ]}
          />
        )}
      </Show>
      {shownWebhook && <Deliveries key={`${shownWebhook.id}-${tested}`} webhook={shownWebhook} />}
    </section>
  );
}

function WebhookForm({ clusterId, webhook, onSaved }: { clusterId: string; webhook: Webhook | null; onSaved: (answer: Webhook) => void }) {
  const everything = webhook?.events.includes('*') ?? false;
  return (
    <Form
      class="form"
      submit={webhook ? 'Save webhook' : 'Create webhook'}
      onSubmit={async (values, form) => {
        const chosen = [...form.querySelectorAll<HTMLInputElement>('input[name=events]:checked')].map((box) => box.value);
        const body = {
          url: values.url,
          events: chosen.includes('*') ? ['*'] : chosen,
          format: values.format,
          description: values.description?.trim() ? values.description.trim() : null,
          enabled: values.enabled === 'true',
        };
        onSaved(
          webhook
            ? await api.request<Webhook>('patch', `/api/v1/webhooks/${webhook.id}`, { body })
            : await api.post<Schemas['WebhookCreated']>(`/api/v1/clusters/${clusterId}/webhooks`, body),
        );
      }}
    >
      <Field name="url" label="URL" type="url" defaultValue={webhook?.url ?? ''} required placeholder="https://example.com/hooks/gsm" />
      <Events chosen={webhook?.events ?? []} everything={everything} />
      <Select
        name="format"
        label="Format"
        options={[
          ['JSON', 'JSON, signed'],
          ['DISCORD', 'Discord message'],
        ]}
        value={webhook?.format ?? 'JSON'}
      />
      <Field name="description" label="Description (optional)" defaultValue={webhook?.description ?? ''} maxLength={500} />
      <Field name="enabled" label="Enabled" type="checkbox" defaultChecked={webhook?.enabled ?? true} />
    </Form>
  );
}

function Events({ chosen, everything }: { chosen: string[]; everything: boolean }) {
  const error = useFieldError('events');
  return (
    <fieldset aria-invalid={error ? true : undefined}>
      <legend>Events</legend>
      <label class="field checkbox">
        <span>All events, also those added later</span>
        <input type="checkbox" name="events" value="*" defaultChecked={everything} />
      </label>
      {EVENT_TYPES.map((type) => (
        <label key={type} class="field checkbox">
          <span>{type}</span>
          <input type="checkbox" name="events" value={type} defaultChecked={chosen.includes(type)} />
        </label>
      ))}
      {error && (
        <small class="field-error" role="alert">
          {error}
        </small>
      )}
    </fieldset>
  );
}

const PENDING_POLL_MS = 2_000;

/** A webhook's delivery log, newest first, a page at a time; read again while a delivery on show is still pending. */
function Deliveries({ webhook }: { webhook: Webhook }) {
  const [query, setQuery] = useState({ status: '', page: 1 });
  const deliveries = useLoad(
    () =>
      api.get<{ data: Delivery[]; meta: { totalPages: number } }>(`/api/v1/webhooks/${webhook.id}/deliveries`, {
        limit: 20,
        page: query.page,
        status: query.status || undefined,
      }),
    [webhook.id, query],
  );
  const pending = deliveries.data?.data.some((delivery) => delivery.status === 'PENDING') ?? false;
  useEffect(() => {
    if (!pending || deliveries.loading) return;
    const timer = setTimeout(deliveries.reload, PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries.loading, deliveries.reload]);
  return (
    <section aria-label={`Deliveries of ${webhook.url}`}>
      <header class="page-head">
        <h2>Deliveries to {webhook.url}</h2>
        <button type="button" class="secondary" onClick={deliveries.reload}>
          Refresh
        </button>
      </header>
      <label class="field">
        <span>Outcome</span>
        <select value={query.status} onChange={(event) => setQuery({ status: event.currentTarget.value, page: 1 })}>
          <option value="">All</option>
          <option value="PENDING">Pending</option>
          <option value="SUCCEEDED">Succeeded</option>
          <option value="FAILED">Failed</option>
        </select>
      </label>
      <Show loaded={deliveries}>
        {(answer) => (
          <>
            <Table
              label="Deliveries"
              rows={answer.data}
              rowKey={(delivery) => delivery.id}
              empty="Nothing delivered yet."
              columns={[
                { title: 'Made', cell: (delivery) => formatTime(delivery.createdAt) },
                { title: 'Event', cell: (delivery) => <code>{delivery.eventType}</code> },
                { title: 'Outcome', cell: (delivery) => <Status status={delivery.status} /> },
                { title: 'Attempts', cell: (delivery) => delivery.attempts, class: 'number' },
                {
                  title: 'Last answer',
                  cell: (delivery) =>
                    [
                      delivery.lastStatusCode === null ? null : `HTTP ${delivery.lastStatusCode}`,
                      delivery.lastError,
                      delivery.durationMs === null ? null : `${delivery.durationMs} ms`,
                    ]
                      .filter(Boolean)
                      .join(' · ') || '—',
                },
                {
                  title: 'When',
                  cell: (delivery) =>
                    delivery.deliveredAt
                      ? `delivered ${formatTime(delivery.deliveredAt)}`
                      : delivery.nextAttemptAt && delivery.status === 'PENDING'
                        ? `next try ${formatTime(delivery.nextAttemptAt)}`
                        : '—',
                },
                {
                  title: 'Retry',
                  cell: (delivery: Delivery) =>
                    delivery.status === 'FAILED' ? (
                      <Action
                        label={`Retry the ${delivery.eventType} delivery of ${formatTime(delivery.createdAt)}`}
                        run={async () => (await api.post(`/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`), deliveries.reload())}
                      >
                        Retry
                      </Action>
                    ) : null,
                },
              ]}
            />
            <Pager page={query.page} pages={answer.meta.totalPages} go={(page) => setQuery({ ...query, page })} />
          </>
        )}
      </Show>
    </section>
  );
}
