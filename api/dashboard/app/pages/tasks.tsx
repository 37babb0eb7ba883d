/**
 * Scheduled tasks: the list with their next and last runs, create and edit (OWNER, ADMIN) with the next five run times
 * shown in the task's time zone as the schedule is typed (`GET /tasks/schedule-preview`, the scheduler's own rules),
 * run now and delete.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { all, api, messageOf } from '../session.ts';
import { link, type PageProps } from '../nav.ts';
import { Action, can, Field, Form, Notice, Show, Status, Table, useLoad } from '../ui.tsx';

type Task = Schemas['Task'];
type Server = Schemas['Server'];
type StepType = 'START' | 'STOP' | 'RESTART' | 'RCON' | 'BROADCAST' | 'WIPE' | 'BACKUP';
type Step = { type: StepType; command?: string; message?: string; delaySeconds: number; continueOnFailure: boolean };
const STEP_TYPES: StepType[] = ['START', 'STOP', 'RESTART', 'RCON', 'BROADCAST', 'WIPE', 'BACKUP'];
const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function TasksPage({ cluster }: PageProps) {
  const tasks = useLoad(() => all<Task>(`/api/v1/clusters/${cluster.id}/tasks`, { sort: 'name' }), [cluster.id]);
  const servers = useLoad(() => all<Server>(`/api/v1/clusters/${cluster.id}/servers`, { sort: 'name' }), [cluster.id]);
  const [editing, setEditing] = useState<Task | 'new' | null>(null);
  const manage = can(cluster.role, 'manage');
  return (
    <section>
      <header class="page-head">
        <h1>Tasks</h1>
        {manage && (
          <button type="button" onClick={() => setEditing(editing ? null : 'new')} aria-expanded={editing !== null}>
            {editing ? 'Close' : 'New task'}
          </button>
        )}
      </header>
      {editing && servers.data && (
        <TaskForm
          key={editing === 'new' ? 'new' : editing.id}
          clusterId={cluster.id}
          task={editing === 'new' ? null : editing}
          servers={servers.data}
          onSaved={() => (setEditing(null), tasks.reload())}
        />
      )}
      <Show loaded={tasks}>
        {(rows) => (
          <Table
            label="Tasks"
            rows={rows}
            rowKey={(task) => task.id}
            empty="No tasks yet. A task runs steps on servers on a schedule: restarts, wipes, backups, broadcasts."
            columns={[
              { title: 'Name', cell: (task) => <a href={link('c', cluster.id, 'tasks', task.id)}>{task.name}</a> },
              { title: 'Schedule', cell: (task) => `${task.schedule} (${task.timezone})` },
              { title: 'Next run', cell: (task) => (task.enabled ? inZone(task.nextRunAt, task.timezone) : 'disabled') },
              { title: 'Last run', cell: (task) => (task.lastRunStatus ? <Status status={task.lastRunStatus} /> : '—') },
              ...(manage
                ? [
                    {
                      title: 'Actions',
                      cell: (task: Task) => (
                        <>
                          <button type="button" class="secondary" onClick={() => setEditing(task)}>
                            Edit
                          </button>
                          <Action run={async () => (await api.post(`/api/v1/tasks/${task.id}/run`), tasks.reload())}>Run now</Action>
                          <Action
                            class="danger"
                            confirm={`Delete the task "${task.name}"?`}
                            run={async () => (await api.request('delete', `/api/v1/tasks/${task.id}`), tasks.reload())}
                          >
                            Delete
                          </Action>
                        </>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Show>
    </section>
  );
}

/** An instant as the wall time of `timezone`, with the zone's name. */
function inZone(value: string | null | undefined, timezone: string): string {
  if (!value) return '—';
  try {
    return new Intl.DateTimeFormat(undefined, {
      timeZone: timezone,
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(value));
  } catch {
    return new Date(value).toLocaleString(); // a zone this browser does not know
  }
}

function TaskForm({ clusterId, task, servers, onSaved }: { clusterId: string; task: Task | null; servers: Server[]; onSaved: () => void }) {
  const [schedule, setSchedule] = useState(task?.schedule ?? '0 4 * * *');
  const [timezone, setTimezone] = useState(task?.timezone ?? localZone);
  const [steps, setSteps] = useState<Step[]>(
    (task?.steps as Step[] | undefined) ?? [
      { type: 'BROADCAST', message: 'Restarting in 5 minutes', delaySeconds: 0, continueOnFailure: true },
      { type: 'RESTART', delaySeconds: 300, continueOnFailure: false },
    ],
  );
  const [preview, setPreview] = useState<{ runs: string[]; error: string | null }>({ runs: [], error: null });

  // The next five runs, asked for a moment after the schedule or the zone stops changing.
  useEffect(() => {
    const timer = setTimeout(() => {
      api.get<{ runs: string[] }>('/api/v1/tasks/schedule-preview', { schedule, timezone, count: 5 }).then(
        (answer) => setPreview({ runs: answer.runs, error: null }),
        (error: unknown) => setPreview({ runs: [], error: messageOf(error) }),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [schedule, timezone]);

  const change = (index: number, patch: Partial<Step>) => setSteps(steps.map((step, at) => (at === index ? { ...step, ...patch } : step)));
  return (
    <Form
      class="form task"
      submit={task ? 'Save task' : 'Create task'}
      onSubmit={async (values, form) => {
        const serverIds = [...form.querySelectorAll<HTMLInputElement>('input[name=serverIds]:checked')].map((box) => box.value);
        const body = {
          name: values.name,
          schedule,
          timezone,
          serverIds,
          onlyWhenOnline: values.onlyWhenOnline === 'true',
          enabled: values.enabled === 'true',
          steps: steps.map((step) => ({
            type: step.type,
            delaySeconds: step.delaySeconds,
            continueOnFailure: step.continueOnFailure,
            ...(step.type === 'RCON' ? { command: step.command ?? '' } : {}),
            ...(step.type === 'BROADCAST' ? { message: step.message ?? '' } : {}),
          })),
        };
        if (task) await api.request('patch', `/api/v1/tasks/${task.id}`, { body });
        else await api.post(`/api/v1/clusters/${clusterId}/tasks`, body);
        onSaved();
      }}
    >
      <Field name="name" label="Name" defaultValue={task?.name ?? ''} required maxLength={100} />
      <Field
        name="schedule"
        label="Schedule (cron: minute hour day month weekday)"
        value={schedule}
        onInput={(event) => setSchedule(event.currentTarget.value)}
        required
      />
      <Field name="timezone" label="Time zone" value={timezone} onInput={(event) => setTimezone(event.currentTarget.value)} required />
      <div class="preview" aria-live="polite">
        {preview.error ? (
          <Notice kind="error">{preview.error}</Notice>
        ) : (
          <>
            <span>Next runs ({timezone}):</span>
            <ol class="next-runs">
              {preview.runs.map((run) => (
                <li key={run}>{inZone(run, timezone)}</li>
              ))}
            </ol>
          </>
        )}
      </div>
      <fieldset>
        <legend>Servers</legend>
        {servers.length === 0 && <p class="muted">No servers in this cluster yet.</p>}
        {servers.map((server) => (
          <label key={server.id} class="field checkbox">
            <span>{server.name}</span>
            <input type="checkbox" name="serverIds" value={server.id} defaultChecked={task?.serverIds.includes(server.id) ?? servers.length === 1} />
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Steps, in order</legend>
        {steps.map((step, index) => (
          <div class="step" key={index}>
            <label class="field">
              <span>Step {index + 1}</span>
              <select
                aria-label={`Step ${index + 1} type`}
                value={step.type}
                onChange={(event) => change(index, { type: event.currentTarget.value as StepType })}
              >
                {STEP_TYPES.map((type) => (
                  <option key={type}>{type}</option>
                ))}
              </select>
            </label>
            {step.type === 'RCON' && (
              <label class="field">
                <span>Command</span>
                <input value={step.command ?? ''} onInput={(event) => change(index, { command: event.currentTarget.value })} />
              </label>
            )}
            {step.type === 'BROADCAST' && (
              <label class="field">
                <span>Message</span>
                <input value={step.message ?? ''} onInput={(event) => change(index, { message: event.currentTarget.value })} />
              </label>
            )}
            <label class="field">
              <span>Wait before (s)</span>
              <input
                type="number"
                min={0}
                max={3600}
                value={step.delaySeconds}
                onInput={(event) => change(index, { delaySeconds: Number(event.currentTarget.value) })}
              />
            </label>
            <label class="field checkbox">
              <span>Go on if it fails</span>
              <input type="checkbox" checked={step.continueOnFailure} onChange={(event) => change(index, { continueOnFailure: event.currentTarget.checked })} />
            </label>
            <button type="button" class="link" aria-label={`Remove step ${index + 1}`} onClick={() => setSteps(steps.filter((_, at) => at !== index))}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" class="secondary" onClick={() => setSteps([...steps, { type: 'RESTART', delaySeconds: 0, continueOnFailure: false }])}>
          Add step
        </button>
      </fieldset>
      <Field name="onlyWhenOnline" label="Only servers that are online" type="checkbox" defaultChecked={task?.onlyWhenOnline ?? false} />
      <Field name="enabled" label="Enabled" type="checkbox" defaultChecked={task?.enabled ?? true} />
    </Form>
  );
}
