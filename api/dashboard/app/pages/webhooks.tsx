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
/** An event type a webhook may follow (docs/events.md), as the API's schema names them; `*` is "all". */
type EventType = Exclude<Webhook['events'][number], '*'>;
/**
 * Every type of the API's schema, each once: the compiler refuses this record when the API gains or drops a type (the
 * generated client types change), so the choices never drift from what the API accepts.
 */
const EVENT_CHOICES: Record<EventType, true> = {
  'server.status': true,
  'machine.status': true,
  'job.updated': true,
  'player.joined': true,
  'player.left': true,
  'ban.created': true,
  'ban.revoked': true,
  'task.run.finished': true,
  'webhook.disabled': true,
  'server.transferred': true,
  'webhook.dropped': true,
};
const EVENT_TYPES = Object.keys(EVENT_CHOICES) as EventType[];

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

/** Equal as the API keeps them: event lists in any order. */
const sameValue = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n') : a === b;

function WebhookForm({ clusterId, webhook, onSaved }: { clusterId: string; webhook: Webhook | null; onSaved: (answer: Webhook) => void }) {
  const everything = webhook?.events.includes('*') ?? false;
  return (
    <Form
      class="form"
      submit={webhook ? 'Save webhook' : 'Create webhook'}
      onSubmit={async (values, form) => {
        const chosen = [...form.querySelectorAll<HTMLInputElement>('input[name=events]:checked')].map((box) => box.value);
        const body: Record<string, unknown> = {
          url: values.url,
          events: chosen.includes('*') ? ['*'] : chosen,
          format: values.format,
          description: values.description?.trim() ? values.description.trim() : null,
          enabled: values.enabled === 'true',
        };
        if (!webhook) return onSaved(await api.post<Schemas['WebhookCreated']>(`/api/v1/clusters/${clusterId}/webhooks`, body));
        // Only what was changed: sending `enabled: true` again would re-enable a webhook the service disabled after
        // failing deliveries (and clear why) while someone only edited its description.
        const changed = Object.fromEntries(Object.entries(body).filter(([field, value]) => !sameValue(value, webhook[field as keyof Webhook])));
        onSaved(Object.keys(changed).length === 0 ? webhook : await api.request<Webhook>('patch', `/api/v1/webhooks/${webhook.id}`, { body: changed }));
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
/** A pending delivery whose next try is further off than this is read again only this often. */
const NEAR_MS = 60_000;

/**
 * When to read the deliveries again: soon while a pending one is in flight or due within a minute, else once a minute
 * (a delivery backing off for an hour needs no reading every 2 s); null with nothing pending.
 */
function nextPoll(deliveries: Delivery[], now: number): number | null {
  const pending = deliveries.filter((delivery) => delivery.status === 'PENDING');
  if (pending.length === 0) return null;
  const due = Math.min(...pending.map((delivery) => (delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - now : 0)));
  return due <= NEAR_MS ? PENDING_POLL_MS : NEAR_MS;
}

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
  const delay = deliveries.data ? nextPoll(deliveries.data.data, Date.now()) : null;
  useEffect(() => {
    if (delay === null || deliveries.loading) return;
    const timer = setTimeout(deliveries.reload, delay);
    return () => clearTimeout(timer);
  }, [delay, deliveries.data, deliveries.loading, deliveries.reload]);
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
