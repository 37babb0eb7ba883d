/** Players: search (name or Steam id, online only), a player's detail with sessions, notes, flags and bans; the ban form. */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import { link, type PageProps } from '../nav.ts';
import { Action, can, Field, Form, formatDuration, formatTime, Pager, Select, Show, Status, Table, useLoad } from '../ui.tsx';

type Player = Schemas['Player'];
type PlayerDetail = Schemas['PlayerDetail'];
type Ban = Schemas['Ban'];

const DURATIONS: [string, string][] = [
  ['3600', '1 hour'],
  ['86400', '1 day'],
  ['604800', '7 days'],
  ['2592000', '30 days'],
  ['', 'Permanent'],
];

/** Bans a player on one server or cluster-wide, for a while or for good. */
export function BanForm({ playerId, serverId, onDone }: { playerId: string; serverId?: string; onDone: () => void }) {
  return (
    <Form
      class="form inline ban"
      submit="Ban"
      danger
      onSubmit={async ({ reason, duration, clusterWide }) => {
        const everywhere = clusterWide === 'true' || !serverId;
        await api.post(`/api/v1/players/${playerId}/ban`, {
          reason,
          duration: duration ? Number(duration) : null,
          clusterWide: everywhere,
          ...(everywhere ? {} : { serverId }),
        });
        onDone();
      }}
    >
      <Field name="reason" label="Reason" maxLength={500} required />
      <Select name="duration" label="For" options={DURATIONS} value="604800" />
      {serverId && <Field name="clusterWide" label="On every server of the cluster" type="checkbox" />}
    </Form>
  );
}

export function PlayersPage({ cluster }: PageProps) {
  const [query, setQuery] = useState({ search: '', online: false, page: 1 });
  const players = useLoad(
    () =>
      api.get<{ data: Player[]; meta: { total: number; totalPages: number } }>(`/api/v1/clusters/${cluster.id}/players`, {
        limit: 50,
        page: query.page,
        search: query.search || undefined,
        online: query.online || undefined,
        sort: '-lastSeen',
      }),
    [cluster.id, query],
  );
  return (
    <section>
      <h1>Players</h1>
      <form
        class="form inline"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setQuery({ search: String(form.get('search') ?? ''), online: form.get('online') === 'on', page: 1 });
        }}
      >
        <label class="field">
          <span>Name or Steam id</span>
          <input name="search" type="search" defaultValue={query.search} />
        </label>
        <label class="field checkbox">
          <span>Online now</span>
          <input name="online" type="checkbox" defaultChecked={query.online} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Show loaded={players}>
        {(answer) => (
          <>
            <Table
              label="Players"
              rows={answer.data}
              rowKey={(player) => player.id}
              empty="No player matches."
              columns={[
                { title: 'Player', cell: (player) => <a href={link('c', cluster.id, 'players', player.id)}>{player.username}</a> },
                { title: 'Steam id', cell: (player) => player.steamId },
                { title: 'Online', cell: (player) => (player.online ? (player.currentServer?.name ?? 'yes') : '—') },
                { title: 'Playtime', cell: (player) => formatDuration(player.playtime), class: 'number' },
                { title: 'Last seen', cell: (player) => formatTime(player.lastSeen) },
                { title: 'Flags', cell: (player) => player.flags.join(', ') },
              ]}
            />
            <Pager page={query.page} pages={answer.meta.totalPages} go={(page) => setQuery({ ...query, page })} />
          </>
        )}
      </Show>
    </section>
  );
}

export function PlayerPage({ cluster, id }: PageProps) {
  const playerId = id!;
  const player = useLoad(() => api.get<PlayerDetail>(`/api/v1/players/${playerId}`), [playerId]);
  const bans = useLoad(
    () => api.get<{ data: Ban[] }>(`/api/v1/clusters/${cluster.id}/bans`, { playerId, limit: 50 }).then((answer) => answer.data),
    [cluster.id, playerId],
  );
  const moderate = can(cluster.role, 'moderate');
  const [banning, setBanning] = useState(false);
  return (
    <Show loaded={player}>
      {(current) => (
        <section>
          <header class="page-head">
            <h1>
              {current.username} {current.online && <Status status="ONLINE" />}
            </h1>
            <a href={link('c', cluster.id, 'players')}>All players</a>
          </header>
          <dl class="facts">
            <dt>Steam id</dt>
            <dd>{current.steamId}</dd>
            <dt>Playtime</dt>
            <dd>{formatDuration(current.playtime)}</dd>
            <dt>First seen</dt>
            <dd>{formatTime(current.firstSeen)}</dd>
            <dt>Last seen</dt>
            <dd>{formatTime(current.lastSeen)}</dd>
            <dt>On</dt>
            <dd>{current.currentServer?.name ?? '—'}</dd>
          </dl>

          <h2>Flags</h2>
          {moderate ? (
            <Form
              class="form inline"
              submit="Save flags"
              onSubmit={async ({ flags }) => {
                const list = flags.split(/[\s,]+/).filter(Boolean);
                await api.request('patch', `/api/v1/players/${playerId}`, { body: { flags: list } });
                player.reload();
              }}
            >
              <Field name="flags" label="Flags (comma separated)" defaultValue={current.flags.join(', ')} />
            </Form>
          ) : (
            <p>{current.flags.join(', ') || 'None.'}</p>
          )}

          <h2>Bans</h2>
          {moderate && (
            <p>
              <button type="button" class="danger" onClick={() => setBanning(!banning)} aria-expanded={banning}>
                Ban {current.username}
              </button>
            </p>
          )}
          {banning && <BanForm playerId={playerId} serverId={current.currentServer?.id} onDone={() => (setBanning(false), bans.reload())} />}
          <Show loaded={bans}>{(rows) => <BanTable rows={rows} canRevoke={moderate} onRevoked={bans.reload} />}</Show>

          <h2>Notes</h2>
          <ul class="notes">
            {current.notes.map((note) => (
              <li key={note.id}>
                {note.content} <small class="muted">{formatTime(note.createdAt)}</small>
              </li>
            ))}
          </ul>
          {moderate && (
            <Form
              class="form inline"
              submit="Add note"
              onSubmit={async ({ note }) => {
                await api.request('patch', `/api/v1/players/${playerId}`, { body: { notes: note } });
                player.reload();
                return true;
              }}
            >
              <Field name="note" label="Note" maxLength={2000} required />
            </Form>
          )}

          <h2>Sessions</h2>
          <Table
            label="Sessions"
            rows={current.sessions}
            rowKey={(session) => session.id}
            empty="No sessions."
            columns={[
              { title: 'Server', cell: (session) => session.serverName },
              { title: 'Joined', cell: (session) => formatTime(session.joinedAt) },
              { title: 'Left', cell: (session) => (session.leftAt ? formatTime(session.leftAt) : 'online') },
              { title: 'Duration', cell: (session) => formatDuration(session.duration), class: 'number' },
            ]}
          />
        </section>
      )}
    </Show>
  );
}

export function BanTable({ rows, canRevoke, onRevoked, cluster }: { rows: Ban[]; canRevoke: boolean; onRevoked: () => void; cluster?: string }) {
  return (
    <Table
      label="Bans"
      rows={rows}
      rowKey={(ban) => ban.id}
      empty="No bans."
      columns={[
        ...(cluster ? [{ title: 'Player', cell: (ban: Ban) => <a href={link('c', cluster, 'players', ban.playerId)}>{ban.player.username}</a> }] : []),
        { title: 'Reason', cell: (ban) => ban.reason || '—' },
        { title: 'Where', cell: (ban) => (ban.clusterWide ? 'every server' : (ban.serverName ?? 'a deleted server')) },
        { title: 'Until', cell: (ban) => (ban.expiresAt ? formatTime(ban.expiresAt) : 'permanent') },
        { title: 'Status', cell: (ban) => <Status status={ban.active ? 'ACTIVE' : ban.revokedAt ? 'REVOKED' : 'EXPIRED'} /> },
        ...(canRevoke
          ? [
              {
                title: 'Actions',
                cell: (ban: Ban) =>
                  ban.active && <Action run={async () => (await api.request('delete', `/api/v1/bans/${ban.id}`), onRevoked())}>Revoke</Action>,
              },
            ]
          : []),
      ]}
    />
  );
}
