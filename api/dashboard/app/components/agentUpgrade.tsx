/**
 * The fleet upgrade of a cluster's agents on the machines page (docs/upgrades.md#upgrading-the-agents): an "Upgrade
 * agents" form (OWNER, ADMIN) when a machine's agent is behind the service's package, and the latest roll's progress,
 * machine by machine, read again every few seconds while it runs, with Cancel.
 */
import { useEffect } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import { Action, Field, Form, formatTime, Notice, Status, useLoad } from '../ui.tsx';

type AgentUpgrade = Schemas['AgentUpgrade'];

/** How often a running roll is read again. */
const POLL_MS = 2_000;

export function AgentUpgradePanel({ clusterId, behind, manage, onProgress }: { clusterId: string; behind: number; manage: boolean; onProgress: () => void }) {
  const latest = useLoad(async () => (await api.get<{ data: AgentUpgrade[] }>(`/api/v1/clusters/${clusterId}/machines/upgrades`)).data[0] ?? null, [clusterId]);
  const roll = latest.data ?? null;
  const running = roll?.state === 'RUNNING';
  const done = roll ? roll.machines.filter((machine) => machine.state !== 'PENDING' && machine.state !== 'UPGRADING').length : 0;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      latest.reload();
      onProgress(); // the machines' versions change as they come back
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, roll?.id]);
  return (
    <div class="agent-upgrade">
      {manage && behind > 0 && !running && (
        <Form
          class="form inline"
          submit="Upgrade agents"
          onSubmit={async ({ batchSize }) => {
            await api.post<AgentUpgrade>(`/api/v1/clusters/${clusterId}/machines/upgrade`, { batchSize: Number(batchSize) });
            latest.reload();
            return true;
          }}
        >
          <Field
            name="batchSize"
            label={`${behind} machine${behind === 1 ? '' : 's'} behind the service's agent; upgrade at once`}
            type="number"
            min={1}
            max={100}
            value="1"
            required
          />
        </Form>
      )}
      {roll && (
        <section aria-label="Agent upgrade">
          <h2>
            Agent upgrade to {roll.version}: <Status status={roll.state} /> ({done} of {roll.machines.length} machines done)
          </h2>
          {roll.reason && <Notice kind={roll.state === 'FAILED' ? 'error' : 'info'}>{roll.reason}</Notice>}
          <ul>
            {roll.machines.map((machine) => (
              <li key={machine.machineId}>
                {machine.name}: <Status status={machine.state} /> {machine.fromVersion ?? '?'} → {machine.toVersion ?? roll.version}
                {machine.finishedAt ? `, ${formatTime(machine.finishedAt)}` : ''}
                {machine.reason ? ` (${machine.reason})` : ''}
              </li>
            ))}
          </ul>
          {manage && running && (
            <Action
              class="danger"
              confirm="Cancel the agent upgrade? Machines not yet started keep their agent."
              run={async () => (await api.post(`/api/v1/clusters/${clusterId}/machines/upgrades/${roll.id}/cancel`, {}), latest.reload())}
            >
              Cancel upgrade
            </Action>
          )}
        </section>
      )}
    </div>
  );
}
