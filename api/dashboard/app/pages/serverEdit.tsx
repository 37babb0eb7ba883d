/**
 * A server's settings (OWNER, ADMIN): every field `PATCH /api/v1/servers/<id>` takes, in groups. Only the fields that
 * differ from the server's record are sent, so a save never overwrites what someone else changed in another field
 * meanwhile; the API's 400 `details` are shown at their fields.
 *
 * A group is a title, which servers it applies to, and its fields: a field the API gains is one line here.
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import { link, type PageProps } from '../nav.ts';
import { can, Field, Form, Notice, Select, Show, useFieldError, useLoad } from '../ui.tsx';
import { CONSOLE_MODES, customBehaviour, READY_MODES, STOP_MODES, STOP_SIGNALS } from './servers.tsx';
import { VariableFields, variablesFrom, type TemplateVariable } from './templateFields.tsx';

type Server = Schemas['Server'];
type Body = Record<string, unknown>;

/**
 * How a field's text becomes the value sent: `text` as typed; `optionalText` empty is null (the game's own, none);
 * `int` a whole number (anything else is sent as typed, for the API to name the problem); `optionalInt` empty is null
 * (no limit); `flag` a checkbox; `secret` is write-only, empty leaves it as it is; `choice` one of `options` (a select; its empty option is null).
 */
type Kind = 'text' | 'optionalText' | 'int' | 'optionalInt' | 'flag' | 'secret' | 'choice';
type FieldSpec = {
  name: string;
  label: string;
  kind: Kind;
  hint?: string;
  current: (server: Server) => unknown;
  appliesTo?: (server: Server) => boolean;
  options?: (string | [string, string])[];
  /** Text that may span lines (a shell command): a textarea, which keeps line breaks an input would drop. */
  multiline?: boolean;
};
type Group = { title: string; appliesTo?: (server: Server) => boolean; fields: FieldSpec[] };

const custom = (server: Server) => server.gameType === 'CUSTOM';
const own = (name: keyof Server) => (server: Server) => server[name];

const GROUPS: Group[] = [
  {
    title: 'General',
    fields: [
      { name: 'name', label: 'Name', kind: 'text', current: own('name') },
      { name: 'maxPlayers', label: 'Max players', kind: 'int', current: own('maxPlayers') },
      { name: 'autoRestart', label: 'Restart it when it crashes', kind: 'flag', current: own('autoRestart') },
    ],
  },
  {
    title: 'Ports',
    fields: [
      { name: 'gamePort', label: 'Game port', kind: 'int', current: own('gamePort') },
      { name: 'queryPort', label: 'Query port', kind: 'int', current: own('queryPort') },
      { name: 'rconPort', label: 'RCON port', kind: 'int', current: own('rconPort') },
    ],
  },
  {
    title: 'Query and liveness',
    fields: [
      {
        name: 'queryProtocol',
        label: 'Query protocol',
        kind: 'choice',
        options: [
          ['', "The game's own"],
          ['A2S', 'A2S (Steam)'],
          ['MINECRAFT', 'Minecraft Server List Ping'],
          ['TCP', 'TCP connect'],
          ['NONE', 'None: never queried'],
        ],
        current: own('queryProtocol'),
      },
      { name: 'unresponsiveAfter', label: 'Unresponsive after failed queries', kind: 'int', hint: '15 s apart; 1–100', current: own('unresponsiveAfter') },
      { name: 'restartWhenUnresponsive', label: 'Restart it when unresponsive', kind: 'flag', current: own('restartWhenUnresponsive') },
    ],
  },
  {
    title: 'Process',
    fields: [
      { name: 'startCommand', label: 'Start command', kind: 'optionalText', hint: "Empty: the game's own", current: own('startCommand'), multiline: true },
      {
        name: 'installCommand',
        label: 'Install command',
        kind: 'optionalText',
        hint: 'What an install or update runs in the server directory (the other games install themselves)',
        current: own('installCommand'),
        appliesTo: custom,
        multiline: true,
      },
    ],
  },
  {
    title: 'Limits',
    fields: [
      { name: 'memoryLimitMb', label: 'Memory limit (MiB)', kind: 'optionalInt', hint: 'Empty: no limit', current: own('memoryLimitMb') },
      { name: 'cpuLimitPercent', label: 'CPU limit (% of one core)', kind: 'optionalInt', hint: 'Empty: no limit', current: own('cpuLimitPercent') },
    ],
  },
  {
    title: 'Game and backups',
    fields: [
      { name: 'version', label: 'Version', kind: 'optionalText', hint: 'Empty: the latest release', current: own('version') },
      { name: 'acceptEula', label: "I accept the game's EULA", kind: 'flag', current: own('acceptEula') },
      { name: 'backupRetention', label: 'Backups kept', kind: 'int', current: own('backupRetention') },
    ],
  },
  {
    title: 'RCON',
    fields: [{ name: 'rconPassword', label: 'New RCON password', kind: 'secret', hint: 'Empty: unchanged', current: () => undefined }],
  },
];
/** The groups and fields that apply to a server. */
const groupsOf = (server: Server) =>
  GROUPS.filter((group) => !group.appliesTo || group.appliesTo(server))
    .map((group) => ({ ...group, fields: group.fields.filter((field) => !field.appliesTo || field.appliesTo(server)) }))
    .filter((group) => group.fields.length > 0);

/** The value to send for a field's text; undefined: leave it as it is. */
function read(kind: Kind, text: string): unknown {
  const trimmed = text.trim();
  switch (kind) {
    case 'flag':
      return text === 'true';
    case 'secret':
      return text === '' ? undefined : text;
    case 'optionalText':
      return trimmed === '' ? null : trimmed;
    case 'optionalInt':
      return trimmed === '' ? null : wholeNumber(trimmed);
    case 'int':
      return wholeNumber(trimmed);
    case 'choice':
      return text === '' ? null : text;
    default:
      return text;
  }
}

const wholeNumber = (text: string) => (/^-?\d+$/.test(text) ? Number(text) : text);
const shown = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Variables as rows of name and value; an empty name drops its row. */
type Row = { name: string; value: string };
const rowsOf = (env: Server['env']): Row[] => Object.entries(env ?? {}).map(([name, value]) => ({ name, value }));
function envOf(rows: Row[]): Record<string, string> | null {
  const kept = rows.filter((row) => row.name.trim() !== '');
  return kept.length === 0 ? null : Object.fromEntries(kept.map((row) => [row.name.trim(), row.value]));
}
const sameEnv = (a: Record<string, string> | null, b: Record<string, string> | null) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

export function ServerEditPage({ cluster, id }: PageProps) {
  const serverId = id!;
  const server = useLoad(() => api.get<Server>(`/api/v1/servers/${serverId}`), [serverId]);
  const [saved, setSaved] = useState<string | null>(null);
  // After a save the form starts again from the saved record.
  const [version, setVersion] = useState(0);
  if (!can(cluster.role, 'manage')) return <Notice kind="error">Only an OWNER or an ADMIN of the cluster may change a server's settings.</Notice>;
  // The role checked above is the one in the address's cluster: a server of another cluster is not this page's.
  if (server.data && server.data.clusterId !== cluster.id) return <Notice kind="error">This server is not in the cluster {cluster.name}.</Notice>;
  return (
    <Show loaded={server}>
      {(current) => (
        <section>
          <header class="page-head">
            <h1>Settings of {current.name}</h1>
            <a href={link('c', cluster.id, 'servers', serverId)}>Back to the server</a>
          </header>
          <p class="muted">Changes to the process (command, ports, variables, limits) apply at its next start.</p>
          {saved && <Notice kind="success">{saved}</Notice>}
          <EditForm
            key={`${current.updatedAt}-${version}`}
            server={current}
            onSaved={(updated, fields) => {
              server.setData(() => updated);
              setVersion(version + 1);
              setSaved(fields.length === 0 ? 'Nothing to save: no field was changed.' : `Saved: ${fields.join(', ')}.`);
            }}
            onEdit={() => setSaved(null)}
          />
        </section>
      )}
    </Show>
  );
}

function EditForm({ server, onSaved, onEdit }: { server: Server; onSaved: (server: Server, fields: string[]) => void; onEdit: () => void }) {
  const [env, setEnv] = useState<Row[]>(rowsOf(server.env));
  // The variables of the server's template (its current version: what its next start runs).
  const template = useLoad(
    () =>
      server.templateId
        ? api.get<{ name: string; version: number; document: { variables?: TemplateVariable[] } }>(`/api/v1/templates/${encodeURIComponent(server.templateId)}`)
        : Promise.resolve(null),
    [server.templateId],
  );
  const templateVariables = template.data?.document.variables ?? [];
  const groups = groupsOf(server);
  return (
    <Form
      class="form edit"
      submit="Save changes"
      onSubmit={async (values, form) => {
        const body: Body = {};
        for (const group of groups)
          for (const field of group.fields) {
            const text = values[field.name] ?? '';
            // Untouched: what the input showed at the start (an input may show a value other than the record's).
            const input = form.elements.namedItem(field.name) as HTMLInputElement | HTMLTextAreaElement | null;
            if (field.kind !== 'flag' && field.kind !== 'choice' && input && text === input.defaultValue) continue;
            const value = read(field.kind, text);
            if (value !== undefined && value !== field.current(server)) body[field.name] = value;
          }
        const variables = envOf(env);
        if (!sameEnv(variables, server.env)) body.env = variables;
        const settings = variablesFrom(values, templateVariables, server.variables);
        if (Object.keys(settings).length > 0) body.variables = settings;
        if (custom(server)) {
          // A mode left empty is the game's own behaviour again (null); a group is sent only when it differs.
          const wanted = customBehaviour(values);
          for (const key of BEHAVIOUR) if (canonical(wanted[key] ?? null) !== canonical(server[key] ?? null)) body[key] = wanted[key] ?? null;
        }
        const fields = Object.keys(body);
        if (fields.length === 0) return onSaved(server, []);
        onSaved(await api.request<Server>('patch', `/api/v1/servers/${server.id}`, { body }), fields);
      }}
    >
      <div class="fields" onInput={onEdit}>
        {groups.map((group) => (
          <fieldset key={group.title}>
            <legend>{group.title}</legend>
            {group.fields.map((field) =>
              field.kind === 'choice' ? (
                <Select key={field.name} name={field.name} label={field.label} options={field.options ?? []} initial={shown(field.current(server))} />
              ) : field.kind === 'flag' ? (
                <Field
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  type="checkbox"
                  defaultChecked={field.current(server) === true}
                  hint={field.hint}
                />
              ) : (
                <Field
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  hint={field.hint}
                  multiline={field.multiline}
                  type={field.kind === 'secret' ? 'password' : 'text'}
                  autocomplete={field.kind === 'secret' ? 'new-password' : 'off'}
                  defaultValue={shown(field.current(server))}
                />
              ),
            )}
          </fieldset>
        ))}
        {custom(server) && <Behaviour server={server} />}
        {template.data && (
          <>
            <p class="muted">
              Template: {template.data.name} (version {template.data.version}; the server last started with version {server.templateVersion ?? '—'})
            </p>
            <VariableFields
              variables={templateVariables}
              values={server.variables}
              secretsSet={Object.entries(server.secretVariables).flatMap(([name, set]) => (set ? [name] : []))}
            />
          </>
        )}
        <Variables rows={env} onChange={setEnv} />
      </div>
    </Form>
  );
}

/** A CUSTOM server's own `ready`, `consoleMode` and `stop` (docs/servers.md#custom-servers). */
const BEHAVIOUR = ['ready', 'consoleMode', 'stop'] as const;
/** JSON with sorted keys, so the same settings compare equal whatever order their fields came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );

function Behaviour({ server }: { server: Server }) {
  const ready = server.ready;
  const stop = server.stop;
  return (
    <fieldset>
      <legend>When ready, console, stop (empty: RCON)</legend>
      <Select name="ready" label="Ready when" options={READY_MODES} initial={ready?.mode ?? ''} />
      <Field name="readyPattern" label="Ready line pattern" hint="A regular expression an output line matches" defaultValue={shown(ready?.pattern)} />
      <Field name="readyPort" label="Ready port" type="number" min={1} max={65535} hint="Empty: the gamePort" defaultValue={shown(ready?.port)} />
      <Field name="readyTimeoutSeconds" label="Start time-out (s)" type="number" min={1} hint="Empty: 300" defaultValue={shown(ready?.timeoutSeconds)} />
      <Select name="consoleMode" label="Console" options={CONSOLE_MODES} initial={server.consoleMode ?? ''} />
      <Select name="stop" label="Stop by" options={STOP_MODES} initial={stop?.mode ?? ''} />
      <Field name="stopCommand" label="Stop command" hint="Sent on the console, e.g. stop" defaultValue={shown(stop?.command)} />
      <Select name="stopSignal" label="Stop signal" options={STOP_SIGNALS} initial={stop?.signal ?? 'SIGINT'} />
      <Field
        name="stopGraceSeconds"
        label="Grace before SIGTERM (s)"
        type="number"
        min={1}
        hint="Empty: 30; SIGKILL follows 30 s later"
        defaultValue={shown(stop?.graceSeconds)}
      />
    </fieldset>
  );
}

function Variables({ rows, onChange }: { rows: Row[]; onChange: (rows: Row[]) => void }) {
  const error = useFieldError('env');
  const change = (index: number, patch: Partial<Row>) => onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <fieldset>
      <legend>Environment variables</legend>
      {rows.length === 0 && <p class="muted">None.</p>}
      {rows.map((row, index) => (
        <div class="step" key={index}>
          <label class="field">
            <span>Variable {index + 1} name</span>
            <input
              value={row.name}
              autocomplete="off"
              aria-invalid={error ? true : undefined}
              onInput={(event) => change(index, { name: event.currentTarget.value })}
            />
          </label>
          <label class="field">
            <span>Variable {index + 1} value</span>
            <textarea rows={1} value={row.value} autocomplete="off" onInput={(event) => change(index, { value: event.currentTarget.value })} />
          </label>
          <button type="button" class="link" aria-label={`Remove variable ${index + 1}`} onClick={() => onChange(rows.filter((_, at) => at !== index))}>
            Remove
          </button>
        </div>
      ))}
      {error && (
        <small class="field-error" role="alert">
          {error}
        </small>
      )}
      <button type="button" class="secondary" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        Add variable
      </button>
    </fieldset>
  );
}
