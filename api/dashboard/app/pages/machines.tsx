/**
 * Machines: status and load live, metrics, registering one (OWNER, ADMIN) with the one line to paste on it, a new install
 * line for one already registered (to reinstall it, or when its first line expired), removing, each agent's version
 * and the fleet upgrade of the agents (components/agentUpgrade.tsx), its addresses, port ranges and the ports its servers
 * hold (components/ports.tsx).
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { all, api } from '../session.ts';
import { ENDED, RESUMED, useLive } from '../live.ts';
import type { PageProps } from '../nav.ts';
import { Action, can, Field, Form, formatBytes, formatTime, Show, ShownOnce, Status, Table, useLoad } from '../ui.tsx';
import { MetricsCharts } from '../components/metricsCharts.tsx';
import { MachinePorts } from '../components/ports.tsx';
import { AgentUpgradePanel } from '../components/agentUpgrade.tsx';

type Machine = Schemas['Machine'];
type Registered = Schemas['MachineRegistered'];
type InstallLine = Schemas['MachineInstallCode'];

export function MachinesPage({ cluster }: PageProps) {
  const machines = useLoad(() => all<Machine>(`/api/v1/clusters/${cluster.id}/machines`, { sort: 'name' }), [cluster.id]);
  const [registered, setRegistered] = useState<Registered | null>(null);
  const [line, setLine] = useState<{ name: string; install: InstallLine['install'] } | null>(null);
  const [chart, setChart] = useState<string | null>(null);
  const [ports, setPorts] = useState<string | null>(null);
  const manage = can(cluster.role, 'manage');
  useLive({ clusterId: cluster.id, types: ['machine.status'] }, (event) => {
    if (event.type === RESUMED || event.type === ENDED) return machines.reload(); // missed events, or access lost: read again
    if (event.type !== 'machine.status' || event.clusterId !== cluster.id) return;
    machines.setData((rows) =>
      rows.map((machine) => (machine.id === event.data.machineId ? { ...machine, status: event.data.status as Machine['status'] } : machine)),
    );
    if (event.data.status === 'ONLINE') machines.reload(); // its host facts arrive with the first heartbeat
  });
  return (
    <section>
      <h1>Machines</h1>
      {manage && (
        <Form
          class="form inline"
          submit="Register machine"
          onSubmit={async ({ name }) => {
            setRegistered(await api.post<Registered>(`/api/v1/clusters/${cluster.id}/machines`, { name }));
            machines.reload();
            return true;
          }}
        >
          <Field name="name" label="New machine's name" required maxLength={100} />
        </Form>
      )}
      {registered && (
        <ShownOnce
          label="Install the agent"
          notice={`${registered.name} is registered. Paste this line on the machine (Linux with Node.js 20 or later, as root or as a user who may use sudo) before ${formatTime(registered.install.expiresAt)}: its registration code works once, within an hour. It is shown only now.`}
          secret={registered.install.command}
          onDone={() => setRegistered(null)}
        />
      )}
      {line && (
        <ShownOnce
          label={`New install line for ${line.name}`}
          notice={`Paste this line on ${line.name} (as root or as a user who may use sudo) before ${formatTime(line.install.expiresAt)}: its registration code works once, within an hour. The machine's agent keeps its current token until the agent this line installs first connects; earlier unused lines no longer work. It is shown only now.`}
          secret={line.install.command}
          onDone={() => setLine(null)}
        />
      )}
      <Show loaded={machines}>
        {(rows) => (
          <>
            <AgentUpgradePanel
              clusterId={cluster.id}
              behind={rows.filter((machine) => machine.upgradeAvailable).length}
              manage={manage}
              onProgress={machines.reload}
            />
            <Table
              label="Machines"
              rows={rows}
              rowKey={(machine) => machine.id}
              empty="No machines yet. Register one, then paste its line on the machine."
              columns={[
                { title: 'Name', cell: (machine) => machine.name },
                { title: 'Status', cell: (machine) => <Status status={machine.status} /> },
                { title: 'Host', cell: (machine) => [machine.hostname, machine.os].filter(Boolean).join(' · ') || '—' },
                {
                  title: 'CPU',
                  cell: (machine) => (machine.metrics ? `${machine.metrics.cpuPercent.toFixed(0)} % of ${machine.cpuCount ?? '?'}` : '—'),
                  class: 'number',
                },
                {
                  title: 'Memory',
                  cell: (machine) => (machine.metrics ? `${formatBytes(machine.metrics.memoryUsedBytes)} / ${formatBytes(machine.memoryBytes)}` : '—'),
                  class: 'number',
                },
                {
                  title: 'Agent',
                  cell: (machine) => (machine.agentVersion ? `${machine.agentVersion}${machine.upgradeAvailable ? ' (upgrade available)' : ''}` : '—'),
                },
                { title: 'Last seen', cell: (machine) => formatTime(machine.lastSeenAt) },
                {
                  title: 'Actions',
                  cell: (machine: Machine) => (
                    <>
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setChart(chart === machine.id ? null : machine.id)}
                        aria-expanded={chart === machine.id}
                      >
                        Metrics
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setPorts(ports === machine.id ? null : machine.id)}
                        aria-expanded={ports === machine.id}
                      >
                        Ports
                      </button>
                      {manage && (
                        <Action
                          class="secondary"
                          run={async () => {
                            const answer = await api.post<InstallLine>(`/api/v1/machines/${machine.id}/install-code`, {});
                            setRegistered(null);
                            setLine({ name: machine.name, install: answer.install });
                          }}
                        >
                          New install line
                        </Action>
                      )}
                      {manage && (
                        <Action
                          class="danger"
                          confirm={`Remove ${machine.name}? Its servers must be deleted first.`}
                          run={async () => (await api.request('delete', `/api/v1/machines/${machine.id}`), machines.reload())}
                        >
                          Remove
                        </Action>
                      )}
                    </>
                  ),
                },
              ]}
            />
          </>
        )}
      </Show>
      {chart && <MetricsCharts path={`/api/v1/machines/${chart}/metrics`} kind="machine" />}
      {ports && (
        <MachinePorts
          key={ports}
          clusterId={cluster.id}
          machineId={ports}
          machineName={machines.data?.find((machine) => machine.id === ports)?.name ?? 'the machine'}
          manage={manage}
        />
      )}
    </section>
  );
}
