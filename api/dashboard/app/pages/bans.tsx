/** The cluster's bans, active first; MODERATOR and above may revoke them. */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import type { PageProps } from '../nav.ts';
import { can, Pager, Show, useLoad } from '../ui.tsx';
import { BanTable } from './players.tsx';

export function BansPage({ cluster }: PageProps) {
  const [filter, setFilter] = useState({ active: true, page: 1 });
  const bans = useLoad(
    () =>
      api.get<{ data: Schemas['Ban'][]; meta: { totalPages: number } }>(`/api/v1/clusters/${cluster.id}/bans`, {
        limit: 50,
        page: filter.page,
        active: filter.active || undefined,
        sort: '-createdAt',
      }),
    [cluster.id, filter],
  );
  return (
    <section>
      <header class="page-head">
        <h1>Bans</h1>
        <label class="field checkbox">
          <span>Active only</span>
          <input type="checkbox" checked={filter.active} onChange={(event) => setFilter({ active: event.currentTarget.checked, page: 1 })} />
        </label>
      </header>
      <Show loaded={bans}>
        {(answer) => (
          <>
            <BanTable rows={answer.data} canRevoke={can(cluster.role, 'moderate')} onRevoked={bans.reload} cluster={cluster.id} />
            <Pager page={filter.page} pages={answer.meta.totalPages} go={(page) => setFilter({ ...filter, page })} />
          </>
        )}
      </Show>
    </section>
  );
}
