/** The servers of a cluster: status live (the cluster's events), players, CPU and memory; creating one (OWNER, ADMIN). */
import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { all, api } from '../session.ts';
import { ENDED, RESUMED, useLive, type LiveEvent } from '../live.ts';
import { link, type PageProps } from '../nav.ts';
import { can, Field, Form, formatBytes, Select, Show, Status, Table, useLoad } from '../ui.tsx';
import { liveStats } from './server.tsx';
import { TemplatePicker, VariableFields, variablesFrom, type TemplateSummary, type TemplateVariable } from './templateFields.tsx';

type Server = Schemas['Server'];
type Machine = Schemas['Machine'];
const GAMES = ['MINECRAFT', 'RUST', 'ARK_SURVIVAL_EVOLVED', 'CS2', 'VALHEIM', 'CUSTOM'];

/** Every record of a list: the first page says how many pages there are, the others are asked for at once. */
export function ServersPage({ cluster }: PageProps) {
  const servers = useLoad(() => all<Server>(`/api/v1/clusters/${cluster.id}/servers`, { sort: 'name' }), [cluster.id]);
  const [creating, setCreating] = useState(false);

  // Status and players change live; CPU and memory come with the servers' records, read again every 15 s.
  useLive({ clusterId: cluster.id, types: ['server.status', 'player.joined', 'player.left'] }, (event: LiveEvent) => {
    if (event.type === RESUMED || event.type === ENDED) return servers.reload(); // missed events, or access lost: read again
    const serverId = event.data.serverId as string | undefined;
    if (event.clusterId !== cluster.id || !serverId) return;
    servers.setData(
      (rows) =>
        rows.map((server) => {
          if (server.id !== serverId) return server;
          if (event.type === 'server.status') return { ...server, status: event.data.status as Server['status'] };
          if (event.type === 'player.joined') return { ...server, playersOnline: server.playersOnline + 1 };
          if (event.type === 'player.left') return { ...server, playersOnline: Math.max(0, server.playersOnline - 1) };
          return server;
        }),
      event.type === 'server.status', // a count's step is not applied again to a newer read (it may count it already)
    );
  });
  useEffect(() => {
    const timer = setInterval(servers.reload, 15_000);
    return () => clearInterval(timer);
  }, [servers.reload]);

  return (
    <section>
      <header class="page-head">
        <h1>Servers</h1>
        {can(cluster.role, 'manage') && (
          <button type="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
            {creating ? 'Close' : 'New server'}
          </button>
        )}
      </header>
      {creating && <CreateServer clusterId={cluster.id} />}
      <Show loaded={servers}>
        {(rows) => (
          <Table
            label="Servers"
            rows={rows}
            rowKey={(server) => server.id}
            empty="No servers yet."
            columns={[
              { title: 'Name', cell: (server) => <a href={link('c', cluster.id, 'servers', server.id)}>{server.name}</a> },
              { title: 'Game', cell: (server) => server.gameType },
              { title: 'Status', cell: (server) => <Status status={server.status} /> },
              { title: 'Players', cell: (server) => `${server.playersOnline} / ${server.maxPlayers}`, class: 'number' },
              { title: 'CPU', cell: (server) => (liveStats(server) ? `${liveStats(server)!.cpuPercent.toFixed(0)} %` : '—'), class: 'number' },
              { title: 'Memory', cell: (server) => formatBytes(liveStats(server)?.memoryBytes), class: 'number' },
            ]}
          />
        )}
      </Show>
    </section>
  );
}

/** The template chosen in the form, with its variables (read when chosen: the list carries no documents). */
type Chosen = { summary: TemplateSummary; variables: TemplateVariable[] };

function CreateServer({ clusterId }: { clusterId: string }) {
  const machines = useLoad(() => all<Machine>(`/api/v1/clusters/${clusterId}/machines`), [clusterId]);
  const templates = useLoad(() => all<TemplateSummary>('/api/v1/templates'), []);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const choose = async (id: string) => {
    const summary = templates.data?.find((template) => template.id === id);
    if (!summary) return;
    const record = await api.get<{ document: { variables?: TemplateVariable[] } }>(`/api/v1/templates/${encodeURIComponent(id)}`);
    setChosen({ summary, variables: record.document.variables ?? [] });
  };
  const number = (value: string | undefined) => (value ? Number(value) : undefined);
  return (
    <Show loaded={machines}>
      {(rows) =>
        rows.length === 0 ? (
          <p class="notice info">
            Register a machine first: <a href={link('c', clusterId, 'machines')}>Machines</a>.
          </p>
        ) : (
          <Form
            class="form grid"
            submit="Create server"
            onSubmit={async (values) => {
              const body: Record<string, unknown> = {
                name: values.name,
                gameType: chosen ? chosen.summary.gameType : values.gameType,
                machineId: values.machineId,
                gamePort: number(values.gamePort),
                queryPort: number(values.queryPort),
                rconPort: number(values.rconPort),
                maxPlayers: number(values.maxPlayers),
                acceptEula: values.acceptEula === 'true',
              };
              if (chosen) {
                body.templateId = chosen.summary.id;
                const variables = variablesFrom(values, chosen.variables);
                if (Object.keys(variables).length > 0) body.variables = variables;
              }
              if (values.startCommand) body.startCommand = values.startCommand;
              Object.assign(body, customBehaviour(values));
              if (values.version) body.version = values.version;
              if (values.rconPassword) body.rconPassword = values.rconPassword;
              const server = await api.post<Server>(`/api/v1/clusters/${clusterId}/servers`, body);
              location.hash = link('c', clusterId, 'servers', server.id);
            }}
          >
            <Field name="name" label="Name" required maxLength={100} />
            <Show loaded={templates}>
              {(list) => <TemplatePicker templates={list} chosen={chosen?.summary.id ?? null} onChoose={(id) => void choose(id)} />}
            </Show>
            {chosen ? (
              <p class="muted">
                {chosen.summary.name}, template version {chosen.summary.version}
                {chosen.summary.description ? `: ${chosen.summary.description}` : ''}{' '}
                <button type="button" class="link" onClick={() => setChosen(null)}>
                  Choose none
                </button>
              </p>
            ) : (
              <Select name="gameType" label="Game" options={GAMES} />
            )}
            {chosen && <VariableFields key={chosen.summary.id} variables={chosen.variables} />}
            <Select name="machineId" label="Machine" options={rows.map((machine) => [machine.id, `${machine.name} (${machine.status})`] as [string, string])} />
            <Field name="gamePort" label="Game port" type="number" min={1} max={65535} hint="Empty: a free one is picked from the machine's port ranges" />
            <Field name="queryPort" label="Query port" type="number" min={1} max={65535} hint="Empty: picked (at the game's offset)" />
            <Field name="rconPort" label="RCON port" type="number" min={1} max={65535} hint="Empty: picked (at the game's offset)" />
            <Field name="maxPlayers" label="Max players" type="number" min={1} />
            <Field name="rconPassword" label="RCON password" type="password" autocomplete="new-password" />
            <Field name="version" label="Version" hint="Empty: the latest" />
            <Field name="startCommand" label="Start command" hint="Empty: the game's own (installed for you)" />
            <Field name="acceptEula" label="I accept the game's EULA" type="checkbox" />
            <fieldset class="form grid">
              <legend>CUSTOM servers: when ready, console, stop (empty: RCON)</legend>
              <Select name="ready" label="Ready when" options={READY_MODES} />
              <Field
                name="readyPattern"
                label="Ready line pattern"
                hint="A regular expression an output line matches, e.g. Server started (no backreferences or lookaround)"
              />
              <Field name="readyPort" label="Ready port" type="number" min={1} max={65535} hint="Empty: the gamePort" />
              <Field name="readyTimeoutSeconds" label="Start time-out (s)" type="number" min={1} max={420} hint="Empty: 300" />
              <Select name="consoleMode" label="Console" options={CONSOLE_MODES} />
              <Select name="stop" label="Stop by" options={STOP_MODES} />
              <Field name="stopCommand" label="Stop command" hint="Sent on the console, e.g. stop" />
              <Select name="stopSignal" label="Stop signal" options={STOP_SIGNALS} />
              <Field name="stopGraceSeconds" label="Grace before SIGTERM (s)" type="number" min={1} max={120} hint="Empty: 30; SIGKILL 30 s after SIGTERM" />
            </fieldset>
          </Form>
        )
      }
    </Show>
  );
}

export const READY_MODES: [string, string][] = [
  ['', "The game's own (CUSTOM: RCON answers)"],
  ['LINE', 'A line matches the pattern'],
  ['PORT', 'A port accepts connections'],
  ['RCON', 'RCON answers'],
  ['IMMEDIATE', 'At once'],
];
export const CONSOLE_MODES: [string, string][] = [
  ['', "The game's own (CUSTOM: RCON)"],
  ['RCON', 'RCON'],
  ['STDIN', 'Standard input'],
  ['NONE', 'None'],
];
export const STOP_MODES: [string, string][] = [
  ['', "The game's own (CUSTOM: RCON quit)"],
  ['COMMAND', 'A console command'],
  ['SIGNAL', 'A signal'],
];
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGHUP', 'SIGUSR1', 'SIGUSR2'];

/**
 * The form's `ready`, `consoleMode` and `stop` as the API takes them; the fields of a mode not chosen are left out. The
 * mode selects are named after the API's fields, so that the API's message about one shows under it.
 */
export function customBehaviour(values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const seconds = (value: string | undefined) => (value ? Number(value) : undefined);
  if (values.ready) {
    body.ready = {
      mode: values.ready,
      ...(values.ready === 'LINE' ? { pattern: values.readyPattern } : {}),
      ...(values.ready === 'PORT' && values.readyPort ? { port: Number(values.readyPort) } : {}),
      ...(values.readyTimeoutSeconds ? { timeoutSeconds: seconds(values.readyTimeoutSeconds) } : {}),
    };
  }
  if (values.consoleMode) body.consoleMode = values.consoleMode;
  if (values.stop) {
    body.stop = {
      mode: values.stop,
      ...(values.stop === 'COMMAND' ? { command: values.stopCommand } : { signal: values.stopSignal }),
      ...(values.stopGraceSeconds ? { graceSeconds: seconds(values.stopGraceSeconds) } : {}),
    };
  }
  return body;
}
