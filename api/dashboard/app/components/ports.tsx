/**
 * Ports and query (docs/servers.md#ports-and-allocations, #query-and-liveness): a machine's addresses, port ranges and
 * which server holds which port (OWNER, ADMIN change them; the API's refusals are shown where they belong), a server's
 * named ports, and what the latest query of a server found.
 */
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import { link } from '../nav.ts';
import { Action, Field, Form, formatTime, Show, Table, useLoad } from '../ui.tsx';

type Allocations = Schemas['MachineAllocations'];
type PortRange = Schemas['PortRange'];
type Allocation = Schemas['MachineAllocation'];
type ServerPort = Schemas['ServerPort'];
type ServerQuery = Schemas['ServerQuery'];

const PROTOCOL: Record<ServerPort['protocol'], string> = { TCP: 'TCP', UDP: 'UDP', BOTH: 'TCP+UDP' };
const list = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '—');

/** A machine's addresses, port ranges (add, remove) and the ports its servers hold. */
export function MachinePorts({ clusterId, machineId, machineName, manage }: { clusterId: string; machineId: string; machineName: string; manage: boolean }) {
  const allocations = useLoad(() => api.get<Allocations>(`/api/v1/machines/${machineId}/allocations`), [machineId]);
  return (
    <section class="machine-ports" aria-label={`Ports of ${machineName}`}>
      <h2>Ports of {machineName}</h2>
      <Show loaded={allocations}>
        {(current) => (
          <>
            <dl class="facts">
              <dt>Addresses</dt>
              <dd>{list(current.addresses)}</dd>
              <dt>Reported by its agent</dt>
              <dd>{list(current.reportedAddresses)}</dd>
              <dt>Free ports</dt>
              <dd>{current.ranges.length > 0 ? current.freePorts : 'no ranges: picked from each game’s default port upwards'}</dd>
            </dl>
            {manage && (
              <Form
                class="form inline"
                submit="Save addresses"
                onSubmit={async ({ addresses }) => {
                  const parsed = (addresses ?? '')
                    .split(/[\s,]+/)
                    .map((entry) => entry.trim())
                    .filter(Boolean);
                  const answer = await api.request<Allocations>('put', `/api/v1/machines/${machineId}/addresses`, { body: { addresses: parsed } });
                  allocations.setData(() => answer, false);
                }}
              >
                <Field
                  name="addresses"
                  label="Addresses players connect to"
                  hint="IPv4, IPv6 or host names, separated by commas or spaces"
                  defaultValue={current.addresses.join(', ')}
                />
              </Form>
            )}
            <h3>Port ranges</h3>
            <Table<PortRange>
              label="Port ranges"
              rows={current.ranges}
              rowKey={(range) => range.id}
              empty="No port ranges: servers created without ports get them from each game's default port upwards."
              columns={[
                { title: 'First port', cell: (range) => range.firstPort, class: 'number' },
                { title: 'Last port', cell: (range) => range.lastPort, class: 'number' },
                { title: 'Ports', cell: (range) => range.lastPort - range.firstPort + 1, class: 'number' },
                ...(manage
                  ? [
                      {
                        title: 'Actions',
                        cell: (range: PortRange) => (
                          <Action
                            class="danger"
                            label={`Remove range ${range.firstPort}–${range.lastPort}`}
                            confirm={`Remove ports ${range.firstPort}–${range.lastPort}? Servers keep the ports they hold; no new port is picked from it.`}
                            run={async () => (await api.request('delete', `/api/v1/machines/${machineId}/port-ranges/${range.id}`), allocations.reload())}
                          >
                            Remove
                          </Action>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
            {manage && (
              <Form
                class="form inline"
                submit="Add range"
                onSubmit={async ({ firstPort, lastPort }) => {
                  await api.post(`/api/v1/machines/${machineId}/port-ranges`, { firstPort: Number(firstPort), lastPort: Number(lastPort) });
                  allocations.reload();
                  return true;
                }}
              >
                <Field name="firstPort" label="First port" type="number" required min={1024} max={65535} />
                <Field name="lastPort" label="Last port" type="number" required min={1024} max={65535} hint="1024–65535, at most 10,000 ports a range" />
              </Form>
            )}
            <h3>Ports held</h3>
            <Table<Allocation>
              label="Ports held"
              rows={current.allocations}
              rowKey={(allocation) => `${allocation.port}`}
              empty="No server holds a port here yet."
              columns={[
                { title: 'Port', cell: (allocation) => allocation.port, class: 'number' },
                { title: 'Protocol', cell: (allocation) => PROTOCOL[allocation.protocol] },
                { title: 'Server', cell: (allocation) => <a href={link('c', clusterId, 'servers', allocation.serverId)}>{allocation.serverName}</a> },
                { title: 'As', cell: (allocation) => allocation.name },
              ]}
            />
          </>
        )}
      </Show>
    </section>
  );
}

/** A server's named ports. */
export function ServerPorts({ ports }: { ports: readonly ServerPort[] }) {
  return (
    <Table<ServerPort>
      label="Ports"
      rows={[...ports]}
      rowKey={(entry) => entry.name}
      empty="No ports."
      columns={[
        { title: 'Name', cell: (entry) => entry.name },
        { title: 'Port', cell: (entry) => entry.port, class: 'number' },
        { title: 'Protocol', cell: (entry) => PROTOCOL[entry.protocol] },
      ]}
    />
  );
}

/** What the latest query found; `protocol` is the server's own query protocol (NONE: never queried). */
export function QueryState({ query, protocol }: { query: ServerQuery | null; protocol: string | null }) {
  if (protocol === 'NONE') return <p class="muted">Not queried (its query protocol is NONE): no players from a query, never UNRESPONSIVE.</p>;
  if (!query) return <p class="muted">Not queried yet: the agent queries the game every 15 s while it is online (a game without a query protocol never).</p>;
  const names = query.playerNames && query.playerNames.length > 0 ? ` (${query.playerNames.join(', ')})` : '';
  return (
    <dl class="facts" aria-label="Query">
      <dt>Answering</dt>
      <dd>
        <span class={query.answering ? 'query-yes' : 'query-no'}>{query.answering ? 'yes' : 'no'}</span>
        {!query.answering && query.error ? ` — ${query.error}` : ''}
        {!query.answering && query.failures > 0 ? ` (${query.failures} in a row)` : ''}
      </dd>
      <dt>Players</dt>
      <dd>
        {query.players ?? '—'} / {query.maxPlayers ?? '—'}
        {names}
      </dd>
      <dt>Map</dt>
      <dd>{query.map ?? '—'}</dd>
      <dt>Version</dt>
      <dd>{query.version ?? '—'}</dd>
      <dt>Latency</dt>
      <dd>{query.latencyMs === null ? '—' : `${query.latencyMs < 10 ? query.latencyMs.toFixed(1) : Math.round(query.latencyMs)} ms`}</dd>
      <dt>Protocol</dt>
      <dd>{query.protocol}</dd>
      <dt>Checked</dt>
      <dd>{formatTime(query.checkedAt)}</dd>
    </dl>
  );
}
