/** The cluster's audit log (OWNER, ADMIN): who did what, when, from where; filtered by action. */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import { link, type PageProps } from '../nav.ts';
import { formatTime, Pager, Show, Table, useLoad } from '../ui.tsx';

export function AuditPage({ cluster }: PageProps) {
  const [query, setQuery] = useState({ action: '', page: 1 });
  const entries = useLoad(
    () =>
      api.get<{ data: Schemas['AuditEntry'][]; meta: { totalPages: number } }>(`/api/v1/clusters/${cluster.id}/audit-log`, {
        limit: 50,
        page: query.page,
        action: query.action || undefined,
      }),
    [cluster.id, query],
  );
  return (
    <section>
      <h1>Audit log</h1>
      <form
        class="form inline"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ action: String(new FormData(event.currentTarget).get('action') ?? ''), page: 1 });
        }}
      >
        <label class="field">
          <span>Action (such as server.restart)</span>
          <input name="action" defaultValue={query.action} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Show loaded={entries}>
        {(answer) => (
          <>
            <Table
              label="Audit log"
              rows={answer.data}
              rowKey={(entry) => entry.id}
              empty="Nothing recorded."
              columns={[
                { title: 'When', cell: (entry) => formatTime(entry.at) },
                { title: 'Who', cell: (entry) => `${entry.actor.name ?? entry.actor.kind}` },
                { title: 'Action', cell: (entry) => <code>{entry.action}</code> },
                { title: 'Target', cell: (entry) => <Target cluster={cluster.id} target={entry.target} /> },
                { title: 'From', cell: (entry) => entry.ip ?? '—' },
              ]}
            />
            <Pager page={query.page} pages={answer.meta.totalPages} go={(page) => setQuery({ ...query, page })} />
          </>
        )}
      </Show>
    </section>
  );
}

/** What an entry changed, by its name today (a link for a server or player still there); its short id when it has none. */
function Target({ cluster, target }: { cluster: string; target: Schemas['AuditEntry']['target'] }) {
  const label = target.name ?? (target.id ? target.id.slice(0, 8) : '');
  if (target.name && target.id && (target.type === 'server' || target.type === 'player'))
    return (
      <>
        {target.type} <a href={link('c', cluster, `${target.type}s`, target.id)}>{target.name}</a>
      </>
    );
  return <>{`${target.type} ${label}`.trim()}</>;
}
